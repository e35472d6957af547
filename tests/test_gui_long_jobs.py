"""Issue 15, long jobs: Esc reaches a Toichika solve while it is still building its SAT model."""

from __future__ import annotations

import time

import pytest

from solvers.toichika import sat_solver
from solvers.toichika.model import Toichika

pytestmark = pytest.mark.gui


def _big_board() -> Toichika:
    # 100x100 (the editor's limit) in 2x2 countries: 1.0 M variables, 2.1 M clauses.
    return Toichika.from_labels([[(r // 2) * 50 + c // 2 for c in range(100)] for r in range(100)])


def test_cancel_during_toichika_model_building_returns_quickly(main_window, qtbot, monkeypatch) -> None:
    view = main_window.show_kind("toichika")
    sat_solver._cache.clear()
    building = []
    real = sat_solver.build_model
    monkeypatch.setattr(sat_solver, "build_model", lambda *a, **k: building.append(1) or real(*a, **k))
    monkeypatch.setenv("PUZZLE_WORKBENCH_JOBS", "thread")  # the in-thread path, as the CLI runs it
    view.doc.reset(_big_board())
    job = view.solve(2)
    qtbot.waitUntil(lambda: bool(building), timeout=5000)
    assert not job.done
    start = time.monotonic()
    view.cancel_jobs()  # what Esc does: the solve job and the side panel's jobs
    while not job.done and time.monotonic() - start < 20:
        time.sleep(0.005)  # no event processing: a board repaint must not count as cancel latency
    elapsed = time.monotonic() - start
    assert elapsed < 10.0, f"cancel took {elapsed:.2f} s"  # measured 0.02-0.3 s; slack for load
    # The explanation job still builds its candidate tables uninterruptibly (about 1.5 s here).
    qtbot.waitUntil(lambda: not view.busy(), timeout=15000)
    qtbot.waitUntil(lambda: "Cancelled" in view.browser.status.text(), timeout=5000)


def test_esc_ends_a_solve_running_in_a_worker_process(main_window, qtbot) -> None:
    from solvers.common import process_jobs

    if not process_jobs.in_processes():
        pytest.skip("worker processes are POSIX-only")
    view = main_window.show_kind("toichika")
    view.doc.reset(_big_board())
    job = view.solve(2)
    qtbot.wait(1500)  # the worker is building the 1 M-variable model (about 3 s)
    assert not job.done
    start = time.monotonic()
    view.cancel_jobs()
    while not job.done and time.monotonic() - start < 20:
        time.sleep(0.005)
    elapsed = time.monotonic() - start
    assert elapsed < 5.0, f"cancel took {elapsed:.2f} s"  # a deaf worker is killed after 0.12 s
    qtbot.waitUntil(lambda: not view.busy(), timeout=15000)
    qtbot.waitUntil(lambda: "Cancelled" in view.browser.status.text(), timeout=5000)
    # The pool recovers: the next solve of a small board answers.
    view.doc.reset(view.plugin.parse_document(view.plugin.sample_paths()[0].read_text(encoding="utf-8"))[0])
    with qtbot.waitSignal(view.solve_finished, timeout=30000):
        view.solve(2)
    assert view.browser.model.rowCount() >= 1


def test_esc_ends_a_long_flow_find_all(main_window, qtbot) -> None:
    """Find All on an open Numberlink board (two pairs on a 10x10: answers without end). Issue 28's
    12x12 used to keep the worker sweeping for seconds; canonical answers now decide it in under
    one, so the long job here is the enumeration (the sweep's own cancel is tested in
    tests/flow/test_flow_frontier.py)."""
    from solvers.common import process_jobs

    if not process_jobs.in_processes():
        pytest.skip("worker processes are POSIX-only")
    view = main_window.show_kind("flow")
    rows = ["A........A", *["." * 10] * 8, "B........B"]
    view.doc.reset(view.plugin.parse("rules: numberlink\n" + "\n".join(rows) + "\n"))
    job = view.solve(None)
    qtbot.wait(1500)
    assert not job.done
    start = time.monotonic()
    view.cancel_jobs()
    while not job.done and time.monotonic() - start < 20:
        time.sleep(0.005)
    elapsed = time.monotonic() - start
    assert elapsed < 5.0, f"cancel took {elapsed:.2f} s"
    qtbot.waitUntil(lambda: not view.busy(), timeout=15000)
    qtbot.waitUntil(lambda: "(cancelled)" in view.browser.status.text(), timeout=5000)
    assert view.browser.model.rowCount() >= 2  # the answers found so far stay browsable


def test_the_progress_row_follows_the_first_job_and_counts_the_others(main_window, qtbot) -> None:
    """QA: an edit during Toichika's generator started the explanation, which took the progress
    row over (title "Explanation", timer from 0.1 s) while the generator ran on unseen; Esc then
    named the generator. The row follows the first job, counts the others, and moves on when it
    ends."""
    import threading

    view = main_window.show_kind("example")
    row = view.progress
    release = {"first": threading.Event(), "second": threading.Event()}

    def work(name: str):
        def run(cancel, progress) -> None:
            while not release[name].is_set():
                progress({"text": f"{name} at work"})
                cancel.raise_if_cancelled()
                release[name].wait(0.02)

        return run

    first = view.run_job("First job", work("first"), lambda _r: None)
    qtbot.waitUntil(lambda: "first at work" in row.detail.text(), timeout=5000)
    second = view.run_job("Second job", work("second"), lambda _r: None)
    assert row.title.text() == "First job (and 1 more)"
    qtbot.wait(200)
    assert "second" not in row.detail.text()
    release["first"].set()
    qtbot.waitUntil(lambda: first.done and row.title.text() == "Second job", timeout=5000)
    qtbot.waitUntil(lambda: "second at work" in row.detail.text(), timeout=5000)
    release["second"].set()
    qtbot.waitUntil(lambda: second.done and not view.busy(), timeout=5000)
    qtbot.waitUntil(lambda: not row.isVisible(), timeout=5000)


def test_esc_says_cancelling_at_once_while_the_job_winds_down(main_window, qtbot) -> None:
    """QA pass 7: after Esc the Nine Tiles table's build went on counting ("12.5 s — shard
    14/200") for 3-5 s before "Cancelled", with no word that Esc was heard."""
    import threading

    view = main_window.show_kind("example")
    row = view.progress
    slow_to_stop = threading.Event()

    def work(cancel, progress) -> None:
        while not cancel.cancelled:
            progress({"text": "shard 14/200"})
            time.sleep(0.02)
        slow_to_stop.wait(5)  # what a job does before its next check

    job = view.run_job("Building", work, lambda _r: None)
    qtbot.waitUntil(lambda: "shard 14/200" in row.detail.text(), timeout=5000)
    main_window.act_cancel.trigger()
    assert row.detail.text().startswith("cancelling… (") and not row.cancel_button.isEnabled()
    qtbot.wait(300)
    assert row.detail.text().startswith("cancelling… (")  # the timer's ticks keep saying it
    slow_to_stop.set()
    qtbot.waitUntil(lambda: job.done and not view.busy(), timeout=5000)
    view.run_job("Next", lambda cancel, progress: time.sleep(0.3), lambda _r: None)
    assert not row.detail.text().startswith("cancelling") and row.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: not view.busy(), timeout=5000)
