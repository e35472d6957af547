"""The SAT model's degree clauses: endpoints have degree 1, other cells 2 (every cell covered) or
0 or 2 (Numberlink rules). Literals are edge ids + 1.

A cell has at most six edges, so each rule is said by plain subsets of its edges ("no k + 1 of
them", "no n - k + 1 of them all unused"). The clauses come per cell in cell order, as a clause
list given to the solver in another order changes its search. Cells with the same rule and number
of edges get theirs from one numpy template (a 60x60 board: 0.5 ms per 1,000 cells, where building
them cell by cell took 10 ms).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain, combinations

import numpy as np

from solvers.flow.graph import FlowGraph, per_graph

EXACTLY_ONE, EXACTLY_TWO, NONE_OR_TWO = 0, 1, 2

Template = tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # (positions, signs) per clause


@per_graph
def degree_clauses(graph: FlowGraph, fill: bool) -> list[list[int]]:
    """The degree clauses of every cell, cell by cell (shared by the callers of one graph: read
    only)."""
    n = graph.n_nodes
    counts = np.fromiter(map(len, graph.incident), dtype=np.int64, count=n)
    lits = np.fromiter(chain.from_iterable(graph.incident), dtype=np.int64, count=int(counts.sum())) + 1
    first = np.cumsum(counts) - counts
    rule = np.full(n, EXACTLY_TWO if fill else NONE_OR_TWO, dtype=np.int64)
    rule[list(graph.terminal_colour)] = EXACTLY_ONE
    per_cell: list[list[list[int]]] = [[] for _ in range(n)]
    for kind, degree in {(int(r), int(c)) for r, c in zip(rule, counts, strict=True)}:
        cells = np.flatnonzero((rule == kind) & (counts == degree))
        own = lits[first[cells][:, None] + np.arange(degree)]  # (cells, degree) edge literals
        rows = [
            (own[:, list(pos)] * np.asarray(sign, dtype=np.int64)).tolist()
            for pos, sign in _template(kind, degree)
        ]
        for i, cell in enumerate(cells.tolist()):
            per_cell[cell] = [row[i] for row in rows]
    return [clause for clauses in per_cell for clause in clauses]


@lru_cache(maxsize=64)
def _template(kind: int, n: int) -> Template:
    """Positions and signs of the clauses of one rule over n edges, in the order they are given."""
    most: list[tuple[tuple[int, ...], tuple[int, ...]]]
    if kind == NONE_OR_TWO:  # at most two, never just one
        most = [(pos, (-1,) * 3) for pos in combinations(range(n), 3)]
        alone = [((x, *(y for y in range(n) if y != x)), (-1, *(1,) * (n - 1))) for x in range(n)]
        return tuple(most + alone)
    k = 1 if kind == EXACTLY_ONE else 2
    if k > n:
        return (((), ()),)  # the empty clause: the cell cannot have its degree
    most = [(pos, (-1,) * (k + 1)) for pos in combinations(range(n), k + 1)]
    least = [(pos, (1,) * (n - k + 1)) for pos in combinations(range(n), n - k + 1)]
    return tuple(most + least)
