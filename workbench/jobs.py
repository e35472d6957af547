"""Background jobs on QThreadPool with cancel tokens and throttled, GUI-thread-safe signals.

Rules (see docs/ARCHITECTURE.md): workers never touch widgets; they emit plain Python values through a
``JobSignals`` object created on the GUI thread, so connected GUI slots run queued on the GUI thread.
The manager keeps a strong reference to every running job and cancels them all on close.
"""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.common.process_jobs import RemoteError, WorkerLost
from solvers.common.solve_stream import stream_solutions

Emit = Callable[[Any], None]
Work = Callable[[CancelToken, Callable[[dict[str, Any]], None], Emit], Any]

PROGRESS_INTERVAL = 0.1  # seconds between progress signals (10 Hz is plenty for a bar)
BATCH_INTERVAL = 0.05  # streamed items are sent in batches at most this often
MIN_THREADS = 8


@dataclass(frozen=True)
class JobOutcome:
    status: str  # "done", "cancelled" or "failed"
    result: Any = None
    error: str = ""
    seconds: float = 0.0
    items: int = 0
    invalid: bool = False  # failed on bad input (InputError), not on a bug
    lost: bool = False  # its worker process was ended or stopped from outside, not a bug


class JobSignals(QObject):
    progress = Signal(object)  # dict
    items = Signal(object)  # list of streamed items (e.g. solutions), in order
    finished = Signal(object)  # JobOutcome


class Job(QRunnable):
    """Runs ``work(cancel, progress, emit)`` on a pool thread."""

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
        self._pending: list[Any] = []
        self._count = 0
        self._last_batch = 0.0
        self._last_progress = 0.0

    def cancel(self) -> None:
        self.cancel_token.cancel()

    def _progress(self, info: dict[str, Any]) -> None:
        now = time.monotonic()
        if now - self._last_progress >= PROGRESS_INTERVAL:
            self._last_progress = now
            self.signals.progress.emit(dict(info))

    def _emit(self, item: Any) -> None:
        self._pending.append(item)
        self._count += 1
        now = time.monotonic()
        if now - self._last_batch >= BATCH_INTERVAL:
            self._flush()
            self._last_batch = now

    def _flush(self) -> None:
        if self._pending:
            batch, self._pending = self._pending, []
            self.signals.items.emit(batch)

    def run(self) -> None:
        start = time.monotonic()
        try:
            result = self.work(self.cancel_token, self._progress, self._emit)
            self._flush()
            status = "cancelled" if self.cancel_token.cancelled else "done"
            outcome = JobOutcome(status, result, seconds=time.monotonic() - start, items=self._count)
        except Cancelled:
            self._flush()
            outcome = JobOutcome("cancelled", seconds=time.monotonic() - start, items=self._count)
        except InputError as exc:
            self._flush()
            outcome = JobOutcome(
                "failed", error=str(exc), seconds=time.monotonic() - start, items=self._count, invalid=True
            )
        except WorkerLost as exc:  # ended or stopped from outside: no bug, no traceback
            self._flush()
            outcome = JobOutcome(
                "failed", error=str(exc), seconds=time.monotonic() - start, items=self._count, lost=True
            )
        except RemoteError as exc:  # a bug in a worker process: its traceback, its one line
            self._flush()
            print(exc.remote_traceback, end="", file=sys.stderr)
            outcome = JobOutcome(
                "failed", error=str(exc), seconds=time.monotonic() - start, items=self._count
            )
        except Exception as exc:  # a solver bug must not kill the app; report it readably
            self._flush()
            detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            traceback.print_exc()
            outcome = JobOutcome("failed", error=detail, seconds=time.monotonic() - start, items=self._count)
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
