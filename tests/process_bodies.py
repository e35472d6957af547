"""Job bodies for tests/test_process_jobs.py: module-level, so a worker process can import them."""

from __future__ import annotations

import itertools
import os
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError


def add(a: int, b: int, *, scale: int = 1, cancel: CancelToken) -> tuple[int, int]:
    return (a + b) * scale, os.getpid()


def count_to(n: int, *, cancel: CancelToken) -> Iterator[int]:
    yield from range(n)


def stream(
    n: int, *, cancel: CancelToken, progress: Callable[[dict[str, Any]], None], emit: Callable[[Any], None]
) -> str:
    for i in range(n):
        emit({"i": i})
        progress({"done": i})
        time.sleep(0.001)
    return "finished"


def bad_input(*, cancel: CancelToken) -> None:
    raise InputError("row 3: '²' is not a digit")


def bug(*, cancel: CancelToken) -> None:
    raise ValueError("a solver bug")


def crash(*, cancel: CancelToken) -> None:
    os._exit(3)


def cooperative(*, cancel: CancelToken) -> None:
    while True:
        cancel.raise_if_cancelled()
        time.sleep(0.005)


def deaf(*, cancel: CancelToken) -> None:
    time.sleep(60)  # looks at no token: only killing the worker ends it


def hold_gil(items: int, *, cancel: CancelToken) -> int:
    """One C call that keeps the GIL throughout (as python-sat's CaDiCaL does in a budgeted solve):
    builtin ``sum`` over a C iterator never lets another thread run. ~0.9 s for 50 M items here."""
    return sum(itertools.repeat(1, items))


def sat_slices(slices: int, *, cancel: CancelToken) -> tuple[list[bool | None], int]:
    """Budgeted CaDiCaL calls on a hard random 3-SAT formula, as the Flow solver makes them
    (~0.25 s each here); deterministic, so a run disturbed by signals must give the same answer."""
    from pysat.solvers import Solver

    rng = random.Random(1)
    n = 330
    clauses = [
        [v * rng.choice((-1, 1)) for v in rng.sample(range(1, n + 1), 3)] for _ in range(int(n * 4.26))
    ]
    statuses: list[bool | None] = []
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for _ in range(slices):
            solver.conf_budget(20_000)
            statuses.append(solver.solve_limited(expect_interrupt=True))
            if statuses[-1] is not None:
                break
        return statuses, int(solver.accum_stats().get("conflicts", 0))


def says_when_cancelled(*, cancel: CancelToken, progress: Callable[[dict[str, Any]], None]) -> str:
    """A body that answers a cancel with what it has (as a solve returns its count so far). It
    says when it runs, so that a test cancels it then and not while the worker still starts."""
    progress({"running": True})
    while not cancel.cancelled:
        time.sleep(0.005)
    return "what I had"
