"""Toichika benchmark: exact solve + uniqueness proof, and the step-by-step explanation, per puzzle.

    python benchmarks/toichika_bench.py [puzzles.txt] [--repeat N]

Times include building the SAT model (the model cache is cleared before every puzzle). Prints
figures only; it asserts nothing about speed (the machine is shared and timings are noisy).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.toichika import sat_solver  # noqa: E402
from solvers.toichika.explain import explain  # noqa: E402
from solvers.toichika.url_codec import decode_url  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "reference" / "toichika" / "puzzles.txt"


def corpus(path: Path) -> list[tuple[str, bool]]:
    out, real = [], True
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# --- synthetic"):
            real = False
        if line.startswith("http"):
            out.append((line.split("\t")[0], real))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("puzzles", nargs="?", default=str(DEFAULT))
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs per puzzle")
    args = parser.parse_args()
    rows = []
    print(
        f"{'#':>2} {'size':>6} {'kind':5} {'countries':>9} {'solve+unique':>13} {'count':>5} "
        f"{'steps':>6} {'trials':>6} {'explain':>8} grade"
    )
    for k, (url, real) in enumerate(corpus(Path(args.puzzles)), start=1):
        puzzle = decode_url(url)
        best = float("inf")
        count = 0
        for _ in range(args.repeat):
            sat_solver._cache.clear()
            t0 = time.perf_counter()
            count = len(list(sat_solver.iter_solutions(puzzle, limit=2)))
            best = min(best, time.perf_counter() - t0)
        ex_best = float("inf")
        ex = None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            ex = explain(puzzle)
            ex_best = min(ex_best, time.perf_counter() - t0)
        assert ex is not None
        rows.append((real, best, ex_best, ex.trials))
        size = f"{puzzle.cols}x{puzzle.rows}"
        print(
            f"{k:>2} {size:>6} {'real' if real else 'synth':5} {len(puzzle.regions):>9} {best:>12.3f}s "
            f"{count:>5} {len(ex.steps):>6} {ex.trials:>6} {ex_best:>7.3f}s {ex.grade()}"
            f"{'' if ex.solved else ' UNSOLVED'}"
        )
    real_rows = [r for r in rows if r[0]]
    print()
    print(
        f"solve+uniqueness: max {max(r[1] for r in rows):.3f}s, total {sum(r[1] for r in rows):.3f}s, "
        f"{sum(1 for r in rows if r[1] < 0.2)}/{len(rows)} under 0.2s"
    )
    print(
        f"explain: max {max(r[2] for r in rows):.3f}s; real puzzles without trial: "
        f"{sum(1 for r in real_rows if r[3] == 0)}/{len(real_rows)}; "
        f"all puzzles without trial: {sum(1 for r in rows if r[3] == 0)}/{len(rows)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
