"""The main window: kind sidebar, one workspace per kind, menus, files, export, jobs."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QMimeData, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QUndoGroup,
)
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QSpinBox,
    QSplitter,
    QStackedWidget,
)

from solvers.common import registry
from solvers.common.errors import InputError
from solvers.common.limits import limit_text
from solvers.common.palette import PALETTES
from solvers.common.protocol import GAME, PLAY, SOLVE, Importer, PluginBase
from solvers.common.words import check_text
from widgets.export_dialog import ExportDialog
from widgets.help_dialog import HelpDialog, keys_html, rules_html
from widgets.theme import SCHEMES, apply_scheme
from workbench import settings
from workbench.document import Document
from workbench.document_view import DocumentView
from workbench.export import ExportOptions, prepare_export, render_image
from workbench.jobs import Job, JobManager


class MainWindow(QMainWindow):
    error_shown = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("Puzzle Workbench")
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
        self.last_notice: QMessageBox | None = None  # the latest import's "please check" notes
        self.last_open_error = ""  # why the last open failed (``--open ... --screenshot`` reports it)
        # Hook for "unsaved changes" questions; tests replace it. Returns "save", "discard" or "cancel".
        self.confirm = self._ask_unsaved

        self.sidebar = QListWidget()
        self.sidebar.setAccessibleName("Puzzle kinds")
        self.sidebar.setMinimumWidth(150)
        self.sidebar.setMaximumWidth(220)
        for plugin in registry.plugins().values():
            item = QListWidgetItem(plugin.meta.name)
            item.setData(Qt.ItemDataRole.UserRole, plugin.meta.id)
            item.setToolTip(plugin.meta.description)
            self.sidebar.addItem(item)
        self.stack = QStackedWidget()
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.sidebar)
        splitter.addWidget(self.stack)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([170, 1100])
        self.setCentralWidget(splitter)
        self._build_actions()
        self.set_scheme(self.scheme)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.styleHints().colorSchemeChanged.connect(self._system_scheme_changed)
        self.sidebar.currentRowChanged.connect(self._kind_row_changed)
        self.statusBar().showMessage("Ready")
        self.resize(1280, 800)
        if self.sidebar.count():
            self.sidebar.setCurrentRow(0)
        # Start-up objects (Qt wrappers, numba, modules) live for ever; moving them out of the
        # collector's reach cut the full-collection pauses that stall the GUI during long jobs
        # with many results (Nine Tiles "find all": 290 -> 70 ms in benchmarks/gui_stall_bench.py).
        gc.freeze()

    # ---- views ------------------------------------------------------------------------------
    def _kind_row_changed(self, row: int) -> None:
        item = self.sidebar.item(row)
        if item is not None:
            self.show_kind(str(item.data(Qt.ItemDataRole.UserRole)))

    def view_for(self, kind: str) -> DocumentView:
        plugin = registry.get(kind)
        if plugin.meta.id not in self.views:
            view = DocumentView(Document(plugin), self.jobs)
            view.set_palette(PALETTES[self.palette_name])
            view.status_message.connect(self._show_status)
            view.title_changed.connect(self._update_title)
            view.busy_changed.connect(lambda _busy: self._update_cancel())
            self.undo_group.addStack(view.doc.undo_stack)
            self.views[plugin.meta.id] = view
            self.stack.addWidget(view)
        return self.views[plugin.meta.id]

    def show_kind(self, kind: str) -> DocumentView:
        view = self.view_for(kind)
        self.stack.setCurrentWidget(view)
        self.undo_group.setActiveStack(view.doc.undo_stack)
        for row in range(self.sidebar.count()):
            if self.sidebar.item(row).data(Qt.ItemDataRole.UserRole) == view.plugin.meta.id:
                if self.sidebar.currentRow() != row:
                    self.sidebar.setCurrentRow(row)
        self._update_actions()
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
            name = view.doc.path.name if view.doc.path else "untitled"
            self.setWindowTitle(f"{name}[*] — {view.plugin.meta.name} — Puzzle Workbench")
            self.setWindowModified(view.doc.dirty)

    # ---- actions ----------------------------------------------------------------------------
    def _action(self, text: str, slot: Any, shortcut: Any = None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        self.act_new = self._action(
            "&New…", self.new_puzzle, QKeySequence.StandardKey.New, "Start a blank puzzle"
        )
        self.act_open = self._action("&Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        self.act_save = self._action("&Save", self.save, QKeySequence.StandardKey.Save)
        self.act_save_as = self._action("Save &As…", self.save_as, QKeySequence.StandardKey.SaveAs)
        self.act_export = self._action("&Export Diagram…", self.export_dialog, "Ctrl+Shift+E")
        self.act_copy = self._action("&Copy Image", self.copy_image, "Ctrl+Shift+C")
        self.act_paste = self._action(
            "&Paste Puzzle",
            self.paste_puzzle,
            QKeySequence.StandardKey.Paste,
            "Open a puzzle from the clipboard (text, URL or code)",
        )
        self.act_quit = self._action("&Quit", self.close, QKeySequence.StandardKey.Quit)
        file_menu.addActions([self.act_new, self.act_open])
        self.samples_menu = file_menu.addMenu("Open &Sample")
        self.samples_menu.aboutToShow.connect(self._fill_samples)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file_menu.addSeparator()
        file_menu.addActions([self.act_save, self.act_save_as])
        file_menu.addSeparator()
        file_menu.addActions([self.act_export, self.act_copy, self.act_paste])
        # Importers the modules declare (Flow: a screenshot of the app).
        self.import_actions: dict[str, QAction] = {}
        for plugin in registry.plugins().values():
            for importer in plugin.importers():
                action = self._action(
                    importer.label,
                    lambda _=False, k=plugin.meta.id, i=importer: self.import_dialog(k, i),
                    None,
                    f"{plugin.meta.name}: read a puzzle from a file for you to correct",
                )
                file_menu.addAction(action)
                self.import_actions[f"{plugin.meta.id}:{importer.label.replace('&', '')}"] = action
        file_menu.addSeparator()
        file_menu.addAction(self.act_quit)

        edit_menu = menu.addMenu("&Edit")
        # Menu entries name the step ("Undo Draw pipe R"); the toolbar keeps short fixed texts.
        self.act_undo = self.undo_group.createUndoAction(self, "&Undo")
        self.act_undo.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Undo))
        self.act_redo = self.undo_group.createRedoAction(self, "&Redo")
        self.act_redo.setShortcuts(_redo_keys())
        self.tool_undo = self._toolbar_twin(self.act_undo, "Undo")
        self.tool_redo = self._toolbar_twin(self.act_redo, "Redo")
        self.act_resize = self._action("Re&size…", self.resize_dialog, "Ctrl+R")
        self.act_clear_entries = self._action(
            "&Clear Entries", self.clear_entries, None, "Remove everything entered in play mode"
        )
        edit_menu.addActions([self.act_undo, self.act_redo])
        edit_menu.addSeparator()
        edit_menu.addActions([self.act_resize, self.act_clear_entries])

        puzzle_menu = menu.addMenu("&Puzzle")
        self.act_solve = self._action(
            "&Solve",
            lambda: self.current().solve(2),
            "F5",
            "Find a solution and prove uniqueness (stops after 2)",
        )
        self.act_solve_all = self._action("Find &All Solutions", lambda: self.current().solve(0), "Shift+F5")
        self.act_cancel = self._action("&Cancel Job", lambda: self.current().cancel_jobs(), "Esc")
        self.act_check = self._action("C&heck", self.check, "F6", "Check the entries against the rules")
        self.act_hide = self._action("Show &Puzzle Only", lambda: self.current().show_solution(None), "F7")
        self.act_edit_mode = self._action("&Edit Mode", lambda: self.current().set_mode("edit"), "Ctrl+E")
        self.act_play_mode = self._action("&Play Mode", lambda: self.current().set_mode("play"), "Ctrl+P")
        puzzle_menu.addActions(
            [self.act_solve, self.act_solve_all, self.act_cancel, self.act_check, self.act_hide]
        )
        puzzle_menu.addSeparator()
        puzzle_menu.addActions([self.act_edit_mode, self.act_play_mode])
        # Module entries (e.g. Toichika's Generate…): a panel offers them with ``menu_actions()``.
        self.puzzle_menu = puzzle_menu
        self.module_separator = puzzle_menu.addSeparator()
        self.module_actions: list[QAction] = []

        view_menu = menu.addMenu("&View")
        scheme_menu = view_menu.addMenu("&Colour Scheme")
        self.scheme_group = QActionGroup(self)
        self.scheme_actions: dict[str, QAction] = {}
        for scheme, text in (("system", "Follow &System"), ("light", "&Light"), ("dark", "&Dark")):
            action = self._action(text, lambda _=False, s=scheme: self.set_scheme(s))
            action.setCheckable(True)
            self.scheme_group.addAction(action)
            scheme_menu.addAction(action)
            self.scheme_actions[scheme] = action
        self.act_dark = self._action(
            "Toggle &Dark Mode", lambda: self.toggle_dark(self.palette_name != "dark"), "Ctrl+D"
        )
        view_menu.addAction(self.act_dark)
        view_menu.addSeparator()
        self.act_zoom_in = self._action("Zoom &In", lambda: self.current().board_area.zoom_by(1.25))
        self.act_zoom_in.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
        self.act_zoom_out = self._action(
            "Zoom &Out", lambda: self.current().board_area.zoom_by(0.8), "Ctrl+-"
        )
        self.act_fit = self._action(
            "&Fit Board", lambda: self.current().board_area.fit(), "Ctrl+0", "Show the whole board"
        )
        view_menu.addActions([self.act_zoom_in, self.act_zoom_out, self.act_fit])

        help_menu = menu.addMenu("&Help")
        self.act_how_to_play = self._action(
            "&How to Play",
            self.how_to_play,
            QKeySequence.StandardKey.HelpContents,
            "The rules of this module",
        )
        self.act_keys_help = self._action(
            "&Keyboard and Mouse", self.keys_help, None, "This module's controls"
        )
        help_menu.addActions([self.act_how_to_play, self.act_keys_help])
        help_menu.addSeparator()
        help_menu.addAction(self._action("&About", self.about))
        self.help_dialog: HelpDialog | None = None

        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main-toolbar")
        toolbar.setMovable(False)
        toolbar.addActions([self.act_new, self.act_open, self.act_save])
        toolbar.addSeparator()
        toolbar.addActions([self.tool_undo, self.tool_redo])
        toolbar.addSeparator()
        toolbar.addActions([self.act_solve, self.act_solve_all, self.act_cancel, self.act_check])
        toolbar.addSeparator()
        toolbar.addAction(self.act_export)

    def _toolbar_twin(self, action: QAction, text: str) -> QAction:
        """A fixed-text toolbar copy of ``action``; its tooltip carries the full, changing text."""
        twin = QAction(text, self)
        twin.triggered.connect(action.trigger)

        def sync() -> None:
            twin.setEnabled(action.isEnabled())
            full = action.text().replace("&", "")
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            twin.setToolTip(f"{full} ({keys})" if keys else full)

        action.changed.connect(sync)
        sync()
        return twin

    def _update_actions(self) -> None:
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
            offer = getattr(view.panel(view.side.tabText(i)), "menu_actions", None)
            if callable(offer):
                self.module_actions.extend(offer())
        self.puzzle_menu.addActions(self.module_actions)
        self.module_separator.setVisible(bool(self.module_actions))

    # ---- files ------------------------------------------------------------------------------
    def _ask_unsaved(self, view: DocumentView) -> str:
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Unsaved changes")
        box.setText(f"{view.plugin.meta.name}: “{view.doc.title().rstrip(' *')}” has unsaved changes.")
        box.setInformativeText("Save them before continuing?")
        box.setStandardButtons(
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel
        )
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = box.exec()
        return {QMessageBox.StandardButton.Save: "save", QMessageBox.StandardButton.Discard: "discard"}.get(
            QMessageBox.StandardButton(answer), "cancel"
        )

    def may_discard(self, view: DocumentView) -> bool:
        if not view.doc.dirty:
            return True
        answer = self.confirm(view)
        if answer == "save":
            return self.save(view)
        return answer == "discard"

    def show_error(self, title: str, text: str) -> None:
        """Non-blocking error dialog (a modal exec() would stall tests and scripts)."""
        box = QMessageBox(QMessageBox.Icon.Critical, title, text, QMessageBox.StandardButton.Ok, self)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()
        self.last_error = box
        self.statusBar().showMessage(text, 10000)
        self.error_shown.emit(text)

    def _report_open_error(self, title: str, text: str) -> bool:
        self.last_open_error = text
        self.show_error(title, text)
        return False

    def open_path(self, path: str | Path, kind: str | None = None, *, template: bool = False) -> bool:
        """Open a file (Open, drop, recent, sample, command line). Never raises: errors become a dialog.

        ``template`` (samples) opens it as a new untitled document.
        """
        path = Path(path)
        try:
            plugin: PluginBase | None = registry.get(kind) if kind else registry.for_path(str(path))
            view = self.show_kind(plugin.meta.id) if plugin is not None else self.current()
            if not self.may_discard(view):
                return False
            view.cancel_jobs()
            view.doc.load(path, template=template)
        except InputError as exc:
            text = str(exc) if path.name in str(exc) else f"{path.name}: {exc}"
            return self._report_open_error("Cannot open file", text)
        except Exception as exc:  # a parser bug must show a dialog, not escape into Qt's event loop
            return self._report_open_error("Cannot open file", f"{path.name}: {_describe(exc)}")
        if not template:
            settings.add_recent(f"{view.plugin.meta.id}|{path}")
        self.statusBar().showMessage(f"Opened {path}", 5000)
        self._update_actions()
        return True

    def open_text(self, text: str, kind: str | None = None, *, fresh: bool = False) -> bool:
        """Open a puzzle given as text (paste, drop, ``--open`` with an inline URL/code).

        The result is always untitled; ``fresh`` (input given at start) also makes it unmodified
        with no undo history, otherwise it is one undoable step. Never raises.
        """
        try:
            view = self.show_kind(registry.get(kind).meta.id) if kind else self.current()
        except InputError as exc:
            return self._report_open_error("Cannot read puzzle", str(exc))
        try:
            body = limit_text(text, "the pasted text").strip()
            puzzle, entries = view.plugin.parse_document(body + ("\n" if "\n" in body else ""))
        except InputError as exc:
            return self._report_open_error(
                "Cannot read puzzle", f"Clipboard/input is not a {view.plugin.meta.name} puzzle: {exc}"
            )
        except Exception as exc:  # a parser bug must show a dialog, not escape into Qt's event loop
            return self._report_open_error("Cannot read puzzle", f"Cannot read the puzzle: {_describe(exc)}")
        view.cancel_jobs()
        if fresh:
            view.doc.reset(puzzle, entries)
        else:
            view.doc.replace_untitled(puzzle, "Paste puzzle", entries)
        self._update_actions()
        return True

    def open_dialog(self) -> None:
        filters = [p.meta.dialog_filter() for p in registry.plugins().values()]
        current = self.current().plugin.meta.dialog_filter()
        name, chosen = QFileDialog.getOpenFileName(
            self, "Open puzzle", "", ";;".join(filters + ["All files (*)"]), current
        )
        if name:
            kind = next(
                (p.meta.id for p in registry.plugins().values() if p.meta.dialog_filter() == chosen), None
            )
            self.open_path(name, kind if registry.for_path(name) is None else None)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        entries = settings.recent_files()
        if not entries:
            self.recent_menu.addAction("(none)").setEnabled(False)
        for entry in entries:
            kind, _, path = entry.partition("|")
            action = self.recent_menu.addAction(f"{Path(path).name}  ({kind})")
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, k=kind, p=path: self.open_recent(k, p))

    def open_recent(self, kind: str, path: str) -> bool:
        # An entry may name a module that is gone (or a garbled settings file): open by extension.
        known = kind in registry.plugins()
        return self.open_path(path, kind if known else None)

    def _fill_samples(self) -> None:
        self.samples_menu.clear()
        for plugin in registry.plugins().values():
            sub = self.samples_menu.addMenu(plugin.meta.name)
            for path in plugin.sample_paths():
                action = sub.addAction(path.stem)
                action.triggered.connect(lambda _=False, k=plugin.meta.id, p=path: self.open_sample(k, p))

    def open_sample(self, kind: str, path: Path) -> bool:
        """Samples are templates: they open untitled, so Save asks for a new name."""
        return self.open_path(path, kind, template=True)

    def save(self, view: DocumentView | None = None) -> bool:
        view = view or self.current()
        if view.doc.path is None:
            return self.save_as(view)
        try:
            view.doc.save()
        except InputError as exc:
            self.show_error("Cannot save", str(exc))
            return False
        self.statusBar().showMessage(f"Saved {view.doc.path}", 5000)
        return True

    def save_as(self, view: DocumentView | None = None) -> bool:
        view = view or self.current()
        ext = view.plugin.meta.extensions[0]
        name, _ = QFileDialog.getSaveFileName(
            self, "Save puzzle", f"untitled{ext}", view.plugin.meta.dialog_filter()
        )
        if not name:
            return False
        path = Path(name)
        if not path.suffix:
            path = path.with_suffix(ext)
        try:
            view.doc.save(path)
        except InputError as exc:
            self.show_error("Cannot save", str(exc))
            return False
        settings.add_recent(f"{view.plugin.meta.id}|{path}")
        return True

    def new_puzzle(self) -> None:
        view = self.current()
        if not self.may_discard(view):
            return
        size = view.plugin.size_of(view.doc.puzzle)
        try:
            if size is None:
                puzzle = view.plugin.new_puzzle()
            else:
                chosen = self._ask_size("New puzzle", size)
                if chosen is None:
                    return
                puzzle = view.plugin.new_puzzle(*chosen)
        except InputError as exc:
            self.show_error("Cannot create puzzle", str(exc))
            return
        view.cancel_jobs()
        view.doc.reset(puzzle)

    def _ask_size(self, title: str, size: tuple[int, int]) -> tuple[int, int] | None:
        """Ask width then height (the order users read '12x6' in); returns (rows, cols) for plug-ins."""
        dialog = QDialog(self)
        dialog.setWindowTitle(title)
        self.size_dialog = dialog  # tests fill it in
        width, height = QSpinBox(), QSpinBox()
        width.setObjectName("width")
        height.setObjectName("height")
        for spin, value in ((width, size[1]), (height, size[0])):
            spin.setRange(1, 100)
            spin.setValue(value)
        form = QFormLayout(dialog)
        form.addRow("Width (columns)", width)
        form.addRow("Height (rows)", height)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        form.addRow(buttons)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return height.value(), width.value()

    def resize_dialog(self) -> None:
        view = self.current()
        size = view.plugin.size_of(view.doc.puzzle)
        if size is None:
            return
        chosen = self._ask_size("Resize grid", size)
        if chosen is not None:
            self.resize_puzzle(*chosen)

    def resize_puzzle(self, rows: int, cols: int) -> bool:
        view = self.current()
        try:
            puzzle = view.plugin.resize(view.doc.puzzle, rows, cols)
        except InputError as exc:
            self.show_error("Cannot resize", str(exc))
            return False
        view.doc.replace(puzzle, f"Resize to {cols}x{rows}")  # width x height, as everywhere
        return True

    def clear_entries(self) -> None:
        view = self.current()
        from solvers.common.protocol import EditResult

        view.doc.apply(EditResult(entries=view.plugin.empty_entries(view.doc.puzzle), label="Clear entries"))

    def paste_puzzle(self) -> None:
        text = QApplication.clipboard().text()
        if not text.strip():
            self.show_error("Nothing to paste", "The clipboard holds no text.")
            return
        view = self.current()
        if self.may_discard(view):
            self.open_text(text)

    def import_dialog(self, kind: str, importer: Importer) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self, importer.label.replace("&", "").rstrip("…"), "", f"{importer.file_filter};;All files (*)"
        )
        if name:
            self.import_file(kind, importer, name)

    def import_file(self, kind: str, importer: Importer, path: str | Path) -> bool:
        """Run a module's importer; the result becomes an untitled document. Never raises."""
        path = Path(path)
        view = self.show_kind(kind)
        if not self.may_discard(view):
            return False
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            puzzle, notes = importer.load(path)
        except InputError as exc:
            text = str(exc) if path.name in str(exc) else f"{path.name}: {exc}"
            return self._report_open_error("Cannot import", text)
        except Exception as exc:  # a reader bug must show a dialog, not escape into Qt's event loop
            return self._report_open_error("Cannot import", f"{path.name}: {_describe(exc)}")
        finally:
            QApplication.restoreOverrideCursor()
        view.cancel_jobs()
        view.doc.replace_untitled(puzzle, f"Import {path.name}")
        self._update_actions()
        if notes:
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                "Check the imported puzzle",
                f"{path.name}: imported; please check it before solving.\n\n"
                + "\n".join(f"• {note}" for note in notes),
                QMessageBox.StandardButton.Ok,
                self,
            )
            box.setWindowModality(Qt.WindowModality.WindowModal)
            box.open()
            self.last_notice = box
        self.statusBar().showMessage(f"Imported {path.name}: {view.plugin.describe(puzzle)}", 8000)
        return True

    # ---- checking and export ----------------------------------------------------------------
    def check(self) -> None:
        view = self.current()
        result = view.plugin.check(view.doc.puzzle, view.doc.entries)
        self.statusBar().showMessage(f"Check: {check_text(result)}", 10000)

    def export_dialog(self) -> None:
        view = self.current()
        dialog = ExportDialog(view.shown_solution() is not None, self.palette_name, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        ext = dialog.extension()
        base = view.doc.path.stem if view.doc.path else view.plugin.meta.id
        name, _ = QFileDialog.getSaveFileName(
            self, "Export diagram", f"{base}.{ext}", f"{ext.upper()} (*.{ext})"
        )
        if not name:
            return
        self.export_in_background(name, dialog.options(), dialog.with_solution.isChecked())

    def export_to(
        self, path: str | Path, options: ExportOptions | None = None, with_solution: bool = True
    ) -> bool:
        """Export and wait for the file (scripts and tests; the menu uses ``export_in_background``)."""
        write = self._prepare_export(path, options, with_solution)
        if write is None:
            return False
        try:
            target = write()
        except InputError as exc:
            self.show_error("Export failed", str(exc))
            return False
        self.statusBar().showMessage(f"Exported {target}", 5000)
        return True

    def export_in_background(
        self, path: str | Path, options: ExportOptions | None = None, with_solution: bool = True
    ) -> Job | None:
        """Export as the menu does: paint now, encode and write the file in a job (PNG encoding
        of a big board takes over a second); the status line reports when it is written."""
        write = self._prepare_export(path, options, with_solution)
        if write is None:
            return None
        return self.current().run_job(
            "Exporting",
            lambda _cancel, _progress: write(),
            lambda target: self.statusBar().showMessage(f"Exported {target}", 5000),
            lambda error: self.show_error("Export failed", error),
        )

    def _prepare_export(
        self, path: str | Path, options: ExportOptions | None, with_solution: bool
    ) -> Callable[[], Path] | None:
        try:
            return prepare_export(
                self.current().picture(with_solution),
                path,
                options or ExportOptions(palette=self.palette_name),
            )
        except InputError as exc:
            self.show_error("Export failed", str(exc))
            return None

    def copy_image(self) -> None:
        image = render_image(self.current().picture(), ExportOptions(palette=self.palette_name))
        mime = QMimeData()
        mime.setImageData(image)
        QApplication.clipboard().setMimeData(mime)
        self.statusBar().showMessage("Image copied to the clipboard", 4000)

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

    def how_to_play(self) -> HelpDialog:
        plugin = self.current().plugin
        try:
            diagram = plugin.help_diagram()
        except Exception:  # a drawing bug must not keep the rules from showing
            diagram = None
        html = rules_html(plugin.meta.name, plugin.help_rules())
        return self._show_help(f"How to play {plugin.meta.name}", html, diagram)

    def keys_help(self) -> HelpDialog:
        view = self.current()
        plugin = view.plugin
        tools = [
            (t.shortcut, f"{t.label} tool" + ("" if t.mode == "both" else f" ({t.mode} mode)"))
            for t in plugin.tools(view.doc.puzzle)
            if t.shortcut
        ]
        shell = [
            (_keys(self.act_undo), "undo the last step (a whole drag is one step)"),
            (_keys(self.act_redo), "redo"),
            ("Arrow keys", "move the cursor (when the module does not use them)"),
            ("Enter", "click the cursor's cell (when the module does not use the key)"),
            (_keys(self.act_zoom_in) + " / " + _keys(self.act_zoom_out) + ", Ctrl+wheel", "zoom the board"),
            (_keys(self.act_fit), "fit the whole board"),
            ("Middle-drag, scroll bars", "pan a zoomed board"),
            (_keys(self.act_solve), self.act_solve.text().replace("&", "")),
            (_keys(self.act_check), "check the entries against the rules"),
            (_keys(self.act_hide), "show the puzzle instead of a solution"),
            (_keys(self.act_edit_mode) + " / " + _keys(self.act_play_mode), "edit or play mode"),
            (_keys(self.act_cancel), "cancel the running job"),
        ]
        html = keys_html(
            plugin.meta.name,
            [("On the board", plugin.help_keys()), ("Tools", tools), ("Everywhere", shell)],
        )
        return self._show_help(f"{plugin.meta.name}: keyboard and mouse", html, None)

    def _show_help(self, title: str, html: str, diagram: Any) -> HelpDialog:
        if self.help_dialog is not None:
            self.help_dialog.close()
        self.help_dialog = HelpDialog(title, html, diagram, self.palette_name, self)
        self.help_dialog.show()
        return self.help_dialog

    def about(self) -> None:
        kinds = ", ".join(p.meta.name for p in registry.plugins().values())
        QMessageBox.about(
            self,
            "About Puzzle Workbench",
            f"Puzzle Workbench — draw, solve, analyse and export puzzles and games.\n\nModules: {kinds}",
        )

    # ---- drag and drop, closing -------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt API)
        if event.mimeData().hasUrls() or event.mimeData().hasText():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt API)
        mime = event.mimeData()
        if mime.hasUrls():
            for url in mime.urls():
                if url.isLocalFile():
                    self.open_path(url.toLocalFile())
                    break
        elif mime.hasText():
            self.open_text(mime.text())
        event.acceptProposedAction()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt API)
        for view in self.views.values():
            if view.doc.dirty:
                self.show_kind(view.plugin.meta.id)
                if not self.may_discard(view):
                    event.ignore()
                    return
        if not self.jobs.shutdown(5000):
            # A worker ignored its cancel token for 5 s; give it a moment longer rather than crash.
            QTimer.singleShot(0, lambda: self.jobs.shutdown(10000))
        event.accept()


def _keys(action: QAction) -> str:
    """The first two shortcuts (the rest are platform extras such as Alt+Backspace)."""
    return ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()[:2])


def _redo_keys() -> list[QKeySequence]:
    """Ctrl+Shift+Z and Ctrl+Y, which users expect everywhere, then the platform's own Redo keys."""
    keys = [QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")]
    keys += [k for k in QKeySequence.keyBindings(QKeySequence.StandardKey.Redo) if k not in keys]
    return keys


def _describe(exc: BaseException) -> str:
    """One readable line for an unexpected error (the type says what went wrong in a bug)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
