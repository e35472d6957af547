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


def colour_roles(puzzle: FlowPuzzle) -> dict[str, str]:
    return {ch: f"color:{puzzle.colour_index(ch)}" for ch in puzzle.colours}


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
    # The categorical palette repeats after its last entry: then letters tell colours apart.
    label_dots = len({puzzle.colour_index(ch) % len(CATEGORICAL_LIGHT) for ch in roles}) < len(roles)
    for i, ch in enumerate(puzzle.cells):
        if ch == EMPTY:
            continue
        x, y = geom.center(*divmod(i, cols))
        dl.add(Circle(x, y, CELL * DOT_RADIUS, fill=roles[ch], stroke="grid", width=1.0))
        if label_dots:
            dl.add(Text(x, y, ch, size=CELL * 0.4, color="ink", bold=True))
    return dl
