"""Flow Free benchmark: prints comparable figures (never a timed assertion).

    python benchmarks/flow_bench.py [FILES...] [--no-strict] [--generated N] [--size 50]
    python benchmarks/flow_bench.py --random-path [--sizes 10,15,20,25,30,40,50] [--seeds 3] [--timeout 60]
    python benchmarks/flow_bench.py --variants [--sizes 9,15,30] [--seeds 1]

1. Every reference puzzle (../shared/reference/flow/puzzles, if present) plus any given files,
   solved in this one process with the default rules (designed, strict fallback) and limit 2,
   i.e. including the uniqueness proof: per-puzzle wall and CPU time, total, worst board.
2. The same boards under strict rules, limit 2 (strict uniqueness), per board.
3. N generated boards of the given size (default 3 of 50x50): generation time and the time to
   solve and prove uniqueness under designed rules.

4. ``--random-path`` (instead of 1-3): boards as people draw them, cut from a random Hamiltonian
   path of a W x W grid into k pieces (k random in W..1.5W). Always solvable under the game rules,
   usually not under the designed convention. Per size: median and worst time to the first strict
   solution and to the uniqueness verdict (second solution or proof), boards that hit the timeout,
   and the longest main-thread stall while one board is solved in a worker thread.

5. ``--variants`` (instead of 1-3): boards of each variant (walls, holes, bridges, warps, hex)
   generated with a unique designed solution (``solvers/flow/variants.py``); per variant and size:
   generation time, then solve + uniqueness (default rules, limit 2) wall and CPU time.

Timings on a shared 2-core machine are noisy; CPU time is the fairer figure under load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.common.cancel import Cancelled, CancelToken  # noqa: E402
from solvers.common.protocol import read_text  # noqa: E402
from solvers.flow import PLUGIN  # noqa: E402
from solvers.flow.generate import generate  # noqa: E402
from solvers.flow.solve import solve  # noqa: E402
from solvers.flow.variants import KINDS, generate_variant  # noqa: E402

REFERENCE = ROOT.parent / "shared" / "reference" / "flow" / "puzzles"


def _timed(puzzle, rules: str, limit: int = 2) -> tuple[int, str, float, float]:
    info: dict[str, object] = {}
    wall, cpu = time.perf_counter(), time.process_time()
    found = sum(
        1 for _ in solve(puzzle, limit=limit, rules=rules, info=info, cancel=CancelToken(timeout=300))
    )
    return found, str(info.get("rules")), time.perf_counter() - wall, time.process_time() - cpu


def _stall(puzzle, rules: str = "designed", timeout: float | None = None) -> tuple[float, float]:
    """Solve in a worker thread while this thread ticks every 5 ms: (longest gap, solve time).
    The gap is how long a GUI event loop would freeze (CaDiCaL holds the GIL per slice)."""
    done = threading.Event()
    took: list[float] = []

    def work() -> None:
        start = time.perf_counter()
        try:
            list(solve(puzzle, limit=2, rules=rules, cancel=CancelToken(timeout=timeout)))
        except Cancelled:
            pass
        took.append(time.perf_counter() - start)
        done.set()

    thread = threading.Thread(target=work)
    last = time.perf_counter()
    gap = 0.0
    thread.start()
    while not done.is_set():
        time.sleep(0.005)
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
    thread.join()
    return gap, took[0]


def _random_path(sizes: list[int], seeds: int, timeout: float) -> None:
    from statistics import median

    from solvers.flow.random_path import random_path_board

    print(f"== random-path boards, strict rules, {seeds} seeds per size, timeout {timeout:g} s ==")
    print(
        f"{'size':>5} {'first med':>9} {'first max':>9} {'verdict med':>11} {'verdict max':>11} "
        f"{'cpu med':>7} {'cpu max':>7} {'timeouts':>8}  stall"
    )
    for n in sizes:
        firsts: list[float] = []
        verdicts: list[float] = []
        cpus: list[float] = []  # CPU seconds to the verdict: fairer than wall time on a busy machine
        timeouts = 0
        boards = []
        for seed in range(seeds):
            k = random.Random(seed).randint(n, n * 3 // 2)
            board = random_path_board(n, n, k, seed=seed).puzzle
            boards.append(board)
            start, cpu = time.perf_counter(), time.process_time()
            first = None
            try:
                for i, _ in enumerate(
                    solve(board, limit=2, rules="strict", cancel=CancelToken(timeout=timeout))
                ):
                    if i == 0:
                        first = time.perf_counter() - start
                verdicts.append(time.perf_counter() - start)
            except Cancelled:
                timeouts += 1
                verdicts.append(timeout)
            cpus.append(time.process_time() - cpu)
            firsts.append(first if first is not None else timeout)
        gap, _took = _stall(boards[0], rules="strict", timeout=timeout)
        print(
            f"{n:>5} {median(firsts):9.2f} {max(firsts):9.2f} {median(verdicts):11.2f} {max(verdicts):11.2f} "
            f"{median(cpus):7.2f} {max(cpus):7.2f} {timeouts:>8}  {gap:.3f} s",
            flush=True,
        )
    print("(a timed-out board counts as the timeout in the medians and maxima)")


def _variants(sizes: list[int], seeds: int) -> None:
    print("== variant boards (unique under designed rules), solve + uniqueness, default rules ==")
    print(
        f"{'variant':8} {'size':>6} {'seed':>4} {'colours':>7} {'generate':>9} {'solve+uniq':>10} {'cpu':>7}  verdict"
    )
    summary: list[str] = []
    for kind in KINDS:
        for n in sizes:
            times: list[float] = []
            cpus: list[float] = []
            gens: list[float] = []
            for seed in range(1, seeds + 1):
                started = time.perf_counter()
                try:
                    made = generate_variant(n, n, kind, seed=seed, cancel=CancelToken(timeout=600))
                except Cancelled:
                    print(f"{kind:8} {n:>3}x{n:<3} {seed:>4} generation timed out")
                    continue
                gen = time.perf_counter() - started
                found, rules, wall, cpu = _timed(made.puzzle, "auto")
                verdict = "unique" if found == 1 else _verdict(found)
                colours = len(made.puzzle.colours)
                times.append(wall)
                cpus.append(cpu)
                gens.append(gen)
                print(
                    f"{kind:8} {n:>3}x{n:<3} {seed:>4} {colours:>7} {gen:>8.2f}s {wall:>9.3f}s {cpu:>6.3f}s"
                    f"  {verdict} ({rules})",
                    flush=True,
                )
            if times:
                summary.append(
                    f"{kind:8} {n:>3}x{n:<3} solve+uniq median {statistics.median(times):.3f} s, "
                    f"worst {max(times):.3f} s (CPU {statistics.median(cpus):.3f} / {max(cpus):.3f} s); "
                    f"generate median {statistics.median(gens):.2f} s, worst {max(gens):.2f} s"
                )
    print(f"== summary over {seeds} seed(s) ==")
    print("\n".join(summary))


def _verdict(found: int) -> str:
    return {0: "no solution", 1: "unique"}.get(found, "2+ solutions")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--no-strict", action="store_true", help="skip the strict-rules pass")
    ap.add_argument("--generated", type=int, default=3, help="number of generated boards (0 = none)")
    ap.add_argument("--size", type=int, default=50, help="side of the generated boards")
    ap.add_argument("--random-path", action="store_true", help="boards cut from a random Hamiltonian path")
    ap.add_argument("--sizes", default="10,15,20,25,30,40,50", help="board sides for --random-path")
    ap.add_argument(
        "--seeds", type=int, default=None, help="boards per size (--random-path: 3, --variants: 1)"
    )
    ap.add_argument("--timeout", type=float, default=60.0, help="per-board limit for --random-path")
    ap.add_argument("--variants", action="store_true", help="generated walls/holes/bridges/warps/hex boards")
    args = ap.parse_args(argv)
    if args.variants:
        list(solve(PLUGIN.parse("R.R\nG.G\n"), limit=2))  # warm-up (library load)
        sizes = "9,15,30" if args.sizes == ap.get_default("sizes") else args.sizes
        _variants([int(x) for x in sizes.split(",")], args.seeds or 1)
        return 0
    if args.random_path:
        list(solve(PLUGIN.parse("R.R\nG.G\n"), limit=2, rules="strict"))  # warm-up (library load)
        _random_path([int(x) for x in args.sizes.split(",")], args.seeds or 3, args.timeout)
        return 0

    files = sorted(REFERENCE.glob("*.txt")) if REFERENCE.is_dir() else []
    files += args.files
    boards = [(f.stem, PLUGIN.parse(read_text(f))) for f in files]
    # Warm-up on a tiny board so the one-time solver library load is not charged to the first puzzle.
    list(solve(PLUGIN.parse("R.R\nG.G\n"), limit=2))

    if boards:
        print(f"== {len(boards)} boards, default rules (designed, strict fallback), limit 2 ==")
        print(
            f"{'board':<22} {'size':>7} {'col':>3}  {'rules':<9} {'verdict':<13} {'wall s':>8} {'cpu s':>8}"
        )
        total_wall = total_cpu = 0.0
        worst = (0.0, "")
        for name, p in boards:
            found, rules, wall, cpu = _timed(p, "auto")
            total_wall += wall
            total_cpu += cpu
            worst = max(worst, (wall, name))
            size = f"{p.cols}x{p.rows}"
            print(
                f"{name:<22} {size:>7} {len(p.colours):>3}  {rules:<9} {_verdict(found):<13} {wall:8.4f} {cpu:8.4f}"
            )
        print(f"TOTAL designed incl. uniqueness: {total_wall:.3f} s wall, {total_cpu:.3f} s CPU")
        print(f"WORST board: {worst[1]} {worst[0]:.4f} s")

        if not args.no_strict:
            print("\n== strict rules, limit 2 (strict uniqueness) ==")
            total = 0.0
            worst = (0.0, "")
            for name, p in boards:
                found, _, wall, cpu = _timed(p, "strict")
                total += wall
                worst = max(worst, (wall, name))
                print(f"{name:<22} {_verdict(found):<13} {wall:8.3f} s wall {cpu:8.3f} s CPU")
            print(f"TOTAL strict: {total:.2f} s; WORST: {worst[1]} {worst[0]:.3f} s")

    if args.generated:
        n = args.size
        print(f"\n== {args.generated} generated {n}x{n} boards (designed rules, limit 2) ==")
        worst_solve = 0.0
        for seed in range(1, args.generated + 1):
            start = time.perf_counter()
            made = generate(n, n, None, seed=seed)
            gen = time.perf_counter() - start
            found, _, wall, cpu = _timed(made.puzzle, "designed")
            worst_solve = max(worst_solve, wall)
            print(
                f"seed {seed}: {len(made.paths)} colours, generated in {gen:.2f} s; "
                f"solve + uniqueness {wall:.2f} s wall / {cpu:.2f} s CPU ({_verdict(found)})"
            )
            if seed == 1:
                gap, took = _stall(made.puzzle)
                print(
                    f"  same board solved in a worker thread ({took:.2f} s): longest main-thread stall {gap:.3f} s"
                )
        print(f"WORST generated {n}x{n} solve: {worst_solve:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
