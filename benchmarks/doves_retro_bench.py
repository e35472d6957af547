"""Tokyo Doves retrograde analysis: reduced games solved exactly, rates per phase, cost model.

    nice -n 10 python benchmarks/doves_retro_bench.py [--quick] [--check 2000] [--json out.json]
    nice -n 10 python benchmarks/doves_retro_bench.py --backward [--variants M/HT,AT,...] [--json f]

Prints, per variant: classes, edges, build time, WIN/LOSS/DRAW counts, value of the start, longest
win, passes and the cross-check against the Win(n) search; then the indexing, graph and pass rates
per core (single thread), storage per class, and the full-game extrapolation of docs/doves.md.

``--backward`` instead compares the forward solver with the predecessor-driven one (``retro/
backward.py``) per variant: both times, identical values, the predecessor generation rates
(positions/s per core, without and with ranking) and the predecessor visits per class; then the
same rates on slices of the full game's big partitions and the cost model with predecessors.
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

from numba import njit  # noqa: E402

from solvers.doves import engine as rules_engine  # noqa: E402
from solvers.doves.counting import SYM  # noqa: E402
from solvers.doves.retro import backward_store, engine, unmove  # noqa: E402
from solvers.doves.retro.backward import init_chunk, solve_backward  # noqa: E402
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
    ap.add_argument("--backward", action="store_true", help="forward vs predecessor-driven solver")
    ap.add_argument(
        "--variants",
        default=",".join(BACKWARD_VARIANTS),
        help="--backward: RED/GREEN[/noR] list (GREEN defaults to RED), e.g. M/HT/noR,AT,AT/ATH",
    )
    ap.add_argument("--samples", type=int, default=40_000, help="--backward: full-game classes sampled")
    args = ap.parse_args()
    if args.backward:
        return backward_main(args.variants.split(","), args.samples, args.json)
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


# ---- --backward: the predecessor-driven solver ------------------------------------------------------

BACKWARD_VARIANTS = ["M/HT", "M/HT/noR", "AT", "MH", "AT/ATH"]


@njit(nogil=True)
def _count_unmoves(codes: np.ndarray, allow_remove: bool, hand: int) -> int:
    """Predecessor positions of Red-to-move codes (no ranking): the bare generator."""
    pos = np.zeros(12, dtype=np.int64)
    out = np.zeros(unmove.MAX_PREDS, dtype=np.uint64)
    total = 0
    for c in codes:
        total += unmove.unmoves(c, 0, allow_remove, hand, pos, out)
    return total


def pred_rates(layout: Layout, rules: Rules, ranges: list[tuple[int, int]]) -> dict[str, float]:
    """Predecessor generation over the given global index ranges, one core.

    ``positions_per_s``: predecessor positions generated per second (unrank done beforehand);
    ``ranked_positions_per_s``: the same with unranking, ranking into classes, dedupe and the
    multiplicity (``unmove.backward_pairs``, what a backward level does per class)."""
    codes = []
    for lo, hi in ranges:
        p = int(np.searchsorted(layout.part_off, lo, side="right")) - 1
        base = int(layout.part_off[p])
        codes.append(layout.codes(p, lo - base, hi - base))
    all_codes = np.concatenate(codes)
    hand = [
        int(layout.hands[int(np.searchsorted(layout.part_off, lo, side="right")) - 1]) for lo, _ in ranges
    ]
    _count_unmoves(all_codes[:10], rules.allow_remove, hand[0])
    clock = time.perf_counter()
    positions = 0
    at = 0
    for (lo, hi), h in zip(ranges, hand, strict=True):
        positions += _count_unmoves(all_codes[at : at + hi - lo], rules.allow_remove, h)
        at += hi - lo
    bare = time.perf_counter() - clock
    tabs = unmove.layout_tables(layout)
    width = max(hi - lo for lo, hi in ranges)
    bufs = [np.empty(width * unmove.MAX_PREDS, dtype=np.int64) for _ in range(3)]
    lo0 = ranges[0][0]
    unmove.backward_pairs(lo0, lo0 + 1, rules.allow_remove, tabs, *bufs)  # compile for these tables
    clock = time.perf_counter()
    pairs = 0
    for lo, hi in ranges:
        pairs += unmove.backward_pairs(lo, hi, rules.allow_remove, tabs, *bufs)
    ranked = time.perf_counter() - clock
    classes = len(all_codes)
    return {
        "classes": classes,
        "positions_per_class": positions / classes,
        "distinct_classes_per_class": pairs / classes,
        "positions_per_s": positions / bare,
        "classes_per_s_bare": classes / bare,
        "ranked_positions_per_s": positions / ranked,
        "ranked_classes_per_s": classes / ranked,
        "positions": positions,
        "ranked_seconds": ranked,
    }


def sample_ranges(layout: Layout, total: int, pieces: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """Global index ranges, each inside one partition: all of them, or ``pieces`` random slices."""
    whole = [layout.partition_range(p) for p in range(len(layout.parts))]
    if layout.size <= total:
        return [(lo, hi) for lo, hi in whole if hi > lo]
    per = total // pieces
    big = [(lo, hi) for lo, hi in whole if hi - lo > per]
    weights = np.array([hi - lo for lo, hi in big], dtype=np.float64)
    out = []
    for k in rng.choice(len(big), size=pieces, p=weights / weights.sum()):
        lo, hi = big[int(k)]
        start = lo + int(rng.integers(0, hi - lo - per))
        out.append((start, start + per))
    return sorted(out)


def backward_variant(spec: str, rng: np.random.Generator) -> dict[str, object]:
    parts = spec.split("/")
    red = parts[0]
    green = parts[1] if len(parts) > 1 and parts[1] != "noR" else red
    rules = Rules(allow_remove="noR" not in parts)
    layout = Layout.from_letters(red, green)
    forward, fstore = solve(layout, rules)
    fvalues = fstore.values.copy()
    del fstore  # the stored graph
    backward, bstore, stats = solve_backward(layout, rules)
    identical = fvalues.tobytes() == bstore.values.tobytes()
    with tempfile.TemporaryDirectory() as folder:  # the same solver as restartable tasks on disk
        clock = time.perf_counter()
        on_disk, _ = backward_store.solve_backward_stored(layout, rules, folder, backward_store.run_here())
        disk_s = time.perf_counter() - clock
        identical = identical and np.load(Path(folder) / "values.npy").tobytes() == fvalues.tobytes()
    rates = pred_rates(layout, rules, sample_ranges(layout, 300_000, 10, rng))
    fsec, bsec = forward.seconds, backward.seconds
    return {
        "variant": layout.name,
        "rules": "remove" if rules.allow_remove else "no remove",
        "classes": layout.size,
        "start": forward.start_value,
        "win": forward.win,
        "loss": forward.loss,
        "levels": forward.passes,
        "forward_s": {
            "graph": fsec["graph"],
            "passes": fsec["passes"],
            "total": fsec["graph"] + fsec["passes"],
        },
        "backward_s": {
            "init": bsec["init"],
            "levels": bsec["backward"],
            "total": bsec["init"] + bsec["backward"],
        },
        "on_disk_s": {
            "init": on_disk.seconds["init"],
            "levels": on_disk.seconds["backward"],
            "total": disk_s,
        },
        "identical": identical,
        "forward_edges_per_class": forward.edges / layout.size,
        "expanded": stats.expanded,
        "predecessor_positions": stats.predecessor_positions,
        "visits_per_expanded_class": stats.predecessor_positions / max(1, stats.expanded),
        "distinct_visits_per_expanded_class": stats.predecessor_classes / max(1, stats.expanded),
        "visits_per_class": stats.predecessor_positions / layout.size,
        "init_classes_per_s": layout.size / bsec["init"],
        "pred": rates,
    }


def show_backward(row: dict[str, object]) -> None:
    f, b, r = row["forward_s"], row["backward_s"], row["pred"]
    assert isinstance(f, dict) and isinstance(b, dict) and isinstance(r, dict)
    print(
        f"{row['variant']:>9} {row['rules']:9} {row['classes']:>10,} {row['start']:>9} "
        f"fwd {f['graph']:7.2f}+{f['passes']:5.2f}s  bwd {b['init']:6.2f}+{b['levels']:6.2f}s "
        f"(on disk {row['on_disk_s']['init']:6.2f}+{row['on_disk_s']['levels']:6.2f}s) "  # type: ignore[index]
        f"same {str(row['identical']):5}  visits/expanded {row['visits_per_expanded_class']:5.2f} "
        f"visits/class {row['visits_per_class']:5.2f} (fwd edges/class {row['forward_edges_per_class']:5.2f})  "
        f"pred {r['positions_per_s'] / 1e6:5.2f} M pos/s bare, {r['ranked_positions_per_s'] / 1e6:5.2f} M/s "
        f"ranked ({r['ranked_classes_per_s'] / 1e3:5.0f} k classes/s)",
        flush=True,
    )


def full_game_backward_rates(samples: int, rng: np.random.Generator, slices: int = 400) -> dict[str, float]:
    """Init (generate + count, no ranking) and predecessor classes on ``slices`` random slices of the
    10-12-dove partitions (89 % of the classes), picked in proportion to their size. Many short
    slices: the index keeps a shape and the Bosses' squares fixed over long runs of slots, so a few
    long slices would see a few situations only."""
    layout = Layout.from_letters(KINDS)
    big = [p for p in range(len(layout.parts)) if bin(int(layout.parts[p])).count("1") >= 10]
    sizes = np.array(
        [layout.partition_range(p)[1] - layout.partition_range(p)[0] for p in big], dtype=np.float64
    )
    per = max(1, samples // slices)
    tabs = unmove.layout_tables(layout)
    vals = np.empty(per, dtype=np.int16)
    counters = np.empty(per, dtype=np.uint8)
    wins = np.empty(per, dtype=np.int64)
    losses = np.empty(per, dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    init_chunk(big[0], 0, 1, True, 0, tabs, vals, counters, wins, losses, out)  # compile
    ranges = []
    seconds = 0.0
    won = terminal = 0
    for k in rng.choice(len(big), size=slices, p=sizes / sizes.sum()):
        p = big[int(k)]
        lo, hi = layout.partition_range(p)
        start = int(rng.integers(0, hi - lo - per))
        clock = time.perf_counter()
        init_chunk(p, start, per, True, 0, tabs, vals, counters, wins, losses, out)
        seconds += time.perf_counter() - clock
        won += int(out[0])
        terminal += int(np.count_nonzero(vals == engine.TERMINAL))
        ranges.append((lo + start, lo + start + per))
    rates = pred_rates(layout, Rules(), ranges)
    # the forward graph phase (generate + rank every child) on the very same slices, for comparison
    t = layout.tables
    degree = np.empty(per, dtype=np.int64)
    buf = np.empty(per * rules_engine.MAX_ACTIONS, dtype=np.int64)
    forward_s = 0.0
    forward_edges = 0
    for n, (lo, _) in enumerate(ranges[:1] + ranges):  # call 0 compiles for the full game's int32 tables
        p = int(np.searchsorted(layout.part_off, lo, side="right")) - 1
        clock = time.perf_counter()
        m = engine.build_chunk(
            int(layout.parts[p]), lo - int(layout.part_off[p]), per, True, 0, int(layout.hands[p]), 1, vals,
            degree, buf, t.first, t.offset, t.slots, t.squares, t.table_off, t.listing, layout.part_of_set,
            layout.part_off, t.mask_to_shape, t.square_index, t.ng, t.perms, t.dense, SYM,
        )  # fmt: skip
        if n:
            forward_s += time.perf_counter() - clock
            forward_edges += m
    total = per * slices
    live = total - terminal  # a terminal class has no predecessor and is never expanded
    return {
        "classes": total,
        "init_classes_per_s": total / seconds,
        "forward_graph_classes_per_s": total / forward_s,
        "forward_stored_edges_per_class": forward_edges / total,
        "immediate_wins_share": won / total,
        "terminal_share": terminal / total,
        **{f"pred_{k}": v for k, v in rates.items()},
        "pred_positions_per_live_class": rates["positions"] / live,
        "expand_live_classes_per_s": live / rates["ranked_seconds"],
    }


def backward_model(full: dict[str, float], rows: list[dict[str, object]]) -> dict[str, object]:
    """Core-hours of the full game with predecessor generation (assumption A3' in docs/doves.md):
    one init sweep over every class, then each decided class expanded once. At least the immediate
    wins are expanded, at most every class that is not terminal (shares from the sampled slices)."""
    n = FULL_CLASSES
    init_h = n / full["init_classes_per_s"] / 3600
    expand_h = n / full["expand_live_classes_per_s"] / 3600
    least = full["immediate_wins_share"]
    most = 1.0 - full["terminal_share"]
    return {
        "forward_graph_sweep_core_hours_same_slices": round(n / full["forward_graph_classes_per_s"] / 3600),
        "forward_stored_graph_TB_5_bytes_per_edge": round(
            n * full["forward_stored_edges_per_class"] * 5 / 1e12, 1
        ),
        "init_core_hours": round(init_h),
        "expand_every_class_core_hours": round(expand_h),  # at the rate of the non-terminal ones
        "expanded_share_range": [round(least, 3), round(most, 3)],
        "total_core_hours_range": [round(init_h + least * expand_h), round(init_h + most * expand_h)],
        "predecessor_visits_range": [
            round(n * least * full["pred_positions_per_live_class"]),
            round(n * most * full["pred_positions_per_live_class"]),
        ],
        "decided_share_reduced_games": [
            round((int(r["win"]) + int(r["loss"])) / int(r["classes"]), 3)  # type: ignore[call-overload]
            for r in rows
        ],
        "counters_GB_1_byte": round(n / 1e9),
    }


def backward_main(specs: list[str], samples: int, json_path: str | None) -> int:
    rng = np.random.default_rng(0)
    rows = []
    for spec in specs:
        rows.append(backward_variant(spec, rng))
        show_backward(rows[-1])
    full = full_game_backward_rates(samples, rng)
    print(json.dumps(full, indent=1))
    model = backward_model(full, rows)
    print(json.dumps(model, indent=1))
    if json_path:
        Path(json_path).write_text(
            json.dumps({"variants": rows, "full_game": full, "model": model}, indent=1)
        )
    return 0 if all(r["identical"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
