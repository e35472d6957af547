"""Frontier counter benchmark (``solvers/flow/frontier.py``): prints figures, asserts nothing.

    python benchmarks/flow_frontier_bench.py [--sizes 10,12,15,20] [--seeds 10] [--cpu 30]
        [--max-states 5e6] [--racing] [FILES...]

Boards: issue 28's 12x12 example, any given files, and the hand-made-style boards of
``solvers/flow/handmade.py`` (seeds 0..N-1 per size, square). Each is counted under the game
(strict) and the Numberlink rules with limit 2. Per run: the verdict (0, 1, 2 = "2+"), "gave up"
(a layer over ``--max-states``) or "cpu out" (over ``--cpu`` seconds of this process's CPU), the CPU
seconds, the largest layer and how many rows of the sweep were done. CPU time is the fair figure
on a shared machine. The first call compiles the kernels (or loads them from numba's cache); the
warm-up before the table is not counted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.common.cancel import Cancelled, CancelToken  # noqa: E402
from solvers.common.protocol import read_text  # noqa: E402
from solvers.flow import frontier  # noqa: E402
from solvers.flow.codec import parse  # noqa: E402
from solvers.flow.handmade import handmade_board  # noqa: E402
from solvers.flow.model import FlowPuzzle  # noqa: E402

# Issue 28's hand-made 12x12 (5 pairs), shared with the tests.
ISSUE_28_EXAMPLE = (ROOT / "tests" / "flow" / "data" / "issue28_12x12.txt").read_text(encoding="utf-8")
RULES = ("strict", "numberlink")


def run(
    puzzle: FlowPuzzle, rules: str, cpu_budget: float, max_states: int, racing: bool = False
) -> tuple[str, float, int, float]:
    """(verdict or why not, CPU seconds, largest layer, rows swept)."""
    layers: list[int] = []
    step = frontier._cell_step

    def counted(*args: object) -> tuple[int, object]:
        out = step(*args)
        layers.append(out[0])
        return out

    token = CancelToken()
    start = time.process_time()
    done = threading.Event()

    def watch() -> None:  # the kernel releases the GIL, so this thread sees the budget run out
        while not done.wait(0.2):
            if time.process_time() - start > cpu_budget:
                token.cancel("cpu budget")
                return

    threading.Thread(target=watch, daemon=True).start()
    frontier._cell_step = counted  # type: ignore[assignment]  # count the layers
    try:
        count = frontier.count_racing if racing else frontier.count_solutions
        result = count(puzzle, rules, max_states=max_states, cancel=token)
        word = "gave up" if result is None else {0: "0", 1: "unique"}.get(result.count, "2+")
    except Cancelled:
        word = "cpu out"
    finally:
        frontier._cell_step = step  # type: ignore[assignment]
        done.set()
    used = time.process_time() - start
    width = frontier.sweep_width(puzzle)
    return word, used, max((x for x in layers if x >= 0), default=0), len(layers) / width


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--sizes", default="10,12,15,20", help="sides of the hand-made boards")
    ap.add_argument("--seeds", type=int, default=10, help="boards per size")
    ap.add_argument("--cpu", type=float, default=30.0, help="CPU seconds per board and rule set")
    ap.add_argument("--max-states", type=float, default=5e6, help="largest layer before giving up")
    ap.add_argument(
        "--racing",
        action="store_true",
        help="count_racing (the direction that looks cheapest), as the solver does",
    )
    args = ap.parse_args(argv)
    max_states = int(args.max_states)
    frontier.count_solutions(parse("A.B\n...\nA.B\n"), "strict")  # compile or load the kernels
    boards = [("issue 28 12x12", parse(ISSUE_28_EXAMPLE))]
    boards += [(f.name, parse(read_text(f))) for f in args.files]
    sizes = [int(s) for s in args.sizes.split(",") if s]
    boards += [
        (f"{n}x{n} seed {seed}", handmade_board(n, n, seed).puzzle)
        for n in sizes
        for seed in range(args.seeds)
    ]
    print(f"{'board':<18} {'pairs':>5} {'width':>5}  " + "  ".join(f"{r:<38}" for r in RULES))
    per_size: dict[tuple[int, str], list[tuple[str, float, int]]] = {}
    for name, puzzle in boards:
        cells = []
        for rules in RULES:
            word, used, peak, rows = run(puzzle, rules, args.cpu, max_states, args.racing)
            cells.append(f"{word:<8} cpu {used:6.2f} peak {peak:>9} rows {rows:4.1f}")
            per_size.setdefault((frontier.sweep_width(puzzle), rules), []).append((word, used, peak))
        width = frontier.sweep_width(puzzle)
        print(f"{name:<18} {len(puzzle.endpoints()):>5} {width:>5}  " + "  ".join(cells), flush=True)
    print(
        f"\n{'width':>5} {'rules':<10} {'verdicts':>8} {'median cpu':>10} {'max cpu':>8} {'median peak':>12}"
    )
    for (width, rules), runs in sorted(per_size.items()):
        decided = sum(word in ("0", "unique", "2+") for word, _, _ in runs)
        print(
            f"{width:>5} {rules:<10} {f'{decided}/{len(runs)}':>8} "
            f"{statistics.median(u for _, u, _ in runs):10.2f} {max(u for _, u, _ in runs):8.2f} "
            f"{int(statistics.median(p for _, _, p in runs)):>12}"
        )
    print("(width = the shorter side, swept as the frontier; peak = largest layer; cpu in seconds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
