"""Tokyo Doves side panel: move list, analysis (value + best line), AI opponent, side to move, rules.

All game knowledge comes from ``solvers.doves``; searches run through ``ctx.run_job`` so the GUI never
waits. Each analysis depth arrives through a Qt signal emitted from the worker thread (queued to the
GUI thread), so the value and the best line improve while the search deepens.

Analysis runs when asked (Analyse) to the chosen depth, or in the background while playing with a
small time budget (a switch); never on its own in Edit mode, so a freshly opened module stays idle.

The rule options belong to the puzzle (``Position.rules``): the switches (``DovesRulesBox``)
change them through ``ctx.apply`` (one undo step that keeps the moves still legal, saved with the
file), and every job gets them with the position. The move list, the AI's scheduling, take-back and the best line's "play line" are the
shared ``widgets.game_panel.GamePanel``; this file keeps what is Tokyo Doves' own.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from solvers.common.errors import InputError
from solvers.common.protocol import EditResult
from solvers.doves import tablebase
from solvers.doves.analysis import LEVELS, Analysis, analysis_verdict, choose_action
from solvers.doves.editing import DovesUI
from solvers.doves.model import COLOUR_NAMES, Position, dove_name
from solvers.doves.plugin import PlayEntries, arrangement_problems, game_status, played_status, replay
from solvers.doves.rules import JUDGES, Action, Rules, parse_doves, play, to_ssn
from widgets.game_panel import GamePanel
from widgets.panels.doves_parts import (
    LONGEST_VALUE,
    SteadyLabel,
    analysis_work,
    mark_outcome,
    side_text,
)
from widgets.rows import left_row

AUTO_DELAY_MS = 200  # let the board repaint before a new search or an AI reply starts
BACKGROUND_BUDGET_S = 2  # default time budget of the background analysis while playing
FULL_GAME = "All (the full game)"
SOLVED = "(solved)"  # a dove set with a stored table of exact values (a tablebase)
# The both-Bosses-surrounded judges in words (the rule's keys are file and CLI words): short in the
# combo box, whose column at 1024x768 cut "the player who moved loses" off (QA); whole in tooltips
JUDGE_WORDS = {
    "mover_loses": "the player who moved loses",
    "mover_wins": "the player who moved wins",
    "draw": "draw",
}
JUDGE_SHORT = {"mover_loses": "mover loses", "mover_wins": "mover wins", "draw": "draw"}
AHEAD_TIP = "How many moves ahead Analyse looks, both players' moves counted"
# What Win(n) / Lose(n) mean, in the move list's sense of a move (one player's action)
VALUE_WORDS = (
    "Win(n): the side to move can force a win within n moves, both players' moves counted "
    "(so n is odd); Lose(n): the opponent can. Unknown: no forced win found."
)


class _PopupAwareCombo(QComboBox):
    """A combo box that refreshes its entries just before its list opens."""

    def __init__(self, before_popup: Any) -> None:
        super().__init__()
        self._before_popup = before_popup

    def showPopup(self) -> None:  # noqa: N802 (Qt API)
        self._before_popup()
        super().showPopup()


def _spin(most: int, value: int, prefix: str, suffix: str, name: str = "", tip: str = "") -> QSpinBox:
    spin = QSpinBox()
    spin.setToolTip(tip)
    spin.setRange(1, most)
    spin.setValue(value)
    spin.setPrefix(prefix)
    spin.setSuffix(suffix)
    if name:
        spin.setAccessibleName(name)
    return spin


def create_panels(ctx: Any) -> list[tuple[str, QWidget]]:
    return [(PANEL_TITLE, DovesPanel(ctx))]


PANEL_TITLE = "Game and analysis"


class DovesRulesBox(QGroupBox):
    """The document's rule options: remove allowed, the both-Bosses judge and the dove set.

    Every change is one undo step on the document's puzzle (``Position.rules``) that keeps the
    record's moves still legal under the new rules (``adapt_entries``, as X-ceter-O's rule switches
    do); ``show_rules`` sets the switches from the document without sending them back."""

    def __init__(self, ctx: Any) -> None:
        super().__init__("Rules")
        self.ctx = ctx
        # Rule options live in the document, so the board's legal moves, F5 and this panel agree.
        self.allow_remove = QCheckBox("Remove action allowed")
        self.allow_remove.setToolTip("A player may move one of their own doves (not the Boss) back to hand")
        self.both_rule = QComboBox()
        for key in JUDGES:
            self.both_rule.addItem(f"Both Bosses surrounded: {JUDGE_SHORT.get(key, key)}", key)
            self.both_rule.setItemData(
                self.both_rule.count() - 1,
                f"When both Bosses are surrounded by one move: {JUDGE_WORDS.get(key, key)}",
                Qt.ItemDataRole.ToolTipRole,
            )
        # The dove set: the full game, or a reduced game (a stored tablebase answers it exactly).
        self._stored_sets = tablebase.stored_dove_sets()  # file names only: cheap, re-read on popup
        self.dove_set = _PopupAwareCombo(self._reread_stored_sets)
        self.dove_set.setEditable(True)
        self.dove_set.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.dove_set.setAccessibleName("Doves in the game")
        self.dove_set.setToolTip(
            "Doves in the game besides the Bosses: Red/Green letters (A Y M T H), e.g. AT/AY.\n"
            f"A reduced game marked {SOLVED} has a stored table of exact values (a tablebase): it is\n"
            "analysed exactly and the AI plays it perfectly."
        )
        line = self.dove_set.lineEdit()
        if line is not None:
            line.setPlaceholderText("e.g. AT/AY")
            line.editingFinished.connect(self._dove_set_chosen)
        self.dove_set.activated.connect(lambda _i: self._dove_set_chosen())
        self.show_rules()
        self.both_rule.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.both_rule.setMinimumContentsLength(16)  # long entries must not widen the panel
        self.allow_remove.toggled.connect(self._rules_changed)
        self.both_rule.currentIndexChanged.connect(self._rules_changed)

        layout = QVBoxLayout(self)
        layout.addWidget(self.allow_remove)
        layout.addWidget(self.both_rule)
        dove_row = QHBoxLayout()
        dove_row.addWidget(QLabel("Doves:"))
        dove_row.addWidget(self.dove_set, 1)
        layout.addLayout(dove_row)

    def rules(self) -> Rules:
        puzzle: Position = self.ctx.puzzle()
        return puzzle.rules

    def _apply(self, rules: Rules, label: str) -> None:
        # one undo step; the document's change signal refreshes the panel and the board
        puzzle: Position = self.ctx.puzzle().with_rules(rules)
        entries = self.ctx.entries()
        kept = self.ctx.plugin.adapt_entries(puzzle, entries)
        if isinstance(entries, PlayEntries) and len(kept.record) < len(entries.record):
            dropped = len(entries.record) - len(kept.record)
            label += f" (drops {dropped} move{'s' if dropped != 1 else ''} no longer legal)"
        self.ctx.apply(EditResult(puzzle=puzzle, entries=kept, label=label))
        self.ctx.status(f"Tokyo Doves rules: {self.rules().describe()}")

    def _rules_changed(self) -> None:
        rules = replace(
            self.rules(),
            allow_remove=self.allow_remove.isChecked(),
            both_surrounded=str(self.both_rule.currentData()),
        )  # a reduced game's dove set (``doves=`` in the file) stays
        if rules != self.rules():
            self._apply(rules, f"Rules: {rules.describe()}")

    def show_rules(self) -> None:
        """Set the switches from the document's rules without sending them back."""
        rules = self.rules()
        for widget in (self.allow_remove, self.both_rule, self.dove_set):
            widget.blockSignals(True)
        self.allow_remove.setChecked(rules.allow_remove)
        self.both_rule.setCurrentIndex(list(JUDGES).index(rules.both_surrounded))
        self.both_rule.setToolTip(str(self.both_rule.currentData(Qt.ItemDataRole.ToolTipRole)))
        self.dove_set.clear()
        self.dove_set.addItem(FULL_GAME, "")
        for text in self._stored_sets:
            self.dove_set.addItem(f"{text}  {SOLVED}", text)
        shown = rules.doves_text()
        index = self.dove_set.findData(shown)
        if index >= 0:
            self.dove_set.setCurrentIndex(index)
        else:
            self.dove_set.setEditText(shown)
        for widget in (self.allow_remove, self.both_rule, self.dove_set):
            widget.blockSignals(False)

    def _reread_stored_sets(self) -> None:
        """Tables built meanwhile (``doves tablebase build``) appear when the list opens."""
        stored = tablebase.stored_dove_sets()
        if stored != self._stored_sets:
            self._stored_sets = stored
            self.show_rules()

    def _dove_set_chosen(self) -> None:
        """A dove set picked or typed: the document's rules change in one undo step; a set that
        leaves out a dove on the board, or that does not parse, is refused with the reason."""
        text = self.dove_set.currentText().strip()
        chosen = (
            self.dove_set.currentData()
            if text == self.dove_set.itemText(self.dove_set.currentIndex())
            else None
        )
        # typed text: the letters without spaces (a pasted "(solved)" note is not part of it)
        word = str(chosen) if chosen is not None else text.split("(")[0].replace(" ", "")
        try:
            doves = (
                None
                if word in ("", FULL_GAME.split()[0]) or word == FULL_GAME.replace(" ", "")
                else parse_doves(word)
            )
        except InputError as exc:
            self.ctx.status(str(exc))
            self.show_rules()
            return
        rules = replace(self.rules(), doves=doves)
        if rules == self.rules():
            self.show_rules()  # tidy the text (letters in kind order)
            return
        outside = [d for d in self.ctx.puzzle().cells() if not rules.hand >> d & 1]  # the set-up's
        if outside:
            names = ", ".join(dove_name(d) for d in outside)
            self.ctx.status(
                f"The board holds {names}, outside the game {rules.doves_text()}: remove it in Edit mode first."
            )
            self.show_rules()
            return
        self._apply(rules, f"Doves in the game: {rules.doves_text() or 'all'}")


def _value_text(mover: str, result: Analysis) -> str:
    """The value line of an analysis (rich text)."""
    if result.source == "tablebase":
        return f"{mover} to move: <b>{result.value}</b> — exact, from the stored table ({result.seconds * 1000:.0f} ms)"
    return (
        f"{mover} to move: <b>{result.value}</b> — looked {result.depth} moves ahead, "
        f"{result.nodes:,} positions, {result.seconds:.2f} s"
    )


def _switch_side(ctx: Any, entries: PlayEntries) -> None:
    """The other side moves first in the set-up (before any move is played): one undo step."""
    if entries.actions:
        return
    puzzle: Position = ctx.puzzle()
    ctx.apply(
        EditResult(
            puzzle=puzzle.with_to_move(1 - puzzle.to_move),
            entries=entries.restart(),
            label="Switch side to move",
        )
    )


def _run_job(ctx: Any, title: str, work: Any, done: Any, ended: Any) -> Any:
    """``ctx.run_job`` that calls ``ended()`` however the job ends: done, failed or cancelled."""

    def finished(result: Any) -> None:
        done(result)
        ended()

    def failed(error: str) -> None:
        ctx.status(f"{title} failed: {error}")  # what the shell says when a job has no on_error
        ended()

    return ctx.run_job(title, work, finished, failed, lambda _result: ended())


def _analysis_box(panel: DovesPanel) -> QGroupBox:
    """The panel's analysis group: value, how far to look, Analyse/Stop, background switch, hint,
    best line. The look-ahead box has a row of its own: beside Analyse and Stop it made the panel
    wider than its column under the dark style sheet (wider spin boxes)."""
    box = QGroupBox("Analysis")
    box.setToolTip(VALUE_WORDS)
    layout = QVBoxLayout(box)
    words = QLabel(VALUE_WORDS)
    words.setWordWrap(True)
    layout.addWidget(words)
    layout.addWidget(panel.value_label)
    ahead_label = QLabel("Look ahead:")
    ahead_label.setBuddy(panel.depth_spin)
    layout.addLayout(left_row(ahead_label, panel.depth_spin))
    layout.addLayout(left_row(panel.analyse_button, panel.stop_button))
    layout.addWidget(panel.auto_analyse)
    layout.addLayout(left_row(20, panel.budget))
    layout.addWidget(panel.hint)
    line_label = QLabel(
        "Best line (squares counted from the red Boss: N1E2 = 1 up, 2 right; "
        "+ puts a dove from hand, - sends it back):"
    )
    line_label.setWordWrap(True)  # a narrow window wraps it instead of widening the panel
    layout.addWidget(line_label)
    layout.addWidget(panel.line_list, 1)
    layout.addWidget(panel.play_line_button)
    return box


class DovesPanel(GamePanel):
    depth_done = Signal(object)  # (generation, Analysis), emitted from the worker thread
    auto_delay_ms = AUTO_DELAY_MS
    opponent_button_text = "AI move"
    opponent_name = "the AI"
    side_names = {0: "Red", 1: "Green"}

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.generation = 0
        self.analysis_job: Any = None
        self.ai_job: Any = None
        self.result: Analysis | None = None
        self.analysed: Position | None = None  # with its rules: another rule set is another game
        self.budgeted = False  # the last analysis ran with a time budget (background)
        self.said_move = False  # the status bar says the last move played

        self.side_label = QLabel()
        self.side_label.setAccessibleName("Side to move")
        self.switch_side = QPushButton("Switch side")
        self.switch_side.clicked.connect(self.toggle_side)

        self.value_label = SteadyLabel("No analysis yet.", LONGEST_VALUE)  # nothing below moves
        self.value_label.setAccessibleName("Position value")
        self.auto_analyse = QCheckBox("Background analysis in Play mode")
        self.auto_analyse.setToolTip(
            "In Play mode, analyse each new position for at most the time set below. "
            "Analyse looks as far ahead as set above."
        )
        self.auto_analyse.setChecked(True)
        self.auto_analyse.toggled.connect(self._schedule_analysis)
        self.budget = _spin(60, BACKGROUND_BUDGET_S, "at most ", " s", "Background analysis time limit")
        self.depth_spin = _spin(25, 11, "", " moves", "Look ahead", AHEAD_TIP)  # not "depth": QWidget.depth()
        self.analyse_button = QPushButton("Analyse")
        self.analyse_button.setToolTip("Analyse the position on the board, looking as far ahead as set above")
        self.analyse_button.clicked.connect(lambda: self.start_analysis())
        self.stop_button = QPushButton("Stop")
        self.stop_button.setToolTip("Stop the running analysis or the AI's search")
        self.stop_button.setEnabled(False)  # enabled only while one of the panel's jobs runs
        self.stop_button.clicked.connect(self.stop_jobs)
        self.hint = QCheckBox("Show the best move on the board")
        self.hint.toggled.connect(self._update_overlay)
        self.play_line_button.setText("Play line to the selected move")

        self.level = QComboBox()
        for level, (plies, seconds) in sorted(LEVELS.items()):
            self.level.addItem(f"Level {level} (looks {plies} moves ahead, ≤{seconds:g} s)", level)
        self.level.setCurrentIndex(2)
        self.level.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.level.setMinimumContentsLength(16)  # long entries must not widen the panel
        self.ai_button = self.opponent_button  # the old names, kept for callers and tests
        self.ai_button.setToolTip("The AI plays one move for the side to move")
        self.ai_red, self.ai_green = self.side_boxes[0], self.side_boxes[1]
        self.moves = self.move_list

        self.rules_box = DovesRulesBox(ctx)
        self.allow_remove = self.rules_box.allow_remove
        self.both_rule = self.rules_box.both_rule
        self.dove_set = self.rules_box.dove_set

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.moves_box(), 1)
        side = QHBoxLayout()
        side.addWidget(self.side_label, 1)
        side.addWidget(self.switch_side)
        layout.addLayout(side)
        layout.addWidget(_analysis_box(self), 1)
        layout.addWidget(self.opponent_box("Play against the AI", self.level))
        layout.addWidget(self.rules_box)

        self.depth_done.connect(self._depth_arrived)
        self._analysis_timer = QTimer(self)
        self._analysis_timer.setSingleShot(True)
        self._analysis_timer.timeout.connect(self._background_analysis)
        ctx.changed.connect(self.refresh)
        self.refresh()

    # ---- the game panel's hooks -----------------------------------------------------------------
    def record(self) -> PlayEntries:
        return self.entries()

    def opponent_sides(self) -> Sequence[tuple[Hashable, str]]:
        return ((0, "AI plays Red"), (1, "AI plays Green"))

    def side_to_move(self, position: Any) -> Hashable:
        return int(position.to_move)

    def side_after(self, ply: int) -> Hashable:
        return replay(self.ctx.puzzle(), self.entries().actions[:ply]).position.to_move

    def opponent_move(self) -> None:
        self.ai_move()

    def opponent_busy(self) -> bool:
        return self.ai_job is not None and not getattr(self.ai_job, "done", True)

    def analyse_shown(self) -> None:
        self.start_analysis()

    def best_line(self) -> list[Any]:
        position, _ = self.current()
        if self.result is None or not self._is_analysed(position):
            return []
        return list(self.result.line)

    # ---- state --------------------------------------------------------------------------------
    def _is_analysed(self, position: Position) -> bool:
        """The shown analysis is of ``position`` (whose rules are part of it)."""
        return position == self.analysed

    def entries(self) -> PlayEntries:
        entries = self.ctx.entries()
        return entries if isinstance(entries, PlayEntries) else PlayEntries()

    def current(self) -> tuple[Position, bool]:
        """The position after the played actions, and whether the game can go on from it."""
        puzzle: Position = self.ctx.puzzle()
        state = replay(puzzle, self.entries().actions)
        live = state.error is None and not state.finished and not arrangement_problems(state.position)
        return state.position, live

    def _not_live_reason(self, position: Position) -> str:
        """The board's wording for a position where play cannot go on."""
        text, _ = game_status(self.ctx.puzzle(), self.entries().actions)
        return text

    # ---- refresh ----------------------------------------------------------------------------
    def refresh(self) -> None:
        position, live = self.current()
        grew = self.line_grew()
        if grew:  # say the move: the prompt of the pick-up before it no longer applies
            self.ctx.status(played_status(self.ctx.puzzle(), self.entries().actions))
        elif self.said_move:  # undone or browsed away: "Red played ..." no longer describes it
            self.ctx.status("")
        self.said_move = grew
        ui = self.ctx.ui() if hasattr(self.ctx, "ui") else None
        if isinstance(ui, DovesUI):
            ui.changed(self.ctx.mode())  # no stale pick-up; the editor's frame lasts while Edit mode does
        self.share_sides()  # Backspace on the board takes back to the player's turn
        self.rules_box.show_rules()
        self.side_label.setText(side_text(self.ctx.puzzle(), self.entries().actions))
        mark_outcome(self.move_list.list, self.ctx.puzzle(), self.entries().record)
        self.switch_side.setEnabled(not self.entries().actions)
        if not self._is_analysed(position):
            self.stop_analysis()  # and forget it: Undo back to its position analyses again (QA)
            self.generation += 1  # a depth the stopped search still sends is dropped
            self.result, self.analysed = None, None
            self.line_list.clear()
            if not live:
                self.value_label.setText(f"{self._not_live_reason(position)}.")
            else:
                background = self.auto_analyse.isChecked() and self.ctx.mode() == "play"
                self.value_label.setText(
                    "Not analysed yet" + ("." if background else ": press Analyse (F5 analyses too).")
                )
                self._schedule_analysis()
        self._update_overlay()
        self.update_opponent(grew)  # the AI answers only a move that extended the line

    def _update_overlay(self) -> None:
        overlay: dict[str, Any] = {}
        if (
            self.hint.isChecked()
            and self.result is not None
            and self.result.line
            and self.analysed is not None
        ):
            position, _ = self.current()
            if self._is_analysed(position):
                overlay["hint"] = self.result.line[0]
        self.ctx.set_overlay(overlay)

    # ---- analysis ---------------------------------------------------------------------------
    def _schedule_analysis(self) -> None:
        if self.auto_analyse.isChecked() and self.ctx.mode() == "play":
            self._analysis_timer.start(AUTO_DELAY_MS)

    def _background_analysis(self) -> None:
        position, live = self.current()
        if self.auto_analyse.isChecked() and self.ctx.mode() == "play" and not self._is_analysed(position):
            self.start_analysis(budget=float(self.budget.value()))

    def solve_requested(self, limit: int | None = 2) -> None:
        """Solve / Find All (F5, Shift+F5): analyse the shown position to the full depth."""
        self.start_analysis()

    def start_analysis(self, budget: float | None = None) -> None:
        """Analyse the shown position to the maximum depth (or until ``budget`` seconds pass)."""
        position, live = self.current()
        if not live:
            self.ctx.status(f"Nothing to analyse: {self._not_live_reason(position)}")
            return
        self.stop_analysis()
        self.generation += 1
        generation = self.generation
        self.analysed = position  # with its rules: the worker never reads the document or the plug-in
        self.budgeted = budget is not None
        self.value_label.setText("Analysing…" if budget is None else f"Analysing (≤ {budget:g} s)…")
        work = analysis_work(
            position,
            self.depth_spin.value(),
            budget,
            lambda result: self.depth_done.emit((generation, result)),
        )

        # An analysis asked for (F5, Analyse) ends with its value on the status line, in the words
        # `workbench solve` prints; a background one (a time budget, while playing) keeps quiet.
        def done(result: Analysis | None) -> None:
            self._finished(generation)
            if budget is None and generation == self.generation and isinstance(result, Analysis):
                self.ctx.status(analysis_verdict(position, result))

        self.analysis_job = self._run("Analysing Tokyo Doves", work, done)
        self._update_stop()

    def stop_analysis(self) -> None:
        job = self.analysis_job
        if job is not None and not getattr(job, "done", True):
            job.cancel()
        self.analysis_job = None
        self._update_stop()

    def stop_jobs(self) -> None:
        """Stop: the analysis and the AI's search (a new move restarts only the analysis)."""
        if self.ai_job is not None and not getattr(self.ai_job, "done", True):
            self.ai_job.cancel()
        self.ai_job = None
        self.stop_analysis()

    def _update_stop(self) -> None:
        jobs = (self.analysis_job, self.ai_job)
        self.stop_button.setEnabled(any(j is not None and not getattr(j, "done", True) for j in jobs))
        self.show_waiting()  # the AI stopped (Esc, Stop) on its turn: say why it waits

    def _run(self, title: str, work: Any, done: Any) -> Any:
        """``ctx.run_job`` that also hears how the job ends (done, failed or cancelled, e.g. by
        Esc), so Stop is enabled exactly while a job of the panel runs."""
        return _run_job(self.ctx, title, work, done, self._update_stop)

    def _depth_arrived(self, item: tuple[int, Analysis]) -> None:
        generation, result = item
        if generation != self.generation:
            return  # a late result of an older search
        self.result = result
        mover = COLOUR_NAMES[self.analysed.to_move if self.analysed else 0].capitalize()
        self.value_label.setText(_value_text(mover, result))
        self.line_list.clear()
        for ply, (text, before) in enumerate(zip(result.ssn, result.positions, strict=True), 1):
            self.line_list.addItem(f"{ply}. {COLOUR_NAMES[before.to_move]} {text}")
        self._update_overlay()

    def _finished(self, generation: int) -> None:
        if generation == self.generation and self.result is not None and self.result.value.kind == "unknown":
            why = "in the time allowed" if self.budgeted else f"within {self.result.depth} moves"
            self.value_label.setText(self.value_label.text() + f" (no forced win {why})")

    def toggle_side(self) -> None:
        _switch_side(self.ctx, self.entries())

    # ---- playing ------------------------------------------------------------------------------
    def ai_move(self) -> None:
        position, live = self.current()
        if not live or (self.ai_job is not None and not getattr(self.ai_job, "done", True)):
            return
        puzzle, entries = self.ctx.puzzle(), self.entries()
        level = int(self.level.currentData())

        def work(cancel: Any, progress: Any) -> Action | None:
            progress({"text": f"AI level {level} is thinking…"})
            return choose_action(position, level, cancel=cancel)

        def done(action: Action | None) -> None:
            self.ai_job = None
            if action is None or self.ctx.puzzle() != puzzle or self.entries() != entries:
                return  # the game moved on while the AI was thinking
            label = f"AI plays {to_ssn(position, action)}"  # part of the undo step of the move it answers
            self.apply_opponent_move(EditResult(entries=entries.then(action), label=label))

        self.ai_job = self._run("AI move", work, done)
        self._update_stop()

    def play_action(self, action: Action, label: str = "Play") -> None:
        position, live = self.current()
        if not live:
            return
        play(position, action)  # raises if illegal: a programming error, never user input
        self.ctx.apply(EditResult(entries=self.entries().then(action), label=label))


__all__ = ["DovesPanel", "DovesRulesBox", "create_panels"]
