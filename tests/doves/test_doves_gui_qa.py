"""Defects found by an exploratory GUI QA run of Tokyo Doves, in the real main window (pytest-qt)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from solvers.common.display import Text
from solvers.common.protocol import EditResult
from solvers.doves import PlayEntries
from solvers.doves.drawing import board_cell, hand_slot
from solvers.doves.model import START, parse_board
from solvers.doves.rules import Action

pytestmark = pytest.mark.gui


@pytest.fixture
def view(main_window):
    view = main_window.show_kind("doves")
    view.doc.apply(EditResult(puzzle=START, entries=PlayEntries(), label="Set up"))
    yield view


def _panel(view):
    from widgets.panels.doves import PANEL_TITLE, DovesPanel

    panel = view.panel(PANEL_TITLE)
    assert isinstance(panel, DovesPanel)
    return panel


def _centre(view, cell: tuple[int, int]) -> QPoint:
    return view.board.cell_center(*cell).toPoint()


def _letter_cell(view, letter: str) -> tuple[int, int] | None:
    """The display cell whose tile shows ``letter`` (a dove on the table or in its hand slot)."""
    dl = view.board.display_list()
    assert dl.grid is not None
    for item in dl.items:
        if isinstance(item, Text) and item.text == letter:
            return dl.grid.cell_at(item.x, item.y)
    return None


# ---- 1. the status bar after a move ----------------------------------------------------------------
def test_a_dropped_dove_leaves_no_picked_up_prompt_in_the_status_bar(main_window, view, qtbot) -> None:
    """Picking up a dove says so; dropping it on a highlighted square plays the move, and the
    status bar then says which move was played and who is to move (it kept the pick-up prompt)."""
    view.doc.apply(EditResult(puzzle=parse_board("bB;T YA"), entries=PlayEntries(), label="Set up"))
    _panel(view).auto_analyse.setChecked(False)
    view.set_mode("play")
    board, bar = view.board, main_window.statusBar()
    source, target = _centre(view, hand_slot(10)), _centre(view, board_cell(-1, 1))
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=source)
    assert bar.currentMessage().startswith("Picked up a dove")
    qtbot.mouseMove(board, target)
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=target)
    assert view.doc.entries.actions == (Action("put", 10, (-1, 1)),)
    assert bar.currentMessage() == "Red played +HN1; Green to move"
    view.doc.undo_stack.undo()  # QA: the move's words stayed after it was undone
    assert view.doc.entries.actions == () and bar.currentMessage() == ""


def test_the_ais_move_is_said_in_the_status_bar(main_window, view, qtbot) -> None:
    panel = _panel(view)
    view.doc.apply(EditResult(puzzle=parse_board("bB;T YA"), entries=PlayEntries(), label="Set up"))
    panel.auto_analyse.setChecked(False)
    view.set_mode("play")
    panel.ai_move()
    qtbot.waitUntil(lambda: len(view.doc.entries.actions) == 1, timeout=30_000)
    message = main_window.statusBar().currentMessage()
    assert message.startswith("Red played ") and message.endswith("; Green to move")


def test_the_status_after_the_winning_move_says_who_won() -> None:
    from solvers.doves.analysis import analyse
    from solvers.doves.plugin import played_status

    puzzle = parse_board("bB;T YA")
    *_, result = analyse(puzzle, max_depth=5)
    assert str(result.value) == "Win(5)"
    assert played_status(puzzle, ()) == "Red to move"
    assert played_status(puzzle, tuple(result.line[:1])) == "Red played +HN1; Green to move"
    won = played_status(puzzle, tuple(result.line))
    assert won.startswith("Red played ") and won.endswith("; Red wins: the green Boss is surrounded")


def test_a_picked_up_dove_is_put_down_by_take_back_and_edit_mode(view, qtbot) -> None:
    """The pick-up (its prompt and highlights) belongs to the position it was made in."""
    view.doc.apply(EditResult(puzzle=parse_board("bB;T YA"), entries=PlayEntries(), label="Set up"))
    panel = _panel(view)
    panel.auto_analyse.setChecked(False)
    view.set_mode("play")
    panel.play_action(next(iter(_legal(view.doc.puzzle))))
    qtbot.mouseClick(view.board, Qt.MouseButton.LeftButton, pos=_centre(view, hand_slot(11)))  # green's h
    assert view.doc.ui.selected == 11
    panel.take_back()  # Red to move again: green's dove is no longer in hand to be played
    assert view.doc.ui.selected is None
    qtbot.mouseClick(view.board, Qt.MouseButton.LeftButton, pos=_centre(view, hand_slot(10)))
    assert view.doc.ui.selected == 10
    view.set_mode("edit")
    assert view.doc.ui.selected is None


def _legal(position):
    from solvers.doves.rules import legal_steps

    return [s.action for s in legal_steps(position) if s.outcome == 0]


# ---- 2. the table stays put under the pointer while editing ----------------------------------------
def test_a_dove_placed_at_the_edge_stays_under_the_pointer(view, qtbot) -> None:
    """Placing a dove above the group re-anchored the table (the picture is drawn from the group's
    corner), so the dove appeared one row below the click and the cursor sat on an empty square."""
    view.set_mode("edit")
    assert view.tools.select("dove:h")
    board = view.board
    bosses = _letter_cell(view, "b"), _letter_cell(view, "B")
    clicked = board_cell(-1, 0)  # above the green Boss: the edge of the occupied area
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=_centre(view, clicked))
    assert view.doc.puzzle.cells()[11] == (0, 0)  # placed (the position itself is normalised)
    assert _letter_cell(view, "h") == clicked and board.cursor_cell == clicked
    assert (_letter_cell(view, "b"), _letter_cell(view, "B")) == bosses  # nothing else moved
    # a second dove beside it, then one moved by a drag: still no jump
    assert view.tools.select("dove:a")
    beside = board_cell(-1, 1)
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=_centre(view, beside))
    assert _letter_cell(view, "a") == beside and _letter_cell(view, "h") == clicked
    assert view.tools.select("move")
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=_centre(view, clicked))
    qtbot.mouseMove(board, _centre(view, board_cell(0, 1)))
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=_centre(view, board_cell(0, 1)))
    assert _letter_cell(view, "h") == board_cell(0, 1) and _letter_cell(view, "a") == beside
    assert (_letter_cell(view, "b"), _letter_cell(view, "B")) == bosses


def test_keyboard_placing_keeps_the_dove_under_the_cursor(view, qtbot) -> None:
    view.set_mode("edit")
    assert view.tools.select("dove:H")
    board = view.board
    board.setFocus()
    board.cursor_cell = board_cell(0, 0)  # the green Boss
    qtbot.keyClick(board, Qt.Key.Key_Left)  # left of the group: the edge of the occupied area
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert 10 in view.doc.puzzle.cells()
    assert _letter_cell(view, "H") == board.cursor_cell == board_cell(0, -1)
    assert _letter_cell(view, "b") == board_cell(0, 0)


def test_undo_play_mode_and_export_after_an_edit_at_the_edge(main_window, view, qtbot) -> None:
    """Undo and redo draw the set-up as usual; Play starts from the table as the editor left it
    drawn then re-centres it; an export is drawn from the position alone (no kept frame)."""
    view.set_mode("edit")
    assert view.tools.select("dove:h")
    board = view.board
    clicked = board_cell(-1, 0)
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=_centre(view, clicked))
    placed = view.doc.puzzle
    assert _letter_cell(view, "h") == clicked
    assert _letter_cell_of(view.picture(), "h") == board_cell(0, 0)  # the export: the position alone
    view.doc.undo_stack.undo()
    assert view.doc.puzzle == START and _letter_cell(view, "b") == board_cell(0, 0)
    view.doc.undo_stack.redo()
    assert view.doc.puzzle == placed and _letter_cell(view, "h") in (clicked, board_cell(0, 0))
    view.set_mode("play")
    assert _letter_cell(view, "h") == board_cell(0, 0)  # play mode: the usual framing
    # the mapping follows the picture: Red's Boss (below the green one) moves one step right
    red_boss = _letter_cell(view, "B")
    assert red_boss == board_cell(2, 0)
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=_centre(view, red_boss))
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=_centre(view, board_cell(2, 1)))
    assert view.doc.entries.actions == (Action("move", 0, (2, 1)),)


def _letter_cell_of(dl, letter: str) -> tuple[int, int] | None:
    assert dl.grid is not None
    for item in dl.items:
        if isinstance(item, Text) and item.text == letter:
            return dl.grid.cell_at(item.x, item.y)
    return None


# ---- 3. Stop only while something runs -------------------------------------------------------------
def test_stop_is_enabled_only_while_an_analysis_or_the_ai_runs(view, qtbot) -> None:
    """Stop was enabled with nothing running. (The job's end reaches the panel on the GUI thread, so
    the state right after a start is certain; its end is waited for.)"""
    from workbench import warmup

    panel = _panel(view)
    qtbot.waitUntil(lambda: warmup.is_ready("doves"), timeout=60_000)
    stop = panel.stop_button
    assert not stop.isEnabled()  # idle
    panel.start_analysis(budget=30.0)  # the full game from the start: it runs until stopped
    assert stop.isEnabled()
    qtbot.mouseClick(stop, Qt.MouseButton.LeftButton)
    assert not stop.isEnabled() and panel.analysis_job is None
    qtbot.waitUntil(lambda: not view.busy(), timeout=10_000)
    assert not stop.isEnabled()
    panel.start_analysis(budget=30.0)
    assert stop.isEnabled()
    view.cancel_jobs()  # Esc
    qtbot.waitUntil(lambda: not stop.isEnabled(), timeout=10_000)
    view.doc.apply(EditResult(puzzle=parse_board("bB;T YA"), entries=PlayEntries(), label="Set up"))
    panel.start_analysis()  # an analysis that ends on its own (Win(5)): Stop goes grey again
    assert stop.isEnabled()
    qtbot.waitUntil(lambda: "Win(5)" in panel.value_label.text() and not stop.isEnabled(), timeout=60_000)
    panel.ai_move()  # the AI's search: Stop stops it too
    assert stop.isEnabled()
    qtbot.waitUntil(lambda: not stop.isEnabled(), timeout=60_000)
    assert len(view.doc.entries.actions) == 1


# ---- 4. the keyboard cursor stops only where a key does something -------------------------------------
def _drawn_cells(view) -> set[tuple[int, int]]:
    """Cells the board draws something in: a field square (a "cell" rectangle), a highlighted
    target or a hand slot (a tile or the outline of a dove on the table)."""
    from solvers.common.display import Rect

    dl = view.board.display_list()
    assert dl.grid is not None
    drawn = set()
    for item in dl.items:
        if isinstance(item, Rect) and (item.fill in ("cell", "highlight-fill") or item.stroke == "muted"):
            drawn.add(dl.grid.cell_at(item.x + item.w / 2, item.y + item.h / 2))
    drawn |= {hand_slot(i) for i in range(2, 12) if i not in view.doc.puzzle.cells()}
    return drawn


def _walk(view, qtbot, start: tuple[int, int]) -> list[tuple[int, int]]:
    """Every cell the cursor visits sweeping the board: down each column from ``start``'s, then
    one step right and up again, and so on."""
    board = view.board
    board.cursor_cell = start
    seen = [board.cursor_cell]
    for sweep in range(8):
        for _ in range(9):
            qtbot.keyClick(board, Qt.Key.Key_Up if sweep % 2 else Qt.Key.Key_Down)
            seen.append(board.cursor_cell)
        qtbot.keyClick(board, Qt.Key.Key_Right)
        seen.append(board.cursor_cell)
    return seen


@pytest.mark.parametrize("mode", ["edit", "play"])
def test_the_cursor_skips_the_empty_row_before_the_hand(view, qtbot, mode: str) -> None:
    """QA: moving the cursor with the arrow keys, it stopped on the empty row between the table
    and Red's hand (and on the empty column beside the table), where no key does anything. Down
    from the table's last row now goes straight into the hand; every stop is drawn."""
    _panel(view).auto_analyse.setChecked(False)
    view.set_mode(mode)
    view.board.setFocus()
    empty_row = board_cell(4, 0)[0]  # below a table two doves tall: outside the 4x4 field
    seen = _walk(view, qtbot, hand_slot(3))  # Green's Aniki: the top left
    assert set(seen) <= _drawn_cells(view), sorted(set(seen) - _drawn_cells(view))
    assert all(r != empty_row for r, _ in seen)
    assert set(seen) == _drawn_cells(view)  # and the sweep reaches every one of them
    view.board.cursor_cell = board_cell(3, 0)  # the field's last row, under the red Boss
    qtbot.keyClick(view.board, Qt.Key.Key_Down)
    assert view.board.cursor_cell == (hand_slot(2)[0], board_cell(3, 0)[1])  # Red's hand


def test_the_cursor_reaches_a_highlighted_target_past_the_field(view, qtbot) -> None:
    """A Totsu may slide one square past the field (the group's top row empties): once it is
    picked up, its highlighted target there is a stop, and Enter plays the slide."""
    view.doc.apply(EditResult(puzzle=parse_board("T; B; b; Y"), entries=PlayEntries(), label="Set up"))
    _panel(view).auto_analyse.setChecked(False)
    view.set_mode("play")
    board = view.board
    board.setFocus()
    board.cursor_cell = board_cell(0, 0)
    qtbot.keyClick(board, Qt.Key.Key_Return)  # pick up the Totsu
    assert view.doc.ui.selected == 8
    for _ in range(4):
        qtbot.keyClick(board, Qt.Key.Key_Down)
    assert board.cursor_cell == board_cell(4, 0)
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert view.doc.entries.actions == (Action("move", 8, (4, 0)),)


# ---- 5. the panel fits its column in both colour schemes ---------------------------------------------
def _panel_widths(view, qtbot) -> list[tuple[str, int, int]]:
    """(tab, the panel's minimum width, its column's width) for every module panel of ``view``."""
    from PySide6.QtWidgets import QApplication, QScrollArea

    found = []
    for index in range(view.side.count()):
        area = view.side.widget(index)
        panel = area.widget() if isinstance(area, QScrollArea) else None
        if panel is None:
            continue
        view.side.setCurrentIndex(index)
        QApplication.processEvents()
        qtbot.waitUntil(area.isVisible, timeout=2000)
        found.append((view.side.tabText(index), panel.minimumSizeHint().width(), area.viewport().width()))
    return found


@pytest.mark.parametrize("first", ["light", "dark"])
@pytest.mark.parametrize("size", [(800, 560), (1024, 768)])
@pytest.mark.parametrize("kind", ["doves", "ninetiles"])
def test_the_panels_fit_their_column_in_both_colour_schemes(main_window, qtbot, kind, first, size) -> None:
    """QA: with the dark palette the Doves panel needed 337 px against a 325 px column (its style
    sheet draws wider spin boxes, and the depth box sat beside Analyse and Stop), so the panel was
    cut on the right at the window's minimum size and at 1024x768. Started in either scheme and
    switched to the other, every panel of the module fits its column."""
    main_window.set_scheme(first)
    view = main_window.show_kind(kind)
    main_window.resize(*size)
    qtbot.wait(50)
    try:
        for scheme in (first, "dark" if first == "light" else "light"):
            main_window.set_scheme(scheme)
            qtbot.wait(50)
            for tab, needed, column in _panel_widths(view, qtbot):
                assert needed <= column, f"{scheme} {size}: {tab} needs {needed} px, has {column} px"
    finally:
        main_window.set_scheme("light")
