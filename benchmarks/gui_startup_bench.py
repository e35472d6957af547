"""Time to the GUI's first shown window, side by side with the bare imports of its libraries.

    python benchmarks/gui_startup_bench.py [--runs N] [--root TREE] [--kind KIND] [--importtime] [--json]

Each case is a whole process. ``python -m workbench`` runs with
``PUZZLE_WORKBENCH_QUIT_AFTER_SHOW=1`` (workbench/app.py): once the main window has painted for the
first time, it prints its CPU seconds so far and ends. The wall time is taken when that line
arrives; what the window starts after its first paint (module warm-up, worker processes) is not in
the figures. The references are whole processes: ``import numpy, pysat.solvers`` (the solvers'
libraries), ``import PySide6.QtWidgets`` (Qt) and a bare Qt window (a QMainWindow with a list, shown
offscreen and ended the same way): the floor any Qt window pays. Cases run interleaved, round after
round, so a change in the machine's load touches all of them alike; medians are printed, with the
load average before and after.

``--importtime`` runs the GUI case once more under ``python -X importtime`` and prints the tree of
the imports made before the window showed (the costly ones, three levels deep). ``--root`` runs
another checkout (an older commit unpacked with ``git archive``; it needs the same hook) for a
before/after comparison. Settings, logs and bytecode caches go to a temporary folder (the bytecode
is cached as on a user's install, even where PYTHONDONTWRITEBYTECODE is set). Prints figures only;
it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOOK = "PUZZLE_WORKBENCH_QUIT_AFTER_SHOW"
Node = tuple[int, str, float, list[Any]]  # an import: depth, module, cumulative seconds, children

BARE_WINDOW = """
import os, sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QListWidget, QMainWindow

class Window(QMainWindow):
    shown = False
    def paintEvent(self, event):
        super().paintEvent(event)
        if not self.shown:
            self.shown = True
            QTimer.singleShot(0, report)

def report():
    print(f"first window shown, cpu {time.process_time():.4f}", flush=True)
    os._exit(0)

app = QApplication(sys.argv)
window = Window()
window.setCentralWidget(QListWidget())
window.resize(1280, 800)
window.show()
app.exec()
"""


def cases(kind: str | None) -> dict[str, list[str]]:
    gui = ["-m", "workbench"] + (["--kind", kind] if kind else [])
    return {
        "import numpy, pysat": ["-c", "import numpy, pysat.solvers"],
        "import QtWidgets": ["-c", "import PySide6.QtWidgets"],
        "bare Qt window": ["-c", BARE_WINDOW],
        "workbench window": gui,
    }


def run_once(args: list[str], root: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one child: up to its "first window shown" line if it prints one
    (CPU as it reports), else the whole process (CPU from the children's rusage delta)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, *args], cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    shown_at, shown_cpu = None, None
    for line in child.stdout:
        if line.startswith("first window shown, cpu "):
            shown_at, shown_cpu = time.perf_counter() - start, float(line.split()[-1])
    _out, err = child.communicate(timeout=300)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(args)[:80]} failed ({child.returncode}): {err.strip()[-400:]}")
    if shown_at is not None and shown_cpu is not None:
        return shown_at, shown_cpu
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def importtime(
    root: Path, env: dict[str, str], kind: str | None, depth: int = 3, least: float = 0.01
) -> list[tuple[int, str, float]]:
    """What the GUI imported before its window showed, as a tree (``-X importtime`` prints it
    children first): (depth, module, cumulative seconds) in reading order, down to ``depth``
    levels, for imports of at least ``least`` seconds."""
    args = [sys.executable, "-X", "importtime", *cases(kind)["workbench window"]]
    done = subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    pending: dict[int, list[Node]] = {}  # the nodes of each level still waiting for their parent
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _self, cumulative, name = line[len("import time:") :].split("|")
        level = (len(name) - len(name.lstrip()) - 1) // 2
        node = (level, name.strip(), int(cumulative) / 1e6, pending.pop(level + 1, []))
        pending.setdefault(level, []).append(node)
    rows: list[tuple[int, str, float]] = []

    def walk(nodes: list[Node]) -> None:
        for level, name, seconds, children in sorted(nodes, key=lambda n: -n[2]):
            if level < depth and seconds >= least:
                rows.append((level, name, seconds))
                walk(children)

    walk(pending.get(0, []))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="rounds (the median is reported)")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to run (default: this one)")
    parser.add_argument("--kind", help="module the window shows first (default: the first one)")
    parser.add_argument("--importtime", action="store_true", help="also list what is imported first")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    root = args.root.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(
            os.environ,
            QT_QPA_PLATFORM="offscreen",
            XDG_CONFIG_HOME=tmp,  # no user settings read or written, no log in the user's folder
            XDG_STATE_HOME=tmp,
            # Bytecode cached as on a user's install (written by the untimed round, outside the
            # tree): with PYTHONDONTWRITEBYTECODE every run compiles each module's source again.
            PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"),
            **{HOOK: "1"},
        )
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        table = cases(args.kind)
        for argv in table.values():  # one untimed round: bytecode caches and the disk cache
            run_once(argv, root, env)
        load_before = os.getloadavg()[0]
        walls: dict[str, list[float]] = {name: [] for name in table}
        cpus: dict[str, list[float]] = {name: [] for name in table}
        for _ in range(max(1, args.runs)):
            for name, argv in table.items():
                wall, cpu = run_once(argv, root, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
        load_after = os.getloadavg()[0]
        imports = importtime(root, env, args.kind) if args.importtime else []
    rows = [
        {
            "case": name,
            "wall": round(statistics.median(walls[name]), 4),
            "cpu": round(statistics.median(cpus[name]), 4),
            "cpu_min": round(min(cpus[name]), 4),
        }
        for name in table
    ]
    report = {
        "root": str(root),
        "kind": args.kind,
        "runs": args.runs,
        "load": [round(load_before, 2), round(load_after, 2)],
        "rows": rows,
        "imports": [{"depth": d, "module": m, "seconds": round(s, 4)} for d, m, s in imports],
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{root}  ({args.runs} rounds, load average {load_before:.2f} -> {load_after:.2f}; medians)")
    print(f"{'case':<20} {'wall s':>7} {'CPU s':>7} {'CPU min':>8}")
    for row in rows:
        print(f"{row['case']:<20} {row['wall']:>7.3f} {row['cpu']:>7.3f} {row['cpu_min']:>8.3f}")
    if imports:
        print("\nimported before the window showed (cumulative s, 10 ms or more, 3 levels):")
        for level, module, seconds in imports:
            print(f"  {seconds:7.3f}  {'  ' * level}{module}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
