"""Display list of a Flow board: grid, round endpoints, rounded pipes in categorical colours."""

from __future__ import annotations

from solvers.common.display import Circle, DisplayList, GridGeometry, Polyline, Rect, Text, grid_lines
from solvers.common.palette import CATEGORICAL_LIGHT
from solvers.common.protocol import Solution
from solvers.flow.model import EMPTY, FlowPaths, FlowPuzzle
from solvers.flow.rules import check

CELL = 40.0
MARGIN = 8.0
PIPE_WIDTH = 0.34  # of a cell
DOT_RADIUS = 0.36  # of a cell


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
    free = iter(k for k in range(size) if k not in taken)
    for ch, k in later:
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
    geom = GridGeometry(MARGIN, MARGIN, CELL, rows, cols)
    dl = DisplayList(2 * MARGIN + cols * CELL, 2 * MARGIN + rows * CELL, grid=geom)
    dl.add(Rect(MARGIN, MARGIN, cols * CELL, rows * CELL, fill="cell"))
    roles = colour_roles(puzzle)
    paths: FlowPaths | None = solution.data if solution is not None else entries
    if solution is None and entries is not None:
        bad = {cell for v in check(puzzle, entries).violations for cell in v.cells}
        for r, c in sorted(bad):
            dl.add(Rect(MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL, fill="error-fill"))
    dl.extend(grid_lines(geom))
    dl.add(Rect(MARGIN, MARGIN, cols * CELL, rows * CELL, stroke="wall", width=2.0))
    if paths is not None:
        for ch, path in paths.items:
            if len(path) < 2 or ch not in roles:
                continue
            points = tuple(geom.center(r, c) for r, c in path if puzzle.inside(r, c))
            dl.add(Polyline(points, roles[ch], CELL * PIPE_WIDTH, cap="round", join="round"))
    # Beyond the palette's distinct colours, letters tell colours apart.
    label_dots = len(roles) > len(CATEGORICAL_LIGHT)
    for i, ch in enumerate(puzzle.cells):
        if ch == EMPTY:
            continue
        x, y = geom.center(*divmod(i, cols))
        dl.add(Circle(x, y, CELL * DOT_RADIUS, fill=roles[ch], stroke="grid", width=1.0))
        if label_dots:
            dl.add(Text(x, y, ch, size=CELL * 0.4, color=f"on:{roles[ch]}", bold=True))
    return dl
