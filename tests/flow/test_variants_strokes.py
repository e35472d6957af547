"""Flow variants: wall strokes (drag along cell sides), hex cursor keys, in the Qt-free editor."""

from __future__ import annotations

from solvers.common.protocol import EditEvent
from solvers.flow import codec
from solvers.flow.draw import geometry
from solvers.flow.edit import FlowUI, edit, side_under
from solvers.flow.model import FlowPuzzle, wall


def _stroke(puzzle: FlowPuzzle, points: list[tuple[float, float]], ui: FlowUI) -> tuple[FlowPuzzle, set[str]]:
    """Press at the first point, drag through the rest (only cell changes, as the board view sends),
    release; returns the result and the merge keys seen."""
    geom = geometry(puzzle)
    keys: set[str] = set()
    last = None
    for i, pos in enumerate(points):
        kind = "press" if i == 0 else "drag"
        cell = geom.cell_at(*pos)
        if kind == "drag" and cell == last:
            continue
        last = cell
        result = edit(puzzle, None, EditEvent(kind, tool="wall", cell=cell, pos=pos, button="left"), ui)
        if result is not None and result.puzzle is not None:
            puzzle = result.puzzle
            keys.add(str(result.merge_key))
    edit(puzzle, None, EditEvent("release", tool="wall", cell=None, pos=points[-1], button="left"), ui)
    return puzzle, keys


def _along(y: float, x0: float, x1: float, n: int = 40) -> list[tuple[float, float]]:
    return [(x0 + (x1 - x0) * i / n, y + (1.5 if i % 3 else -1.5)) for i in range(n + 1)]  # a shaky hand


def test_drag_along_a_row_boundary_draws_one_wall_per_side() -> None:
    puzzle = codec.parse("A...\n....\n...A\n")
    geom = geometry(puzzle)
    y = geom.y0 + geom.cell  # the line between rows 1 and 2
    first = (geom.x0 + 0.4 * geom.cell, y)
    done, keys = _stroke(puzzle, [first, *_along(y, first[0], geom.x0 + 3.6 * geom.cell)], FlowUI())
    assert done.walls == {wall((0, c), (1, c)) for c in range(4)}
    assert keys == {"walls"}  # one undo step
    # A second stroke starting on an existing wall erases; it stops where the pointer leaves the line.
    y2 = geom.y0 + geom.cell
    erased, _ = _stroke(done, _along(y2, geom.x0 + 0.5 * geom.cell, geom.x0 + 1.1 * geom.cell), FlowUI())
    assert erased.walls == {wall((0, c), (1, c)) for c in (1, 2, 3)}


def test_drag_down_a_column_boundary_and_through_cells() -> None:
    puzzle = codec.parse("A..\n...\n..A\n")
    geom = geometry(puzzle)
    x = geom.x0 + geom.cell  # between columns 1 and 2
    pts = [(x + (1.5 if i % 2 else -1.5), geom.y0 + (0.5 + 2.0 * i / 30) * geom.cell) for i in range(31)]
    done, _ = _stroke(puzzle, pts, FlowUI())
    assert done.walls == {wall((r, 0), (r, 1)) for r in range(3)}
    # Through the middle of the cells (no side under the pointer): only the pressed cell's wall.
    mid = geom.y0 + 1.5 * geom.cell
    crossed, _ = _stroke(puzzle, _along(mid, geom.x0 + 0.9 * geom.cell, geom.x0 + 2.5 * geom.cell), FlowUI())
    assert crossed.walls == {wall((1, 0), (1, 1))}


def test_wall_stroke_on_hex_board_and_without_ui() -> None:
    puzzle = codec.parse("shape: hex\nA...\n....\n...A\n")
    geom = geometry(puzzle)
    # The vertical side between (0,0) and (0,1), then on to (1,0)-(1,1)? Only sides the pointer follows.
    (ax, ay), (bx, by) = geom.center(0, 0), geom.center(0, 1)
    mid = ((ax + bx) / 2, (ay + by) / 2)
    assert side_under(puzzle, mid) == ((0, 0), (0, 1))
    assert side_under(puzzle, geom.center(1, 1)) is None  # a cell's middle is no side
    done, _ = _stroke(puzzle, [mid, (mid[0], mid[1] + 5)], FlowUI())
    assert done.walls == {wall((0, 0), (0, 1))}
    # Without UI state (export, scripts) a drag does nothing rather than guessing.
    drag = EditEvent("drag", tool="wall", cell=(0, 1), pos=mid, button="left")
    assert edit(puzzle, None, drag) is None
