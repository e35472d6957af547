"""Tokyo Doves figures: position count time, the 9 test positions (time, nodes), perft speed,
tablebases (per variant: build time, classes per second on one core, table size, lookup time) and the
cost model's full-game estimate (``doves_retro_bench.py`` has the full per-variant survey).

Run: ``nice python benchmarks/doves_bench.py [--json] [--no-tablebases]``. Timings are wall-clock on a shared machine
(noisy); numba compilation is done before the timers start and reported separately.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.doves import engine  # noqa: E402
from solvers.doves.analysis import final_value  # noqa: E402
from solvers.doves.counting import count_positions  # noqa: E402
from solvers.doves.model import START, parse_board  # noqa: E402

TEST_POSITIONS = [
    (" B; a;TH y;b mM", "Win(5)"),
    (" By;H  a;A m;  Yb", "Win(3)"),
    ("bB; H;Y h;  T", "Win(3)"),
    ("T; B b;  yY; t", "Win(3)"),
    ("hB A;maYT; Htb;M y", "Win(5)"),
    ("Ba;  H;  hA;MY b", "Win(5)"),
    (" B;a  b; MtY;T  H", "Win(7)"),
    ("Y; B;y hA; M b", "Win(5)"),
    ("bB;T YA", "Win(5)"),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--perft-depth", type=int, default=5)
    parser.add_argument("--no-tablebases", action="store_true", help="skip the tablebase builds")
    args = parser.parse_args()
    out: dict[str, object] = {}

    t = time.perf_counter()
    final_value(parse_board("bB;T YA"), max_depth=5)  # compiles the search
    out["compile_seconds"] = round(time.perf_counter() - t, 2)

    t = time.perf_counter()
    counts = count_positions()
    out["count"] = {
        "seconds": round(time.perf_counter() - t, 3),
        "total": counts.total(),
        "shapes": counts.shapes,
    }

    rows = []
    for board, expected in TEST_POSITIONS:
        t = time.perf_counter()
        result = final_value(parse_board(board), max_depth=9)
        assert result is not None
        rows.append(
            {
                "board": board,
                "value": str(result.value),
                "expected": expected,
                "nodes": result.nodes,
                "seconds": round(time.perf_counter() - t, 3),
            }
        )
    out["test_positions"] = rows

    buf = engine.Buffers()
    engine.perft(
        np.uint64(START.code), 0, 1, True, 0, 0, buf.pos, buf.acts, buf.codes, buf.outs, buf.libs
    )  # compile
    perft = {}
    for depth in range(1, args.perft_depth + 1):
        t = time.perf_counter()
        n = int(
            engine.perft(
                np.uint64(START.code), 0, depth, True, 0, 0, buf.pos, buf.acts, buf.codes, buf.outs, buf.libs
            )
        )
        dt = time.perf_counter() - t
        perft[str(depth)] = {
            "count": n,
            "seconds": round(dt, 3),
            "per_second": round(n / dt) if dt > 0 else None,
        }
    out["perft_start"] = perft

    t = time.perf_counter()
    start = final_value(START, max_depth=9)
    assert start is not None
    out["start_depth9"] = {
        "value": str(start.value),
        "nodes": start.nodes,
        "seconds": round(time.perf_counter() - t, 3),
    }

    if not args.no_tablebases:
        out["tablebases"] = tablebase_rows()
        out["full_game_model"] = full_game_model()

    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"numba compile (search): {out['compile_seconds']} s")
    print(
        f"position count: {counts.total():,} positions, {counts.shapes} shapes in {out['count']['seconds']} s"
    )
    print(f"{'board':22} {'value':8} {'expected':8} {'nodes':>9} {'seconds':>8}")
    for row in rows:
        ok = "" if row["value"] == row["expected"] else "  MISMATCH"
        print(
            f"{row['board']!r:22} {row['value']:8} {row['expected']:8} {row['nodes']:>9} {row['seconds']:>8}{ok}"
        )
    for depth, row in perft.items():
        print(
            f"perft start depth {depth}: {row['count']:>10,} in {row['seconds']} s ({row['per_second']:,}/s)"
        )
    s = out["start_depth9"]
    print(f"start position to depth 9: {s['value']}, {s['nodes']:,} nodes, {s['seconds']} s")
    if args.no_tablebases:
        return
    print(
        f"{'tablebase':12} {'rules':9} {'classes':>9} {'build':>7} {'classes/s':>10} {'bytes':>10} "
        f"{'open+lookup':>11} {'start':8}"
    )
    for row in out["tablebases"]:  # type: ignore[attr-defined]
        print(
            f"{row['variant']:12} {row['rules']:9} {row['classes']:>9,} {row['build_seconds']:>6}s "
            f"{row['classes_per_second']:>10,} {row['bytes']:>10,} {row['lookup_ms']:>9}ms {row['start']:8}"
        )
    print("full game (cost model of docs/doves.md):", json.dumps(out["full_game_model"]))


TABLEBASE_VARIANTS = [
    ("A", "A", "remove=yes"),
    ("M", "HT", "remove=yes"),
    ("M", "HT", "remove=no"),
    ("AT", "AT", "remove=yes"),
    ("AT", "YH", "remove=yes"),
]


def tablebase_rows() -> list[dict[str, object]]:
    """Build each variant's table in a scratch folder (single process: one core) and time a lookup."""
    import tempfile

    from solvers.doves import tablebase
    from solvers.doves.rules import Rules, parse_doves

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        tablebase.build(Rules(doves=parse_doves("A")), folder)  # compiles the retro engine
        for red, green, options in TABLEBASE_VARIANTS:
            rules = Rules.from_text(f"{options} doves={red}/{green}")
            _, summary = tablebase.build(rules, folder)
            t = time.perf_counter()
            found = tablebase.lookup(START.with_rules(rules), folder)
            assert found is not None
            rows.append(
                {
                    "variant": summary["variant"],
                    "rules": options,
                    "classes": summary["classes"],
                    "build_seconds": summary["build_seconds"],
                    "classes_per_second": summary["classes_per_second"],
                    "bytes": summary["bytes"],
                    "lookup_ms": round((time.perf_counter() - t) * 1000, 1),
                    "start": str(found.value),
                }
            )
    return rows


def full_game_model() -> dict[str, object]:
    """The full-game extrapolation from fresh samples of the full game: the forward graph rate
    (assumptions A1-A3) and the predecessor-driven solver's init and expansion rates (A3')."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import doves_retro_bench as retro

    rates = {"graph_full_game": retro.full_game_graph_rate(4000)}
    model = retro.cost_model(rates, [{"longest_win": 103}])  # 103: the longest reduced-game win measured
    backward = retro.backward_model(retro.full_game_backward_rates(40_000, np.random.default_rng(0)), [])
    model["backward_core_hours_range"] = backward["total_core_hours_range"]
    model["backward_init_core_hours"] = backward["init_core_hours"]
    model["backward_expanded_share_range"] = backward["expanded_share_range"]
    model["backward_predecessor_visits_range"] = backward["predecessor_visits_range"]
    return model


if __name__ == "__main__":
    main()
