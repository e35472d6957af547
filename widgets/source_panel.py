"""The puzzle's native text, editable: Apply parses it (errors name line and column)."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from solvers.common.errors import InputError, ParseError
from solvers.common.protocol import EditResult
from widgets.panel_api import PanelContext


class SourcePanel(QWidget):
    def __init__(self, ctx: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.editor = QPlainTextEdit()
        self.editor.setAccessibleName("Puzzle text")
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.editor.setFont(font)
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.apply_button = QPushButton("Apply")
        self.apply_button.setToolTip("Replace the puzzle with this text (one undo step)")
        self.apply_button.clicked.connect(self.apply_text)
        self.revert_button = QPushButton("Revert")
        self.revert_button.clicked.connect(self.reload)
        buttons = QHBoxLayout()
        buttons.addWidget(self.message, 1)
        buttons.addWidget(self.revert_button)
        buttons.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.editor, 1)
        layout.addLayout(buttons)
        ctx.changed.connect(self.reload)  # type: ignore[attr-defined]
        self.reload()

    def reload(self) -> None:
        text = self.ctx.plugin.serialize_document(self.ctx.puzzle(), self.ctx.entries())
        if text != self.editor.toPlainText():
            self.editor.setPlainText(text)
        self.message.setText("")

    def apply_text(self) -> None:
        try:
            puzzle, entries = self.ctx.plugin.parse_document(self.editor.toPlainText())
        except ParseError as exc:
            self.message.setText(f"<span style='color:#d0312d'>{exc}</span>")
            if exc.line is not None:
                block = self.editor.document().findBlockByLineNumber(exc.line - 1)
                cursor = self.editor.textCursor()
                cursor.setPosition(block.position() + max((exc.column or 1) - 1, 0))
                self.editor.setTextCursor(cursor)
            return
        except InputError as exc:
            self.message.setText(f"<span style='color:#d0312d'>{exc}</span>")
            return
        if entries is None:
            entries = self.ctx.plugin.empty_entries(puzzle)
        self.ctx.apply(EditResult(puzzle=puzzle, entries=entries, label="Edit text"))
        self.message.setText("Applied.")
