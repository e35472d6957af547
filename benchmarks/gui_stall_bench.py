"""Longest event-loop stall per module and scenario, on the largest boards the editors allow.

A 5 ms QTimer ticks on the GUI thread; the largest gap between ticks is the longest time the
window could not repaint or react. Per module (one big board each) it measures:

* ``open``: the module's view shown for the first time (panels built, kernels loaded), then the
  big board loaded as Open/New does, until every job it starts has finished;
* ``edit``: clicks on random cells and key presses (cursor moves, digits) in Edit and Play mode,
  each followed by its repaint;
* ``solve``: Solve (F5) watched for ``--seconds``; then the same job restarted and cancelled (as
  Esc does) after ``--cancel-after`` seconds: the time until every job of that view has stopped is
  the cancel latency, and the stall while it stops is reported as ``cancel``;
* ``export``: File > Export of the board to PNG and SVG as the menu does it (painted on the GUI
  thread, the PNG encoded and written by a background job).

Targets (issue 15): stall < 100 ms, cancel < 200 ms. Prints one table row per module and scenario:
longest stall, number of stalls over 100 ms, the GUI thread's own CPU time within the longest stall
(on a loaded machine the stall is mostly waiting for a core; this part is the code's), and extra
figures (cancel latency, job time).

    python benchmarks/gui_stall_bench.py [--seconds 3] [--kinds flow,toichika] [--cold-numba]

``--cold-numba`` points numba at an empty cache folder first, as on a fresh install (Nine Tiles
then compiles its kernels when its view opens).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PUZZLE_WORKBENCH_SETTINGS", "test")
if "--cold-numba" in sys.argv:  # before anything imports numba
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-cold-")

from PySide6.QtCore import QElapsedTimer, QPoint, Qt, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from solvers.common import registry  # noqa: E402
from solvers.common.protocol import PLAY, SOLVE  # noqa: E402
from workbench.main_window import MainWindow  # noqa: E402
from workbench.qt_app import ensure_app  # noqa: E402

EDITOR_MAX = 100  # the New/Resize dialog allows 1..100 rows and columns
LIMIT_MS = 100.0


def toichika_board(rows: int, cols: int, h: int = 2, w: int = 2) -> Any:
    """A rows x cols board of h x w countries (0.9-1.0 M SAT variables at 100x100 in 2x2)."""
    from solvers.toichika.model import Toichika

    per_row = (cols + w - 1) // w
    return Toichika.from_labels([[(r // h) * per_row + c // w for c in range(cols)] for r in range(rows)])


def _largest_sample(kind: str) -> Any:
    plugin = registry.get(kind)
    return plugin.parse_document(plugin.sample_paths()[-1].read_text(encoding="utf-8"))[0]


def flow_designed(size: int = 50, seed: int = 1) -> Any:
    """A generated (designed-rule unique) board; generating takes ~12 s, so it is cached in /tmp."""
    plugin = registry.get("flow")
    cache = Path(tempfile.gettempdir()) / f"gui_stall_flow_{size}_{seed}.txt"
    if cache.is_file():
        return plugin.parse(cache.read_text(encoding="utf-8"))
    from solvers.flow.generate import generate

    puzzle = generate(size, size, None, seed=seed).puzzle
    cache.write_text(plugin.serialize(puzzle), encoding="utf-8")
    return puzzle


@dataclass
class Case:
    label: str
    kind: str
    factory: Callable[[], Any]
    limit: int | None
    _puzzle: Any = None

    def make(self) -> Any:
        """The board, built once before any measurement (generating one is not a GUI stall)."""
        if self._puzzle is None:
            self._puzzle = self.factory()
        return self._puzzle


CASES: list[Case] = [
    Case("example 9x9 blank, all", "example", lambda: registry.get("example").new_puzzle(9), 0),
    Case(
        "flow 100x100 resized sample",
        "flow",
        lambda: registry.get("flow").resize(_largest_sample("flow"), EDITOR_MAX, EDITOR_MAX),
        2,
    ),
    Case("flow 50x50 designed", "flow", flow_designed, 2),
    Case("toichika 100x80 2x2", "toichika", lambda: toichika_board(100, 80), 2),
    Case("toichika 100x100 2x2", "toichika", lambda: toichika_board(EDITOR_MAX, EDITOR_MAX), 2),
    Case("ninetiles sample, complete all", "ninetiles", lambda: _largest_sample("ninetiles"), 0),
    Case("doves last sample", "doves", lambda: _largest_sample("doves"), 2),
    Case("xcetero last sample", "xcetero", lambda: _largest_sample("xcetero"), 2),
]


class StallMeter:
    """Records the gaps between 5 ms ticks of a GUI-thread timer."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.gaps: list[float] = []
        self.cpu: list[float] = []  # GUI-thread CPU time spent inside each gap
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self._last = 0.0
        self._last_cpu = 0.0

    def _tick(self) -> None:
        now, cpu = self.clock.nsecsElapsed() / 1e9, time.thread_time()
        self.gaps.append(now - self._last)
        self.cpu.append(cpu - self._last_cpu)
        self._last, self._last_cpu = now, cpu

    def start(self) -> None:
        self.gaps.clear()
        self.cpu.clear()
        self.clock.start()
        self._last = 0.0
        self._last_cpu = time.thread_time()
        self.timer.start()

    def worst_cpu(self) -> float:
        """GUI-thread CPU time within the longest gap: the part of the stall that is our own work
        (the rest is waiting for a core or the GIL, which a loaded machine inflates)."""
        if not self.gaps:
            return 0.0
        return self.cpu[max(range(len(self.gaps)), key=self.gaps.__getitem__)]

    def stop(self) -> float:
        self.timer.stop()
        return max(self.gaps, default=0.0)

    def over(self, limit_ms: float = LIMIT_MS) -> int:
        return sum(1 for g in self.gaps if g * 1000 > limit_ms)


def pump(app: Any, seconds: float, until: Callable[[], bool] | None = None) -> float:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        app.processEvents()
        if until is not None and until():
            break
        time.sleep(0.001)
    return time.monotonic() - start


@dataclass
class Row:
    case: str
    scenario: str
    stall: float
    over: int
    cpu: float
    extra: str = ""


def measure(app: Any, body: Callable[[], str]) -> tuple[float, int, float, str]:
    meter = StallMeter()
    meter.start()
    pump(app, 0.02)
    extra = body()
    pump(app, 0.1)
    stall = meter.stop()
    return stall, meter.over(), meter.worst_cpu(), extra


def scenario_open(app: Any, window: MainWindow, case: Case) -> Row:
    def body() -> str:
        start = time.monotonic()
        view = window.show_kind(case.kind)
        view.doc.reset(case.make())  # as Open/New does; the side panel restarts its own jobs
        pump(app, 0.4)  # let the panels' restart timers fire
        pump(app, 30, lambda: not view.busy())
        return f"ready after {time.monotonic() - start:.2f} s"

    return Row(case.label, "open", *measure(app, body))


def _click(view: Any, r: int, c: int, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
    point = view.board.cell_center(r, c).toPoint() if view.board.display_list().grid else QPoint(50, 50)
    QTest.mouseClick(view.board, button, Qt.KeyboardModifier.NoModifier, point)


def scenario_edit(app: Any, window: MainWindow, case: Case, events: int) -> Row:
    view = window.show_kind(case.kind)
    rng = random.Random(1)
    modes = ["edit", "play"] if PLAY in view.plugin.meta.capabilities else ["edit"]

    def body() -> str:
        renders = view.board.renders
        for mode in modes:
            view.set_mode(mode)
            pump(app, 0.05)
            grid = view.board.display_list().grid
            rows, cols = (grid.rows, grid.cols) if grid is not None else (1, 1)
            for k in range(events):
                if k % 3 == 2:
                    QTest.keyClick(view.board, rng.choice([Qt.Key.Key_Right, Qt.Key.Key_Down, Qt.Key.Key_1]))
                else:
                    _click(view, rng.randrange(rows), rng.randrange(cols))
                pump(app, 0.03)
        pump(app, 10, lambda: not view.busy())
        view.set_mode("edit")
        return f"{len(modes) * events} events, {view.board.renders - renders} renders"

    row = Row(case.label, "edit", *measure(app, body))
    view.doc.reset(case.make())  # leave the big board unedited for the next scenarios
    pump(app, 0.4)
    pump(app, 30, lambda: not view.busy())
    return row


def scenario_solve(app: Any, window: MainWindow, case: Case, args: Any) -> list[Row]:
    view = window.show_kind(case.kind)
    meter = StallMeter()
    meter.start()
    view.solve(case.limit)
    busy = pump(app, args.seconds, lambda: not view.busy())
    finished = not view.busy()
    stall = meter.stop()
    over, cpu = meter.over(), meter.worst_cpu()
    view.cancel_jobs()
    pump(app, 20, lambda: not view.busy())
    # Cancel latency: restart, let it get into its heaviest phase, press Esc, wait for every job.
    view.doc.reset(case.make())
    pump(app, 0.4)
    pump(app, 30, lambda: not view.busy())
    view.solve(case.limit)
    pump(app, args.cancel_after)
    running = view.busy()
    meter.start()
    start = time.monotonic()
    view.cancel_jobs()
    pump(app, 20, lambda: not view.busy())
    latency = f"{(time.monotonic() - start) * 1000:.0f} ms" if running else "(done before Esc)"
    pump(app, 0.1)
    cancel_stall = meter.stop()
    done = f"finished in {busy:.2f} s" if finished else f"still running after {busy:.1f} s"
    return [
        Row(case.label, "solve", stall, over, cpu, done),
        Row(
            case.label,
            "cancel",
            cancel_stall,
            meter.over(),
            meter.worst_cpu(),
            f"stopped {latency} after Esc",
        ),
    ]


def scenario_export(app: Any, window: MainWindow, case: Case) -> Row:
    window.show_kind(case.kind)
    folder = Path(tempfile.mkdtemp(prefix="stall-export-"))

    def body() -> str:
        sizes = []
        for ext in ("png", "svg"):
            target = folder / f"board.{ext}"
            job = window.exports.export_in_background(target)  # as File > Export does
            while job is not None and not job.done:
                pump(app, 0.02)
            pump(app, 0.05)
            sizes.append(f"{ext} {target.stat().st_size // 1024} KB")
        return ", ".join(sizes)

    return Row(case.label, "export", *measure(app, body))


SCENARIOS = ("open", "edit", "solve", "export")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0, help="how long to watch each solve")
    parser.add_argument("--cancel-after", type=float, default=0.5, help="seconds before pressing Esc")
    parser.add_argument("--kinds", default="", help="comma-separated module ids (default: all)")
    parser.add_argument("--cases", default="", help="only boards whose label contains this text")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="subset of " + ",".join(SCENARIOS))
    parser.add_argument("--events", type=int, default=15, help="edit events per mode")
    parser.add_argument("--cold-numba", action="store_true", help="empty numba cache (fresh install)")
    parser.add_argument("--switch-interval", type=float, default=None, help="sys.setswitchinterval to try")
    args = parser.parse_args()
    app = ensure_app(headless=True)
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    window = MainWindow()
    window.confirm = lambda _view: "discard"  # type: ignore[attr-defined]
    window.resize(1280, 800)
    window.show()
    wanted = [k for k in args.kinds.split(",") if k] or list(registry.plugins())
    scenarios = [s for s in args.scenarios.split(",") if s]
    meter = StallMeter()
    meter.start()
    pump(app, 1.0)
    header = f"{'module / board':<32} {'scenario':<8} {'longest ms':>10} {'>100ms':>6} {'its cpu':>7}  notes"
    print(header)
    print("-" * len(header))
    idle = meter.stop()
    print(
        f"{'(idle, no view)':<32} {'idle':<8} {idle * 1000:10.1f} {meter.over():6d} {meter.worst_cpu() * 1000:7.1f}"
    )
    for case in CASES:
        if case.kind not in wanted or args.cases not in case.label:
            continue
        case.make()
        rows: list[Row] = []
        if "open" in scenarios:
            rows.append(scenario_open(app, window, case))
        else:
            view = window.show_kind(case.kind)
            view.doc.reset(case.make())
            pump(app, 30, lambda view=view: not view.busy())
        if "edit" in scenarios:
            rows.append(scenario_edit(app, window, case, args.events))
        if "solve" in scenarios and SOLVE in registry.get(case.kind).meta.capabilities:
            rows.extend(scenario_solve(app, window, case, args))
        if "export" in scenarios:
            rows.append(scenario_export(app, window, case))
        for row in rows:
            flag = "" if row.stall * 1000 < LIMIT_MS else "  <-- over"
            print(
                f"{row.case:<32} {row.scenario:<8} {row.stall * 1000:10.1f} {row.over:6d} {row.cpu * 1000:7.1f}"
                f"  {row.extra}{flag}",
                flush=True,
            )
    window.jobs.shutdown(20000)


if __name__ == "__main__":
    main()
