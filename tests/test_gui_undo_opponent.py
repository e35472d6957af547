"""Undo against the computer, in the real window of both games (QA pass 6, defect 3).

Ctrl+Z after the computer's reply took back only the reply: the computer's box stayed ticked, it
was its turn, and it never moved again (Take back removed both moves). Now the reply is part of
the undo step of the move it answers: Ctrl+Z takes both back to the player's turn, Redo plays
both, and where the computer is to move but does not (Undo of a move it made on its own), a line
in its group says so and how to let it play."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from solvers.common.protocol import EditResult

pytestmark = pytest.mark.gui
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _click(qtbot, widget, pos=None) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.rect().center() if pos is None else pos)


def _keys_to_board(win, view, qtbot) -> None:
    win.activateWindow()
    view.board.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(view.board.hasFocus, timeout=2000)


def _tick(qtbot, box) -> None:
    """A real click on a check box (on its indicator, at the left)."""
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))


@pytest.fixture
def xcetero(main_window, qtbot):
    from solvers.xcetero.plugin import Game
    from solvers.xcetero.rules import Position
    from widgets.panels.xcetero import PANEL_TITLE

    main_window.resize(1024, 768)
    view = main_window.show_kind("xcetero")
    view.doc.reset(Position(), Game())
    panel = view.panel(PANEL_TITLE)
    qtbot.waitUntil(lambda: False in panel.ready, timeout=20000)
    _keys_to_board(main_window, view, qtbot)
    qtbot.keyClick(view.board, Qt.Key.Key_P, CTRL)  # Play mode
    assert view.mode() == "play"
    return main_window, view, panel


def test_ctrl_z_takes_back_the_players_move_with_the_computers_reply(xcetero, qtbot) -> None:
    win, view, panel = xcetero
    _tick(qtbot, panel.auto_x)
    assert panel.auto_x.isChecked()
    board = view.board
    _click(qtbot, board, board.cell_center(0, 1).toPoint())  # O's top-middle square
    qtbot.waitUntil(lambda: len(view.doc.entries.moves) == 2, timeout=5000)  # X answered
    played = view.doc.entries.moves

    _keys_to_board(win, view, qtbot)
    qtbot.keyClick(board, Qt.Key.Key_Z, CTRL)
    assert view.doc.entries.moves == ()  # before: (1,), X to move and the computer never moved
    qtbot.wait(4 * panel.auto_delay_ms)
    assert view.doc.entries.moves == () and "O to move" in panel.value_label.text()
    assert panel.waiting_label.isHidden()  # the player's turn: nobody waits

    qtbot.keyClick(board, Qt.Key.Key_Z, CTRL | SHIFT)  # Redo plays both again
    assert view.doc.entries.moves == played
    assert win.act_undo.text().startswith("&Undo Play O1→R1C2, then Computer plays X2→")
    qtbot.wait(4 * panel.auto_delay_ms)
    assert view.doc.entries.moves == played and panel.waiting_label.isHidden()

    # Undo and the panel's Take back agree
    _click(qtbot, panel.back_button)
    after_take_back = view.doc.entries.moves
    qtbot.keyClick(board, Qt.Key.Key_Z, CTRL)  # undo the take back
    qtbot.keyClick(board, Qt.Key.Key_Z, CTRL)
    assert view.doc.entries.moves == after_take_back == ()


def test_a_computer_waiting_on_its_turn_says_why_and_plays_when_asked(xcetero, qtbot) -> None:
    """The computer's opening move is a step of its own; undone, it is the computer's turn, and it
    waits (else Undo could never go back past it): the panel says so instead of nothing."""
    win, view, panel = xcetero
    _tick(qtbot, panel.auto_o)  # O (the computer) to move: it plays at once
    qtbot.waitUntil(lambda: len(view.doc.entries.moves) == 1, timeout=5000)
    assert panel.waiting_label.isHidden()
    _keys_to_board(win, view, qtbot)
    qtbot.keyClick(view.board, Qt.Key.Key_Z, CTRL)
    assert view.doc.entries.moves == ()
    qtbot.wait(4 * panel.auto_delay_ms)
    assert view.doc.entries.moves == ()
    assert not panel.waiting_label.isHidden()  # before: no word about why nothing happens
    text = panel.waiting_label.text()
    assert text.startswith("O to move: the computer does not move by itself after Undo")
    assert "“Computer move”" in text
    _click(qtbot, panel.move_button)
    assert len(view.doc.entries.moves) == 1 and panel.waiting_label.isHidden()
    # unticking the box: O is the player's again, nothing to explain
    qtbot.keyClick(view.board, Qt.Key.Key_Z, CTRL)
    _tick(qtbot, panel.auto_o)
    assert panel.waiting_label.isHidden()


def test_right_click_and_backspace_take_back_to_the_players_turn(xcetero, qtbot) -> None:
    """The board's own take-back (right-click, Backspace) went back one move: after the computer's
    reply that left the computer to move, and it never moved again. Now it goes back as far as
    the panel's Take back does; without the computer it stays one move."""
    win, view, panel = xcetero
    board = view.board
    _click(qtbot, board, board.cell_center(0, 1).toPoint())  # O, no computer yet
    assert len(view.doc.entries.moves) == 1
    qtbot.mouseClick(board, Qt.MouseButton.RightButton, pos=board.cell_center(2, 2).toPoint())
    assert view.doc.entries.moves == ()  # one move back: both sides are the player's

    _tick(qtbot, panel.auto_x)
    _click(qtbot, board, board.cell_center(0, 1).toPoint())
    qtbot.waitUntil(lambda: len(view.doc.entries.moves) == 2, timeout=5000)  # X answered
    qtbot.mouseClick(board, Qt.MouseButton.RightButton, pos=board.cell_center(2, 2).toPoint())
    assert view.doc.entries.moves == ()  # before: (1,), X to move, the computer silent
    qtbot.wait(4 * panel.auto_delay_ms)
    assert view.doc.entries.moves == ()

    _click(qtbot, board, board.cell_center(1, 0).toPoint())
    qtbot.waitUntil(lambda: len(view.doc.entries.moves) == 2, timeout=5000)
    _keys_to_board(win, view, qtbot)
    qtbot.keyClick(board, Qt.Key.Key_Backspace)
    assert view.doc.entries.moves == ()


def test_a_move_made_while_the_table_is_computed_gets_its_reply(xcetero, qtbot) -> None:
    """The player moved before the position table was ready: the reply was dropped (the move's
    "the line grew" was used up by a refresh that could not answer yet). Now it comes when the
    table is there."""
    from solvers.xcetero import retro

    win, view, panel = xcetero
    _tick(qtbot, panel.auto_x)
    retro.clear_cache()
    panel.ready.clear()  # as right after the module opens
    board = view.board
    _click(qtbot, board, board.cell_center(0, 1).toPoint())
    assert len(view.doc.entries.moves) == 1
    qtbot.waitUntil(lambda: False in panel.ready, timeout=20000)
    qtbot.waitUntil(lambda: len(view.doc.entries.moves) == 2, timeout=5000)  # before: never
    assert "O to move" in panel.value_label.text()


def test_doves_ctrl_z_takes_back_the_move_with_the_ais_reply(main_window, qtbot) -> None:
    from solvers.doves import PlayEntries
    from solvers.doves.drawing import board_cell, hand_slot
    from solvers.doves.model import parse_board
    from widgets.panels.doves import PANEL_TITLE

    main_window.resize(1024, 768)
    view = main_window.show_kind("doves")
    view.doc.apply(EditResult(puzzle=parse_board("bB;T YA"), entries=PlayEntries(), label="Set up"))
    panel = view.panel(PANEL_TITLE)
    _keys_to_board(main_window, view, qtbot)
    qtbot.keyClick(view.board, Qt.Key.Key_P, CTRL)
    panel.auto_analyse.setChecked(False)
    panel.level.setCurrentIndex(0)
    _tick(qtbot, panel.ai_green)
    assert panel.ai_green.isChecked()
    board = view.board
    r, c = hand_slot(10)  # Red picks up its Hajike from the hand ...
    _click(qtbot, board, board.cell_center(r, c).toPoint())
    r, c = board_cell(-1, 1)  # ... and puts it on the board
    _click(qtbot, board, board.cell_center(r, c).toPoint())
    qtbot.waitUntil(lambda: len(view.doc.entries.actions) == 2, timeout=30000)  # the AI answered
    played = view.doc.entries.actions
    _keys_to_board(main_window, view, qtbot)
    qtbot.keyClick(board, Qt.Key.Key_Z, CTRL)
    assert view.doc.entries.actions == ()  # before: Red's move stayed, Green (the AI) to move, waiting
    qtbot.wait(1500)
    assert view.doc.entries.actions == () and panel.waiting_label.isHidden()
    qtbot.keyClick(board, Qt.Key.Key_Z, CTRL | SHIFT)
    assert view.doc.entries.actions == played
    assert ", then AI plays " in main_window.act_undo.text()  # one step, named after both moves
