"""A layout that places widgets left to right and wraps to a new row when the width runs out.

Tool rows use it so that a long row grows downward instead of needing a horizontal scrollbar
(or forcing the window wider) at 1024 px. With a row limit (``max_rows``) and an overflow widget
(``set_overflow``), the items that do not fit wait behind that widget (a "More" menu) instead of
taking more rows from the board below.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget, QWidgetItem


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 2) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        # Other rows the layout keeps the height of (sizes of items shown at another time, e.g. the
        # other mode's tools): switching between them moves what is below the layout by one row at most.
        self._reserved: list[list[QSize]] = []
        self.keep = 0  # the first items never wait behind the overflow widget (the Edit/Play switch)
        self.max_rows = 0  # 0: as many rows as the items need
        self._overflow: QWidget | None = None
        self._overflow_size: Callable[[list[QWidget]], QSize] = lambda _waiting: QSize()
        self._on_split: Callable[[list[QWidget]], None] = lambda _waiting: None
        self._parked: list[QWidget] = []  # widgets hidden by the last placement (behind the overflow)
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    # ---- QLayout bookkeeping ------------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 (Qt API)
        self._items.append(item)

    def insert_first(self, widget: QWidget) -> None:
        """``widget`` before every other item (it starts the first row)."""
        self.addChildWidget(widget)
        self._items.insert(0, QWidgetItem(widget))
        self.invalidate()

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
        rect = QRect(0, 0, width, 0)
        _shown, rows = self._plan(rect)
        # The other mode's rows are kept, but at most one row more than these items take: a tall
        # Edit palette left an empty band of up to 190 px above the board in Play mode.
        limit = len(rows) + 1 if not self.max_rows else min(len(rows) + 1, self.max_rows)
        lead = [size for _item, size in self._entries()[: self.keep]]
        kept = [self._rows(lead + sizes, rect)[:limit] for sizes in self._reserved]
        return max(self._bottom(r) for r in [rows, *kept])

    def reserve(self, rows: list[list[QSize]]) -> None:
        """Keep at least the height these sets of item sizes would take (each set as its own rows)."""
        self._reserved = [list(sizes) for sizes in rows]
        self.invalidate()

    def set_overflow(
        self,
        widget: QWidget,
        size_for: Callable[[list[QWidget]], QSize],
        on_split: Callable[[list[QWidget]], None],
    ) -> None:
        """``widget`` ends the last row when items do not fit in ``max_rows``; ``size_for(waiting)``
        is its size while those widgets wait behind it, ``on_split(waiting)`` hears each change."""
        self._overflow, self._overflow_size, self._on_split = widget, size_for, on_split
        widget.hide()
        self.invalidate()

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 (Qt API)
        super().setGeometry(rect)
        shown, rows = self._plan(rect)
        spots = [spot for row in rows for spot in row]
        entries = self._entries()
        for (item, _size), spot in zip(entries[:shown], spots, strict=False):
            item.setGeometry(spot)
        waiting = [w for item, _ in entries[shown:] if (w := item.widget()) is not None]
        present = [w for item in self._items if (w := item.widget()) is not None]
        for widget in self._parked:
            if widget not in waiting and any(widget is w for w in present):  # not one taken out
                widget.show()
        for widget in waiting:
            widget.hide()
        changed = waiting != self._parked
        self._parked = waiting
        if self._overflow is not None:
            if waiting:  # its own width inside a spot as wide as it ever gets
                spot = spots[-1]
                self._overflow.setGeometry(
                    spot.adjusted(0, 0, min(self._overflow.sizeHint().width() - spot.width(), 0), 0)
                )
            self._overflow.setVisible(bool(waiting))
        if changed:
            self._on_split(waiting)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        # One row of everything: what the layout would like; it accepts less and wraps.
        sizes = [size for _item, size in self._entries()]
        width = sum(s.width() for s in sizes) + self._spacing * max(len(sizes) - 1, 0)
        heights = [s.height() for s in sizes] + [z.height() for r in self._reserved for z in r]
        height = max(heights, default=0)
        m = self.contentsMargins()
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802 (Qt API)
        # As narrow as the widest single item, so the window never has to grow for a tool row.
        size = QSize(0, 0)
        for item, hint in self._entries():
            size = size.expandedTo(item.minimumSize() if item.widget() is None else hint)
        if self._overflow is not None:
            size = size.expandedTo(self._overflow.minimumSizeHint())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    # ---- placement ----------------------------------------------------------------------------
    def _entries(self) -> list[tuple[QLayoutItem, QSize]]:
        """The items to place with their sizes: a widget hidden by its owner takes no room, one
        waiting behind the overflow widget still counts (it may fit at another width)."""
        out = []
        for item in self._items:
            widget = item.widget()
            if widget is None:
                if not item.isEmpty():
                    out.append((item, item.sizeHint()))
            elif widget in self._parked or not widget.isHidden():
                out.append((item, widget.sizeHint()))
            elif not widget.testAttribute(Qt.WidgetAttribute.WA_WState_ExplicitShowHide):
                out.append((item, widget.sizeHint()))  # not shown yet: a new child of a shown parent
        return out

    def _plan(self, rect: QRect) -> tuple[int, list[list[QRect]]]:
        """How many items show inside ``rect`` and where, row by row; the last spot is the
        overflow widget's when some items wait behind it."""
        entries = self._entries()
        sizes = [size for _item, size in entries]
        rows = self._rows(sizes, rect)
        if self._overflow is None or not self.max_rows or len(rows) <= self.max_rows:
            return len(sizes), rows
        shown = len(sizes)
        for shown in range(len(sizes) - 1, self.keep - 1, -1):
            waiting = [w for item, _ in entries[shown:] if (w := item.widget()) is not None]
            rows = self._rows(sizes[:shown] + [self._overflow_size(waiting)], rect)
            if len(rows) <= self.max_rows:
                break
        return shown, rows

    def _bottom(self, rows: list[list[QRect]]) -> int:
        m = self.contentsMargins()
        return max((spot.bottom() + 1 for row in rows for spot in row), default=m.top()) + m.bottom()

    def _rows(self, sizes: list[QSize], rect: QRect) -> list[list[QRect]]:
        """Where items of these sizes go, left to right in rows inside ``rect``, each centred
        vertically in its row (a radio button beside taller tool buttons)."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        rows: list[list[QRect]] = []
        x, y = area.x(), area.y()
        for hint in sizes:
            width = min(hint.width(), max(area.width(), 1))
            if not rows or x > area.x() and x + width > area.x() + area.width():
                if rows:
                    y += _height(rows[-1]) + self._spacing
                x = area.x()
                rows.append([])
            rows[-1].append(QRect(QPoint(x, y), QSize(width, hint.height())))
            x += width + self._spacing
        for row in rows:
            height = _height(row)
            for spot in row:
                spot.translate(0, (height - spot.height()) // 2)
        return rows


def _height(row: list[QRect]) -> int:
    return max(spot.height() for spot in row)
