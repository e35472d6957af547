"""A quick disjoint routing of all pipes (negotiated congestion), used to guide strict searches.

Every colour is routed along a cheapest path between its endpoints; cells wanted by several pipes
grow more expensive (the present use, and a history that remembers old conflicts) until no cell is
shared. This is PathFinder's scheme from FPGA routing. The routing leaves cells empty and need not
be part of any solution: it only suggests where each pipe runs, so that the exact search can try
narrow corridors around these routes first (see ``corridor_slack``).
"""

from __future__ import annotations

import numpy as np

from solvers.common.kernels import njit
from solvers.flow.detour import SMALL, UNREACHABLE, endpoint_owner, neighbour_table, spread
from solvers.flow.graph import FlowGraph


@njit(cache=True, nogil=True, python_below=SMALL)
def _route_one(
    nbr: np.ndarray,
    cost: np.ndarray,
    blocked: np.ndarray,
    source: int,
    target: int,
    dist: np.ndarray,
    prev: np.ndarray,
    heap_cost: np.ndarray,
    heap_node: np.ndarray,
) -> int:
    """Dijkstra from source to target over node costs; the path is left in ``prev``. Returns the
    number of heap pushes (0 if the target is unreachable)."""
    n = nbr.shape[0]
    for i in range(n):
        dist[i] = np.inf
        prev[i] = -1
    dist[source] = 0.0
    size = 1
    heap_cost[0] = 0.0
    heap_node[0] = source
    pushes = 1
    while size > 0:
        d = heap_cost[0]
        u = heap_node[0]
        size -= 1
        # sift down the last element from the root
        if size > 0:
            lc, ln = heap_cost[size], heap_node[size]
            i = 0
            while True:
                child = 2 * i + 1
                if child >= size:
                    break
                if child + 1 < size and heap_cost[child + 1] < heap_cost[child]:
                    child += 1
                if heap_cost[child] >= lc:
                    break
                heap_cost[i], heap_node[i] = heap_cost[child], heap_node[child]
                i = child
            heap_cost[i], heap_node[i] = lc, ln
        if d > dist[u]:
            continue
        if u == target:
            return pushes
        for j in range(nbr.shape[1]):
            w = nbr[u, j]
            if w < 0 or (blocked[w] and w != target):
                continue
            nd = d + cost[w]
            if nd < dist[w]:
                dist[w] = nd
                prev[w] = u
                # sift up
                i = size
                size += 1
                pushes += 1
                while i > 0:
                    parent = (i - 1) // 2
                    if heap_cost[parent] <= nd:
                        break
                    heap_cost[i], heap_node[i] = heap_cost[parent], heap_node[parent]
                    i = parent
                heap_cost[i], heap_node[i] = nd, w
    return 0


@njit(cache=True, nogil=True, python_below=SMALL)
def _negotiate(
    nbr: np.ndarray,
    owner: np.ndarray,
    terminals: np.ndarray,
    rounds: int,
    base: np.ndarray,
    order: np.ndarray,
) -> tuple[np.ndarray, int]:
    """(N,) colour per cell (-1 empty) of a routing without shared cells, and the rounds used
    (``rounds + 1`` if conflicts remained). ``base`` is each cell's cost when nobody wants it,
    ``order`` the order in which the colours are routed in each round."""
    n = nbr.shape[0]
    k_count = terminals.shape[0]
    occupancy = np.zeros(n, dtype=np.int64)
    history = np.zeros(n, dtype=np.float64)
    on_path = np.zeros((k_count, n), dtype=np.bool_)
    cost = np.empty(n, dtype=np.float64)
    blocked = owner >= 0
    dist = np.empty(n, dtype=np.float64)
    prev = np.empty(n, dtype=np.int64)
    heap_cost = np.empty(8 * n * nbr.shape[1] + 8, dtype=np.float64)
    heap_node = np.empty(8 * n * nbr.shape[1] + 8, dtype=np.int64)
    present = 0.5
    for it in range(rounds):
        for i in range(k_count):
            k = order[i]
            # rip up
            for v in range(n):
                if on_path[k, v]:
                    on_path[k, v] = False
                    occupancy[v] -= 1
            for v in range(n):
                cost[v] = (base[v] + history[v]) * (1.0 + present * occupancy[v])
            a, b = terminals[k, 0], terminals[k, 1]
            if _route_one(nbr, cost, blocked, a, b, dist, prev, heap_cost, heap_node) == 0:
                continue
            v = b
            while v >= 0:
                on_path[k, v] = True
                occupancy[v] += 1
                v = prev[v]
        shared = 0
        for v in range(n):
            if occupancy[v] > 1:
                shared += 1
                history[v] += 1.0
        if shared == 0:
            out = np.full(n, -1, dtype=np.int64)
            for k in range(k_count):
                for v in range(n):
                    if on_path[k, v]:
                        out[v] = k
            return out, it + 1
        present *= 1.6
    out = np.full(n, -1, dtype=np.int64)
    for k in range(k_count):
        for v in range(n):
            if on_path[k, v] and out[v] < 0:
                out[v] = k
    return out, rounds + 1


@njit(cache=True, nogil=True, python_below=SMALL)
def _path_distances(nbr: np.ndarray, owner: np.ndarray, routed: np.ndarray, k_count: int) -> np.ndarray:
    """(K, N) BFS distance of each cell from colour k's routed cells, not entering other colours'
    endpoints."""
    n = nbr.shape[0]
    out = np.full((k_count, n), UNREACHABLE, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    for k in range(k_count):
        tail = 0
        for v in range(n):
            if routed[v] == k:
                out[k, v] = 0
                queue[tail] = v
                tail += 1
        spread(nbr, owner, k, out[k], queue, tail)
    return out


# Randomised routings (``route(seed=...)``): each cell's base cost is drawn from 1 .. 1 + NOISE.
# A routing only guides the search, and on some boards the answers all lie far from the plain
# routing but close to another one; noise of 2 found them more often than 1 (tail boards).
NOISE = 2.0


def route(graph: FlowGraph, rounds: int = 60, seed: int | None = None) -> tuple[np.ndarray, bool]:
    """(N,) colour per cell of a negotiated routing (-1: empty), and whether it has no conflicts.
    With a ``seed`` the cells' base costs are random and the colours are routed in random order
    (another plausible routing of the same board, the same for the same seed)."""
    n_k = len(graph.colours)
    owner = endpoint_owner(graph)
    terminals = np.asarray(graph.terminals, dtype=np.int64).reshape(-1, 2)
    if n_k == 0:
        return owner, True
    if seed is None:
        base, order = np.ones(graph.n_nodes), np.arange(n_k, dtype=np.int64)
    else:
        rng = np.random.default_rng(seed)
        base = 1.0 + NOISE * rng.random(graph.n_nodes)
        order = rng.permutation(n_k).astype(np.int64)
    routed, used = _negotiate(neighbour_table(graph), owner, terminals, rounds, base, order)
    return routed, used <= rounds


def corridor_slack(graph: FlowGraph, routed: np.ndarray) -> np.ndarray:
    """(K, N) distance of each cell from colour k's route, minus the cell's distance from the
    nearest route (``UNREACHABLE`` where k cannot go): 0 for the routes nearest to the cell."""
    n_k = len(graph.colours)
    d = _path_distances(neighbour_table(graph), endpoint_owner(graph), routed, n_k)
    if d.size == 0:
        return d
    best = d.min(axis=0, keepdims=True)
    return np.where(d < UNREACHABLE, d - best, UNREACHABLE)
