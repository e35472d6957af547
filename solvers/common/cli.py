"""One command-line layer for the shell and every module's commands (Qt-free).

The promise: bad input or a bad option exits 2 with exactly one line on stderr (no usage dump, no
traceback); ``--timeout S`` ends a long command with "timed out after S s" and exit 3; Ctrl+C ends
it with "interrupted" and exit 130. Commands get a ``CancelToken`` that fires on either.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import select
import signal
import socket
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.common.limits import MAX_INPUT_BYTES, decode_user_text

EXIT_OK = 0
EXIT_RULES = 1  # ``check``: the puzzle breaks a rule (like a linter)
EXIT_USAGE = 2  # unreadable input, bad option
EXIT_TIMEOUT = 3
EXIT_INTERRUPTED = 130

MAX_MESSAGE = 400  # an error echoing a 5,000-character argument stays readable
MAX_SECONDS = 10**7  # --timeout upper bound (about 4 months): keeps the deadline arithmetic sane
GRACE_SECONDS = 3.0  # after cancelling, how long a command may take to stop before we exit anyway

Handler = Callable[[argparse.Namespace, CancelToken], int]


class UsageError(InputError):
    """A bad command line (unknown option, value out of range); ``prog`` names the (sub)command."""

    def __init__(self, message: str, prog: str | None = None) -> None:
        super().__init__(message)
        self.prog = prog


class Parser(argparse.ArgumentParser):
    """argparse with the exit-2 rule: errors raise ``UsageError`` instead of printing usage."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.prog)


# ---- option types (argparse ``type=``): ASCII only, bounded, with the allowed range in the message --

_INT = re.compile(r"[+-]?[0-9]+")  # any length: the size is checked apart, to call it too large
# Any number of digits: a long number is out of range, not "not a number" (float() reads it in
# linear time; only int() of a long text is slow).
_FLOAT = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")
MAX_INT_DIGITS = 18  # a whole number without a range (an int64 holds it; int() never sees 5,000 digits)


def _whole_number(text: str) -> tuple[str, str]:
    """``text`` stripped and its significant digits, if it is an ASCII whole number of any length.

    ``[0-9]``, not ``\\d`` or ``isdigit()``: '٣' and '²' stay "not a whole number", as before."""
    body = text.strip()
    if not _INT.fullmatch(body):
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_clip(text, 40)!r}")
    return body, body.lstrip("+-").lstrip("0")


def _number_shown(body: str, digits: str) -> str:
    """The number as typed, or its length when echoing it would flood the line."""
    return body if len(body) <= 40 else f"a {len(digits)}-digit number"


def parse_int(text: str) -> int:
    """An ASCII integer (``int()`` would take '٣' and thousands of digits); more than
    MAX_INT_DIGITS digits is "too large", not "not a whole number"."""
    body, digits = _whole_number(text)
    if len(digits) > MAX_INT_DIGITS:
        size = "small" if body.startswith("-") else "large"
        raise argparse.ArgumentTypeError(
            f"too {size}: at most {MAX_INT_DIGITS} digits, got {_number_shown(body, digits)}"
        )
    return int(body)


def int_range(low: int, high: int) -> Callable[[str], int]:
    # Digits beyond the bounds' own length are out of range whatever they say: compare lengths
    # first, so a 5,000-digit argument never reaches int() (and a 19-digit seed still fits).
    width = len(str(max(abs(low), abs(high))))

    def convert(text: str) -> int:
        body, digits = _whole_number(text)
        value = int(body) if len(digits) <= width else None
        if value is None or not low <= value <= high:
            below = value < low if value is not None else body.startswith("-")
            raise argparse.ArgumentTypeError(
                f"must be between {low} and {high}, got {_number_shown(body, digits)} "
                f"(too {'small' if below else 'large'})"
            )
        return value

    convert.__name__ = "int"  # argparse names the type in its own messages
    return convert


def float_range(low: float, high: float, *, low_open: bool = False) -> Callable[[str], float]:
    def convert(text: str) -> float:
        if not _FLOAT.fullmatch(text.strip()):  # float() takes 'nan', '1_0' and '٣'
            raise argparse.ArgumentTypeError(f"expected a number, got {_clip(text, 40)!r}")
        value = float(text)
        ok = math.isfinite(value) and (low < value if low_open else low <= value) and value <= high
        if not ok:
            bound = f"more than {low:g}" if low_open else f"at least {low:g}"
            raise argparse.ArgumentTypeError(
                f"must be a finite number {bound} and at most {high:g}, got {_clip(text.strip(), 40)}"
            )
        return value

    convert.__name__ = "float"
    return convert


seconds = float_range(0, MAX_SECONDS, low_open=True)


def folder_path(text: str) -> Path:
    """argparse type of a folder option: a usable path that is not an existing file."""
    if not text or "\0" in text or len(text) > 4096:
        raise argparse.ArgumentTypeError("expected a folder path")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{_clip(text, 200)} is a file, not a folder")
    return path


def make_folder(path: Path) -> Path:
    """Create ``path`` and its parents; a folder that cannot be made is an InputError naming it."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{path}: cannot create the folder ({exc.strerror or exc})") from None
    return path


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def add_timeout(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout", type=seconds, default=None, metavar="S", help="give up after S seconds (exit 3)"
    )


def read_input(plugin: Any, arg: str) -> tuple[Any, Any]:
    """A puzzle argument: a file path or the puzzle itself, read by the protocol's one reader;
    ``-`` is standard input (``... | workbench flow solve -``), as command-line tools read it."""
    if arg == "-" and not Path("-").exists():
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            raise InputError(f"standard input: more than {MAX_INPUT_BYTES // (1024 * 1024)} MB")
        text = decode_user_text(data, "standard input")
        if not text.strip():
            raise InputError("standard input is empty: pipe a puzzle in, or give a file or the puzzle")
        return plugin.parse_document(text)
    return plugin.parse_document_input(arg)


# ---- running a command -----------------------------------------------------------------------------


class _Watchdog:
    """Fires ``token`` at the timeout or on Ctrl+C; exits the process if the command then hangs.

    Solvers poll the token; numba and SAT calls that cannot poll run without the GIL, so this
    thread still runs and, ``GRACE_SECONDS`` after cancelling, ends the process with the right
    message and code. A signal wake-up socket lets it see Ctrl+C even while the main thread is
    inside such a call (Python-level handlers only run between bytecodes of the main thread).
    """

    def __init__(self, prog: str, timeout: float | None) -> None:
        self.prog = prog
        self.timeout = timeout
        self.token = CancelToken()
        self.reason: str | None = None  # "timeout" | "interrupt"
        self._done = threading.Event()
        self._claim = threading.Lock()  # main thread or watchdog: whoever reports the end
        self._claimed = False
        self._old_handler: Any = None
        self._old_wakeup = -1
        self._sockets: tuple[socket.socket, socket.socket] | None = None

    def __enter__(self) -> _Watchdog:
        if threading.current_thread() is threading.main_thread():
            receive, send = socket.socketpair()
            receive.setblocking(False)
            send.setblocking(False)
            self._sockets = (receive, send)
            self._old_wakeup = signal.set_wakeup_fd(send.fileno(), warn_on_full_buffer=False)
            self._old_handler = signal.signal(signal.SIGINT, self._on_sigint)
        self._thread = threading.Thread(target=self._watch, name="cli-watchdog", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self._sockets is not None:
            try:
                self._sockets[1].send(b"\0")  # wake its select() at once
            except OSError:
                pass
        self._thread.join(1.0)  # the sockets must outlive its select()
        if self._sockets is not None:
            signal.signal(signal.SIGINT, self._old_handler)
            signal.set_wakeup_fd(self._old_wakeup)
            for sock in self._sockets:
                sock.close()

    def _on_sigint(self, signum: int, frame: object) -> None:
        self._fire("interrupt")

    def _fire(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason
        self.token.cancel(reason)

    def claim(self) -> bool:
        """True for the first caller: that one prints the last line and picks the exit code."""
        with self._claim:
            first = not self._claimed
            self._claimed = True
            return first

    def _watch(self) -> None:
        import time

        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        receive = self._sockets[0] if self._sockets is not None else None
        while not self._done.is_set() and self.reason is None:
            wait = 0.1 if deadline is None else max(0.0, min(0.1, deadline - time.monotonic()))
            if receive is not None:
                ready, _, _ = select.select([receive], [], [], wait)
                if ready and signal.SIGINT in _drain(receive):
                    self._fire("interrupt")
            else:
                self._done.wait(wait)
            if deadline is not None and time.monotonic() >= deadline:
                self._fire("timeout")
        if self._done.wait(GRACE_SECONDS) or not self.claim():
            return
        # The command did not stop after the cancel: report and leave without it.
        code, line = self.ending()
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        os.write(2, (line + "\n").encode("utf-8", "replace"))
        os._exit(code)

    def ending(self) -> tuple[int, str]:
        if self.reason == "timeout":
            return EXIT_TIMEOUT, f"{self.prog}: timed out after {self.timeout:g} s"
        return EXIT_INTERRUPTED, f"{self.prog}: interrupted"


def _drain(sock: socket.socket) -> bytes:
    try:
        return sock.recv(4096)
    except OSError:
        return b""


def _clip(text: str, size: int = MAX_MESSAGE) -> str:
    text = " ".join(str(text).split())  # one line, whatever the message held
    return text if len(text) <= size else f"{text[: size - 30]}... ({len(text)} characters)"


def fail(prog: str, message: object) -> int:
    """The one stderr line for bad input: ``PROG: message`` (the sub-command's name for bad options)."""
    if isinstance(message, UsageError) and message.prog:
        prog = message.prog
    print(f"{prog}: {_clip(str(message))}", file=sys.stderr)
    return EXIT_USAGE


def run(prog: str, parser: argparse.ArgumentParser, handler: Handler, argv: Sequence[str]) -> int:
    """Parse ``argv`` and run ``handler(args, cancel)`` under the exit-code rules of this module."""
    try:
        args = parser.parse_args(list(argv))
    except InputError as exc:
        return fail(prog, exc)
    except SystemExit as exc:  # -h / --help printed the help on stdout
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    watchdog = _Watchdog(prog, getattr(args, "timeout", None))
    with watchdog:
        try:
            code = handler(args, watchdog.token)
        except Cancelled:
            watchdog._fire("interrupt")  # a no-op unless something else cancelled the token
            code = None
        except KeyboardInterrupt:
            watchdog._fire("interrupt")
            code = None
        except InputError as exc:
            if watchdog.reason is None:
                return fail(prog, exc) if watchdog.claim() else EXIT_USAGE
            code = None
        except BrokenPipeError:
            return EXIT_OK
        except MemoryError:
            return fail(prog, "out of memory") if watchdog.claim() else EXIT_USAGE
        if not watchdog.claim():  # the watchdog is already ending the process
            threading.Event().wait()
        if watchdog.reason is not None:
            status, line = watchdog.ending()
            print(line, file=sys.stderr)
            return status
        return EXIT_OK if code is None else code
