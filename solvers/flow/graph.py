"""The board as a graph: cells are nodes, neighbours are edges.

The SAT model only sees this graph, so the variants change only how the graph is built:

* holes are no nodes; a wall removes the edge between its two cells;
* a warp adds the seam edge between the two border cells of its row or column;
* a bridge cell is two *lane* nodes, horizontal and vertical, each with only its two straight
  edges (a lane is an ordinary inner node: degree 2, one colour), so a pipe crosses straight
  through and both lanes are used;
* hex boards (odd-r) give each cell six neighbours.

``squares`` are the graph's chordless 4-cycles (the 2x2 blocks of a square grid, plus blocks
across a warp seam; a block with a wall, a hole or a bridge corner is no 4-cycle), ``triangles``
its 3-cycles (hex boards). Both carry sound rule lemmas on any graph: used edges of a whole cycle
are a loop; under designed rules two used edges of a triangle, or three of a 4-cycle, leave two
neighbours of one colour unlinked.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from solvers.flow.model import BRIDGE, HOLE, Cell, FlowPuzzle, cell_rows


@dataclass(frozen=True)
class FlowGraph:
    cells: tuple[Cell, ...]  # node id -> (row, col)
    edges: np.ndarray  # (E, 2) int64, node ids
    incident: tuple[tuple[int, ...], ...]  # node id -> incident edge ids
    squares: tuple[tuple[int, int, int, int], ...]  # edge ids of each 4-cycle, in cyclic order
    colours: tuple[str, ...]  # colour id -> letter
    terminals: tuple[tuple[int, int], ...]  # colour id -> its two endpoint node ids
    terminal_colour: dict[int, int]  # endpoint node id -> colour id
    triangles: tuple[tuple[int, int, int], ...] = ()  # edge ids of each 3-cycle (hex boards)
    lanes: tuple[
        int, ...
    ] = ()  # node id -> 0 horizontal / 1 vertical lane of a bridge, -1 else ('' = all -1)

    @property
    def n_nodes(self) -> int:
        return len(self.cells)

    @property
    def n_edges(self) -> int:
        return len(self.edges)


_T = TypeVar("_T")
# Graphs whose derived tables ``per_graph`` keeps: a search's stages and restarts share one graph.
PER_GRAPH_CACHE = 4


def per_graph(fn: Callable[..., _T]) -> Callable[..., _T]:
    """``fn(graph, *args)`` computed once for each of the last few graphs (and ``args``): tables
    that every stage and restart of a search rebuilt (a 60x60 board's degree clauses took 36 ms of
    the 0.12 s that setting up one restart cost). Keyed by the graph's id, with a weak reference to
    tell a new graph at a reused address apart. Callers must not change what they get."""
    cache: dict[tuple[Hashable, ...], tuple[weakref.ref[FlowGraph], _T]] = {}

    @functools.wraps(fn)
    def cached(graph: FlowGraph, *args: Hashable) -> _T:
        key = (id(graph), *args)
        hit = cache.get(key)
        if hit is not None and hit[0]() is graph:
            return hit[1]
        value = fn(graph, *args)
        if len(cache) >= PER_GRAPH_CACHE:
            cache.clear()
        cache[key] = (weakref.ref(graph), value)
        return value

    return cached


def grid_graph(puzzle: FlowPuzzle) -> FlowGraph:
    """The graph of a (valid) puzzle, variants included."""
    if not puzzle.is_plain:
        return variant_graph(puzzle)
    rows, cols = puzzle.rows, puzzle.cols
    node = np.arange(rows * cols).reshape(rows, cols)
    horizontal = np.stack([node[:, :-1].ravel(), node[:, 1:].ravel()], axis=1)
    vertical = np.stack([node[:-1, :].ravel(), node[1:, :].ravel()], axis=1)
    edges = np.concatenate([horizontal, vertical]).astype(np.int64).reshape(-1, 2)
    n_h = len(horizontal)
    incident: list[list[int]] = [[] for _ in range(rows * cols)]
    for i, (a, b) in enumerate(edges.tolist()):
        incident[a].append(i)
        incident[b].append(i)

    def h(r: int, c: int) -> int:  # edge (r,c)-(r,c+1)
        return r * (cols - 1) + c

    def v(r: int, c: int) -> int:  # edge (r,c)-(r+1,c)
        return n_h + r * cols + c

    # Cyclic order around the square: top, right, bottom, left.
    squares = tuple(
        (h(r, c), v(r, c + 1), h(r + 1, c), v(r, c)) for r in range(rows - 1) for c in range(cols - 1)
    )
    endpoints = puzzle.endpoints()
    colours = tuple(endpoints)
    terminals = tuple((a[0] * cols + a[1], b[0] * cols + b[1]) for a, b in endpoints.values())
    terminal_colour = {t: k for k, pair in enumerate(terminals) for t in pair}
    return FlowGraph(
        cells=tuple((r, c) for r in range(rows) for c in range(cols)),
        edges=edges,
        incident=tuple(tuple(x) for x in incident),
        squares=squares,
        colours=colours,
        terminals=terminals,
        terminal_colour=terminal_colour,
    )


def _lane(puzzle: FlowPuzzle, d: int) -> int:
    """Lane of a bridge cell that a step in direction ``d`` (square) enters or leaves."""
    return 0 if d in (1, 3) else 1


def variant_graph(puzzle: FlowPuzzle) -> FlowGraph:
    """General builder: holes, bridges (lane nodes), walls, warps, hex adjacency."""
    rows, cols = puzzle.rows, puzzle.cols
    cells: list[Cell] = []
    lanes: list[int] = []
    first_node: dict[Cell, int] = {}
    for r in range(rows):
        for c in range(cols):
            ch = puzzle.at(r, c)
            if ch == HOLE:
                continue
            first_node[(r, c)] = len(cells)
            for lane in (0, 1) if ch == BRIDGE else (-1,):
                cells.append((r, c))
                lanes.append(lane)

    def node(cell: Cell, d: int) -> int:
        base = first_node[cell]
        return base + _lane(puzzle, d) if lanes[base] >= 0 else base

    opposite = puzzle.n_dirs // 2
    edge_of: dict[tuple[int, int], int] = {}
    for (r, c), _ in first_node.items():
        for d in range(puzzle.n_dirs):
            other = puzzle.link(r, c, d)
            if other is None:
                continue
            u, v = node((r, c), d), node(other, (d + opposite) % puzzle.n_dirs)
            key = (min(u, v), max(u, v))
            if u != v and key not in edge_of:
                edge_of[key] = len(edge_of)
    edges = np.asarray(list(edge_of), dtype=np.int64).reshape(-1, 2)
    n = len(cells)
    nbr: list[set[int]] = [set() for _ in range(n)]
    incident: list[list[int]] = [[] for _ in range(n)]
    for i, (u, v) in enumerate(edge_of):
        nbr[u].add(v)
        nbr[v].add(u)
        incident[u].append(i)
        incident[v].append(i)

    def eid(a: int, b: int) -> int:
        return edge_of[(min(a, b), max(a, b))]

    triangles = []
    for u, v in edge_of:
        for w in sorted(nbr[u] & nbr[v]):
            if w > v:
                triangles.append((eid(u, v), eid(v, w), eid(w, u)))
    squares = []
    for u in range(n):
        around = sorted(w for w in nbr[u] if w > u)
        for i, v in enumerate(around):
            for w in around[i + 1 :]:
                if w in nbr[v]:
                    continue  # a chord: triangles cover it
                for x in sorted(nbr[v] & nbr[w]):
                    if x > u and x not in nbr[u]:
                        squares.append((eid(u, v), eid(v, x), eid(x, w), eid(w, u)))
    endpoints = puzzle.endpoints()
    colours = tuple(endpoints)
    terminals = tuple((first_node[a], first_node[b]) for a, b in (pair[:2] for pair in endpoints.values()))
    terminal_colour = {t: k for k, pair in enumerate(terminals) for t in pair}
    return FlowGraph(
        cells=tuple(cells),
        edges=edges,
        incident=tuple(tuple(x) for x in incident),
        squares=tuple(squares),
        colours=colours,
        terminals=terminals,
        terminal_colour=terminal_colour,
        triangles=tuple(triangles),
        lanes=tuple(lanes),
    )


def solution_rows(puzzle: FlowPuzzle, graph: FlowGraph, node_colour: np.ndarray) -> list[str]:
    """Text rows of a solution: each cell's colour letter (``#`` holes; a bridge shows ``+``)."""
    letters = list(puzzle.cells)
    for node, k in enumerate(node_colour.tolist()):
        r, c = graph.cells[node]
        if letters[r * puzzle.cols + c] != BRIDGE and 0 <= k < len(graph.colours):
            letters[r * puzzle.cols + c] = graph.colours[k]
    return cell_rows(letters, puzzle.rows, puzzle.cols)


def components(n: int, links: np.ndarray) -> np.ndarray:
    """Component label (smallest node id) per node, linked by ``links`` (pairs of node ids)."""
    label = np.arange(n)
    if len(links) == 0:
        return label
    u, v = links[:, 0], links[:, 1]
    while True:
        low = np.minimum(label[u], label[v])
        before = label.copy()
        np.minimum.at(label, label[u], low)
        np.minimum.at(label, label[v], low)
        label = label[label]  # pointer jumping: converges in few rounds
        label = label[label]
        if np.array_equal(label, before):
            return label
