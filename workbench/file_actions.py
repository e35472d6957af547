"""File actions of the main window: open (file, text, recent, sample, drop), save, new, resize,
paste and import, with the "unsaved changes" question. Every action reports errors in a dialog and
never raises into Qt's event loop."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFileDialog,
    QMessageBox,
)

from solvers.common import registry
from solvers.common.errors import InputError
from solvers.common.limits import limit_text
from solvers.common.protocol import EditResult, Importer, PluginBase
from workbench import crash, settings
from workbench.collection_chooser import choose_puzzle
from workbench.document import read_document_text
from workbench.document_view import DocumentView
from workbench.import_actions import ImportActions, ImportReviewRun, describe_error
from workbench.pasted_text import read_elsewhere, read_pasted, reading_error, with_other_readers
from workbench.size_dialog import SizeDialog
from workbench.window_services import WindowServices


class FileActions:
    """The File menu's work (and Edit > Resize/Clear Entries), for one main window."""

    def __init__(self, window: WindowServices) -> None:
        self.window = window
        self.last_open_error = ""  # why the last open failed (``--open ... --screenshot`` reports it)
        self.size_dialog: QDialog | None = None  # the open New/Resize size dialog (tests fill it in)
        self.imports = ImportActions(window, self.may_discard, self._report_open_error)
        # Which puzzle of a file of several opens (a screenshot run takes the first: no dialog).
        self.choose_puzzle: Callable[[str, list[str]], int | None] = lambda *a: choose_puzzle(window, *a)

    def ask_unsaved(self, view: DocumentView) -> str:
        box = QMessageBox(self.window)
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
        answer = self.window.confirm(view)
        if answer == "save":
            return self.save(view)
        return answer == "discard"

    def _report_open_error(self, title: str, text: str) -> bool:
        self.last_open_error = text
        self.window.show_error(title, text)
        return False

    def open_path(self, path: str | Path, kind: str | None = None, *, template: bool = False) -> bool:
        """Open a file (Open, drop, recent, sample, command line). Never raises: errors become a dialog.

        ``template`` (samples) opens it as a new untitled document.
        """
        path = Path(path)
        crash.note(f"open {path.name}")
        view: DocumentView | None = None
        try:
            plugin: PluginBase | None = registry.get(kind) if kind else registry.for_path(str(path))
            view = self.window.show_kind(plugin.meta.id) if plugin is not None else self.window.current()
            found = view.doc.read(path, choose=self.choose_puzzle)  # a file that cannot open asks nothing
            if found is None or not self.may_discard(view):
                return False
            view.cancel_jobs(quietly=True)
            view.doc.adopt(path, found, template=template)
        except InputError as exc:
            text = str(exc) if path.name in str(exc) else f"{path.name}: {exc}"
            return self._report_open_error("Cannot open file", _read_elsewhere(text, path, view))
        except Exception as exc:  # a parser bug must show a dialog, not escape into Qt's event loop
            return self._report_open_error("Cannot open file", f"{path.name}: {describe_error(exc)}")
        if not template:
            settings.add_recent(f"{view.plugin.meta.id}|{path}")
        # A sample opens untitled (Save asks for a name): "Opened .../07-20x12.txt" beside the title
        # "untitled" read as a contradiction (QA).
        said = f"Opened the sample {path.stem} as a new puzzle" if template else f"Opened {path}"
        self.window.statusBar().showMessage(said, 5000)
        self.window.update_actions()
        return True

    def open_dropped(self, path: str | Path) -> bool:
        """A file dropped on the window: a puzzle file opens; a file no module opens but an
        importer reads (a screenshot) starts that import. Never raises."""
        if registry.for_path(str(path)) is None:
            found = self.imports.importer_for(path)
            if found is not None:
                return self.imports.import_file(*found, path)
        return self.open_path(path)

    def open_text(
        self, text: str, kind: str | None = None, *, fresh: bool = False, ask: bool = False
    ) -> bool:
        """Open a puzzle given as text (paste, drop, ``--open`` with an inline URL/code).

        The result is always untitled; ``fresh`` (input given at start) also makes it unmodified
        with no undo history, otherwise it is one undoable step. ``ask``: the unsaved-changes
        question once the text is read (a bad paste asks nothing). Never raises.
        """
        try:
            view = self.window.show_kind(registry.get(kind).meta.id) if kind else self.window.current()
        except InputError as exc:
            return self._report_open_error("Cannot read puzzle", str(exc))
        body = ""
        try:
            body = limit_text(text, "the pasted text").strip()
            read = read_pasted(view.plugin, body, (lambda *_: 0) if fresh else self.choose_puzzle)
            if read is None:  # a pack pasted, and the choice of its puzzle cancelled
                return False
            puzzle, entries = read
        except InputError as exc:
            found = None if kind else read_elsewhere(body, view.plugin)
            if found is None:
                return self._report_open_error("Cannot read puzzle", reading_error(body, view.plugin, exc))
            view, (puzzle, entries) = self.window.show_kind(found[0].meta.id), found[1]
            ask = True  # that module's document is replaced too
        except Exception as exc:  # a parser bug must show a dialog, not escape into Qt's event loop
            return self._report_open_error(
                "Cannot read puzzle", f"Cannot read the puzzle: {describe_error(exc)}"
            )
        if ask and not fresh and not self.may_discard(view):
            return False
        view.cancel_jobs(quietly=True)
        if fresh:
            view.doc.reset(puzzle, entries)
        else:
            view.doc.replace_untitled(puzzle, "Paste puzzle", entries)
        # Replaces a failed paste's error, which would otherwise describe this board for 10 s.
        self.window.statusBar().showMessage(
            f"{view.plugin.meta.name}: {view.plugin.describe_document(puzzle, entries)}", 5000
        )
        self.window.update_actions()
        return True

    def open_dialog(self) -> None:
        filters = [p.meta.dialog_filter() for p in registry.plugins().values()]
        current = self.window.current().plugin.meta.dialog_filter()
        name, chosen = QFileDialog.getOpenFileName(
            self.window,
            "Open puzzle",
            settings.last_folder("open"),
            ";;".join(filters + ["All files (*)"]),
            current,
        )
        if name:
            settings.set_last_folder("open", name)
            kind = next(
                (p.meta.id for p in registry.plugins().values() if p.meta.dialog_filter() == chosen), None
            )
            self.open_path(name, kind if registry.for_path(name) is None else None)

    def fill_recent(self) -> None:
        self.window.recent_menu.clear()
        entries = settings.recent_files()
        if not entries:
            self.window.recent_menu.addAction("(none)").setEnabled(False)
        plugins = registry.plugins()
        for number, entry in enumerate(entries, 1):
            kind, _, path = entry.partition("|")
            # Numbered for the keyboard (Alt+F, R, 1); an '&' in a name is shown, not a mnemonic.
            name = Path(path).name.replace("&", "&&")
            module = plugins[kind].meta.name if kind in plugins else kind
            prefix = f"&{number}  " if number < 10 else "    "
            action = self.window.recent_menu.addAction(f"{prefix}{name}  ({module})")
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, k=kind, p=path: self.open_recent(k, p))

    def open_recent(self, kind: str, path: str) -> bool:
        if not Path(path).is_file():  # deleted or moved since: it stayed listed, failing each time (QA)
            settings.remove_recent(f"{kind}|{path}")
            said = f"{path}: the file is gone (deleted or moved); removed from Open Recent"
            return self._report_open_error("Cannot open file", said)
        # An entry may name a module that is gone (or a garbled settings file): open by extension.
        known = kind in registry.plugins()
        return self.open_path(path, kind if known else None)

    def fill_samples(self) -> None:
        self.window.samples_menu.clear()
        for plugin in registry.plugins().values():
            sub = self.window.samples_menu.addMenu(plugin.meta.name)
            for title, paths in plugin.sample_groups():
                menu = sub.addMenu(title) if title else sub
                for path in paths:
                    action = menu.addAction(path.stem)
                    action.triggered.connect(lambda _=False, k=plugin.meta.id, p=path: self.open_sample(k, p))

    def open_sample(self, kind: str, path: Path) -> bool:
        """Samples are templates: they open untitled, so Save asks for a new name."""
        return self.open_path(path, kind, template=True)

    def save(self, view: DocumentView | None = None) -> bool:
        view = view or self.window.current()
        if view.doc.path is None:
            return self.save_as(view)
        try:
            view.doc.save()
        except InputError as exc:
            self.window.show_error("Cannot save", str(exc))
            return False
        self.window.statusBar().showMessage(f"Saved {view.doc.path}", 5000)
        return True

    def save_as(self, view: DocumentView | None = None) -> bool:
        view = view or self.window.current()
        ext = view.plugin.meta.extensions[0]
        start = view.doc.suggested_name(ext, settings.last_folder("save"))
        name, _ = QFileDialog.getSaveFileName(
            self.window, "Save puzzle", start, view.plugin.meta.dialog_filter()
        )
        if not name:
            return False
        settings.set_last_folder("save", name)
        path = Path(name)
        if not path.suffix:
            path = path.with_suffix(ext)
        try:
            view.doc.save(path)
        except InputError as exc:
            self.window.show_error("Cannot save", str(exc))
            return False
        settings.add_recent(f"{view.plugin.meta.id}|{path}")
        return True

    def new_puzzle(self) -> None:
        view = self.window.current()
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
            self.window.show_error("Cannot create puzzle", str(exc))
            return
        view.cancel_jobs(quietly=True)
        view.doc.reset(puzzle)
        view.set_mode("edit")  # a new board is for drawing: Play mode had nothing to play

    def _ask_size(self, title: str, size: tuple[int, int]) -> tuple[int, int] | None:
        """Ask width then height (the order users read '12x6' in); returns (rows, cols) for plug-ins."""
        dialog = SizeDialog(title, size, self.window)
        self.size_dialog = dialog  # tests fill it in
        return dialog.chosen() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def resize_dialog(self) -> None:
        view = self.window.current()
        size = view.plugin.size_of(view.doc.puzzle)
        if size is None:
            return
        chosen = self._ask_size("Resize grid", size)
        if chosen is not None:
            self.resize_puzzle(*chosen)

    def resize_puzzle(self, rows: int, cols: int) -> bool:
        view = self.window.current()
        try:
            puzzle = view.plugin.resize(view.doc.puzzle, rows, cols)
        except InputError as exc:
            self.window.show_error("Cannot resize", str(exc))
            return False
        view.doc.replace(puzzle, f"Resize to {cols}x{rows}")  # width x height, as everywhere
        return True

    def clear_entries(self) -> None:
        view = self.window.current()
        view.doc.apply(EditResult(entries=view.plugin.empty_entries(view.doc.puzzle), label="Clear entries"))

    def paste_puzzle(self) -> None:
        text = QApplication.clipboard().text()
        if not text.strip():
            self.window.show_error("Nothing to paste", "The clipboard holds no text.")
            return
        self.open_text(text, ask=True)

    def import_dialog(self, kind: str, importer: Importer) -> None:
        self.imports.import_dialog(kind, importer)

    def import_file(self, kind: str, importer: Importer, path: str | Path) -> bool:
        return self.imports.import_file(kind, importer, path)

    @property
    def last_notice(self) -> QMessageBox | None:
        """The latest import's "please check" notes, if any."""
        return self.imports.last_notice

    @property
    def review(self) -> ImportReviewRun | None:
        """The latest picture import under review (see ``import_actions``)."""
        return self.imports.review


def _read_elsewhere(said: str, path: Path, view: DocumentView | None) -> str:
    """``said``, and which other modules read the file the shown one refused."""
    try:
        return said if view is None else with_other_readers(said, read_document_text(path), view.plugin)
    except InputError:  # unreadable as text at all: the error says so
        return said
