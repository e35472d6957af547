"""X-ceter-O side panel: value of the position, hints, perfect-play opponent, best-line viewer, openings.

All game knowledge comes from ``solvers.xcetero.engine`` (the cached retrograde analysis); the first
use computes the table in a background job so the GUI never waits on it. The move list, the
computer's scheduling, take-back and "play line" are the shared ``widgets.game_panel.GamePanel``;
this file keeps the best-line preview, the hints, the opening table and the rule switches.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from solvers.common.protocol import EditResult
from solvers.xcetero import engine, retro
from solvers.xcetero.drawing import status_text
from solvers.xcetero.engine import square_name
from solvers.xcetero.plugin import Game, pv_text, replay, verdict
from solvers.xcetero.rules import Position, Rules
from widgets.game_panel import GamePanel

AUTO_DELAY_MS = 250  # a short pause so the player sees their own move before the reply


def create_panels(ctx: Any) -> list[tuple[str, QWidget]]:
    return [(PANEL_TITLE, XceteroPanel(ctx))]


PANEL_TITLE = "Game and analysis"


class XceteroPanel(GamePanel):
    table_finished = Signal(bool)  # rule variant; emitted from the worker thread
    auto_delay_ms = AUTO_DELAY_MS
    opponent_button_text = "Computer move"
    opponent_name = "the computer"

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.ready: set[bool] = set()  # rule variants (may_return) whose table is computed
        self.pending: set[bool] = set()  # ... and those being computed
        self.answer_when_ready = False  # F5 came while the table was being computed
        # The ply at which the player moved while the table was being computed: the computer's
        # reply is due once it is there (before, that move's "the line grew" was used up and lost).
        self.reply_due: int | None = None
        self.line: list[int] = []  # best line from the current position
        self.preview_step: int | None = None

        self.value_label = QLabel("Analysing…")
        self.value_label.setWordWrap(True)
        self.value_label.setAccessibleName("Position value")
        self.hints = QCheckBox("Show the value of every move")
        self.hints.toggled.connect(self._update_overlay)

        self.auto_o, self.auto_x = self.side_boxes["O"], self.side_boxes["X"]
        self.move_button = self.opponent_button  # the old name, kept for callers
        self.move_button.setToolTip("Play a best move for the side to move (fastest win, slowest loss)")

        self.may_return = QCheckBox("Variant: piece may return to its square")
        self.repetition = QCheckBox("House rule: draw on threefold repetition")
        self.may_return.toggled.connect(self._rules_changed)
        self.repetition.toggled.connect(self._rules_changed)

        self.pv_list = self.line_list  # the old name, kept for callers and tests
        self.pv_list.currentRowChanged.connect(self._preview_row)
        self.play_line_button.setText("Play line to here")
        self.clear_preview = QPushButton("Back to the board")
        self.clear_preview.clicked.connect(lambda: self.pv_list.setCurrentRow(-1))

        self.openings = QTableWidget(0, 3)
        self.openings.setHorizontalHeaderLabels(["Square", "O's first move", "X's best replies"])
        self.openings.verticalHeader().setVisible(False)
        self.openings.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.openings.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.moves_box(), 2)
        layout.addWidget(self.value_label)
        layout.addWidget(self.hints)
        layout.addWidget(self.opponent_box("Opponent"))
        rules = QGroupBox("Rules")
        rules_layout = QVBoxLayout(rules)
        rules_layout.addWidget(self.may_return)
        rules_layout.addWidget(self.repetition)
        layout.addWidget(rules)
        layout.addWidget(QLabel("Best line (select a move to preview it):"))
        layout.addWidget(self.pv_list, 2)
        pv_buttons = QHBoxLayout()
        pv_buttons.addWidget(self.clear_preview)
        pv_buttons.addWidget(self.play_line_button)
        layout.addLayout(pv_buttons)
        layout.addWidget(QLabel("Opening values (plies from the empty board):"))
        layout.addWidget(self.openings, 1)

        self.table_finished.connect(self._table_finished)
        ctx.changed.connect(self.refresh)
        self.refresh()

    # ---- the game panel's hooks -----------------------------------------------------------------
    def record(self) -> Game:
        return self.game()

    def opponent_sides(self) -> Sequence[tuple[Hashable, str]]:
        return (("O", "Computer plays O"), ("X", "Computer plays X"))

    def side_to_move(self, position: Any) -> Hashable:
        return str(position.mover())

    def side_after(self, ply: int) -> Hashable:
        return replay(self.start(), self.moves()[:ply])[0].mover()

    def opponent_move(self) -> bool:
        return self.computer_move()

    def opponent_may_play(self, position: Any) -> bool:
        if self.auto_o.isChecked() and self.auto_x.isChecked():
            history = replay(self.start(), self.moves())[2]
            if [p.key() for p in history].count(position.key()) > 1:
                self.ctx.status("The computer repeated a position: the game is a draw with perfect play")
                return False
        return True

    def best_line(self) -> list[Any]:
        return list(self.line)

    # ---- state ----------------------------------------------------------------------------------
    def start(self) -> Position:
        return self.ctx.puzzle()

    def game(self) -> Game:
        entries = self.ctx.entries()
        return entries if isinstance(entries, Game) else Game(tuple(entries or ()))

    def moves(self) -> tuple[int, ...]:
        return self.game().moves

    def current(self) -> tuple[Position, bool]:
        """The position after the played moves, and whether play may go on from it."""
        end, bad, history = replay(self.start(), self.moves())
        reps = end.rules.repetition
        drawn = bool(reps) and [p.key() for p in history].count(end.key()) >= reps
        return end, not bad and not drawn and end.winner() is None and not engine.problems(end)

    def _table_ready(self) -> bool:
        variant = self.start().rules.may_return
        if variant in self.ready:
            return True
        self.value_label.setText("Analysing every position…")
        if variant in self.pending:
            return False
        self.pending.add(variant)

        def work(cancel: Any, progress: Any) -> None:
            try:
                retro.analyse(variant, cancel)
            finally:
                # a signal, not on_done: a cancelled job (Esc, opening a file) never calls on_done
                self.table_finished.emit(variant)

        self.ctx.run_job("Analysing X-ceter-O", work, lambda _result: None)
        return False

    def _table_finished(self, variant: bool) -> None:
        self.pending.discard(variant)
        if retro.is_cached(variant):
            self.ready.add(variant)
        self.refresh()  # starts it again if it was cancelled: the panel needs the table
        if self.answer_when_ready and self.start().rules.may_return in self.ready:
            self.analyse_shown()  # the value F5 asked for, now that there is one

    # ---- refresh --------------------------------------------------------------------------------
    def refresh(self) -> None:
        position = self.start()
        for box, on in (
            (self.may_return, position.rules.may_return),
            (self.repetition, position.rules.repetition),
        ):
            box.blockSignals(True)
            box.setChecked(bool(on))
            box.blockSignals(False)
        self.share_sides()
        grew = self.line_grew()
        if not self._table_ready():
            if grew:
                self.reply_due = self.record().ply
            return
        if self.reply_due is not None:  # the move made while the table was computed
            grew = grew or self.reply_due == self.record().ply
            self.reply_due = None
        end, live = self.current()
        problems = engine.problems(end)
        if problems:
            self.value_label.setText(f"Not a game position: {problems[0].message}")
        elif not live:  # the board's wording: "O wins: three in a row", "draw by 3-fold repetition"
            text = status_text(end, replay(self.start(), self.moves())[2], False)
            self.value_label.setText(f"{text[:1].upper()}{text[1:]}.")
        else:
            value = engine.value(end)
            phase = "place" if end.in_placement() else "jump with"
            self.value_label.setText(
                f"<b>{end.mover()} to move</b> ({phase} piece {end.due}): <b>{value.words()}</b>"
                " with perfect play."
            )
        self.line = engine.principal_variation(end) if live else []
        self._fill_line(end)
        self._fill_openings(position.rules)
        self._update_overlay()
        self.update_opponent(grew)  # the computer answers only a move that extended the line

    def _fill_line(self, end: Position) -> None:
        self.preview_step = None
        self.pv_list.blockSignals(True)
        self.pv_list.clear()
        position = end
        for ply, square in enumerate(self.line, start=1):
            after = position.play(square)
            label = f"{ply}. {pv_text(position, [square])}"
            if after.winner():
                label += f"  ({after.winner()} wins)"
            self.pv_list.addItem(QListWidgetItem(label))
            position = after
        if self.line and engine.value(end).outcome == retro.DRAW:
            self.pv_list.addItem(QListWidgetItem("… the position repeats: a draw"))
        self.pv_list.setCurrentRow(-1)
        self.pv_list.blockSignals(False)

    def _fill_openings(self, rules: Rules) -> None:
        rows = engine.opening_table(Position(rules=rules))
        self.openings.setRowCount(len(rows))
        for r, row in enumerate(rows):
            replies = ", ".join(square_name(int(s)) for s in row["replies"])  # type: ignore[union-attr,attr-defined]
            cells = [square_name(int(row["square"])), str(row["value"]), f"{replies} ({row['reply_value']})"]  # type: ignore[call-overload]
            for c, text in enumerate(cells):
                self.openings.setItem(r, c, QTableWidgetItem(text))

    def _update_overlay(self) -> None:
        overlay: dict[str, Any] = {
            "hints": self.hints.isChecked() and self.start().rules.may_return in self.ready
        }
        step = self.preview_step
        self.clear_preview.setEnabled(step is not None)  # enabled with the game already shown, it did nothing
        if step is not None and self.line:
            overlay["preview"] = self.line[:step]
            if step < len(self.line):
                overlay["next"] = self.line[step]
            overlay["caption"] = f"best line: after {step} of {len(self.line)} moves"
            self.ctx.set_overlay(
                overlay,
                describe=f"Previewing the best line after {step} of {len(self.line)} moves "
                "(Back to the board shows the game)",
            )
            return
        self.ctx.set_overlay(overlay)

    def solve_requested(self, limit: int | None = 2) -> None:
        """Solve / Find All (F5, Shift+F5): the value and best moves of the shown position."""
        self.analyse_shown()

    def analyse_shown(self) -> None:
        """The value is always shown for the position on the board; say it in the status bar too."""
        self.hints.setChecked(True)
        end, live = self.current()
        ready = self._table_ready()
        self.answer_when_ready = live and not ready
        if live and ready:
            self.ctx.status(verdict(end))  # the words `workbench solve` prints
        else:  # why there is no value (a won game, a broken set-up, the table still building)
            self.ctx.status(self.value_label.text().replace("<b>", "").replace("</b>", ""))

    # ---- best-line viewer -----------------------------------------------------------------------
    def _preview_row(self, row: int) -> None:
        self.preview_step = None if row < 0 else min(row + 1, len(self.line))
        self._update_overlay()

    def play_preview(self) -> None:
        """Play the best line up to the previewed move (the shared "play line")."""
        self.play_line()

    # ---- opponent -------------------------------------------------------------------------------
    def computer_move(self) -> bool:
        end, live = self.current()
        if not live:
            return False
        if not self._table_ready():
            self.reply_due = self.record().ply  # asked for, or due, while the table is computed
            return False
        best = engine.best_moves(end)
        if not best:
            return False
        label = f"Computer plays {engine.describe_move(end, best[0])}"
        self.apply_opponent_move(EditResult(entries=self.game().then(best[0]), label=label))
        return True

    # ---- rules ----------------------------------------------------------------------------------
    def _rules_changed(self) -> None:
        position = self.start()
        rules = Rules(
            may_return=self.may_return.isChecked(), repetition=3 if self.repetition.isChecked() else 0
        )
        if rules != position.rules:
            self.ctx.apply(EditResult(puzzle=replace(position, rules=rules), label="Change rules"))
