"""Toichika's generator: the panel's "Generate…" group and the Puzzle > Generate… dialog, sharing
their settings; the new puzzle replaces the document only after the unsaved-changes question."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QPushButton,
    QSpinBox,
    QWidget,
)

from solvers.common.process_jobs import remote
from solvers.toichika.generate import MAX_SIDE, MIN_SIDE, Generated, generate, grade_names, too_small


class GeneratorBox(QGroupBox):
    def __init__(self, ctx: Any, on_failed: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__("Generate a puzzle", parent)  # a heading, not a command: no ellipsis
        self.ctx = ctx
        self.on_failed = on_failed
        self.job: Any = None  # not among the panel's jobs: editing the board must not cancel it
        self.generate_dialog: GenerateDialog | None = None
        self.gen_width = QSpinBox()
        self.gen_height = QSpinBox()
        for box in (self.gen_width, self.gen_height):
            box.setRange(MIN_SIDE, MAX_SIDE)
            box.setValue(8)
        self.gen_grade = QComboBox()
        self.gen_grade.addItems(grade_names())
        self.gen_grade.setCurrentText("medium")
        self.gen_seed = QSpinBox()
        self.gen_seed.setRange(0, 2**31 - 1)
        self.gen_seed.setSpecialValueText("random")  # 0: a fresh seed, reported in the status bar
        self.gen_seed.setToolTip("The same seed, size and grade give the same puzzle")
        self.gen_symmetric = QCheckBox("Symmetric givens")
        self.gen_symmetric.setToolTip("Countries and givens are laid out with 180° symmetry")
        self.generate_button = QPushButton("Generate")
        self.generate_button.setToolTip(
            "A random puzzle with a unique solution whose explanation needs this grade"
        )
        self.generate_button.clicked.connect(self.generate)
        form = QFormLayout(self)
        form.addRow(f"Width ({MIN_SIDE}–{MAX_SIDE})", self.gen_width)  # typed past it: put back silently
        form.addRow(f"Height ({MIN_SIDE}–{MAX_SIDE})", self.gen_height)
        form.addRow("Grade", self.gen_grade)
        form.addRow("Seed", self.gen_seed)
        form.addRow(self.gen_symmetric)
        form.addRow(self.generate_button)

    def open_generate_dialog(self) -> GenerateDialog:
        """Puzzle > Generate…: a small dialog with the generator's settings (shared with the group)."""
        dialog = GenerateDialog(self)
        dialog.accepted.connect(lambda: self._generate_from(dialog))
        dialog.open()
        self.generate_dialog = dialog
        return dialog

    def _generate_from(self, dialog: GenerateDialog) -> None:
        for mine, theirs in (
            (self.gen_width, dialog.width_box),
            (self.gen_height, dialog.height_box),
            (self.gen_seed, dialog.seed_box),
        ):
            mine.setValue(theirs.value())
        self.gen_grade.setCurrentText(dialog.grade_box.currentText())
        self.gen_symmetric.setChecked(dialog.symmetric_box.isChecked())
        self.generate()

    def generate(self) -> None:
        job = self.job
        if job is not None and not getattr(job, "done", True):
            self.ctx.status("Still generating…")
            return
        cols, rows = self.gen_width.value(), self.gen_height.value()
        grade, seed = self.gen_grade.currentText(), self.gen_seed.value() or None
        symmetric = self.gen_symmetric.isChecked()
        if too_small(cols, rows):  # before the unsaved-changes question: it asked, then failed
            self.ctx.status(f"Cannot generate: {too_small(cols, rows)}")
            return
        if not self.ctx.may_replace():  # asked now, not when the new puzzle arrives
            return
        self.job = self.ctx.run_job(
            f"Generating a {cols}x{rows} {grade} puzzle",
            remote(
                generate,
                cols,
                rows,
                grade,
                seed=seed,
                symmetric=symmetric,
                max_seconds=GUI_SECONDS,
                with_progress=True,
            ),
            self._generated,
            self.on_failed,
        )

    def _generated(self, made: Generated) -> None:
        self.ctx.replace_untitled(made.puzzle, "Generate puzzle")
        self.ctx.status(
            f"New {made.puzzle.cols}x{made.puzzle.rows} {made.grade} puzzle, unique, "
            f"{made.givens} givens, seed {made.seed} ({made.seconds:.1f} s)"
        )


# The hardest grades on small boards may never come (QA: 8x8 expert and extreme ran for minutes);
# the panel says so after this long instead of running on.
GUI_SECONDS = 120.0


class GenerateDialog(QDialog):
    """Size, grade, seed and symmetry for Puzzle > Generate…, started from the panel's settings."""

    def __init__(self, panel: GeneratorBox) -> None:
        super().__init__(panel)
        self.setWindowTitle("Generate Toichika")
        # Wide enough for its title beside a window manager's buttons ("Gener… ichika" otherwise).
        self.setMinimumWidth(max(340, self.fontMetrics().horizontalAdvance(self.windowTitle()) + 200))
        self.width_box = QSpinBox()
        self.height_box = QSpinBox()
        for mine, theirs in ((self.width_box, panel.gen_width), (self.height_box, panel.gen_height)):
            mine.setRange(MIN_SIDE, MAX_SIDE)
            mine.setValue(theirs.value())
            mine.setSuffix(" cells")
        self.width_box.selectAll()  # typing replaces the width ("12" made "18 cells")
        self.grade_box = QComboBox()
        self.grade_box.addItems(grade_names())
        self.grade_box.setCurrentText(panel.gen_grade.currentText())
        self.grade_box.setToolTip("The hardest technique the explanation needs (docs: grade ladder)")
        self.seed_box = QSpinBox()
        self.seed_box.setRange(0, 2**31 - 1)
        self.seed_box.setSpecialValueText("random")
        self.seed_box.setValue(panel.gen_seed.value())
        self.seed_box.setToolTip("The same seed, size and grade give the same puzzle")
        self.symmetric_box = QCheckBox("Symmetric givens")
        self.symmetric_box.setChecked(panel.gen_symmetric.isChecked())
        form = QFormLayout(self)
        form.addRow("Width", self.width_box)
        form.addRow("Height", self.height_box)
        form.addRow("Grade", self.grade_box)
        form.addRow("Seed", self.seed_box)
        form.addRow(self.symmetric_box)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Generate")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
