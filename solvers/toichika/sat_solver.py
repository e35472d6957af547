"""Exact solver: a SAT model over "cell i holds an arrow pointing d", solved with python-sat.

The model depends only on the walls (countries); givens enter as assumptions, so a cached model
serves every puzzle with the same countries (editing givens never rebuilds it).

Pairing is encoded as a line of sight: ``o`` = "the arrow at A pointing d still sees nothing".
From A's ray cell by cell: a cell in A's own or a neighbouring country must be empty (it could
never be a partner), any other cell either holds the partner pointing back or is empty and the
sight goes on; sight past the grid edge is impossible. The first arrow met is then the partner,
which gives "exactly one partner, nothing between" without pair variables.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

import numpy as np
from pysat.solvers import Solver

try:
    import pysolvers  # python-sat's extension module (for the fast clause loader)
except ImportError:  # pragma: no cover - other python-sat builds
    pysolvers = None

from solvers.common.cancel import Cancelled, CancelToken
from solvers.toichika.model import DIRECTIONS, DOWN, LEFT, OPPOSITE, QUESTION, RIGHT, Toichika

SOLVER_NAME = "glucose4"
_CACHE_SIZE = 16


CHUNK = 4_000  # clauses per hand-over to the SAT solver: cancel is polled (and the GIL freed) between


@dataclass
class SatModel:
    """The clauses as numpy blocks of equal width (plus a few ragged ones): 2 M clauses as Python
    lists took seconds to build, hundreds of MB, and garbage-collector passes that froze the GUI."""

    rows: int
    cols: int
    blocks: list[np.ndarray]  # int32 (k, width) each
    ragged: list[list[int]]
    nvars: int

    @staticmethod
    def x(i: int, d: int) -> int:
        """Variable 'cell i holds an arrow pointing d' (d in 1..4)."""
        return 4 * i + d

    def a(self, i: int) -> int:
        """Variable 'cell i holds an arrow'."""
        return 4 * self.rows * self.cols + 1 + i

    @property
    def nclauses(self) -> int:
        return sum(len(b) for b in self.blocks) + len(self.ragged)

    @property
    def clauses(self) -> list[list[int]]:
        """Every clause as a list (slow on big boards: for tests and small models)."""
        out = [list(c) for c in self.ragged]
        for block in self.blocks:
            out.extend(block.tolist())
        return out

    def load(self, solver: Solver, cancel: CancelToken | None = None) -> None:
        """Add every clause to ``solver`` in chunks, polling ``cancel`` between them.

        The GIL is handed over (and cancel polled) once per CHUNK clauses in all, not per block:
        a model has dozens of small blocks, and a ``sleep(0)`` after each one (it also yields the
        core to other processes) took 60% of loading a 10x10 model on a busy machine.
        """
        add = _clause_adder(solver)
        add(self.ragged)
        pending = 0  # clauses added since the last hand-over
        for block in self.blocks:
            for start in range(0, len(block), CHUNK):
                rows = block[start : start + CHUNK]
                add(rows.tolist())
                pending += len(rows)
                if pending >= CHUNK:
                    pending = 0
                    if cancel is not None:
                        cancel.raise_if_cancelled()
                    time.sleep(0)  # hand the GIL to the GUI thread


def _clause_adder(solver: Solver) -> Callable[[list[list[int]]], None]:
    """python-sat adds clauses one Python call at a time through two wrapper layers; calling the
    extension function directly from ``map`` is much faster. Falls back to ``append_formula``."""
    handle = getattr(getattr(solver, "solver", None), "glucose", None)
    raw = getattr(pysolvers, "glucose41_add_cl", None) if pysolvers is not None else None
    if SOLVER_NAME != "glucose4" or handle is None or raw is None:
        return solver.append_formula
    add = partial(raw, handle)

    def add_many(rows: list[list[int]]) -> None:
        deque(map(add, rows), maxlen=0)

    return add_many


def new_solver(
    model: SatModel, cancel: CancelToken | None = None, extra: list[list[int]] | None = None
) -> Solver:
    solver = Solver(name=SOLVER_NAME)
    try:
        model.load(solver, cancel)
        if extra:
            solver.append_formula(extra)
    except BaseException:
        solver.delete()
        raise
    return solver


def _at_most_one(lits: list[int], top: int) -> tuple[list[list[int]], int]:
    """Pairwise for small countries, a sequential counter (k-1 auxiliaries) for larger ones."""
    if len(lits) <= 6:
        return [[-p, -q] for k, p in enumerate(lits) for q in lits[k + 1 :]], top
    out: list[list[int]] = []
    aux = list(range(top + 1, top + len(lits)))  # s_k: "one of lits[0..k] is true"
    out.append([-lits[0], aux[0]])
    for k in range(1, len(lits) - 1):
        out += [[-lits[k], aux[k]], [-aux[k - 1], aux[k]], [-lits[k], -aux[k - 1]]]
    out.append([-lits[-1], -aux[-1]])
    return out, top + len(aux)


def _cell_block(n: int, a0: int) -> list[np.ndarray]:
    i = np.arange(n, dtype=np.int64)
    x = 4 * i[:, None] + np.arange(1, 5, dtype=np.int64)[None, :]  # (n, 4)
    a = (a0 + i)[:, None]
    at_least = np.concatenate([-a, x], axis=1)  # an arrow points somewhere
    implies = np.stack([-x, np.broadcast_to(a, x.shape)], axis=-1).reshape(-1, 2)
    pairs = [(d, e) for d in range(4) for e in range(d + 1, 4)]
    one_dir = np.stack([np.stack([-x[:, d], -x[:, e]], axis=1) for d, e in pairs], axis=1).reshape(-1, 2)
    return [at_least, implies, one_dir]


def _sight_blocks(
    p: Toichika, reg: np.ndarray, adjacent: np.ndarray, m: int, d: int, top: int, poll: Callable[[], None]
) -> tuple[list[np.ndarray], int]:
    """All sight chains of direction ``d`` at once (see the module docstring).

    One chain per (country, line): it starts at the country's rear-most cell on that line and
    walks to the grid edge; steps after the last cell that could hold a partner are cut off.
    """
    rows, cols = p.rows, p.cols
    r_all, c_all = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    horizontal = d in (LEFT, RIGHT)
    along = c_all if horizontal else r_all  # position along the line
    line = r_all if horizontal else c_all
    forward = d in (RIGHT, DOWN)
    length = cols if horizontal else rows
    key = reg * (rows + cols) + line
    # Rear-most position of each (country, line): min along the line going forward, else max.
    order = np.lexsort((along if forward else -along, key))
    key_sorted = key[order]
    heads = order[np.flatnonzero(np.r_[True, key_sorted[1:] != key_sorted[:-1]])]
    chain_region = reg[heads]
    start = along[heads]
    steps_left = (length - start) if forward else (start + 1)  # cells from the head to the edge
    offsets = np.r_[0, np.cumsum(steps_left)[:-1]]
    chain = np.repeat(np.arange(len(heads)), steps_left)
    t = np.arange(int(steps_left.sum()), dtype=np.int64) - offsets[chain]
    stride = (1 if horizontal else cols) * (1 if forward else -1)
    cell = heads[chain] + t * stride
    own = reg[cell] == chain_region[chain]
    lo, hi = np.minimum(reg[cell], chain_region[chain]), np.maximum(reg[cell], chain_region[chain])
    pair_key = lo * m + hi
    poll()
    if len(adjacent):
        found = np.minimum(np.searchsorted(adjacent, pair_key), len(adjacent) - 1)
        is_adjacent = adjacent[found] == pair_key
    else:
        is_adjacent = np.zeros(len(pair_key), dtype=bool)
    pairable = ~own & ~is_adjacent
    last = np.full(len(heads), -1, dtype=np.int64)
    np.maximum.at(last, chain[pairable], t[pairable])
    blocks: list[np.ndarray] = []
    # An arrow with no possible partner ahead cannot point this way.
    dead = own & (t > last[chain])
    blocks.append(-(4 * cell[dead] + d)[:, None])
    poll()
    keep = t <= last[chain]
    chain, t, cell, own, pairable = chain[keep], t[keep], cell[keep], own[keep], pairable[keep]
    k = len(cell)
    if k == 0:
        return blocks, top
    xd = 4 * cell + d
    xo = 4 * cell + OPPOSITE[d]
    a = 4 * rows * cols + 1 + cell
    new = (own & (t > 0)) | pairable
    aux = top + np.cumsum(new)
    top += int(new.sum())
    # sight after each step: the newest auxiliary of the chain, or the head's own arrow.
    value = np.where(new, aux, xd)
    idx = np.arange(k)
    src = np.maximum.accumulate(np.where(new | (t == 0), idx, -1))
    sight = value[src]
    prev = np.r_[0, sight[:-1]]
    poll()
    step = t > 0
    o, b, q = step & own, step & ~own & ~pairable, pairable
    blocks.append(np.stack([-prev[o], aux[o]], axis=1))
    blocks.append(np.stack([-xd[o], aux[o]], axis=1))
    blocks.append(np.stack([-prev[b], -a[b]], axis=1))
    blocks.append(np.stack([-prev[q], -a[q], xo[q]], axis=1))
    blocks.append(np.stack([-prev[q], a[q], aux[q]], axis=1))
    ends = np.r_[chain[1:] != chain[:-1], True]
    blocks.append(-sight[ends][:, None])  # the sight may not run past the last possible partner
    return blocks, top


def build_model(p: Toichika, cancel: CancelToken | None = None) -> SatModel:
    def poll() -> None:  # between numpy steps (each well under 0.1 s on a 100x100 board)
        if cancel is not None:
            cancel.raise_if_cancelled()

    n = p.size
    reg = np.asarray(p.region_of, dtype=np.int64)
    m = len(p.regions)
    model = SatModel(p.rows, p.cols, _cell_block(n, 4 * n + 1), [], 5 * n)
    top = model.nvars
    small: list[list[int]] = []
    for cells in p.regions:
        lits = [model.a(i) for i in cells]
        model.ragged.append(lits)  # one arrow per country...
        amo, top = _at_most_one(lits, top)  # ...and only one
        small.extend(amo)
    for width in (2, 3):
        rows_w = [c for c in small if len(c) == width]
        if rows_w:
            model.blocks.append(np.asarray(rows_w, dtype=np.int64))
    adjacent = np.sort(np.asarray([a * m + b for a, b in p.adjacent_regions], dtype=np.int64))
    for d in DIRECTIONS:
        poll()
        blocks, top = _sight_blocks(p, reg, adjacent, m, d, top, poll)
        model.blocks.extend(blocks)
    model.blocks = [b.astype(np.int32) for b in model.blocks if len(b)]
    model.nvars = top
    return model


_cache: OrderedDict[tuple, SatModel] = OrderedDict()
_cache_lock = threading.Lock()
_building: dict[tuple, threading.Event] = {}


def model_for(p: Toichika, cancel: CancelToken | None = None) -> SatModel:
    """Cached by the wall layout (givens are assumptions).

    Concurrent callers for the same walls (the solve job and the side panel's badge and
    explanation) share one build: the others wait for it, polling their own cancel token, and
    take over if the builder was cancelled.
    """
    key = (p.rows, p.cols, p.vwalls, p.hwalls)
    while True:
        with _cache_lock:
            if key in _cache:
                _cache.move_to_end(key)
                return _cache[key]
            event = _building.get(key)
            owner = event is None
            if owner:
                event = _building[key] = threading.Event()
        assert event is not None
        if owner:
            try:
                model = build_model(p, cancel)
                with _cache_lock:
                    _cache[key] = model
                    while len(_cache) > _CACHE_SIZE:
                        _cache.popitem(last=False)
                return model
            finally:
                with _cache_lock:
                    del _building[key]
                event.set()
        while not event.wait(0.02):
            if cancel is not None:
                cancel.raise_if_cancelled()


def assumptions_for(p: Toichika, model: SatModel) -> list[int]:
    out = []
    for i, g in enumerate(p.givens):
        if g in DIRECTIONS:
            out.append(model.x(i, g))
        elif g == QUESTION:
            out.append(model.a(i))
    return out


def iter_solutions(
    p: Toichika,
    *,
    limit: int | None = 2,
    cancel: CancelToken | None = None,
    extra_assumptions: list[int] | None = None,
) -> Iterator[tuple[int, ...]]:
    """Yield solutions as arrow codes per cell (0 = empty). Blocking clauses enumerate distinct ones."""
    if len(p.regions) % 2:
        return  # arrows pair up, so an odd number of countries has no solution (hard for SAT to see)
    model = model_for(p, cancel)
    assumptions = assumptions_for(p, model) + list(extra_assumptions or [])
    n = p.size
    with new_solver(model, cancel) as solver:
        unregister = cancel.on_cancel(solver.interrupt) if cancel is not None else None
        try:
            found = 0
            while True:
                if cancel is not None:
                    cancel.raise_if_cancelled()
                status = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
                if status is None:
                    raise Cancelled()
                if not status:
                    return
                true = set(lit for lit in solver.get_model() if 0 < lit <= 4 * n)
                arrows = tuple(next((d for d in DIRECTIONS if model.x(i, d) in true), 0) for i in range(n))
                found += 1
                yield arrows
                if limit and found >= limit:
                    return
                solver.add_clause([-lit for lit in true])
        finally:
            if unregister is not None:
                unregister()


def differing_cells(p: Toichika, first: tuple[int, ...], second: tuple[int, ...]) -> list[tuple[int, int]]:
    """Cells whose content differs between two solutions (where a setter could add a clue)."""
    return [p.cell(i) for i in range(p.size) if first[i] != second[i]]


def is_consistent(p: Toichika, fixed: dict[int, set[int]], cancel: CancelToken | None = None) -> bool:
    """True if some solution gives every cell in ``fixed`` one of its allowed codes (0 = empty).

    Used by the hint (wrong entries on puzzles with several solutions) and by tests.
    """
    if len(p.regions) % 2:
        return False
    model = model_for(p, cancel)
    clauses: list[list[int]] = []
    for i, allowed in fixed.items():
        for d in DIRECTIONS:
            if d not in allowed:
                clauses.append([-model.x(i, d)])
        if 0 not in allowed:
            clauses.append([model.a(i)])
    with new_solver(model, cancel, clauses) as solver:
        unregister = cancel.on_cancel(solver.interrupt) if cancel is not None else None
        try:
            status = solver.solve_limited(assumptions=assumptions_for(p, model), expect_interrupt=True)
        finally:
            if unregister is not None:
                unregister()
        if status is None:
            raise Cancelled()
        return bool(status)


class Probe:
    """A persistent solver for many "is there a solution with ...?" questions on one puzzle.

    Each question is a list of (cell, allowed codes) restrictions passed as assumptions, so the
    solver (and what it learnt) is reused; ``close()`` frees it.
    """

    def __init__(self, p: Toichika, cancel: CancelToken | None = None) -> None:
        self.p = p
        self.odd = len(p.regions) % 2 == 1  # no solution at all
        self.model = model_for(p, cancel)
        self.base = assumptions_for(p, self.model)
        self.solver = new_solver(self.model, cancel)
        self._unregister = cancel.on_cancel(self.solver.interrupt) if cancel is not None else None

    def literals(self, i: int, allowed: set[int]) -> list[int]:
        lits = [-self.model.x(i, d) for d in DIRECTIONS if d not in allowed]
        if 0 not in allowed:
            lits.append(self.model.a(i))
        return lits

    def solution(self, restrictions: dict[int, set[int]]) -> tuple[int, ...] | None:
        if self.odd:
            return None
        assumptions = list(self.base)
        for i, allowed in restrictions.items():
            assumptions.extend(self.literals(i, allowed))
        status = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        if status is None:
            raise Cancelled()
        if not status:
            return None
        true = set(lit for lit in self.solver.get_model() if lit > 0)
        return tuple(
            next((d for d in DIRECTIONS if self.model.x(i, d) in true), 0) for i in range(self.p.size)
        )

    def close(self) -> None:
        if self._unregister is not None:
            self._unregister()
        self.solver.delete()
