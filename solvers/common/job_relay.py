"""One relay for job bodies: on a pool thread of the GUI process and in a worker process alike.

A body runs as ``work(cancel, progress, emit)``. Around it this module gives one throttle for what
the body reports (``Relay``: progress at most every so often, streamed items in batches, in order),
one place that maps how a body ended to a ``JobStatus`` (``run_body``, which returns an
``Ending``), and the way back from an ``Ending`` to the result or the exception it stands for
(``Ending.unwrap``), which the GUI process uses for a worker's answer. A thread job and a process
job therefore end alike: a worker's ``Ending`` is unwrapped on the pool thread and mapped again by
the same ``run_body``. No Qt here: worker processes import it.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError


class JobStatus(StrEnum):
    DONE = "done"
    CANCELLED = "cancelled"
    FAILED = "failed"


class RemoteError(RuntimeError):
    """A job body raised in the worker; ``str()`` is the worker's one-line description."""

    def __init__(self, detail: str, remote_traceback: str = "") -> None:
        super().__init__(detail)
        self.remote_traceback = remote_traceback


class WorkerLost(RemoteError):
    """The worker was ended or stopped from outside (kill, the out-of-memory killer, SIGSTOP): the
    job is lost, but no bug of the solver is to blame, and the next job gets a fresh worker."""


class Relay:
    """Passes a body's progress and items on, throttled: progress at most every
    ``progress_interval`` seconds (a bar needs no more), items in batches at most every
    ``batch_interval`` seconds (one signal or message per item would flood the receiver).

    Progress that comes too soon is held and sent when its turn comes, by a timer if the body
    says nothing more: a body's last word before a long silence must not be lost (Flow's "looking
    for a second solution" came right after the solution count and was dropped, so the GUI showed
    a stale line for the whole uniqueness proof). Sends are serialised by a lock (the timer runs
    on its own thread, and a worker's pipe takes one message at a time); ``close`` ends them."""

    def __init__(
        self,
        send_progress: Callable[[dict[str, Any]], None],
        send_items: Callable[[list[Any]], None],
        progress_interval: float,
        batch_interval: float,
    ) -> None:
        self._send_progress = send_progress
        self._send_items = send_items
        self._progress_interval = progress_interval
        self._batch_interval = batch_interval
        self._last_progress = 0.0
        self._last_batch = 0.0
        self._pending: list[Any] = []
        self._held: dict[str, Any] | None = None  # progress waiting for its turn
        self._timer: threading.Timer | None = None
        self._closed = False
        self._lock = threading.Lock()
        self.count = 0  # items emitted so far

    def progress(self, info: dict[str, Any]) -> None:
        with self._lock:
            if self._closed:
                return
            wait = self._last_progress + self._progress_interval - time.monotonic()
            if wait <= 0:
                self._send_progress_now(dict(info))
                return
            self._held = dict(info)
            if self._timer is None:
                self._timer = threading.Timer(wait, self._send_held)
                self._timer.daemon = True
                self._timer.start()

    def _send_held(self) -> None:
        with self._lock:
            self._timer = None
            if self._held is not None and not self._closed:
                self._send_progress_now(self._held)

    def _send_progress_now(self, info: dict[str, Any]) -> None:
        self._last_progress = time.monotonic()
        self._held = None
        self._send_progress(info)

    def emit(self, item: Any) -> None:
        with self._lock:
            self._pending.append(item)
            self.count += 1
            now = time.monotonic()
            if now - self._last_batch >= self._batch_interval:
                self._last_batch = now
                self._flush()

    def flush(self) -> None:
        with self._lock:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            batch, self._pending = self._pending, []
            self._send_items(batch)

    def close(self) -> None:
        """No progress from now on (held progress is dropped): the body has ended."""
        with self._lock:
            self._closed = True
            self._held = None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


@dataclass(frozen=True)
class Ending:
    """How a body ended: its status, and its result or its error."""

    status: JobStatus
    result: Any = None
    error: str = ""  # one line for the user
    trace: str = ""  # a bug's traceback, for stderr of the GUI process
    invalid: bool = False  # failed on bad input (InputError), not on a bug
    lost: bool = False  # its worker process was ended or stopped from outside, not a bug

    def unwrap(self) -> Any:
        """The result, or the exception the body ended with (``run_body`` maps it back). A body
        that returned although cancelled (a solve says what it found before the cut) gives its
        result: ``run_body`` on the calling side sees the token cancelled all the same."""
        if self.status is JobStatus.DONE:
            return self.result
        if self.status is JobStatus.CANCELLED:
            if self.result is not None:
                return self.result
            raise Cancelled()
        if self.invalid:
            raise InputError(self.error)
        if self.lost:
            raise WorkerLost(self.error)
        raise RemoteError(self.error, self.trace)


def run_body(body: Callable[[], Any], cancel: CancelToken, relay: Relay) -> Ending:
    """Run ``body`` and say how it ended; the relay's last batch goes out before the end."""
    try:
        try:
            result = body()
        finally:
            relay.flush()
            relay.close()
    except Cancelled:
        return Ending(JobStatus.CANCELLED)
    except InputError as exc:
        return Ending(JobStatus.FAILED, error=str(exc), invalid=True)
    except WorkerLost as exc:  # ended or stopped from outside: no bug, no traceback
        return Ending(JobStatus.FAILED, error=str(exc), lost=True)
    except RemoteError as exc:  # a bug in a worker process: its traceback, its one line
        return Ending(JobStatus.FAILED, error=str(exc), trace=exc.remote_traceback)
    except Exception as exc:  # a solver bug must not kill the app; report it readably
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return Ending(JobStatus.FAILED, error=detail, trace=traceback.format_exc())
    return Ending(JobStatus.CANCELLED if cancel.cancelled else JobStatus.DONE, result)
