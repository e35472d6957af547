"""The incremental fixpoint (propagation.py) reaches exactly the plain loop's state at every level."""

from __future__ import annotations

import random

import pytest

from solvers.common.cancel import CancelToken
from solvers.toichika.candidates import ALL, BIT, Board, Contradiction, State
from solvers.toichika.explain import propagate, propagate_reference
from solvers.toichika.generate import divide, hidden_solution
from solvers.toichika.model import DIRECTIONS, Toichika
from solvers.toichika.techniques import _perfect_matchings


def _outcome(fn, board: Board, masks: list[int], level: int) -> list[int] | str:
    state = State(board, list(masks))
    try:
        fn(state, None, max_level=level)
    except Contradiction:
        return "contradiction"
    return state.masks


def _cases(count: int, seed: int) -> list[tuple[Board, list[int]]]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        side = rng.choice((6, 8, 10, 12))
        labels = divide(side, side, rng, weights={2: 6, 3: 3, 4: 1})
        blank = Toichika.from_labels(labels)
        solution = hidden_solution(blank, rng, False, CancelToken())
        if solution is None:
            continue
        board = Board(blank)
        keep = rng.uniform(0.2, 0.8)
        masks = [BIT[d] if d in DIRECTIONS and rng.random() < keep else ALL for d in solution]
        if rng.random() < 0.3:  # a wrong given now and then, so contradictions are compared too
            i = rng.randrange(len(masks))
            masks[i] = BIT[rng.choice(DIRECTIONS)]
        out.append((board, masks))
    return out


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6, 7])
def test_incremental_fixpoint_matches_the_plain_loop(level: int) -> None:
    outcomes = set()
    for board, masks in _cases(12, seed=level):
        fast = _outcome(propagate, board, masks, level)
        assert fast == _outcome(propagate_reference, board, masks, level)
        outcomes.add("contradiction" if fast == "contradiction" else "state")
    assert outcomes == {"contradiction", "state"}  # both kinds of outcome were compared


def test_fixpoint_from_a_settled_state_matches_the_cold_one() -> None:
    """``fixpoint(changed=[i])``: a fixpoint narrowed at one cell (a case analysis' assumption)
    ends where the cold run ends, contradictions included."""
    from solvers.toichika.explain import CODES
    from solvers.toichika.propagation import fixpoint

    rng = random.Random(31)
    compared = {"contradiction": 0, "state": 0}
    for board, masks in _cases(10, seed=31):
        settled = State(board, list(masks))
        try:
            fixpoint(settled, 3)
        except Contradiction:
            continue
        open_cells = [i for i, m in enumerate(settled.masks) if m & (m - 1)]
        for i in rng.sample(open_cells, min(8, len(open_cells))):
            bit = rng.choice([b for _, b in CODES if settled.masks[i] & b])
            narrowed = list(settled.masks)
            narrowed[i] = bit
            cold = _outcome(lambda st, _c, max_level: fixpoint(st, max_level), board, narrowed, 3)
            warm = _outcome(lambda st, _c, max_level, i=i: fixpoint(st, max_level, [i]), board, narrowed, 3)
            assert warm == cold
            compared["contradiction" if cold == "contradiction" else "state"] += 1
    assert min(compared.values()) > 0, compared


def _plain_matchings(nodes: list[int], edges: dict[int, set[int]], limit: int) -> set[tuple[int, int]] | None:
    """The enumeration ``_perfect_matchings`` must agree with, cut-off included."""
    used: set[tuple[int, int]] = set()
    chosen: list[tuple[int, int]] = []
    budget = [limit]

    def search(free: frozenset[int]) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            raise TimeoutError
        if not free:
            used.update(chosen)
            return True
        first, found = min(free), False
        for other in sorted(edges[first] & free):
            chosen.append((min(first, other), max(first, other)))
            found |= search(free - {first, other})
            chosen.pop()
        return found

    try:
        search(frozenset(nodes))
    except TimeoutError:
        return None
    return used


def test_memoised_matchings_match_the_plain_enumeration() -> None:
    rng = random.Random(5)
    kinds = set()
    for _ in range(300):
        n = rng.choice([4, 6, 8, 10, 14, 18])
        p = rng.uniform(0.1, 0.9)
        edges: dict[int, set[int]] = {i: set() for i in range(n)}
        for i in range(n):
            for j in range(i + 1, n):
                if rng.random() < p:
                    edges[i].add(j)
                    edges[j].add(i)
        limit = rng.choice([50, 500, 20000])
        # countries with scattered ids, listed out of order (as matching's groups are)
        ids = rng.sample(range(3 * n), n)
        graph = {ids[v]: {ids[o] for o in near} for v, near in edges.items()}
        want = _plain_matchings(ids, graph, limit)
        assert _perfect_matchings(ids, graph, [limit]) == want
        kinds.add("cut off" if want is None else ("none" if not want else "some"))
    assert kinds == {"cut off", "none", "some"}
