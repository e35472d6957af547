"""The mouse wheel scrolls panels; it changes a combo or spin box only once that box has focus.

QA pass 7: turning the wheel over a side panel to scroll it switched Flow's Rules box to
Numberlink (an edit of the puzzle, with an undo step) and Doves' Look ahead from 11 to 17, as the
boxes passed under the pointer. A box the user has clicked (or tabbed to) still takes the wheel.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QApplication, QComboBox, QWidget


class WheelGuard(QObject):
    """An application-wide event filter (``install``): a wheel turn over an unfocused combo or
    spin box goes to the scroll area around it instead, or nowhere."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if event.type() != QEvent.Type.Wheel or not isinstance(watched, (QComboBox, QAbstractSpinBox)):
            return False
        if watched.hasFocus() or (isinstance(watched, QComboBox) and watched.view().isVisible()):
            return False  # chosen by the user: the wheel steps through its values
        area = scroll_area_around(watched)
        if area is not None:
            QApplication.sendEvent(area.verticalScrollBar(), event)
        return True

    @staticmethod
    def install(app: QApplication) -> None:
        """Once per application (every main window asks)."""
        if app.property("wheel_guard") is None:
            guard = WheelGuard(app)
            app.installEventFilter(guard)
            app.setProperty("wheel_guard", guard)


def scroll_area_around(widget: QWidget) -> QAbstractScrollArea | None:
    """The nearest scroll area ``widget`` lies in, if any."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return parent
        parent = parent.parentWidget()
    return None
