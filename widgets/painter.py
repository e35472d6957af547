"""The one QPainter adapter: renders a Qt-free DisplayList to any paint device.

Screen, thumbnails, PNG, SVG, PDF and the clipboard all go through ``paint_display_list`` so they
look the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen, QPolygonF

from solvers.common.display import Circle, DisplayList, Item, Line, Polyline, Rect, Text
from solvers.common.palette import LIGHT, Palette

_CAPS = {"flat": Qt.PenCapStyle.FlatCap, "round": Qt.PenCapStyle.RoundCap, "square": Qt.PenCapStyle.SquareCap}
_JOINS = {
    "miter": Qt.PenJoinStyle.MiterJoin,
    "round": Qt.PenJoinStyle.RoundJoin,
    "bevel": Qt.PenJoinStyle.BevelJoin,
}


def qcolor(palette: Palette, color: str) -> QColor:
    value = palette.resolve(color)
    if len(value) == 9:  # #rrggbbaa -> Qt wants #aarrggbb
        return QColor(f"#{value[7:9]}{value[1:7]}")
    return QColor(value)


def _pen(palette: Palette, color: str | None, width: float, cap: str = "flat", join: str = "miter") -> QPen:
    if color is None:
        return QPen(Qt.PenStyle.NoPen)
    pen = QPen(qcolor(palette, color))
    pen.setWidthF(width)
    pen.setCapStyle(_CAPS.get(cap, Qt.PenCapStyle.FlatCap))
    pen.setJoinStyle(_JOINS.get(join, Qt.PenJoinStyle.MiterJoin))
    return pen


def _brush(palette: Palette, color: str | None) -> QBrush:
    return QBrush(Qt.BrushStyle.NoBrush) if color is None else QBrush(qcolor(palette, color))


def paint_display_list(
    painter: QPainter,
    dl: DisplayList,
    target: QRectF,
    palette: Palette = LIGHT,
    background: bool = True,
) -> float:
    """Paint ``dl`` scaled uniformly and centred into ``target``. Returns the scale used."""
    if dl.width <= 0 or dl.height <= 0:
        return 1.0
    scale = min(target.width() / dl.width, target.height() / dl.height)
    ox = target.x() + (target.width() - dl.width * scale) / 2
    oy = target.y() + (target.height() - dl.height * scale) / 2
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    if background:
        painter.fillRect(target, qcolor(palette, "background"))
    painter.translate(ox, oy)
    painter.scale(scale, scale)
    _paint_items(painter, dl.items, palette, dl.width)
    painter.restore()
    return scale


# PySide keeps the GIL through a drawLines call (5,000 long antialiased lines: 0.5 s). Runs are cut
# at this length so that painting an export on a job thread lets the window run between calls.
LINES_PER_CALL = 256


def _paint_items(painter: QPainter, items: Sequence[Item], palette: Palette, width: float) -> None:
    """Paint items in order. Pens and brushes are made once per style, and runs of lines that
    share a style go out in one ``drawLines`` call: a 100x80 board has ~10k lines, and one pen
    and one call per line made a repaint take most of a second."""
    pens: dict[tuple[object, ...], QPen] = {}
    brushes: dict[str | None, QBrush] = {}
    text_pens: dict[str, QPen] = {}

    def pen(color: str | None, width: float, cap: str = "flat", join: str = "miter") -> QPen:
        key = (color, width, cap, join)
        if key not in pens:
            pens[key] = _pen(palette, color, width, cap, join)
        return pens[key]

    def brush(color: str | None) -> QBrush:
        if color not in brushes:
            brushes[color] = _brush(palette, color)
        return brushes[color]

    i, n = 0, len(items)
    qlines, qpolys = _QLINES, _QPOLYS
    if len(qlines) > _CACHE_MAX:
        qlines.clear()
    if len(qpolys) > _CACHE_MAX:
        qpolys.clear()
    while i < n:
        item = items[i]
        if type(item) is Line:
            style = (item.color, item.width, item.cap, item.dash)
            run = []
            while True:
                key = (item.p1, item.p2)
                q = qlines.get(key)
                if q is None:
                    q = qlines[key] = QLineF(*item.p1, *item.p2)
                run.append(q)
                i += 1
                if i == n:
                    break
                item = items[i]
                if type(item) is not Line or (item.color, item.width, item.cap, item.dash) != style:
                    break
                if len(run) == LINES_PER_CALL:
                    break
            color, line_width, cap, dash = style
            line_pen = pen(color, line_width, cap)
            if dash:
                line_pen = QPen(line_pen)
                line_pen.setDashPattern([d / max(line_width, 0.01) for d in dash])
            painter.setPen(line_pen)
            painter.drawLines(run)
            continue
        i += 1
        if isinstance(item, Polyline):
            painter.setPen(pen(item.color, item.width, item.cap, item.join))
            painter.setBrush(brush(item.fill))
            poly = qpolys.get(item.points)
            if poly is None:
                poly = qpolys[item.points] = QPolygonF([QPointF(x, y) for x, y in item.points])
            if item.closed or item.fill is not None:
                painter.drawPolygon(poly)
            else:
                painter.drawPolyline(poly)
        elif isinstance(item, Rect):
            painter.setPen(pen(item.stroke, item.width))
            painter.setBrush(brush(item.fill))
            rect = QRectF(item.x, item.y, item.w, item.h)
            if item.radius > 0:
                painter.drawRoundedRect(rect, item.radius, item.radius)
            else:
                painter.drawRect(rect)
        elif isinstance(item, Circle):
            painter.setPen(pen(item.stroke, item.width))
            painter.setBrush(brush(item.fill))
            painter.drawEllipse(QPointF(item.cx, item.cy), item.r, item.r)
        elif isinstance(item, Text):
            text_pen = text_pens.get(item.color)
            if text_pen is None:
                text_pen = text_pens[item.color] = QPen(qcolor(palette, item.color))
            _draw_text(painter, text_pen, item, width)


# Qt geometry of display-list items, by value: building a QLineF costs several microseconds in
# Python, and a big board repaints ~10k unchanged lines after every edit. Bounded by clearing.
_CACHE_MAX = 200_000
_QLINES: dict[tuple[tuple[float, float], tuple[float, float]], QLineF] = {}
_QPOLYS: dict[tuple[tuple[float, float], ...], QPolygonF] = {}


@lru_cache(maxsize=256)
def _font(pixels: int, bold: bool) -> QFont:
    font = QFont()
    font.setFamilies(["DejaVu Sans", "Noto Sans", "Sans Serif"])
    font.setPixelSize(max(pixels, 1))
    font.setBold(bold)
    return font


_H = {
    "left": Qt.AlignmentFlag.AlignLeft,
    "center": Qt.AlignmentFlag.AlignHCenter,
    "right": Qt.AlignmentFlag.AlignRight,
}
_V = {
    "top": Qt.AlignmentFlag.AlignTop,
    "middle": Qt.AlignmentFlag.AlignVCenter,
    "bottom": Qt.AlignmentFlag.AlignBottom,
}
MIN_SHRINK = 0.75  # a caption too wide for the drawing shrinks this far before it wraps


def _draw_text(painter: QPainter, pen: QPen, item: Text, width: float) -> None:
    """Text sized in device pixels (the same on screen, PNG at any dpi, SVG and PDF) and measured:
    a caption wider than the drawing shrinks a little, then wraps inside it; it is never clipped."""
    k = max(abs(painter.worldTransform().m11()), 1e-6)  # uniform scale: display units -> device
    size = max(item.size, 0.5) * k
    pixels = round(size)
    font = _font(pixels, item.bold)
    room = max(width * k - 2, 1.0)
    natural = _advance(pixels, item.bold, item.text)
    if natural > room:
        pixels = round(max(size * room / natural, size * MIN_SHRINK))
        font = _font(pixels, item.bold)
    painter.save()
    painter.translate(item.x, item.y)
    painter.scale(1 / k, 1 / k)
    painter.setFont(font)
    painter.setPen(pen)
    flags = _H[item.align] | _V[item.valign]
    big = 100_000.0
    y = {"top": 0.0, "middle": -big / 2, "bottom": -big}[item.valign]
    if _advance(pixels, item.bold, item.text) <= room:
        x = {"left": 0.0, "center": -big / 2, "right": -big}[item.align]
        painter.drawText(QRectF(x, y, big, big), int(flags), item.text)
    else:
        left = -item.x * k + 1  # wrap inside the drawing's own width, whatever the anchor
        painter.drawText(QRectF(left, y, room, big), int(flags | Qt.TextFlag.TextWordWrap), item.text)
    painter.restore()


@lru_cache(maxsize=4096)
def _advance(pixels: int, bold: bool, text: str) -> float:
    """Width of ``text`` in the font ``_font(pixels, bold)``: boards repeat the same few labels."""
    return QFontMetricsF(_font(pixels, bold)).horizontalAdvance(text)
