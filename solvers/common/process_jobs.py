"""Job bodies that run in persistent worker processes instead of a GUI-process thread.

Why: some solver libraries hold the GIL inside long C calls (python-sat's CaDiCaL for a whole
budgeted ``solve_limited``, any solver's ``delete`` of a million-variable model, loading clauses).
In a thread of the GUI process such a call freezes the window for its whole length, whatever the
thread pool does. In a separate process it cannot.

How: ``remote(fn, *args)`` gives a job body for ``Job``/``run_job``. The pool thread that runs it
sends ``fn`` and its arguments (pickled: module-level functions, plain data) to an idle worker
process and then only waits on the pipe, which releases the GIL. The worker calls
``fn(*args, cancel=token, ...)`` and sends back progress, streamed items, the result or the error.
Esc cancels the pool thread's token; the pool thread tells the worker, and if the worker has not
stopped within ``CANCEL_GRACE`` seconds (a C call that does not look at the token), it is killed and
replaced, so a cancel always ends quickly.

Workers are fresh interpreters (never ``fork``: the GUI process has Qt threads), are reused from
job to job, and exit when the GUI process goes away (the socket closes). POSIX only (the socket is
inherited by descriptor); elsewhere, or with ``PUZZLE_WORKBENCH_JOBS=thread``, a body runs on the
calling thread as before. This module imports no
Qt: a worker loads it only for a job that paints (File > Export).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.job_relay import Ending, JobStatus, Relay, RemoteError, WorkerLost, run_body

ProgressFn = Callable[[dict[str, Any]], None]
EmitFn = Callable[[Any], None]

CANCEL_GRACE = 0.12  # seconds a worker has to stop after a cancel before it is killed
POLL = 0.02  # seconds between the pool thread's looks at its cancel token
SEND_INTERVAL = 0.05  # the worker sends progress and item batches at most this often
SPARE = 2  # workers kept started and idle, so a job does not wait for Python to start
MOST_IDLE = 4  # more idle workers than this are stopped
WORKER_NICENESS = 10  # under contention the GUI process (nice 0) gets ~90% of a core against a worker
TOP_UP_DELAY = 2.0  # seconds after a worker is taken before a spare replaces it
SPARE_DELAY = 3.0  # seconds after the main window opens before the spare workers start


# Signals that come from outside (a user, a session manager, the out-of-memory killer), unlike a
# crash's SIGSEGV or SIGABRT, which are bugs.
_OUTSIDE_SIGNALS = {
    getattr(signal, name): why  # POSIX names: worker processes are POSIX-only
    for name, why in (("SIGKILL", "out of memory, or killed from outside"), ("SIGTERM", "terminated"))
    if hasattr(signal, name)
}
STOPPED_GRACE = 2.0  # seconds a worker may stay stopped (SIGSTOP) before its job is given up


def _lost_or_crashed(status: int | None) -> RemoteError:
    if status is not None and status < 0 and -status in _OUTSIDE_SIGNALS:
        sig = signal.Signals(-status)
        return WorkerLost(f"the solver's worker process was ended by {sig.name} ({_OUTSIDE_SIGNALS[sig]})")
    return RemoteError(f"the worker process ended unexpectedly (exit code {status})")


def _is_stopped(pid: int) -> bool:
    """Whether a process is stopped (SIGSTOP, a debugger): it will never answer. Linux only."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2 : stat.rfind(")") + 3] in ("T", "t")


# ---- child processes end with their parent -------------------------------------------------------
PARENT_POLL = 0.5  # seconds between a child's looks at whether its parent is still there
_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` (the pid that started it) ends, even by SIGKILL, which
    runs none of the parent's clean-up. Linux: the kernel sends SIGKILL (prctl PR_SET_PDEATHSIG);
    everywhere: a daemon thread that sees the process re-parented. Call early in the child.

    Linux sends the signal when the parent's *thread* that started the child ends: only for
    children started by a thread that outlives them (a process pool inside a ``with``)."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # gone before the signal was asked for
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


# ---- the worker process -----------------------------------------------------------------------
TERMINAL_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGQUIT", "SIGTSTP", "SIGHUP") if hasattr(signal, name)
)


def _ignore_terminal_signals() -> None:
    """Ctrl+C, Ctrl+\\, Ctrl+Z and a closed terminal are the GUI process's to handle; a worker ends
    when the GUI process does (its socket closes). Blocked as well as ignored: python-sat's CaDiCaL
    installs its own SIGINT handler for each solve call on the main thread, which would otherwise
    catch the signal and fail the solve ("Caught keyboard interrupt"). A blocked signal is never
    delivered, whatever handler is installed; the mask is inherited by every thread started later."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, TERMINAL_SIGNALS)
    for sig in TERMINAL_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


def serve_fd(fd: int) -> None:
    """The worker process's entry point: serve jobs on the inherited socket ``fd``."""
    _ignore_terminal_signals()
    conn = Connection(fd)
    conn.send(("hello",))  # this far, the worker started: a later death is the job's doing
    _serve(conn)


def _serve(conn: Connection) -> None:
    """A worker's main loop: run one job at a time; a reader thread delivers cancels meanwhile."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)  # on a busy machine the window gets the cores first
    inbox: queue.Queue[tuple[Any, ...] | None] = queue.Queue()
    current: list[CancelToken] = []

    def read() -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                os._exit(0)  # the GUI process is gone: nobody wants the answer
            if message[0] == "run":
                token = CancelToken()
                current[:] = [token]
                inbox.put((*message[1:], token))
            elif message[0] == "cancel":
                for token in current:
                    token.cancel()
            else:  # "stop"
                inbox.put(None)
                return

    threading.Thread(target=read, name="worker-inbox", daemon=True).start()
    _preload(inbox)
    while (job := inbox.get()) is not None:
        _run_one(conn, *job)
        _ignore_terminal_signals()  # again: a library may have left its own handler behind


def _preload(inbox: queue.Queue[Any]) -> None:
    """Import the plug-ins and solve one sample of each isolated one, so the first real job finds
    its modules imported and its numba kernels loaded (~1.5 s while the worker is idle anyway;
    skipped once a job is waiting: it loads what it needs itself)."""
    try:
        from solvers.common import registry
        from solvers.common.protocol import ISOLATED

        for plugin in registry.plugins().values():
            if not inbox.empty():
                return
            if ISOLATED in plugin.meta.capabilities and plugin.sample_paths():
                text = plugin.sample_paths()[0].read_text(encoding="utf-8")
                for _solution in plugin.solve(plugin.parse_document(text)[0], limit=1):
                    break
    except Exception:  # only a speed-up: the job itself reports any real problem
        pass


def _run_one(
    conn: Connection,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    flags: str,
    token: CancelToken,
) -> None:
    """Run one job and send its progress, items and ``Ending`` (``job_relay``: the same throttle
    and the same status mapping as a job on a pool thread)."""
    relay = Relay(
        lambda info: conn.send(("progress", info)),
        lambda items: conn.send(("items", items)),
        SEND_INTERVAL,
        SEND_INTERVAL,
    )
    ending = run_body(lambda: _call(fn, args, kwargs, flags, token, relay.progress, relay.emit), token, relay)
    try:
        conn.send(("end", ending))
    except Exception as exc:  # e.g. a result that does not pickle: say so instead of hanging
        if ending.status is JobStatus.CANCELLED:  # what a cancelled body still said is a bonus
            conn.send(("end", Ending(JobStatus.CANCELLED)))
            return
        error = f"the job's result could not be sent back: {exc}"
        conn.send(("end", Ending(JobStatus.FAILED, error=error, trace=traceback.format_exc())))


def _listed(result: Any, token: CancelToken) -> list[Any]:
    items = []
    for item in result:
        items.append(item)
        token.raise_if_cancelled()
    return items


# ---- the GUI process's side --------------------------------------------------------------------
class Worker:
    """One worker process and the GUI end of its socket.

    Started as ``python -c "...serve_fd(N)"`` with one end of a socket pair, not through
    ``multiprocessing``: its ``spawn`` re-runs the parent's ``__main__`` in the child, which breaks
    (or re-runs) any script that starts the GUI without an ``if __name__ == "__main__"`` guard."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        if not _frozen():
            # The parent's import path, so a body imports in the worker exactly as it did here.
            root = str(Path(__file__).resolve().parents[2])
            env["PYTHONPATH"] = os.pathsep.join(
                dict.fromkeys(p for p in (root, *sys.path) if p and os.path.isdir(p))
            )
        try:
            # Its own session: signals from the GUI's terminal (Ctrl+C goes to the whole foreground
            # process group) do not reach it; it ends with the GUI process through the socket.
            self.process = subprocess.Popen(
                worker_command(theirs.fileno()),
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                env=env,
                start_new_session=True,
            )
        finally:
            theirs.close()
        self.conn = Connection(ours.detach())
        self.greeted = False  # its "hello" has arrived
        # A job's thread and the pool's exit handler may both kill a worker: the socket must be
        # closed once, or the second close could hit a descriptor reused by someone else.
        self._kill_lock = threading.Lock()

    def alive(self) -> bool:
        return self.process.poll() is None

    def exit_code(self) -> int | None:
        return self.process.poll()

    def kill(self) -> None:
        with self._kill_lock:
            if self.process.poll() is None:
                self.process.kill()
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
            if not self.conn.closed:
                self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(("stop",))
            self.process.wait(timeout=1)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        self.kill()


class WorkerPool:
    """Idle workers ready for the next job; a job takes one for its whole run."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: list[Worker] = []
        self._busy: set[Worker] = set()
        self._closed = False

    def acquire(self) -> Worker:
        with self._lock:
            if self._closed:
                raise RuntimeError("the application is closing")
            while self._idle:
                worker = self._idle.pop()
                if worker.alive():
                    self._busy.add(worker)
                    self._top_up_later()
                    return worker
                worker.kill()
        worker = Worker()
        with self._lock:
            self._busy.add(worker)
        self._top_up_later()
        return worker

    def release(self, worker: Worker) -> None:
        with self._lock:
            self._busy.discard(worker)
            if not self._closed and worker.alive() and len(self._idle) < MOST_IDLE:
                self._idle.append(worker)
                return
        worker.stop()

    def discard(self, worker: Worker) -> None:
        with self._lock:
            self._busy.discard(worker)
        worker.kill()
        self._top_up_later()

    def prestart(self) -> None:
        """Start workers until ``SPARE`` are idle (call from a background thread: each start costs
        a Python interpreter's start-up, ~0.1 s here, plus the imports of its first job)."""
        while True:
            with self._lock:
                if self._closed or len(self._idle) >= SPARE:
                    return
            worker = Worker()
            with self._lock:
                if self._closed:
                    worker.kill()
                    return
                self._idle.append(worker)

    def _top_up_later(self, delay: float = TOP_UP_DELAY) -> None:
        # Later, not now: a starting worker (imports, numba kernels) would compete for the cores
        # with the job that just took one.
        timer = threading.Timer(delay, self.prestart)
        timer.daemon = True
        timer.start()

    def closed(self) -> bool:
        with self._lock:
            return self._closed

    def idle_count(self) -> int:
        with self._lock:
            return len(self._idle)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers, self._idle = [*self._idle, *self._busy], []
            self._busy.clear()
        for worker in workers:
            worker.kill()


# The terminal signals are blocked before anything is imported: numpy's BLAS and other libraries
# start threads at import, and a thread started before the block would still take the signal (a
# worker died that way under load, after answering, in the signals test).
WORKER_CODE = (
    "import signal\n"
    "if hasattr(signal, 'pthread_sigmask'):\n"
    "    signal.pthread_sigmask(signal.SIG_BLOCK, [getattr(signal, n) for n in "
    "('SIGINT', 'SIGQUIT', 'SIGTSTP', 'SIGHUP') if hasattr(signal, n)])\n"
    "from solvers.common.process_jobs import serve_fd\n"
    "serve_fd({fd})"
)
WORKER_FLAG = "--job-worker"  # a frozen bundle's executable serves jobs when started with it


def _frozen() -> bool:
    return bool(getattr(sys, "frozen", False))


def worker_command(fd: int) -> list[str]:
    """How a worker starts: ``python -c ...``, or in a frozen bundle (PyInstaller), where
    ``sys.executable`` is the application itself and knows no ``-c``, the application with
    ``WORKER_FLAG`` (its entry point calls ``worker_main`` before anything else)."""
    if _frozen():
        return [sys.executable, WORKER_FLAG, str(fd)]
    return [sys.executable, "-c", WORKER_CODE.format(fd=fd)]


def worker_main(argv: list[str]) -> bool:
    """Serve jobs if ``argv`` (without the program name) is a worker's command line; else False."""
    if len(argv) != 2 or argv[0] != WORKER_FLAG or not argv[1].isdigit():
        return False
    serve_fd(int(argv[1]))  # blocks the terminal's signals first, as WORKER_CODE does
    return True


_POOL: WorkerPool | None = None
_BROKEN = ""  # why workers cannot be used in this process ("" while they can)
_POOL_LOCK = threading.Lock()


def pool() -> WorkerPool:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = WorkerPool()
            atexit.register(_POOL.close)
        return _POOL


def start_spares(delay: float = SPARE_DELAY) -> None:
    """Start the spare workers in the background, ``delay`` seconds from now (no-op when bodies
    run in threads). Not at once: at start-up the module warm-up already runs one worker, and
    three interpreters starting on two cores beside the window stalled it up to 110 ms."""
    if in_processes():
        pool()._top_up_later(delay)


def run_remote(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    flags: str,
    cancel: CancelToken,
    progress: ProgressFn,
    emit: EmitFn,
) -> Any:
    """Run ``fn`` in a worker and relay what it sends; called on a pool thread of the GUI process.

    A worker that cannot start (no usable interpreter, an import that fails there) is reported on
    stderr once; from then on bodies run here, on the calling thread."""
    cancel.raise_if_cancelled()
    if in_processes():
        workers = pool()
        try:
            worker = workers.acquire()
        except OSError as exc:
            _give_up(f"cannot start a worker process: {exc}")
        else:
            try:
                return _relay(workers, worker, (fn, args, kwargs, flags), cancel, progress, emit)
            except _StartFailed as exc:
                _give_up(str(exc))
    return _call(fn, args, kwargs, flags, cancel, progress, emit)


class _StartFailed(Exception):
    """The worker ended before it said hello: nothing of the job ran there."""


def _give_up(reason: str) -> None:
    global _BROKEN
    if not _BROKEN:
        print(f"puzzle-workbench: {reason}; solver jobs run in threads from now on", file=sys.stderr)
    _BROKEN = reason


def _gone(workers: WorkerPool, worker: Worker) -> Exception:
    """What to raise for a worker whose pipe broke: Cancelled if the application is exiting (it has
    killed its workers), else why the worker ended (its exit status, waited for up to a second)."""
    if workers.closed():
        return Cancelled()
    try:
        status: int | None = worker.process.wait(timeout=1)
    except subprocess.TimeoutExpired:
        status = None
    workers.discard(worker)
    if not worker.greeted:
        return _StartFailed(f"a worker process failed to start (exit code {status})")
    return _lost_or_crashed(status)


def _relay(
    workers: WorkerPool,
    worker: Worker,
    call: tuple[Any, ...],
    cancel: CancelToken,
    progress: ProgressFn,
    emit: EmitFn,
) -> Any:
    try:
        worker.conn.send(("run", *call))
    except (OSError, ValueError):
        # The worker died before it got the job (killed from outside between being picked and the
        # send: BrokenPipeError): say so as for a death mid-job, not as an unexplained pipe error.
        raise _gone(workers, worker) from None
    except Exception:
        workers.discard(worker)
        raise
    asked_to_stop = 0.0
    stopped_since = 0.0
    next_look = time.monotonic() + 1.0
    while True:
        if cancel.cancelled and not asked_to_stop:
            asked_to_stop = time.monotonic()
            with contextlib.suppress(OSError, ValueError):
                worker.conn.send(("cancel",))
        if asked_to_stop and time.monotonic() - asked_to_stop > CANCEL_GRACE:
            workers.discard(worker)  # it is inside a call that does not look at its token
            raise Cancelled()
        try:
            if not worker.conn.poll(POLL):
                if not worker.alive():
                    raise EOFError
                now = time.monotonic()
                if now >= next_look:  # a stopped worker never answers: "Solving…" stayed for ever
                    next_look = now + 0.5
                    stopped_since = (stopped_since or now) if _is_stopped(worker.process.pid) else 0.0
                    if stopped_since and now - stopped_since >= STOPPED_GRACE:
                        workers.discard(worker)
                        raise WorkerLost(
                            "the solver's worker process was stopped from outside (SIGSTOP) and did not "
                            "answer; it was ended"
                        )
                continue
            message = worker.conn.recv()
        except (EOFError, OSError):
            raise _gone(workers, worker) from None
        kind = message[0]
        if kind == "hello":
            worker.greeted = True
        elif kind == "progress":
            progress(message[1])
        elif kind == "items":
            for item in message[1]:
                emit(item)
        else:  # "end"
            workers.release(worker)
            ending: Ending = message[1]
            return ending.unwrap()


def in_processes() -> bool:
    """Whether bodies run in worker processes (POSIX, unless ``PUZZLE_WORKBENCH_JOBS=thread``)."""
    return os.name == "posix" and os.environ.get("PUZZLE_WORKBENCH_JOBS", "") != "thread" and not _BROKEN


def _call(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    flags: str,
    cancel: CancelToken,
    progress: ProgressFn,
    emit: EmitFn,
) -> Any:
    """Call ``fn`` as a worker would: ``cancel=`` always, ``progress=``/``emit=`` as ``flags`` say
    ("p", "e"); "l" lists an iterator result (checking ``cancel`` between items)."""
    extra: dict[str, Any] = {"cancel": cancel}
    if "p" in flags:
        extra["progress"] = progress
    if "e" in flags:
        extra["emit"] = emit
    result = fn(*args, **kwargs, **extra)
    return _listed(result, cancel) if "l" in flags else result


# The application layer: a worker process never runs its code. Layers hold for what runs, not only
# for what is imported: a worker is started by this module, so what it runs must sit below the
# shell (solvers, and the widgets' offscreen painting for File > Export).
SHELL_PACKAGES = ("workbench",)


def _body_below_the_shell(fn: Callable[..., Any]) -> None:
    module = str(getattr(fn, "__module__", "") or "")
    if module.split(".")[0] in SHELL_PACKAGES:
        name = getattr(fn, "__qualname__", repr(fn))
        raise ValueError(f"{module}.{name}: worker processes run solver and drawing code, never the shell's")


def remote(
    fn: Callable[..., Any], *args: Any, with_progress: bool = False, listed: bool = False, **kwargs: Any
) -> Callable[[CancelToken, ProgressFn], Any]:
    """A ``run_job`` body calling ``fn(*args, **kwargs, cancel=token)`` in a worker process
    (``progress=`` too if ``with_progress``; ``listed`` turns an iterator result into a list there)."""
    _body_below_the_shell(fn)
    flags = ("p" if with_progress else "") + ("l" if listed else "")

    def work(cancel: CancelToken, progress: ProgressFn) -> Any:
        return run_remote(fn, args, kwargs, flags, cancel, progress, lambda _item: None)

    return work


def remote_stream(fn: Callable[..., Any], *args: Any) -> Callable[[CancelToken, ProgressFn, EmitFn], Any]:
    """A ``Job`` body calling ``fn(*args, cancel=, progress=, emit=)`` in a worker process; what it
    emits there is emitted here, in order."""
    _body_below_the_shell(fn)

    def work(cancel: CancelToken, progress: ProgressFn, emit: EmitFn) -> Any:
        return run_remote(fn, args, {}, "pe", cancel, progress, emit)

    return work
