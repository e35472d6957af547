"""Flow's generator group: size, colours and variant of a random puzzle with a unique answer, made
in a background job; it replaces the document only after the unsaved-changes question."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QPushButton, QSpinBox, QWidget

from solvers.common.process_jobs import remote
from solvers.flow.generate import generate
from solvers.flow.model import FlowPaths, FlowPuzzle
from solvers.flow.variants import KINDS, generate_variant


class FlowGenerator(QGroupBox):
    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__("Generator", parent)
        self.ctx = ctx
        self.job: Any = None  # a cancelled job calls no callback: clicks are ignored while one runs
        self.width_box = QSpinBox()
        self.height_box = QSpinBox()
        for box in (self.width_box, self.height_box):
            box.setRange(3, 50)
            box.setValue(7)
        self._size_seen: tuple[int, int] | None = None  # the board size the boxes last took
        self.colours_box = QSpinBox()
        self.colours_box.setRange(0, 62)
        self.colours_box.setSpecialValueText("auto")
        self.kind_box = QComboBox()
        self.kind_box.addItems(["plain", *KINDS])
        self.kind_box.setToolTip("Board variant of the random puzzle")
        self.generate_button = QPushButton("New random puzzle")
        self.generate_button.setToolTip("A random puzzle whose solution is unique under designed rules")
        self.generate_button.clicked.connect(self.new_random)
        self.form = QFormLayout(self)
        # The range in the label: a typed 0 or 999 was put back without a word (QA pass 7).
        low, high = self.width_box.minimum(), self.width_box.maximum()
        self.form.addRow(f"Width ({low}–{high})", self.width_box)
        self.form.addRow(f"Height ({low}–{high})", self.height_box)
        self.form.addRow("Colours", self.colours_box)
        self.form.addRow("Variant", self.kind_box)
        self.form.addRow(self.generate_button)

    def follow(self, puzzle: FlowPuzzle) -> None:
        """A board of another size (opened, resized): offer that size, not the 7x7 of the start
        beside a 14x9. A size typed in stays until the board's size changes."""
        if (puzzle.cols, puzzle.rows) != self._size_seen:
            self._size_seen = (puzzle.cols, puzzle.rows)
            self.width_box.setValue(puzzle.cols)
            self.height_box.setValue(puzzle.rows)

    def new_random(self) -> None:
        cols, rows = self.width_box.value(), self.height_box.value()
        colours = self.colours_box.value() or None
        kind = self.kind_box.currentText()
        if self.job is not None and not getattr(self.job, "done", True):
            self.ctx.status("Still generating…")
            return
        if not self.ctx.may_replace():  # asked now, not when the new puzzle arrives
            return
        self.job = self.ctx.run_job(
            f"Generating a {cols}x{rows} puzzle",
            remote(generate, cols, rows, colours)
            if kind == "plain"
            else remote(generate_variant, cols, rows, kind),
            self._generated,
            self._failed,
        )

    def _generated(self, made: Any) -> None:
        puzzle: FlowPuzzle = made.puzzle
        self.ctx.replace_untitled(puzzle, "New random puzzle", FlowPaths())
        self.ctx.status(f"New {puzzle.cols}x{puzzle.rows} puzzle, {len(puzzle.colours)} colours, unique.")

    def _failed(self, message: str) -> None:
        self.ctx.status(f"Generator: {message}")
