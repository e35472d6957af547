"""The designed-rule solver must release the GIL inside budgeted calls (GUI stalls, issue 15):
python-sat's CaDiCaL 1.9.5 holds it for a whole budgeted ``solve_limited``, Glucose does not."""

from __future__ import annotations

import random
import threading
import time

from pysat.solvers import Solver

from solvers.flow.sat import SOLVERS


def _longest_main_thread_gap(name: str) -> tuple[float, float]:
    """(longest gap between main-thread ticks, solving time) while a worker runs budgeted slices
    of a hard random 3-SAT formula for about a second."""
    rng = random.Random(1)
    n = 330
    clauses = [
        [v * rng.choice((-1, 1)) for v in rng.sample(range(1, n + 1), 3)] for _ in range(int(n * 4.26))
    ]
    solver = Solver(name=name, bootstrap_with=clauses)
    spent: list[float] = []

    def work() -> None:
        while sum(spent) < 1.0:
            solver.conf_budget(40_000)  # CaDiCaL: ~0.5 s a call here
            start = time.perf_counter()
            status = solver.solve_limited(expect_interrupt=True)
            spent.append(time.perf_counter() - start)
            if status is not None:
                break

    worker = threading.Thread(target=work)
    gap, last = 0.0, time.perf_counter()  # before start: the worker may take the GIL at once
    worker.start()
    while worker.is_alive():
        time.sleep(0.001)
        now = time.perf_counter()
        gap, last = max(gap, now - last), now
    gap = max(gap, time.perf_counter() - last)  # a worker that took the GIL at once: one long gap
    solver.delete()
    return gap, sum(spent)


def test_the_designed_rule_solver_lets_the_gui_thread_run() -> None:
    gap, spent = _longest_main_thread_gap(SOLVERS["designed"])
    assert spent > 0.2  # the worker really searched
    # a freeze bound, not a timing: a solver holding the GIL makes the gap as long as one call
    # (CaDiCaL here: 0.36 s; Glucose: 3 ms)
    assert gap < 0.15, f"main thread stalled {gap:.3f} s of {spent:.3f} s"


def test_the_check_catches_a_solver_that_holds_the_gil() -> None:
    gap, _spent = _longest_main_thread_gap("cadical195")
    assert gap >= 0.15
