"""The import confirm dialog: the picture scaled to fit, what was read drawn over it, a line saying
what was read (or what looks wrong), and Use / Edit before using / Cancel."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from solvers.common.review import ImportReview, Mark

OVERLAY_ALPHA = 170  # the read board is drawn half see-through: the picture stays visible under it
GRID_COLOUR = QColor(0, 229, 255, OVERLAY_ALPHA)
WALL_COLOUR = QColor(255, 170, 0, 220)
ALERT_COLOUR = QColor(255, 40, 40)
MIN_WIDTH = 520  # the three buttons and a two-line reason


class ReviewPicture(QWidget):
    """The picture scaled to fit (aspect kept, centred) with the marks over it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image: QImage | None = None
        self.marks: tuple[Mark, ...] = ()
        self.placeholder = "Reading…"
        self.setMinimumSize(240, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_picture(self, rgb: np.ndarray, marks: tuple[Mark, ...]) -> None:
        height, width = rgb.shape[:2]
        data = np.ascontiguousarray(rgb, np.uint8).tobytes()
        # copy(): the QImage must own its pixels, not borrow the bytes object's.
        self.image = QImage(data, width, height, 3 * width, QImage.Format.Format_RGB888).copy()
        self.marks = marks
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        return QSize(420, 560)

    def picture_rect(self) -> QRectF:
        """Where the picture is drawn in the widget (scaled to fit, centred)."""
        if self.image is None or self.image.isNull():
            return QRectF()
        scale = min(self.width() / self.image.width(), self.height() / self.image.height())
        w, h = self.image.width() * scale, self.image.height() * scale
        return QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        painter = QPainter(self)
        try:  # a painter left active by an exception takes the process down with it
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            if self.image is None:
                painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.placeholder)
                return
            target = self.picture_rect()
            painter.drawImage(target, self.image)
            painter.translate(target.topLeft())
            scale = target.width() / self.image.width()
            painter.scale(scale, scale)  # marks are in the picture's pixels
            # Dots on top: they are what the user checks.
            for kind in ("hole", "grid", "bridge", "wall", "dot"):
                for mark in self.marks:
                    if mark.kind == kind:
                        _draw_mark(painter, mark, scale)
        finally:
            painter.end()


def _draw_mark(painter: QPainter, mark: Mark, scale: float) -> None:
    g = mark.geometry
    px = 1.0 / scale  # one screen pixel in picture pixels
    if mark.kind == "grid":
        painter.setPen(QPen(GRID_COLOUR, 2 * px))
        painter.drawLine(QPointF(g[0], g[1]), QPointF(g[2], g[3]))
    elif mark.kind == "wall":
        pen = QPen(WALL_COLOUR, max(5 * px, 0.1 * _length(g)))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.drawLine(QPointF(g[0], g[1]), QPointF(g[2], g[3]))
    elif mark.kind == "hole":
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(QColor(128, 128, 128, 150), Qt.BrushStyle.BDiagPattern))
        if len(g) > 4:  # a hexagon's corners
            painter.drawPolygon(QPolygonF([QPointF(g[i], g[i + 1]) for i in range(0, len(g) - 1, 2)]))
        else:
            painter.drawRect(QRectF(g[0], g[1], g[2], g[3]))
    elif mark.kind == "bridge":  # a cross over the cell: its two lanes
        pen = QPen(WALL_COLOUR, max(4 * px, 0.06 * g[2]))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        x, y, w, h = g
        painter.drawLine(QPointF(x + 0.15 * w, y + h / 2), QPointF(x + 0.85 * w, y + h / 2))
        painter.drawLine(QPointF(x + w / 2, y + 0.15 * h), QPointF(x + w / 2, y + 0.85 * h))
    elif mark.kind == "dot":
        x, y, r = g
        fill = QColor(mark.colour)
        fill.setAlpha(OVERLAY_ALPHA)
        painter.setPen(QPen(QColor(255, 255, 255, 230), 2 * px))
        painter.setBrush(fill)
        painter.drawEllipse(QPointF(x, y), r, r)
        if mark.alert:  # a dashed ring around the dot, apart from it: visible on a red dot too
            ring = QPen(ALERT_COLOUR, 3 * px)
            ring.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(ring)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(x, y), r + 5 * px, r + 5 * px)
        if mark.label:
            font = QFont(painter.font())
            font.setBold(True)
            font.setPixelSize(max(1, round(r * 0.9)))
            painter.setFont(font)
            light = fill.lightnessF() > 0.55
            painter.setPen(QColor(0, 0, 0) if light else QColor(255, 255, 255))
            painter.drawText(QRectF(x - r, y - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, mark.label)


def _length(g: tuple[float, ...]) -> float:
    return float(((g[2] - g[0]) ** 2 + (g[3] - g[1]) ** 2) ** 0.5)


class ImportReviewDialog(QDialog):
    """Shows "Reading…" until ``show_review`` gets the reading. ``chosen`` says the user's answer:
    "use", "edit" or "cancel" (Esc and closing the window are Cancel)."""

    chosen = Signal(str)

    def __init__(self, parent: QWidget | None, name: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Import Screenshot — {name}")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.review: ImportReview | None = None
        self.choice = ""
        self.picture = ReviewPicture(self)
        self.summary = QLabel(f"Reading {name}…", self)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes = QLabel("", self)
        self.notes.setWordWrap(True)
        self.notes.setVisible(False)
        buttons = QDialogButtonBox(self)
        self.use_button = QPushButton("&Use this board", self)
        self.edit_button = QPushButton("&Edit before using", self)
        self.cancel_button = QPushButton("Cancel", self)
        buttons.addButton(self.use_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.edit_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.use_button.clicked.connect(lambda: self._choose("use"))
        self.edit_button.clicked.connect(lambda: self._choose("edit"))
        self.cancel_button.clicked.connect(self.reject)
        self.use_button.setVisible(False)
        self.edit_button.setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.picture, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.notes)
        layout.addWidget(buttons)
        self._fit_to(parent)

    def _fit_to(self, parent: QWidget | None) -> None:
        """A tall phone screenshot needs height: most of the window's, never more than it has."""
        if parent is None:
            self.resize(560, 720)
            return
        window = parent.window()
        height = max(360, min(820, round(window.height() * 0.9)))
        width = max(MIN_WIDTH, min(720, round(window.width() * 0.6)))
        self.resize(width, height)

    def show_review(self, review: ImportReview) -> None:
        self.review = review
        self.picture.set_picture(review.image, review.marks)
        # A phone screenshot is tall: narrow the dialog to the picture, keeping room for the text.
        height, width = review.image.shape[:2]
        fitted = round(self.picture.height() * width / max(1, height)) + 40
        self.resize(max(MIN_WIDTH, min(self.width(), fitted)), self.height())
        if review.ok:
            self.summary.setText(f"Read: {review.summary}")
        else:
            self.summary.setText(f"Looks wrong: {review.summary}")
            self.summary.setStyleSheet("font-weight: bold")
        if review.notes:
            self.notes.setText("\n".join(f"• {note}" for note in review.notes))
            self.notes.setVisible(True)
        self.use_button.setVisible(review.ok)
        self.edit_button.setVisible(review.puzzle is not None)
        default = self.use_button if review.ok else self.edit_button
        if default.isVisible():
            default.setDefault(True)
            default.setFocus()

    def _choose(self, choice: str) -> None:
        self.choice = choice
        self.chosen.emit(choice)
        self.accept()

    def reject(self) -> None:
        """Cancel, Esc or the window's close button."""
        if not self.choice:
            self.choice = "cancel"
            self.chosen.emit("cancel")
        super().reject()
