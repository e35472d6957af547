"""Longest event-loop stall and cancel latency while jobs run, on the largest boards the editors allow.

A 5 ms QTimer ticks on the GUI thread while a module's jobs work in the pool (the solve job plus
whatever its side panel starts, e.g. Toichika's uniqueness badge and explanation); the largest gap
between ticks is the longest time the window could not repaint or react. Then the same job is
started again, cancelled (as Esc does) after ``--cancel-after`` seconds, and the time until every
job of that view has stopped is the cancel latency. Targets (issue 15): stall < 100 ms, cancel
< 200 ms.

    python benchmarks/gui_stall_bench.py [--seconds 3] [--kinds flow,toichika]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PUZZLE_WORKBENCH_SETTINGS", "test")

from PySide6.QtCore import QElapsedTimer, QTimer  # noqa: E402

from solvers.common import registry  # noqa: E402
from solvers.common.protocol import SOLVE  # noqa: E402
from workbench.main_window import MainWindow  # noqa: E402
from workbench.qt_app import ensure_app  # noqa: E402

EDITOR_MAX = 100  # the New/Resize dialog allows 1..100 rows and columns


def toichika_board(rows: int, cols: int, h: int = 2, w: int = 2) -> Any:
    """A rows x cols board of h x w countries (0.9-1.0 M SAT variables at 100x100 in 2x2)."""
    from solvers.toichika.model import Toichika

    per_row = (cols + w - 1) // w
    return Toichika.from_labels([[(r // h) * per_row + c // w for c in range(cols)] for r in range(rows)])


def _largest_sample(kind: str) -> Any:
    plugin = registry.get(kind)
    return plugin.parse_document(plugin.sample_paths()[-1].read_text(encoding="utf-8"))[0]


# (label, kind, puzzle factory, solve limit)
CASES: list[tuple[str, str, Callable[[], Any], int]] = [
    ("example 9x9 blank, all", "example", lambda: registry.get("example").new_puzzle(9), 0),
    (
        "flow 100x100 (resized sample)",
        "flow",
        lambda: registry.get("flow").resize(_largest_sample("flow"), EDITOR_MAX, EDITOR_MAX),
        2,
    ),
    ("toichika 100x80 2x2 countries", "toichika", lambda: toichika_board(100, 80), 2),
    ("toichika 100x100 2x2 countries", "toichika", lambda: toichika_board(EDITOR_MAX, EDITOR_MAX), 2),
    ("ninetiles empty, complete all", "ninetiles", lambda: registry.get("ninetiles").new_puzzle(), 0),
    ("doves last sample, analyse", "doves", lambda: _largest_sample("doves"), 2),
    ("xcetero last sample, analyse", "xcetero", lambda: _largest_sample("xcetero"), 2),
]


class StallMeter:
    """Records the gaps between 5 ms ticks of a GUI-thread timer."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.gaps: list[float] = []
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self._last = 0.0

    def _tick(self) -> None:
        now = self.clock.nsecsElapsed() / 1e9
        self.gaps.append(now - self._last)
        self._last = now

    def start(self) -> None:
        self.gaps.clear()
        self.clock.start()
        self._last = 0.0
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        return max(self.gaps, default=0.0)


def pump(app: Any, seconds: float, until: Callable[[], bool] | None = None) -> float:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        app.processEvents()
        if until is not None and until():
            break
        time.sleep(0.001)
    return time.monotonic() - start


def run_case(
    app: Any, window: MainWindow, kind: str, make: Callable[[], Any], limit: int, args: Any
) -> dict[str, float]:
    view = window.show_kind(kind)
    meter = StallMeter()
    t0 = time.monotonic()
    meter.start()
    view.doc.reset(make())  # as Open/New does; the side panel restarts its own jobs
    pump(app, 0.4)  # let the panel's restart timer fire
    paint_start = time.monotonic()
    view.board.repaint()  # one synchronous repaint of the board (GUI thread, no job involved)
    paint = time.monotonic() - paint_start
    view.solve(limit)
    busy = pump(app, args.seconds, lambda: not view.busy()) + 0.4
    stall = meter.stop()
    finished = not view.busy()
    view.cancel_jobs()
    pump(app, 10, lambda: not view.busy())
    # Cancel latency: restart, let it get into its heaviest phase, press Esc, wait for every job.
    view.doc.reset(make())
    pump(app, 0.4)
    view.solve(limit)
    pump(app, args.cancel_after)
    running = view.busy()
    meter.start()
    start = time.monotonic()
    view.cancel_jobs()
    pump(app, 20, lambda: not view.busy())
    latency = time.monotonic() - start if running else float("nan")
    cancel_stall = meter.stop()
    return {
        "stall": stall,
        "busy": busy,
        "finished": float(finished),
        "setup": time.monotonic() - t0,
        "paint": paint,
        "latency": latency,
        "cancel_stall": cancel_stall,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0, help="how long to watch each job")
    parser.add_argument("--cancel-after", type=float, default=0.5, help="seconds before pressing Esc")
    parser.add_argument("--kinds", default="", help="comma-separated module ids (default: all)")
    parser.add_argument("--switch-interval", type=float, default=None, help="sys.setswitchinterval to try")
    args = parser.parse_args()
    app = ensure_app(headless=True)
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    window = MainWindow()
    window.confirm = lambda _view: "discard"
    window.resize(1280, 800)
    window.show()
    wanted = [k for k in args.kinds.split(",") if k] or list(registry.plugins())
    meter = StallMeter()
    meter.start()
    pump(app, 1.0)
    print(
        f"{'case':<32} {'stall ms':>9} {'job s':>6} {'done':>5} {'cancel ms':>10} {'stall@cancel':>12}"
        f" {'paint ms':>9}"
    )
    print(f"{'idle (no job)':<32} {meter.stop() * 1000:9.1f}")
    for label, kind, make, limit in CASES:
        if kind not in wanted or SOLVE not in registry.get(kind).meta.capabilities:
            continue
        r = run_case(app, window, kind, make, limit, args)
        done = "yes" if r["finished"] else "no"
        print(
            f"{label:<32} {r['stall'] * 1000:9.1f} {r['busy']:6.2f} {done:>5} "
            f"{r['latency'] * 1000:10.1f} {r['cancel_stall'] * 1000:12.1f} {r['paint'] * 1000:9.1f}",
            flush=True,
        )
    window.jobs.shutdown(20000)


if __name__ == "__main__":
    main()
