"""Export options dialog: format, cell size, margin, background, palette, with or without solution."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QWidget,
)

from solvers.common.palette import PALETTES
from widgets.render import CELL_SIZE_RANGE, MARGIN_RANGE, ExportOptions


class ExportDialog(QDialog):
    def __init__(
        self, can_include_solution: bool, palette: str = "light", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export diagram")
        self.format = QComboBox()
        self.format.addItems(["PNG image", "SVG vector image", "PDF document"])
        defaults = ExportOptions(palette=palette)
        self.cell_size = QDoubleSpinBox()
        # The lowest value stands for "automatic": legible cells, at least 600 on the long side.
        self.cell_size.setRange(CELL_SIZE_RANGE[0] - 1, CELL_SIZE_RANGE[1])
        self.cell_size.setSpecialValueText("Automatic (legible)")
        self.cell_size.setValue(defaults.cell_size or self.cell_size.minimum())
        self.margin = QDoubleSpinBox()
        self.margin.setRange(*MARGIN_RANGE)
        self.margin.setValue(defaults.margin)
        # One unit in every format (``ExportOptions``), so the suffix never changes with it.
        self.cell_size.setSuffix(" px per cell")
        self.margin.setSuffix(" px")
        same_size = "Pixels of 1/96 inch: PNG, SVG and PDF of one export show and print at one size"
        self.cell_size.setToolTip(same_size)
        self.margin.setToolTip(same_size)
        self.transparent = QCheckBox("Transparent background")
        self.transparent.setChecked(defaults.transparent)
        self.palette_choice = QComboBox()
        self.palette_choice.addItems(sorted(PALETTES, key=lambda name: name != "light"))
        self.palette_choice.setCurrentText(palette)
        self.with_solution = QCheckBox("Include the shown solution")
        self.with_solution.setChecked(can_include_solution)
        self.with_solution.setEnabled(can_include_solution)
        form = QFormLayout(self)
        form.addRow("Format", self.format)
        form.addRow("Cell size", self.cell_size)
        form.addRow("Margin", self.margin)
        form.addRow("Palette", self.palette_choice)
        form.addRow("", self.transparent)
        form.addRow("", self.with_solution)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def options(self) -> ExportOptions:
        """The chosen options as the one ``ExportOptions`` value (automatic cell size = None)."""
        auto = self.cell_size.value() <= self.cell_size.minimum()
        return ExportOptions(
            cell_size=None if auto else self.cell_size.value(),
            margin=self.margin.value(),
            transparent=self.transparent.isChecked(),
            palette=self.palette_choice.currentText(),
        )

    def extension(self) -> str:
        return ("png", "svg", "pdf")[self.format.currentIndex()]

    def state(self) -> dict[str, Any]:
        """The choices to offer again next time (the caller keeps them in the settings)."""
        return {
            "format": self.extension(),
            "cell_size": self.cell_size.value(),
            "margin": self.margin.value(),
            "transparent": self.transparent.isChecked(),
            "palette": self.palette_choice.currentText(),
        }

    def restore(self, state: object) -> None:
        """Offer the choices of ``state()`` again; anything missing or garbled keeps its default."""
        if not isinstance(state, dict):
            return
        if state.get("format") in ("png", "svg", "pdf"):
            self.format.setCurrentIndex(("png", "svg", "pdf").index(state["format"]))
        for box, key in ((self.cell_size, "cell_size"), (self.margin, "margin")):
            value = state.get(key)
            if isinstance(value, (int, float)) and box.minimum() <= value <= box.maximum():
                box.setValue(float(value))
        if isinstance(state.get("transparent"), bool):
            self.transparent.setChecked(state["transparent"])
        if state.get("palette") in PALETTES:
            self.palette_choice.setCurrentText(state["palette"])
