"""Toichika generator benchmark: time and given ratio per board size and grade.

    python benchmarks/toichika_generate_bench.py [--sizes 6 8 10 15 20] [--grades easy medium ...]
                                                 [--seeds N] [--timeout S]

Each (size, grade) runs seeds 1..N; prints mean / max seconds (wall clock), mean CPU seconds of this
process (steadier than the wall clock when other jobs share the cores), mean boards drawn and the
mean given ratio (givens per country). A run over ``--timeout`` counts as a failure ("t/o"). Targets from
issue 19: 10x10 under 2 s, 20x20 under 20 s at any grade below the top. Figures only: the machine
is shared and timings are noisy; nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.common.cancel import Cancelled, CancelToken  # noqa: E402
from solvers.toichika.generate import generate  # noqa: E402

GRADES = ("easy", "medium", "hard", "very-hard", "fiendish", "diabolical", "expert")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8, 10, 15, 20])
    parser.add_argument("--grades", nargs="+", default=list(GRADES))
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    print(
        f"{'size':>5} {'grade':<10} {'mean s':>7} {'max s':>7} {'cpu s':>7} {'boards':>7} {'givens/country':>15} {'t/o':>4}"
    )
    for size in args.sizes:
        for grade in args.grades:
            times, cpus, boards, ratios, timeouts = [], [], [], [], 0
            for seed in range(1, args.seeds + 1):
                c0 = time.process_time()
                try:
                    made = generate(size, size, grade, seed=seed, cancel=CancelToken(args.timeout))
                except Cancelled:
                    timeouts += 1
                    continue
                times.append(made.seconds)
                cpus.append(time.process_time() - c0)
                boards.append(made.attempts)
                ratios.append(made.given_ratio)
            if times:
                print(
                    f"{size:>5} {grade:<10} {statistics.mean(times):7.2f} {max(times):7.2f} {statistics.mean(cpus):7.2f} "
                    f"{statistics.mean(boards):7.1f} {statistics.mean(ratios):15.2f} {timeouts:>4}",
                    flush=True,
                )
            else:
                print(
                    f"{size:>5} {grade:<10} {'-':>7} {'-':>7} {'-':>7} {'-':>7} {'-':>15} {timeouts:>4}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
