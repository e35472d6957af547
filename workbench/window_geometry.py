"""Where the main window opens: fitted to the screen it is on, and as the user left it last time.

The window used to open at 1280x800 plus its frame whatever the screen, so at 1024x768 the side
panel and the status bar were off-screen, and at 1280x800 the status bar sat below the screen edge.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter

from workbench import settings

PREFERRED = (1280, 800)
# A window manager's title bar and borders, which Qt cannot know before the window is shown.
FRAME_ALLOWANCE = (16, 48)
GEOMETRY_KEY = "window/geometry"


@dataclass(frozen=True)
class Placement:
    rect: QRect  # the client area to give the window
    maximise: bool  # the preferred size does not fit: open maximised instead


def fit(available: QRect, preferred: tuple[int, int] = PREFERRED) -> Placement:
    """The client rectangle for a window on a screen whose free area is ``available``.

    The preferred size is used when it fits with its frame; otherwise the window opens maximised
    (its rectangle is then the whole free area less the frame, for platforms that cannot maximise)."""
    room_w = available.width() - FRAME_ALLOWANCE[0]
    room_h = available.height() - FRAME_ALLOWANCE[1]
    width, height = preferred
    if width <= room_w and height <= room_h:
        # Centre the framed window: the title bar sits above the client area, a border below.
        left = available.x() + (room_w - width) // 2 + FRAME_ALLOWANCE[0] // 2
        top = available.y() + (room_h - height) // 2 + FRAME_ALLOWANCE[1] - 8
        return Placement(QRect(left, top, width, height), maximise=False)
    rect = QRect(
        available.x() + FRAME_ALLOWANCE[0] // 2,
        available.y() + FRAME_ALLOWANCE[1] - 8,
        max(320, min(width, room_w)),
        max(240, min(height, room_h)),
    )
    return Placement(rect, maximise=True)


def _visible(rect: QRect) -> bool:
    """Whether most of ``rect`` lies on some screen (a saved place on a screen since unplugged
    must not leave the window out of reach)."""
    for screen in QGuiApplication.screens():
        overlap = screen.availableGeometry().intersected(rect)
        if overlap.width() * overlap.height() >= 0.6 * rect.width() * rect.height():
            return True
    return False


def place(window: QMainWindow) -> bool:
    """Size and place ``window`` before it is shown; returns True when it should open maximised.

    The geometry saved at the last close is used when it still fits a screen; else the window is
    fitted to the screen it is on."""
    start_screen = window.screen() or QGuiApplication.primaryScreen()
    if start_screen is not None:
        shrink_minimum(window, start_screen.availableGeometry())
    saved = settings.settings().value(GEOMETRY_KEY)
    if isinstance(saved, QByteArray) and not saved.isEmpty() and window.restoreGeometry(saved):
        if window.isMaximized():
            return True
        if _visible(window.frameGeometry()) and _fits(window):
            return False
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        window.resize(*PREFERRED)
        return False
    placement = fit(screen.availableGeometry())
    window.setGeometry(placement.rect)
    return placement.maximise


def shrink_minimum(window: QMainWindow, available: QRect) -> None:
    """Lower the window's minimum size to what ``available`` holds with a frame (QA pass 9): a
    1920x1080 screen at 200% (960x540 logical) or 1280x800 at 150% is lower than the 560 px
    minimum, so the window opened 1120 px high on a 1080 px screen, its status bar off-screen."""
    minimum = window.minimumSize()
    width, height = minimum.width(), minimum.height()
    if width > available.width():
        width = max(320, available.width() - FRAME_ALLOWANCE[0])
    if height > available.height():
        height = max(240, available.height() - FRAME_ALLOWANCE[1])
    window.setMinimumSize(width, height)


def _fits(window: QMainWindow) -> bool:
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return True
    free = screen.availableGeometry()
    return window.width() <= free.width() and window.height() <= free.height()


def save(window: QMainWindow) -> None:
    settings.settings().setValue(GEOMETRY_KEY, window.saveGeometry())


def restore_splitter(splitter: QSplitter, key: str) -> None:
    """Give ``splitter`` the sizes it had when the app last closed (nothing if none were saved)."""
    saved = settings.settings().value(f"splitters/{key}")
    if isinstance(saved, QByteArray) and not saved.isEmpty():
        splitter.restoreState(saved)


def save_splitter(splitter: QSplitter, key: str) -> None:
    settings.settings().setValue(f"splitters/{key}", splitter.saveState())
