"""Nine Tiles Panic: full enumeration + scoring + store build, then query latency.

Usage: python benchmarks/ninetiles_bench.py [--store DIR] [--workers N] [--subset N] [--skip-build]

Prints one JSON object: build time, throughput (towns/s), store size, and the latency of
``stats`` and ``best A B C`` queries (cold = fresh Store object, warm = repeated). Timing figures on
a shared machine are noisy; this never asserts a time.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.ninetiles.store import Store, default_store_dir  # noqa: E402
from solvers.ninetiles.store_build import build, stderr_progress  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", type=Path, default=None)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--subset", type=int, default=None)
    parser.add_argument("--skip-build", action="store_true", help="only time queries on an existing store")
    parser.add_argument("--queries", type=int, default=20)
    args = parser.parse_args()
    folder = args.store or default_store_dir()
    out: dict = {"store": str(folder)}
    if not args.skip_build:
        report = build(folder, workers=args.workers, subset=args.subset, progress=stderr_progress(5.0))
        out.update(
            synonym_towns=report.synonym_towns,
            towns=report.towns,
            score_vectors=report.score_vectors,
            build_seconds=round(report.seconds, 1),
            enumerate_seconds=round(report.enumerate_seconds, 1),
            merge_seconds=round(report.merge_seconds, 1),
            towns_per_second=round(report.towns / max(report.enumerate_seconds, 1e-9)),
        )
    t = time.perf_counter()
    store = Store(folder)
    stats = store.stats()
    out["stats_query_seconds_cold"] = round(time.perf_counter() - t, 3)
    out["store_bytes"] = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    t = time.perf_counter()
    store.best((5, 11, 13), limit=20)  # includes loading the numba kernels into this process
    out["best_query_seconds_first_in_process"] = round(time.perf_counter() - t, 3)
    rng = random.Random(7)
    latencies = []
    for _ in range(args.queries):
        themes = tuple(sorted(rng.sample(range(1, 27), 3)))
        t = time.perf_counter()
        store.best(themes, limit=20)  # type: ignore[arg-type]
        latencies.append(time.perf_counter() - t)
    t = time.perf_counter()
    Store(folder).best((1, 2, 20), limit=20)
    out["best_query_seconds_cold"] = round(time.perf_counter() - t, 3)
    out["best_query_seconds_median"] = round(sorted(latencies)[len(latencies) // 2], 3)
    out["best_query_seconds_max"] = round(max(latencies), 3)
    out["headline"] = {
        "towns": stats["towns"],
        "score_vectors": stats["score_vectors"],
        "perfect_theme_sets": len(stats["perfect_theme_sets"]),
        "max_themes_at_max": {k: stats["max_themes_at_max"][k] for k in ("count", "themes", "towns")},
        "closest_to_all_max": {
            k: stats["closest_to_all_max"][k] for k in ("distance", "score_vector", "town_count")
        },
    }
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
