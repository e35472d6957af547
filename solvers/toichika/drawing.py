"""Nikoli-style display list: thin grid, bold country borders, arrows (givens vs solved colours).

``overlay`` (from the explanation panel) is a dict with optional keys:
``"state"``: per-cell candidate bitmasks (bit 0 empty, bit d direction d) drawn as decided arrows,
small dots for decided-empty cells and tiny pencil arrows for undecided ones; ``"used"``: cells a
step relied on; ``"changed"``: cells a step concluded something about; ``"errors"``: cells to flag.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from solvers.common.display import Circle, DisplayList, GridGeometry, Item, Line, Polyline, Rect, Text
from solvers.common.protocol import CheckResult
from solvers.toichika.model import DELTA, DIRECTIONS, DOT, MARK_ARROW_HERE, QUESTION, Toichika, marks_of
from solvers.toichika.rules import check

CELL = 36.0
MARGIN = 10.0
BOLD = 3.0  # country borders and the frame
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


@lru_cache(maxsize=1 << 15)
def _arrow(d: int, cx: float, cy: float, size: float, color: str) -> tuple[Item, ...]:
    """The items of one arrow; cached because a big board redraws thousands of the same arrows
    after every edit (the items are immutable, so sharing them is safe)."""
    shaft = _rotate(_SHAFT, d, cx, cy, size)
    head = _rotate(_HEAD, d, cx, cy, size)
    return (
        Line(shaft[0], shaft[1], color, width=max(1.0, size * 0.09), cap="round"),
        Polyline(head, color, width=1.0, closed=True, fill=color, join="miter"),
    )


def arrow_items(d: int, cx: float, cy: float, size: float, color: str) -> list[Any]:
    return list(_arrow(d, cx, cy, size, color))


_ALL_WAYS = sum(1 << d for d in DIRECTIONS)  # pencil marks crossing out all four directions


@lru_cache(maxsize=1 << 12)
def _pencil(bits: int, cx: float, cy: float, question: bool) -> tuple[Item, ...]:
    """The player's pencil marks: a small cross near each side whose direction is ruled out (as a
    paper player crosses a direction out) and a ring in the centre for "an arrow goes here"; thin,
    small and away from the centre, so they never read as a placed arrow or a dot."""
    out: list[Item] = []
    arm, width = CELL * 0.1, max(1.5, CELL * 0.055)
    for d in DIRECTIONS:
        if bits >> d & 1:
            dr, dc = DELTA[d]
            x, y = cx + dc * CELL * 0.33, cy + dr * CELL * 0.33
            out.append(Line((x - arm, y - arm), (x + arm, y + arm), "entry", width, cap="round"))
            out.append(Line((x - arm, y + arm), (x + arm, y - arm), "entry", width, cap="round"))
    if bits & MARK_ARROW_HERE and not question:
        out.append(Circle(cx, cy, CELL * 0.13, stroke="entry", width=width))
    return tuple(out)


def live_errors(p: Toichika, entries: tuple[int, ...]) -> list[tuple[int, int]]:
    """Cells to flag while playing: broken rules, but not what is merely unfinished.

    An unfinished country (bkNoNum) is not flagged, and an arrow counts as alone only when its
    line is settled: every cell before the arrow it meets (which does not point back), or before
    the edge, is dotted.
    """
    return list(_live_errors(p, tuple(entries)))


def checked(p: Toichika, entries: Any = None) -> CheckResult:
    """``rules.check``, remembered for the last few positions (the board drawing, the live error
    marks and the status line all check the same position after an edit)."""
    result = _check(p, tuple(entries) if entries is not None else None)
    return CheckResult(result.complete, list(result.violations))


@lru_cache(maxsize=4)
def _check(p: Toichika, entries: tuple[int, ...] | None) -> CheckResult:
    return check(p, entries)


@lru_cache(maxsize=4)
def _live_errors(p: Toichika, entries: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    # Cached: one edit asks for the same answer from the board drawing and from the status
    # line's check, and the full-board check takes tens of ms on a 100x80 board.
    out: list[tuple[int, int]] = []
    givens, rows, cols = p.givens, p.rows, p.cols
    for v in _check(p, entries).violations:
        if v.code == "bkNoNum":
            continue
        if v.code == "arAlone":
            i = p.index(*v.cells[0])
            a = givens[i] if givens[i] in DIRECTIONS else entries[i]
            if a not in DIRECTIONS:
                continue  # a "?" without a direction is not the player's mistake
            settled = True
            dr, dc = DELTA[a]
            r, c = divmod(i, cols)
            r, c = r + dr, c + dc
            while 0 <= r < rows and 0 <= c < cols:  # walk the arrow's line up to what it meets
                j = r * cols + c
                if givens[j] or entries[j] in DIRECTIONS:
                    break  # an arrow that does not point back: a real conflict
                if entries[j] != DOT and marks_of(entries[j]) & _ALL_WAYS != _ALL_WAYS:
                    # a dot, or pencil marks that cross out every direction, is "no arrow here"
                    settled = False
                    break
                r, c = r + dr, c + dc
            if not settled:
                continue
        out.extend(v.cells)
    return tuple(out)


@lru_cache(maxsize=8)
def _frame(rows: int, cols: int, vwalls: tuple[bool, ...], hwalls: tuple[bool, ...]) -> tuple[Item, ...]:
    """Thin grid, then bold walls and the frame on top: the same for every edit of the entries
    or givens, so it is built once per wall layout (over 10k items on a 100x100 board); the
    items themselves are cached too, so drawing a wall only builds the tuple again."""
    items = list(_grid(rows, cols))
    if cols > 1:  # coordinates for every wall at once: a 2x2-country 100x80 board has 7,800 walls
        r, c = np.divmod(np.flatnonzero(np.asarray(vwalls, dtype=bool)), cols - 1)
        x, y = (MARGIN + (c + 1) * CELL).tolist(), (MARGIN + r * CELL).tolist()
        items += [Line((a, b), (a, b + CELL), "wall", BOLD, cap="square") for a, b in zip(x, y, strict=True)]
    r, c = np.divmod(np.flatnonzero(np.asarray(hwalls, dtype=bool)), cols)
    x, y = (MARGIN + c * CELL).tolist(), (MARGIN + (r + 1) * CELL).tolist()
    items += [Line((a, b), (a + CELL, b), "wall", BOLD, cap="square") for a, b in zip(x, y, strict=True)]
    items.append(Rect(MARGIN, MARGIN, cols * CELL, rows * CELL, stroke="wall", width=BOLD))
    return tuple(items)


@lru_cache(maxsize=8)
def _grid(rows: int, cols: int) -> tuple[Item, ...]:
    right, bottom = MARGIN + cols * CELL, MARGIN + rows * CELL
    return tuple(
        [Line((MARGIN, MARGIN + r * CELL), (right, MARGIN + r * CELL), "grid", 1.0) for r in range(1, rows)]
        + [
            Line((MARGIN + c * CELL, MARGIN), (MARGIN + c * CELL, bottom), "grid", 1.0)
            for c in range(1, cols)
        ]
    )


@lru_cache(maxsize=1 << 14)
def _cell_fill(r: int, c: int, role: str) -> Rect:
    return Rect(MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL, fill=role)


def _shown_cells(p: Toichika, arrows: list[int] | None, entries: tuple[int, ...] | None, state: Any) -> Any:
    """Cells that get a mark, in row-major order (the rest of a big board draws nothing)."""
    if state is not None:
        return range(p.size)
    cells = {i for i, g in enumerate(p.givens) if g}
    if arrows is not None:
        cells.update(i for i, a in enumerate(arrows) if a)
    if entries is not None:
        cells.update(i for i, e in enumerate(entries) if e)
    return sorted(cells)


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
    items = dl.items
    items.append(Rect(MARGIN, MARGIN, p.cols * CELL, p.rows * CELL, fill="cell"))
    over = overlay if isinstance(overlay, dict) else {}

    def fill(cells, role: str) -> None:
        for r, c in sorted(set(map(tuple, cells))):
            if 0 <= r < p.rows and 0 <= c < p.cols:
                items.append(_cell_fill(r, c, role))

    errors: list[tuple[int, int]] = list(over.get("errors", []))
    if entries is not None and any(entries):
        errors.extend(live_errors(p, entries))
    fill(over.get("used", []), "highlight-fill")
    fill(errors, "error-fill")
    for r, c in sorted(set(map(tuple, over.get("changed", [])))):
        items.append(
            Rect(MARGIN + c * CELL + 2, MARGIN + r * CELL + 2, CELL - 4, CELL - 4, stroke="accent", width=2.0)
        )
    items.extend(_frame(p.rows, p.cols, p.vwalls, p.hwalls))

    state = over.get("state")
    givens, cols = p.givens, p.cols
    for i in _shown_cells(p, arrows, entries, state):
        g = givens[i]
        r, c = divmod(i, cols)
        cx, cy = MARGIN + (c + 0.5) * CELL, MARGIN + (r + 0.5) * CELL  # as GridGeometry.center
        if g in DIRECTIONS:
            items.extend(_arrow(g, cx, cy, CELL, "given"))
            continue
        shown = arrows[i] if arrows is not None else 0
        if entries is not None and arrow_role == "entry" and shown not in DIRECTIONS and marks_of(entries[i]):
            items.extend(_pencil(marks_of(entries[i]), cx, cy, g == QUESTION))
        if g == QUESTION and shown not in DIRECTIONS:
            items.append(Text(cx, cy, "?", size=CELL * 0.6, color="given", bold=True))
            continue
        if shown in DIRECTIONS:
            items.extend(_arrow(shown, cx, cy, CELL, arrow_role))
            continue
        if entries is not None and entries[i] == DOT and arrows is not None and arrow_role == "entry":
            items.append(Circle(cx, cy, CELL * 0.08, fill="entry"))
            continue
        if state is not None:
            mask = state[i]
            dirs = [d for d in DIRECTIONS if mask >> d & 1]
            if mask == 1:
                items.append(Circle(cx, cy, CELL * 0.07, fill="muted"))
            elif len(dirs) == 1 and not mask & 1:
                items.extend(_arrow(dirs[0], cx, cy, CELL, "solution"))
            else:
                for d in dirs:  # pencil marks: tiny arrows towards the edge they point at
                    dr, dc = DELTA[d]
                    items.extend(_arrow(d, cx + dc * CELL * 0.28, cy + dr * CELL * 0.28, CELL * 0.3, "mark"))
    return dl
