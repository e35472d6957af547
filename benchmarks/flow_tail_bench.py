"""The long tail of hand-drawn Flow boards: many fresh random-path boards per size, one verdict each.

    python benchmarks/flow_tail_bench.py [--sizes 20,30,40,50,60,70x35] [--first-seed 5000]
                                         [--boards 100] [--cap 10] [--rules strict] [--list]

Boards are cut from a random Hamiltonian path (``solvers/flow/random_path.py``: always solvable
under the game rules), seeds ``first-seed .. first-seed + boards - 1`` per size, with k pieces,
k random in s..1.5s where s is the side (the geometric mean of the sides on rectangles). Each board
is solved with limit 2 (the answer and the uniqueness verdict) under ``--rules`` (default strict,
as the issue measured; ``auto`` is what the GUI does by default) with a cap of ``--cap`` CPU
seconds: CPU time, not wall time, so that the figures mean the same on a shared machine. Every
answer is checked by the plug-in's rule check. Per size: boards with a verdict, boards without one
within the cap (their seeds listed), and the median, 90th and 99th percentile and worst CPU time
(a board without a verdict counts as the cap, marked ">").

Prints figures only; nothing here is a test assertion.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.common.cancel import Cancelled, CancelToken  # noqa: E402
from solvers.flow import PLUGIN  # noqa: E402
from solvers.flow.random_path import random_path_board  # noqa: E402


class CpuCap(CancelToken):
    """A cancel token that fires after this many CPU seconds of the process."""

    def __init__(self, seconds: float) -> None:
        super().__init__(None)
        self._until = time.process_time() + seconds

    @property
    def cancelled(self) -> bool:
        if not self._event.is_set() and time.process_time() > self._until:
            self.cancel("timeout")
        return self._event.is_set()


def _size(text: str) -> tuple[int, int]:
    w, x, h = text.strip().lower().partition("x")
    if not (w.isdigit() and (h.isdigit() or not x)):
        raise ValueError(f"bad size {text!r} (use N or WxH, e.g. 70x35)")
    return int(w), int(h or w)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def board(w: int, h: int, seed: int):  # noqa: ANN201 - a FlowPuzzle
    side = math.isqrt(w * h)
    k = random.Random(seed).randint(side, side * 3 // 2)
    return random_path_board(h, w, k, seed=seed).puzzle


def run_one(puzzle, rules: str, cap: float) -> tuple[str, float]:  # noqa: ANN001
    """(verdict word or "none", CPU seconds) of a limit-2 solve; answers must pass the rule check."""
    start = time.process_time()
    try:
        found = list(PLUGIN.solve(puzzle, limit=2, rules=rules, cancel=CpuCap(cap)))
    except Cancelled:
        return "none", time.process_time() - start
    used = time.process_time() - start
    if not all(PLUGIN.check_solution(puzzle, s).complete for s in found):
        return "WRONG", used
    return {0: "no solution", 1: "unique"}.get(len(found), "2+"), used


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="20,30,40,50,60,70x35")
    ap.add_argument("--first-seed", type=int, default=5000)
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--cap", type=float, default=10.0, help="CPU seconds per board")
    ap.add_argument("--rules", default="strict", choices=("strict", "auto", "designed", "numberlink"))
    ap.add_argument("--list", action="store_true", help="one line per board as well")
    args = ap.parse_args(argv)
    try:
        sizes = [_size(x) for x in args.sizes.split(",")]
    except ValueError as exc:
        ap.error(str(exc))
    if args.boards < 1 or not args.cap > 0 or any(not (4 <= n <= 100) for s in sizes for n in s):
        ap.error("--boards must be 1 or more, --cap positive, sides 4..100")
    # Library and kernel load once (small boards run the kernels in plain Python: use a 30x30).
    list(PLUGIN.solve(board(30, 30, 1), limit=2, rules="strict"))
    print(
        f"== random-path boards, rules {args.rules}, seeds {args.first_seed}..{args.first_seed + args.boards - 1},"
        f" cap {args.cap:g} CPU s per board =="
    )
    print(
        f"{'size':>7} {'verdicts':>9} {'none':>5} {'median':>7} {'p90':>7} {'p99':>7} {'worst':>7}  no verdict (seeds)"
    )
    for w, h in sizes:
        times: list[float] = []
        missing: list[int] = []
        wrong = 0
        for seed in range(args.first_seed, args.first_seed + args.boards):
            word, used = run_one(board(w, h, seed), args.rules, args.cap)
            if word == "none":
                missing.append(seed)
                used = args.cap
            wrong += word == "WRONG"
            times.append(used)
            if args.list:
                print(f"  {w}x{h} seed {seed}: {word} {used:.2f} s", flush=True)

        def fmt(x: float) -> str:
            return f">{x:5.1f}" if x >= args.cap else f"{x:6.2f}"

        print(
            f"{w:>3}x{h:<3} {len(times) - len(missing):>5}/{len(times):<3} {len(missing):>5} "
            f"{fmt(_percentile(times, 0.5)):>7} {fmt(_percentile(times, 0.9)):>7} "
            f"{fmt(_percentile(times, 0.99)):>7} {fmt(max(times)):>7}  {missing}"
            + (f"  WRONG {wrong}" if wrong else ""),
            flush=True,
        )
    print("(CPU seconds of this process; a board without a verdict counts as the cap)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
