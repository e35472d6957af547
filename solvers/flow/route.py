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
    price: np.ndarray,
    present: float,
    occupancy: np.ndarray,
    blocked: np.ndarray,
    source: int,
    target: int,
    dist: np.ndarray,
    prev: np.ndarray,
    stamp: np.ndarray,
    run: int,
    heap_cost: np.ndarray,
    heap_node: np.ndarray,
) -> int:
    """Dijkstra from source to target; a cell costs ``price * (1 + present * occupancy)``, priced
    only when reached (a whole-board pass per pipe cost more than the search on 60x60 boards).
    ``stamp[v] == run`` marks the cells this run has reached (``dist`` is stale elsewhere). The
    path is left in ``prev``. Returns the number of heap pushes (0 if the target is unreachable)."""
    stamp[source] = run
    dist[source] = 0.0
    prev[source] = -1
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
            nd = d + price[w] * (1.0 + present * occupancy[w])
            if stamp[w] != run or nd < dist[w]:
                stamp[w] = run
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
    full_rounds: int,
    late_budget: int,
) -> tuple[np.ndarray, int]:
    """(N,) colour per cell (-1 empty) of a routing without shared cells, and the rounds used
    (``rounds + 1`` if conflicts remained). ``base`` is each cell's cost when nobody wants it,
    ``order`` the order in which the colours are routed in each round; from round
    ``full_rounds`` on only pipes on a shared cell are routed again (the others would mostly
    take the same path), until they have made ``late_budget`` heap pushes in all."""
    n = nbr.shape[0]
    k_count = terminals.shape[0]
    occupancy = np.zeros(n, dtype=np.int64)
    history = np.zeros(n, dtype=np.float64)
    price = base.copy()  # base + history: what a cell costs before congestion
    path = np.empty((k_count, n), dtype=np.int64)  # each colour's cells, target first
    length = np.zeros(k_count, dtype=np.int64)
    blocked = owner >= 0
    dist = np.empty(n, dtype=np.float64)
    prev = np.empty(n, dtype=np.int64)
    stamp = np.zeros(n, dtype=np.int64)
    heap_cost = np.empty(8 * n * nbr.shape[1] + 8, dtype=np.float64)
    heap_node = np.empty(8 * n * nbr.shape[1] + 8, dtype=np.int64)
    present = 0.5
    run = 0
    late_cost = 0  # heap pushes of the rounds after the full ones
    for it in range(rounds):
        if it >= full_rounds and late_cost > late_budget:
            break
        for i in range(k_count):
            k = order[i]
            if it >= full_rounds:
                congested = False
                for j in range(length[k]):
                    if occupancy[path[k, j]] > 1:
                        congested = True
                        break
                if not congested and length[k] > 0:
                    continue
            for j in range(length[k]):  # rip up
                occupancy[path[k, j]] -= 1
            length[k] = 0
            a, b = terminals[k, 0], terminals[k, 1]
            run += 1
            pushes = _route_one(
                nbr, price, present, occupancy, blocked, a, b, dist, prev, stamp, run, heap_cost, heap_node
            )
            if it >= full_rounds:
                late_cost += pushes
            if pushes == 0:
                continue
            v = b
            while v >= 0:
                path[k, length[k]] = v
                length[k] += 1
                occupancy[v] += 1
                v = prev[v]
        shared = 0
        for v in range(n):
            if occupancy[v] > 1:
                shared += 1
                history[v] += 1.0
                price[v] = base[v] + history[v]
        if shared == 0:
            out = np.full(n, -1, dtype=np.int64)
            for k in range(k_count):
                for j in range(length[k]):
                    out[path[k, j]] = k
            return out, it + 1
        present *= 1.6
    out = np.full(n, -1, dtype=np.int64)
    for k in range(k_count):
        for j in range(length[k]):
            if out[path[k, j]] < 0:
                out[path[k, j]] = k
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


# Negotiation rounds: the first FULL_ROUNDS reroute every pipe, later ones only the pipes on a
# shared cell, until none is shared or ROUNDS have passed. On 60x60 boards 60 full rounds mostly
# left one or two shared cells (the last ones clear after 100-200 rounds), and a routing with a
# shared cell seldom has an answer in its corridor 1: ten tail boards had a hit in 40 randomised
# routings for 4 of them with 60 full rounds, for 8 with rounds until no cell was shared (and far
# more hits each: 50x50 s8011 35 of 40 instead of 0). The later rounds cost little (a few pipes
# each): a 60x60 routing takes 0.01-0.1 s, at most 0.25 s.
ROUNDS = 1000
FULL_ROUNDS = 20
# ... for the plain routing; randomised routings, and a plain routing that kept a shared cell
# after FULL_ROUNDS, negotiate with RESTART_FULL_ROUNDS. On 70x35 s19005 no routing settled after
# 20 full rounds (a pipe must go round another's endpoints, and once only congested pipes are
# rerouted, crossing one cell costs less than going round), so every restart was passed over and
# the wide corridors got no answer in 60 s; with 60: an answer in 0.3 s, and 60x60 s24058 and
# s25044 in 1.1 and 1.8 s instead of 43 and 14 s. Plain routings that settle keep 20: 60 for
# every routing made 5 of 30 common 60x60 boards 1.5-3.9x slower. Boards under LONG_NEGOTIATION
# cells keep FULL_ROUNDS throughout.
RESTART_FULL_ROUNDS = 60
# Boards under this many cells stop after SMALL_ROUNDS: their searches take milliseconds, and a
# routing that cannot settle (two pipes that must cross: no answer) took 1.4 s in plain Python
# (``SMALL``) on a 4x10 board, once per restart.
LONG_NEGOTIATION = 400
# The later rounds stop after this many heap pushes in all (about 0.5 s): where two pipes must
# cross (no answer) every round reroutes both across the board, and a 200x200 board with two such
# pipes took 5.9 s per routing (0.7 s with 60 full rounds), once per restart. No routing of 12
# tuning boards (30x30-70x35, 21 each) needed more: with half of it, 16 of 252 no longer settled.
LATE_BUDGET = 8_000_000
SMALL_ROUNDS = 60


def route(
    graph: FlowGraph,
    rounds: int | None = None,
    seed: int | None = None,
    full_rounds: int | None = None,
    late_budget: int = LATE_BUDGET,
) -> tuple[np.ndarray, bool]:
    """(N,) colour per cell of a negotiated routing (-1: empty), and whether it has no conflicts.
    With a ``seed`` the cells' base costs are random and the colours are routed in random order
    (another plausible routing of the same board, the same for the same seed). The first
    ``full_rounds`` reroute every pipe, later rounds (up to ``rounds`` in all; by default by the
    board's size) only those on a shared cell; by default FULL_ROUNDS for the plain routing
    (again with RESTART_FULL_ROUNDS if it keeps a shared cell), RESTART_FULL_ROUNDS with a seed."""
    if full_rounds is None:
        if graph.n_nodes < LONG_NEGOTIATION:
            full_rounds = FULL_ROUNDS  # small boards: their searches take milliseconds anyway
        elif seed is not None:
            full_rounds = RESTART_FULL_ROUNDS
        else:
            routed, settled = route(graph, rounds, None, FULL_ROUNDS, late_budget)
            if settled:
                return routed, settled
            full_rounds = RESTART_FULL_ROUNDS
    if rounds is None:
        rounds = ROUNDS if graph.n_nodes >= LONG_NEGOTIATION else SMALL_ROUNDS
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
    routed, used = _negotiate(
        neighbour_table(graph), owner, terminals, rounds, base, order, full_rounds, late_budget
    )
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
