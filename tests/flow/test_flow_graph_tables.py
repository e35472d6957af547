"""Tables that the search builds with numpy and numba, against plain versions written here:
``splice.trace`` (on degree-valid edge sets with pipes, loops and unused cells) and
``detour.neighbour_table`` (on every board variant)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from solvers.flow import codec
from solvers.flow.detour import neighbour_table
from solvers.flow.graph import FlowGraph, grid_graph
from solvers.flow.random_path import random_path_board
from solvers.flow.splice import trace


def _plain_trace(graph: FlowGraph, used: np.ndarray) -> tuple[list[int], list[list[int]], list[list[int]]]:
    """The rule of ``trace`` walked with dicts: leave each node by its lowest used edge that does not
    lead back; pipes from each colour's first endpoint, then loops from the lowest free node."""
    adj: dict[int, list[tuple[int, int]]] = {v: [] for v in range(graph.n_nodes)}
    for e in range(graph.n_edges):
        if used[e]:
            u, v = (int(x) for x in graph.edges[e])
            adj[u].append((v, e))
            adj[v].append((u, e))
    label = [-1] * graph.n_nodes
    paths = []
    for k, (first, _other) in enumerate(graph.terminals):
        path, prev, node = [first], -1, first
        label[first] = k
        while ahead := [w for w, _ in adj[node] if w != prev]:
            prev, node = node, ahead[0]
            path.append(node)
            label[node] = k
        paths.append(path)
    loops: list[list[int]] = []
    for start in [v for v in range(graph.n_nodes) if label[v] < 0]:
        if label[start] >= 0 or not adj[start]:
            continue
        loop, prev, node = [], -1, start
        while True:
            label[node] = len(graph.terminals) + len(loops)
            w, e = next((w, e) for w, e in adj[node] if w != prev)
            loop.append(e)
            prev, node = node, w
            if node == start:
                break
        loops.append(loop)
    return label, paths, loops


def _edge_sets(rows: int, cols: int, seed: int) -> tuple[FlowGraph, list[np.ndarray]]:
    """A random-path board's graph and edge sets made from its pieces: as they are, with 2x2 swaps
    (two used opposite sides of a square for the other two: degrees stay, loops appear, pipes
    exchange tails) and with some pipes dropped (unused cells)."""
    rng = random.Random(seed)
    board = random_path_board(rows, cols, rng.randint(2, rows), seed)
    graph = grid_graph(board.puzzle)
    node = {cell: i for i, cell in enumerate(graph.cells)}
    edge = {frozenset(map(int, pair)): e for e, pair in enumerate(graph.edges)}
    used = np.zeros(graph.n_edges, dtype=bool)
    for piece in board.pieces:
        for a, b in zip(piece, piece[1:], strict=False):
            used[edge[frozenset((node[a], node[b]))]] = True
    sets = [used.copy()]
    squares = np.asarray(graph.squares, dtype=np.int64).reshape(-1, 4)
    n_k = len(graph.terminals)
    for _ in range(6):
        for _ in range(rng.randint(1, 40)):
            sq = squares[rng.randrange(len(squares))]
            sides = np.flatnonzero(used[sq])
            if len(sides) != 2 or sides[1] - sides[0] != 2:
                continue  # not two opposite sides
            label = _plain_trace(graph, used)[0]
            a, b = (label[int(graph.edges[sq[i], 0])] for i in sides)
            if a == b or max(a, b) >= n_k:  # never two pipes: they would swap tails (two colours)
                used[sq] = ~used[sq]
        sets.append(used.copy())
    label = np.asarray(_plain_trace(graph, used)[0])
    dropped = used & ~np.isin(label[graph.edges[:, 0]], np.arange(0, n_k, 2))  # every other pipe
    sets.append(dropped)
    return graph, sets


@pytest.mark.parametrize("seed", range(12))
def test_trace_walks_as_the_plain_walk_does(seed: int) -> None:
    rows, cols = random.Random(seed).choice([(4, 5), (7, 7), (12, 9), (30, 30)])
    graph, sets = _edge_sets(rows, cols, seed)
    loops_seen = 0
    for used in sets:
        label, paths, loops = trace(graph, used)
        want_label, want_paths, want_loops = _plain_trace(graph, used)
        assert label.tolist() == want_label and paths == want_paths and loops == want_loops
        loops_seen += len(loops)
    if rows * cols >= 49:
        assert loops_seen > 0  # the swaps made loops to trace


def test_a_dangling_piece_is_refused() -> None:
    graph, sets = _edge_sets(6, 6, 3)
    used = sets[-1].copy()
    free = np.flatnonzero(~used)
    # A lone used edge between two cells that no pipe passes: both its ends have degree 1.
    touches = np.zeros(graph.n_nodes, dtype=bool)
    touches[graph.edges[used].ravel()] = True
    touches[[v for pair in graph.terminals for v in pair]] = True
    lone = next(e for e in free if not touches[graph.edges[e]].any())
    used[lone] = True
    with pytest.raises(ValueError, match="not degree-valid"):
        trace(graph, used)


VARIANTS = [
    "A..\n.B.\nA.B\n",
    "walls: 1,1-1,2\nA..\n...\n..A\n",
    "A..\n.+.\n..A\n",
    "warp rows: 1 2\nwarp columns: 1\nA...\n....\n...A\n",
    "shape: hex\nA..\n.#.\n..A\n",
    "# spaced labels\nred . . blue\n. . + .\n. # . .\nblue . . red\n",
    "A#B\n###\nB.A\n",  # a cell without edges
]


@pytest.mark.parametrize("text", VARIANTS)
def test_the_neighbour_table_lists_each_nodes_edges_in_order(text: str) -> None:
    graph = grid_graph(codec.parse(text))
    table = neighbour_table(graph)
    assert table.shape == (graph.n_nodes, max(len(inc) for inc in graph.incident))
    for node, inc in enumerate(graph.incident):
        other = [int(graph.edges[e, 1] if graph.edges[e, 0] == node else graph.edges[e, 0]) for e in inc]
        assert table[node].tolist() == other + [-1] * (table.shape[1] - len(other))
    assert neighbour_table(graph) is table  # built once per graph
