"""The board canvas: paints a plug-in's display list and turns mouse/keys into ``EditEvent`` values.

It knows nothing about any puzzle: drawing comes from ``plugin.draw`` and editing from
``plugin.edit`` (Tatham's interpret_move), wired by ``workbench.document_view``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QFocusEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QPolygonF,
    QWheelEvent,
)
from PySide6.QtWidgets import QMenu, QScrollArea, QSizePolicy, QWidget

from solvers.common.display import DisplayList
from solvers.common.palette import LIGHT, Palette
from solvers.common.protocol import ContextAction, EditEvent
from widgets.painter import paint_display_list, qcolor

_BUTTONS = {
    Qt.MouseButton.LeftButton: "left",
    Qt.MouseButton.RightButton: "right",
    Qt.MouseButton.MiddleButton: "middle",
}
_ARROWS = {
    Qt.Key.Key_Up: (-1, 0),
    Qt.Key.Key_Down: (1, 0),
    Qt.Key.Key_Left: (0, -1),
    Qt.Key.Key_Right: (0, 1),
}


def key_name(event: QKeyEvent) -> str:
    """'Up', 'Delete', 'A', '3', 'Space'... : Qt's key name without the Key_ prefix."""
    key = Qt.Key(event.key())
    name = key.name if hasattr(key, "name") else str(key)
    name = name.removeprefix("Key_")
    if len(name) == 1 or name.isdigit():
        return event.text() or name
    return name


Cell = tuple[int, int]


def _is_stop(dl: DisplayList, cell: Cell) -> bool:
    return dl.stops is None or cell in dl.stops


def cursor_home(dl: DisplayList, cell: Cell | None) -> Cell | None:
    """Where the keyboard cursor sits on ``dl``: ``cell`` (R1C1 at first) if the cursor may stop
    there, else the stop nearest to it (a drawing's ``stops`` leave out cells where no key does
    anything); None without a grid."""
    g = dl.grid
    if g is None:
        return cell
    cell = cell if cell is not None else (0, 0)
    if _is_stop(dl, cell) or not dl.stops:
        return cell
    x, y = g.center(*cell)
    return min(sorted(dl.stops), key=lambda s: (g.center(*s)[0] - x) ** 2 + (g.center(*s)[1] - y) ** 2)


def cursor_step(dl: DisplayList, cell: Cell, move: Cell) -> Cell:
    """The cursor's next stop from ``cell`` in direction ``move``: left/right the next stop of the
    row, up/down the nearest stop of the next row that has one (offset rows: hexes; ties keep the
    column); ``cell`` itself at the edge (a cursor off a smaller grid comes back onto it)."""
    g = dl.grid
    if g is None:
        return cell
    r, c = min(max(cell[0], 0), g.rows - 1), min(max(cell[1], 0), g.cols - 1)
    if (r, c) != cell:
        return r, c
    if move[0] == 0:
        steps = range(c + move[1], -1 if move[1] < 0 else g.cols, move[1])
        return next(((r, k) for k in steps if _is_stop(dl, (r, k))), cell)
    x = g.center(r, c)[0]
    for nr in range(r + move[0], -1 if move[0] < 0 else g.rows, move[0]):
        row = [k for k in range(g.cols) if _is_stop(dl, (nr, k))]
        if row:
            return nr, min(row, key=lambda k: (round(abs(g.center(nr, k)[0] - x), 6), k != c))
    return cell


def _modifiers(mods: Qt.KeyboardModifier) -> frozenset[str]:
    out = set()
    if mods & Qt.KeyboardModifier.ShiftModifier:
        out.add("shift")
    if mods & Qt.KeyboardModifier.ControlModifier:
        out.add("ctrl")
    if mods & Qt.KeyboardModifier.AltModifier:
        out.add("alt")
    return frozenset(out)


class BoardView(QWidget):
    """Paints ``source()`` (a callable returning the current display list) and emits edits."""

    edit_event = Signal(object)  # EditEvent
    drag_finished = Signal()
    hovered = Signal(object)  # logical (x, y) under a resting pointer, or None when it leaves
    dragged = Signal(object)  # logical (x, y) on every move of a drag; None when it ends
    context_chosen = Signal(object, str)  # cell, key of the chosen ContextAction
    zoom_requested = Signal(float, object)  # factor, anchor point (widget coordinates)
    pan_requested = Signal(object)  # QPointF: how far the pointer moved while middle-dragging

    def __init__(self, source: Callable[[], DisplayList], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.palette_: Palette = LIGHT
        self.tool = ""
        self.mode = "edit"
        self.cursor_cell: tuple[int, int] | None = None
        self.show_cursor = True
        self._dl: DisplayList | None = None
        self._cache: QPixmap | None = None
        self._cache_key: tuple[object, ...] | None = None
        self._cache_dl: DisplayList | None = None  # keeps the keyed list alive so its id stays unique
        self.last_render_seconds = 0.0
        self.renders = 0  # full renders of the display list (repaints from the cache are free)
        self._pan_from: QPointF | None = None
        self._scale = 1.0
        self._origin = QPointF(0, 0)
        self._dragging = False
        self._last_drag_cell: tuple[int, int] | None = None
        # Right-click menu provider (the document view asks the plug-in); empty list = plain press.
        self.context_actions: Callable[[EditEvent], list[ContextAction]] = lambda _event: []
        self.menu: QMenu | None = None
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)  # hover info (e.g. Nine Tiles roads)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(240, 240)
        self.setAccessibleName("Board")

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        return QSize(560, 560)

    def zoomed(self) -> bool:
        area = self.parentWidget()
        return isinstance(area, QWidget) and (
            self.width() > area.width() + 1 or self.height() > area.height() + 1
        )

    # ---- drawing ----------------------------------------------------------------------------
    def refresh(self) -> None:
        self._dl = None
        self.update()

    def display_list(self) -> DisplayList:
        if self._dl is None:
            self._dl = self.source()
            if self.cursor_cell is not None:  # the drawing's stops may have moved under the cursor
                self.cursor_cell = cursor_home(self._dl, self.cursor_cell)
        return self._dl

    def set_palette(self, palette: Palette) -> None:
        self.palette_ = palette
        self.update()

    def _layout(self, dl: DisplayList) -> QRectF:
        """Where the drawing goes: scale and origin for the current size (also used by hit tests)."""
        target = QRectF(self.rect()).adjusted(12, 12, -12, -12)
        if dl.width > 0 and dl.height > 0:
            self._scale = min(target.width() / dl.width, target.height() / dl.height)
            self._origin = QPointF(
                target.x() + (target.width() - dl.width * self._scale) / 2,
                target.y() + (target.height() - dl.height * self._scale) / 2,
            )
        return target

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        dl = self.display_list()
        target = self._layout(dl)
        # Only the visible part (the board may be zoomed far beyond the window) is rendered, once:
        # hover, focus and cursor repaints reuse the cached pixmap, drawn at the screen's pixel ratio.
        visible = self.visibleRegion().boundingRect()
        if visible.isEmpty():
            visible = self.rect()
        ratio = self.devicePixelRatioF()
        key = (id(dl), self.palette_.name, ratio, self.size().toTuple(), visible.getRect())
        if self._cache is None or self._cache_key != key or self._cache_dl is not dl:
            self._cache = self._render(dl, target, visible, ratio)
            self._cache_key, self._cache_dl = key, dl
        painter = QPainter(self)
        try:
            painter.drawPixmap(visible.topLeft(), self._cache)
            self._paint_cursor(painter, dl)
        finally:
            painter.end()

    def _render(self, dl: DisplayList, target: QRectF, visible: QRect, ratio: float) -> QPixmap:
        start = time.perf_counter()
        pixmap = QPixmap((visible.size().toSizeF() * ratio).toSize())
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(qcolor(self.palette_, "background"))
        painter = QPainter(pixmap)
        try:
            painter.translate(-visible.x(), -visible.y())
            paint_display_list(painter, dl, target, self.palette_, background=False)
        finally:
            painter.end()
        self.last_render_seconds = time.perf_counter() - start
        self.renders += 1
        return pixmap

    def _paint_cursor(self, painter: QPainter, dl: DisplayList) -> None:
        if not (self.show_cursor and self.hasFocus() and dl.grid and self.cursor_cell):
            return
        r, c = self.cursor_cell
        if not (0 <= r < dl.grid.rows and 0 <= c < dl.grid.cols):
            return
        g = dl.grid
        pen = QPen(qcolor(self.palette_, "accent"))
        pen.setWidthF(2.0)
        pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        corners = getattr(g, "corners", None)  # a non-square geometry (Flow hexes) outlines its cell
        if corners is not None:
            cx, cy = g.center(r, c)
            outline = [self.to_widget(cx + (x - cx) * 0.88, cy + (y - cy) * 0.88) for x, y in corners(r, c)]
            painter.drawPolygon(QPolygonF(outline))
            return
        x = self._origin.x() + (g.x0 + c * g.cell) * self._scale
        y = self._origin.y() + (g.y0 + r * g.cell) * self._scale
        size = g.cell * self._scale
        painter.drawRect(QRectF(x + 2, y + 2, size - 4, size - 4))

    # ---- coordinates ------------------------------------------------------------------------
    def to_logical(self, pos: QPointF) -> tuple[float, float]:
        s = self._scale or 1.0
        return ((pos.x() - self._origin.x()) / s, (pos.y() - self._origin.y()) / s)

    def to_widget(self, x: float, y: float) -> QPointF:
        """Widget coordinates of logical display-list point (x, y)."""
        return QPointF(self._origin.x() + x * self._scale, self._origin.y() + y * self._scale)

    def cell_at(self, pos: QPointF) -> tuple[int, int] | None:
        dl = self.display_list()
        self._layout(dl)
        if dl.grid is None:
            return None
        return dl.grid.cell_at(*self.to_logical(pos))

    def cell_center(self, r: int, c: int) -> QPointF:
        """Widget coordinates of a cell's centre (used by tests and tooltips)."""
        dl = self.display_list()
        assert dl.grid is not None
        self._layout(dl)
        x, y = dl.grid.center(r, c)
        return QPointF(self._origin.x() + x * self._scale, self._origin.y() + y * self._scale)

    # ---- input ------------------------------------------------------------------------------
    def _event(
        self, kind: str, pos: QPointF, button: str, mods: Qt.KeyboardModifier, **extra: object
    ) -> EditEvent:
        return EditEvent(
            kind=kind,  # type: ignore[arg-type]
            tool=self.tool,
            mode=self.mode,  # type: ignore[arg-type]
            cell=self.cell_at(pos),
            pos=self.to_logical(pos),
            button=button,  # type: ignore[arg-type]
            modifiers=_modifiers(mods),
            **extra,  # type: ignore[arg-type]
        )

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        self.setFocus()
        if event.button() == Qt.MouseButton.MiddleButton and self.zoomed():
            self._pan_from = event.globalPosition()  # middle-drag pans a zoomed board
            return
        button = _BUTTONS.get(event.button(), "")
        pos = event.position()
        cell = self.cell_at(pos)
        if cell is not None:
            self.cursor_cell = cell
        press = self._event("press", pos, button, event.modifiers())
        if button == "right" and self._open_menu(press, event.globalPosition().toPoint()):
            self.update()
            return
        self._dragging = True
        self._last_drag_cell = cell
        self.edit_event.emit(press)
        self.update()

    def _open_menu(self, press: EditEvent, where: QPoint) -> bool:
        actions = self.context_actions(press)
        if not actions:
            return False
        self.menu = QMenu(self)
        for action in actions:
            chosen = self.menu.addAction(action.label)
            chosen.triggered.connect(
                lambda _checked=False, key=action.key: self.context_chosen.emit(press.cell, key)
            )
        self.menu.popup(where)
        return True

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        if self._pan_from is not None:
            delta = event.globalPosition() - self._pan_from
            self._pan_from = event.globalPosition()
            self.pan_requested.emit(delta)
            return
        if not self._dragging:
            self.hovered.emit(self.to_logical(event.position()))
            return
        pos = event.position()
        button = (
            "left"
            if event.buttons() & Qt.MouseButton.LeftButton
            else ("right" if event.buttons() & Qt.MouseButton.RightButton else "")
        )
        ev = self._event("drag", pos, button, event.modifiers())
        self.dragged.emit(ev.pos)
        # Cell-based editors only care about cell changes; edge-based ones get every move.
        if ev.cell != self._last_drag_cell or ev.cell is None:
            self._last_drag_cell = ev.cell
            self.edit_event.emit(ev)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        if self._pan_from is not None and event.button() == Qt.MouseButton.MiddleButton:
            self._pan_from = None
            return
        if not self._dragging:
            return
        self._dragging = False
        button = _BUTTONS.get(event.button(), "")
        self.edit_event.emit(self._event("release", event.position(), button, event.modifiers()))
        self.drag_finished.emit()

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt API)
        self.hovered.emit(None)
        super().leaveEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt API)
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() / 120
            if steps:
                self.zoom_requested.emit(1.25**steps, event.position())
            return
        steps = event.angleDelta().y() // 120
        if steps:
            self.edit_event.emit(self._event("wheel", event.position(), "", event.modifiers(), delta=steps))

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt API)
        # The keyboard cursor shows as soon as the board has the keys: it appeared only with the
        # first key, which already acted on R1C1 unseen (Enter removed an endpoint there).
        if self.cursor_cell is None and self.display_list().grid is not None:
            self.cursor_cell = cursor_home(self.display_list(), None)
        super().focusInEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        dl = self.display_list()
        if self.cursor_cell is None and dl.grid is not None:
            self.cursor_cell = cursor_home(dl, None)
        name = key_name(event)
        ev = EditEvent(
            kind="key",
            tool=self.tool,
            mode=self.mode,  # type: ignore[arg-type]
            cell=self.cursor_cell,
            key=name,
            modifiers=_modifiers(event.modifiers()),
        )
        self._key_handled = False
        self.edit_event.emit(ev)
        if self._key_handled:
            return
        move = _ARROWS.get(Qt.Key(event.key()))
        if move and dl.grid is not None and self.cursor_cell is not None:
            self.cursor_cell = cursor_step(dl, self.cursor_cell, move)
            self.update()
            return
        super().keyPressEvent(event)

    def mark_key_handled(self) -> None:
        """Called by the document view when the plug-in used the last key."""
        self._key_handled = True


class BoardArea(QScrollArea):
    """The board with zoom and pan: zoom 1 fits the whole board in the window ("fit"); above 1
    the board grows past the window and scroll bars (or a middle-drag) move it."""

    MAX_ZOOM = 8.0

    def __init__(self, board: BoardView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.board = board
        self.zoom = 1.0
        self.setWidget(board)
        self.setWidgetResizable(False)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(240, 240)
        board.setMinimumSize(0, 0)
        board.zoom_requested.connect(self.zoom_by)
        board.pan_requested.connect(self._pan)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        return self.board.sizeHint()

    def set_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Zoom to ``zoom`` (1 = fit), keeping the board point under ``anchor`` where it is."""
        zoom = min(max(zoom, 1.0), self.MAX_ZOOM)
        view = self.viewport().size()
        if anchor is None:
            anchor = QPointF(
                self.board.mapFrom(self.viewport(), QPoint(view.width() // 2, view.height() // 2))
            )
        fx = anchor.x() / max(self.board.width(), 1)
        fy = anchor.y() / max(self.board.height(), 1)
        on_screen = self.board.mapTo(self.viewport(), anchor.toPoint())
        self.zoom = zoom
        self._fit_board()
        self.horizontalScrollBar().setValue(round(fx * self.board.width() - on_screen.x()))
        self.verticalScrollBar().setValue(round(fy * self.board.height() - on_screen.y()))

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        self.set_zoom(self.zoom * factor, anchor)

    def fit(self) -> None:
        self.set_zoom(1.0)

    def _pan(self, delta: QPointF) -> None:
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - round(delta.x()))
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() - round(delta.y()))

    def _fit_board(self) -> None:
        policy = (
            Qt.ScrollBarPolicy.ScrollBarAsNeeded if self.zoom > 1 else Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        )
        self.setHorizontalScrollBarPolicy(policy)
        self.setVerticalScrollBarPolicy(policy)
        size = self.maximumViewportSize() if self.zoom <= 1 else self.viewport().size()
        if self.zoom <= 1:
            self.board.resize(size)
        else:
            self.board.resize(round(size.width() * self.zoom), round(size.height() * self.zoom))

    def resizeEvent(self, event: object) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._fit_board()
