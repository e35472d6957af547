"""How the frontier sweep's racing schedule compares with the cheapest sweep direction.

    python benchmarks/flow_racing_bench.py record TRACES.jsonl [--urls URLS.txt] [--seeds 4]
                                                 [--cpu 20] [--max-states 3e6]
    python benchmarks/flow_racing_bench.py compare TRACES.jsonl

``record`` sweeps every board in every direction on its own (issue 28's 12x12, hand-made 12x12
boards seeds 0..N-1, and the puzz.link URLs of ``--urls`` if given; game and Numberlink rules) and
writes one line per sweep: the layer size and the CPU seconds of every cell, and how it ended
(a count, "gaveup" past ``--max-states``, or "timeout" past ``--cpu`` seconds). Boards already in
the file are skipped, so a run can be resumed.

``compare`` replays those sweeps under schedules and prints, per board and rule set, each one's
CPU time as a multiple of the cheapest direction ("?" where a schedule needs a sweep beyond what was
recorded), then the geometric mean and the worst:

* ``furthest``: every direction under a 60,000-state cap, then only the one that got furthest (the
  schedule before 2026-11-26);
* ``turns bF pP``: ``frontier.count_racing``'s turns (the direction with the smallest largest layer
  goes next), the furthest after a P-state probe favoured F-fold (the shipped one: b4 p60k).

Prints figures only; nothing here is a test assertion.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.flow import PLUGIN, frontier  # noqa: E402
from solvers.flow.codec import parse  # noqa: E402
from solvers.flow.graph import grid_graph  # noqa: E402
from solvers.flow.handmade import handmade_board  # noqa: E402
from solvers.flow.model import FlowPuzzle  # noqa: E402

ISSUE_28_EXAMPLE = (ROOT / "tests" / "flow" / "data" / "issue28_12x12.txt").read_text(encoding="utf-8")
RULES = ("strict", "numberlink")
Trace = list[tuple[int, float]]  # (layer size, or -1 for the end; CPU seconds) per cell


def boards(urls: Path | None, seeds: int) -> list[tuple[str, FlowPuzzle]]:
    out = [("issue 28 12x12", parse(ISSUE_28_EXAMPLE))]
    out += [(f"hand-made 12x12 s{s}", handmade_board(12, 12, s).puzzle) for s in range(seeds)]
    if urls is not None:
        for number, line in enumerate(urls.read_text(encoding="utf-8").splitlines(), 1):
            url = line.split("#", 1)[0].strip()
            if url:
                puzzle = PLUGIN.parse(url)
                if frontier.sweep_width(puzzle) <= 14:
                    out.append((f"{urls.name}:{number} {puzzle.cols}x{puzzle.rows}", puzzle))
    return out


def record(path: Path, urls: Path | None, seeds: int, cpu: float, max_states: int) -> None:
    done = set()
    if path.exists():
        done = {(r["board"], r["rules"], r["o"]) for r in map(json.loads, path.open(encoding="utf-8"))}
    with path.open("a", encoding="utf-8") as out:
        for name, puzzle in boards(urls, seeds):
            graph = grid_graph(puzzle)
            for rules in RULES:
                for o in range(frontier.orientations(graph)):
                    if (name, rules, o) in done:
                        continue
                    lay = frontier.layout(graph, o)
                    steps = frontier._sweep_steps(
                        graph, lay, rules == "numberlink", 2, None, max_states, 10**9
                    )
                    trace: Trace = []
                    ended, start = "timeout", time.thread_time()
                    while time.thread_time() - start < cpu:
                        t = time.thread_time()
                        try:
                            states = next(steps)
                        except StopIteration as end:
                            ended = "gaveup" if end.value is None else f"count{end.value.count}"
                            trace.append((-1, time.thread_time() - t))
                            break
                        trace.append((states, time.thread_time() - t))
                    steps.close()
                    row = {"board": name, "rules": rules, "o": o, "ended": ended, "trace": trace}
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    print(
                        f"{name} {rules} direction {o}: {ended} {time.thread_time() - start:.1f} s",
                        flush=True,
                    )


def furthest(sweeps: dict[int, tuple[Trace, str]], probe: int = 60_000) -> float | None:
    """The old schedule: all under ``probe`` states (from scratch), then the furthest in full."""
    total, reach = 0.0, {}
    for o, (trace, ended) in sweeps.items():
        cells = 0
        for states, seconds in trace:
            total += seconds
            if states == -1:
                if ended.startswith("count"):
                    return total
                break
            if states > probe:
                break
            cells += 1
        reach[o] = cells
    best = max(sorted(sweeps), key=lambda o: reach[o])
    trace, ended = sweeps[best]
    if not ended.startswith("count"):
        return None if ended == "timeout" else math.inf
    return total + sum(seconds for _states, seconds in trace)


def turns(sweeps: dict[int, tuple[Trace, str]], favour: float, probe: int) -> float | None:
    """``count_racing``'s schedule replayed on the recorded sweeps."""
    at = dict.fromkeys(sweeps, 0)
    peak = dict.fromkeys(sweeps, 0)
    spent = dict.fromkeys(sweeps, 0.0)
    alive, total, favourite = set(sweeps), 0.0, -1
    while alive:
        if favourite < 0 and all(peak[o] > probe for o in alive):
            favourite = max(sorted(alive), key=lambda o: at[o])
        o = min(alive, key=lambda d: (peak[d] / (favour if d == favourite else 1), spent[d], d))
        trace, ended = sweeps[o]
        if at[o] >= len(trace):
            return None  # beyond the recording
        states, seconds = trace[at[o]]
        at[o] += 1
        spent[o] += seconds
        total += seconds
        if states == -1:
            if ended.startswith("count"):
                return total
            alive.discard(o)
            continue
        peak[o] = max(peak[o], states)
    return math.inf


def compare(path: Path) -> None:
    runs: dict[tuple[str, str], dict[int, tuple[Trace, str]]] = {}
    for row in map(json.loads, path.open(encoding="utf-8")):
        runs.setdefault((row["board"], row["rules"]), {})[row["o"]] = (
            [tuple(x) for x in row["trace"]],
            row["ended"],
        )
    schedules = {"furthest": lambda s: furthest(s)}
    for favour in (2, 4, 8):
        for probe in (60_000, 150_000):
            schedules[f"turns b{favour} p{probe // 1000}k"] = lambda s, f=favour, p=probe: turns(s, f, p)
    ratios: dict[str, list[float]] = {name: [] for name in schedules}
    for (board, rules), sweeps in sorted(runs.items()):
        finished = [sum(x[1] for x in t) for t, ended in sweeps.values() if ended.startswith("count")]
        if len(sweeps) < 2 or not finished:
            continue
        best = min(finished)
        cells = []
        for name, schedule in schedules.items():
            took = schedule(sweeps)
            ratio = 20.0 / best if took is None else took / best
            ratios[name].append(ratio)
            cells.append(f"{name} {'?' if took is None else f'{ratio:.1f}x'}")
        print(f"{board} {rules}: cheapest {best:.1f} s | " + " | ".join(cells))
    print("\nschedule            geometric mean   worst   (a '?' counts as 20 s)")
    for name, values in ratios.items():
        if values:
            mean = math.exp(sum(map(math.log, values)) / len(values))
            print(f"{name:20} {mean:13.2f}x {max(values):7.1f}x")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("record", "compare"))
    ap.add_argument("traces", type=Path)
    ap.add_argument("--urls", type=Path, help="puzz.link URLs, one per line (boards up to 14 wide are used)")
    ap.add_argument("--seeds", type=int, default=4, help="hand-made 12x12 boards, seeds 0..N-1")
    ap.add_argument("--cpu", type=float, default=20.0, help="CPU seconds per sweep direction")
    ap.add_argument("--max-states", type=float, default=3e6, help="largest layer before a sweep gives up")
    args = ap.parse_args(argv)
    if args.seeds < 0 or not args.cpu > 0 or not args.max_states >= 1:
        ap.error("--seeds must be 0 or more, --cpu and --max-states positive")
    if args.what == "record":
        record(args.traces, args.urls, args.seeds, args.cpu, int(args.max_states))
    elif not args.traces.exists():
        ap.error(f"no such file: {args.traces}")
    else:
        compare(args.traces)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
