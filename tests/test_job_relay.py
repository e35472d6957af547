"""One relay for job bodies (solvers/common/job_relay.py): the throttle, the status mapping, and a
thread job and a worker-process job that end alike."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import process_bodies as bodies
import pytest

from solvers.common import job_relay, process_jobs
from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.common.job_relay import Ending, JobStatus, Relay, RemoteError, WorkerLost, run_body


def _quiet() -> Relay:
    return Relay(lambda _info: None, lambda _items: None, 0.0, 0.0)


def _raise(exc: BaseException) -> Callable[[], Any]:
    def body() -> Any:
        raise exc

    return body


def _cancelled_token() -> CancelToken:
    token = CancelToken()
    token.cancel()
    return token


def test_every_way_a_body_ends_has_one_status() -> None:
    token = CancelToken()
    assert run_body(lambda: 42, token, _quiet()) == Ending(JobStatus.DONE, 42)
    assert run_body(_raise(Cancelled()), token, _quiet()) == Ending(JobStatus.CANCELLED)
    # a body that saw the cancel but returned still counts as cancelled, its result kept
    assert run_body(lambda: 7, _cancelled_token(), _quiet()) == Ending(JobStatus.CANCELLED, 7)
    bad = run_body(_raise(InputError("row 3: bad")), token, _quiet())
    assert (bad.status, bad.error, bad.invalid, bad.trace) == (JobStatus.FAILED, "row 3: bad", True, "")
    lost = run_body(_raise(WorkerLost("ended by SIGKILL")), token, _quiet())
    assert (lost.status, lost.lost, lost.trace) == (JobStatus.FAILED, True, "")
    remote = run_body(_raise(RemoteError("KeyError: 3", "Traceback: there")), token, _quiet())
    assert (remote.error, remote.trace, remote.invalid, remote.lost) == (
        "KeyError: 3",
        "Traceback: there",
        False,
        False,
    )
    bug = run_body(_raise(ValueError("a solver bug")), token, _quiet())
    assert bug.status == JobStatus.FAILED and bug.error == "ValueError: a solver bug"
    assert "Traceback" in bug.trace and not bug.invalid and not bug.lost


@pytest.mark.parametrize(
    "ending",
    [
        Ending(JobStatus.DONE, {"a": 1}),
        Ending(JobStatus.CANCELLED),
        Ending(JobStatus.FAILED, error="row 3: bad", invalid=True),
        Ending(JobStatus.FAILED, error="ended by SIGKILL", lost=True),
        Ending(JobStatus.FAILED, error="ValueError: x", trace="Traceback (worker)"),
    ],
    ids=["done", "cancelled", "invalid", "lost", "bug"],
)
def test_a_relayed_ending_maps_back_to_itself(ending: Ending) -> None:
    """The GUI process unwraps a worker's ending and maps it again: nothing changes on the way."""
    assert run_body(ending.unwrap, CancelToken(), _quiet()) == ending


def test_the_relay_throttles_progress_and_batches_items_in_order(monkeypatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(job_relay.time, "monotonic", lambda: clock[0])
    progress: list[dict[str, Any]] = []
    batches: list[list[int]] = []
    relay = Relay(progress.append, batches.append, progress_interval=0.1, batch_interval=0.05)
    for i in range(100):  # 1/512 s apart (exact in binary): 0.2 s in all
        relay.progress({"done": i})
        relay.emit(i)
        clock[0] += 1 / 512
    relay.flush()
    relay.close()  # the held {"done": 99} is dropped with its timer: the body has ended
    assert [p["done"] for p in progress] == [0, 52]  # the first at once, then after 0.1 s
    assert [batch[-1] for batch in batches] == [0, 26, 52, 78, 99]  # every 0.05 s, then the rest
    assert [item for batch in batches for item in batch] == list(range(100)) and relay.count == 100


def test_progress_that_came_too_soon_is_sent_when_its_turn_comes() -> None:
    # A body's last word before a long silence (Flow: "looking for a second solution", right after
    # the solution count) must reach the window; before, the throttle dropped it for good.
    sent: list[dict[str, Any]] = []
    relay = Relay(sent.append, lambda _items: None, progress_interval=0.2, batch_interval=0.0)
    relay.progress({"found": 1})
    relay.progress({"found": 1, "text": "looking for a second solution"})
    assert sent == [{"found": 1}]  # held for now
    deadline = time.monotonic() + 5
    while len(sent) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sent == [{"found": 1}, {"found": 1, "text": "looking for a second solution"}]
    relay.progress({"found": 2})  # too soon again, then the body ends: nothing after the end
    relay.close()
    time.sleep(0.4)
    assert len(sent) == 2
    relay.progress({"found": 3})
    assert len(sent) == 2


def test_progress_is_copied() -> None:
    """The body may go on changing its dict: what was sent stays as it was."""
    sent: list[dict[str, Any]] = []
    relay = Relay(sent.append, lambda _items: None, 0.0, 0.0)
    info = {"found": 1}
    relay.progress(info)
    info["found"] = 2
    assert sent == [{"found": 1}]


@pytest.mark.skipif(not process_jobs.in_processes(), reason="worker processes are POSIX-only")
@pytest.mark.parametrize("body", [bodies.bad_input, bodies.bug, bodies.cooperative], ids=lambda b: b.__name__)
def test_a_thread_job_and_a_process_job_end_alike(qapp, body: Any) -> None:
    from workbench.jobs import Job

    def in_thread(cancel: CancelToken, _progress: Any, _emit: Any) -> Any:
        return body(cancel=cancel)

    def in_worker(cancel: CancelToken, progress: Any, _emit: Any) -> Any:
        return process_jobs.remote(body)(cancel, progress)

    outcomes = []
    for work in (in_thread, in_worker):
        job = Job("test", work)
        if body is bodies.cooperative:
            job.cancel()  # cancelled before it starts: both end as cancelled
        ended: list[Any] = []
        job.signals.finished.connect(ended.append)
        job.run()
        (outcome,) = ended
        outcomes.append((outcome.status, outcome.error, outcome.invalid, outcome.lost))
    assert outcomes[0] == outcomes[1]
