"""Toichika side panel: uniqueness badge, step-by-step explanation with replay, hint and Apply hint,
URL copy/paste, and a generator of unique puzzles at a chosen grade (a cancellable job; the result
opens untitled).

The badge and the explanation run as background jobs (``ctx.run_job``) restarted whenever the
puzzle changes. The panel lays out three parts that live in their own modules: the step replay
(``toichika_replay``), Hint and Apply hint (``toichika_hint``) and the generator
(``toichika_generator``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from solvers.common.errors import InputError
from solvers.common.process_jobs import remote
from solvers.toichika.explain import Explanation, explain
from solvers.toichika.sat_solver import differing_cells, iter_solutions
from solvers.toichika.url_codec import encode_url
from widgets.panel_api import EMPTY_CLIPBOARD
from widgets.panels.toichika_generator import GeneratorBox
from widgets.panels.toichika_hint import HintControl
from widgets.panels.toichika_replay import StepReplay
from widgets.text_well import TextWell

RESTART_DELAY_MS = 250  # let a drag finish before restarting the background jobs
# The room for a step's or hint's text: its technique's name and four lines hold all but 1 in 1,000
# corpus steps at 1024x768 (a longer one scrolls inside).
DETAIL_LINES = 5


def create_panels(ctx: Any) -> list[tuple[str, QWidget]]:
    return [("Steps", ToichikaPanel(ctx))]


def _stopped_quietly(job: Any) -> bool:
    """Cancelled, but not by the user's Esc (which must not start the work again)."""
    token = getattr(job, "cancel_token", None)
    return bool(token is not None and token.cancelled and not getattr(job, "cancelled_by_user", False))


class ToichikaPanel(QWidget):
    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.badge_state = ""
        self.differing: list[tuple[int, int]] = []
        self._jobs: dict[str, Any] = {}
        self._puzzle: Any = None

        self.badge = QLabel("Uniqueness: …")
        self.badge.setAccessibleName("Uniqueness")
        self.grade = QLabel("")
        self.grade.setWordWrap(True)
        # The shown step's or hint's text, rich text (step texts are escaped: "v/<" stays), in a
        # box of fixed height: a step's text pushed the buttons below down as the user stepped.
        self.detail_well = TextWell(DETAIL_LINES)
        self.detail_well.setAccessibleName("Step text")
        self.detail = self.detail_well.label
        self.replay = StepReplay(ctx, self.detail, self._solution_shown, self)
        self.hints = HintControl(ctx, self.detail, self.replay, self._job_failed, self)
        self.copy_button = QPushButton("Copy URL")
        self.copy_button.clicked.connect(self.copy_url)
        self.paste_button = QPushButton("Paste URL")
        # clicked(bool) would hand checked=False to paste_url's text argument
        self.paste_button.clicked.connect(lambda: self.paste_url())

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.badge)
        layout.addWidget(self.grade)
        layout.addLayout(self.replay.nav_row())
        layout.addWidget(self.replay.steps, 1)
        self.replay.steps.dock(self.detail_well)  # inside the list's frame: empty, its room is the rows'
        layout.addWidget(self.replay.clear_button)
        row = QHBoxLayout()
        row.addWidget(self.hints.hint_button)
        row.addWidget(self.hints.apply_button)
        layout.addLayout(row)
        layout.addWidget(self.replay.export_button)
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

    @property
    def explanation(self) -> Explanation | None:
        return self.replay.explanation

    # ---- background jobs --------------------------------------------------------------------------
    def _changed(self) -> None:
        self.hints.board_changed()
        # Opening a file stops the document's jobs quietly; the file may hold the very puzzle
        # shown (the first sample at start-up), and its badge must not stay at "…".
        stopped = any(_stopped_quietly(job) for job in self._jobs.values())
        if self.ctx.puzzle() != self._puzzle or stopped:
            self._cancel_all()
            # The steps explain the old puzzle: they go at once, not when the jobs restart.
            self.replay.reset()
            self.grade.setText("Explaining…")
            self.badge.setText("Uniqueness: …")
            self._timer.start()
        self.replay.update_buttons()
        self.hints.update_buttons()

    def _cancel_all(self) -> None:
        for job in self._jobs.values():
            if not getattr(job, "done", True):
                job.cancel()
        self._jobs.clear()
        self.hints.cancel()

    def restart_jobs(self) -> None:
        puzzle = self.ctx.puzzle()
        self._puzzle = puzzle
        self.replay.reset()
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
        if self.replay.replaying():
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
        self.replay.show_explanation(ex)
        status = "solved" if ex.solved else (ex.error or "stopped: several solutions remain")
        self.grade.setText(
            f"{len(ex.steps)} steps, {ex.trials_text()} ({status}, {ex.seconds:.2f} s). "
            f"Grade: {ex.grade_text()}."
        )

    # ---- menu -------------------------------------------------------------------------------------
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
            hint_action.triggered.connect(lambda: self.hints.request())
            apply_action = QAction("Appl&y Hint", self)
            apply_action.setShortcut("Ctrl+Shift+H")
            apply_action.setStatusTip("Write the hint into the board as one undo step (play mode)")
            apply_action.triggered.connect(self.hints.apply)
            self._menu_actions = [action, hint_action, apply_action]
        return self._menu_actions

    # ---- URL --------------------------------------------------------------------------------------
    def copy_url(self) -> None:
        url = encode_url(self.ctx.puzzle())
        QGuiApplication.clipboard().setText(url)
        self.ctx.status(f"Copied {url}")

    def paste_url(self, text: str | None = None) -> None:
        text = QGuiApplication.clipboard().text() if text is None else text
        if not text.strip():  # not 'empty board: no rows found'
            self.ctx.status(EMPTY_CLIPBOARD)
            return
        try:
            puzzle = self.ctx.plugin.parse(text)
        except InputError as exc:
            self.ctx.status(f"Cannot paste: {exc}")
            return
        if self.ctx.may_replace():
            self.ctx.replace_untitled(puzzle, "Paste URL")
            self.ctx.status(f"Pasted: {self.ctx.plugin.describe(puzzle)}")  # not the last failure's word
