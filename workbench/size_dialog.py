"""The New and Resize dialog: width and height of a grid."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox, QWidget

SIDE_RANGE = (1, 100)  # the largest any module allows; a module may refuse less (its message says)


class SizeDialog(QDialog):
    """Width then height (the order users read '12x6' in); ``chosen()`` is (rows, cols)."""

    def __init__(self, title: str, size: tuple[int, int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.width_box, self.height_box = QSpinBox(), QSpinBox()
        self.width_box.setObjectName("width")
        self.height_box.setObjectName("height")
        for spin, value in ((self.width_box, size[1]), (self.height_box, size[0])):
            spin.setRange(*SIDE_RANGE)
            spin.setValue(value)
        low, high = SIDE_RANGE
        self.hint = QLabel(f"{low} to {high} cells each way (some modules allow less)")
        form = QFormLayout(self)
        form.addRow("Width (columns)", self.width_box)
        form.addRow("Height (rows)", self.height_box)
        form.addRow("", self.hint)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._accept_checked)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.width_box.selectAll()  # typing replaces the width (the caret sat before it: "6" made 620)

    def _accept_checked(self) -> None:
        # A typed 0 or 300 is no value of the box: OK used to keep the old size without a word.
        if self.width_box.hasAcceptableInput() and self.height_box.hasAcceptableInput():
            self.accept()
        else:
            low, high = SIDE_RANGE
            self.hint.setText(f"<b>Each side must be {low} to {high} cells.</b>")

    def chosen(self) -> tuple[int, int]:
        return self.height_box.value(), self.width_box.value()
