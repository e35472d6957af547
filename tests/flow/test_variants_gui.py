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
    panel.generator.width_box.setValue(5)
    panel.generator.height_box.setValue(5)
    panel.generator.colours_box.setValue(0)
    panel.generator.kind_box.setCurrentText("bridges")
    qtbot.mouseClick(panel.generator.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "+" in view.doc.puzzle.cells, timeout=20000)
    assert view.plugin.count(view.doc.puzzle).status() == "unique"


def test_hex_cursor_follows_hex_cells(view, qtbot) -> None:
    from solvers.flow import codec

    view.doc.replace(codec.parse("shape: hex\nA...\n....\n...A\n....\n"), "hex board")
    board = view.board
    board.mode = "edit"
    board.setFocus()
    qtbot.waitUntil(board.hasFocus, timeout=2000)
    board.cursor_cell = (0, 0)
    moves = [
        (Qt.Key.Key_Down, (1, 0)),  # odd rows sit half a cell right: (1,0) is the nearest below
        (Qt.Key.Key_Down, (2, 0)),  # a tie between (2,0) and (2,1) keeps the column
        (Qt.Key.Key_Right, (2, 1)),
        (Qt.Key.Key_Up, (1, 1)),
        (Qt.Key.Key_Right, (1, 2)),
        (Qt.Key.Key_Up, (0, 2)),
        (Qt.Key.Key_Up, (0, 2)),  # stays on the top row
    ]
    for key, want in moves:
        qtbot.keyClick(board, key)
        assert board.cursor_cell == want
    # The cursor is drawn on the hexagon: every pixel it changes lies inside that cell's hexagon
    # (a square cursor at the grid's square position would reach far outside it).
    board.cursor_cell = (1, 1)
    board.update()
    with_cursor = board.grab().toImage()
    board.cursor_cell = None
    board.update()
    plain = board.grab().toImage()
    centre = board.cell_center(1, 1)
    radius = view.plugin.draw(view.doc.puzzle).grid.height / 2 * board._scale
    changed = [
        (x, y)
        for x in range(int(centre.x() - 3 * radius), int(centre.x() + 3 * radius))
        for y in range(int(centre.y() - 3 * radius), int(centre.y() + 3 * radius))
        if with_cursor.pixelColor(x, y) != plain.pixelColor(x, y)
    ]
    assert len(changed) > 20
    assert all((x - centre.x()) ** 2 + (y - centre.y()) ** 2 <= (radius + 2) ** 2 for x, y in changed)


def test_wall_stroke_is_one_undo_step(view, qtbot) -> None:
    from solvers.flow import codec
    from solvers.flow.draw import geometry

    view.doc.replace(codec.parse("A...\n....\n...A\n"), "board")
    undo = view.doc.undo_stack.count()
    board = view.board
    view.set_mode("edit")
    assert view.tools.select("wall")  # as a click on the tool button (a board edit re-reads it)
    geom = geometry(view.doc.puzzle)
    board.cell_center(0, 0)  # lays the board out for the new puzzle (to_widget uses that)
    y = geom.y0 + geom.cell  # between rows 1 and 2
    points = [
        board.to_widget(geom.x0 + (0.4 + 3.2 * i / 24) * geom.cell, y + (1 if i % 2 else -1)).toPoint()
        for i in range(25)
    ]
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=points[0])
    for point in points[1:]:
        qtbot.mouseMove(board, point)
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=points[-1])
    assert view.doc.puzzle.walls == {((0, c), (1, c)) for c in range(4)}
    assert view.doc.undo_stack.count() == undo + 1
    view.window().act_undo.trigger()
    assert view.doc.puzzle.walls == frozenset()
