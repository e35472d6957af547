"""A layout that places widgets left to right and wraps to a new row when the width runs out.

Tool rows use it so that a long row grows downward instead of needing a horizontal scrollbar
(or forcing the window wider) at 1024 px.
"""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 2) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        # Other rows the layout keeps the height of (sizes of items shown at another time, e.g. the
        # other mode's tools): switching between them leaves what is below the layout in place.
        self._reserved: list[list[QSize]] = []
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    # ---- QLayout bookkeeping ------------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 (Qt API)
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt API)
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt API)
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 (Qt API)
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt API)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt API)
        own = self._place(QRect(0, 0, width, 0), move=False)
        return max([own] + [self._height(sizes, width) for sizes in self._reserved])

    def reserve(self, rows: list[list[QSize]]) -> None:
        """Keep at least the height these sets of item sizes would take (each set as its own rows)."""
        self._reserved = [list(sizes) for sizes in rows]
        self.invalidate()

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 (Qt API)
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        # One row of everything: what the layout would like; it accepts less and wraps.
        visible = [i for i in self._items if not i.isEmpty()]
        width = sum(i.sizeHint().width() for i in visible) + self._spacing * max(len(visible) - 1, 0)
        heights = [i.sizeHint().height() for i in visible] + [z.height() for r in self._reserved for z in r]
        height = max(heights, default=0)
        m = self.contentsMargins()
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802 (Qt API)
        # As narrow as the widest single item, so the window never has to grow for a tool row.
        size = QSize(0, 0)
        for item in self._items:
            if not item.isEmpty():
                size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    # ---- placement ----------------------------------------------------------------------------
    def _place(self, rect: QRect, move: bool) -> int:
        """Lay items out in rows inside ``rect``; returns the height used."""
        items = [item for item in self._items if not item.isEmpty()]
        spots = self._spots([item.sizeHint() for item in items], rect)
        if move:
            for item, spot in zip(items, spots, strict=True):
                item.setGeometry(spot)
        m = self.contentsMargins()
        return max((spot.bottom() + 1 for spot in spots), default=rect.y() + m.top()) - rect.y() + m.bottom()

    def _height(self, sizes: list[QSize], width: int) -> int:
        """The height items of these sizes would take at ``width``."""
        m = self.contentsMargins()
        spots = self._spots(sizes, QRect(0, 0, width, 0))
        return max((spot.bottom() + 1 for spot in spots), default=m.top()) + m.bottom()

    def _spots(self, sizes: list[QSize], rect: QRect) -> list[QRect]:
        """Where items of these sizes go, left to right in rows inside ``rect``."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, row_height = area.x(), area.y(), 0
        spots = []
        for hint in sizes:
            width = min(hint.width(), max(area.width(), 1))
            if x > area.x() and x + width > area.x() + area.width():
                x, y = area.x(), y + row_height + self._spacing
                row_height = 0
            spots.append(QRect(QPoint(x, y), QSize(width, hint.height())))
            x += width + self._spacing
            row_height = max(row_height, hint.height())
        return spots
