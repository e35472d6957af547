"""Nikoli-style display list: thin grid, bold country borders, arrows (givens vs solved colours).

``overlay`` (from the explanation panel) is a dict with optional keys:
``"state"``: per-cell candidate bitmasks (bit 0 empty, bit d direction d) drawn as decided arrows,
small dots for decided-empty cells and tiny pencil arrows for undecided ones; ``"used"``: cells a
step relied on; ``"changed"``: cells a step concluded something about; ``"errors"``: cells to flag.
"""

from __future__ import annotations

import math
from typing import Any

from solvers.common.display import Circle, DisplayList, GridGeometry, Line, Polyline, Rect, Text
from solvers.toichika.model import DELTA, DIRECTIONS, DOT, QUESTION, Toichika
from solvers.toichika.rules import check

CELL = 36.0
MARGIN = 10.0
ANGLE = {1: -math.pi / 2, 2: math.pi / 2, 3: math.pi, 4: 0.0}  # screen angle of each direction

# Arrow outline pointing right, in cell units around the centre: a shaft plus a head.
_SHAFT = ((-0.33, 0.0), (0.12, 0.0))
_HEAD = ((0.34, 0.0), (0.04, -0.2), (0.04, 0.2))


def _rotate(points: tuple[tuple[float, float], ...], d: int, cx: float, cy: float, scale: float):
    a = ANGLE[d]
    ca, sa = math.cos(a), math.sin(a)
    return tuple(
        (round(cx + scale * (x * ca - y * sa), 3), round(cy + scale * (x * sa + y * ca), 3))
        for x, y in points
    )


def arrow_items(d: int, cx: float, cy: float, size: float, color: str) -> list[Any]:
    shaft = _rotate(_SHAFT, d, cx, cy, size)
    head = _rotate(_HEAD, d, cx, cy, size)
    return [
        Line(shaft[0], shaft[1], color, width=max(1.0, size * 0.09), cap="round"),
        Polyline(head, color, width=1.0, closed=True, fill=color, join="miter"),
    ]


def live_errors(p: Toichika, entries: tuple[int, ...]) -> list[tuple[int, int]]:
    """Cells to flag while playing: broken rules, but not what is merely unfinished.

    An unfinished country (bkNoNum) is not flagged, and an arrow counts as alone only when its
    line is settled: every cell before the arrow it meets (which does not point back), or before
    the edge, is dotted.
    """
    out: list[tuple[int, int]] = []
    for v in check(p, entries).violations:
        if v.code == "bkNoNum":
            continue
        if v.code == "arAlone":
            i = p.index(*v.cells[0])
            a = p.givens[i] if p.givens[i] in DIRECTIONS else entries[i]
            if a not in DIRECTIONS:
                continue  # a "?" without a direction is not the player's mistake
            settled = True
            for j in p.ray(i, a):
                if p.givens[j] or entries[j] in DIRECTIONS:
                    break  # an arrow that does not point back: a real conflict
                if entries[j] != DOT:
                    settled = False
                    break
            if not settled:
                continue
        out.extend(v.cells)
    return out


def draw_board(
    p: Toichika,
    arrows: list[int] | None = None,
    arrow_role: str = "solution",
    entries: tuple[int, ...] | None = None,
    overlay: Any = None,
) -> DisplayList:
    geom = GridGeometry(MARGIN, MARGIN, CELL, p.rows, p.cols)
    width, height = 2 * MARGIN + p.cols * CELL, 2 * MARGIN + p.rows * CELL
    dl = DisplayList(width, height, grid=geom, title="Toichika")
    dl.add(Rect(MARGIN, MARGIN, p.cols * CELL, p.rows * CELL, fill="cell"))
    over = overlay if isinstance(overlay, dict) else {}

    def fill(cells, role: str) -> None:
        for r, c in sorted(set(map(tuple, cells))):
            if 0 <= r < p.rows and 0 <= c < p.cols:
                dl.add(Rect(MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL, fill=role))

    errors: list[tuple[int, int]] = list(over.get("errors", []))
    if entries is not None and any(entries):
        errors.extend(live_errors(p, entries))
    fill(over.get("used", []), "highlight-fill")
    fill(errors, "error-fill")
    for r, c in sorted(set(map(tuple, over.get("changed", [])))):
        dl.add(
            Rect(MARGIN + c * CELL + 2, MARGIN + r * CELL + 2, CELL - 4, CELL - 4, stroke="accent", width=2.0)
        )

    # thin grid, then bold walls and frame on top
    for r in range(1, p.rows):
        y = MARGIN + r * CELL
        dl.add(Line((MARGIN, y), (MARGIN + p.cols * CELL, y), "grid", 1.0))
    for c in range(1, p.cols):
        x = MARGIN + c * CELL
        dl.add(Line((x, MARGIN), (x, MARGIN + p.rows * CELL), "grid", 1.0))
    bold = 3.0
    for r in range(p.rows):
        for c in range(p.cols - 1):
            if p.wall_right(r, c):
                x = MARGIN + (c + 1) * CELL
                dl.add(Line((x, MARGIN + r * CELL), (x, MARGIN + (r + 1) * CELL), "wall", bold, cap="square"))
    for r in range(p.rows - 1):
        for c in range(p.cols):
            if p.wall_below(r, c):
                y = MARGIN + (r + 1) * CELL
                dl.add(Line((MARGIN + c * CELL, y), (MARGIN + (c + 1) * CELL, y), "wall", bold, cap="square"))
    dl.add(Rect(MARGIN, MARGIN, p.cols * CELL, p.rows * CELL, stroke="wall", width=bold))

    state = over.get("state")
    for i, g in enumerate(p.givens):
        r, c = divmod(i, p.cols)
        cx, cy = geom.center(r, c)
        if g in DIRECTIONS:
            dl.extend(arrow_items(g, cx, cy, CELL, "given"))
            continue
        shown = arrows[i] if arrows is not None else 0
        if g == QUESTION and shown not in DIRECTIONS:
            dl.add(Text(cx, cy, "?", size=CELL * 0.6, color="given", bold=True))
            continue
        if shown in DIRECTIONS:
            dl.extend(arrow_items(shown, cx, cy, CELL, arrow_role))
            continue
        if entries is not None and entries[i] == DOT and arrows is not None and arrow_role == "entry":
            dl.add(Circle(cx, cy, CELL * 0.08, fill="entry"))
            continue
        if state is not None:
            mask = state[i]
            dirs = [d for d in DIRECTIONS if mask >> d & 1]
            if mask == 1:
                dl.add(Circle(cx, cy, CELL * 0.07, fill="muted"))
            elif len(dirs) == 1 and not mask & 1:
                dl.extend(arrow_items(dirs[0], cx, cy, CELL, "solution"))
            else:
                for d in dirs:  # pencil marks: tiny arrows towards the edge they point at
                    dr, dc = DELTA[d]
                    dl.extend(
                        arrow_items(d, cx + dc * CELL * 0.28, cy + dr * CELL * 0.28, CELL * 0.3, "mark")
                    )
    return dl
