"""Display list for a Tokyo Doves position: floating 4x4 field, walls, dove tiles and both hands.

Layout in tile units (GridGeometry 8 rows x 6 columns, so the shell maps every click to a cell):
row 0 is Green's hand, rows 1..6 the board (frame rows -1..4, cols -1..4: every square an action can
reach), row 7 Red's hand. A caption band below the grid states side to move / result.

The frame is the position's own window (its group's corner at frame (0, 0)) shifted by ``origin``:
the set-up editor keeps the origin while it edits (``editing.DovesUI``), because a position is stored
from its group's corner and a dove placed above or left of the group would otherwise shift the
whole table under the pointer. Exports and play draw with origin (0, 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from solvers.common.display import Circle, DisplayList, GridGeometry, Line, Polyline, Rect, Text
from solvers.doves.model import COLOUR_NAMES, GREEN, LETTERS, RED, Position

TILE = 48.0
MARGIN = 10.0
GRID_ROWS, GRID_COLS = 8, 6
CAPTION = 46.0
HAND_ROW = {GREEN: 0, RED: 7}
TILE_FILL = {RED: "player-a", GREEN: "player-b"}
FRAME_LO, FRAME_HI = -1, 4  # the frame rows and columns the board shows
Origin = tuple[int, int]  # frame square of the position's (0, 0)


def board_cell(r: int, c: int, origin: Origin = (0, 0)) -> tuple[int, int]:
    """Display cell of the position's square (r, c) drawn with ``origin``."""
    return r + origin[0] + 2, c + origin[1] + 1


def window_square(gr: int, gc: int, origin: Origin = (0, 0)) -> tuple[int, int] | None:
    """The position's square (r, c) under display cell (gr, gc) drawn with ``origin`` (may be
    outside the group: -1 is the row above it); None off the board."""
    if 1 <= gr <= 6 and 0 <= gc <= 5:
        return gr - 2 - origin[0], gc - 1 - origin[1]
    return None


def hand_slot(dove: int) -> tuple[int, int]:
    """Fixed display cell of a non-boss dove's place in its owner's hand (by kind)."""
    return HAND_ROW[dove & 1], (dove >> 1) - 1


def hand_dove_at(gr: int, gc: int) -> int | None:
    for colour, row in HAND_ROW.items():
        if gr == row and 0 <= gc <= 4:
            return (gc + 1) * 2 + colour
    return None


def geometry() -> GridGeometry:
    return GridGeometry(MARGIN, MARGIN, TILE, GRID_ROWS, GRID_COLS)


def _dots(cx: float, cy: float, s: float, offsets: Sequence[tuple[float, float]], color: str) -> list[Circle]:
    return [Circle(cx + dx * s, cy + dy * s, s * 0.09, fill=color) for dx, dy in offsets]


KING = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
ORTH = [(0, -1), (-1, 0), (1, 0), (0, 1)]
DIAG = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
KNIGHT = [(-0.5, -1), (0.5, -1), (-1, -0.5), (1, -0.5), (-1, 0.5), (1, 0.5), (-0.5, 1), (0.5, 1)]


def tile(x: float, y: float, size: float, dove: int, *, faded: bool = False, ring: str | None = None) -> list:
    """One dove tile: rounded square in the owner's colour, movement pictogram, kind letter."""
    items: list = []
    pad = size * 0.07
    s = size - 2 * pad
    cx, cy = x + size / 2, y + size / 2
    fill = "muted" if faded else TILE_FILL[dove & 1]
    items.append(
        Rect(
            x + pad,
            y + pad,
            s,
            s,
            fill=fill,
            stroke=ring or "ink",
            width=3.0 if ring else 1.2,
            radius=s * 0.16,
        )
    )
    ink = "#ffffff"
    kind = dove >> 1
    r = s * 0.36  # pictogram radius: where the dots for reachable directions sit
    if kind in (0, 1):
        items.extend(_dots(cx, cy, r, KING, ink))
    elif kind == 2:
        items.extend(_dots(cx, cy, r, ORTH, ink))
    elif kind == 3:
        items.extend(_dots(cx, cy, r, DIAG, ink))
    elif kind == 4:  # Totsu: arrows to the four sides (it slides)
        for dx, dy in ORTH:
            tip = (cx + dx * r * 1.1, cy + dy * r * 1.1)
            base = (cx + dx * r * 0.55, cy + dy * r * 0.55)
            items.append(Line(base, tip, ink, s * 0.05, cap="round"))
            px, py = -dy * r * 0.18, dx * r * 0.18
            back = (cx + dx * r * 0.85, cy + dy * r * 0.85)
            items.append(
                Polyline(((back[0] + px, back[1] + py), tip, (back[0] - px, back[1] - py)), ink, s * 0.05)
            )
    else:
        items.extend(_dots(cx, cy, r, KNIGHT, ink))
    if kind == 0:  # Boss: a crown above the letter
        w, h = s * 0.36, s * 0.16
        top = cy - s * 0.26
        pts = (
            (cx - w / 2, top + h),
            (cx - w / 2, top),
            (cx - w / 4, top + h * 0.55),
            (cx, top - h * 0.2),
            (cx + w / 4, top + h * 0.55),
            (cx + w / 2, top),
            (cx + w / 2, top + h),
        )
        items.append(Polyline(pts, "highlight", 1.0, closed=True, fill="highlight"))
    items.append(
        Text(cx, cy + (s * 0.06 if kind == 0 else 0), LETTERS[dove], size=s * 0.34, color=ink, bold=True)
    )
    return items


def draw_position(
    position: Position,
    *,
    highlights: tuple[tuple[int, int], ...] = (),
    selected: int | None = None,
    last: tuple[tuple[int, int], ...] = (),
    caption: str = "",
    surrounded: tuple[bool, bool] = (False, False),
    errors: tuple[int, ...] = (),
    in_game: int = 0xFFF,
    origin: Origin = (0, 0),
) -> DisplayList:
    """``in_game`` (bit i = dove i, ``Rules.hand``): a reduced game's other doves are out of the
    game, so their hand slots stay empty instead of offering doves that cannot be put.
    ``origin``: where the position's (0, 0) sits in the frame (squares in ``highlights`` and
    ``last`` are the position's)."""
    geom = geometry()
    width = 2 * MARGIN + GRID_COLS * TILE
    dl = DisplayList(width, 2 * MARGIN + GRID_ROWS * TILE + CAPTION, grid=geom)
    dl.add(Rect(0, 0, dl.width, dl.height, fill="background"))
    cells = position.cells()
    rows, cols = position.size
    o_r, o_c = origin
    # the floating field (frame squares): every square some 4x4 window around the group could cover
    r_lo, r_hi = max(FRAME_LO, o_r + rows - 4), min(FRAME_HI, o_r + 3)
    c_lo, c_hi = max(FRAME_LO, o_c + cols - 4), min(FRAME_HI, o_c + 3)
    # The keyboard cursor stops where something is drawn: the field, a highlighted target (a
    # Totsu may slide just past the field) and the hand slots. The frame's last row and column
    # lie outside the field unless the editor's kept frame shifted the group: the cursor stopped
    # on an empty row before Red's hand, where no key did anything.
    stops = {board_cell(r, c) for r in range(r_lo, r_hi + 1) for c in range(c_lo, c_hi + 1)}
    stops |= {board_cell(r, c, origin) for r, c in highlights if window_square(*board_cell(r, c, origin))}
    stops |= {hand_slot(i) for i in range(2, 12) if in_game >> i & 1}
    dl.stops = frozenset(stops)
    for r in range(FRAME_LO, FRAME_HI + 1):
        for c in range(FRAME_LO, FRAME_HI + 1):
            gr, gc = board_cell(r, c)
            x, y = geom.x0 + gc * TILE, geom.y0 + gr * TILE
            inside = r_lo <= r <= r_hi and c_lo <= c <= c_hi
            dl.add(
                Rect(
                    x,
                    y,
                    TILE,
                    TILE,
                    fill="cell" if inside else None,
                    stroke="grid" if inside else None,
                    width=0.6,
                )
            )
    # the group's bounding box, then walls on an axis whose span is full (4)
    bx, by = geom.x0 + (1 + o_c) * TILE, geom.y0 + (2 + o_r) * TILE
    dl.add(Rect(bx, by, cols * TILE, rows * TILE, stroke="accent", width=1.0))
    if cols == 4:
        for x in (bx, bx + 4 * TILE):
            dl.add(Line((x, by - 0.1 * TILE), (x, by + rows * TILE + 0.1 * TILE), "wall", 5.0, cap="round"))
    if rows == 4:
        for y in (by, by + 4 * TILE):
            dl.add(Line((bx - 0.1 * TILE, y), (bx + cols * TILE + 0.1 * TILE, y), "wall", 5.0, cap="round"))
    for r, c in highlights:
        gr, gc = board_cell(r, c, origin)
        x, y = geom.x0 + gc * TILE, geom.y0 + gr * TILE
        dl.add(
            Rect(
                x + 3,
                y + 3,
                TILE - 6,
                TILE - 6,
                fill="highlight-fill",
                stroke="highlight",
                width=1.5,
                radius=6,
            )
        )
    for r, c in last:
        gr, gc = board_cell(r, c, origin)
        dl.add(
            Rect(
                geom.x0 + gc * TILE + 1,
                geom.y0 + gr * TILE + 1,
                TILE - 2,
                TILE - 2,
                stroke="solution",
                width=2.0,
            )
        )
    for i, (r, c) in cells.items():
        gr, gc = board_cell(r, c, origin)
        bad = (i < 2 and surrounded[i]) or i in errors  # a surrounded Boss, an isolated dove
        ring = "highlight" if i == selected else ("error" if bad else None)
        dl.extend(tile(geom.x0 + gc * TILE, geom.y0 + gr * TILE, TILE, i, ring=ring))
    # hands: fixed slots per kind; an empty slot (dove on the table) is a faint outline
    for colour in (RED, GREEN):
        for i in range(colour + 2, 12, 2):
            if not in_game >> i & 1:
                continue
            gr, gc = hand_slot(i)
            x, y = geom.x0 + gc * TILE, geom.y0 + gr * TILE
            if i in cells:
                dl.add(Rect(x + 6, y + 6, TILE - 12, TILE - 12, stroke="muted", width=1.0, radius=6))
            else:
                dl.extend(tile(x, y, TILE, i, ring="highlight" if i == selected else None))
        gr = HAND_ROW[colour]
        dl.add(
            Text(
                geom.x0 + 5.5 * TILE,
                geom.y0 + (gr + 0.5) * TILE,
                COLOUR_NAMES[colour][0].upper(),
                size=13,
                color=TILE_FILL[colour],
                bold=True,
            )
        )
    # side-to-move marker next to the mover's hand
    gr = HAND_ROW[position.to_move]
    dl.add(
        Circle(
            geom.x0 + 5.5 * TILE,
            geom.y0 + (gr + 0.5) * TILE,
            TILE * 0.3,
            stroke=TILE_FILL[position.to_move],
            width=2.0,
        )
    )
    if caption:
        dl.add(
            Text(
                width / 2,
                2 * MARGIN + GRID_ROWS * TILE + CAPTION / 2 - MARGIN / 2,
                caption,
                size=12,
                color="ink",
            )
        )
    dl.title = caption
    return dl


def arrow(dl: DisplayList, src: tuple[int, int], dst: tuple[int, int], color: str = "solution") -> None:
    """An arrow between two display cells (used for the first move of a shown line)."""
    geom = dl.grid
    assert geom is not None
    (x1, y1), (x2, y2) = geom.center(*src), geom.center(*dst)
    ang = math.atan2(y2 - y1, x2 - x1)
    head = TILE * 0.22
    # from the edge of the moving tile (its letter stays readable) to the empty target square
    edge = TILE * 0.45 / max(abs(math.cos(ang)), abs(math.sin(ang)))
    start = (x1 + math.cos(ang) * edge, y1 + math.sin(ang) * edge)
    tip = (x2 - math.cos(ang) * TILE * 0.05, y2 - math.sin(ang) * TILE * 0.05)
    mark_target(dl, dst, color)
    dl.add(Line(start, tip, color, 3.0, cap="round"))
    left = (tip[0] - head * math.cos(ang - 0.5), tip[1] - head * math.sin(ang - 0.5))
    right = (tip[0] - head * math.cos(ang + 0.5), tip[1] - head * math.sin(ang + 0.5))
    dl.add(Polyline((left, tip, right), color, 3.0, closed=True, fill=color))


def mark_source(dl: DisplayList, cell: tuple[int, int], color: str = "solution") -> None:
    """An outline around the tile that the hint moves (drawn around it, never over its letter)."""
    geom = dl.grid
    assert geom is not None
    x, y = geom.center(*cell)
    half = TILE * 0.5
    dl.add(Rect(x - half, y - half, 2 * half, 2 * half, stroke=color, width=3.0))


def mark_target(dl: DisplayList, cell: tuple[int, int], color: str = "solution") -> None:
    """A ring and a dot on the (empty) square where the hinted dove goes."""
    geom = dl.grid
    assert geom is not None
    x, y = geom.center(*cell)
    dl.add(Circle(x, y, TILE * 0.3, stroke=color, width=2.5))
    dl.add(Circle(x, y, TILE * 0.08, fill=color))
