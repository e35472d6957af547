"""Flow variants in the real main window: hex button, variant generator, hex clicks."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui


@pytest.fixture
def view(main_window):
    yield main_window.show_kind("flow")


def _panel(view):
    from widgets.panels.flow import FlowPanel

    widget = view.panel("Flow")
    assert isinstance(widget, FlowPanel)
    return widget


def test_hex_button_and_hex_clicks(view, qtbot) -> None:
    panel = _panel(view)
    qtbot.mouseClick(panel.shape_button, Qt.MouseButton.LeftButton)
    assert view.doc.puzzle.hex
    assert panel.shape_button.text() == "Square board"
    board = view.board
    board.tool = "c0"
    board.mode = "edit"
    for cell in ((0, 0), (1, 1), (2, 3)):
        assert board.cell_at(board.cell_center(*cell)) == cell
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(1, 1).toPoint())
    assert view.doc.puzzle.at(1, 1) != "."
    qtbot.mouseClick(panel.shape_button, Qt.MouseButton.LeftButton)
    assert not view.doc.puzzle.hex


def test_variant_generator(view, qtbot) -> None:
    panel = _panel(view)
    panel.width_box.setValue(5)
    panel.height_box.setValue(5)
    panel.colours_box.setValue(0)
    panel.kind_box.setCurrentText("bridges")
    qtbot.mouseClick(panel.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "+" in view.doc.puzzle.cells, timeout=20000)
    assert view.plugin.count(view.doc.puzzle).status() == "unique"
