"""Command-line start-up, side by side with the bare import line of the solvers' libraries.

    python benchmarks/cli_startup_bench.py [--runs N] [--gui] [--root TREE] [--json]

Each case is a whole process (``python -m workbench ...``); the cases run interleaved, round after
round, so a change in the machine's load touches all of them alike. Per case: the median wall time
and the median CPU time (user + system of the child), and both as a ratio to the reference line
``python -c "import numpy, pysat.solvers"``. Issue 27's targets: a small ``solve flow`` at most 3x
the reference, ``--help`` at most 2x (on an idle machine: under load the wall ratios drift, the CPU
ratios much less). ``--root`` runs another checkout (e.g. an older commit unpacked with
``git archive``) for a before/after comparison. Prints figures only; it asserts nothing.
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

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = "import numpy, pysat.solvers"
TARGETS = {"solve flow 5x5": 3.0, "--help": 2.0}  # at most this many times the reference


def cases(root: Path, gui: bool, shot: Path) -> dict[str, list[str]]:
    flow = str(root / "assets" / "flow" / "samples" / "01-5x5.txt")
    toichika = str(root / "assets" / "toichika" / "samples" / "a_6x6_first_steps.toichika")
    table = {
        "reference": ["-c", REFERENCE],
        "solve flow 5x5": ["-m", "workbench", "solve", "flow", flow],
        "--help": ["-m", "workbench", "--help"],
        "check toichika": ["-m", "workbench", "check", "toichika", toichika],
        "kinds": ["-m", "workbench", "kinds"],
    }
    if gui:  # the first window, drawn offscreen and saved (includes a fixed 0.3 s settling wait)
        table["GUI --screenshot"] = ["-m", "workbench", "--screenshot", str(shot), "--size", "800x600"]
    return table


def run_once(args: list[str], root: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one child process (CPU from the children's rusage delta)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, timeout=300
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # ``check`` exits 1 on a broken rule, which is a result
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="rounds (the median is reported)")
    parser.add_argument("--gui", action="store_true", help="also time the GUI's first window")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to run (default: this one)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    root = args.root.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        table = cases(root, args.gui, Path(tmp) / "shot.png")
        for argv in table.values():  # one untimed round: bytecode caches and the disk cache
            run_once(argv, root)
        walls: dict[str, list[float]] = {name: [] for name in table}
        cpus: dict[str, list[float]] = {name: [] for name in table}
        for _ in range(max(1, args.runs)):
            for name, argv in table.items():
                wall, cpu = run_once(argv, root)
                walls[name].append(wall)
                cpus[name].append(cpu)
    ref_wall = statistics.median(walls["reference"])
    ref_cpu = statistics.median(cpus["reference"])
    rows = []
    for name in table:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        rows.append(
            {
                "case": name,
                "wall": round(wall, 4),
                "cpu": round(cpu, 4),
                "wall_ratio": round(wall / ref_wall, 2),
                "cpu_ratio": round(cpu / ref_cpu, 2),
                "target": TARGETS.get(name),
            }
        )
    load = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"root": str(root), "runs": args.runs, "load": round(load, 2), "rows": rows}))
        return 0
    print(f"{root}  ({args.runs} rounds, load average {load:.2f}; medians)")
    print(f"{'case':<18} {'wall s':>7} {'x ref':>6} {'CPU s':>7} {'x ref':>6}  target")
    for row in rows:
        target = row["target"]
        verdict = ""
        if target is not None:
            verdict = f"<= {target:g}x: {'met' if row['wall_ratio'] <= target else 'NOT met'} (wall)"
        print(
            f"{row['case']:<18} {row['wall']:>7.3f} {row['wall_ratio']:>6.2f} "
            f"{row['cpu']:>7.3f} {row['cpu_ratio']:>6.2f}  {verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
