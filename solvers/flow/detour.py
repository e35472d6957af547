"""Detour lengths: how far out of its way a pipe must go to reach a cell.

For colour k with endpoints a, b and a cell v, ``detour[k, v] = d(a, v) + d(v, b) - d(a, b)``,
distances on the grid with the other colours' endpoints blocked (unreachable: ``UNREACHABLE``).
On a bipartite grid the value is always even; on hex boards (triangles) and across warps of odd
length it may be odd. ``slack[k, v]`` is the detour minus the smallest
detour of any colour at v: 0 for the colour that reaches v most cheaply.

Why: under the game rules a board that people draw leaves the SAT solver a vast freedom (pipes may
wander), and it gets lost routing pipes the wrong way round each other (measured: no answer within
minutes at 20x20, even with loops allowed and cells allowed to stay empty). Restricting each cell to
the colours whose detour to it is small makes the same search fast, and widening the restriction
step by step, up to no restriction at all, keeps the search complete.
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from solvers.common.kernels import njit
from solvers.flow.graph import FlowGraph, per_graph

UNREACHABLE = 1 << 30
# Below this many array elements (a board of about 10x10) the kernels run as plain Python while numba
# is not loaded: quicker than loading it for one small solve (see solvers/common/kernels.py).
SMALL = 600


@per_graph
def neighbour_table(graph: FlowGraph) -> np.ndarray:
    """(N, max degree) node ids of each node's neighbours in ``incident`` order, -1 padded (shared
    by the callers of one graph: read only)."""
    counts = np.fromiter(map(len, graph.incident), dtype=np.int64, count=graph.n_nodes)
    table = np.full((graph.n_nodes, max(int(counts.max(initial=0)), 1)), -1, dtype=np.int64)
    edge = np.fromiter(chain.from_iterable(graph.incident), dtype=np.int64, count=int(counts.sum()))
    node = np.repeat(np.arange(graph.n_nodes), counts)
    slot = np.arange(len(edge)) - np.repeat(np.cumsum(counts) - counts, counts)
    u, v = graph.edges[edge, 0], graph.edges[edge, 1]
    table[node, slot] = np.where(u == node, v, u)
    return table


@njit(cache=True, nogil=True, python_below=SMALL)
def spread(
    nbr: np.ndarray, owner: np.ndarray, k: int, dist: np.ndarray, queue: np.ndarray, tail: int
) -> None:
    """BFS for colour k from the ``tail`` cells already in ``queue`` (their ``dist`` set), never
    entering another colour's endpoint; unreached cells keep ``UNREACHABLE``."""
    head = 0
    while head < tail:
        u = queue[head]
        head += 1
        for j in range(nbr.shape[1]):
            w = nbr[u, j]
            if w < 0 or dist[w] != UNREACHABLE:
                continue
            if owner[w] >= 0 and owner[w] != k:
                continue
            dist[w] = dist[u] + 1
            queue[tail] = w
            tail += 1


@njit(cache=True, nogil=True, python_below=SMALL)
def _distances(nbr: np.ndarray, owner: np.ndarray, terminals: np.ndarray) -> np.ndarray:
    """(K, 2, N) BFS distances from each endpoint, not entering other colours' endpoints."""
    n = nbr.shape[0]
    k_count = terminals.shape[0]
    out = np.full((k_count, 2, n), UNREACHABLE, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    for k in range(k_count):
        for side in range(2):
            start = terminals[k, side]
            out[k, side, start] = 0
            queue[0] = start
            spread(nbr, owner, k, out[k, side], queue, 1)
    return out


def endpoint_owner(graph: FlowGraph) -> np.ndarray:
    """(N,) colour id of each endpoint node, -1 elsewhere."""
    owner = np.full(graph.n_nodes, -1, dtype=np.int64)
    for node, k in graph.terminal_colour.items():
        owner[node] = k
    return owner


def detours(graph: FlowGraph) -> np.ndarray:
    """(K, N) detour of each colour to each cell (``UNREACHABLE`` where it cannot go)."""
    n_k = len(graph.colours)
    if n_k == 0:
        return np.zeros((0, graph.n_nodes), dtype=np.int64)
    terminals = np.asarray(graph.terminals, dtype=np.int64).reshape(-1, 2)
    dist = _distances(neighbour_table(graph), endpoint_owner(graph), terminals)
    da, db = dist[:, 0, :], dist[:, 1, :]
    direct = da[np.arange(n_k), terminals[:, 1]][:, None]
    reachable = (da < UNREACHABLE) & (db < UNREACHABLE)
    return np.where(reachable, da + db - direct, UNREACHABLE)


def slack(graph: FlowGraph) -> np.ndarray:
    """(K, N) detour minus the cell's smallest detour; ``UNREACHABLE`` where the colour cannot go."""
    d = detours(graph)
    if d.size == 0:
        return d
    best = d.min(axis=0, keepdims=True)
    return np.where(d < UNREACHABLE, d - best, UNREACHABLE)
