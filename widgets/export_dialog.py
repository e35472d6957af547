"""Export options dialog: format, cell size, margin, background, palette, with or without solution."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QWidget,
)


class ExportDialog(QDialog):
    def __init__(
        self, can_include_solution: bool, palette: str = "light", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export diagram")
        self.format = QComboBox()
        self.format.addItems(["PNG image", "SVG vector image", "PDF document"])
        self.cell_size = QDoubleSpinBox()
        self.cell_size.setRange(4, 400)
        self.cell_size.setValue(40)
        self.cell_size.setSuffix(" px/pt per cell")
        self.margin = QDoubleSpinBox()
        self.margin.setRange(0, 400)
        self.margin.setValue(16)
        self.transparent = QCheckBox("Transparent background")
        self.palette_choice = QComboBox()
        self.palette_choice.addItems(["light", "dark"])
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

    def extension(self) -> str:
        return ("png", "svg", "pdf")[self.format.currentIndex()]
