"""The Tokyo Doves panel with a minimal in-process PanelContext (pytest-qt)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QObject, Qt, Signal

from solvers.common.cancel import CancelToken
from solvers.common.protocol import EditResult
from solvers.doves import PLUGIN, PlayEntries
from solvers.doves.model import parse_board
from solvers.doves.rules import Action, play

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

    def set_overlay(self, overlay: Any) -> None:
        self.overlay = overlay

    def status(self, text: str) -> None:
        self.messages.append(text)

    def run_job(self, title, work, on_done, on_error=None) -> FakeJob:
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


def test_f5_shows_the_final_value(view, qtbot) -> None:
    with qtbot.waitSignal(view.solve_finished, timeout=60000):
        view.solve(2)
    assert view.browser.count() == 1


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
    assert "Red wins: the green Boss is surrounded" in _texts(PLUGIN.draw(ctx.puzzle(), entries=ctx.entries()))


def _texts(dl) -> list[str]:
    from solvers.common.display import Text

    return [item.text for item in dl.items if isinstance(item, Text)]


def test_rule_options_reach_the_analysis_and_the_plugin(panel_and_ctx) -> None:
    from solvers.doves.analysis import analyse
    from solvers.doves.rules import DEFAULT_RULES, Rules

    panel, ctx = panel_and_ctx
    position = ctx.puzzle()
    try:
        panel.allow_remove.setChecked(False)
        assert PLUGIN.rules == Rules(allow_remove=False)
        panel.start_analysis()
        without = list(analyse(position, max_depth=panel.depth.value(), rules=PLUGIN.rules))[-1]
        assert panel.result is not None and panel.result.nodes == without.nodes
        assert str(panel.result.value) == str(without.value) == "Win(5)"
        info: dict = {}
        list(PLUGIN.solve(position, limit=1, info=info))
        assert info["rules"] == "no remove; both bosses surrounded: mover loses"
        panel.both_rule.setCurrentIndex(panel.both_rule.findData("draw"))
        assert PLUGIN.rules == Rules(allow_remove=False, both_surrounded="draw")
        panel.allow_remove.setChecked(True)
        panel.both_rule.setCurrentIndex(panel.both_rule.findData("mover_loses"))
        assert PLUGIN.rules == DEFAULT_RULES
        panel.start_analysis()
        default = list(analyse(position, max_depth=panel.depth.value()))[-1]
        assert panel.result.nodes == default.nodes != without.nodes
    finally:
        PLUGIN.rules = DEFAULT_RULES  # the plug-in is shared by every test
