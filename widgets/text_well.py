"""A few lines of rich text in a box of fixed height: a new text never moves what is around it.

A plain word-wrapped label grows and shrinks with its text: Toichika's step text, shown under the
step list, pushed the buttons below it down by a line or two at each step (QA at 1024x768). The
box is as tall as ``lines`` lines of its font; a longer text scrolls inside it, from its top."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QSizePolicy, QWidget


class WellLabel(QLabel):
    """The well's label: a new text is read from its first line."""

    def __init__(self, well: TextWell) -> None:
        super().__init__()
        self._well = well

    def setText(self, text: str) -> None:  # noqa: N802 (Qt API)
        super().setText(text)
        self._well.verticalScrollBar().setValue(0)
        self._well.text_changed.emit(text)


class TextWell(QScrollArea):
    text_changed = Signal(str)  # the label's new text ("" when it is cleared)

    def __init__(self, lines: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = WellLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setWidget(self.label)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # text to read: the board keeps the keys
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        margins = self.label.contentsMargins()
        # Rich text lays out in a document with a margin of its own (2 px above and below).
        room = lines * self.label.fontMetrics().lineSpacing() + margins.top() + margins.bottom() + 4
        self.setFixedHeight(room + 2 * self.frameWidth())


__all__ = ["TextWell", "WellLabel"]
