"""Tokyo Doves side panel: move list, analysis (value + best line), AI opponent, side to move, rules.

All game knowledge comes from ``solvers.doves``; searches run through ``ctx.run_job`` so the GUI never
waits. Each analysis depth arrives through a Qt signal emitted from the worker thread (queued to the
GUI thread), so the value and the best line improve while the search deepens.

Analysis runs when asked (Analyse) to the chosen depth, or in the background while playing with a
small time budget (a switch); never on its own in Edit mode, so a freshly opened module stays idle.

The rule options belong to the document (``PlayEntries.rules``): the switches change them through
``ctx.apply`` (one undo step, saved with the file) and every job gets them as an argument.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from solvers.common.errors import InputError
from solvers.common.protocol import EditResult
from solvers.doves import tablebase
from solvers.doves.analysis import LEVELS, Analysis, analyse, choose_action
from solvers.doves.model import COLOUR_NAMES, Position, dove_name
from solvers.doves.plugin import PlayEntries, arrangement_problems, game_status, replay
from solvers.doves.rules import JUDGES, Action, Rules, parse_doves, play, to_ssn
from widgets.move_list import MoveList

AUTO_DELAY_MS = 200  # let the board repaint before a new search or an AI reply starts
BACKGROUND_BUDGET_S = 2  # default time budget of the background analysis while playing
FULL_GAME = "All (the full game)"


class _PopupAwareCombo(QComboBox):
    """A combo box that refreshes its entries just before its list opens."""

    def __init__(self, before_popup: Any) -> None:
        super().__init__()
        self._before_popup = before_popup

    def showPopup(self) -> None:  # noqa: N802 (Qt API)
        self._before_popup()
        super().showPopup()


def create_panels(ctx: Any) -> list[tuple[str, QWidget]]:
    return [(PANEL_TITLE, DovesPanel(ctx))]


PANEL_TITLE = "Game and analysis"


class DovesPanel(QWidget):
    depth_done = Signal(object)  # (generation, Analysis), emitted from the worker thread

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.generation = 0
        self.analysis_job: Any = None
        self.ai_job: Any = None
        self.result: Analysis | None = None
        self.analysed: Position | None = None
        self.analysed_rules: Rules | None = None  # the rules the shown analysis was made under
        self.budgeted = False  # the last analysis ran with a time budget (background)

        self.side_label = QLabel()
        self.side_label.setAccessibleName("Side to move")
        self.switch_side = QPushButton("Switch side")
        self.switch_side.clicked.connect(self.toggle_side)

        self.value_label = QLabel("No analysis yet.")
        self.value_label.setWordWrap(True)
        self.value_label.setAccessibleName("Position value")
        self.auto_analyse = QCheckBox("Background analysis in Play mode")
        self.auto_analyse.setToolTip(
            "In Play mode, analyse each new position for at most the budget below. "
            "Analyse searches to the full depth."
        )
        self.auto_analyse.setChecked(True)
        self.auto_analyse.toggled.connect(self._schedule_analysis)
        self.budget = QSpinBox()
        self.budget.setRange(1, 60)
        self.budget.setValue(BACKGROUND_BUDGET_S)
        self.budget.setPrefix("at most ")
        self.budget.setSuffix(" s")
        self.budget.setAccessibleName("Background analysis budget")
        self.depth_spin = QSpinBox()  # not "depth": that is QWidget.depth()
        self.depth_spin.setRange(1, 25)
        self.depth_spin.setValue(11)
        self.depth_spin.setPrefix("depth ")
        self.depth_spin.setSuffix(" plies")
        self.analyse_button = QPushButton("Analyse")
        self.analyse_button.setToolTip("Analyse the position on the board to the maximum depth")
        self.analyse_button.clicked.connect(lambda: self.start_analysis())
        self.stop_button = QPushButton("Stop")
        self.stop_button.clicked.connect(self.stop_analysis)
        self.hint = QCheckBox("Show the best action on the board")
        self.hint.toggled.connect(self._update_overlay)
        self.line_list = QListWidget()
        self.line_list.setAccessibleName("Best line")
        self.play_line_button = QPushButton("Play line to the selected action")
        self.play_line_button.setToolTip("Play the best line up to the selected row (all of it if none)")
        self.play_line_button.clicked.connect(self.play_line)

        self.level = QComboBox()
        for level, (plies, seconds) in sorted(LEVELS.items()):
            self.level.addItem(f"Level {level} ({plies} plies, ≤{seconds:g} s)", level)
        self.level.setCurrentIndex(2)
        self.ai_button = QPushButton("AI move")
        self.ai_button.setToolTip("The AI plays one action for the side to move")
        self.ai_button.clicked.connect(self.ai_move)
        self.ai_red = QCheckBox("AI plays Red")
        self.ai_green = QCheckBox("AI plays Green")
        for ai_box in (self.ai_red, self.ai_green):
            ai_box.toggled.connect(self._schedule_ai)
        self.back_button = QPushButton("Take back")
        self.back_button.clicked.connect(self.take_back)

        # Rule options live in the document, so the board's legal moves, F5 and this panel agree.
        self.allow_remove = QCheckBox("Remove action allowed")
        self.both_rule = QComboBox()
        for key in JUDGES:
            self.both_rule.addItem(f"Both Bosses surrounded: {key.replace('_', ' ')}", key)
        # The dove set: the full game, or a reduced game (a stored tablebase answers it exactly).
        self._stored_sets = tablebase.stored_dove_sets()  # file names only: cheap, re-read on popup
        self.dove_set = _PopupAwareCombo(self._reread_stored_sets)
        self.dove_set.setEditable(True)
        self.dove_set.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.dove_set.setAccessibleName("Doves in the game")
        self.dove_set.setToolTip(
            "Doves in the game besides the Bosses: Red/Green letters (A Y M T H), e.g. AT/AY.\n"
            "A reduced game with a stored tablebase is analysed exactly and played perfectly."
        )
        line = self.dove_set.lineEdit()
        if line is not None:
            line.setPlaceholderText("e.g. AT/AY")
            line.editingFinished.connect(self._dove_set_chosen)
        self.dove_set.activated.connect(lambda _i: self._dove_set_chosen())
        self._show_rules()
        for combo in (self.level, self.both_rule):  # long entries must not widen the panel
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(16)
        self.allow_remove.toggled.connect(self._rules_changed)
        self.both_rule.currentIndexChanged.connect(self._rules_changed)

        self.moves = MoveList(ctx)
        self.moves.analyse_requested.connect(lambda: self.start_analysis())

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        game = QGroupBox("Moves")
        game_layout = QVBoxLayout(game)
        game_layout.addWidget(self.moves)
        layout.addWidget(game, 1)
        side = QHBoxLayout()
        side.addWidget(self.side_label, 1)
        side.addWidget(self.switch_side)
        layout.addLayout(side)
        box = QGroupBox("Analysis (Win(n) / Lose(n) in plies)")
        box_layout = QVBoxLayout(box)
        box_layout.addWidget(self.value_label)
        row = QHBoxLayout()
        row.addWidget(self.depth_spin)
        row.addWidget(self.analyse_button)
        row.addWidget(self.stop_button)
        box_layout.addLayout(row)
        box_layout.addWidget(self.auto_analyse)
        background = QHBoxLayout()
        background.addSpacing(20)
        background.addWidget(self.budget)
        background.addStretch(1)
        box_layout.addLayout(background)
        box_layout.addWidget(self.hint)
        line_label = QLabel("Best line (SSN, squares relative to the red Boss):")
        line_label.setWordWrap(True)  # a narrow window wraps it instead of widening the panel
        box_layout.addWidget(line_label)
        box_layout.addWidget(self.line_list, 1)
        box_layout.addWidget(self.play_line_button)
        layout.addWidget(box, 1)
        ai = QGroupBox("Play against the AI")
        ai_layout = QVBoxLayout(ai)
        ai_layout.addWidget(self.level)
        sides = QHBoxLayout()
        sides.addWidget(self.ai_red)
        sides.addWidget(self.ai_green)
        ai_layout.addLayout(sides)
        buttons = QHBoxLayout()
        buttons.addWidget(self.ai_button)
        buttons.addWidget(self.back_button)
        ai_layout.addLayout(buttons)
        layout.addWidget(ai)
        rules = QGroupBox("Rules")
        rules_layout = QVBoxLayout(rules)
        rules_layout.addWidget(self.allow_remove)
        rules_layout.addWidget(self.both_rule)
        dove_row = QHBoxLayout()
        dove_row.addWidget(QLabel("Doves:"))
        dove_row.addWidget(self.dove_set, 1)
        rules_layout.addLayout(dove_row)
        layout.addWidget(rules)

        self.depth_done.connect(self._depth_arrived)
        self._analysis_timer = QTimer(self)
        self._analysis_timer.setSingleShot(True)
        self._analysis_timer.timeout.connect(self._background_analysis)
        self._plies_seen = 0  # actions played when the panel last looked (a move extends the line)
        self._ai_timer = QTimer(self)
        self._ai_timer.setSingleShot(True)
        self._ai_timer.timeout.connect(self._auto_ai)
        ctx.changed.connect(self.refresh)
        self.refresh()

    # ---- state --------------------------------------------------------------------------------
    def rules(self) -> Rules:
        """The document's rule options."""
        return self.entries().rules

    def _rules_changed(self) -> None:
        rules = replace(
            self.rules(),
            allow_remove=self.allow_remove.isChecked(),
            both_surrounded=str(self.both_rule.currentData()),
        )  # a reduced game's dove set (``doves=`` in the file) stays
        if rules == self.rules():
            return
        # one undo step; the document's change signal refreshes this panel and the board
        self.ctx.apply(
            EditResult(entries=self.entries().with_rules(rules), label=f"Rules: {rules.describe()}")
        )
        self.ctx.status(f"Tokyo Doves rules: {self.rules().describe()}")

    def _show_rules(self) -> None:
        """Set the switches from the document's rules without sending them back."""
        rules = self.rules()
        for widget in (self.allow_remove, self.both_rule, self.dove_set):
            widget.blockSignals(True)
        self.allow_remove.setChecked(rules.allow_remove)
        self.both_rule.setCurrentIndex(list(JUDGES).index(rules.both_surrounded))
        self.dove_set.clear()
        self.dove_set.addItem(FULL_GAME, "")
        for text in self._stored_sets:
            self.dove_set.addItem(f"{text}  (tablebase)", text)
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
            self._show_rules()

    def _dove_set_chosen(self) -> None:
        """A dove set picked or typed: the document's rules change in one undo step; a set that
        leaves out a dove on the board, or that does not parse, is refused with the reason."""
        text = self.dove_set.currentText().strip()
        chosen = (
            self.dove_set.currentData()
            if text == self.dove_set.itemText(self.dove_set.currentIndex())
            else None
        )
        # typed text: the letters without spaces (a pasted "(tablebase)" note is not part of it)
        word = str(chosen) if chosen is not None else text.split("(")[0].replace(" ", "")
        try:
            doves = (
                None
                if word in ("", FULL_GAME.split()[0]) or word == FULL_GAME.replace(" ", "")
                else parse_doves(word)
            )
        except InputError as exc:
            self.ctx.status(str(exc))
            self._show_rules()
            return
        rules = replace(self.rules(), doves=doves)
        if rules == self.rules():
            self._show_rules()  # tidy the text (letters in kind order)
            return
        position, _ = self.current()
        outside = [d for d in position.cells() if not rules.hand >> d & 1]
        if outside:
            names = ", ".join(dove_name(d) for d in outside)
            self.ctx.status(
                f"The board holds {names}, outside the game {rules.doves_text()}: remove it in Edit mode first."
            )
            self._show_rules()
            return
        label = f"Doves in the game: {rules.doves_text() or 'all'}"
        self.ctx.apply(EditResult(entries=self.entries().with_rules(rules), label=label))
        self.ctx.status(f"Tokyo Doves rules: {self.rules().describe()}")

    def _is_analysed(self, position: Position) -> bool:
        """The shown analysis is of ``position`` under the document's rules."""
        return position == self.analysed and self.analysed_rules == self.rules()

    def entries(self) -> PlayEntries:
        entries = self.ctx.entries()
        return entries if isinstance(entries, PlayEntries) else PlayEntries()

    def current(self) -> tuple[Position, bool]:
        """The position after the played actions, and whether the game can go on from it."""
        puzzle: Position = self.ctx.puzzle()
        state = replay(puzzle, self.entries().actions, self.rules())
        live = state.error is None and not state.finished and not arrangement_problems(state.position)
        return state.position, live

    def _not_live_reason(self, position: Position) -> str:
        """The board's wording for a position where play cannot go on."""
        text, _ = game_status(self.ctx.puzzle(), self.entries().actions, self.rules())
        return text

    # ---- refresh ----------------------------------------------------------------------------
    def refresh(self) -> None:
        position, live = self.current()
        self._show_rules()
        self.side_label.setText(f"<b>{COLOUR_NAMES[position.to_move].capitalize()}</b> to move")
        self.switch_side.setEnabled(not self.entries().actions)
        self.back_button.setEnabled(bool(self.entries().actions))
        self.ai_button.setEnabled(live)
        if not self._is_analysed(position):
            self.stop_analysis()
            self.result = None
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
        # The AI answers a move that extended the line (as X-ceter-O's computer does); browsing the
        # move list, take-back and undo only show positions: they used to make the AI play there and
        # silently replace the recorded line.
        entries = self.entries()
        grew = len(entries.actions) > self._plies_seen
        self._plies_seen = len(entries.actions)
        if grew and not entries.later:
            self._schedule_ai()
        elif not self._ai_side(position.to_move) or entries.later:
            self._ai_timer.stop()

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
        rules = self.rules()  # passed to the worker: it never reads the document or the plug-in
        self.analysed, self.analysed_rules = position, rules
        self.budgeted = budget is not None
        self.value_label.setText("Analysing…" if budget is None else f"Analysing (≤ {budget:g} s)…")
        max_depth = self.depth_spin.value()

        def work(cancel: Any, progress: Any) -> Analysis | None:
            problems: list[str] = []
            exact = tablebase.lookup(position, rules, problems=problems)  # memory-mapped: no shared state
            if problems:  # a damaged table file: the search answers instead, and the user hears why
                progress({"fraction": 0.0, "text": f"tablebase unusable, searching: {problems[0]}"})
            if exact is not None:
                self.depth_done.emit((generation, exact))
                return exact
            last = None
            for last in analyse(position, max_depth=max_depth, rules=rules, cancel=cancel, budget=budget):
                self.depth_done.emit((generation, last))
                progress({"fraction": last.depth / max_depth, "text": f"depth {last.depth}: {last.value}"})
            return last

        self.analysis_job = self.ctx.run_job(
            "Analysing Tokyo Doves", work, lambda _r: self._finished(generation)
        )

    def stop_analysis(self) -> None:
        job = self.analysis_job
        if job is not None and not getattr(job, "done", True):
            job.cancel()
        self.analysis_job = None

    def _depth_arrived(self, item: tuple[int, Analysis]) -> None:
        generation, result = item
        if generation != self.generation:
            return  # a late result of an older search
        self.result = result
        mover = COLOUR_NAMES[self.analysed.to_move if self.analysed else 0].capitalize()
        if result.source == "tablebase":
            self.value_label.setText(
                f"{mover} to move: <b>{result.value}</b> — exact, from the tablebase "
                f"({result.seconds * 1000:.0f} ms)"
            )
        else:
            self.value_label.setText(
                f"{mover} to move: <b>{result.value}</b> — depth {result.depth}, "
                f"{result.nodes:,} nodes, {result.seconds:.2f} s"
            )
        self.line_list.clear()
        for ply, (text, before) in enumerate(zip(result.ssn, result.positions, strict=True), 1):
            self.line_list.addItem(f"{ply}. {COLOUR_NAMES[before.to_move]} {text}")
        self._update_overlay()

    def _finished(self, generation: int) -> None:
        if generation == self.generation and self.result is not None and self.result.value.kind == "unknown":
            why = "within the time budget" if self.budgeted else "within the depth"
            self.value_label.setText(self.value_label.text() + f" (no forced win {why})")

    def play_line(self) -> None:
        """Append the best line (up to the selected row) to the played actions."""
        position, live = self.current()
        if not live or self.result is None or not self._is_analysed(position) or not self.result.line:
            return
        row = self.line_list.currentRow()
        line = self.result.line[: row + 1] if row >= 0 else self.result.line
        entries = self.entries()
        for action in line:
            entries = entries.then(action)  # keeps the record's later moves while they agree
        self.ctx.apply(EditResult(entries=entries, label=f"Play best line ({len(line)} plies)"))

    # ---- side to move -------------------------------------------------------------------------
    def toggle_side(self) -> None:
        puzzle: Position = self.ctx.puzzle()
        if self.entries().actions:
            return
        self.ctx.apply(
            EditResult(
                puzzle=puzzle.with_to_move(1 - puzzle.to_move),
                entries=self.entries().restart(),
                label="Switch side to move",
            )
        )

    # ---- playing ------------------------------------------------------------------------------
    def ai_move(self) -> None:
        position, live = self.current()
        if not live or (self.ai_job is not None and not getattr(self.ai_job, "done", True)):
            return
        puzzle, entries = self.ctx.puzzle(), self.entries()
        level = int(self.level.currentData())
        rules = self.rules()

        def work(cancel: Any, progress: Any) -> Action | None:
            progress({"text": f"AI level {level} is thinking…"})
            return choose_action(position, level, rules=rules, cancel=cancel)

        def done(action: Action | None) -> None:
            self.ai_job = None
            if action is None or self.ctx.puzzle() != puzzle or self.entries() != entries:
                return  # the game moved on while the AI was thinking
            self.play_action(action, label=f"AI plays {to_ssn(position, action)}")

        self.ai_job = self.ctx.run_job("AI move", work, done)

    def play_action(self, action: Action, label: str = "Play") -> None:
        position, live = self.current()
        if not live:
            return
        play(position, action, self.rules())  # raises if illegal: a programming error, never user input
        self.ctx.apply(EditResult(entries=self.entries().then(action), label=label))

    def take_back(self) -> None:
        """One move back (the move list keeps it as a later move; playing another replaces it)."""
        entries = self.entries()
        ply = len(entries.actions)
        if not ply:
            return
        ply -= 1
        # against the AI, go back to a position where the human is to move
        while ply and self._ai_side(
            replay(self.ctx.puzzle(), entries.actions[:ply], self.rules()).position.to_move
        ):
            ply -= 1
        self.ctx.apply(EditResult(entries=entries.goto(ply), label="Take back"))

    def _ai_side(self, colour: int) -> bool:
        return (colour == 0 and self.ai_red.isChecked()) or (colour == 1 and self.ai_green.isChecked())

    def _schedule_ai(self) -> None:
        position, live = self.current()
        if self.entries().later:
            return  # browsing the record: the AI plays only at the end of the line
        if live and self._ai_side(position.to_move) and self.ctx.mode() == "play":
            self._ai_timer.start(AUTO_DELAY_MS)

    def _auto_ai(self) -> None:
        position, live = self.current()
        if live and self._ai_side(position.to_move):
            self.ai_move()


__all__ = ["DovesPanel", "create_panels"]
