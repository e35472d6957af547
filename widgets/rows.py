"""A row of widgets from the left, the rest of its width empty: the panels' button rows."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QWidget


def left_row(*items: QWidget | int) -> QHBoxLayout:
    """``items`` left to right (an int is a gap of that many pixels), then a stretch."""
    row = QHBoxLayout()
    for item in items:
        if isinstance(item, int):
            row.addSpacing(item)
        else:
            row.addWidget(item)
    row.addStretch(1)
    return row
