"""The X-ceter-O panel inside the real main window (pytest-qt)."""

from __future__ import annotations

import pytest

from solvers.xcetero import engine, retro
from solvers.xcetero.plugin import Game
from solvers.xcetero.rules import Position, apply_moves

pytestmark = pytest.mark.gui


@pytest.fixture
def view(main_window, qtbot):
    win = main_window
    view = win.show_kind("xcetero")
    view.doc.apply(_reset(view))
    panel = _panel(view)
    qtbot.waitUntil(lambda: False in panel.ready, timeout=20000)
    yield view


def _reset(view):
    from solvers.common.protocol import EditResult

    return EditResult(puzzle=Position(), entries=Game(), label="Start")


def _panel(view):
    from widgets.panels.xcetero import PANEL_TITLE, XceteroPanel

    widget = view.panel(PANEL_TITLE)
    assert isinstance(widget, XceteroPanel), "no game panel"
    return widget


def test_value_hints_and_opening_table(view) -> None:
    panel = _panel(view)
    assert "Win(13)" in panel.value_label.text()
    panel.hints.setChecked(True)
    assert view._overlay["hints"] is True
    dl = view.board.display_list()
    labels = [getattr(i, "text", "") for i in dl.items]
    assert labels.count("Win(13)") == 4 and labels.count("Draw") == 5
    first = retro.summary(retro.analyse())["first_moves"]
    table = {panel.openings.item(r, 0).text(): panel.openings.item(r, 1).text() for r in range(9)}
    assert table == {f"R{int(sq) // 3 + 1}C{int(sq) % 3 + 1}": value for sq, value in first.items()}


def test_computer_move_and_take_back(view, qtbot) -> None:
    panel = _panel(view)
    assert panel.computer_move()
    moves = view.doc.entries.moves
    assert len(moves) == 1 and moves[0] in engine.best_moves(Position())
    panel.take_back()
    assert view.doc.entries == Game((), moves)


def test_computer_replies_as_x(view, qtbot) -> None:
    panel = _panel(view)
    view.set_mode("play")
    panel.auto_x.setChecked(True)
    view.doc.apply(_moves((4,)))  # the human (O) opens in the centre
    qtbot.waitUntil(lambda: len(view.doc.entries.moves) == 2, timeout=3000)
    reply = view.doc.entries.moves[1]
    assert reply in engine.best_moves(apply_moves(Position(), [4]))
    panel.take_back()  # back to O's turn: both plies go (kept as later moves)
    assert view.doc.entries.moves == ()


def _moves(moves):
    from solvers.common.protocol import EditResult

    return EditResult(entries=Game(tuple(moves)), label="test")


def test_best_line_preview_and_play(view) -> None:
    panel = _panel(view)
    line = engine.principal_variation(Position())
    assert panel.pv_list.count() == len(line) == 13
    game_line = view.info.text()
    assert not panel.clear_preview.isEnabled()  # the game is shown: nothing to go back from
    panel.pv_list.setCurrentRow(2)
    assert view._overlay["preview"] == line[:3] and view._overlay["next"] == line[3]
    assert panel.clear_preview.isEnabled()
    # the line under the board says what the board shows (issue 29.8)
    assert view.info.text().startswith("Previewing the best line after 3 of 13 moves")
    panel.clear_preview.click()
    assert view.info.text() == game_line and not panel.clear_preview.isEnabled()
    panel.pv_list.setCurrentRow(2)
    panel.play_preview()
    assert view.doc.entries == Game(tuple(line[:3]))
    assert "Lose(10)" in panel.value_label.text()  # X to move after three plies of the winning line
    panel.pv_list.setCurrentRow(-1)
    assert "preview" not in view._overlay


def test_rules_toggle_changes_the_position_rules(view) -> None:
    panel = _panel(view)
    panel.repetition.setChecked(True)
    assert view.doc.puzzle.rules.repetition == 3
    panel.may_return.setChecked(True)
    assert view.doc.puzzle.rules.may_return
    view.doc.undo_stack.undo()
    view.doc.undo_stack.undo()
    assert view.doc.puzzle.rules == Position().rules


def test_move_list_buttons_copy_and_refusal_status(view, qtbot) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication

    panel = _panel(view)
    moves = panel.move_list
    view.set_mode("play")
    click = lambda button: qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # noqa: E731
    board = view.board
    for square in (4, 0, 8):
        qtbot.mouseClick(
            board, Qt.MouseButton.LeftButton, pos=board.cell_center(*divmod(square, 3)).toPoint()
        )
    assert view.doc.entries == Game((4, 0, 8))
    assert [moves.list.item(i).text() for i in range(moves.list.count())] == [
        "Start (set-up position)",
        "1. O1→R2C2",
        "2. X2→R1C1",
        "3. O3→R3C3",
    ]
    click(moves.back_button)
    click(moves.back_button)
    assert view.doc.entries == Game((4,), (0, 8)) and moves.list.currentRow() == 1
    messages: list[str] = []
    view.status_message.connect(messages.append)
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(1, 1).toPoint())
    assert messages[-1] == "R2C2 is taken by the opponent's piece O1: X2 needs an empty square"
    click(moves.forward_button)
    assert view.doc.entries == Game((4, 0), (8,))
    click(moves.first_button)
    click(moves.last_button)
    assert view.doc.entries == Game((4, 0, 8))
    click(moves.copy_button)
    assert QGuiApplication.clipboard().text().endswith("moves 4 0 8\n")
    moves.list.setCurrentRow(1)
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(2, 2).toPoint())
    assert view.doc.entries == Game((4, 8))  # another move: the later moves are replaced ...
    view.doc.undo_stack.undo()
    assert view.doc.entries == Game((4,), (0, 8))  # ... and Undo brings them back
    click(moves.analyse_button)
    assert panel.hints.isChecked() and "X to move" in messages[-1]


def test_f5_analyses_in_the_one_analysis_tab(main_window, qtbot) -> None:
    from widgets.panels.xcetero import PANEL_TITLE

    view = main_window.show_kind("xcetero")
    titles = [view.side.tabText(i) for i in range(view.side.count())]
    assert "Analysis" not in titles and PANEL_TITLE in titles  # one analysis tab per game
    view.side.setCurrentIndex(titles.index("Text"))
    panel = view.panel(PANEL_TITLE)
    panel.hints.setChecked(False)
    assert view.solve(2) is None
    assert view.side.tabText(view.side.currentIndex()) == PANEL_TITLE
    assert panel.hints.isChecked()  # the value of every move is on the board


def test_f5_puts_the_value_on_the_status_line_in_the_clis_words(view) -> None:
    messages: list[str] = []
    view.status_message.connect(messages.append)
    assert view.solve(2) is None
    assert messages[-1] == "O to move: Win(13)"  # what `workbench solve xcetero` prints


def test_f5_before_the_table_is_ready_answers_once_it_is(main_window, qtbot) -> None:
    """F5 right after the module opens finds the table still being computed: the status line says
    so, then gives the value (it stayed at "Analysing every position…")."""
    view = main_window.show_kind("xcetero")
    messages: list[str] = []
    view.status_message.connect(messages.append)
    assert view.solve(2) is None
    assert messages[-1] == "Analysing every position…"
    qtbot.waitUntil(lambda: messages[-1] == "O to move: Win(13)", timeout=20000)


def test_enter_plays_a_move_at_the_cursor(view, qtbot) -> None:
    """The keyboard plays every module: arrows move the cursor, Enter clicks its cell."""
    from PySide6.QtCore import Qt

    view.play_radio.click()
    board = view.board
    board.setFocus()
    board.cursor_cell = (0, 0)
    qtbot.keyClick(board, Qt.Key.Key_Right)  # the cursor moves; no move is played
    assert board.cursor_cell == (0, 1) and not view.doc.entries.moves
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert len(view.doc.entries.moves) == 1  # O's first piece went to square 2
    view.doc.undo_stack.undo()
    assert not view.doc.entries.moves  # one key, one undo step


def test_browsing_before_the_computer_answers_never_rewrites_the_game(view, qtbot) -> None:
    """A reply was scheduled with an uncancellable timer: going back in the move list before it
    fired, to a position where the computer's side is to move, made it play there and replace the
    record's later moves. The shared game panel stops the reply when the line stops growing."""
    panel = _panel(view)
    view.set_mode("play")
    panel.auto_x.setChecked(True)
    view.doc.apply(_moves((4, 2, 8)))  # X to move after it: the computer's reply is scheduled ...
    panel.move_list.goto(1)  # ... and the user goes back to X's first turn before it fires
    assert view.doc.entries == Game((4,), (2, 8))
    assert engine.best_moves(apply_moves(Position(), [4]))[0] != 2  # a reply would replace them
    qtbot.wait(4 * panel.auto_delay_ms)
    assert view.doc.entries == Game((4,), (2, 8))


def test_play_line_without_a_selected_row_plays_the_whole_line(view) -> None:
    """Both games' "play line": up to the selected row, the whole best line when none is selected."""
    panel = _panel(view)
    line = engine.principal_variation(Position())
    panel.pv_list.setCurrentRow(-1)
    panel.play_line()
    assert view.doc.entries == Game(tuple(line))
    assert view.doc.undo_stack.undoText() == f"Play best line ({len(line)} moves)"


def test_a_refusal_is_not_left_beside_the_move_that_follows(view, qtbot) -> None:
    """QA: the reason a click was refused stayed in the status bar (8 s) after a legal move."""
    from PySide6.QtCore import Qt

    view.set_mode("play")
    board = view.board
    messages: list[str] = []
    view.status_message.connect(messages.append)
    for cell in ((1, 1), (1, 1), (0, 0)):  # O plays the centre, X tries it too, then a corner
        qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(*cell).toPoint())
    assert view.doc.entries == Game((4, 0))
    refusal = messages.index("R2C2 is taken by the opponent's piece O1: X2 needs an empty square")
    assert "" in messages[refusal + 1 :]  # cleared when the next move was played
