"""Undo steps in the shell: one step per gesture, one per key edit; fixed toolbar texts; Redo keys."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QToolButton

from solvers.common.errors import InputError
from solvers.common.protocol import EditResult
from solvers.flow import FlowPaths

pytestmark = pytest.mark.gui


def _drag(qtbot, board, cells: list[tuple[int, int]]) -> None:
    """A real mouse gesture: press on the first cell, move through the rest, release on the last."""
    points = [board.cell_center(r, c).toPoint() for r, c in cells]
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=points[0])
    for point in points[1:]:
        qtbot.mouseMove(board, point)
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=points[-1])


@pytest.fixture
def flow_play(main_window):
    view = main_window.show_kind("flow")
    view.doc.reset(view.plugin.parse("R..R\nG..G\n"), FlowPaths())
    view.set_mode("play")
    return main_window, view


def test_one_drag_is_one_undo_step(flow_play, qtbot) -> None:
    window, view = flow_play
    _drag(qtbot, view.board, [(0, 0), (0, 1), (0, 2), (0, 3)])
    assert view.doc.entries.get("R") == ((0, 0), (0, 1), (0, 2), (0, 3))
    assert view.doc.undo_stack.count() == 1
    window.act_undo.trigger()
    assert not view.doc.entries.get("R")  # no one-cell stub left behind


def test_two_drags_of_the_same_pipe_are_two_steps(flow_play, qtbot) -> None:
    window, view = flow_play
    _drag(qtbot, view.board, [(0, 0), (0, 1)])
    _drag(qtbot, view.board, [(0, 1), (0, 2), (0, 3)])
    assert view.doc.undo_stack.count() == 2
    window.act_undo.trigger()
    assert view.doc.entries.get("R") == ((0, 0), (0, 1))
    assert window.act_redo.isEnabled()
    assert "Draw red pipe" in window.act_undo.text()


def test_key_edits_in_different_cells_are_separate_steps(main_window, qtbot) -> None:
    view = main_window.show_kind("toichika")
    view.doc.reset(view.plugin.new_puzzle(4, 4))
    view.board.setFocus()
    view.board.cursor_cell = (0, 0)
    qtbot.keyClick(view.board, "1")
    view.board.cursor_cell = (0, 1)
    qtbot.keyClick(view.board, "2")
    view.board.cursor_cell = (0, 2)
    qtbot.keyClick(view.board, "3")
    assert view.doc.undo_stack.count() == 3
    assert "at R1C3" in main_window.act_undo.text()  # the label names the step's cell
    main_window.act_undo.trigger()
    assert view.doc.puzzle.given(0, 1) != 0
    assert view.doc.puzzle.given(0, 2) == 0


def test_toolbar_undo_redo_keep_fixed_text_and_name_the_step_in_a_tooltip(main_window, qtbot) -> None:
    view = main_window.show_kind("example")
    view.doc.replace(view.plugin.new_puzzle(4), "blank")
    toolbar_buttons = {
        b.text(): b for b in main_window.findChildren(QToolButton) if b.text() in ("Undo", "Redo")
    }
    assert set(toolbar_buttons) == {"Undo", "Redo"}
    width = toolbar_buttons["Undo"].sizeHint().width()
    view.tools.select("3")
    qtbot.mouseClick(view.board, Qt.MouseButton.LeftButton, pos=view.board.cell_center(1, 2).toPoint())
    assert toolbar_buttons["Undo"].text() == "Undo"
    assert toolbar_buttons["Undo"].sizeHint().width() == width
    assert "Set given at R2C3" in main_window.tool_undo.toolTip()
    qtbot.mouseClick(toolbar_buttons["Undo"], Qt.MouseButton.LeftButton)
    assert view.doc.puzzle.at(1, 2) != 3
    assert main_window.tool_redo.isEnabled()
    qtbot.mouseClick(toolbar_buttons["Redo"], Qt.MouseButton.LeftButton)
    assert view.doc.puzzle.at(1, 2) == 3


def test_redo_answers_ctrl_shift_z_and_ctrl_y(main_window) -> None:
    keys = main_window.act_redo.shortcuts()
    assert QKeySequence("Ctrl+Shift+Z") in keys and QKeySequence("Ctrl+Y") in keys


def test_ctrl_shift_z_redoes_through_the_keyboard(main_window, qtbot) -> None:
    view = main_window.show_kind("example")
    view.doc.replace(view.plugin.new_puzzle(4), "blank")
    view.doc.apply(EditResult(puzzle=view.doc.puzzle.with_cell(0, 0, 1), label="Set given at R1C1"))
    main_window.act_undo.trigger()
    view.board.setFocus()
    qtbot.keyClick(
        view.board, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert view.doc.puzzle.at(0, 0) == 1


def test_new_dialog_asks_width_then_height(main_window, qtbot) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QFormLayout, QSpinBox

    view = main_window.show_kind("flow")
    seen: list[str] = []

    def fill() -> None:
        dialog = main_window.files.size_dialog
        form = dialog.findChild(QFormLayout)
        seen.extend(form.itemAt(i, QFormLayout.ItemRole.LabelRole).widget().text() for i in range(2))
        dialog.findChild(QSpinBox, "width").setValue(7)
        dialog.findChild(QSpinBox, "height").setValue(4)
        dialog.accept()

    QTimer.singleShot(0, fill)
    main_window.act_new.trigger()
    assert seen[0].startswith("Width") and seen[1].startswith("Height")
    assert (view.doc.puzzle.cols, view.doc.puzzle.rows) == (7, 4)
    assert view.info.text().startswith("7x4")


def test_the_new_dialog_names_its_range_and_refuses_a_typed_zero(main_window, qtbot) -> None:
    """QA: typing 0 as the height kept the old height without a word, and nothing said the range."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QDialogButtonBox, QSpinBox

    view = main_window.show_kind("flow")
    before = view.doc.puzzle.rows
    seen: list[str] = []

    def type_zero() -> None:
        dialog = main_window.files.size_dialog
        seen.append(dialog.hint.text())
        height = dialog.findChild(QSpinBox, "height")
        height.selectAll()
        qtbot.keyClicks(height, "0")
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
        seen.append(dialog.hint.text())
        assert dialog.isVisible()  # still open: nothing was made of the old height
        height.selectAll()
        qtbot.keyClicks(height, "3")
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, type_zero)
    main_window.act_new.trigger()
    assert seen == [
        "1 to 100 cells each way (some modules allow less)",
        "<b>Each side must be 1 to 100 cells.</b>",
    ]
    assert view.doc.puzzle.rows == 3 != before


def test_a_new_latin_square_keeps_to_the_size_its_files_allow(main_window) -> None:
    """New 20x20 made a Latin square that saved but could not be opened again (1..9)."""
    view = main_window.show_kind("example")
    with pytest.raises(InputError, match=r"square, 1\.\.9"):
        view.plugin.new_puzzle(20, 20)
    with pytest.raises(InputError, match="square"):
        view.plugin.new_puzzle(5, 6)
    assert view.plugin.size_of(view.plugin.new_puzzle(9, 9)) == (9, 9)


def test_typing_in_the_new_dialog_replaces_the_width(main_window, qtbot) -> None:
    """QA: the caret sat before the width shown, so typing 6 made 620 (over the limit)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QSpinBox

    view = main_window.show_kind("flow")

    def type_six() -> None:
        dialog = main_window.files.size_dialog
        width = dialog.findChild(QSpinBox, "width")
        qtbot.keyClicks(width, "6")
        dialog.accept()

    QTimer.singleShot(0, type_six)
    main_window.act_new.trigger()
    assert view.doc.puzzle.cols == 6


def test_a_sample_opens_as_a_new_puzzle_and_says_so(main_window) -> None:
    """QA: the title said "untitled" while the status bar said "Opened .../07-20x12.txt"."""
    view = main_window.show_kind("flow")
    sample = view.plugin.sample_paths()[0]
    assert main_window.files.open_sample("flow", sample)
    assert view.doc.path is None
    assert main_window.statusBar().currentMessage() == f"Opened the sample {sample.stem} as a new puzzle"
    assert f"untitled, from the sample {sample.stem}" in main_window.windowTitle()  # QA pass 7


def test_the_generators_size_boxes_name_their_range(main_window) -> None:
    """QA pass 7: 99999 typed as the generator's width became 9, 0 as its height went back to 5,
    without a word; the labels now say the range (as the New dialog does)."""
    from PySide6.QtWidgets import QFormLayout

    flow = main_window.show_kind("flow").panel("Flow").generator
    toichika = main_window.show_kind("toichika").panel("Steps").generator
    for box, name in (
        (flow.width_box, "Width"),
        (flow.height_box, "Height"),
        (toichika.gen_width, "Width"),
        (toichika.gen_height, "Height"),
    ):
        form = box.parentWidget().layout()
        assert isinstance(form, QFormLayout)
        assert form.labelForField(box).text() == f"{name} ({box.minimum()}–{box.maximum()})"
