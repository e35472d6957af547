"""A chess-program style move list for game plug-ins (capability GAME), shared by every game panel.

The game record lives in the document's entries, so every step here (go to a move, play another move
from an earlier position, which drops the later ones) is an ordinary undoable edit. The plug-in
supplies two Qt-free methods:

- ``record_moves(puzzle, entries) -> (texts, shown)``: every move of the record in the module's
  notation, and how many of them are played on the board;
- ``record_goto(puzzle, entries, ply) -> entries``: the same record shown after ``ply`` moves
  (``entries.goto(ply)`` for entries built on ``solvers.common.game.GameRecord``).

``serialize_document(puzzle, entries)`` writes the whole record (the text copied to the clipboard).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from solvers.common.protocol import EditResult
from widgets.rows import left_row

GOTO_MERGE = "move-list-goto"  # consecutive steps through the list are one undo step


def has_record(plugin: Any) -> bool:
    return callable(getattr(plugin, "record_moves", None)) and callable(getattr(plugin, "record_goto", None))


class MoveList(QWidget):
    """Moves of the game; the selected row is the position on the board (row 0: the set-up)."""

    analyse_requested = Signal()  # "Analyse this position": the panel analyses the shown position

    def __init__(self, ctx: Any, parent: QWidget | None = None, *, can_analyse: bool = True) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.texts: list[str] = []
        self.shown = 0

        self.list = QListWidget()
        self.list.setAccessibleName("Moves")
        self.list.setToolTip(
            "Every move of the game. Click a move to see the position after it; playing another "
            "move there replaces the later ones (Undo brings them back)."
        )
        self.list.currentRowChanged.connect(self._row_changed)
        self.first_button = _button("|◀", "Go to the set-up position (Home)", lambda: self.goto(0))
        self.back_button = _button("◀", "One move back (keeps the later moves)", lambda: self.step(-1))
        self.forward_button = _button("▶", "One move forward", lambda: self.step(1))
        self.last_button = _button("▶|", "Go to the last move (End)", lambda: self.goto(len(self.texts)))
        self.copy_button = QPushButton("Copy record")
        self.copy_button.setToolTip("Copy the set-up and every move as text (the saved file's format)")
        self.copy_button.clicked.connect(self.copy_record)
        self.analyse_button = QPushButton("Analyse this position")
        self.analyse_button.setToolTip("Analyse the position shown on the board")
        self.analyse_button.clicked.connect(self.analyse_requested)
        self.analyse_button.setVisible(can_analyse)
        self.summary = QLabel()
        self.summary.setAccessibleName("Move list summary")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.list, 1)
        layout.addLayout(left_row(self.first_button, self.back_button, self.forward_button, self.last_button))
        layout.addLayout(left_row(self.copy_button, self.analyse_button))
        for key, slot in (
            (Qt.Key.Key_Home, lambda: self.goto(0)),
            (Qt.Key.Key_End, lambda: self.goto(len(self.texts))),
        ):
            shortcut = QShortcut(QKeySequence(key), self.list)
            shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(slot)

        ctx.changed.connect(self.refresh)
        self.refresh()

    # ---- state ------------------------------------------------------------------------------
    def refresh(self) -> None:
        plugin = self.ctx.plugin
        texts, self.shown = plugin.record_moves(self.ctx.puzzle(), self.ctx.entries())
        self.list.blockSignals(True)
        if texts != self.texts or self.list.count() != len(texts) + 1:
            # rebuilt only when the record changes: a click that just moves through it keeps its items
            self.texts = texts
            self.list.clear()
            self.list.addItem(QListWidgetItem("Start (set-up position)"))
            for ply, text in enumerate(texts, 1):
                self.list.addItem(QListWidgetItem(f"{ply}. {text}"))
        for row in range(1, self.list.count()):
            later = row > self.shown  # not on the board yet: greyed
            role = self.palette().placeholderText() if later else self.palette().text()
            self.list.item(row).setForeground(role)
        self.list.setCurrentRow(self.shown)
        self.list.blockSignals(False)
        total = len(self.texts)
        ahead = total - self.shown
        self.summary.setText(
            f"{total} move{'s' * (total != 1)}"
            + (f"; showing move {self.shown}, {ahead} later" if ahead else "")
            if total
            else "No moves yet: play on the board (Play mode)."
        )
        self.first_button.setEnabled(self.shown > 0)
        self.back_button.setEnabled(self.shown > 0)
        self.forward_button.setEnabled(ahead > 0)
        self.last_button.setEnabled(ahead > 0)
        self.copy_button.setEnabled(True)

    def _row_changed(self, row: int) -> None:
        if row >= 0 and row != self.shown:  # keyboard navigation in the list
            self.goto(row)

    # ---- actions ----------------------------------------------------------------------------
    def goto(self, ply: int) -> None:
        ply = max(0, min(ply, len(self.texts)))
        if ply == self.shown:
            return
        entries = self.ctx.plugin.record_goto(self.ctx.puzzle(), self.ctx.entries(), ply)
        label = "Go to the set-up" if ply == 0 else f"Go to move {ply}"
        self.ctx.apply(EditResult(entries=entries, label=label, merge_key=GOTO_MERGE))

    def step(self, delta: int) -> None:
        self.goto(self.shown + delta)

    def record_text(self) -> str:
        return str(self.ctx.plugin.serialize_document(self.ctx.puzzle(), self.ctx.entries()))

    def copy_record(self) -> None:
        QGuiApplication.clipboard().setText(self.record_text())
        self.ctx.status(f"Copied the game record ({len(self.texts)} moves) to the clipboard")


def _button(text: str, tip: str, slot: Any) -> QToolButton:
    # Tool buttons: compact glyph buttons (a push button's style minimum is wider than a glyph needs).
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    button.setAccessibleName(tip)
    button.setMinimumWidth(32)
    button.clicked.connect(slot)
    return button


__all__ = ["GOTO_MERGE", "MoveList", "has_record"]
