"""The dialog an unhandled exception shows: what happened, the report to copy, a copy of the puzzle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
)

from solvers.common.errors import InputError
from workbench.files import atomic_write


class CrashDialog(QDialog):
    """Non-modal: the window behind it keeps working, so the user can save and go on or quit."""

    def __init__(self, window: Any, info: Any, report: str, log_file: Path | None) -> None:
        super().__init__(window)
        self.main_window = window
        self.setWindowTitle("Puzzle Workbench: something went wrong")
        self.resize(680, 520)
        layout = QVBoxLayout(self)
        exc_type, exc, _ = info
        self.summary = QLabel(
            f"<b>An internal error interrupted the last action:</b> {exc_type.__name__}: {exc}<br><br>"
            "Your puzzles are still open. To be safe, save a copy before you go on. "
            "Please send the report below with a bug report."
        )
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.report = QPlainTextEdit(report)
        self.report.setReadOnly(True)
        self.report.setFont(QFont("monospace"))
        layout.addWidget(self.report, 1)
        self.log_label = QLabel(f"Log file: {log_file}" if log_file else "No log file could be written.")
        self.log_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.log_label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton("&Copy Report", QDialogButtonBox.ButtonRole.ActionRole)
        self.save_button = buttons.addButton(
            "&Save a Copy of the Puzzle…", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.copy_button.clicked.connect(self.copy_report)
        self.save_button.clicked.connect(self.save_copy_dialog)
        buttons.rejected.connect(self.close)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        layout.addWidget(buttons)

    def add_report(self, report: str) -> None:
        self.report.appendPlainText("\n" + "=" * 60 + "\n" + report)

    def copy_report(self) -> None:
        QGuiApplication.clipboard().setText(self.report.toPlainText())

    def suggested_copy(self) -> Path:
        """``<name>-copy<ext>`` beside the document, or in the home folder for an untitled one."""
        view = self.main_window.current()
        ext = view.plugin.meta.extensions[0]
        path = view.doc.path
        if path is not None:
            return path.with_name(f"{path.stem}-copy{path.suffix or ext}")
        return Path.home() / f"untitled-copy{ext}"

    def save_copy(self, target: Path) -> Path:
        """Write the current document to ``target`` (atomically) without renaming the document:
        the original file stays what the user last saved."""
        view = self.main_window.current()
        text = view.plugin.serialize_document(view.doc.puzzle, view.doc.entries)
        atomic_write(target, text)
        return target

    def save_copy_dialog(self) -> Path | None:
        view = self.main_window.current()
        name, _ = QFileDialog.getSaveFileName(
            self, "Save a copy of the puzzle", str(self.suggested_copy()), view.plugin.meta.dialog_filter()
        )
        if not name:
            return None
        try:
            saved = self.save_copy(Path(name))
        except (InputError, OSError) as exc:
            self.log_label.setText(f"Could not save the copy: {exc}")
            return None
        except Exception as exc:  # the document itself may be what broke: say so, do not recurse
            self.log_label.setText(f"Could not save the copy ({type(exc).__name__}: {exc})")
            return None
        self.log_label.setText(f"Saved a copy: {saved}")
        return saved
