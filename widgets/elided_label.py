"""A one-line label that ends in "…" when its text does not fit (the full text is its tooltip).

A plain QLabel cuts a long line off mid-word at the window's edge, with nothing to say that text
is missing (seen under the board: "... Numberlink rules (c")."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QStyleOption


class ElidedLabel(QLabel):
    def shown_text(self) -> str:
        """The text as drawn at the current width."""
        room = self.contentsRect().width()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, max(room, 0))

    def minimumSizeHint(self) -> QSize:
        # Any width will do: the text shrinks to fit instead of widening the window.
        hint = super().minimumSizeHint()
        return QSize(self.fontMetrics().horizontalAdvance("…") * 4, hint.height())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: ARG002 - the whole label is drawn
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            int(self.alignment()),
            option.palette,
            self.isEnabled(),
            self.shown_text(),
            self.foregroundRole(),
        )
        painter.end()


__all__ = ["ElidedLabel"]
