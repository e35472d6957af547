"""Export actions of the main window: Export Diagram (checked now, painted and written in a job),
scripted export, and Copy Image."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMimeData
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog

from solvers.common.display import DisplayList
from solvers.common.errors import InputError
from widgets.export_dialog import ExportDialog
from workbench import settings
from workbench.export import ExportOptions, export_job, prepare_export, render_image, titled
from workbench.jobs import Job
from workbench.window_services import WindowServices

STATE_KEY = "export/dialog"


def _remembered() -> object:
    try:
        return json.loads(str(settings.settings().value(STATE_KEY, "")))
    except ValueError:  # none yet, or a garbled settings file: the dialog keeps its defaults
        return None


class ExportActions:
    """File > Export Diagram and Copy Image for one main window."""

    def __init__(self, window: WindowServices) -> None:
        self.window = window

    def ask_path(self, name: str, file_filter: str) -> str:
        """A file to export to, the dialog started in the export folder (see ``settings``); "" if
        cancelled. Panels export through it too (Toichika's Export step started in the working
        folder)."""
        folder = settings.last_folder("export")
        chosen, _ = QFileDialog.getSaveFileName(self.window, "Export", str(Path(folder) / name), file_filter)
        if chosen:
            settings.set_last_folder("export", chosen)
        return str(chosen)

    def export_dialog(self) -> None:
        view = self.window.current()
        dialog = ExportDialog(view.shown_solution() is not None, self.window.palette_name, self.window)
        dialog.restore(_remembered())
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        settings.settings().setValue(STATE_KEY, json.dumps(dialog.state()))
        ext = dialog.extension()
        base = view.doc.path.stem if view.doc.path else view.plugin.meta.id
        folder = settings.last_folder("export")
        suggested = str(Path(folder) / f"{base}.{ext}") if folder else f"{base}.{ext}"
        name, _ = QFileDialog.getSaveFileName(
            self.window, "Export diagram", suggested, f"{ext.upper()} (*.{ext})"
        )
        if not name:
            return
        settings.set_last_folder("export", name)
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
            self.window.show_error("Export failed", str(exc))
            return False
        self.window.statusBar().showMessage(f"Exported {target}", 5000)
        return True

    def export_in_background(
        self, path: str | Path, options: ExportOptions | None = None, with_solution: bool = True
    ) -> Job | None:
        """Export as the menu does: check and build the picture now, paint and write the file in
        a worker process (``export_job``; a big board's PNG takes over a second); the status line
        reports when it is written."""
        options = options or ExportOptions(palette=self.window.palette_name)
        picture = self._picture(with_solution)
        try:
            prepare_export(picture, path, options)  # the checks; the painting happens in the job
        except InputError as exc:
            self.window.show_error("Export failed", str(exc))
            return None
        return self.window.current().run_job(
            "Exporting",
            export_job(picture, path, options),
            lambda target: self.window.statusBar().showMessage(f"Exported {target}", 5000),
            lambda error: self.window.show_error("Export failed", error),
        )

    def _picture(self, with_solution: bool) -> DisplayList:
        view = self.window.current()
        return titled(view.picture(with_solution), view.doc.base_name(), view.plugin.meta.name)

    def _prepare_export(
        self, path: str | Path, options: ExportOptions | None, with_solution: bool
    ) -> Callable[[], Path] | None:
        try:
            return prepare_export(
                self._picture(with_solution),
                path,
                options or ExportOptions(palette=self.window.palette_name),
            )
        except InputError as exc:
            self.window.show_error("Export failed", str(exc))
            return None

    def copy_puzzle(self) -> None:
        """The document as text (what Save writes: the puzzle, and entries where it has them), for
        Paste Puzzle, a file or a message; the panels' Copy URL gives the puzz.link form."""
        view = self.window.current()
        try:
            text = view.plugin.serialize_document(view.doc.puzzle, view.doc.entries)
        except InputError as exc:  # e.g. a board being drawn that no file can hold yet
            self.window.show_error("Cannot copy the puzzle", str(exc))
            return
        QApplication.clipboard().setText(text)
        self.window.statusBar().showMessage("Puzzle copied to the clipboard as text", 4000)

    def copy_image(self) -> None:
        image = render_image(self.window.current().picture(), ExportOptions(palette=self.window.palette_name))
        mime = QMimeData()
        mime.setImageData(image)
        QApplication.clipboard().setMimeData(mime)
        self.window.statusBar().showMessage("Image copied to the clipboard", 4000)
