"""Pixmaps drawn at the screen's pixel ratio, so small pictures stay sharp at 125-200 % scaling.

A ``QPixmap(w, h)`` has ratio 1: at QT_SCALE_FACTOR=2 Qt stretched it to twice its size, and the
solution thumbnails and the tool palette's colour dots looked blurred beside the sharp text and board
(QA pass 9). These pixmaps hold ``ratio`` times the pixels and are painted in logical units.
"""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication, QPixmap


def screen_ratio() -> float:
    """The highest device pixel ratio of the screens (1.0 without a GUI application)."""
    app = QGuiApplication.instance()
    if not isinstance(app, QGuiApplication):
        return 1.0
    return max(1.0, app.devicePixelRatio())


def sharp_pixmap(width: int, height: int, ratio: float | None = None) -> QPixmap:
    """A ``width`` x ``height`` (logical pixels) pixmap with ``ratio`` (default: the screens')
    device pixels per logical pixel; painters draw on it in logical units."""
    ratio = ratio or screen_ratio()
    pixmap = QPixmap(max(1, round(width * ratio)), max(1, round(height * ratio)))
    pixmap.setDevicePixelRatio(ratio)
    return pixmap
