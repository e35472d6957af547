"""What the File, Export and Help actions need of the main window.

They are given this narrow base, not ``MainWindow``, so no module imports the window that imports
it (an import circle, even under TYPE_CHECKING, ties the rooms of the house together)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu

from workbench.document_view import DocumentView
from workbench.jobs import JobManager


class WindowServices(QMainWindow):
    # Actions whose shortcuts the help lists and whose state the file actions follow.
    act_undo: QAction
    act_redo: QAction
    act_solve: QAction
    act_check: QAction
    act_hide: QAction
    act_edit_mode: QAction
    act_play_mode: QAction
    act_zoom_in: QAction
    act_zoom_out: QAction
    act_fit: QAction
    act_cancel: QAction
    samples_menu: QMenu
    recent_menu: QMenu
    palette_name: str
    jobs: JobManager
    # The unsaved-changes question: "save", "discard" or "cancel" (tests replace it).
    confirm: Callable[[DocumentView], str]

    def current(self) -> DocumentView:
        raise NotImplementedError

    def show_kind(self, kind: str) -> DocumentView:
        raise NotImplementedError

    def show_error(self, title: str, text: str) -> None:
        raise NotImplementedError

    def update_actions(self) -> None:
        raise NotImplementedError
