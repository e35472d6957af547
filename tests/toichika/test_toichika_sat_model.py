"""The vectorised SAT model: same answers as a brute force on random small boards; cancellable build."""

from __future__ import annotations

import itertools
import random
import threading
import time

import pytest

from solvers.common.cancel import Cancelled, CancelToken
from solvers.toichika import sat_solver
from solvers.toichika.model import DIRECTIONS, Toichika
from solvers.toichika.rules import check


def _random_board(rng: random.Random) -> Toichika:
    """Four stripes of random widths per row (rows may disagree: staircase-shaped countries)."""
    rows, cols = rng.choice((1, 2, 3)), rng.choice((4, 5, 6))
    labels = []
    for _ in range(rows):
        cuts = sorted(rng.sample(range(1, cols), 3))
        labels.append([sum(c >= cut for cut in cuts) for c in range(cols)])
    return Toichika.from_labels(labels)


def _brute_count(p: Toichika) -> int:
    """One arrow per country in every way; count the arrangements the rule checker accepts."""
    choices = [[(i, d) for i in cells for d in DIRECTIONS] for cells in p.regions]
    count = 0
    for pick in itertools.product(*choices):
        entries = [0] * p.size
        for i, d in pick:
            entries[i] = d
        count += check(p, tuple(entries)).ok
    return count


def test_model_matches_brute_force_on_random_boards() -> None:
    rng = random.Random(15)
    counts = []
    while len(counts) < 30:
        p = _random_board(rng)
        if len(p.regions) > 5 or p.size > 10:
            continue
        sat_solver._cache.clear()
        counts.append(_brute_count(p))
        assert len(list(sat_solver.iter_solutions(p, limit=0))) == counts[-1], p
    assert sum(c > 0 for c in counts) >= 6  # the boards are not all trivially unsolvable


def test_concurrent_callers_share_one_build_and_cancel_reaches_the_build(monkeypatch) -> None:
    p = Toichika.from_labels([[(r // 2) * 50 + c // 2 for c in range(100)] for r in range(100)])
    sat_solver._cache.clear()
    builds = []
    real = sat_solver.build_model
    monkeypatch.setattr(sat_solver, "build_model", lambda *a, **k: builds.append(1) or real(*a, **k))
    # Cancel in the middle of the build: it stops promptly.
    token = CancelToken()
    threading.Timer(0.05, token.cancel).start()
    start = time.process_time()  # CPU time: the build stopped, however busy the machine
    with pytest.raises(Cancelled):
        sat_solver.model_for(p, token)
    assert time.process_time() - start < 2.0
    # Two callers at once: one build, both get the same model.
    results = []
    threads = [threading.Thread(target=lambda: results.append(sat_solver.model_for(p))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 2 and results[0] is results[1]
    assert results[0].nvars == 1_010_000 and results[0].nclauses == 2_106_700


def _blocks_board(rows: int, cols: int) -> Toichika:
    return Toichika.from_labels([[(r // 2) * 100 + c // 2 for c in range(cols)] for r in range(rows)])


def test_load_hands_the_gil_over_once_per_chunk_of_clauses(monkeypatch) -> None:
    """Not after every small block: each ``sleep(0)`` also yields the core on a busy machine."""
    from pysat.solvers import Solver

    model = sat_solver.model_for(_blocks_board(20, 20))
    assert len(model.blocks) > model.nclauses // sat_solver.CHUNK + 1  # many small blocks
    sleeps: list[float] = []
    monkeypatch.setattr(sat_solver.time, "sleep", sleeps.append)
    solver = Solver(name=sat_solver.SOLVER_NAME)
    reference = Solver(name=sat_solver.SOLVER_NAME, bootstrap_with=model.clauses)
    try:
        model.load(solver)
        assert solver.nof_clauses() == reference.nof_clauses()  # every clause went in
    finally:
        solver.delete()
        reference.delete()
    assert 1 <= len(sleeps) <= model.nclauses // sat_solver.CHUNK + 1


def test_loading_a_big_model_lets_the_gui_thread_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a 60x60 model (~0.5 M clauses) hands the GIL over at least every 2 CHUNKs of
    clauses, so the GUI thread never waits for more than a few ms of loading. Counted in clauses
    between hand-overs, not timed: a wall-clock gap flakes on a loaded machine (0.5 s at load 13)."""
    from pysat.solvers import Solver

    model = sat_solver.model_for(_blocks_board(60, 60))
    solver = Solver(name=sat_solver.SOLVER_NAME)
    marks: list[int] = []
    monkeypatch.setattr(sat_solver.time, "sleep", lambda _s: marks.append(solver.nof_clauses()))
    try:
        model.load(solver)
        total = solver.nof_clauses()
    finally:
        solver.delete()
    steps = [b - a for a, b in zip([len(model.ragged), *marks], [*marks, total], strict=True)]
    assert len(marks) >= total // (2 * sat_solver.CHUNK)
    assert max(steps) < 2 * sat_solver.CHUNK
