"""Background jobs on QThreadPool with cancel tokens and throttled, GUI-thread-safe signals.

Rules (see docs/ARCHITECTURE.md): workers never touch widgets; they emit plain Python values through a
``JobSignals`` object created on the GUI thread, so connected GUI slots run queued on the GUI thread.
The manager keeps a strong reference to every running job and cancels them all on close.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from solvers.common.cancel import CancelToken
from solvers.common.job_relay import JobStatus, Relay, run_body
from solvers.common.solve_stream import stream_solutions

Emit = Callable[[Any], None]
Work = Callable[[CancelToken, Callable[[dict[str, Any]], None], Emit], Any]

PROGRESS_INTERVAL = 0.1  # seconds between progress signals (10 Hz is plenty for a bar)
BATCH_INTERVAL = 0.05  # streamed items are sent in batches at most this often
MIN_THREADS = 8


@dataclass(frozen=True)
class JobOutcome:
    status: JobStatus
    result: Any = None
    error: str = ""
    seconds: float = 0.0
    items: int = 0
    invalid: bool = False  # failed on bad input (InputError), not on a bug
    lost: bool = False  # its worker process was ended or stopped from outside, not a bug
    # What its progress last said is proven (Flow: "unique (designed)" during a Numberlink proof):
    # a worker killed on Esc sends no result to say it.
    proven: str | None = None


class JobSignals(QObject):
    progress = Signal(object)  # dict
    items = Signal(object)  # list of streamed items (e.g. solutions), in order
    finished = Signal(object)  # JobOutcome


class Job(QRunnable):
    """Runs ``work(cancel, progress, emit)`` on a pool thread; what it reports goes out through
    the same relay (throttle and status mapping, ``solvers.common.job_relay``) as a worker's."""

    def __init__(self, title: str, work: Work) -> None:
        super().__init__()
        self.setAutoDelete(False)  # the manager owns it; Qt must not delete it under us
        self.title = title
        self.work = work
        self.cancel_token = CancelToken()
        self.signals = JobSignals()
        self.started_at = time.monotonic()
        self.done = False
        # The user asked to stop it (Esc, Cancel); a job its owner replaced ends without a word.
        self.cancelled_by_user = False
        self.relay = Relay(
            self.signals.progress.emit, self.signals.items.emit, PROGRESS_INTERVAL, BATCH_INTERVAL
        )

    def cancel(self) -> None:
        self.cancel_token.cancel()

    def run(self) -> None:
        start = time.monotonic()
        token, relay = self.cancel_token, self.relay
        proven: list[str] = []

        def progress(info: dict[str, Any]) -> None:
            said = info.get("proven")
            if isinstance(said, str) and said:
                proven[:] = [said]
            relay.progress(info)

        ending = run_body(lambda: self.work(token, progress, relay.emit), token, relay)
        if ending.trace:  # a bug, here or in a worker process: where it happened
            print(ending.trace, end="", file=sys.stderr)
        outcome = JobOutcome(
            ending.status,
            ending.result,
            ending.error,
            time.monotonic() - start,
            relay.count,
            ending.invalid,
            ending.lost,
            proven[-1] if proven else None,
        )
        self.done = True
        try:
            self.signals.finished.emit(outcome)
        except RuntimeError:  # the window (and the signals' owner) closed while the job ran
            pass


def solve_work(plugin: Any, puzzle: Any, limit: int | None, options: dict[str, Any] | None = None) -> Work:
    """A job body streaming a plug-in's solutions (``solve_stream.stream_solutions``) on a pool
    thread. ``options``: the document's own ``solve_options`` (read on the GUI thread: the worker
    never reads the live document)."""

    def work(cancel: CancelToken, progress: Callable[[dict[str, Any]], None], emit: Emit) -> Any:
        return stream_solutions(plugin, puzzle, limit, options, cancel, progress, emit)

    return work


class JobManager(QObject):
    """Starts jobs on a thread pool, keeps them alive, cancels them."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        # Enough threads that a long side-panel job (a Toichika explanation can run for minutes)
        # never queues a Solve or an export behind it: most bodies run in worker processes, and
        # their threads only wait on a pipe.
        self.pool.setMaxThreadCount(max(MIN_THREADS, QThreadPool.globalInstance().maxThreadCount()))
        self.running: list[Job] = []
        self.closed = False

    def start(self, job: Job) -> Job:
        if self.closed:
            # A panel timer may fire after the window closed; such a job must not outlive it.
            job.cancel()
        self.running.append(job)
        job.signals.finished.connect(self._forget)
        self.pool.start(job)
        return job

    def _forget(self, _outcome: JobOutcome) -> None:
        self.running = [job for job in self.running if not job.done]

    def cancel_all(self) -> None:
        for job in list(self.running):
            job.cancel()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel everything, refuse new work, and wait for the workers (used when the window closes)."""
        self.closed = True
        self.cancel_all()
        return self.pool.waitForDone(timeout_ms)
