"""Tokyo Doves retrograde analysis: reduced games solved exactly, rates per phase, cost model.

    nice -n 10 python benchmarks/doves_retro_bench.py [--quick] [--check 2000] [--json out.json]

Prints, per variant: classes, edges, build time, WIN/LOSS/DRAW counts, value of the start, longest
win, passes and the cross-check against the Win(n) search; then the indexing, graph and pass rates
per core (single thread), storage per class, and the full-game extrapolation of docs/doves.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from itertools import combinations, product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.doves import engine as rules_engine  # noqa: E402
from solvers.doves.counting import SYM  # noqa: E402
from solvers.doves.retro import engine  # noqa: E402
from solvers.doves.retro.check import cross_check  # noqa: E402
from solvers.doves.retro.layout import Layout  # noqa: E402
from solvers.doves.retro.solve import solve  # noqa: E402
from solvers.doves.rules import Rules  # noqa: E402

KINDS = "AYMTH"
MIXED = [("AT", "YH"), ("MT", "AH"), ("HT", "AY"), ("AY", "MT")]
FULL_CLASSES = 508_064_190_482


def solve_variant(red: str, green: str, rules: Rules, check: int) -> dict[str, object]:
    layout = Layout.from_letters(red, green)
    result, store = solve(layout, rules)
    row = result.to_json()
    row["tag"] = ("R" if rules.allow_remove else "noR") + "/" + rules.both_surrounded.replace("mover_", "m")
    if check:
        clock = time.perf_counter()
        found = cross_check(layout, rules, store.values, check, depth=7, seed=1)
        row["check"] = {
            "checked": found.checked,
            "decided_within_7": found.decided,
            "mismatches": len(found.mismatches),
            "seconds": round(time.perf_counter() - clock, 2),
        }
    return row


def show(row: dict[str, object]) -> None:
    sec = row["seconds"]
    assert isinstance(sec, dict)
    check = row.get("check", {})
    assert isinstance(check, dict)
    print(
        f"{row['variant']:>14} {row['tag']:9} {row['classes']:>9,} {row['edges']:>10,} "
        f"{sec['graph']:6.2f}s {sec['passes']:5.2f}s  W {row['win']:>7,} L {row['loss']:>6,} "
        f"D {row['draw']:>7,}  start {row['start_value']:8} longest {row['longest_win']:>3} "
        f"passes {row['passes']:>3}  check {check.get('checked', '-')}/{check.get('mismatches', '-')}",
        flush=True,
    )


def full_game_graph_rate(samples: int = 20_000) -> dict[str, float]:
    """Graph phase on slices of the full game's big partitions (10..12 doves): classes/s, degree."""
    layout = Layout.from_letters(KINDS)
    rng = np.random.default_rng(0)
    big = [p for p in range(len(layout.parts)) if bin(int(layout.parts[p])).count("1") >= 10]
    picked = rng.choice(big, size=5, replace=False)
    per = samples // len(picked)
    buf = np.empty(per * rules_engine.MAX_ACTIONS, dtype=np.int64)
    _graph_slices(layout, picked[:1], 1, rng, buf)  # the full game's int32 tables compile apart
    classes, edges, seconds = _graph_slices(layout, picked, per, rng, buf)
    return {"classes_per_s": classes / seconds, "edges_per_class": edges / classes}


def _graph_slices(
    layout: Layout, picked: np.ndarray, per: int, rng: np.random.Generator, buf: np.ndarray
) -> tuple[int, int, float]:
    t = layout.tables
    classes = 0
    edges = 0
    seconds = 0.0
    for p in picked.tolist():
        lo, hi = layout.partition_range(p)
        start = int(rng.integers(0, hi - lo - per))
        vals = np.empty(per, dtype=np.int16)
        degree = np.empty(per, dtype=np.int64)
        clock = time.perf_counter()
        m = engine.build_chunk(
            int(layout.parts[p]), start, per, True, 0, int(layout.hands[p]), 1, vals, degree, buf,
            t.first, t.offset, t.slots, t.squares, t.table_off, t.listing, layout.part_of_set,
            layout.part_off, t.mask_to_shape, t.square_index, t.ng, t.perms, t.dense, SYM,
        )  # fmt: skip
        seconds += time.perf_counter() - clock
        classes += per
        edges += m
    return classes, edges, seconds


def index_rates(layout: Layout) -> dict[str, float]:
    codes = np.concatenate([layout.codes(p) for p in range(len(layout.parts))])
    sides = np.zeros(len(codes), dtype=np.int64)
    layout.rank_many(codes[:10], sides[:10])
    clock = time.perf_counter()
    ranks = layout.rank_many(codes, sides)
    rank_s = time.perf_counter() - clock
    clock = time.perf_counter()
    for p in range(len(layout.parts)):
        layout.codes(p)
    unrank_s = time.perf_counter() - clock
    assert (ranks == np.arange(len(codes))).all()
    return {"rank_per_s": len(codes) / rank_s, "unrank_per_s": len(codes) / unrank_s}


def pass_rate(rows: list[dict[str, object]]) -> dict[str, float]:
    """Stored-graph passes: classes (and edges) swept per second, over all passes of all variants."""
    classes = sum(int(r["classes"]) * int(r["passes"]) for r in rows)  # type: ignore[call-overload]
    edges = sum(int(r["edges"]) * int(r["passes"]) for r in rows)  # type: ignore[call-overload]
    seconds = sum(float(r["seconds"]["passes"]) for r in rows)  # type: ignore[index]
    return {"classes_per_s": classes / seconds, "edges_per_s": edges / seconds}


def cluster_run(red: str, green: str) -> dict[str, object]:
    try:
        from solvers.doves.retro.cluster import available, solve_distributed
    except ImportError:
        return {"skipped": "no dask"}
    if not available():
        return {"skipped": 'dask not installed (pip install ".[cluster]")'}
    layout = Layout.from_letters(red, green)
    single, store = solve(layout, Rules())
    with tempfile.TemporaryDirectory() as root:
        clock = time.perf_counter()
        result = solve_distributed(layout, Rules(), root, workers=2)
        seconds = time.perf_counter() - clock
        same = bool(np.array_equal(np.load(Path(root) / "values.npy"), store.values))
    return {"variant": layout.name, "seconds": round(seconds, 2), "identical": same, "passes": result.passes}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a few variants only")
    ap.add_argument("--check", type=int, default=2000, help="random classes cross-checked per variant")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    rows = []
    print(
        "variant        rules     classes      edges  graph passes  counts / start / longest / passes / check"
    )
    k1 = [("A", "A"), ("M", "HT")] if args.quick else [(r, g) for r, g in product(KINDS, KINDS)]
    same2 = [("AT", "AT")] if args.quick else ["".join(c) for c in combinations(KINDS, 2)]
    for r, g in k1:
        rows.append(solve_variant(r, g, Rules(), min(args.check, 200)))
        show(rows[-1])
    for pair in same2:
        r, g = pair if isinstance(pair, tuple) else (pair, pair)
        rows.append(solve_variant(r, g, Rules(), args.check))
        show(rows[-1])
    # one dove against two: the only small variants here with long forced wins
    lopsided = (
        [("M", "HT")] if args.quick else [(a, "".join(b)) for a in KINDS for b in combinations(KINDS, 2)]
    )
    for r, g in lopsided:
        rows.append(solve_variant(r, g, Rules(), min(args.check, 500)))
        show(rows[-1])
    for r, g in MIXED[: 1 if args.quick else None]:
        rows.append(solve_variant(r, g, Rules(), args.check))
        show(rows[-1])
    for rules in (Rules(allow_remove=False), Rules(both_surrounded="draw")):
        for r, g in [("AT", "AT"), ("M", "HT")]:
            rows.append(solve_variant(r, g, rules, min(args.check, 500)))
            show(rows[-1])
    at = Layout.from_letters("AT")
    rates: dict[str, object] = {"index": index_rates(at), "pass": pass_rate(rows)}
    big = max((r for r in rows if r["tag"] == "R/mloses"), key=lambda r: r["classes"])  # type: ignore[arg-type,return-value]
    sec = big["seconds"]
    assert isinstance(sec, dict)
    rates["graph_reduced"] = {"classes_per_s": big["classes"] / sec["graph"], "variant": big["variant"]}
    rates["graph_full_game"] = full_game_graph_rate(4000 if args.quick else 20_000)
    rates["cluster"] = cluster_run("M", "HT")
    print(json.dumps(rates, indent=1))
    model = cost_model(rates, rows)
    print(json.dumps(model, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps({"variants": rows, "rates": rates, "model": model}, indent=1))
    return 0


def cost_model(rates: dict[str, object], rows: list[dict[str, object]]) -> dict[str, object]:
    """Full game from the measured per-core rates; every assumption is named in docs/doves.md."""
    graph = rates["graph_full_game"]
    assert isinstance(graph, dict)
    per_class_s = 1.0 / graph["classes_per_s"]
    degree = graph["edges_per_class"]
    passes = 60  # assumption A3: passes in the full game (reduced games: up to longest win + 2)
    n = FULL_CLASSES
    graph_core_h = n * per_class_s / 3600
    return {
        "classes": n,
        "graph_phase_core_hours": round(graph_core_h),
        "edges_per_class": round(degree, 1),
        "stored_graph_TB_5_bytes_per_edge": round(n * degree * 5 / 1e12, 1),
        "values_GB_int16": round(n * 2 / 1e9),
        "values_GB_2bit_wdl": round(n / 4 / 1e9),
        "regenerating_passes_core_hours": round(graph_core_h * passes),
        "assumed_passes": passes,
        "longest_win_reduced": max(int(r["longest_win"]) for r in rows),  # type: ignore[call-overload]
    }


if __name__ == "__main__":
    raise SystemExit(main())
