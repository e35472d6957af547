"""A first answer under the game rules by simulated annealing over square flips (issue 27.2's tail).

On a few boards drawn by hand every corridor stage of the SAT search is empty or undecided for
minutes (60x60 s17000 and 70x35 s19005 had no answer in 300 s). Annealing comes from the other
side: it starts from any degree-valid edge set (every endpoint of degree 1, every other cell 2:
pipes and loops, some pipes joining two colours) and flips squares: where a 4-cycle of the board
has two opposite sides used and the other two unused, swapping them keeps every degree and
exchanges the tails of two pipes, absorbs a loop into a pipe, splits one off, or threads one pipe
another way. The energy is the number of loops plus the pipes that join two colours; at 0 the edge
set is an answer under the game rules. Each flip's change of energy is judged from the components'
labels and the positions along them; only an accepted flip relabels the components it touches.

A run cools from ``HOT`` to ``COLD`` over ``ITERATIONS_PER_NODE`` flips per cell; the next run
warms the state it left up again. The random numbers are a fixed sequence (Park-Miller), so a
board takes the same path in every run of the program. Annealing finds answers, never proves their
absence: ``sat.py`` runs it beside the complete search (``ANNEAL_PER_CONFLICT``), which alone
decides "no solution" and keeps counts exact (the answer is blocked there like any other).
"""

from __future__ import annotations

import math

import numpy as np

from solvers.common.kernels import njit
from solvers.flow.detour import SMALL
from solvers.flow.frontier import NotApplicable, grid_size
from solvers.flow.graph import FlowGraph

HOT = 0.4  # temperature at the start of a run (energy units)
COLD = 0.12  # ... and at its end
ITERATIONS_PER_NODE = 14_000  # proposed flips per run and cell (60x60: 50 M, 3-5 s)
_MODULUS = 2_147_483_647  # Park-Miller: x -> x * 48271 mod (2^31 - 1)
_MULTIPLIER = 48_271
# scal slots: component count, energy, relabel stamp, flips into the run, random state
_NCOMP, _ENERGY, _STAMP, _STEP, _RANDOM = range(5)
_COMP, _POS, _MARK = range(3)  # columns of the node table
_LOOP, _LEN, _END0, _END1 = range(4)  # columns of the component table


def can_anneal(graph: FlowGraph) -> bool:
    """Whether annealing applies: a whole rectangle of square cells (no walls, holes, bridges,
    warps or hexes). Flips change the used edges across a line from a missing square (a wall, a
    hole, a bridge's corner) to the border two at a time, so there the start can lie where no flip
    sequence reaches an answer (on Flow's bridges sample every run stuck at energy 2)."""
    try:
        rows, cols = grid_size(graph)
    except NotApplicable:  # bridges, warps, hexes
        return False
    whole = rows * (cols - 1) + cols * (rows - 1)  # no hole or wall takes a cell or an edge away
    return graph.n_nodes == rows * cols and graph.n_edges == whole and rows > 1 and cols > 1


class Annealer:
    """Simulated annealing from the degree-valid edge set ``used`` (see the module notes)."""

    def __init__(self, graph: FlowGraph, used: np.ndarray, seed: int = 1) -> None:
        self.graph = graph
        n = graph.n_nodes
        self._nb = _neighbours(graph, used)
        self._tc = np.full(n, -1, dtype=np.int64)
        for node, colour in graph.terminal_colour.items():
            self._tc[node] = colour
        self._quads = _square_nodes(graph)
        scal = np.zeros(5, dtype=np.int64)
        scal[_RANDOM] = 1 + seed % (_MODULUS - 1)
        self._scal = scal
        # The kernels' state: edges, endpoint colours, per node (component, position along it,
        # relabel mark), per component (loop?, length, its two ends), counters.
        self._state = (
            self._nb,
            self._tc,
            np.zeros((n, 3), dtype=np.int64),
            np.zeros((n, 4), dtype=np.int64),
            scal,
        )
        _label_all(*self._state)
        self.run_length = max(1, ITERATIONS_PER_NODE * n)
        self.flips_tried = 0

    @property
    def energy(self) -> int:
        """Loops plus pipes that join two colours (0: an answer)."""
        return int(self._scal[_ENERGY])

    def run(self, iterations: int) -> np.ndarray | None:
        """Propose up to ``iterations`` flips; the used-edge mask of an answer once there is one."""
        if self.energy > 0 and iterations > 0 and len(self._quads):
            self.flips_tried += iterations
            _burst(*self._state, self._quads, iterations, self.run_length, HOT, COLD)
        return self.used() if self.energy == 0 else None

    def used(self) -> np.ndarray:
        """The current edge set as a used-edge mask."""
        edges = self.graph.edges
        nb = self._nb
        return (nb[edges[:, 0], 0] == edges[:, 1]) | (nb[edges[:, 0], 1] == edges[:, 1])


def _neighbours(graph: FlowGraph, used: np.ndarray) -> np.ndarray:
    """(N, 2) the two used neighbours of each node (-1 for none); ValueError if a degree is over 2."""
    ends = graph.edges[np.flatnonzero(used)]
    src = np.concatenate([ends[:, 0], ends[:, 1]])
    dst = np.concatenate([ends[:, 1], ends[:, 0]])
    order = np.argsort(src, kind="stable")
    src, dst = src[order], dst[order]
    first = np.searchsorted(src, src, side="left")
    slot = np.arange(len(src)) - first
    if (slot > 1).any():
        raise ValueError("the edge set is not degree-valid: a cell has more than two used edges")
    nb = np.full((graph.n_nodes, 2), -1, dtype=np.int64)
    nb[src, slot] = dst
    return nb


def _square_nodes(graph: FlowGraph) -> np.ndarray:
    """(S, 4) the nodes of each 4-cycle in cyclic order (sides a-b, b-c, c-d, d-a)."""
    sq = np.asarray(graph.squares, dtype=np.int64).reshape(-1, 4)
    e = graph.edges[sq]  # (S, 4, 2)
    # Node i of a square is the one its side i shares with side i-1.
    prev = np.roll(e, 1, axis=1)
    shared_first = (e[:, :, 0] == prev[:, :, 0]) | (e[:, :, 0] == prev[:, :, 1])
    return np.where(shared_first, e[:, :, 0], e[:, :, 1]).astype(np.int64)


@njit(cache=True, nogil=True, python_below=SMALL)
def _random(scal: np.ndarray) -> int:
    scal[_RANDOM] = scal[_RANDOM] * _MULTIPLIER % _MODULUS
    return scal[_RANDOM]


@njit(cache=True, nogil=True, python_below=SMALL)
def _relabel(v0: int, cid: int, nb: np.ndarray, node: np.ndarray, part: np.ndarray, stamp: int) -> None:
    """Label the component of ``v0`` as ``cid``: positions from one end (a loop: from ``v0``)."""
    prev = -1
    v = v0
    loop = False
    while True:  # to an end, or once round a loop
        nxt = nb[v, 0] if nb[v, 0] != prev else nb[v, 1]
        if nxt == -1:
            break
        prev = v
        v = nxt
        if v == v0:
            loop = True
            break
    start = v0 if loop else v
    prev = -1
    v = start
    i = 0
    while True:
        node[v, _COMP] = cid
        node[v, _POS] = i
        node[v, _MARK] = stamp
        i += 1
        nxt = nb[v, 0] if nb[v, 0] != prev else nb[v, 1]
        if nxt == -1 or (loop and nxt == start):
            break
        prev = v
        v = nxt
    part[cid, _LOOP] = 1 if loop else 0
    part[cid, _LEN] = i
    part[cid, _END0] = start
    part[cid, _END1] = v


@njit(cache=True, nogil=True, python_below=SMALL)
def _bad(cid: int, tc: np.ndarray, part: np.ndarray) -> int:
    """1 for a loop or a pipe joining two colours (or ending at a cell that is no endpoint)."""
    if part[cid, _LOOP]:
        return 1
    a, b = tc[part[cid, _END0]], tc[part[cid, _END1]]
    return 1 if a < 0 or a != b else 0


@njit(cache=True, nogil=True, python_below=SMALL)
def _label_all(nb: np.ndarray, tc: np.ndarray, node: np.ndarray, part: np.ndarray, scal: np.ndarray) -> None:
    """Label every component from scratch; count the energy."""
    scal[_STAMP] += 1
    count = 0
    energy = 0
    for v in range(nb.shape[0]):
        if node[v, _MARK] != scal[_STAMP] and (nb[v, 0] >= 0 or nb[v, 1] >= 0):
            _relabel(v, count, nb, node, part, scal[_STAMP])
            energy += _bad(count, tc, part)
            count += 1
    scal[_NCOMP] = count
    scal[_ENERGY] = energy


@njit(cache=True, nogil=True, python_below=SMALL)
def _paired(x: int, y: int, p: int, q: int, s: int, t: int) -> bool:
    """Whether the new sides p-s and q-t join x and y."""
    return (x == p and y == s) or (x == s and y == p) or (x == q and y == t) or (x == t and y == q)


@njit(cache=True, nogil=True, python_below=SMALL)
def _delta(p: int, q: int, s: int, t: int, tc: np.ndarray, node: np.ndarray, part: np.ndarray) -> int:
    """The change of energy if the used sides p-q and s-t become p-s and q-t."""
    a, b = node[p, _COMP], node[s, _COMP]
    pp, pq, ps, pt = node[p, _POS], node[q, _POS], node[s, _POS], node[t, _POS]
    if a != b:
        if part[a, _LOOP] or part[b, _LOOP]:
            return -1  # a loop opens into the other component
        # Two pipes exchange tails: the ends on p's and s's sides meet, and those on q's and t's.
        ep, eq = (part[a, _END0], part[a, _END1]) if pp < pq else (part[a, _END1], part[a, _END0])
        es, et = (part[b, _END0], part[b, _END1]) if ps < pt else (part[b, _END1], part[b, _END0])
        before = _bad(a, tc, part) + _bad(b, tc, part)
        after = (1 if tc[ep] < 0 or tc[ep] != tc[es] else 0) + (1 if tc[eq] < 0 or tc[eq] != tc[et] else 0)
        return after - before
    if not part[a, _LOOP]:
        # One pipe cut at both sides stays one pipe (the middle reversed) if the new sides join
        # the two cuts' ends nearer the pipe's start; else the middle closes into a loop.
        return 0 if _paired(p if pp < pq else q, s if ps < pt else t, p, q, s, t) else 1
    # One loop splits in two if a side's first node (in the loop's order) meets the other side's
    # last node; else it stays one loop.
    n = part[a, _LEN]
    first = p if pq == (pp + 1) % n else q
    other_first = s if pt == (ps + 1) % n else t
    return 1 if _paired(first, s + t - other_first, p, q, s, t) else 0


@njit(cache=True, nogil=True, python_below=SMALL)
def _swap(nb: np.ndarray, v: int, old: int, new: int) -> None:
    if nb[v, 0] == old:
        nb[v, 0] = new
    else:
        nb[v, 1] = new


@njit(cache=True, nogil=True, python_below=SMALL)
def _burst(
    nb: np.ndarray,
    tc: np.ndarray,
    node: np.ndarray,
    part: np.ndarray,
    scal: np.ndarray,
    quads: np.ndarray,
    iterations: int,
    run_length: int,
    hot: float,
    cold: float,
) -> None:
    """Propose ``iterations`` flips (Metropolis at the run's temperature), stopping at energy 0."""
    n = nb.shape[0]
    n_quads = quads.shape[0]
    cooling = math.log(cold / hot) / run_length
    for _ in range(iterations):
        if scal[_ENERGY] == 0:
            return
        if scal[_STEP] >= run_length:
            scal[_STEP] = 0  # a new run warms the state up again
        temp = hot * math.exp(cooling * scal[_STEP])
        scal[_STEP] += 1
        i = _random(scal) % n_quads
        a, b, c, d = quads[i, 0], quads[i, 1], quads[i, 2], quads[i, 3]
        ab = nb[a, 0] == b or nb[a, 1] == b
        bc = nb[b, 0] == c or nb[b, 1] == c
        cd = nb[c, 0] == d or nb[c, 1] == d
        da = nb[d, 0] == a or nb[d, 1] == a
        if ab and cd and not bc and not da:
            p, q, s, t = a, b, d, c
        elif bc and da and not ab and not cd:
            p, q, s, t = b, c, a, d
        else:
            continue
        change = _delta(p, q, s, t, tc, node, part)
        if change > 0 and _random(scal) >= _MODULUS * math.exp(-change / temp):
            continue
        ca, cb = node[p, _COMP], node[s, _COMP]
        _swap(nb, p, q, s)
        _swap(nb, q, p, t)
        _swap(nb, s, t, p)
        _swap(nb, t, s, q)
        scal[_STAMP] += 1
        used_ids = 0
        for v in (p, q, s, t):
            if node[v, _MARK] == scal[_STAMP]:
                continue
            if used_ids == 0:
                cid = ca
            elif cb != ca:
                cid = cb
            else:
                cid = scal[_NCOMP]
                scal[_NCOMP] += 1
            _relabel(v, cid, nb, node, part, scal[_STAMP])
            used_ids += 1
        scal[_ENERGY] += change
        if scal[_NCOMP] + 2 > n:  # ids ran out: number the components afresh
            _label_all(nb, tc, node, part, scal)
