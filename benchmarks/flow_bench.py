"""Flow Free benchmark: prints comparable figures (never a timed assertion).

    python benchmarks/flow_bench.py [FILES...] [--no-strict] [--generated N] [--size 50]
    python benchmarks/flow_bench.py --random-path [--sizes 10,15,20,25,30,40,50] [--seeds 3] [--timeout 60]
    python benchmarks/flow_bench.py --variants [--sizes 9,15,30] [--seeds 1]
    python benchmarks/flow_bench.py --numberlink [--sizes 10x10,15x15,20x20,30x30,40x40,50x40] [--seeds 5] [--timeout 10]

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

6. ``--numberlink`` (instead of 1-3): hand-made-style boards (``solvers/flow/handmade.py``: few
   pairs, long winding paths, open areas; the construction fills the board, so each board has an
   answer under every rule set), seeds 0..N-1 per size, plus issue 28's 12x12 example and any given
   files. Each board is solved with limit 2 (answer plus uniqueness verdict) under the designed,
   game (strict) and Numberlink rules, each with a per-board timeout; a board without a verdict in
   time is counted as "no verdict". Per size and rule set: verdicts reached, no-verdict count,
   unique / 2+ counts, median, 90th percentile and worst wall time (a no-verdict board counts as
   the timeout, marked ">"), and the worst CPU time. The first ``--unique`` seeds of each size
   (default 2) are made unique under Numberlink rules, as published puzzles are, within
   ``--gen-timeout`` seconds (default 30; else the plain construction is used and marked "u?").

Timings on a shared 2-core machine are noisy; CPU time is the fairer figure under load.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.common.cancel import Cancelled, CancelToken  # noqa: E402
from solvers.common.errors import InputError  # noqa: E402
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


# Issue 28's 12x12 example: 5 pairs, designed answer in 0.1 s, game rules stalled (60 s).
ISSUE_28_EXAMPLE = (ROOT / "tests" / "flow" / "data" / "issue28_12x12.txt").read_text(encoding="utf-8")
NUMBERLINK_SIZES = "10x10,15x15,20x20,30x30,40x40,50x40"
RULE_SETS = ("designed", "strict", "numberlink")


def _size(text: str) -> tuple[int, int]:
    """'30' or '50x40' (width x height)."""
    w, x, h = text.strip().lower().partition("x")
    if not (w.isdigit() and (h.isdigit() or not x)):
        raise ValueError(f"bad size {text!r} (use N or WxH, e.g. 50x40)")
    return int(w), int(h or w)


def _percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (the value below which ``share`` of the values lie)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _verdict_run(puzzle, rules: str, timeout: float) -> tuple[str, float, float, bool]:
    """(verdict word, wall s, CPU s, answers pass the rule check) of a limit-2 solve; the verdict is
    "none" (no verdict) when the timeout fired first."""
    wall, cpu = time.perf_counter(), time.process_time()
    found = []
    try:
        found = list(PLUGIN.solve(puzzle, limit=2, rules=rules, cancel=CancelToken(timeout=timeout)))
        word = {0: "no solution", 1: "unique"}.get(len(found), "2+")
    except Cancelled:
        word = "none"
    took, used = time.perf_counter() - wall, time.process_time() - cpu
    ok = all(PLUGIN.check_solution(puzzle, s).complete for s in found)
    return word, took, used, ok


def _numberlink(
    sizes: list[tuple[int, int]],
    seeds: int,
    timeout: float,
    files: list[Path],
    unique: int,
    gen_timeout: float,
) -> None:
    from solvers.flow.handmade import handmade_board

    print(
        f"== hand-made-style boards (solvers/flow/handmade.py), seeds 0..{seeds - 1} per size, "
        f"limit 2 under each rule set, timeout {timeout:g} s per board and rule set =="
    )
    print(
        f"(seeds below {unique} are made unique under Numberlink rules within {gen_timeout:g} s: "
        "'u Ns' = made unique in N s, 'u?' = not within the budget, the plain construction is used)"
    )
    extra = [("issue 28 12x12", PLUGIN.parse(ISSUE_28_EXAMPLE))]
    extra += [(f.name, PLUGIN.parse(read_text(f))) for f in files]
    print(f"{'board':<24} {'pairs':>5}  " + "  ".join(f"{r:<22}" for r in RULE_SETS))
    for name, puzzle in extra:
        cells = []
        for rules in RULE_SETS:
            word, took, used, ok = _verdict_run(puzzle, rules, timeout)
            cells.append(f"{word + ('' if ok else ' WRONG'):<8} {took:6.2f}s cpu {used:5.2f}")
        print(f"{name:<24} {len(puzzle.colours):>5}  " + "  ".join(cells), flush=True)
    rows: list[str] = []
    wrong = 0
    for w, h in sizes:
        times: dict[str, list[float]] = {r: [] for r in RULE_SETS}
        cpus: dict[str, list[float]] = {r: [] for r in RULE_SETS}
        words: dict[str, list[str]] = {r: [] for r in RULE_SETS}
        pairs: list[int] = []
        for seed in range(seeds):
            tag = ""
            puzzle = None
            if seed < unique:  # made unique under Numberlink rules, as published puzzles are
                started = time.perf_counter()
                try:
                    puzzle = handmade_board(
                        w, h, seed, unique_under="numberlink", cancel=CancelToken(timeout=gen_timeout)
                    ).puzzle
                    tag = f" u {time.perf_counter() - started:.0f}s"
                except (Cancelled, InputError):
                    tag = " u?"  # not made unique within the budget: the plain construction
            if puzzle is None:
                puzzle = handmade_board(w, h, seed).puzzle
            pairs.append(len(puzzle.colours))
            cells = []
            for rules in RULE_SETS:
                word, took, used, ok = _verdict_run(puzzle, rules, timeout)
                wrong += not ok
                times[rules].append(min(took, timeout) if word == "none" else took)
                cpus[rules].append(used)
                words[rules].append(word)
                cells.append(f"{word + ('' if ok else ' WRONG'):<8} {took:6.2f}s cpu {used:5.2f}")
            name = f"{w}x{h} seed {seed}{tag}"
            print(f"{name:<24} {pairs[-1]:>5}  " + "  ".join(cells), flush=True)
        for rules in RULE_SETS:
            none = words[rules].count("none")
            mark = ">" if none else " "  # a no-verdict board counts as the timeout
            rows.append(
                f"{f'{w}x{h}':>7} {f'{min(pairs)}-{max(pairs)}':>6} {rules:<10} "
                f"{seeds - none:>3}/{seeds:<3} {none:>5} {words[rules].count('unique'):>6} "
                f"{words[rules].count('2+'):>3} {statistics.median(times[rules]):8.2f} "
                f"{_percentile(times[rules], 0.9):8.2f} {mark}{max(times[rules]):7.2f} "
                f"{max(cpus[rules]):8.2f}"
            )
    print(f"\n== summary: wall seconds per board (limit 2), timeout {timeout:g} s ==")
    print(
        f"{'size':>7} {'pairs':>6} {'rules':<10} {'verdict':>7} {'none':>5} {'unique':>6} {'2+':>3} "
        f"{'median':>8} {'p90':>8} {'worst':>8} {'cpu max':>8}"
    )
    print("\n".join(rows))
    print(
        "(verdict = boards with a verdict in time; none = no verdict; a no-verdict board counts as "
        "the timeout in median/p90/worst, worst marked '>' then)"
    )
    if wrong:
        print(f"WRONG: {wrong} answer(s) failed the rule check")


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
    ap.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="per-board limit (--random-path: 60 s, --numberlink: 10 s)",
    )
    ap.add_argument("--variants", action="store_true", help="generated walls/holes/bridges/warps/hex boards")
    ap.add_argument(
        "--numberlink", action="store_true", help="hand-made-style boards under all three rule sets"
    )
    ap.add_argument("--unique", type=int, default=2, help="--numberlink: boards per size made unique")
    ap.add_argument(
        "--gen-timeout", type=float, default=30.0, help="--numberlink: budget to make one board unique (s)"
    )
    args = ap.parse_args(argv)
    if args.timeout is not None and not args.timeout > 0:
        ap.error(f"--timeout must be a positive number of seconds, got {args.timeout:g}")
    if args.seeds is not None and args.seeds < 1:
        ap.error(f"--seeds must be at least 1, got {args.seeds}")
    if args.unique < 0 or not args.gen_timeout > 0:
        ap.error("--unique must be 0 or more and --gen-timeout a positive number of seconds")
    if args.numberlink:
        text = NUMBERLINK_SIZES if args.sizes == ap.get_default("sizes") else args.sizes
        try:
            sizes = [_size(x) for x in text.split(",")]
        except ValueError as exc:
            ap.error(str(exc))
        if any(not (4 <= n <= 100) for size in sizes for n in size):
            ap.error("--sizes: hand-made boards are 4..100 cells each way")
        list(PLUGIN.solve(PLUGIN.parse("R.R\nG.G\n"), limit=2, rules="numberlink"))  # warm-up
        _numberlink(sizes, args.seeds or 5, args.timeout or 10.0, args.files, args.unique, args.gen_timeout)
        return 0
    if args.variants:
        list(solve(PLUGIN.parse("R.R\nG.G\n"), limit=2))  # warm-up (library load)
        sizes = "9,15,30" if args.sizes == ap.get_default("sizes") else args.sizes
        _variants([int(x) for x in sizes.split(",")], args.seeds or 1)
        return 0
    if args.random_path:
        list(solve(PLUGIN.parse("R.R\nG.G\n"), limit=2, rules="strict"))  # warm-up (library load)
        _random_path([int(x) for x in args.sizes.split(",")], args.seeds or 3, args.timeout or 60.0)
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
