"""Solution browser: a virtualised list of solutions with lazily rendered thumbnails.

Solutions stream in from a background job in batches; thumbnails are only rendered for rows the
view actually shows, so browsing thousands of solutions stays cheap.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QLabel, QListView, QStyle, QVBoxLayout, QWidget

from solvers.common.display import DisplayList
from solvers.common.palette import LIGHT, Palette
from solvers.common.protocol import Solution
from widgets.hidpi import screen_ratio, sharp_pixmap
from widgets.render import ExportOptions, render_image

THUMB = 96
BASE_GRID = (THUMB + 18, THUMB + 26)  # the smallest grid cell: a thumbnail and one short caption line
MAX_CAPTION = 2 * THUMB  # a wider caption line elides in the middle; its tooltip has the whole text
RENDER_BUDGET = 0.012  # seconds of thumbnail rendering per event-loop turn
MAX_KEPT = 10_000  # the list keeps this many; later solutions are only counted (layout cost and memory)
Index = QModelIndex | QPersistentModelIndex


def thumbnail_caption(row: int, solution: Solution) -> str:
    """'Solution 3', or the solver's own label ('Best: 42 points') numbered once, never twice."""
    label = solution.label.strip()
    if not label:
        return f"Solution {row + 1}"
    if label.lower().startswith("solution"):
        return label
    return f"{row + 1}. {label}"


class SolutionModel(QAbstractListModel):
    def __init__(self, render: Callable[[Solution], DisplayList], parent: Any = None) -> None:
        super().__init__(parent)
        self.render = render
        self.solutions: list[Solution] = []
        self.palette: Palette = LIGHT
        self._icons: dict[int, QIcon] = {}
        self._queue: list[int] = []
        # Thumbnails render a few at a time between events, so a screenful never stalls the GUI.
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._render_some)
        # A blank icon of full size: the view caches item sizes (uniformItemSizes) from the first row.
        blank = QPixmap(THUMB, THUMB)
        blank.fill(Qt.GlobalColor.transparent)
        self._placeholder = QIcon(blank)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802,B008 (Qt API)
        return 0 if parent.isValid() else len(self.solutions)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self.solutions):
            return None
        row = index.row()
        solution = self.solutions[row]
        if role == Qt.ItemDataRole.DisplayRole:
            return thumbnail_caption(row, solution)
        if role == Qt.ItemDataRole.DecorationRole:
            icon = self._icons.get(row)
            if icon is None:
                if row not in self._queue:
                    self._queue.append(row)
                    self._timer.start()
                return self._placeholder
            return icon
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join([thumbnail_caption(row, solution), *solution.grid[:20]])
        return None

    def _render_some(self) -> None:
        deadline = time.perf_counter() + RENDER_BUDGET
        done: list[int] = []
        while self._queue and time.perf_counter() < deadline:
            row = self._queue.pop(0)
            if row < len(self.solutions) and row not in self._icons:
                pixmap = self._thumbnail(self.solutions[row])
                icon = QIcon(pixmap)
                icon.addPixmap(pixmap, QIcon.Mode.Selected)  # the selection frame marks it, not a wash
                self._icons[row] = icon
                done.append(row)
        for row in done:
            index = self.index(row)
            self.dataChanged.emit(index, index, [Qt.ItemDataRole.DecorationRole])
        if not self._queue:
            self._timer.stop()

    def _thumbnail(self, solution: Solution) -> QPixmap:
        dl = self.render(solution)
        # Rendered with the screen's pixel ratio: a ratio-1 picture was stretched (blurred) at 200 %.
        ratio = screen_ratio()
        side = round(THUMB * ratio)
        # Fit the whole drawing (boards with trays or hands are not square) into THUMB pixels.
        grid_cell = dl.grid.cell if dl.grid is not None else 40.0
        cell = (side - 4 * ratio) * grid_cell / max(dl.width, dl.height, 1.0)
        options = ExportOptions(cell_size=cell, margin=2 * ratio, palette=self.palette.name)
        pixmap = QPixmap.fromImage(render_image(dl, options)).scaled(
            side, side, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
        # Centred in a square: the view lays an item out by its picture's own size, so a wide board's
        # caption got the height the picture left free (a selected caption was a 100x50 px block).
        square = sharp_pixmap(THUMB, THUMB, ratio)
        square.fill(Qt.GlobalColor.transparent)
        pixmap.setDevicePixelRatio(ratio)
        size = pixmap.deviceIndependentSize()
        painter = QPainter(square)
        painter.drawPixmap(QPointF((THUMB - size.width()) / 2, (THUMB - size.height()) / 2), pixmap)
        painter.end()
        return square

    def append(self, batch: list[Solution]) -> None:
        if not batch:
            return
        start = len(self.solutions)
        self.beginInsertRows(QModelIndex(), start, start + len(batch) - 1)
        self.solutions.extend(batch)
        self.endInsertRows()

    def clear(self) -> None:
        self.beginResetModel()
        self.solutions = []
        self._icons = {}
        self._queue = []
        self.endResetModel()

    def redraw(self) -> None:
        """Draw the thumbnails again (the puzzle's drawing changed), keeping rows and selection."""
        self._icons = {}
        self._queue = []
        if self.solutions:
            self.dataChanged.emit(
                self.index(0), self.index(len(self.solutions) - 1), [Qt.ItemDataRole.DecorationRole]
            )

    def set_palette(self, palette: Palette) -> None:
        self.beginResetModel()
        self.palette = palette
        self._icons = {}
        self._queue = []
        self.endResetModel()


class SolutionBrowser(QWidget):
    """Status line + thumbnail list. Emits ``selected(solution or None)``."""

    selected = Signal(object)

    def __init__(self, render: Callable[[Solution], DisplayList], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = SolutionModel(render, self)
        self.status = QLabel("Press Solve (F5) to search for solutions.")
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Solver status")
        self.view = QListView()
        self.view.setModel(self.model)
        self.view.setViewMode(QListView.ViewMode.IconMode)
        self.view.setIconSize(QSize(THUMB, THUMB))
        self.view.setGridSize(QSize(*BASE_GRID))
        self.view.setResizeMode(QListView.ResizeMode.Adjust)
        self.view.setUniformItemSizes(True)
        self.view.setLayoutMode(QListView.LayoutMode.Batched)  # lay out long lists in slices: no stall
        self.view.setBatchSize(200)
        self.view.setMovement(QListView.Movement.Static)
        # One caption line is one line: a wrapped line overflowed the cell and elided oddly
        # ("1. Num…link …"); the grid grows to fit the captions instead (``_fit_captions``).
        self.view.setWordWrap(False)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # long labels keep both ends
        self.view.setAccessibleName("Solutions")
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.status)
        layout.addWidget(self.view, 1)
        self.total = 0  # solutions received, including those beyond MAX_KEPT
        self._caption_room = (0, 1)  # (widest caption line in pixels, most lines) of the list so far

    def _fit_captions(self, first_row: int, batch: list[Solution]) -> None:
        """Grow the grid cell so every caption line shows whole (up to ``MAX_CAPTION`` pixels) and
        every line of a multi-line caption has room (Nine Tiles: the town code, then its scores)."""
        metrics = self.view.fontMetrics()
        # the item delegate keeps this margin on each side of the text (QCommonStyle's textMargin)
        margin = 2 * (
            self.view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.view) + 1
        )
        widest, lines = self._caption_room
        for row, solution in enumerate(batch, first_row):
            parts = thumbnail_caption(row, solution).splitlines() or [""]
            lines = max(lines, len(parts))
            widest = max(widest, *(metrics.horizontalAdvance(part) for part in parts))
        if (widest, lines) == self._caption_room:
            return
        self._caption_room = (widest, lines)
        width = max(BASE_GRID[0], min(widest + margin + 6, MAX_CAPTION))
        height = max(BASE_GRID[1], THUMB + 12 + lines * metrics.lineSpacing())
        if (width, height) != self.view.gridSize().toTuple():
            self.view.setGridSize(QSize(width, height))

    def row_shown(self, solution: Solution | None) -> int | None:
        """The list's current row if ``solution`` is the one listed there (0-based), else None."""
        row = self.view.currentIndex().row()
        listed = self.model.solutions
        return row if 0 <= row < len(listed) and listed[row] is solution else None

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and current.row() < len(self.model.solutions):
            self.selected.emit(self.model.solutions[current.row()])

    def clear(self, status: str = "") -> None:
        self.total = 0
        self.model.clear()
        self._caption_room = (0, 1)
        self.view.setGridSize(QSize(*BASE_GRID))
        if status:
            self.status.setText(status)

    def add(self, batch: list[Solution]) -> None:
        first = not self.model.solutions
        self.total += len(batch)
        room = MAX_KEPT - len(self.model.solutions)
        kept = batch[: max(room, 0)]
        self._fit_captions(len(self.model.solutions), kept)
        self.model.append(kept)
        if first and batch:
            self.view.setCurrentIndex(self.model.index(0))

    def select(self, row: int) -> None:
        self.view.setCurrentIndex(self.model.index(row))

    def forget_current(self) -> None:
        """No row is current (the board shows the puzzle): a click on the row shown before shows it
        again, which it did not while the row stayed current."""
        self.view.setCurrentIndex(QModelIndex())
        self.view.clearSelection()

    def count(self) -> int:
        return len(self.model.solutions)
