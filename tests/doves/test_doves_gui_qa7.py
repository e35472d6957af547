"""Tokyo Doves defects of QA pass 7, in the real main window (pytest-qt).

1. Undo out of a finished game left the won game's words in the Analysis box, an empty best line
   and no background analysis: the panel still took the set-up for analysed.
3. Backspace with a dove picked up played the remove action (a move that uses the turn); in
   X-ceter-O it takes the last move back. Now it takes back here too; Delete keeps the remove.
4. The value line grew a line when the background analysis finished, and every control below moved.
8. After the game ended the panel said "Red to move"; the Moves list's last row and the Rules
   combo were cut off at 1024x768.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox

from solvers.common.display import Text
from solvers.common.protocol import EditResult
from solvers.doves import PLUGIN, PlayEntries
from solvers.doves.model import START, parse_file
from solvers.doves.rules import Action

pytestmark = pytest.mark.gui
CTRL = Qt.KeyboardModifier.ControlModifier
SAMPLES = Path(__file__).resolve().parents[2] / "assets" / "doves" / "samples"
BAD_MOVE = Action("put", 6, (0, 0))  # +MW1 from 02-win-in-3: Green wins at once with its reply


def _sample(name: str):
    return parse_file((SAMPLES / f"{name}.doves").read_text(encoding="utf-8"))


@pytest.fixture
def window(main_window, qtbot):
    main_window.resize(1024, 768)
    view = main_window.show_kind("doves")
    view.doc.apply(EditResult(puzzle=_sample("02-win-in-3"), entries=PlayEntries(), label="Set up"))
    from widgets.panels.doves import PANEL_TITLE

    panel = view.panel(PANEL_TITLE)
    qtbot.wait(50)
    return main_window, view, panel


def _keys_to_board(win, view, qtbot) -> None:
    win.activateWindow()
    view.board.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(view.board.hasFocus, timeout=2000)


def _letter_point(view, letter: str) -> QPoint:
    """The centre of the board cell whose tile shows ``letter``."""
    dl = view.board.display_list()
    assert dl.grid is not None
    for item in dl.items:
        if isinstance(item, Text) and item.text == letter:
            return view.board.cell_center(*dl.grid.cell_at(item.x, item.y)).toPoint()
    raise AssertionError(f"no tile {letter}")


# ---- 1. Undo out of a finished game ------------------------------------------------------------------
def _undo_to_the_start(win, view, panel, qtbot) -> None:
    """Ctrl+Z back to the start: the panel analyses it again (before: the won game's words stayed,
    the best line stayed empty and nothing ran again)."""
    _keys_to_board(win, view, qtbot)
    qtbot.keyClick(view.board, Qt.Key.Key_Z, CTRL)
    assert view.doc.entries.actions == ()
    assert "wins" not in panel.value_label.text()
    qtbot.waitUntil(
        lambda: "Win(3)" in panel.value_label.text() and panel.line_list.count() == 3, timeout=20_000
    )


def test_undo_out_of_a_won_game_analyses_the_position_again(window, qtbot) -> None:
    win, view, panel = window
    view.set_mode("play")
    qtbot.waitUntil(
        lambda: "Win(3)" in panel.value_label.text() and panel.line_list.count() == 3, timeout=20_000
    )
    panel.line_list.setCurrentRow(-1)
    qtbot.mouseClick(panel.play_line_button, Qt.MouseButton.LeftButton)
    assert len(view.doc.entries.actions) == 3
    assert panel.value_label.text() == "Red wins: the green Boss is surrounded."
    _undo_to_the_start(win, view, panel, qtbot)


def test_undo_of_the_ais_winning_reply_analyses_the_players_turn_again(window, qtbot) -> None:
    win, view, panel = window
    panel.ai_green.setChecked(True)
    view.set_mode("play")
    qtbot.waitUntil(lambda: "Win(3)" in panel.value_label.text(), timeout=20_000)
    panel.play_action(BAD_MOVE)
    qtbot.waitUntil(lambda: len(view.doc.entries.actions) == 2, timeout=20_000)  # the AI won
    assert panel.value_label.text().startswith("Green wins")
    _undo_to_the_start(win, view, panel, qtbot)  # the move and the AI's reply


def test_a_late_depth_of_a_stopped_search_does_not_come_back(window, qtbot) -> None:
    """The refresh that drops an analysis also drops what its search still sends."""
    win, view, panel = window
    panel.auto_analyse.setChecked(False)
    view.set_mode("play")
    panel.start_analysis()
    qtbot.waitUntil(lambda: "Win(3)" in panel.value_label.text(), timeout=20_000)
    generation, result = panel.generation, panel.result
    panel.play_action(BAD_MOVE)
    panel.depth_done.emit((generation, result))  # queued from the worker before it saw the cancel
    qtbot.wait(50)
    assert panel.result is None and panel.line_list.count() == 0
    assert "Win(3)" not in panel.value_label.text()


# ---- 3. Backspace takes back; Delete plays the remove ---------------------------------------------
def test_backspace_takes_the_last_move_back_and_delete_removes_the_dove(window, qtbot) -> None:
    win, view, panel = window
    panel.auto_analyse.setChecked(False)
    view.set_mode("play")
    board = view.board
    _keys_to_board(win, view, qtbot)
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=_letter_point(view, "A"))
    assert view.doc.ui.selected is not None
    qtbot.keyClick(board, Qt.Key.Key_Backspace)
    assert view.doc.entries.actions == ()  # before: Red played -A and the turn was gone

    first = panel.current()[0]
    from solvers.doves.rules import legal_steps

    move = next(s.action for s in legal_steps(first) if s.outcome == 0 and s.action.kind == "move")
    panel.play_action(move)
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=_letter_point(view, "a"))  # Green picks up
    assert view.doc.ui.selected is not None
    qtbot.keyClick(board, Qt.Key.Key_Backspace)
    assert view.doc.entries.actions == () and view.doc.entries.later == (move,)  # kept as a later move
    assert view.doc.ui.selected is None

    # Delete with a dove picked up still sends it back to the hand, as Red's move
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=_letter_point(view, "A"))
    qtbot.keyClick(board, Qt.Key.Key_Delete)
    assert view.doc.entries.actions == (Action("remove", 2),)


def test_backspace_against_the_ai_takes_back_to_the_players_turn(window, qtbot) -> None:
    win, view, panel = window
    panel.auto_analyse.setChecked(False)
    panel.ai_green.setChecked(True)
    view.set_mode("play")
    panel.play_action(BAD_MOVE)
    qtbot.waitUntil(lambda: len(view.doc.entries.actions) == 2, timeout=20_000)  # the AI replied (and won)
    _keys_to_board(win, view, qtbot)
    qtbot.keyClick(view.board, Qt.Key.Key_Backspace)
    assert view.doc.entries.actions == ()  # as the panel's Take back: Red's turn, not the AI's
    qtbot.wait(4 * panel.auto_delay_ms)
    assert view.doc.entries.actions == ()  # the AI does not replay after a take-back
    panel.ai_green.setChecked(False)  # both sides the player's: one move back
    panel.play_action(BAD_MOVE)
    qtbot.keyClick(view.board, Qt.Key.Key_Backspace)
    assert view.doc.entries.actions == ()


def test_the_key_help_says_what_backspace_and_delete_do() -> None:
    keys = dict(PLUGIN.help_keys())
    backspace = next(k for k in keys if "Backspace" in k)
    delete = next(k for k in keys if "Delete" in k)
    assert "take the last move back" in keys[backspace] and "your turn" in keys[backspace]
    assert "take" not in keys[delete].lower() and "your move" in keys[delete]


# ---- 4. nothing below the value line moves when an analysis finishes ------------------------------
def _rows(win, widgets) -> list[int]:
    return [w.mapTo(win, QPoint(0, 0)).y() for w in widgets]


def test_the_controls_below_the_value_stay_put_when_the_analysis_finishes(main_window, qtbot) -> None:
    from widgets.panels.doves import PANEL_TITLE

    main_window.resize(1024, 768)
    view = main_window.show_kind("doves")
    view.doc.apply(EditResult(puzzle=START, entries=PlayEntries(), label="Set up"))
    panel = view.panel(PANEL_TITLE)
    panel.budget.setValue(1)
    below = [panel.analyse_button, panel.auto_analyse, panel.hint, panel.line_list, panel.ai_green]
    qtbot.wait(50)
    before = _rows(main_window, below)
    seen: dict[str, list[int]] = {}  # each value text shown, and where the rows below were then
    watch = QTimer(panel)
    watch.timeout.connect(lambda: seen.setdefault(panel.value_label.text(), _rows(main_window, below)))
    watch.start(5)
    view.set_mode("play")
    qtbot.waitUntil(lambda: "(no forced win in the time allowed)" in panel.value_label.text(), timeout=20_000)
    qtbot.wait(50)
    assert _rows(main_window, below) == before  # before: 13 px lower, a click hit the wrong row
    watch.stop()
    assert len(seen) >= 2 and all(rows == before for rows in seen.values())  # nor while it deepens
    assert panel.value_label.height() >= panel.value_label.heightForWidth(panel.value_label.width())


# ---- 8. the end of the game in the panel, at 1024x768 and 1280x800 -------------------------------
def _combo_text_width(combo: QComboBox) -> int:
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    field: QRect = combo.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, combo
    )
    return field.width()


@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)])
def test_a_finished_game_says_game_over_and_its_texts_fit(window, qtbot, size) -> None:
    win, view, panel = window
    win.resize(*size)
    panel.auto_analyse.setChecked(False)
    panel.ai_green.setChecked(True)
    view.set_mode("play")
    panel.play_action(BAD_MOVE)
    qtbot.waitUntil(lambda: len(view.doc.entries.actions) == 2, timeout=20_000)
    qtbot.wait(50)
    side = panel.side_label.text()
    assert "to move" not in side and "Game over" in side and "Green" in side  # before: "Red to move"
    assert not panel.switch_side.isEnabled()

    moves = panel.move_list.list
    last = moves.item(moves.count() - 1)
    assert last.text().startswith("2. Green ")
    assert moves.fontMetrics().horizontalAdvance(last.text()) < moves.viewport().width()
    assert not moves.horizontalScrollBar().isVisible()  # before: the row was cut, with a scroll bar
    assert "Green wins: the red Boss is surrounded" in last.toolTip()

    rule = panel.both_rule
    room = _combo_text_width(rule)
    for i in range(rule.count()):
        assert rule.fontMetrics().horizontalAdvance(rule.itemText(i)) <= room, rule.itemText(i)
        assert rule.itemData(i, Qt.ItemDataRole.ToolTipRole)  # the full words
    assert rule.toolTip().startswith("When both Bosses")
