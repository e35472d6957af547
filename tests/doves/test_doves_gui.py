"""The Tokyo Doves panel with a minimal in-process PanelContext (pytest-qt)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QObject, Qt, Signal

from solvers.common.cancel import CancelToken
from solvers.common.protocol import EditResult
from solvers.doves import PLUGIN, PlayEntries
from solvers.doves.model import parse_board
from solvers.doves.rules import Action, legal_steps, play

pytestmark = pytest.mark.gui


class FakeJob:
    def __init__(self) -> None:
        self.done = False
        self.token = CancelToken()

    def cancel(self) -> None:
        self.token.cancel()


class FakeContext(QObject):
    """Runs jobs synchronously; keeps an undo list like the shell's document."""

    changed = Signal()
    solution_shown = Signal()

    def __init__(self, puzzle: Any, mode: str = "play") -> None:
        super().__init__()
        self.plugin = PLUGIN
        self._puzzle = puzzle
        self._entries: Any = PlayEntries()
        self._mode = mode
        self.overlay: Any = None
        self.messages: list[str] = []
        self.history: list[str] = []

    def puzzle(self) -> Any:
        return self._puzzle

    def entries(self) -> Any:
        return self._entries

    def mode(self) -> str:
        return self._mode

    def apply(self, result: EditResult) -> None:
        if result.puzzle is not None and result.entries is None:  # as the shell's document does
            self._entries = self.plugin.adapt_entries(result.puzzle, self._entries)
        if result.puzzle is not None:
            self._puzzle = result.puzzle
        if result.entries is not None:
            self._entries = result.entries
        self.history.append(result.label)
        self.changed.emit()

    def show_solution(self, solution: Any) -> None:
        pass

    def shown_solution(self) -> Any:
        return None

    def set_overlay(self, overlay: Any, describe: str = "") -> None:
        self.overlay = overlay

    def status(self, text: str) -> None:
        self.messages.append(text)

    def run_job(self, title, work, on_done, on_error=None, on_cancel=None) -> FakeJob:
        job = FakeJob()
        result = work(job.token, lambda info: None)
        job.done = True
        on_done(result)
        return job


@pytest.fixture
def panel_and_ctx(qtbot):
    from widgets.panels.doves import PANEL_TITLE, create_panels

    ctx = FakeContext(parse_board("bB;T YA"))
    ((title, panel),) = create_panels(ctx)
    assert title == PANEL_TITLE
    qtbot.addWidget(panel)
    return panel, ctx


def test_analysis_streams_value_and_line(panel_and_ctx, qtbot) -> None:
    panel, ctx = panel_and_ctx
    panel.start_analysis()
    assert "Win(5)" in panel.value_label.text()
    assert panel.line_list.count() == 5
    assert panel.line_list.item(0).text() == "1. red +HN1"
    panel.hint.setChecked(True)
    assert isinstance(ctx.overlay["hint"], Action)
    dl = PLUGIN.draw(ctx.puzzle(), entries=ctx.entries(), overlay=ctx.overlay)
    assert len(dl.items) > len(PLUGIN.draw(ctx.puzzle()).items)  # the hint arrow is drawn


def test_f5_ends_with_the_value_on_the_status_line_in_the_clis_words(panel_and_ctx) -> None:
    """The status line says the position's value as `workbench solve doves` does, never "unique";
    a background analysis (with a time budget) leaves the status line alone."""
    panel, ctx = panel_and_ctx
    panel.solve_requested(2)
    assert ctx.messages[-1] == "Red to move: Win(5)"
    ctx.messages.clear()
    panel.start_analysis(budget=5.0)
    assert "Win(5)" in panel.value_label.text() and ctx.messages == []


def test_ai_move_take_back_and_side(panel_and_ctx) -> None:
    panel, ctx = panel_and_ctx
    panel.ai_move()
    assert len(ctx.entries().actions) == 1
    # the AI (level 3) plays the start of the forced win
    assert ctx.history[-1].startswith("AI plays ")
    step = play(ctx.puzzle(), ctx.entries().actions[0])
    assert step.position.to_move == 1
    assert not panel.switch_side.isEnabled()  # side can only change before any action
    panel.take_back()
    assert ctx.entries().actions == ()
    panel.toggle_side()
    assert ctx.puzzle().to_move == 1
    assert "Green" in panel.side_label.text()


def test_ai_plays_its_side_automatically(panel_and_ctx, qtbot) -> None:
    panel, ctx = panel_and_ctx
    panel.auto_analyse.setChecked(False)
    panel.ai_green.setChecked(True)
    panel.play_action(ctx.entries().actions[0] if ctx.entries().actions else _first_legal(ctx))
    qtbot.waitUntil(lambda: len(ctx.entries().actions) == 2, timeout=20000)
    assert ctx.history[-1].startswith("AI plays ")
    panel.take_back()  # back past the AI's reply to Red's turn
    assert ctx.entries().actions == ()


def _first_legal(ctx) -> Action:
    from solvers.doves.rules import legal_steps

    return next(s.action for s in legal_steps(ctx.puzzle()) if s.outcome == 0)


# ---- inside the real main window ---------------------------------------------------------------
@pytest.fixture
def view(main_window):
    win = main_window
    view = win.show_kind("doves")
    view.doc.apply(EditResult(puzzle=parse_board("bB;T YA"), entries=PlayEntries(), label="Set up"))
    yield view


def _panel(view):
    from widgets.panels.doves import PANEL_TITLE, DovesPanel

    for i in range(view.side.count()):
        if view.side.tabText(i) == PANEL_TITLE:
            view.side.setCurrentIndex(i)
    widget = view.panel(PANEL_TITLE)
    assert isinstance(widget, DovesPanel)
    return widget


def test_panel_analyses_in_the_window(view, qtbot) -> None:
    panel = _panel(view)
    qtbot.mouseClick(panel.analyse_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Win(5)" in panel.value_label.text(), timeout=30000)
    assert panel.line_list.count() == 5


def test_play_by_mouse_and_take_back(view, qtbot) -> None:
    from PySide6.QtCore import Qt

    from solvers.doves.drawing import board_cell, hand_slot

    panel = _panel(view)
    view.set_mode("play")
    board = view.board
    r, c = hand_slot(10)  # Red's Hajike in hand
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(r, c).toPoint())
    r, c = board_cell(-1, 1)  # N1 of the red boss: the first move of the Win(5) line
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(r, c).toPoint())
    assert len(view.doc.entries.actions) == 1
    assert view.doc.entries.actions[0] == Action("put", 10, (-1, 1))
    qtbot.waitUntil(lambda: "Lose(4)" in panel.value_label.text(), timeout=30000)
    panel.take_back()
    assert view.doc.entries.actions == ()


def test_f5_analyses_in_the_one_analysis_tab(view, qtbot) -> None:
    panel = _panel(view)
    titles = [view.side.tabText(i) for i in range(view.side.count())]
    assert "Analysis" not in titles and "Game and analysis" in titles  # one analysis tab
    view.side.setCurrentIndex(titles.index("Text"))
    assert view.solve(2) is None  # the panel analyses; no shell results list
    assert view.side.tabText(view.side.currentIndex()) == "Game and analysis"
    # Shallower depths say "Unknown"; the full analysis of this position finds the win.
    qtbot.waitUntil(lambda: "Win(5)" in panel.value_label.text(), timeout=60000)


def test_play_best_line(panel_and_ctx, qtbot) -> None:
    panel, ctx = panel_and_ctx
    panel.start_analysis()
    panel.line_list.setCurrentRow(1)
    panel.play_line()
    assert len(ctx.entries().actions) == 2
    # Red to move again, two plies further on (the automatic analysis restarts after a short delay)
    qtbot.waitUntil(lambda: "Win(3)" in panel.value_label.text(), timeout=10000)
    panel.line_list.setCurrentRow(-1)
    panel.play_line()
    assert len(ctx.entries().actions) == 5
    # the panel and the board say the same about the end of the game
    assert panel.value_label.text() == "Red wins: the green Boss is surrounded."
    assert "Red wins: the green Boss is surrounded" in _texts(
        PLUGIN.draw(ctx.puzzle(), entries=ctx.entries())
    )


def _texts(dl) -> list[str]:
    from solvers.common.display import Text

    return [item.text for item in dl.items if isinstance(item, Text)]


def test_rule_options_are_document_state_and_reach_the_analysis(panel_and_ctx) -> None:
    from solvers.doves.analysis import analyse
    from solvers.doves.rules import DEFAULT_RULES, Rules

    panel, ctx = panel_and_ctx
    position = ctx.puzzle()
    before = dict(vars(PLUGIN))
    panel.allow_remove.setChecked(False)
    # the switch edits the document's puzzle (one undo step), never the shared plug-in object
    assert ctx.puzzle().rules == Rules(allow_remove=False) and ctx.puzzle() == position.with_rules(
        Rules(allow_remove=False)
    )
    assert ctx.history[-1] == "Rules: no remove; both bosses surrounded: mover loses"
    assert vars(PLUGIN) == before and not hasattr(PLUGIN, "rules")
    panel.start_analysis()
    without = list(analyse(ctx.puzzle(), max_depth=panel.depth_spin.value()))[-1]
    assert panel.result is not None and panel.result.nodes == without.nodes
    assert str(panel.result.value) == str(without.value) == "Win(5)"
    info: dict = {}
    list(PLUGIN.solve(ctx.puzzle(), limit=1, info=info))
    assert info["rules"] == "no remove; both bosses surrounded: mover loses"
    # saved with the document and read back
    saved = PLUGIN.serialize_document(ctx.puzzle(), ctx.entries())
    assert "rules: remove=no both=mover_loses" in saved
    assert PLUGIN.parse_document(saved)[0].rules == Rules(allow_remove=False)
    panel.both_rule.setCurrentIndex(panel.both_rule.findData("draw"))
    assert ctx.puzzle().rules == Rules(allow_remove=False, both_surrounded="draw")
    # undo (the context puts the old puzzle back): the switches follow the document
    ctx.apply(EditResult(puzzle=position.with_rules(DEFAULT_RULES), label="undo"))
    assert panel.allow_remove.isChecked() and panel.both_rule.currentData() == "mover_loses"
    assert panel.value_label.text() != "" and panel.result is None  # the old value is dropped
    panel.start_analysis()
    default = list(analyse(position, max_depth=panel.depth_spin.value()))[-1]
    assert panel.result.nodes == default.nodes != without.nodes


# ---- idle start, move list, refusals --------------------------------------------------------------
def test_selecting_the_module_starts_no_analysis(main_window, qtbot) -> None:
    from workbench import warmup

    view = main_window.show_kind("doves")
    panel = _panel(view)
    qtbot.waitUntil(lambda: warmup.is_ready("doves"), timeout=60_000)  # its "Preparing" job ends
    qtbot.wait(AUTO_DELAY_WAIT_MS)
    assert not view.busy() and panel.analysis_job is None
    assert "press Analyse" in panel.value_label.text()
    view.set_mode("play")  # playing: a background analysis with the small budget
    qtbot.waitUntil(lambda: panel.analysis_job is not None, timeout=3000)
    assert panel.budgeted
    panel.auto_analyse.setChecked(False)  # switched off: nothing more starts
    panel.stop_analysis()
    qtbot.waitUntil(lambda: not view.busy(), timeout=5000)
    view.doc.apply(EditResult(entries=PlayEntries((_first_legal_of(view.doc.puzzle),)), label="move"))
    qtbot.wait(AUTO_DELAY_WAIT_MS)
    assert not view.busy() and panel.analysis_job is None


AUTO_DELAY_WAIT_MS = 600


def _first_legal_of(position) -> Action:
    from solvers.doves.rules import legal_steps

    return next(s.action for s in legal_steps(position) if s.outcome == 0)


def test_move_list_buttons_branch_copy_and_analyse(view, qtbot) -> None:
    from PySide6.QtGui import QGuiApplication

    panel = _panel(view)
    moves = panel.moves
    view.set_mode("play")
    panel.auto_analyse.setChecked(False)
    click = lambda button: qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # noqa: E731
    assert moves.list.count() == 1 and not moves.back_button.isEnabled()
    position = view.doc.puzzle
    line = list(analyse_line(position))
    view.doc.apply(EditResult(entries=PlayEntries(tuple(line[:3])), label="three"))
    assert moves.list.count() == 4 and moves.shown == 3
    assert moves.list.item(1).text() == "1. Red +HN1"
    click(moves.back_button)
    assert view.doc.entries == PlayEntries(tuple(line[:2]), (line[2],))
    click(moves.first_button)
    assert view.doc.entries.actions == () and moves.list.currentRow() == 0
    click(moves.forward_button)
    assert view.doc.entries.actions == (line[0],)
    click(moves.last_button)
    assert view.doc.entries.actions == tuple(line[:3])
    moves.list.setCurrentRow(1)  # a click on move 1 shows the position after it
    assert view.doc.entries == PlayEntries((line[0],), tuple(line[1:3]))
    # another move at move 2 replaces the later moves; Undo brings them back
    other = next(
        s.action
        for s in legal_steps(play(position, line[0]).position)
        if s.outcome == 0 and s.action != line[1]
    )
    panel.play_action(other)
    assert view.doc.entries == PlayEntries((line[0], other))
    assert moves.list.count() == 3
    view.doc.undo_stack.undo()
    assert view.doc.entries.record == tuple(line[:3]) and moves.list.count() == 4
    click(moves.copy_button)
    copied = QGuiApplication.clipboard().text()
    assert copied == PLUGIN.serialize_document(view.doc.puzzle, view.doc.entries)
    assert "moves: +HN1" in copied
    click(moves.analyse_button)  # analyses the shown position (after move 1)
    qtbot.waitUntil(lambda: "Lose(4)" in panel.value_label.text(), timeout=30000)
    assert panel.analysed == play(position, line[0]).position


def analyse_line(position):
    from solvers.doves.analysis import final_value

    result = final_value(position, max_depth=5)
    assert result is not None and str(result.value) == "Win(5)"
    return result.line


def test_refused_click_says_why_in_the_status_bar(view, qtbot) -> None:
    from solvers.doves.drawing import hand_slot

    view.set_mode("play")
    messages: list[str] = []
    view.status_message.connect(messages.append)
    board = view.board
    r, c = hand_slot(3)  # a green dove while Red is to move
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(r, c).toPoint())
    assert messages[-1] == "It is Red's turn: pick up a red dove"
    assert view.doc.entries.actions == ()


def test_dove_tools_are_named_and_explained() -> None:
    tools = {t.id: t for t in PLUGIN.tools(PLUGIN.new_puzzle())}
    assert tools["dove:H"].label == "H Hajike" and tools["dove:y"].label == "y Yaibato"
    assert tools["dove:H"].tip.startswith("Red Hajike (H): jumps like a chess knight")
    assert tools["dove:t"].tip.startswith("Green Totsu (t): slides")


def test_keyboard_plays_a_move(view, qtbot) -> None:
    """Arrows move the cursor; Enter clicks its cell: pick a dove, then its target."""
    view.play_radio.click()
    board = view.board
    board.setFocus()
    board.cursor_cell = (2, 2)
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert view.doc.ui.selected == 0 and not view.doc.entries.actions
    qtbot.keyClick(board, Qt.Key.Key_Up)
    qtbot.keyClick(board, Qt.Key.Key_Left)
    assert board.cursor_cell == (1, 1)
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert view.doc.entries.actions == (Action("move", 0, (-1, 0)),)


def test_rule_switches_edit_the_document_with_undo(main_window, qtbot, tmp_path) -> None:
    """In the real window: a switch is one undo step of the document, saved with it; undo moves
    the switch back; the plug-in object is not touched."""
    from solvers.doves.rules import DEFAULT_RULES, Rules

    view = main_window.show_kind("doves")
    panel = _panel(view)
    before = dict(vars(PLUGIN))
    panel.allow_remove.click()
    assert view.doc.puzzle.rules == Rules(allow_remove=False)
    assert view.doc.undo_stack.undoText().startswith("Rules: no remove")
    path = view.doc.save(tmp_path / "game.doves")
    assert "rules: remove=no both=mover_loses" in path.read_text(encoding="utf-8")
    view.doc.undo_stack.undo()
    assert view.doc.puzzle.rules == DEFAULT_RULES and panel.allow_remove.isChecked()
    view.doc.load(path)
    assert view.doc.puzzle.rules == Rules(allow_remove=False) and not panel.allow_remove.isChecked()
    assert vars(PLUGIN) == before


def test_a_rule_switch_drops_the_moves_it_makes_illegal_in_one_undo_step(
    main_window, qtbot, tmp_path
) -> None:
    """Switching Remove off after a remove was played kept the whole record: a game that broke its
    own rules (Check: illegal action). Now the switch keeps the moves still legal, in one undo step."""
    path = tmp_path / "removed.doves"
    path.write_text("bB..\nT.YA\nmoves: +HN1 bN1W1 -T +aN2\n", encoding="utf-8")
    view = main_window.show_kind("doves")
    view.doc.load(path)
    panel = _panel(view)
    played = view.doc.entries.actions
    assert len(played) == 4
    steps = view.doc.undo_stack.count()
    panel.allow_remove.click()
    assert view.doc.entries.actions == played[:2] and not panel.allow_remove.isChecked()
    assert view.doc.undo_stack.count() == steps + 1
    assert view.doc.undo_stack.undoText().endswith("(drops 2 moves no longer legal)")
    assert view.plugin.check(view.doc.puzzle, view.doc.entries).violations == []
    view.doc.undo_stack.undo()
    assert view.doc.entries.actions == played and panel.allow_remove.isChecked()


def test_picking_up_a_dove_is_no_change_and_a_move_says_no_cancel(main_window, qtbot, tmp_path) -> None:
    """Picking up a dove marked the document modified; every move left 'Analysing Tokyo Doves
    cancelled' in the status bar (issue 29.15)."""
    from PySide6.QtCore import Qt

    from solvers.doves.drawing import board_cell, hand_slot

    view = main_window.show_kind("doves")
    path = tmp_path / "game.doves"
    view.doc.reset(parse_board("bB;T YA"), PlayEntries(), path)
    assert not view.doc.dirty
    panel = _panel(view)
    view.set_mode("play")
    board = view.board
    r, c = hand_slot(10)  # pick up Red's Hajike in hand
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(r, c).toPoint())
    assert not view.doc.dirty and view.doc.undo_stack.count() == 0
    panel.start_analysis()
    r, c = board_cell(-1, 1)
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(r, c).toPoint())
    assert len(view.doc.entries.actions) == 1 and view.doc.dirty
    qtbot.waitUntil(lambda: "Lose(4)" in panel.value_label.text(), timeout=30000)
    qtbot.wait(100)
    assert "cancelled" not in main_window.statusBar().currentMessage()


def test_browsing_the_move_list_with_the_ai_on_never_rewrites_the_game(view, qtbot) -> None:
    """Clicking '1. Red ...' with 'AI plays Green' on made the AI play there and the recorded line
    was gone; Ctrl+Z made it move again (issue 29.2). Browsing is read-only, as in X-ceter-O."""
    panel = _panel(view)
    view.set_mode("play")
    panel.auto_analyse.setChecked(False)
    panel.ai_green.setChecked(True)
    panel.play_action(_first_legal_at(view.doc.puzzle))
    qtbot.waitUntil(lambda: len(view.doc.entries.actions) == 2, timeout=30000)  # the AI answered
    record = view.doc.entries.record
    panel.moves.list.setCurrentRow(1)  # "1. Red ...": Green (the AI) to move there
    qtbot.waitUntil(lambda: len(view.doc.entries.actions) == 1, timeout=5000)
    qtbot.wait(1500)  # longer than the AI's delay
    assert view.doc.entries.record == record and len(view.doc.entries.actions) == 1
    panel.moves.list.setCurrentRow(2)
    qtbot.waitUntil(lambda: len(view.doc.entries.actions) == 2, timeout=5000)
    view.doc.undo_stack.undo()  # back to where the AI is to move
    qtbot.wait(1500)
    assert view.doc.entries.record == record
    view.doc.undo_stack.undo()
    view.doc.undo_stack.undo()
    qtbot.wait(1500)
    assert view.doc.entries.record[: len(view.doc.entries.actions)] == record[: len(view.doc.entries.actions)]


def _first_legal_at(position) -> Action:
    from solvers.doves.rules import legal_steps

    return next(s.action for s in legal_steps(position) if s.outcome == 0)
