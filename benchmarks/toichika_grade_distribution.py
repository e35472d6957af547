"""Toichika grade distribution of plain generated puzzles (issue 31).

    python benchmarks/toichika_grade_distribution.py OUT.txt [--sizes 6 8 10] [--count 100] [--mix hard|general]

Draws ``count`` puzzles per size (seeds 1, 2, ...; a division without solution is skipped): a country division (the generator's "hard" size
mix by default: mostly 2-3 cells), a hidden solution, then every arrow a given, removed in random
order while the solution stays unique (no grade targeted). Writes ``size<TAB>seed<TAB>url`` lines;
``benchmarks/toichika_holdout.py measure OUT.txt`` then prints each puzzle's grade and the
distribution (run it with the code before and after a change to compare the same puzzles).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.common.cancel import CancelToken  # noqa: E402
from solvers.toichika.generate import HARD_WEIGHTS, SIZE_WEIGHTS, _Uniqueness, divide, hidden_solution  # noqa: E402
from solvers.toichika.model import Toichika  # noqa: E402
from solvers.toichika.url_codec import encode_url  # noqa: E402


def minimal_unique(size: int, seed: int, weights: dict[int, int]) -> Toichika | None:
    rng = random.Random(seed)
    blank = Toichika.from_labels(divide(size, size, rng, weights=weights))
    cancel = CancelToken()
    solution = hidden_solution(blank, rng, False, cancel)
    if solution is None:
        return None
    givens = list(solution)
    order = [i for i, g in enumerate(givens) if g]
    rng.shuffle(order)
    uniq = _Uniqueness(blank, solution, cancel)
    try:
        for i in order:
            trial = list(givens)
            trial[i] = 0
            if uniq.unique(trial):
                givens = trial
    finally:
        uniq.close()
    return Toichika(blank.rows, blank.cols, blank.vwalls, blank.hwalls, tuple(givens))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out")
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8, 10])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--mix", choices=("hard", "general"), default="hard")
    args = parser.parse_args()
    weights = HARD_WEIGHTS if args.mix == "hard" else SIZE_WEIGHTS
    with Path(args.out).open("w", encoding="utf-8") as fh:
        for size in args.sizes:
            made, seed = 0, 0
            while made < args.count:  # some divisions have no solution at all: draw another
                seed += 1
                puzzle = minimal_unique(size, seed, weights)
                if puzzle is not None:
                    fh.write(f"{size}\t{seed}\t{encode_url(puzzle)}\n")
                    fh.flush()
                    made += 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
