"""Toichika side panel: uniqueness badge, step-by-step explanation with replay, hint and Apply hint,
URL copy/paste, and a generator of unique puzzles at a chosen grade (a cancellable job; the result
opens untitled).

Hint reads the player's arrows, dots and pencil marks; Apply hint writes the shown hint into the
entries (arrows, dots, marks) as one undo step, or, with none shown, works one out and applies it,
so Hint + Apply always moves the player on (issue 29.3).

The badge and the explanation run as background jobs (``ctx.run_job``) restarted whenever the
puzzle changes; stepping through the list draws the candidate state after that step on the board
(cells the step used in the highlight colour, its conclusions outlined) through the overlay.
"""

from __future__ import annotations

import functools
import html
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from solvers.common.errors import InputError
from solvers.common.process_jobs import remote
from solvers.common.protocol import EditResult
from solvers.toichika.explain import Explanation, apply_hint, explain, hint, step_overlay
from solvers.toichika.sat_solver import differing_cells, iter_solutions
from solvers.toichika.techniques import BY_ID
from solvers.toichika.url_codec import encode_url
from widgets.fonts import optional_text
from widgets.panels.toichika_generator import GeneratorBox

RESTART_DELAY_MS = 250  # let a drag finish before restarting the background jobs


def create_panels(ctx: Any) -> list[tuple[str, QWidget]]:
    return [("Steps", ToichikaPanel(ctx))]


class ToichikaPanel(QWidget):
    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.explanation: Explanation | None = None
        self.badge_state = ""
        self.differing: list[tuple[int, int]] = []
        self._jobs: dict[str, Any] = {}
        self._puzzle: Any = None
        self._hint_asked: tuple[Any, Any] | None = None  # the board a running hint looks at
        self._hint_for: tuple[Any, Any] | None = None  # the board the shown hint describes
        self._hint_result: dict[str, Any] | None = None  # the shown hint, while it can be applied
        self._apply_when_done = False  # Apply hint pressed with no hint shown: apply the next one

        self.badge = QLabel("Uniqueness: …")
        self.badge.setAccessibleName("Uniqueness")
        self.grade = QLabel("")
        self.grade.setWordWrap(True)
        self.steps = QListWidget()
        self.steps.setAccessibleName("Explanation steps")
        self.steps.setWordWrap(True)  # long step texts wrap instead of scrolling sideways
        self.steps.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Rows are measured for the width at layout time: the vertical scroll bar arriving later
        # narrowed the list and left some rows cut off until a navigation re-laid them out. A
        # constant width and a re-layout on every resize keep every row whole.
        self.steps.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.steps.setResizeMode(QListView.ResizeMode.Adjust)
        self.steps.currentRowChanged.connect(self._show_row)
        self.detail = QLabel("")
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.RichText)  # step texts are escaped: "v/<" stays

        # Short labels so the row fits the side panel at 1024 px wide; tooltips say what they do.
        self.first_button = _glyph_button("|<")
        self.back_button = _glyph_button("<")
        self.forward_button = _glyph_button(">")
        self.last_button = _glyph_button(">|")
        for button, tip in (
            (self.first_button, "First step"),
            (self.back_button, "Previous step"),
            (self.forward_button, "Next step"),
            (self.last_button, "Last step"),
        ):
            button.setToolTip(tip)
            button.setMinimumWidth(40)
        self.first_button.clicked.connect(lambda: self.go(0))
        self.back_button.clicked.connect(lambda: self.go(self.steps.currentRow() - 1))
        self.forward_button.clicked.connect(lambda: self.go(self.steps.currentRow() + 1))
        self.last_button.clicked.connect(lambda: self.go(self.steps.count() - 1))
        self.clear_button = QPushButton("Back to the board")
        self.clear_button.clicked.connect(self.clear_replay)
        self.export_button = QPushButton("Export step…")
        self.export_button.setToolTip("Save the board as shown at this step (PNG, SVG or PDF)")
        self.export_button.clicked.connect(lambda: self.export_step())

        self.hint_button = QPushButton("Hint")
        self.hint_button.setToolTip(
            "The next deduction from your entries and pencil marks (play mode, Ctrl+H)"
        )
        self.hint_button.clicked.connect(lambda: self.request_hint())
        self.apply_button = QPushButton("Apply hint")
        self.apply_button.setToolTip(
            "Write the hint into the board: arrows, dots and pencil marks, one undo step (Ctrl+Shift+H)"
        )
        self.apply_button.clicked.connect(self.apply_hint)
        self.copy_button = QPushButton("Copy URL")
        self.copy_button.clicked.connect(self.copy_url)
        self.paste_button = QPushButton("Paste URL")
        # clicked(bool) would hand checked=False to paste_url's text argument
        self.paste_button.clicked.connect(lambda: self.paste_url())

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.badge)
        layout.addWidget(self.grade)
        nav = QHBoxLayout()
        for button in (self.first_button, self.back_button, self.forward_button, self.last_button):
            nav.addWidget(button)
        layout.addLayout(nav)
        layout.addWidget(self.steps, 1)
        layout.addWidget(self.detail)
        layout.addWidget(self.clear_button)
        row = QHBoxLayout()
        row.addWidget(self.hint_button)
        row.addWidget(self.apply_button)
        layout.addLayout(row)
        layout.addWidget(self.export_button)
        urls = QHBoxLayout()
        urls.addWidget(self.copy_button)
        urls.addWidget(self.paste_button)
        layout.addLayout(urls)
        self.generator = GeneratorBox(self.ctx, self._job_failed)
        layout.addWidget(self.generator)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RESTART_DELAY_MS)
        self._timer.timeout.connect(self.restart_jobs)
        ctx.changed.connect(self._changed)
        ctx.solution_shown.connect(self._solution_shown)
        self.restart_jobs()

    # ---- background jobs --------------------------------------------------------------------------
    def _changed(self) -> None:
        if self._hint_for is not None and self._hint_for != (self.ctx.puzzle(), self.ctx.entries()):
            self._hint_for = None  # the hint described the board before this change
            self._hint_result = None
            self.detail.setText("")
            if self.steps.currentRow() < 0:
                self.ctx.set_overlay(None)
        if self.ctx.puzzle() != self._puzzle:
            self._cancel_all()
            # The steps explain the old puzzle: they go at once, not when the jobs restart.
            self.explanation = None
            self.steps.clear()
            self.grade.setText("Explaining…")
            self.badge.setText("Uniqueness: …")
            self._timer.start()
        self._update_buttons()

    def _cancel_all(self) -> None:
        for job in self._jobs.values():
            if not getattr(job, "done", True):
                job.cancel()
        self._jobs.clear()

    def restart_jobs(self) -> None:
        puzzle = self.ctx.puzzle()
        self._puzzle = puzzle
        self.explanation = None
        self.steps.clear()
        self.ctx.set_overlay(None)
        self.grade.setText("Explaining…")

        # Worker processes: python-sat holds the GIL while it loads or frees a big model.
        self._jobs["badge"] = self.ctx.run_job(
            "Uniqueness",
            remote(iter_solutions, puzzle, limit=2, listed=True),
            lambda sols: self._badge_done(puzzle, sols),
            self._job_failed,
        )
        self._jobs["explain"] = self.ctx.run_job(
            "Explanation", remote(explain, puzzle), lambda ex: self._explained(puzzle, ex), self._job_failed
        )

    def _job_failed(self, message: str) -> None:
        self.ctx.status(f"Toichika: {message}")

    def _badge_done(self, puzzle: Any, solutions: list[tuple[int, ...]]) -> None:
        if puzzle != self.ctx.puzzle():
            return
        self.differing = []
        if not solutions:
            self.badge_state = "none"
            self.badge.setText("Uniqueness: no solution")
        elif len(solutions) == 1:
            self.badge_state = "unique"
            self.badge.setText("Uniqueness: unique ✓")
        else:
            self.badge_state = "several"
            self.differing = differing_cells(puzzle, solutions[0], solutions[1])
            self.badge.setText(
                f"Uniqueness: several solutions; two differ in {len(self.differing)} cells (outlined)"
            )
            self._solution_shown()

    def _solution_shown(self) -> None:
        """Outline where the shown solution differs from the first (Find All browsing).

        Solution k > 1 carries its cells in ``extras["differs_from_first"]``; with the first
        solution or none shown, the cells where the first two differ are outlined."""
        if self.steps.currentRow() >= 0:
            return  # a replayed step owns the overlay
        shown = self.ctx.shown_solution()
        extras = getattr(shown, "extras", None) or {}
        if "differs_from_first" in extras:
            cells = [tuple(rc) for rc in extras["differs_from_first"]]
        else:
            cells = self.differing
        self.ctx.set_overlay({"changed": cells} if cells else None)

    def _explained(self, puzzle: Any, ex: Explanation) -> None:
        if puzzle != self.ctx.puzzle():
            return
        self.explanation = ex
        self.steps.blockSignals(True)
        self.steps.clear()
        self.steps.addItem(QListWidgetItem("0. Start: givens only"))
        for k, step in enumerate(ex.steps, start=1):
            tech = BY_ID[step.rule]
            ja = _japanese(tech.name_ja)
            item = QListWidgetItem(f"{k}. {tech.name}{f' ({ja})' if ja else ''}: {step.text}")
            item.setToolTip(step.text)
            self.steps.addItem(item)
        self.steps.blockSignals(False)
        status = "solved" if ex.solved else (ex.error or "stopped: several solutions remain")
        self.grade.setText(
            f"{len(ex.steps)} steps, {ex.trials} trials, grade: {ex.grade_text()} ({status}, {ex.seconds:.2f} s)"
        )
        self._update_buttons()

    # ---- replay -----------------------------------------------------------------------------------
    def go(self, row: int) -> None:
        if self.steps.count():
            self.steps.setCurrentRow(max(0, min(row, self.steps.count() - 1)))

    def _show_row(self, row: int) -> None:
        ex = self.explanation
        if ex is None or row < 0:
            self.detail.setText("")
            return
        overlay = step_overlay(ex, row)
        if row > 0:
            step = ex.steps[row - 1]
            tech = BY_ID[step.rule]
            ja = _japanese(tech.name_ja)
            self.detail.setText(
                f"<b>{_esc(tech.name)}</b>{f' · {_esc(ja)}' if ja else ''}<br>{_esc(step.text)}"
            )
        else:
            self.detail.setText("The candidates before any deduction.")
        what = f"after step {row} of {len(ex.steps)}" if row else "before any step"
        self.ctx.set_overlay(
            overlay, describe=f"Replaying the explanation: the candidates {what} (Back to the board returns)"
        )
        self._update_buttons()

    def clear_replay(self) -> None:
        self.steps.setCurrentRow(-1)
        self.detail.setText("")
        self.ctx.set_overlay(None)
        self._solution_shown()
        self._update_buttons()

    def export_step(self, path: str | None = None) -> Path | None:
        """Write the board as shown at the current step (for teaching material)."""
        ex, row = self.explanation, self.steps.currentRow()
        if ex is None or row < 0:
            self.ctx.status("Pick a step first")
            return None
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, "Export step", f"toichika-step-{row}.png", "Images (*.png *.svg *.pdf)"
            )
            if not path:
                return None
        try:
            target = self.ctx.export(self.ctx.plugin.draw(ex.puzzle, overlay=step_overlay(ex, row)), path)
        except InputError as exc:
            self.ctx.status(f"Export failed: {exc}")
            return None
        self.ctx.status(f"Exported step {row} to {target}")
        return target

    def _update_buttons(self) -> None:
        row, count = self.steps.currentRow(), self.steps.count()
        self.first_button.setEnabled(count > 0 and row != 0)
        self.back_button.setEnabled(row > 0)
        self.forward_button.setEnabled(count > 0 and row < count - 1)
        self.last_button.setEnabled(count > 0 and row != count - 1)
        self.hint_button.setEnabled(self.ctx.mode() == "play")
        self.apply_button.setEnabled(self.ctx.mode() == "play")
        self.export_button.setEnabled(self.explanation is not None and row >= 0)

    # ---- hint -------------------------------------------------------------------------------------
    def request_hint(self, apply: bool = False) -> None:
        if self.ctx.mode() != "play":
            self.ctx.status("Hints are for play mode (Ctrl+P)")
            return
        puzzle, entries = self.ctx.puzzle(), self.ctx.entries()
        self._hint_asked = (puzzle, entries)
        self._apply_when_done = apply
        self._jobs["hint"] = self.ctx.run_job(
            "Hint", remote(hint, puzzle, entries), self._hint_done, self._job_failed
        )

    def _hint_done(self, result: dict[str, Any]) -> None:
        if self._hint_asked != (self.ctx.puzzle(), self.ctx.entries()):
            self.ctx.status("The board changed while the hint was worked out: press Hint again")
            return
        self.clear_replay()
        self._hint_for = self._hint_asked
        self._hint_result = result if result["kind"] in ("step", "wrong-entry") else None
        cells = [tuple(rc) for rc in result.get("cells", [])]
        if result["kind"] == "wrong-entry":
            self.ctx.set_overlay({"errors": cells})
            self.detail.setText(f"<b>Check this entry</b><br>{_esc(result['text'])}")
        elif result["kind"] == "step":
            changed = [tuple(c["cell"]) for c in result["conclusions"]]
            self.ctx.set_overlay({"used": cells, "changed": changed})
            self.detail.setText(
                f"<b>Hint: {_esc(result['rule'])}</b> · {_esc(result['rule_ja'])}<br>{_esc(result['text'])}"
            )
        else:
            self.detail.setText(_esc(result["text"]))
        self.ctx.status(result["text"])
        if self._apply_when_done:
            self._apply_when_done = False
            if self._hint_result is not None:
                self.apply_hint()

    def apply_hint(self) -> None:
        """Write the shown hint into the entries as one undo step; with no hint shown for this
        board, work one out first and apply it (a "solve one step")."""
        if self.ctx.mode() != "play":
            self.ctx.status("Hints are for play mode (Ctrl+P)")
            return
        puzzle, entries = self.ctx.puzzle(), self.ctx.entries()
        result = self._hint_result
        if result is None or self._hint_for != (puzzle, entries):
            # Nothing applicable is shown for this board: the next hint is applied when it comes
            # (a solved or stuck board only shows its text).
            self.request_hint(apply=True)
            return
        new = apply_hint(puzzle, entries, result)
        if new is None:
            self.ctx.status("This hint has nothing to write into the board")
            return
        self._hint_result = None
        self._hint_for = (puzzle, new)  # the shown text now says what was just written
        if result["kind"] == "wrong-entry":
            label, head = "Apply hint: erase a wrong entry", "Corrected"
        else:
            label, head = f"Apply hint: {result['rule']}", f"Applied: {_esc(result['rule'])}"
        self.detail.setText(f"<b>{head}</b><br>{_esc(result['text'])}")
        self.ctx.apply(EditResult(entries=new, label=label))
        self.ctx.status(f"{label} (Ctrl+Z takes it back)")

    # ---- generator --------------------------------------------------------------------------------
    def menu_actions(self) -> list[QAction]:
        """Actions the shell puts into its Puzzle menu while this kind is shown."""
        if not hasattr(self, "_menu_actions"):
            action = QAction("&Generate…", self)
            action.setShortcut("Ctrl+Shift+G")
            action.setStatusTip("A random puzzle with a unique solution at a chosen grade")
            action.triggered.connect(self.generator.open_generate_dialog)
            hint_action = QAction("&Hint", self)
            hint_action.setShortcut("Ctrl+H")
            hint_action.setStatusTip("The next deduction from your entries and pencil marks (play mode)")
            hint_action.triggered.connect(lambda: self.request_hint())
            apply_action = QAction("Appl&y Hint", self)
            apply_action.setShortcut("Ctrl+Shift+H")
            apply_action.setStatusTip("Write the hint into the board as one undo step (play mode)")
            apply_action.triggered.connect(self.apply_hint)
            self._menu_actions = [action, hint_action, apply_action]
        return self._menu_actions

    # ---- URL --------------------------------------------------------------------------------------
    def copy_url(self) -> None:
        url = encode_url(self.ctx.puzzle())
        QGuiApplication.clipboard().setText(url)
        self.ctx.status(f"Copied {url}")

    def paste_url(self, text: str | None = None) -> None:
        text = QGuiApplication.clipboard().text() if text is None else text
        try:
            puzzle = self.ctx.plugin.parse(text)
        except InputError as exc:
            self.ctx.status(f"Cannot paste: {exc}")
            return
        if self.ctx.may_replace():
            self.ctx.replace_untitled(puzzle, "Paste URL")


def _esc(text: str) -> str:
    """Step texts hold "<" and ">" arrows: the rich-text label would swallow them as tags."""
    return html.escape(str(text), quote=False)


def _glyph_button(text: str) -> QToolButton:
    """A compact button: a push button's style minimum (80 px) made four of them overflow at 1024x768."""
    button = QToolButton()
    button.setText(text)
    return button


@functools.cache
def _japanese(name: str) -> str:
    """The technique's Japanese name where a font can draw it, else "" (never empty boxes)."""
    return optional_text(name)
