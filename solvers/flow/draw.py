"""Display list of a Flow board: grid, round endpoints, rounded pipes in categorical colours.

Looks (``FlowPuzzle.look``): "pipes" as the game draws a board (big coloured dots, thick pipes);
"lines" and "ink" as Numberlink is printed (the label in a ringed cell, thin lines; in colour, or
all in black). "auto" gives Numberlink puzzles and boards numbered past 9 the "lines" look.

Variants: holes are left as background, walls are thick bars on the cell side, warps show
arrows in the margin at both ends of their row/column (a pipe through the seam leaves one border
and re-enters at the other), bridges are drawn as a deck with the vertical pipe passing over the
horizontal one, hex boards (odd-r, pointy-top cells) use ``HexGeometry`` for hit-testing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from solvers.common.display import (
    Circle,
    DisplayList,
    GridGeometry,
    Line,
    Point,
    Polyline,
    Rect,
    Text,
    grid_lines,
)
from solvers.common.palette import CATEGORICAL_LIGHT
from solvers.common.protocol import Solution
from solvers.flow.model import (
    AUTO_LOOK,
    BRIDGE,
    HOLE,
    INK,
    LINES,
    NOT_COLOURS,
    NUMBERLINK,
    PIPES,
    Cell,
    FlowPaths,
    FlowPuzzle,
    has_long_labels,
)
from solvers.flow.rules import check

CELL = 40.0
MARGIN = 8.0
WARP_MARGIN = 16.0  # room for the warp arrows
WALL_WIDTH = 5.0
SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class HexGeometry(GridGeometry):
    """Pointy-top hexagons in odd-r rows: ``cell`` is the width of a hexagon (flat side to flat
    side); odd rows are shifted half a cell to the right."""

    @property
    def height(self) -> float:
        return self.cell * 2 / SQRT3  # corner to corner

    def center(self, r: int, c: int) -> Point:
        return (self.x0 + (c + 0.5 + 0.5 * (r % 2)) * self.cell, self.y0 + self.height * (0.5 + 0.75 * r))

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        # The nearest centre is the hexagon under the point (Voronoi cells of a hex lattice).
        r0 = int((y - self.y0) // (0.75 * self.height))
        best: tuple[float, tuple[int, int]] | None = None
        for r in (r0 - 1, r0, r0 + 1):
            c0 = int((x - self.x0) // self.cell - 0.5 * (r % 2))
            for c in (c0 - 1, c0, c0 + 1):
                if 0 <= r < self.rows and 0 <= c < self.cols:
                    cx, cy = self.center(r, c)
                    dist = (cx - x) ** 2 + (cy - y) ** 2
                    if best is None or dist < best[0]:
                        best = (dist, (r, c))
        if best is None or best[0] > (self.height / 2) ** 2:
            return None
        return best[1]

    def corners(self, r: int, c: int) -> tuple[Point, ...]:
        cx, cy = self.center(r, c)
        rad = self.height / 2
        return tuple(
            (cx + rad * math.cos(math.radians(90 + 60 * i)), cy + rad * math.sin(math.radians(90 + 60 * i)))
            for i in range(6)
        )


def geometry(puzzle: FlowPuzzle) -> GridGeometry:
    margin = WARP_MARGIN if (puzzle.warp_rows or puzzle.warp_cols) else MARGIN
    if puzzle.hex:
        return HexGeometry(margin, margin, CELL, puzzle.rows, puzzle.cols)
    return GridGeometry(margin, margin, CELL, puzzle.rows, puzzle.cols)


def unit(puzzle: FlowPuzzle, d: int) -> Point:
    """Screen direction (y down) of direction ``d``."""
    if puzzle.hex:
        angle = math.radians(60 * d)  # E, SE, SW, W, NW, NE
        return (math.cos(angle), math.sin(angle))
    dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[d]
    return (float(dc), float(dr))


def side(puzzle: FlowPuzzle, geom: GridGeometry, cell: Cell, d: int) -> tuple[Point, Point]:
    """The two ends of the side of ``cell`` that faces direction ``d``."""
    cx, cy = geom.center(*cell)
    ux, uy = unit(puzzle, d)
    half = geom.cell / 2 / SQRT3 if puzzle.hex else geom.cell / 2  # half a side
    mx, my = cx + ux * geom.cell / 2, cy + uy * geom.cell / 2
    return (mx - uy * half, my + ux * half), (mx + uy * half, my - ux * half)


PIPE_WIDTH = 0.34  # of a cell
LINE_WIDTH = 0.12  # of a cell: the Numberlink looks' lines
DOT_RADIUS = 0.36  # of a cell
RING_WIDTH = {LINES: 3.0, INK: 1.5}  # the Numberlink looks' rings round the labels


def effective_look(puzzle: FlowPuzzle) -> str:
    """The look the board is drawn in: its own, or for "auto" the Numberlink one (coloured lines)
    for a Numberlink puzzle or a board numbered past 9, else the game's pipes."""
    if puzzle.look != AUTO_LOOK:
        return puzzle.look
    return LINES if puzzle.rules == NUMBERLINK or has_long_labels(puzzle.colours) else PIPES


def display_slots(puzzle: FlowPuzzle) -> dict[str, int]:
    """Palette slot per colour letter: its own colour index where that is free and within the
    palette, else the first free slot. So any board with up to ``len(CATEGORICAL_LIGHT)`` colours
    shows them all distinct, whatever letters it uses (letters far down the mnemonic order would
    otherwise wrap around onto colours already in use)."""
    size = len(CATEGORICAL_LIGHT)
    slots: dict[str, int] = {}
    taken: set[int] = set()
    later = []
    for ch in puzzle.colours:
        k = puzzle.colour_index(ch)
        if k < size and k not in taken:
            slots[ch] = k
            taken.add(k)
        else:
            later.append((ch, k))
    # A number (10 and up, or a digit past the palette) keeps the slot of its value where that is
    # free, so a letter placed on a numbered board moves at most the one number whose slot it
    # takes, not every number after it.
    rest = []
    for ch, k in later:
        want = (int(ch) - 1) % size if ch.isdigit() and int(ch) > 0 else -1
        if want >= 0 and want not in taken:
            slots[ch] = want
            taken.add(want)
        else:
            rest.append((ch, k))
    free = iter(k for k in range(size) if k not in taken)
    for ch, k in rest:
        slots[ch] = next(free, k)
    return slots


def colour_roles(puzzle: FlowPuzzle) -> dict[str, str]:
    return {ch: f"color:{k}" for ch, k in display_slots(puzzle).items()}


def draw(
    puzzle: FlowPuzzle,
    solution: Solution | None = None,
    entries: FlowPaths | None = None,
    overlay: object = None,
) -> DisplayList:
    rows, cols = puzzle.rows, puzzle.cols
    geom = geometry(puzzle)
    plain = puzzle.is_plain
    if isinstance(geom, HexGeometry):
        width, height = (cols + 0.5) * CELL, geom.height * (0.75 * rows + 0.25)
    else:
        width, height = cols * CELL, rows * CELL
    dl = DisplayList(2 * geom.x0 + width, 2 * geom.y0 + height, grid=geom)
    if plain:
        dl.add(Rect(geom.x0, geom.y0, width, height, fill="cell"))
    roles = colour_roles(puzzle)
    look = effective_look(puzzle)
    # The pipes' colour role per label: the pair's colour, or black ink in the "ink" look.
    inks = {ch: "ink" for ch in roles} if look == INK else roles
    pipe_width = CELL * (PIPE_WIDTH if look == PIPES else LINE_WIDTH)
    paths: FlowPaths | None = solution.data if solution is not None else entries
    bad: set[Cell] = set()
    if solution is None and entries is not None:
        bad = {cell for v in check(puzzle, entries).violations for cell in v.cells}
    if plain:
        for r, c in sorted(bad):
            dl.add(Rect(geom.x0 + c * CELL, geom.y0 + r * CELL, CELL, CELL, fill="error-fill"))
        dl.extend(grid_lines(geom))
        dl.add(Rect(geom.x0, geom.y0, width, height, stroke="wall", width=2.0))
    else:
        _variant_board(dl, puzzle, geom, bad)
    if paths is not None:
        for ch, path in paths.items:
            if len(path) < 2 or ch not in roles:
                continue
            for piece in _pieces(puzzle, geom, path):
                dl.add(Polyline(piece, inks[ch], pipe_width, cap="round", join="round"))
        _bridges_over(dl, puzzle, geom, paths, inks, pipe_width)
    label_dots = puzzle.labels or labels_always(puzzle)
    for i, ch in enumerate(puzzle.cells):
        if ch in NOT_COLOURS:
            continue
        x, y = geom.center(*divmod(i, cols))
        if look == PIPES:
            dl.add(Circle(x, y, CELL * DOT_RADIUS, fill=roles[ch], stroke="grid", width=1.0))
            text = f"on:{roles[ch]}"
        else:  # the label in black in a ringed cell; the ring covers the line's end
            dl.add(Circle(x, y, CELL * DOT_RADIUS, fill="cell", stroke=inks[ch], width=RING_WIDTH[look]))
            text = "ink"
        if label_dots:
            size = CELL * (0.4 if len(ch) < 3 else 0.3)  # three digits still fit the dot
            dl.add(Text(x, y, ch, size=size, color=text, bold=True))
    return dl


def labels_always(puzzle: FlowPuzzle) -> bool:
    """Whether the dots show their labels whatever ``puzzle.labels`` says: beyond the palette's
    distinct colours letters tell colours apart, and a Numberlink puzzle, a board with numbers
    past 9 or one drawn in a Numberlink look shows them as Numberlink boards are printed (a Flow
    board that uses digit letters keeps plain dots)."""
    colours = puzzle.colours
    return (
        len(colours) > len(CATEGORICAL_LIGHT)
        or puzzle.rules == NUMBERLINK
        or has_long_labels(colours)
        or effective_look(puzzle) != PIPES
    )


def _hole(dl: DisplayList, geom: GridGeometry, r: int, c: int) -> None:
    """A hole: shaded and hatched, so an interior hole never reads as an empty cell with a bold
    outline (it did when holes were left as background)."""
    if isinstance(geom, HexGeometry):
        dl.add(Polyline(geom.corners(r, c), "muted", 0.0, closed=True, fill="muted"))
        return
    x, y = geom.x0 + c * CELL, geom.y0 + r * CELL
    dl.add(Rect(x, y, CELL, CELL, fill="muted", stroke=None))
    for a, b in (((0.0, 0.5), (0.5, 0.0)), ((0.0, 1.0), (1.0, 0.0)), ((0.5, 1.0), (1.0, 0.5))):
        dl.add(
            Line(
                (x + a[0] * CELL, y + a[1] * CELL),
                (x + b[0] * CELL, y + b[1] * CELL),
                color="grid",
                width=1.5,
            )
        )


def _variant_board(dl: DisplayList, puzzle: FlowPuzzle, geom: GridGeometry, bad: set[Cell]) -> None:
    """Cells one by one (holes shaded and hatched), walls, bridge decks, warp arrows."""
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            if puzzle.at(r, c) == HOLE:
                _hole(dl, geom, r, c)
                continue
            fill = "error-fill" if (r, c) in bad else "cell"
            if isinstance(geom, HexGeometry):
                dl.add(Polyline(geom.corners(r, c), "grid", 1.0, closed=True, fill=fill))
            else:
                dl.add(Rect(geom.x0 + c * CELL, geom.y0 + r * CELL, CELL, CELL, fill=fill, stroke="grid"))
            # Border sides (next to a hole or the edge, no warp) get the frame line.
            for d in range(puzzle.n_dirs):
                nxt = puzzle.step(r, c, d)
                if nxt is None or not puzzle.is_cell(*nxt):
                    dl.add(Line(*side(puzzle, geom, (r, c), d), color="wall", width=2.0, cap="round"))
            if puzzle.at(r, c) == BRIDGE:
                x, y = geom.x0 + c * CELL, geom.y0 + r * CELL
                for dx in (0.22, 0.78):  # the deck's rails (the vertical lane is on top)
                    dl.add(Line((x + dx * CELL, y), (x + dx * CELL, y + CELL), color="grid", width=2.0))
                # The lane underneath shows its edges up to the deck: an overpass, not two walls.
                for dy in (0.22, 0.78):
                    for x0, x1 in ((0.0, 0.22), (0.78, 1.0)):
                        a, b = (x + x0 * CELL, y + dy * CELL), (x + x1 * CELL, y + dy * CELL)
                        dl.add(Line(a, b, color="grid", width=2.0))
    for a, b in sorted(puzzle.walls):
        for cell, other in ((a, b), (b, a)):
            found = next((d for d in range(puzzle.n_dirs) if puzzle.step(*cell, d) == other), None)
            if found is None:
                continue
            d = found
            dl.add(Line(*side(puzzle, geom, cell, d), color="wall", width=WALL_WIDTH, cap="round"))
            if _seam(puzzle, cell, other) is False:
                break  # one bar serves both cells unless the wall is on a warp seam
    arrow = geom.cell * 0.22
    for r in sorted(puzzle.warp_rows):
        y = geom.center(r, 0)[1]
        for x, sign in ((geom.x0 - 3, -1), (geom.x0 + puzzle.cols * CELL + 3, 1)):
            tip = x + sign * arrow
            dl.add(Polyline(((x, y - arrow), (tip, y), (x, y + arrow)), "wall", 2.5, cap="round"))
    for c in sorted(puzzle.warp_cols):
        x = geom.center(0, c)[0]
        for y, sign in ((geom.y0 - 3, -1), (geom.y0 + puzzle.rows * CELL + 3, 1)):
            tip = y + sign * arrow
            dl.add(Polyline(((x - arrow, y), (x, tip), (x + arrow, y)), "wall", 2.5, cap="round"))


def _seam(puzzle: FlowPuzzle, a: Cell, b: Cell) -> bool:
    """Is the step a -> b across a warp seam (not drawn as a straight segment)?"""
    return not puzzle.hex and abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1


def _pieces(puzzle: FlowPuzzle, geom: GridGeometry, path: tuple[Cell, ...]) -> list[tuple[Point, ...]]:
    """Polylines of a pipe, split where it passes through a warp seam (out at one border, in at
    the other)."""
    cells = [cell for cell in path if puzzle.inside(*cell)]
    pieces: list[list[Point]] = [[geom.center(*cells[0])]] if cells else []
    for a, b in zip(cells, cells[1:], strict=False):
        if puzzle.warp_rows or puzzle.warp_cols:
            d = puzzle.direction(a, b)
            if d is not None and _seam(puzzle, a, b):
                ux, uy = unit(puzzle, d)
                (ax, ay), (bx, by) = geom.center(*a), geom.center(*b)
                pieces[-1].append((ax + ux * CELL / 2, ay + uy * CELL / 2))
                pieces.append([(bx - ux * CELL / 2, by - uy * CELL / 2)])
        pieces[-1].append(geom.center(*b))
    return [tuple(p) for p in pieces if len(p) >= 2]


def _bridges_over(
    dl: DisplayList,
    puzzle: FlowPuzzle,
    geom: GridGeometry,
    paths: FlowPaths,
    roles: dict[str, str],
    width: float,
) -> None:
    """Redraw the vertical lane of each bridge on top, with a cell-coloured casing: the
    over/under crossing."""
    if BRIDGE not in puzzle.cells:
        return
    for ch, path in paths.items:
        if ch not in roles:
            continue
        for i, cell in enumerate(path):
            if not puzzle.inside(*cell) or puzzle.at(*cell) != BRIDGE:
                continue
            nxt = path[i + 1] if i + 1 < len(path) else path[i - 1] if i else None
            if nxt is None or puzzle.direction(cell, nxt) not in (0, 2):
                continue
            x, y = geom.center(*cell)
            top, bottom = (x, y - CELL / 2), (x, y + CELL / 2)
            dl.add(Line(top, bottom, color="cell", width=width + CELL * 0.16))
            dl.add(Line(top, bottom, color=roles[ch], width=width))
