"""Toichika hold-out for issue 31 (see benchmarks/toichika_holdout.md).

    python benchmarks/toichika_holdout.py freeze OUT.txt --sizes 6 8 10 --seeds 9000-9019 [--grade expert]
    python benchmarks/toichika_holdout.py measure FILE.txt [FILE.txt ...] [--quiet]

``freeze`` generates one puzzle per (size, seed) with the code as it is and writes
``size<TAB>seed<TAB>url`` lines (append-safe: lines already there are kept). ``measure`` explains
every URL of the files (lines starting with ``http`` or ``size<TAB>seed<TAB>url``) and prints the
trials, grade and time per puzzle and a summary. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.common.errors import InputError  # noqa: E402
from solvers.toichika.explain import explain  # noqa: E402
from solvers.toichika.generate import generate  # noqa: E402
from solvers.toichika.url_codec import decode_url, encode_url  # noqa: E402


def _seeds(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def freeze(out: Path, sizes: list[int], seeds: list[int], grade: str) -> None:
    done = set()
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            if line:
                size, seed, _ = line.lstrip("# ").split("\t")
                done.add((int(size), int(seed)))
    with out.open("a", encoding="utf-8") as fh:
        for size in sizes:
            for seed in seeds:
                if (size, seed) in done:
                    continue
                try:
                    made = generate(size, size, grade, seed=seed)
                except InputError as exc:  # no such puzzle within the generator's board limit
                    fh.write(f"# {size}\t{seed}\t{exc}\n")
                    continue
                fh.write(f"{size}\t{seed}\t{encode_url(made.puzzle)}\n")
                fh.flush()


def urls(path: Path) -> list[tuple[str, str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split("\t")
        url = next(p for p in parts if p.startswith("http"))
        label = "/".join(parts[:2]) if not parts[0].startswith("http") else url.split("?toichika/")[1][:20]
        out.append((label, url))
    return out


def measure(paths: list[Path], quiet: bool) -> None:
    rows = []
    for path in paths:
        for label, url in urls(path):
            puzzle = decode_url(url)
            t0 = time.process_time()
            ex = explain(puzzle)
            cpu = time.process_time() - t0
            rows.append((ex.trials, ex.grade(), cpu))
            if not quiet:
                print(
                    f"{path.name:28} {label:22} trials={ex.trials:2} {cpu:6.2f}s {ex.grade_text()}",
                    flush=True,
                )
    grades: dict[str, int] = {}
    for _, g, _ in rows:
        grades[g] = grades.get(g, 0) + 1
    print(
        f"{len(rows)} puzzles: {sum(1 for r in rows if r[0] == 0)} without trial; "
        f"median {statistics.median(r[2] for r in rows):.3f}s CPU, max {max(r[2] for r in rows):.2f}s; "
        f"grades {grades}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("freeze")
    f.add_argument("out")
    f.add_argument("--sizes", type=int, nargs="+", default=[6, 8, 10])
    f.add_argument("--seeds", default="9000-9019")
    f.add_argument("--grade", default="expert")
    m = sub.add_parser("measure")
    m.add_argument("files", nargs="+")
    m.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    if args.cmd == "freeze":
        freeze(Path(args.out), args.sizes, _seeds(args.seeds), args.grade)
    else:
        measure([Path(p) for p in args.files], args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
