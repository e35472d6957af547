"""X-ceter-O benchmark: time of the full retrograde analysis, plus the headline results.

    python benchmarks/xcetero_bench.py [--repeat N] [--reference]

Prints one JSON object. ``--reference`` also times the plain-Python fixpoint solver used by the tests
(tests/xcetero/xcetero_reference.py) on the same problem. Figures only; no timing assertions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.xcetero import retro, states  # noqa: E402


def time_analysis(may_return: bool, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        retro.clear_cache()
        states.state_space.cache_clear()  # include building the state numbering every time
        start = time.perf_counter()
        retro.analyse(may_return)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--reference", action="store_true", help="also time the plain fixpoint solver")
    args = parser.parse_args()
    report: dict[str, object] = {}
    for may_return, name in ((False, "published"), (True, "may_return")):
        times = time_analysis(may_return, args.repeat)
        facts = retro.summary(retro.analyse(may_return))
        facts.pop("seconds")
        report[name] = {
            "seconds_min": round(min(times), 3),
            "seconds_median": round(statistics.median(times), 3),
            **facts,
        }
    if args.reference:
        sys.path.insert(0, str(ROOT / "tests" / "xcetero"))
        from xcetero_reference import explore, fixpoint

        start = time.perf_counter()
        _, children = explore(False)
        fixpoint(children)
        report["reference_fixpoint_seconds"] = round(time.perf_counter() - start, 3)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
