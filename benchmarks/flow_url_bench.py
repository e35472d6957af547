"""Published puzzles as puzz.link URLs (numlin, arukone) under all three Flow rule sets.

    python benchmarks/flow_url_bench.py URLS.txt [--cap 10]

``URLS.txt`` holds one URL per line ('#' starts a comment: keep each puzzle's source there). Such
lists stay outside the repository (the puzzles belong to their authors). Each puzzle is solved with
limit 2 under the designed, game (strict) and Numberlink rules with a cap of ``--cap`` CPU seconds
(CPU time, so that the figures mean the same on a shared machine); every answer is checked by the
plug-in's rule check. Prints one line per puzzle, then per rule set the verdicts reached and the
median and worst CPU time of the decided ones.

Prints figures only; nothing here is a test assertion.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flow_tail_bench import run_one  # noqa: E402 - the same CPU-capped, rule-checked solve

from solvers.common.errors import InputError  # noqa: E402
from solvers.flow import PLUGIN  # noqa: E402
from solvers.flow.frontier import count_solutions  # noqa: E402
from solvers.flow.handmade import handmade_board  # noqa: E402

RULES = ("designed", "strict", "numberlink")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("urls", type=Path)
    ap.add_argument("--cap", type=float, default=10.0, help="CPU seconds per puzzle and rule set")
    args = ap.parse_args(argv)
    if not args.cap > 0:
        ap.error("--cap must be positive")
    try:
        lines = args.urls.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        ap.error(f"cannot read {args.urls}: {exc}")
    list(PLUGIN.solve(PLUGIN.parse("A.B\n.C.\nACB\n"), limit=2, rules="strict"))  # library load
    # and the frontier kernels (compiled after an edit of frontier.py: ~12 s the first puzzle paid)
    count_solutions(handmade_board(8, 8, 0).puzzle, "strict")
    decided: dict[str, list[float]] = {r: [] for r in RULES}
    total = 0
    for number, line in enumerate(lines, 1):
        url = line.split("#", 1)[0].strip()
        if not url:
            continue
        try:
            puzzle = PLUGIN.parse(url)
        except InputError as exc:
            print(f"{args.urls.name} line {number}: not a puzzle URL ({exc})")
            continue
        total += 1
        cells = []
        for rules in RULES:
            word, used = run_one(puzzle, rules, args.cap)
            if word != "none":
                decided[rules].append(used)
            cells.append(f"{rules} {word:11} {used:6.2f}")
        print(f"{puzzle.cols}x{puzzle.rows}: " + " | ".join(cells), flush=True)
    for rules in RULES:
        times = decided[rules]
        figures = f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s" if times else ""
        print(f"{rules:10} {len(times)}/{total} verdicts within {args.cap:g} s {figures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
