"""Tokyo Doves' tool letters are keys (QA pass 6, defect 10).

The Edit-mode buttons read "B Boss", "b Boss", "A Aniki", "a Aniki"... like shortcut hints, but
typing the letters did nothing (the tool stayed "Move / play"), and Help > Keyboard and Mouse listed
S twice ("Edit: S" and "S Switch side to move tool", where S never chose that tool). Now a letter
chooses its dove's tool as the button shows it: lower case green, Shift for the red capital."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from solvers.doves.drawing import board_cell

pytestmark = pytest.mark.gui
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def view(main_window, qtbot):
    main_window.resize(1024, 768)
    view = main_window.show_kind("doves")
    view.doc.reset(view.plugin.default_puzzle())  # green Boss on (0, 0), red Boss below it
    view.set_mode("edit")
    main_window.activateWindow()
    view.board.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(view.board.hasFocus, timeout=2000)
    return view


def _checked(view) -> str:
    button = view.tools.group.checkedButton()
    return button.text() if button is not None else ""


def test_typing_a_doves_letter_chooses_its_tool(view, qtbot) -> None:
    board = view.board
    qtbot.keyClick(board, "a")
    assert view.tools.current == "dove:a" and _checked(view) == "a Aniki"  # before: still "move"
    qtbot.keyClick(board, "A", SHIFT)
    assert view.tools.current == "dove:A" and _checked(view) == "A Aniki"
    qtbot.keyClick(board, "b")
    assert view.tools.current == "dove:b"
    qtbot.keyClick(board, "H", SHIFT)
    assert view.tools.current == "dove:H"
    qtbot.keyClick(board, "v")  # the other tool keys still work
    assert view.tools.current == "move"
    qtbot.keyClick(board, "e")
    assert view.tools.current == "erase"


def test_a_letter_then_enter_places_that_dove_at_the_cursor(view, qtbot) -> None:
    board = view.board
    qtbot.keyClick(board, "A", SHIFT)  # red Aniki ...
    board.cursor_cell = board_cell(0, 1)  # ... beside the green Boss
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert view.doc.puzzle.cells()[2] == (0, 1)  # dove 2 is the red Aniki
    assert view.doc.undo_stack.undoText() == "Place red Aniki (A)"


def test_s_switches_the_side_and_is_listed_once(main_window, view, qtbot) -> None:
    before = view.doc.puzzle.to_move
    qtbot.keyClick(view.board, "s")
    assert view.doc.puzzle.to_move != before and view.tools.current == "move"
    main_window.act_keys_help.trigger()
    plain = main_window.help.help_dialog.text.toPlainText()
    assert "Switch side to move tool" not in plain  # before: S listed a second time, as a tool key
    assert plain.count("switch the side to move") == 1
    assert "Shift+A" in plain and "a Aniki tool" in plain
