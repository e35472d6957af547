"""Arrow keys in the tool rows: the neighbouring tool, by where the buttons are on screen.

Qt's own arrow handling for a button group picked by its own geometry rules and sent Down on
Flow's first colour to "Warp", the last button of the second row (QA pass 9). Left/Right go along
the rows' order, Up/Down to the nearest button (by its centre) in the row above or below."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton

ARROWS = (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down)


def neighbour(shown: list[QAbstractButton], here: QAbstractButton, key: int) -> QAbstractButton | None:
    """The button an arrow ``key`` moves to from ``here`` among the ``shown`` ones (in row
    order), or None at the edge."""
    if here not in shown:
        return None
    at = shown.index(here)
    if key == Qt.Key.Key_Left:
        return shown[at - 1] if at > 0 else None
    if key == Qt.Key.Key_Right:
        return shown[at + 1] if at + 1 < len(shown) else None
    box = here.geometry()
    if key == Qt.Key.Key_Down:
        others = [b for b in shown if b.geometry().top() > box.bottom()]
        row_top = min((b.geometry().top() for b in others), default=None)
    elif key == Qt.Key.Key_Up:
        others = [b for b in shown if b.geometry().bottom() < box.top()]
        row_top = max((b.geometry().top() for b in others), default=None)
    else:
        return None
    row = [b for b in others if b.geometry().top() == row_top]
    centre = box.center().x()
    return min(row, key=lambda b: (abs(b.geometry().center().x() - centre), b.x()), default=None)
