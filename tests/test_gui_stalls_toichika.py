"""Toichika's fast board drawing (cached frame and arrows, only marked cells visited) draws exactly
what the straightforward drawing did, on random boards, entries, solutions and explanation overlays.

The reference below is the drawing as it was before it was made fast (issue 15: a 100x80 board
took 90-280 ms per edit to draw); it is kept here only to compare against."""

from __future__ import annotations

import random
from typing import Any

import pytest

from solvers.common.display import Circle, DisplayList, GridGeometry, Line, Rect, Text
from solvers.common.protocol import Solution
from solvers.toichika import PLUGIN
from solvers.toichika.drawing import CELL, MARGIN, arrow_items, live_errors
from solvers.toichika.model import DELTA, DIRECTIONS, DOT, QUESTION, Toichika
from solvers.toichika.rules import check


def reference_live_errors(p: Toichika, entries: tuple[int, ...]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for v in check(p, entries).violations:
        if v.code == "bkNoNum":
            continue
        if v.code == "arAlone":
            i = p.index(*v.cells[0])
            a = p.givens[i] if p.givens[i] in DIRECTIONS else entries[i]
            if a not in DIRECTIONS:
                continue
            settled = True
            for j in p.ray(i, a):
                if p.givens[j] or entries[j] in DIRECTIONS:
                    break
                if entries[j] != DOT:
                    settled = False
                    break
            if not settled:
                continue
        out.extend(v.cells)
    return out


def reference_draw_board(
    p: Toichika,
    arrows: list[int] | None = None,
    arrow_role: str = "solution",
    entries: tuple[int, ...] | None = None,
    overlay: Any = None,
) -> DisplayList:
    geom = GridGeometry(MARGIN, MARGIN, CELL, p.rows, p.cols)
    dl = DisplayList(2 * MARGIN + p.cols * CELL, 2 * MARGIN + p.rows * CELL, grid=geom, title="Toichika")
    dl.add(Rect(MARGIN, MARGIN, p.cols * CELL, p.rows * CELL, fill="cell"))
    over = overlay if isinstance(overlay, dict) else {}

    def fill(cells: Any, role: str) -> None:
        for r, c in sorted(set(map(tuple, cells))):
            if 0 <= r < p.rows and 0 <= c < p.cols:
                dl.add(Rect(MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL, fill=role))

    errors: list[tuple[int, int]] = list(over.get("errors", []))
    if entries is not None and any(entries):
        errors.extend(reference_live_errors(p, entries))
    fill(over.get("used", []), "highlight-fill")
    fill(errors, "error-fill")
    for r, c in sorted(set(map(tuple, over.get("changed", [])))):
        dl.add(
            Rect(MARGIN + c * CELL + 2, MARGIN + r * CELL + 2, CELL - 4, CELL - 4, stroke="accent", width=2.0)
        )
    for r in range(1, p.rows):
        y = MARGIN + r * CELL
        dl.add(Line((MARGIN, y), (MARGIN + p.cols * CELL, y), "grid", 1.0))
    for c in range(1, p.cols):
        x = MARGIN + c * CELL
        dl.add(Line((x, MARGIN), (x, MARGIN + p.rows * CELL), "grid", 1.0))
    bold = 3.0
    for r in range(p.rows):
        for c in range(p.cols - 1):
            if p.wall_right(r, c):
                x = MARGIN + (c + 1) * CELL
                dl.add(Line((x, MARGIN + r * CELL), (x, MARGIN + (r + 1) * CELL), "wall", bold, cap="square"))
    for r in range(p.rows - 1):
        for c in range(p.cols):
            if p.wall_below(r, c):
                y = MARGIN + (r + 1) * CELL
                dl.add(Line((MARGIN + c * CELL, y), (MARGIN + (c + 1) * CELL, y), "wall", bold, cap="square"))
    dl.add(Rect(MARGIN, MARGIN, p.cols * CELL, p.rows * CELL, stroke="wall", width=bold))
    state = over.get("state")
    for i, g in enumerate(p.givens):
        r, c = divmod(i, p.cols)
        cx, cy = geom.center(r, c)
        if g in DIRECTIONS:
            dl.extend(arrow_items(g, cx, cy, CELL, "given"))
            continue
        shown = arrows[i] if arrows is not None else 0
        if g == QUESTION and shown not in DIRECTIONS:
            dl.add(Text(cx, cy, "?", size=CELL * 0.6, color="given", bold=True))
            continue
        if shown in DIRECTIONS:
            dl.extend(arrow_items(shown, cx, cy, CELL, arrow_role))
            continue
        if entries is not None and entries[i] == DOT and arrows is not None and arrow_role == "entry":
            dl.add(Circle(cx, cy, CELL * 0.08, fill="entry"))
            continue
        if state is not None:
            mask = state[i]
            dirs = [d for d in DIRECTIONS if mask >> d & 1]
            if mask == 1:
                dl.add(Circle(cx, cy, CELL * 0.07, fill="muted"))
            elif len(dirs) == 1 and not mask & 1:
                dl.extend(arrow_items(dirs[0], cx, cy, CELL, "solution"))
            else:
                for d in dirs:
                    dr, dc = DELTA[d]
                    dl.extend(
                        arrow_items(d, cx + dc * CELL * 0.28, cy + dr * CELL * 0.28, CELL * 0.3, "mark")
                    )
    return dl


def reference_draw(
    puzzle: Toichika, solution: Solution | None = None, entries: Any = None, overlay: Any = None
):
    """The plug-in's draw dispatch, over the reference board drawing."""
    if isinstance(overlay, dict) and "state" in overlay:
        return reference_draw_board(puzzle, None, "solution", None, overlay)
    if solution is not None and solution.data is not None:
        return reference_draw_board(puzzle, list(solution.data), "solution", None, overlay)
    if entries is not None:
        shown = [e if e in DIRECTIONS else 0 for e in entries]
        return reference_draw_board(puzzle, shown, "entry", tuple(entries), overlay)
    return reference_draw_board(puzzle, None, "solution", None, overlay)


def random_board(rng: random.Random, rows: int, cols: int) -> Toichika:
    density = rng.choice([0.0, 0.2, 0.5, 0.9])
    vwalls = tuple(rng.random() < density for _ in range(rows * (cols - 1)))
    hwalls = tuple(rng.random() < density for _ in range(rows * cols - cols))
    givens = tuple(rng.choice([0] * 12 + [1, 2, 3, 4, QUESTION]) for _ in range(rows * cols))
    return Toichika(rows, cols, vwalls, hwalls, givens)


def random_cells(rng: random.Random, rows: int, cols: int, n: int) -> list[tuple[int, int]]:
    # some out of range and duplicated, as a stale overlay may hold
    return [(rng.randrange(-1, rows + 1), rng.randrange(-1, cols + 1)) for _ in range(n)]


@pytest.mark.parametrize("seed", range(16))
def test_fast_draw_equals_reference(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 14), rng.randint(1, 14)
    p = random_board(rng, rows, cols)
    n = rows * cols
    entries = tuple(rng.choice([0, 0, 0, 1, 2, 3, 4, DOT]) for _ in range(n))
    arrows = tuple(rng.choice([0, 0, 1, 2, 3, 4]) for _ in range(n))
    overlays: list[Any] = [
        None,
        "not a dict",
        {"used": random_cells(rng, rows, cols, 4), "changed": random_cells(rng, rows, cols, 3)},
        {"errors": random_cells(rng, rows, cols, 3)},
        {"state": [rng.randrange(32) for _ in range(n)], "used": random_cells(rng, rows, cols, 2)},
    ]
    for overlay in overlays:
        for solution, shown in [
            (None, None),
            (None, entries),
            (None, (0,) * n),
            (Solution(grid=[], data=arrows), None),
        ]:
            fast = PLUGIN.draw(p, solution, shown, overlay)
            slow = reference_draw(p, solution, shown, overlay)
            assert fast.signature() == slow.signature(), (seed, overlay, solution is not None, shown)
    assert live_errors(p, entries) == reference_live_errors(p, entries)


def test_fast_draw_follows_edits_of_a_big_board() -> None:
    """The caches are keyed on the board's immutable values: every edit shows up."""
    rng = random.Random(7)
    p = random_board(rng, 30, 24)
    entries = [0] * p.size
    for _ in range(12):
        what = rng.randrange(3)
        if what == 0:
            p = p.with_wall(rng.choice("vh"), rng.randrange(29), rng.randrange(23), rng.random() < 0.5)
        elif what == 1:
            p = p.with_given(rng.randrange(30), rng.randrange(24), rng.choice([0, 1, 2, 3, 4, QUESTION]))
        else:
            entries[rng.randrange(p.size)] = rng.choice([0, 1, 2, 3, 4, DOT])
        fast = PLUGIN.draw(p, entries=tuple(entries))
        assert fast.signature() == reference_draw(p, entries=tuple(entries)).signature()


def reference_region_of(p: Toichika) -> tuple[int, ...]:
    """Flood fill in row-major order: the numbering the vectorised version must reproduce."""
    region = [-1] * p.size
    count = 0
    for start in range(p.size):
        if region[start] >= 0:
            continue
        region[start] = count
        stack = [start]
        while stack:
            i = stack.pop()
            r, c = divmod(i, p.cols)
            for j, open_ in (
                (i - p.cols, r > 0 and not p.wall_below(r - 1, c)),
                (i + p.cols, r + 1 < p.rows and not p.wall_below(r, c)),
                (i - 1, c > 0 and not p.wall_right(r, c - 1)),
                (i + 1, c + 1 < p.cols and not p.wall_right(r, c)),
            ):
                if open_ and region[j] < 0:
                    region[j] = count
                    stack.append(j)
        count += 1
    return tuple(region)


@pytest.mark.parametrize("seed", range(30))
def test_countries_match_a_flood_fill(seed: int) -> None:
    rng = random.Random(seed)
    p = random_board(rng, rng.randint(1, 30), rng.randint(1, 30))
    assert p.region_of == reference_region_of(p)
    assert all(isinstance(k, int) for k in p.region_of)


def test_countries_of_a_spiral() -> None:
    """One long winding country (many hooking rounds) and single-row and single-column boards."""
    from benchmarks.gui_stall_bench import toichika_board

    n = 21
    labels = [[0] * n for _ in range(n)]
    for r in range(1, n - 1, 2):  # a serpentine: walls between alternate row pairs, open at one end
        labels[r] = [1] * n
        labels[r][0 if r % 4 == 1 else n - 1] = 0
    p = Toichika.from_labels(labels)
    assert p.region_of == reference_region_of(p)
    for board in (
        toichika_board(1, 9),
        toichika_board(9, 1),
        toichika_board(1, 1),
        toichika_board(40, 30, 3, 1),
    ):
        assert board.region_of == reference_region_of(board)


def reference_write_text(p: Toichika) -> str:
    lines = ["toichika", "+" + "-+" * p.cols]
    for r in range(p.rows):
        row = ["|"]
        for c in range(p.cols):
            g = p.given(r, c)
            row.append("?" if g == QUESTION else {1: "^", 2: "v", 3: "<", 4: ">"}.get(g, "."))
            row.append("|" if c + 1 == p.cols or p.wall_right(r, c) else " ")
        lines.append("".join(row))
        if r + 1 < p.rows:
            lines.append("+" + "".join(("-" if p.wall_below(r, c) else " ") + "+" for c in range(p.cols)))
    lines.append("+" + "-+" * p.cols)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(20))
def test_native_text_matches_the_cell_by_cell_writer(seed: int) -> None:
    from solvers.toichika.text_format import read_text, write_text

    rng = random.Random(seed)
    p = random_board(rng, rng.randint(1, 20), rng.randint(1, 20))
    assert write_text(p) == reference_write_text(p)
    assert read_text(write_text(p)) == p
