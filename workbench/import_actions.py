"""Import actions of the main window: a module's importer runs on a file and the result becomes
an untitled document; an importer that can show what it read (a picture: ``review``) reads in the
background and lets the user use, edit or cancel it in a review dialog. Never raises into Qt."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from solvers.common import registry
from solvers.common.errors import InputError
from solvers.common.process_jobs import remote
from solvers.common.protocol import Importer
from widgets.import_review import ImportReviewDialog
from workbench import settings
from workbench.document_view import DocumentView
from workbench.jobs import Job, JobOutcome
from workbench.window_services import WindowServices


class ImportActions:
    """File > Import for one main window. ``may_discard`` asks about unsaved changes;
    ``report_error`` shows an error dialog (and remembers it) and returns False."""

    def __init__(
        self,
        window: WindowServices,
        may_discard: Callable[[DocumentView], bool],
        report_error: Callable[[str, str], bool],
    ) -> None:
        self.window = window
        self.may_discard = may_discard
        self.report_error = report_error
        self.last_notice: QMessageBox | None = None  # the latest import's "please check" notes
        self.review: ImportReviewRun | None = None  # the latest picture import under review

    def import_dialog(self, kind: str, importer: Importer) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self.window,
            importer.label.replace("&", "").rstrip("…"),
            settings.last_folder("import"),
            f"{importer.file_filter};;All files (*)",
        )
        if name:
            settings.set_last_folder("import", name)
            self.import_file(kind, importer, name)

    def importer_for(self, path: str | Path) -> tuple[str, Importer] | None:
        """The module and importer whose file filter takes ``path`` (a dropped picture), the
        current module's first; None when no importer reads such files."""
        name = Path(path).name.lower()
        current = self.window.current().plugin.meta.id
        candidates = registry.plugins()
        for kind in sorted(candidates, key=lambda k: k != current):
            for importer in candidates[kind].importers():
                patterns = re.findall(r"[^\s();]*\*[^\s();]*", importer.file_filter)
                if any(fnmatch.fnmatchcase(name, pattern.lower()) for pattern in patterns):
                    return kind, importer
        return None

    def import_file(self, kind: str, importer: Importer, path: str | Path) -> bool:
        """Run a module's importer; the result becomes an untitled document. Never raises.

        An importer with ``review`` reads in the background and shows what it read over the
        picture (``review_dialog``) for the user to use, edit or cancel; this returns at once."""
        path = Path(path)
        if importer.review is not None:
            if self.review is not None:  # keep one: each holds a picture
                self.review.dispose()
            self.review = ImportReviewRun(self, kind, importer, path)
            return True
        view = self.window.show_kind(kind)
        if not self.may_discard(view):
            return False
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            puzzle, notes = importer.load(path)
        except InputError as exc:
            text = str(exc) if path.name in str(exc) else f"{path.name}: {exc}"
            return self.report_error("Cannot import", text)
        except Exception as exc:  # a reader bug must show a dialog, not escape into Qt's event loop
            return self.report_error("Cannot import", f"{path.name}: {describe_error(exc)}")
        finally:
            QApplication.restoreOverrideCursor()
        view.cancel_jobs(quietly=True)
        view.doc.replace_untitled(puzzle, f"Import {path.name}")
        self.window.update_actions()
        if notes:
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                "Check the imported puzzle",
                f"{path.name}: imported; please check it before solving.\n\n"
                + "\n".join(f"• {note}" for note in notes),
                QMessageBox.StandardButton.Ok,
                self.window,
            )
            box.setWindowModality(Qt.WindowModality.WindowModal)
            box.open()
            self.last_notice = box
        self.window.statusBar().showMessage(f"Imported {path.name}: {view.plugin.describe(puzzle)}", 8000)
        return True

    def use_import(self, kind: str, name: str, puzzle: object, edit_note: str = "") -> bool:
        """A reviewed import becomes the kind's untitled document (one undo step, after the
        unsaved-changes question); with ``edit_note`` (what the picture's reading said) it opens
        in Edit mode with the note in the status bar."""
        view = self.window.show_kind(kind)
        if not self.may_discard(view):
            return False
        view.cancel_jobs(quietly=True)
        view.doc.replace_untitled(puzzle, f"Import {name}")
        if edit_note:
            view.set_mode("edit")
        self.window.update_actions()
        status = self.window.statusBar()
        if edit_note:  # kept until the next message: the user corrects the board with it in view
            status.showMessage(f"Imported {name} for editing — {edit_note}")
        else:
            status.showMessage(f"Imported {name}: {view.plugin.describe(puzzle)}", 8000)
        return True


class ImportReviewRun(QObject):
    """One picture import: the reading job and its review dialog, on the GUI thread."""

    def __init__(self, files: ImportActions, kind: str, importer: Importer, path: Path) -> None:
        super().__init__(files.window)
        assert importer.review is not None
        self.files = files
        self.kind = kind
        self.name = path.name
        self.dialog = ImportReviewDialog(files.window, path.name)
        self.dialog.chosen.connect(self.chosen)
        body = remote(importer.review, path)
        self.job = Job(f"Reading {path.name}", lambda cancel, progress, _emit: body(cancel, progress))
        self.job.signals.finished.connect(self.finished)
        self.dialog.open()
        files.window.jobs.start(self.job)

    def dispose(self) -> None:
        self.job.cancel()
        self.dialog.choice = self.dialog.choice or "cancel"
        self.dialog.close()
        self.dialog.deleteLater()
        self.deleteLater()

    def finished(self, outcome: JobOutcome) -> None:
        if outcome.status == "cancelled" or self.dialog.choice:
            return
        if outcome.status == "done":
            self.dialog.show_review(outcome.result)
            return
        self.dialog.choice = "failed"
        self.dialog.close()
        # A file that is no readable picture (or a reader bug, named by its type): one line.
        line = outcome.error.strip().splitlines()[0] if outcome.error.strip() else "reading failed"
        self.files.report_error("Cannot import", line if self.name in line else f"{self.name}: {line}")

    def chosen(self, choice: str) -> None:
        if choice == "cancel":
            self.job.cancel()
            self.files.window.statusBar().showMessage(f"Import of {self.name} cancelled", 5000)
            return
        review = self.dialog.review
        if review is None or review.puzzle is None:
            return
        note = ""
        if choice == "edit":
            note = f"read: {review.summary}" if review.ok else f"looks wrong: {review.summary}"
        self.files.use_import(self.kind, self.name, review.puzzle, note)


def describe_error(exc: BaseException) -> str:
    """One readable line for an unexpected error (the type says what went wrong in a bug)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
