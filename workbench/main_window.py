"""The main window: kind sidebar, one workspace per kind, menus and actions, colour scheme, jobs.

The work behind the File, Export and Help menus lives in ``file_actions``, ``export_actions`` and
``help_actions``; this class builds the menus and keeps the views."""

from __future__ import annotations

import gc
from typing import Any, cast

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QPaintEvent,
    QUndoGroup,
)
from PySide6.QtWidgets import (
    QApplication,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QSplitter,
    QStackedWidget,
)

from solvers.common import process_jobs, registry
from solvers.common.errors import InputError
from solvers.common.palette import PALETTES
from solvers.common.protocol import GAME, PLAY, SOLVE
from solvers.common.words import check_text
from widgets.panel_api import MenuPanel
from widgets.theme import SCHEMES, apply_scheme
from widgets.wheel_guard import WheelGuard
from workbench import crash, menus, settings, warmup, window_geometry
from workbench.document import Document
from workbench.document_view import DocumentView, await_warm_up
from workbench.export_actions import ExportActions
from workbench.file_actions import FileActions
from workbench.help_actions import HelpActions
from workbench.jobs import JobManager
from workbench.window_services import WindowServices

MINIMUM_SIZE = (800, 560)  # width, height: the smallest window that still shows every module whole


class MainWindow(WindowServices):
    error_shown = Signal(str)
    # Made by ``menus.build`` (besides the actions WindowServices declares).
    act_new: QAction
    act_open: QAction
    act_save: QAction
    act_save_as: QAction
    act_export: QAction
    act_copy: QAction
    act_copy_puzzle: QAction
    act_paste: QAction
    act_quit: QAction
    act_solve_all: QAction
    act_resize: QAction
    act_clear_entries: QAction
    act_dark: QAction
    act_how_to_play: QAction
    act_keys_help: QAction
    act_about: QAction
    crash_handler: crash.CrashHandler | None = None  # installed by an interactive run (app.run_gui)
    tool_undo: QAction
    tool_redo: QAction
    puzzle_menu: QMenu
    module_separator: QAction
    module_actions: list[QAction]
    scheme_group: QActionGroup
    scheme_actions: dict[str, QAction]
    import_actions: dict[str, QAction]
    import_kinds: set[str]
    import_end: QAction
    file_menu: QMenu
    # Emitted once, just after the window's first paint (the background start-up work waits for it).
    first_shown = Signal()

    def __init__(self, remember_layout: bool = False) -> None:
        super().__init__()
        self.setWindowTitle("Puzzle Workbench")
        WheelGuard.install(cast(QApplication, QApplication.instance()))  # the wheel scrolls panels
        self.setAcceptDrops(True)
        self.jobs = JobManager(self)
        self.undo_group = QUndoGroup(self)
        self.views: dict[str, DocumentView] = {}
        # The window's colour scheme (system, light, dark); the board palette follows it.
        self.scheme = str(settings.settings().value("scheme", "system"))
        if self.scheme not in SCHEMES:
            self.scheme = "system"
        self.palette_name = "light"
        self.last_error: QMessageBox | None = None
        # Hook for "unsaved changes" questions; tests replace it. Returns "save", "discard" or "cancel".
        self.files = FileActions(self)
        self.exports = ExportActions(self)
        self.help = HelpActions(self)
        self.confirm = self.files.ask_unsaved

        self.sidebar = QListWidget()
        self.sidebar.setAccessibleName("Puzzle kinds")
        self.sidebar.setMinimumWidth(150)
        self.sidebar.setMaximumWidth(220)
        # The metadata alone: a module's code loads when its kind is first shown (issue 27).
        for meta in registry.metas().values():
            item = QListWidgetItem(meta.name)
            item.setData(Qt.ItemDataRole.UserRole, meta.id)
            item.setToolTip(meta.description)
            self.sidebar.addItem(item)
        self.stack = QStackedWidget()
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.sidebar)
        splitter.addWidget(self.stack)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([170, 1100])
        self.splitter = splitter
        # Only a user's own session reads and keeps the layout: screenshots and tests stay reproducible.
        self.remember_layout = remember_layout
        if remember_layout:
            window_geometry.restore_splitter(splitter, "main")
        self.setCentralWidget(splitter)
        self._build_actions()
        self.set_scheme(self.scheme)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.styleHints().colorSchemeChanged.connect(self._system_scheme_changed)
        self.sidebar.currentRowChanged.connect(self._kind_row_changed)
        self.statusBar().showMessage("Ready")
        self.resize(1280, 800)
        # Below this the board is cut and the info line drawn over it (QA at the window's own
        # minimum, 763x399); 800x560 still fits any screen of 1024x768 and up.
        self.setMinimumSize(*MINIMUM_SIZE)
        for row in range(self.sidebar.count()):  # the first module that loads
            self.sidebar.setCurrentRow(row)
            if self.stack.count():
                break
        # Start-up objects (Qt wrappers, modules) live for ever; moving them out of the
        # collector's reach cut the full-collection pauses that stall the GUI during long jobs
        # with many results (Nine Tiles "find all": 290 -> 70 ms in benchmarks/gui_stall_bench.py).
        gc.freeze()
        # Collections stop every thread; full ones traverse every container (50-100 ms each while a
        # 100x100 Toichika's side-panel jobs run, 36 in 12 s with the default 700/10/10). Rarer
        # young collections (every 10,000 allocations) and a full one every 100th middle one:
        # Toichika 100x100 open, stalls over 100 ms 37 -> 0-1 (longest 87-114 ms). Reference
        # counting still frees everything that is not in a cycle at once.
        gc.set_threshold(10_000, 10, 100)
        self._shown = False

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        super().paintEvent(event)
        if not self._shown:  # the children paint in this same pass: what follows comes after it
            self._shown = True
            QTimer.singleShot(0, self.first_shown.emit)
            QTimer.singleShot(0, self._start_background)

    def _start_background(self) -> None:
        """Once the window shows: load every module, warm up their kernels and start the solver
        workers (before the first paint they would delay it; the warm-up competes for the GIL)."""
        plugins = registry.plugins().values()
        gc.freeze()  # the modules just loaded live for ever, as the window's own start-up objects
        menus.add_importers(self, plugins)
        warmup.start(plugins)
        for view in self.views.values():  # opened before the first paint (``--kind doves``)
            if not warmup.is_ready(view.plugin.meta.id):
                await_warm_up(view)
        process_jobs.start_spares()  # solver worker processes, started before the first Solve

    # ---- views ------------------------------------------------------------------------------
    def _kind_row_changed(self, row: int) -> None:
        item = self.sidebar.item(row)
        if item is None:
            return
        try:
            self.show_kind(str(item.data(Qt.ItemDataRole.UserRole)))
        except InputError as exc:  # its code failed to load: the sidebar lists metadata only
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            item.setToolTip(str(exc))
            if self.stack.count():
                self.show_kind(self.current().plugin.meta.id)  # back to the row shown before
                self.show_error("Module unavailable", str(exc))

    def view_for(self, kind: str) -> DocumentView:
        plugin = registry.get(kind)
        if plugin.meta.id not in self.views:
            view = DocumentView(Document(plugin), self.jobs)
            view.set_palette(PALETTES[self.palette_name])
            view.status_message.connect(self._show_status)
            view.title_changed.connect(self._update_title)
            view.busy_changed.connect(lambda _busy: self._update_cancel())
            view.confirm_replace = lambda: self.files.may_discard(view)
            view.paste_text = lambda text: self.files.open_text(text, plugin.meta.id, ask=True)
            view.ask_export_path = self.exports.ask_path
            self.undo_group.addStack(view.doc.undo_stack)
            self.views[plugin.meta.id] = view
            menus.add_importers(self, [plugin])
            self.stack.addWidget(view)
            if self.remember_layout:
                window_geometry.restore_splitter(view.splitter, plugin.meta.id)
        return self.views[plugin.meta.id]

    def show_kind(self, kind: str) -> DocumentView:
        view = self.view_for(kind)
        if self.stack.currentWidget() is not view:
            crash.note(f"show {kind}")
            self.statusBar().clearMessage()  # another module's message does not describe this one
        self.stack.setCurrentWidget(view)
        self.undo_group.setActiveStack(view.doc.undo_stack)
        for row in range(self.sidebar.count()):
            if self.sidebar.item(row).data(Qt.ItemDataRole.UserRole) == view.plugin.meta.id:
                if self.sidebar.currentRow() != row:
                    self.sidebar.setCurrentRow(row)
        self.update_actions()
        self._update_title()
        return view

    def _show_status(self, text: str) -> None:
        if text:
            self.statusBar().showMessage(text, 8000)
        else:
            self.statusBar().clearMessage()

    def _update_cancel(self) -> None:
        self.act_cancel.setEnabled(bool(self.stack.count()) and self.current().busy())

    def current(self) -> DocumentView:
        widget = self.stack.currentWidget()
        assert isinstance(widget, DocumentView)
        return widget

    def _update_title(self) -> None:
        if self.stack.count():
            view = self.current()
            name = view.doc.display_name()
            self.setWindowTitle(f"{name}[*] — {view.plugin.meta.name} — Puzzle Workbench")
            self.setWindowModified(view.doc.dirty)

    # ---- actions ----------------------------------------------------------------------------
    def _action(self, text: str, slot: Any, shortcut: Any = None, tip: str = "") -> QAction:
        return menus.make_action(self, text, slot, shortcut, tip)

    def _build_actions(self) -> None:
        menus.build(self)

    def update_actions(self) -> None:
        plugin = self.current().plugin
        can_solve = SOLVE in plugin.meta.capabilities
        for action in (self.act_solve, self.act_solve_all):
            action.setEnabled(can_solve)
        is_game = GAME in plugin.meta.capabilities
        self.act_solve.setText("&Analyse" if is_game else "&Solve")
        self.act_solve_all.setVisible(not is_game)
        self.act_play_mode.setEnabled(PLAY in plugin.meta.capabilities)
        self.act_resize.setEnabled(plugin.size_of(self.current().doc.puzzle) is not None)
        self._update_module_actions()
        self._update_cancel()

    def _update_module_actions(self) -> None:
        """The Puzzle menu's module section: what the current kind's panels offer."""
        for action in self.module_actions:
            self.puzzle_menu.removeAction(action)
        view = self.current()
        self.module_actions = []
        for i in range(view.side.count()):
            panel = view.panel(view.side.tabText(i))
            if isinstance(panel, MenuPanel):
                self.module_actions.extend(panel.menu_actions())
        self.puzzle_menu.addActions(self.module_actions)
        self.module_separator.setVisible(bool(self.module_actions))

    # ---- files ------------------------------------------------------------------------------
    def show_error(self, title: str, text: str) -> None:
        """Non-blocking error dialog (a modal exec() would stall tests and scripts)."""
        box = QMessageBox(QMessageBox.Icon.Critical, title, text, QMessageBox.StandardButton.Ok, self)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()
        self.last_error = box
        self.statusBar().showMessage(text, 10000)
        self.error_shown.emit(text)

    # ---- checking and export ----------------------------------------------------------------
    def check(self) -> None:
        view = self.current()
        result = view.plugin.check(view.doc.puzzle, view.doc.entries)
        self.statusBar().showMessage(f"Check: {check_text(result)}", 10000)

    def toggle_dark(self, checked: bool) -> None:
        self.set_scheme("dark" if checked else "light")

    def set_scheme(self, scheme: str) -> None:
        """Colour the whole window (and every board) light, dark, or as the system is."""
        self.scheme = scheme if scheme in SCHEMES else "system"
        settings.settings().setValue("scheme", self.scheme)
        self.scheme_actions[self.scheme].setChecked(True)
        app = QApplication.instance()
        dark = apply_scheme(app, self.scheme) if isinstance(app, QApplication) else self.scheme == "dark"
        self.palette_name = "dark" if dark else "light"
        for view in self.views.values():
            view.set_palette(PALETTES[self.palette_name])

    def _system_scheme_changed(self, *_args: object) -> None:
        if self.scheme == "system":
            self.set_scheme("system")

    # ---- drag and drop, closing -------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt API)
        if event.mimeData().hasUrls() or event.mimeData().hasText():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt API)
        mime = event.mimeData()
        if mime.hasUrls():
            for url in mime.urls():
                if url.isLocalFile():
                    self.files.open_dropped(url.toLocalFile())
                    break
        elif mime.hasText():
            self.files.open_text(mime.text())
        event.acceptProposedAction()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt API)
        for view in self.views.values():
            if view.doc.dirty:
                self.show_kind(view.plugin.meta.id)
                if not self.files.may_discard(view):
                    event.ignore()
                    return
        if not self.jobs.shutdown(5000):
            # A worker ignored its cancel token for 5 s; give it a moment longer rather than crash.
            QTimer.singleShot(0, lambda: self.jobs.shutdown(10000))
        if self.remember_layout:
            window_geometry.save(self)
            window_geometry.save_splitter(self.splitter, "main")
            for kind, view in self.views.items():
                window_geometry.save_splitter(view.splitter, kind)
        event.accept()
