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
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from solvers.common.cancel import Cancelled, CancelToken
from solvers.toichika.model import DIRECTIONS, LEFT, OPPOSITE, QUESTION, RIGHT, UP, Toichika

SOLVER_NAME = "glucose4"
_CACHE_SIZE = 16


@dataclass
class SatModel:
    rows: int
    cols: int
    clauses: list[list[int]]
    nvars: int

    @staticmethod
    def x(i: int, d: int) -> int:
        """Variable 'cell i holds an arrow pointing d' (d in 1..4)."""
        return 4 * i + d

    def a(self, i: int) -> int:
        """Variable 'cell i holds an arrow'."""
        return 4 * self.rows * self.cols + 1 + i


def build_model(p: Toichika) -> SatModel:
    n = p.size
    model = SatModel(p.rows, p.cols, [], 5 * n)
    x, a = model.x, model.a
    clauses = model.clauses
    for i in range(n):
        clauses.append([-a(i)] + [x(i, d) for d in DIRECTIONS])
        for d in DIRECTIONS:
            clauses.append([-x(i, d), a(i)])
            for e in DIRECTIONS:
                if e > d:
                    clauses.append([-x(i, d), -x(i, e)])
    for cells in p.regions:
        lits = [a(i) for i in cells]
        clauses.append(lits)
        if len(lits) > 1:
            enc = EncType.pairwise if len(lits) <= 6 else EncType.seqcounter
            card = CardEnc.atmost(lits, bound=1, top_id=model.nvars, encoding=enc)
            model.nvars = max(model.nvars, card.nv)
            clauses.extend(card.clauses)
    reg = p.region_of
    # One sight chain per (country, line, direction): a country has one arrow, so its cells on a
    # line can share the chain (an arrow further back passes the country's other, empty, cells).
    lines: dict[tuple[int, int, int], list[int]] = {}
    for i in range(n):
        r, c = divmod(i, p.cols)
        for d in DIRECTIONS:
            lines.setdefault((reg[i], d, r if d in (LEFT, RIGHT) else p.rows + c), []).append(i)
    for (region, d, _), cells in lines.items():
        first = cells[-1] if d in (UP, LEFT) else cells[0]
        walk = [first] + p.ray(first, d)
        last = max((k for k, j in enumerate(walk) if p.can_pair_regions(region, reg[j])), default=-1)
        sight = 0
        for j in walk[: last + 1]:
            if reg[j] == region:
                if sight == 0:
                    sight = x(j, d)
                else:
                    model.nvars += 1
                    clauses.append([-sight, model.nvars])
                    clauses.append([-x(j, d), model.nvars])
                    sight = model.nvars
            elif not p.can_pair_regions(region, reg[j]):
                if sight:
                    clauses.append([-sight, -a(j)])
            elif sight:
                clauses.append([-sight, -a(j), x(j, OPPOSITE[d])])
                model.nvars += 1
                clauses.append([-sight, a(j), model.nvars])
                sight = model.nvars
        for j in cells:
            if last < 0 or walk.index(j) > last:
                clauses.append([-x(j, d)])  # nothing pairable ahead of this cell
        if sight:
            clauses.append([-sight])
    return model


_cache: OrderedDict[tuple, SatModel] = OrderedDict()
_cache_lock = threading.Lock()


def model_for(p: Toichika) -> SatModel:
    """Cached by the wall layout (givens are assumptions)."""
    key = (p.rows, p.cols, p.vwalls, p.hwalls)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    model = build_model(p)
    with _cache_lock:
        _cache[key] = model
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return model


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
    model = model_for(p)
    assumptions = assumptions_for(p, model) + list(extra_assumptions or [])
    n = p.size
    with Solver(name=SOLVER_NAME, bootstrap_with=model.clauses) as solver:
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
    model = model_for(p)
    clauses: list[list[int]] = []
    for i, allowed in fixed.items():
        for d in DIRECTIONS:
            if d not in allowed:
                clauses.append([-model.x(i, d)])
        if 0 not in allowed:
            clauses.append([model.a(i)])
    with Solver(name=SOLVER_NAME, bootstrap_with=model.clauses + clauses) as solver:
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
        self.model = model_for(p)
        self.base = assumptions_for(p, self.model)
        self.solver = Solver(name=SOLVER_NAME, bootstrap_with=self.model.clauses)
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
