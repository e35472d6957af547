"""The mouse wheel scrolls panels; it changes a combo or spin box only once that box has focus.

QA pass 7: turning the wheel over a side panel to scroll it switched Flow's Rules box to
Numberlink (an edit of the puzzle, with an undo step) and Doves' Look ahead from 11 to 17, as the
boxes passed under the pointer. A box the user has clicked (or tabbed to) still takes the wheel.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QApplication, QComboBox, QWidget


class WheelGuard(QObject):
    """An application-wide event filter (``install``): a wheel turn over an unfocused combo or
    spin box goes to the scroll area around it instead, or nowhere."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if not isinstance(watched, (QComboBox, QAbstractSpinBox)):
            return False
        if event.type() == QEvent.Type.Polish and watched.focusPolicy() == Qt.FocusPolicy.WheelFocus:
            # A combo box takes focus from a wheel turn (Qt's default for it) before the turn is
            # delivered, so "has focus" could not tell a chosen box from one the panel scrolled
            # past (seen in a real X session; a synthetic event to a hidden box does not take focus).
            watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        if event.type() != QEvent.Type.Wheel:
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
        if not any(guard.parent() is app for guard in _INSTALLED):
            guard = WheelGuard(app)
            app.installEventFilter(guard)
            _INSTALLED.append(guard)  # the filter is Python code: keep its wrapper referenced


_INSTALLED: list[WheelGuard] = []


def scroll_area_around(widget: QWidget) -> QAbstractScrollArea | None:
    """The nearest scroll area ``widget`` lies in, if any."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return parent
        parent = parent.parentWidget()
    return None
