"""Toichika's Hint and Apply hint (play mode, issue 29.3).

Hint reads the player's arrows, dots and pencil marks; Apply hint writes the shown hint into the
entries (arrows, dots, marks) as one undo step, or, with none shown, works one out and applies it,
so Hint + Apply always moves the player on. A hint describes one board: it goes as soon as the
board changes, and one that arrives after a change is neither shown nor applied."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from solvers.common.process_jobs import remote
from solvers.common.protocol import EditResult
from solvers.toichika.explain import apply_hint, hint
from widgets.panels.toichika_replay import StepReplay, esc, japanese_suffix


class HintControl(QObject):
    """Owns the Hint and Apply hint buttons and the hint's state; the panel lays the buttons out."""

    def __init__(
        self,
        ctx: Any,
        detail: QLabel,
        replay: StepReplay,
        on_failed: Callable[[str], None],
        owner: QWidget,
    ) -> None:
        super().__init__(owner)
        self.ctx = ctx
        self.detail = detail
        self.replay = replay
        self.on_failed = on_failed
        self.job: Any = None
        self.asked: tuple[Any, Any] | None = None  # the board a running hint looks at
        self.shown_for: tuple[Any, Any] | None = None  # the board the shown hint describes
        self.result: dict[str, Any] | None = None  # the shown hint, while it can be applied
        self.apply_when_done = False  # Apply hint pressed with no hint shown: apply the next one

        self.hint_button = QPushButton("Hint")
        self.hint_button.setToolTip(
            "The next deduction from your entries and pencil marks (play mode, Ctrl+H)"
        )
        self.hint_button.clicked.connect(lambda: self.request())
        self.apply_button = QPushButton("Apply hint")
        self.apply_button.setToolTip(
            "Write the hint into the board: arrows, dots and pencil marks, one undo step (Ctrl+Shift+H)"
        )
        self.apply_button.clicked.connect(self.apply)

    def board_changed(self) -> None:
        if self.shown_for is not None and self.shown_for != (self.ctx.puzzle(), self.ctx.entries()):
            self.shown_for = None  # the hint described the board before this change
            self.result = None
            self.detail.setText("")
            if not self.replay.replaying():
                self.ctx.set_overlay(None)

    def update_buttons(self) -> None:
        self.hint_button.setEnabled(self.ctx.mode() == "play")
        self.apply_button.setEnabled(self.ctx.mode() == "play")

    def cancel(self) -> None:
        if self.job is not None and not getattr(self.job, "done", True):
            self.job.cancel()
        self.job = None

    def request(self, apply: bool = False) -> None:
        if self.ctx.mode() != "play":
            self.ctx.status("Hints are for play mode (Ctrl+P)")
            return
        puzzle, entries = self.ctx.puzzle(), self.ctx.entries()
        self.asked = (puzzle, entries)
        self.apply_when_done = apply
        self.job = self.ctx.run_job("Hint", remote(hint, puzzle, entries), self.done, self.on_failed)

    def done(self, result: dict[str, Any]) -> None:
        if self.asked != (self.ctx.puzzle(), self.ctx.entries()):
            self.ctx.status("The board changed while the hint was worked out: press Hint again")
            return
        self.replay.clear()
        self.shown_for = self.asked
        self.result = result if result["kind"] in ("step", "wrong-entry") else None
        cells = [tuple(rc) for rc in result.get("cells", [])]
        if result["kind"] == "wrong-entry":
            self.ctx.set_overlay({"errors": cells})
            self.detail.setText(f"<b>Check this entry</b><br>{esc(result['text'])}")
        elif result["kind"] == "step":
            changed = [tuple(c["cell"]) for c in result["conclusions"]]
            self.ctx.set_overlay({"used": cells, "changed": changed})
            # The Japanese name only where a font draws it (it was empty boxes without a CJK font).
            self.detail.setText(
                f"<b>Hint: {esc(result['rule'])}</b>{japanese_suffix(result['rule_ja'])}<br>{esc(result['text'])}"
            )
        else:
            self.detail.setText(esc(result["text"]))
        self.ctx.status(result["text"])
        self.replay.update_buttons()  # Back to the board now takes the hint away
        if self.apply_when_done:
            self.apply_when_done = False
            if self.result is not None:
                self.apply()

    def apply(self) -> None:
        """Write the shown hint into the entries as one undo step; with no hint shown for this
        board, work one out first and apply it (a "solve one step")."""
        if self.ctx.mode() != "play":
            self.ctx.status("Hints are for play mode (Ctrl+P)")
            return
        puzzle, entries = self.ctx.puzzle(), self.ctx.entries()
        result = self.result
        if result is None or self.shown_for != (puzzle, entries):
            # Nothing applicable is shown for this board: the next hint is applied when it comes
            # (a solved or stuck board only shows its text).
            self.request(apply=True)
            return
        new = apply_hint(puzzle, entries, result)
        if new is None:
            self.ctx.status("This hint has nothing to write into the board")
            return
        self.result = None
        self.shown_for = (puzzle, new)  # the shown text now says what was just written
        if result["kind"] == "wrong-entry":
            label, head = "Apply hint: erase a wrong entry", "Corrected"
        else:
            label, head = f"Apply hint: {result['rule']}", f"Applied: {esc(result['rule'])}"
        self.detail.setText(f"<b>{head}</b><br>{esc(result['text'])}")
        self.ctx.apply(EditResult(entries=new, label=label))
        self.ctx.status(f"{label} (Ctrl+Z takes it back)")
