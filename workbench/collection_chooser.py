"""Which puzzle of a file of several (a level pack) File > Open shows: a list to pick from."""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QWidget


def choose_puzzle(parent: QWidget, name: str, lines: list[str]) -> int | None:
    """The index of the puzzle picked from ``lines`` (one per puzzle), None if cancelled."""
    picked, ok = QInputDialog.getItem(
        parent, "Open puzzle", f"{name} holds {len(lines)} puzzles. Open:", lines, 0, False
    )
    return lines.index(picked) if ok and picked in lines else None
