"""The board as a graph: cells are nodes, orthogonal neighbours are edges.

The SAT model only sees this graph, so later variants (walls, holes, warps, bridges, hexes) change
only how the graph is built, not the encoding.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.flow.model import Cell, FlowPuzzle


@dataclass(frozen=True)
class FlowGraph:
    cells: tuple[Cell, ...]  # node id -> (row, col)
    edges: np.ndarray  # (E, 2) int64, node ids
    incident: tuple[tuple[int, ...], ...]  # node id -> incident edge ids
    squares: tuple[tuple[int, int, int, int], ...]  # edge ids of each 4-cycle, in cyclic order
    colours: tuple[str, ...]  # colour id -> letter
    terminals: tuple[tuple[int, int], ...]  # colour id -> its two endpoint node ids
    terminal_colour: dict[int, int]  # endpoint node id -> colour id

    @property
    def n_nodes(self) -> int:
        return len(self.cells)

    @property
    def n_edges(self) -> int:
        return len(self.edges)


def grid_graph(puzzle: FlowPuzzle) -> FlowGraph:
    """Rectangular grid graph of a (valid) puzzle."""
    rows, cols = puzzle.rows, puzzle.cols
    node = np.arange(rows * cols).reshape(rows, cols)
    horizontal = np.stack([node[:, :-1].ravel(), node[:, 1:].ravel()], axis=1)
    vertical = np.stack([node[:-1, :].ravel(), node[1:, :].ravel()], axis=1)
    edges = np.concatenate([horizontal, vertical]).astype(np.int64).reshape(-1, 2)
    n_h = len(horizontal)
    incident: list[list[int]] = [[] for _ in range(rows * cols)]
    for i, (u, v) in enumerate(edges.tolist()):
        incident[u].append(i)
        incident[v].append(i)

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
