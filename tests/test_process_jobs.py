"""Job bodies in worker processes (workbench/process_jobs.py): results, streams, errors, cancel,
crashes, and the point of it all, a body that holds the GIL cannot freeze the calling process."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import process_bodies as bodies
import pytest

from solvers.common import process_jobs
from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.common.process_jobs import RemoteError, remote, remote_stream

pytestmark = pytest.mark.skipif(not process_jobs.in_processes(), reason="worker processes are POSIX-only")


def _run(work: Any, cancel: CancelToken | None = None) -> Any:
    return work(cancel or CancelToken(), lambda _info: None)


def test_a_body_runs_in_another_process_with_its_arguments() -> None:
    value, pid = _run(remote(bodies.add, 2, 3, scale=10))
    assert value == 50 and pid != os.getpid()
    assert _run(remote(bodies.count_to, 5, listed=True)) == [0, 1, 2, 3, 4]


def test_workers_are_reused() -> None:
    _first, pid1 = _run(remote(bodies.add, 1, 1))
    _second, pid2 = _run(remote(bodies.add, 1, 1))
    assert pid1 == pid2  # one job at a time: the worker that finished takes the next


def test_streamed_items_and_progress_arrive_in_order() -> None:
    items: list[Any] = []
    progress: list[dict[str, Any]] = []
    result = remote_stream(bodies.stream, 200)(CancelToken(), progress.append, items.append)
    assert result == "finished"
    assert [item["i"] for item in items] == list(range(200))
    assert progress and all(p["done"] < 200 for p in progress)  # throttled, not one per call
    assert len(progress) < 200


def test_input_errors_stay_input_errors_and_bugs_are_one_line() -> None:
    with pytest.raises(InputError, match="row 3"):
        _run(remote(bodies.bad_input))
    with pytest.raises(RemoteError) as caught:
        _run(remote(bodies.bug))
    assert str(caught.value) == "ValueError: a solver bug"
    assert "Traceback" in caught.value.remote_traceback


def test_a_crashed_worker_is_reported_and_replaced() -> None:
    with pytest.raises(RemoteError, match="exit code 3"):
        _run(remote(bodies.crash))
    assert _run(remote(bodies.add, 1, 2))[0] == 3


@pytest.mark.parametrize("body", [bodies.cooperative, bodies.deaf], ids=["cooperative", "deaf"])
def test_cancel_ends_the_job_quickly(body: Any) -> None:
    _run(remote(bodies.add, 0, 0))  # a warm worker, so the timing is the cancel's alone
    token = CancelToken()
    ended: list[float] = []

    def job() -> None:
        try:
            _run(remote(body), token)
        except Cancelled:
            ended.append(time.monotonic())

    thread = threading.Thread(target=job)
    thread.start()
    time.sleep(0.5)
    asked = time.monotonic()
    token.cancel()
    thread.join(5)
    assert ended, "the job did not end"
    assert ended[0] - asked < 2.0  # grace 0.12 s, then the worker is killed (slack for load)
    assert _run(remote(bodies.add, 2, 2))[0] == 4  # the pool still works


def test_a_body_that_answers_a_cancel_gives_its_answer() -> None:
    # A solve cut short returns what it had proven; the job still ends cancelled (run_body sees
    # the token), but the caller gets the result instead of a bare Cancelled.
    # Cancelled only once the body runs: a cancel while a fresh worker still starts (0.3 s was too
    # short for a clean clone's first imports on a loaded machine) rightly ends in Cancelled.
    token = CancelToken()
    got: list[Any] = []
    running = threading.Event()
    work = remote(bodies.says_when_cancelled, with_progress=True)
    thread = threading.Thread(target=lambda: got.append(work(token, lambda _info: running.set())))
    thread.start()
    assert running.wait(30), "the body never started"
    token.cancel()
    thread.join(5)
    assert got == ["what I had"]


def _longest_gap_while(work: Any) -> float:
    """The longest time this process's main thread could not run while ``work`` ran on a thread."""
    thread = threading.Thread(target=work)
    gaps = []
    last = time.perf_counter()
    thread.start()
    while thread.is_alive():
        time.sleep(0.002)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    gaps.append(time.perf_counter() - last)  # a body that kept the GIL from its start: one gap
    return max(gaps)


def test_a_body_holding_the_gil_does_not_freeze_the_caller(monkeypatch) -> None:
    _run(remote(bodies.add, 0, 0))
    in_worker = _longest_gap_while(lambda: _run(remote(bodies.hold_gil, 80_000_000)))
    monkeypatch.setenv("PUZZLE_WORKBENCH_JOBS", "thread")  # the check catches the in-thread freeze
    in_thread = _longest_gap_while(lambda: _run(remote(bodies.hold_gil, 80_000_000)))
    # relative: a loaded machine delays every tick, but only a frozen caller misses the whole body
    assert in_worker < in_thread / 4, f"main thread stalled {in_worker:.3f} s with the body in a worker"
    assert in_thread > 0.25, f"in a thread the same body stalled only {in_thread:.3f} s"


def test_a_worker_that_cannot_start_means_threads_from_then_on(monkeypatch, capsys) -> None:
    monkeypatch.setattr(process_jobs, "_POOL", None)  # a fresh pool, restored afterwards
    monkeypatch.setattr(process_jobs, "_BROKEN", "")
    monkeypatch.setattr(process_jobs, "WORKER_CODE", "import sys; sys.exit(7)  # {fd}")
    value, pid = _run(remote(bodies.add, 2, 3))
    assert value == 5 and pid == os.getpid()  # ran here instead
    assert not process_jobs.in_processes()
    assert "failed to start (exit code 7)" in capsys.readouterr().err
    assert _run(remote(bodies.add, 1, 1))[1] == os.getpid()
    process_jobs.pool().close()


def test_closing_the_pool_mid_job_ends_the_job_quietly(monkeypatch, capsys) -> None:
    """At exit the pool kills busy workers while their jobs' threads still relay: the job ends as
    cancelled, nothing is printed, and the socket is closed once (it used to raise EBADF)."""
    monkeypatch.setattr(process_jobs, "_POOL", None)  # a fresh pool, restored afterwards
    outcome: list[str] = []

    def job() -> None:
        try:
            _run(remote(bodies.deaf))
        except Cancelled:
            outcome.append("cancelled")
        except Exception as exc:  # anything else is the bug
            outcome.append(repr(exc))

    thread = threading.Thread(target=job)
    thread.start()
    workers = process_jobs.pool()
    # Wait for the job's worker (a fixed wait was a gamble: a fresh pool starts its first worker
    # first, which on a clean clone of a loaded machine may take longer than any fixed guess).
    deadline = time.monotonic() + 30
    while not workers._busy and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)  # the job relays by now (the body never answers)
    busy = list(workers._busy)
    workers.close()
    thread.join(5)
    assert outcome == ["cancelled"]
    assert busy and all(not worker.alive() for worker in busy)
    busy[0].kill()  # a second kill is harmless
    assert process_jobs.in_processes()
    assert capsys.readouterr().err == ""


def test_workers_exit_when_their_parent_dies(tmp_path: Path) -> None:
    script = (
        "import os, sys\n"
        "from solvers.common import process_jobs\n"
        "worker = process_jobs.Worker()\n"
        "print(worker.process.pid, flush=True)\n"
        "os._exit(0)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    pid = int(out.stdout.split()[0])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
    assert not _alive(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split()[2] == "Z")  # a zombie has exited


def test_a_worker_ignores_terminal_signals_mid_solve() -> None:
    """Ctrl+C in the launching terminal must not break a running solve: the workers sit in their
    own session (the terminal's signals do not reach them), and a SIGINT sent to them anyway is not
    caught by python-sat, whose CaDiCaL installs its own SIGINT handler for each solve call."""
    expected = bodies.sat_slices(4, cancel=CancelToken())
    _run(remote(bodies.add, 0, 0))  # a warm worker, so the signals land in the solve
    workers = process_jobs.pool()
    outcome: list[Any] = []

    def job() -> None:
        try:
            outcome.append(_run(remote(bodies.sat_slices, 4)))
        except Exception as exc:  # the bug: "Caught keyboard interrupt" from the worker
            outcome.append(exc)

    thread = threading.Thread(target=job)
    thread.start()
    while not workers._busy and thread.is_alive():
        time.sleep(0.001)
    # A spare still starting (the GUI tests start spares on a timer) has not blocked the signals
    # yet: a terminal cannot reach it (its own session), and this test signals only greeted ones.
    while thread.is_alive() and not all(worker.greeted for worker in list(workers._busy)):
        time.sleep(0.001)
    busy = list(workers._busy)
    pids = [worker.process.pid for worker in busy]
    assert pids and all(os.getpgid(pid) != os.getpgid(0) for pid in pids), "workers share our group"
    sent = 0
    while thread.is_alive():
        for pid in pids:
            for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP, signal.SIGHUP):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)
                    os.killpg(os.getpgid(pid), sig)  # as the terminal would, had it reached them
                    sent += 1
        time.sleep(0.005)
    thread.join()
    assert sent > 20  # the solve ran for a while under the signals
    assert outcome == [expected]
    # No signal ended a worker. One may have been stopped on release (exit code 0) when spares
    # started meanwhile filled the idle list (the GUI tests start them on a timer): under xdist
    # that made "every worker still alive" fail 2 clean-clone runs in 3.
    codes = [worker.process.poll() for worker in busy]
    assert all(code is None or code == 0 for code in codes), codes
    assert _run(remote(bodies.add, 1, 2))[0] == 3  # and the pool takes the next job


def _busy_worker_pid(workers: Any, thread: threading.Thread) -> int:
    deadline = time.monotonic() + 30
    while not workers._busy and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.005)
    return next(iter(workers._busy)).process.pid


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "SIGSTOP"])
def test_a_worker_ended_or_stopped_from_outside_is_said_so(how: str) -> None:
    """A worker killed from outside was reported as 'Solver failed (a bug)'; a stopped one left
    'Solving…' for ever (issue 29.23)."""
    _run(remote(bodies.add, 0, 0))  # a warm worker
    workers = process_jobs.pool()
    outcome: list[Any] = []

    def job() -> None:
        try:
            outcome.append(_run(remote(bodies.deaf)))
        except Exception as exc:
            outcome.append(exc)

    thread = threading.Thread(target=job)
    thread.start()
    pid = _busy_worker_pid(workers, thread)
    started = time.monotonic()
    os.kill(pid, getattr(signal, how))
    thread.join(60)
    assert not thread.is_alive()
    (error,) = outcome
    assert isinstance(error, process_jobs.WorkerLost), error
    assert (how if how != "SIGSTOP" else "stopped from outside (SIGSTOP)") in str(error)
    assert time.monotonic() - started < 30  # a stopped worker is noticed in seconds, not never
    assert not _alive(pid) or how == "SIGSTOP" and _is_zombie_or_gone(pid)
    assert _run(remote(bodies.add, 1, 2))[0] == 3  # the next job gets a fresh worker


def _is_zombie_or_gone(pid: int) -> bool:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
    return not _alive(pid)


def test_a_crash_is_still_a_bug() -> None:
    with pytest.raises(RemoteError) as info:
        _run(remote(bodies.crash))
    assert not isinstance(info.value, process_jobs.WorkerLost)
