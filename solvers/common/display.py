"""Qt-free display lists: what a plug-in wants drawn, in logical units and semantic colours.

One renderer (``widgets.painter``) turns a display list into QPainter calls for the screen, PNG,
SVG, PDF and thumbnails, so every output looks the same.

Colours are *roles* resolved by a palette at render time ("ink", "grid", "wall", "given",
"solution", "error", ...), palette entries ("color:3" = the 4th colour of the categorical palette,
used for Flow pipes and similar), or literal ``#rrggbb`` / ``#rrggbbaa`` strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Point = tuple[float, float]
Align = Literal["left", "center", "right"]
VAlign = Literal["top", "middle", "bottom"]


@dataclass(frozen=True)
class Line:
    p1: Point
    p2: Point
    color: str = "ink"
    width: float = 1.0
    cap: Literal["flat", "round", "square"] = "flat"
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Polyline:
    points: tuple[Point, ...]
    color: str = "ink"
    width: float = 1.0
    closed: bool = False
    fill: str | None = None
    cap: Literal["flat", "round", "square"] = "round"
    join: Literal["miter", "round", "bevel"] = "round"


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    radius: float = 0.0


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: float = 12.0
    color: str = "ink"
    align: Align = "center"
    valign: VAlign = "middle"
    bold: bool = False


Item = Line | Polyline | Rect | Circle | Text


@dataclass(frozen=True)
class GridGeometry:
    """Where a cell grid sits, so views can map mouse positions to (row, col)."""

    x0: float
    y0: float
    cell: float
    rows: int
    cols: int

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        c = int((x - self.x0) // self.cell)
        r = int((y - self.y0) // self.cell)
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return r, c
        return None

    def center(self, r: int, c: int) -> Point:
        return (self.x0 + (c + 0.5) * self.cell, self.y0 + (r + 0.5) * self.cell)


@dataclass
class DisplayList:
    """Items in paint order inside a ``width`` x ``height`` logical canvas."""

    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    grid: GridGeometry | None = None
    title: str = ""
    # The grid cells where the keyboard cursor stops (None: every cell). A drawing whose grid has
    # cells where no key does anything (Tokyo Doves' empty row before a hand) leaves them out; the
    # board view's arrow keys skip them.
    stops: frozenset[tuple[int, int]] | None = None

    def add(self, item: Item) -> None:
        self.items.append(item)

    def extend(self, items: list[Item]) -> None:
        self.items.extend(items)

    def signature(self) -> tuple[object, ...]:
        """A hashable value; equal for equal drawings (used to test determinism)."""
        return (self.width, self.height, self.grid, tuple(self.items))


def grid_lines(geom: GridGeometry, color: str = "grid", width: float = 1.0) -> list[Item]:
    """Thin lines of a rectangular grid, including the outer frame."""
    items: list[Item] = []
    x1 = geom.x0 + geom.cols * geom.cell
    y1 = geom.y0 + geom.rows * geom.cell
    for r in range(geom.rows + 1):
        y = geom.y0 + r * geom.cell
        items.append(Line((geom.x0, y), (x1, y), color, width, cap="square"))
    for c in range(geom.cols + 1):
        x = geom.x0 + c * geom.cell
        items.append(Line((x, geom.y0), (x, y1), color, width, cap="square"))
    return items
