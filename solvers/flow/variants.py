"""Random variant boards (walls, holes, bridges, warps, hexes) with a unique designed solution.

The plain generator's method on the variant's graph: a random cover of the graph's nodes by
paths that never touch themselves (graph neighbours; bridge lanes may not end a path), its ends
are the endpoints, and while the solver finds a second designed solution a path is split where
the two differ.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.flow.generate import MIN_PATH, _Cover
from solvers.flow.graph import FlowGraph, variant_graph
from solvers.flow.model import BRIDGE, HOLE, LETTERS, MNEMONIC_ORDER, Cell, FlowPuzzle, wall
from solvers.flow.sat import solutions

KINDS = ("walls", "holes", "bridges", "warps", "hex")


@dataclass
class VariantGenerated:
    puzzle: FlowPuzzle
    paths: list[list[Cell]]
    attempts: int
    seed: int


def _connected(puzzle: FlowPuzzle) -> bool:
    cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if puzzle.is_cell(r, c)]
    if not cells:
        return False
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        for n in puzzle.neighbours(*todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def template(rows: int, cols: int, kind: str, rng: random.Random) -> FlowPuzzle:
    """An empty board of the variant ``kind`` with random features."""
    if kind not in KINDS:
        raise InputError(f"unknown variant {kind!r} (use {', '.join(KINDS)})")
    board = FlowPuzzle.empty(rows, cols)
    area = rows * cols
    if kind == "hex":
        return replace(board, hex=True)
    if kind == "warps":
        k = max(1, min(rows, cols) // 5)
        return replace(
            board,
            warp_rows=frozenset(rng.sample(range(rows), k)),
            warp_cols=frozenset(rng.sample(range(cols), k)),
        )
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    if kind == "walls":
        walls: set[tuple[Cell, Cell]] = set()
        for _ in range(area // 5):
            r, c = rng.choice(cells)
            d = rng.choice((1, 2))
            other = board.step(r, c, d)
            if other is None:
                continue
            trial = replace(board, walls=frozenset(walls | {wall((r, c), other)}))
            if all(len(list(trial.neighbours(*x))) >= 2 for x in ((r, c), other)) and _connected(trial):
                walls.add(wall((r, c), other))
                board = trial
        return board
    if kind == "holes":
        for _ in range(area // 12):
            r, c = rng.choice(cells)
            trial = board.with_cell(r, c, HOLE)
            if _connected(trial) and all(
                len(list(trial.neighbours(*n))) >= 2 for n in board.neighbours(r, c)
            ):
                board = trial
        return board
    inner = [(r, c) for r, c in cells if 0 < r < rows - 1 and 0 < c < cols - 1]
    for _ in range(max(1, area // 40)):
        if not inner:
            break
        r, c = rng.choice(inner)
        if all(board.at(*n) != BRIDGE for n in board.neighbours(r, c)):
            board = board.with_cell(r, c, BRIDGE)
    return board


def _nbrs(graph: FlowGraph) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {v: [] for v in range(graph.n_nodes)}
    for u, v in graph.edges.tolist():
        out[u].append(v)
        out[v].append(u)
    return out


def _with_ends(board: FlowPuzzle, graph: FlowGraph, paths: list[list[int]]) -> FlowPuzzle:
    cells = list(board.cells)
    order = sorted(range(len(paths)), key=lambda i: -len(paths[i]))
    for k, i in enumerate(order):
        for node in (paths[i][0], paths[i][-1]):
            r, c = graph.cells[node]
            cells[r * board.cols + c] = MNEMONIC_ORDER[k]
    return board.with_cells(tuple(cells))


def _unique(
    board: FlowPuzzle,
    graph: FlowGraph,
    lanes: frozenset[int],
    paths: list[list[int]],
    rng: random.Random,
    cancel: CancelToken | None,
) -> list[list[int]] | None:
    while len(paths) <= len(LETTERS):
        puzzle = _with_ends(board, graph, paths)
        found = []
        for sol in solutions(variant_graph(puzzle), "designed", cancel):
            found.append(sol)
            if len(found) == 2:
                break
        if len(found) == 1:
            return paths
        if not found:
            return None
        ours = {v: i for i, p in enumerate(paths) for v in p}
        ours_colour = {v: puzzle.colours.index(puzzle.at(*graph.cells[paths[i][0]])) for v, i in ours.items()}
        other = found[1].node_colour.tolist()
        diff = [v for v in ours if other[v] != ours_colour[v]] or [
            v for v in ours if found[0].node_colour[v] != ours_colour[v]
        ]
        rng.shuffle(diff)
        for v in diff:
            i = ours[v]
            p = paths[i]
            j = p.index(v)
            for cut in (j, j + 1):
                if MIN_PATH <= cut <= len(p) - MIN_PATH and p[cut - 1] not in lanes and p[cut] not in lanes:
                    paths = paths[:i] + [p[:cut], p[cut:]] + paths[i + 1 :]
                    break
            else:
                continue
            break
        else:
            return None
    return None


def generate_variant(
    cols: int,
    rows: int,
    kind: str,
    seed: int | None = None,
    cancel: CancelToken | None = None,
    max_attempts: int = 100,
    shape: FlowPuzzle | None = None,
) -> VariantGenerated:
    """A ``kind`` board of ``cols`` x ``rows`` whose solution is unique under designed rules.
    ``shape``: an empty board of that size to fill (its holes, walls, layout) instead of a random
    one of ``kind``."""
    if not (3 <= rows <= 60 and 3 <= cols <= 60):
        raise InputError(f"variant generator sizes are 3..60, got {cols}x{rows}")
    seed = random.randrange(2**32) if seed is None else seed
    rng = random.Random(seed)
    target = max(2, round((rows * cols) ** 0.5 * 0.9))
    for attempt in range(1, max_attempts + 1):
        if cancel is not None:
            cancel.raise_if_cancelled()
        board = template(rows, cols, kind, rng) if shape is None else shape
        graph = variant_graph(board)
        lanes = frozenset(v for v, lane in enumerate(graph.lanes) if lane >= 0)
        cover = _Cover(list(range(graph.n_nodes)), _nbrs(graph), rng, lanes)
        for _ in range(6):
            cover.merge_down(target, cancel)
            if cover.fix_short() and len(cover.paths) <= target:
                break
        paths: list[list[int]] = [list(p) for p in cover.paths.values()]
        if any(cover.bad_end(p) for p in cover.paths.values()) or len(paths) > len(LETTERS):
            continue
        unique = _unique(board, graph, lanes, paths, rng, cancel)
        if unique is None:
            target = max(2, target - 1)
            continue
        puzzle = _with_ends(board, graph, unique)
        return VariantGenerated(puzzle, [[graph.cells[v] for v in p] for p in unique], attempt, seed)
    raise InputError(f"no unique {kind} board of {cols}x{rows} found in {max_attempts} attempts")
