"""Play-mode help (Qt-free): progress summary and "reveal one pipe of the solution"."""

from __future__ import annotations

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.flow import solve as solving
from solvers.flow.model import BRIDGE, HOLE, Cell, FlowPaths, FlowPuzzle

Paths = dict[str, list[list[int]]]  # as ``Solution.extras["paths"]``


def first_paths(puzzle: FlowPuzzle, cancel: CancelToken | None = None) -> Paths | None:
    """One solution's pipes, or None when there is none."""
    for solution in solving.solve(puzzle, limit=1, cancel=cancel):
        return solution.extras["paths"]
    return None


def joined_pipes(puzzle: FlowPuzzle, entries: FlowPaths | None) -> dict[str, tuple[Cell, ...]]:
    """The player's pipes that join both endpoints of their colour."""
    ends = puzzle.endpoints()
    paths = entries.as_dict() if entries is not None else {}
    return {
        ch: path
        for ch, path in paths.items()
        if ch in ends and len(path) >= 2 and {path[0], path[-1]} == set(ends[ch])
    }


def hint_paths(
    puzzle: FlowPuzzle, joined: dict[str, tuple[Cell, ...]], cancel: CancelToken | None = None
) -> tuple[Paths | None, bool]:
    """A solution to reveal pipes from, and whether it keeps every pipe in ``joined``.

    On a board with several solutions any one of them undid the player's finished pipes even where
    they belong to another solution (QA: a correct blue pipe was wiped out by the hint for red).
    So the board is first solved with those pipes fixed: their cells become holes and their
    colours go, and the rest's solution plus those pipes is a solution of the board. Bridges are
    left out (a fixed pipe over a bridge must not close the other lane)."""
    if joined and BRIDGE not in puzzle.cells:
        taken = {cell for path in joined.values() for cell in path}
        cells = tuple(HOLE if divmod(i, puzzle.cols) in taken else ch for i, ch in enumerate(puzzle.cells))
        rest = puzzle.with_cells(cells)
        if rest.endpoints():
            try:
                found = first_paths(rest, cancel)
            except InputError:  # the rest is no valid board (e.g. a warp into a new hole)
                found = None
            if found is not None:
                kept = {ch: [list(cell) for cell in path] for ch, path in joined.items()}
                return {**found, **kept}, True
    return first_paths(puzzle, cancel), False


def keeps(solution: Paths, joined: dict[str, tuple[Cell, ...]]) -> bool:
    """Whether ``solution`` holds every pipe of ``joined`` (either way round)."""
    return all(
        _same_route(path, tuple((int(r), int(c)) for r, c in solution.get(ch, ())))
        for ch, path in joined.items()
    )


def progress_text(puzzle: FlowPuzzle, entries: FlowPaths | None) -> str:
    endpoints = puzzle.endpoints()
    if not endpoints:
        return "No endpoints yet: place pairs of dots in edit mode."
    paths = entries.as_dict() if entries is not None else {}
    joined = sum(
        1
        for ch, ends in endpoints.items()
        if len(paths.get(ch, ())) >= 2 and set(ends) == {paths[ch][0], paths[ch][-1]}
    )
    covered = len({cell for path in paths.values() for cell in path})
    share = round(100 * covered / (puzzle.rows * puzzle.cols))
    return f"{joined} of {len(endpoints)} pipes joined, {share}% of the board filled"


def _same_route(a: tuple[Cell, ...], b: tuple[Cell, ...]) -> bool:
    return a == b or a == tuple(reversed(b))


def reveal_one(
    puzzle: FlowPuzzle, entries: FlowPaths | None, solution: dict[str, list[list[int]]]
) -> tuple[str, FlowPaths] | None:
    """Copy the first pipe (display order) that the player has not drawn as in ``solution``.

    The pipe keeps the player's starting endpoint if they began one; the player's other pipes
    are cut where the revealed pipe crosses them. None if every pipe already matches."""
    current = entries if entries is not None else FlowPaths()
    for ch in puzzle.colours:
        route = tuple((int(r), int(c)) for r, c in solution.get(ch, ()))
        if not route:
            continue
        mine = current.get(ch)
        if _same_route(mine, route):
            continue
        if mine and mine[0] == route[-1]:
            route = tuple(reversed(route))
        cells = set(route)
        out = current
        for other, path in current.items:
            if other == ch:
                continue
            cut = next((i for i, cell in enumerate(path) if cell in cells), None)
            if cut is not None:
                out = out.with_path(other, path[:cut])
        return ch, out.with_path(ch, route, active="")
    return None
