"""Start the GUI (optionally just to take a screenshot)."""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from solvers.common import registry
from solvers.common.errors import InputError
from workbench import crash, window_geometry
from workbench.main_window import MainWindow
from workbench.qt_app import ensure_app

MIN_SIDE, MAX_SIDE = 100, 8000  # --size limits (pixels)


def _wait(app: QApplication, seconds: float, until: object = None) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        if callable(until) and until():
            break
        time.sleep(0.01)


def parse_size(text: str) -> tuple[int, int]:
    """``--size WxH`` as two integers in a sane range (bad values are an InputError, not a traceback)."""
    match = re.fullmatch(r"\s*(\d{1,5})\s*[xX]\s*(\d{1,5})\s*", str(text))
    if match is None:
        raise InputError(f"--size: expected WIDTHxHEIGHT such as 1280x800, got {text!r}")
    width, height = int(match[1]), int(match[2])
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise InputError(f"--size: each side must be {MIN_SIDE}..{MAX_SIDE} pixels, got {width}x{height}")
    return width, height


def run_gui(args: argparse.Namespace) -> int:
    size = parse_size(args.size) if args.screenshot else None
    kind = registry.get(args.kind).meta.id if args.kind else None
    app = ensure_app(headless=bool(args.screenshot))
    window = MainWindow(remember_layout=not args.screenshot)
    if args.screenshot:
        window.confirm = lambda view: "discard"  # a screenshot run must never wait on a dialog
        window.files.choose_puzzle = lambda name, lines: 0  # a level pack: its first level
    if kind:
        window.show_kind(kind)
    if args.screenshot:
        _open_inputs(window, args, kind)
    if size is not None:
        window.resize(*size)
        window.show()
        _wait(app, 0.3)
        if args.solve:
            view = window.current()
            view.solve(2)
            _wait(app, 120, lambda: not view.busy())
            _wait(app, 0.3)
        out = Path(args.screenshot)
        if not window.grab().save(str(out)):
            _fail(window, f"{out}: could not write screenshot")
        print(out)
        _close(window)
        return 0
    # An interactive run logs to the user log folder and shows a dialog for an unhandled exception
    # (a --screenshot run is a command: it keeps the plain traceback and exit code).
    crash.setup_log()
    crash.log().info("start %s", " ".join(sys.argv))
    window.crash_handler = crash.CrashHandler(window)
    window.crash_handler.install()
    if os.environ.get("PUZZLE_WORKBENCH_QUIT_AFTER_SHOW"):  # benchmarks/gui_startup_bench.py
        window.first_shown.connect(_report_first_window)
    if window_geometry.place(window):
        window.showMaximized()
    else:
        window.show()
    # Opened once the window is up: a level pack's "which level?" dialog, or an error, then sits
    # over the window instead of alone on the desktop before it.
    QTimer.singleShot(0, lambda: _open_inputs(window, args, kind))
    return app.exec()


def _open_inputs(window: MainWindow, args: argparse.Namespace, kind: str | None) -> None:
    """The files and ``--open`` input of the command line (a screenshot run fails on a bad one)."""
    for name in args.files:
        if not window.files.open_path(name, kind) and args.screenshot:
            _fail(window, f"cannot open: {window.files.last_open_error or name}")
    if args.open_input:
        source = Path(args.open_input)
        try:
            is_file = len(args.open_input) < 4096 and source.exists()
        except OSError:
            is_file = False
        if is_file:
            ok = window.files.open_path(source, kind)
        else:
            # Inline input (URL, code) opened at start is a new untitled, unmodified document.
            ok = window.files.open_text(args.open_input, kind, fresh=True)
        if not ok and args.screenshot:
            _fail(window, f"cannot open: {window.files.last_open_error or args.open_input}")
    window.current().board.setFocus()


def _report_first_window() -> None:
    """Print the process's CPU seconds so far and end it at once: the benchmark times this line,
    and what would start after the window (warm-up, workers) must not run into the figures."""
    print(f"first window shown, cpu {time.process_time():.4f}", flush=True)
    sys.stderr.flush()
    os._exit(0)


def _close(window: MainWindow) -> None:
    window.confirm = lambda view: "discard"
    window.close()
    window.jobs.shutdown(5000)


def _fail(window: MainWindow, message: str) -> None:
    _close(window)
    raise InputError(message)
