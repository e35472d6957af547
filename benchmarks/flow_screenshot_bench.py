"""Flow screenshot import benchmark: accuracy and time per image (never a timed assertion).

    python benchmarks/flow_screenshot_bench.py [--subset] [--save-failures DIR] [--real-only]

The test set: synthetic screenshots in the Flow Free app's look (solvers/flow/screenshot_synth.py)
at 5 resolutions x JPEG quality 95/75/50 (+ some lossless PNGs) x 20 boards (5x5..15x15,
rectangles, walls, holes), plus this program's own PNG exports of every Flow sample (light, dark,
transparent, and light and dark with the solution's pipes), drawn with the export path. An image counts as right when the grid size, every
endpoint and its pairing are right; walls and holes are counted separately.

Then, when the fetched mirrors are present (FLOW_SHOTS_MIRRORS, default /work/.mirror; skipped
cleanly when absent), real screenshots from seven public Flow solver repositories, read straight from
git (nothing copied): decode, detect and the acceptance check (``check``), as ``flow import`` does.
Labels: the board size in file or folder names, the size of CodeBenaiah's own matrices, a few
checked by eye. Counts by source: read right (accepted, size as labelled, no walls or holes: none of
these pictures shows any; bridges exactly where ``BRIDGES`` says, none elsewhere), refused, WRONG (accepted but not as labelled), unlabelled; time median /
90th / worst. CodeBenaiah's set is the hold-out (never looked at while tuning), the rest tuning.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from solvers.common.errors import InputError  # noqa: E402
from solvers.common.protocol import read_text  # noqa: E402
from solvers.flow import PLUGIN  # noqa: E402
from solvers.flow.model import FlowPuzzle  # noqa: E402
from solvers.flow.screenshot import Detection, check, checked, decode, detect, to_puzzle  # noqa: E402
from solvers.flow.screenshot_hex import model_centre  # noqa: E402
from solvers.flow.screenshot_synth import (  # noqa: E402
    Case,
    Scene,
    hex_misread,
    hex_specs,
    make_hex_case,
    same_endpoints,
    synthetic_set,
)


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


# repository -> (mirror folder, revision); the first is the hold-out part.
REAL = {
    "CodeBenaiah/Flow-Free-Solver-Using-OpenCV": ("CodeBenaiah+Flow-Free-Solver-Using-OpenCV", "HEAD"),
    "TalsoR92/flowFreeSolver": ("TalsoR92+flowFreeSolver", "ad97abb023fb9b13eaaae6ae910ef4c1e0dea7dd"),
    "JoSSte/pyFlowfreeSolver": ("JoSSte+pyFlowfreeSolver", "HEAD"),
    "samgoldman/FlowSolver": ("samgoldman+FlowSolver", "HEAD"),
    "knosmos/flowfreer": ("knosmos+flowfreer", "HEAD"),
    "James-Oswald/Flow-Free-PDDL": ("James-Oswald+Flow-Free-PDDL", "HEAD"),
    "saltthehash/FlowSolver": ("saltthehash+FlowSolver", "HEAD"),  # a Bridges board (GPL-3.0)
}
HOLDOUT = {"CodeBenaiah/Flow-Free-Solver-Using-OpenCV"}
EYE = {  # (cols, rows) checked by eye where the name says nothing or something else
    "IMG_9-9.png": (8, 8),  # the picture says "niveau 137 8x8"
    "capture_26.png": (8, 8),
    "lines_26.png": (8, 8),
    "test.png": (8, 10),
    "python/test_inputs/screenshot.jpg": (10, 10),
    "python/test_inputs/screenshot2.jpg": (10, 10),
    "python/test_inputs/screenshot3.jpg": (5, 8),
    "python/test_inputs/screenshot4.jpg": (10, 10),
    "static/flowfree.png": (10, 10),
    **{f"problems/problem-images/lvl{n}.png": (5, 5) for n in (1, 2, 3)},
    **{f"problems/problem-images/lvl{n}.png": (6, 6) for n in (21, 22, 23)},
    "bridges_example.png": (5, 5),  # saltthehash: Flow Free: Bridges, one bridge
    "flow_example.png": (5, 5),
    # The accepted pictures that had no label, counted by eye on a montage (2026-11-26).
    "dataset/raw_images/Screenshots/Screenshot_20240220-212630.jpg": (7, 7),
    "IMG_5168.png": (5, 6),
    "IMG_5264.png": (8, 8),
    "old_python/RectanglePack_1.jpg": (8, 10),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160031.png": (5, 5),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160100.png": (5, 5),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160122.png": (5, 5),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160126.png": (5, 5),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160237.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160242.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160248.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160251.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160255.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160304.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160308.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160312.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160318.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160322.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160330.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160335.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160338.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160354.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160401.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160408.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160415.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240219-160421.png": (6, 6),
    "dataset/raw_images/Screenshots/Screenshot_20240220-185734.jpg": (7, 7),
    "dataset/raw_images/Screenshots/Screenshot_20240220-230723.jpg": (8, 8),
    "dataset/raw_images/Screenshots/Screenshot_20240221-150610.jpg": (5, 5),
    "dataset/raw_matrices/Image/Screenshot_20240219-160401.png": (6, 6),
    "dataset/raw_matrices/Image/Screenshot_20240219-160408.png": (6, 6),
    "dataset/raw_matrices/Image/Screenshot_20240219-160415.png": (6, 6),
    "dataset/raw_matrices/Image/Screenshot_20240219-160421.png": (6, 6),
}


# Bridges by picture (checked by eye); every other picture shows none, so a bridge read there is wrong.
BRIDGES = {"bridges_example.png": ((1, 2),)}


def _git_files(git: Path, rev: str) -> dict[str, bytes]:
    """Every file of ``rev`` in a mirror, by path (one ``git cat-file --batch`` process)."""
    import subprocess

    if (git / ".git").is_dir():  # a mirror fetched with a work tree's layout
        git = git / ".git"

    listing = subprocess.run(
        ["git", "--git-dir", str(git), "ls-tree", "-r", rev], capture_output=True, text=True, check=True
    ).stdout
    entries = [line.split(None, 3) for line in listing.splitlines()]
    blobs = [(obj, path) for _mode, kind, obj, path in entries if kind == "blob"]
    batch = subprocess.run(
        ["git", "--git-dir", str(git), "cat-file", "--batch"],
        input="".join(f"{obj}\n" for obj, _ in blobs).encode(),
        capture_output=True,
        check=True,
    ).stdout
    out, at = {}, 0
    for _obj, path in blobs:
        end = batch.index(b"\n", at)
        header = batch[at:end].split()
        if len(header) < 3:  # "<object> missing": a mirror may lack its largest files
            at = end + 1
            continue
        size = int(header[2])
        out[path] = batch[end + 1 : end + 1 + size]
        at = end + 1 + size + 1
    return out


def _label(path: str, files: dict[str, bytes]) -> tuple[int, int] | None:
    import re

    if path in EYE:
        return EYE[path]
    stem = Path(path).stem
    for name in (f"dataset/raw_matrices/txt/{stem}txt", f"dataset/raw_matrices/txt/{stem}.txt"):
        if name in files:  # CodeBenaiah's matrices: "rows cols" first (their colours proved unreliable)
            rows, cols = files[name].split()[:2]
            return int(cols), int(rows)
    for pattern in (r"board_(\d+)-(\d+)/", r"screen_(\d+)_(\d+)", r"(\d+)x(\d+)", r"IMG_(\d+)-(\d+)\."):
        m = re.search(pattern, path)
        if m:
            return int(m.group(1)), int(m.group(2))
    return None


def _whole_board(path: str) -> bool:
    """False for pictures that show no whole board: colour patches, icons, ads, failure crops, and
    CodeBenaiah's one solution drawn as coloured blocks (no grid, no dots)."""
    skip = ("/colors/", "static/icon", "failures/", "_ad.", "_done.", "dataset/Screenshot_")
    return not any(k in path for k in skip)


def real_screenshots() -> int:
    """Counts by source and part; returns the number of wrong boards accepted."""
    import re

    mirrors = Path(os.environ.get("FLOW_SHOTS_MIRRORS", "/work/.mirror"))
    present = {repo: v for repo, v in REAL.items() if (mirrors / v[0] / "repo").is_dir()}
    if not present:
        print(f"real screenshots: no mirrors under {mirrors}; skipped")
        return 0
    from solvers.flow.screenshot import Detection

    start = time.process_time()
    check(Detection(2, 2, {"R": ((0, 0), (0, 1)), "G": ((1, 0), (1, 1))}))  # loads the solver: once
    print(f"real screenshots: a first tiny check() (imports) took {time.process_time() - start:.2f} s CPU")
    rows: dict[tuple[str, str], dict[str, int]] = {}
    times: dict[str, list[float]] = {"tuning": [], "hold-out": []}
    cpu: dict[str, list[float]] = {"tuning": [], "hold-out": []}  # wall time suffers on a busy machine
    wrong_total = 0
    for repo, (folder, rev) in present.items():
        files = _git_files(mirrors / folder / "repo", rev)
        part = "hold-out" if repo in HOLDOUT else "tuning"
        for path, data in sorted(files.items()):
            if not re.search(r"\.(png|jpe?g|gif)$", path, re.I) or path in HEX_REAL:
                continue  # a hex board is measured by ``hex_part``
            kind = "overlay" if "intermediare" in path else "board" if _whole_board(path) else "no board"
            label = _label(path, files)
            start, start_cpu = time.perf_counter(), time.process_time()
            try:
                found, reasons = checked(detect(decode(data, path)))  # as ``flow import`` does
                outcome = "refused" if reasons else "accepted"
            except InputError:
                found, outcome = None, "refused"
            times[part].append(time.perf_counter() - start)
            cpu[part].append(time.process_time() - start_cpu)
            if outcome == "accepted" and found is not None:
                if label is None:
                    outcome = "unlabelled"
                elif (
                    label != (found.cols, found.rows)
                    or found.walls
                    or found.holes
                    or found.bridges != BRIDGES.get(path, ())
                ):
                    outcome = "WRONG"
                    wrong_total += 1
                    print(
                        f"WRONG {repo} {path}: read {found.cols}x{found.rows} with bridges {list(found.bridges)},"
                        f" label {label[0]}x{label[1]}"
                    )
                else:
                    outcome = "right"
            counts = rows.setdefault((part, f"{repo} ({kind})"), {})
            counts[outcome] = counts.get(outcome, 0) + 1
    print("real screenshots (decode + detect + check, in-process):")
    for (part, source), counts in sorted(rows.items()):
        n = sum(counts.values())
        right = counts.get("right", 0)
        print(
            f"  {part:>8} {source:<58} {n:4} images: right {right:4} ({100 * right / n:5.1f} %), "
            f"refused {counts.get('refused', 0):4}, WRONG {counts.get('WRONG', 0):2}, "
            f"unlabelled {counts.get('unlabelled', 0):2}"
        )
    for part in times:
        for what, spent in (("wall", sorted(times[part])), ("CPU", sorted(cpu[part]))):
            if spent:
                print(
                    f"  {part}: {len(spent)} images, {what} time median {1000 * statistics.median(spent):.0f} ms, "
                    f"90th {1000 * spent[int(0.9 * (len(spent) - 1))]:.0f} ms, worst {1000 * spent[-1]:.0f} ms"
                )
    return wrong_total


# ---- hex boards (Flow Free: Hexes) --------------------------------------------------------------------

# The one real Flow Free: Hexes screenshot known (samgoldman/FlowSolver, no licence: read from the
# fetched mirror, never copied). Labelled by eye: each pair's dot centres in the picture's pixels
# (flat-topped hexagons, 22 cells in 5 columns of 4, 5, 4, 5, 4; letters as drawn on the dots).
HEX_REAL = {
    "puzzles/hex/Classic5x5_1.jpg": (
        22,
        {
            "A": ((228, 440), (228, 903)),
            "B": ((627, 670), (492, 1057)),
            "C": ((95, 517), (228, 1057)),
            "D": ((492, 440), (360, 980)),
            "E": ((627, 517), (492, 903)),
        },
    )
}


def _hex_exports() -> Iterator[tuple[str, bytes, FlowPuzzle]]:
    """This program's own diagrams of hex boards: the hex sample and a shaped board with a hole
    inside, light and dark, with and without the solution's pipes."""
    from PySide6.QtGui import QGuiApplication

    from solvers.flow.variants import generate_variant
    from workbench.export import ExportOptions, export

    _app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 (keeps Qt alive)
    sample = PLUGIN.parse(read_text(ROOT / "assets" / "flow" / "variants" / "variant_hex.txt"))
    shape = FlowPuzzle(6, 7, FlowPuzzle.empty(6, 7).cells, hex=True)
    for cell in ((2, 3), (0, 6), (5, 0), (1, 6), (3, 6)):
        shape = shape.with_cell(*cell, "#")
    shaped = generate_variant(7, 6, "hex", seed=5, shape=shape).puzzle
    with tempfile.TemporaryDirectory() as tmp:
        for title, puzzle in (("variant_hex", sample), ("shaped", shaped)):
            solution = next(iter(PLUGIN.solve(puzzle, limit=1)))
            for palette in ("light", "dark"):
                for solved in (False, True):
                    out = Path(tmp) / "out.png"
                    export(
                        PLUGIN.draw(puzzle, solution if solved else None), out, ExportOptions(palette=palette)
                    )
                    yield f"export {title} {palette}{' solved' * solved}", out.read_bytes(), puzzle


def _real_hex() -> Iterator[tuple[str, bytes, tuple[int, dict[str, tuple[tuple[int, int], ...]]]]]:
    mirrors = Path(os.environ.get("FLOW_SHOTS_MIRRORS", "/work/.mirror"))
    git = mirrors / "samgoldman+FlowSolver" / "repo"
    if not git.is_dir():
        print(f"real hex screenshot: no samgoldman/FlowSolver mirror under {mirrors}; skipped")
        return
    files = _git_files(git, "HEAD")
    for path, label in HEX_REAL.items():
        if path in files:
            yield f"real {path}", files[path], label


def _real_hex_misread(found: Detection, label: tuple[int, dict[str, tuple[tuple[int, int], ...]]]) -> str:
    cells, pairs = label
    if not found.hex:
        return "not read as a hex board"
    a, b, c, d, e, f = found.hex_frame
    board = found.rows * found.cols - len(found.holes)
    if board != cells:
        return f"{board} cells read, {cells} in the picture"
    pitch = float((a * a + d * d) ** 0.5)

    def near(cell: tuple[int, int], spot: tuple[int, int]) -> bool:
        x, y = model_centre(*cell)
        return ((a * x + b * y + c - spot[0]) ** 2 + (d * x + e * y + f - spot[1]) ** 2) ** 0.5 < 0.25 * pitch

    read = list(found.endpoints.values())
    for spots in pairs.values():
        if not any(len(v) == 2 and all(any(near(cell, s) for cell in v) for s in spots) for v in read):
            return f"the pair at {spots} was not read"
    return "" if len(read) == len(pairs) else f"{len(read)} colours read, {len(pairs)} in the picture"


def hex_part(subset: bool = False) -> dict[str, int]:
    """Hex boards: synthetic screenshots in the app's Hexes look, this program's own hex diagrams
    and the real Hexes screenshot, each decoded, detected and checked as ``flow import`` does.
    Prints counts and times; returns the counts (right, refused, WRONG)."""
    counts = {"right": 0, "refused": 0, "WRONG": 0}
    wall: list[float] = []
    cpu: list[float] = []

    def judge(name: str, data: bytes, misread: Callable[[Detection], str]) -> None:
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            found = detect(decode(data, name))
        except InputError as exc:
            found, why = None, str(exc)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        if found is not None:
            found, reasons = checked(found)
            why = reasons[0] if reasons else ""
            wrong = misread(found)
            if wrong and not why:
                counts["WRONG"] += 1
                print(f"WRONG {name}: {wrong}")
                return
        if why:
            counts["refused"] += 1
            print(f"refused {name}: {why}")
        else:
            counts["right"] += 1

    for case in (make_hex_case(spec) for spec in hex_specs(subset)):
        judge(case.name, case.data, lambda found, case=case: hex_misread(found, case.scene, case.centres))
    for name, data, puzzle in _hex_exports():
        judge(
            name,
            data,
            lambda found, puzzle=puzzle: "" if to_puzzle(found)[0] == puzzle else "not the board drawn",
        )
    for name, data, label in _real_hex():
        judge(name, data, lambda found, label=label: _real_hex_misread(found, label))
    n = sum(counts.values())
    print(
        f"hex boards: {n} images: right {counts['right']}, refused {counts['refused']}, WRONG {counts['WRONG']}"
    )
    for what, spent in (("wall", sorted(wall)), ("CPU", sorted(cpu))):
        print(
            f"  decode + detect, {what} time: median {1000 * statistics.median(spent):.0f} ms, "
            f"worst {1000 * spent[-1]:.0f} ms"
        )
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--subset", action="store_true", help="only the CI subset of the synthetic set")
    ap.add_argument("--save-failures", type=Path, default=None)
    ap.add_argument("--real-only", action="store_true", help="only the real screenshots")
    ap.add_argument("--hex-only", action="store_true", help="only the hex boards")
    args = ap.parse_args()
    if args.real_only:
        return 1 if real_screenshots() else 0
    if args.hex_only:
        return 1 if hex_part(args.subset)["WRONG"] else 0
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
    wrong = real_screenshots()
    hexes = hex_part(args.subset)
    return 0 if all(r[2] for r in rows) and not wrong and not hexes["WRONG"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
