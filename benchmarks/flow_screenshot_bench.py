"""Flow screenshot import benchmark: accuracy and time per image (never a timed assertion).

    python benchmarks/flow_screenshot_bench.py [--subset] [--save-failures DIR]

The test set: synthetic screenshots in the Flow Free app's look (solvers/flow/screenshot_synth.py)
at 5 resolutions x JPEG quality 95/75/50 (+ some lossless PNGs) x 20 boards (5x5..15x15,
rectangles, walls, holes), plus this program's own PNG exports of every Flow sample (light, dark,
transparent, and light and dark with the solution's pipes), drawn with the export path. An image counts as right when the grid size, every
endpoint and its pairing are right; walls and holes are counted separately.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from solvers.common.errors import InputError  # noqa: E402
from solvers.common.protocol import read_text  # noqa: E402
from solvers.flow import PLUGIN  # noqa: E402
from solvers.flow.screenshot import decode, detect  # noqa: E402
from solvers.flow.screenshot_synth import Case, Scene, same_endpoints, synthetic_set  # noqa: E402


def exports() -> Iterator[Case]:
    """This program's own diagrams of the samples, written by the export path."""
    from PySide6.QtGui import QGuiApplication

    from workbench.export import ExportOptions, export

    _app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 (keeps Qt alive)
    with tempfile.TemporaryDirectory() as tmp:
        for sample in PLUGIN.sample_paths():
            puzzle = PLUGIN.parse(read_text(sample))
            solution = next(iter(PLUGIN.solve(puzzle, limit=1)))
            for palette, transparent, solved in (
                ("light", False, False),
                ("dark", False, False),
                ("light", True, False),
                ("light", False, True),
                ("dark", False, True),
            ):
                out = Path(tmp) / "out.png"
                picture = PLUGIN.draw(puzzle, solution if solved else None)
                export(picture, out, ExportOptions(palette=palette, transparent=transparent))
                name = f"export {sample.stem} {palette}{' transparent' * transparent}{' solved' * solved}"
                yield Case(name, out.read_bytes(), Scene(puzzle))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--subset", action="store_true", help="only the CI subset of the synthetic set")
    ap.add_argument("--save-failures", type=Path, default=None)
    args = ap.parse_args()
    rows = []
    times: list[float] = []
    endpoints = [0, 0]  # right (cell and partner), all
    for case in [*synthetic_set(args.subset), *exports()]:
        start = time.perf_counter()
        try:
            found = detect(decode(case.data, case.name))
            error = ""
        except InputError as exc:
            found, error = None, str(exc)
        times.append(time.perf_counter() - start)
        truth = case.scene
        size_ok = found is not None and (found.rows, found.cols) == (truth.puzzle.rows, truth.puzzle.cols)
        dots_ok = size_ok and found is not None and same_endpoints(found.endpoints, truth.puzzle.endpoints())
        walls_ok = found is not None and set(found.walls) == set(truth.walls)
        holes_ok = found is not None and set(found.holes) == set(truth.holes)
        rows.append((case.name, size_ok, dots_ok, walls_ok, holes_ok))
        truth_groups = {c: frozenset(v) for v in truth.puzzle.endpoints().values() for c in v}
        found_groups = {c: frozenset(v) for v in (found.endpoints.values() if found else ()) for c in v}
        endpoints[0] += sum(1 for c, g in truth_groups.items() if size_ok and found_groups.get(c) == g)
        endpoints[1] += len(truth_groups)
        if not (dots_ok and walls_ok and holes_ok):
            print(
                f"WRONG {case.name}: size {size_ok} endpoints {dots_ok} walls {walls_ok} holes {holes_ok} {error}"
            )
            if args.save_failures:
                args.save_failures.mkdir(parents=True, exist_ok=True)
                (args.save_failures / (case.name.replace(" ", "_") + ".img")).write_bytes(case.data)
    n = len(rows)
    for label, k in (("grid size", 1), ("all endpoints", 2), ("walls", 3), ("holes", 4)):
        right = sum(1 for r in rows if r[k])
        print(f"{label:>14}: {right}/{n} images right ({100 * right / n:.1f} %)")
    print(f"{'endpoints':>14}: {endpoints[0]}/{endpoints[1]} right (cell, colour group and partner)")
    print(
        f"time per image (decode + detect): mean {1000 * statistics.mean(times):.0f} ms, "
        f"median {1000 * statistics.median(times):.0f} ms, max {1000 * max(times):.0f} ms "
        f"({n} images, {sum(times):.1f} s)"
    )
    by_kind: dict[str, list[float]] = {}
    for (name, *_), seconds in zip(rows, times, strict=True):
        by_kind.setdefault(name.split()[0], []).append(seconds)
    for kind, spent in by_kind.items():
        print(f"  {kind:>10}: mean {1000 * statistics.mean(spent):.0f} ms over {len(spent)} images")
    return 0 if all(r[2] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
