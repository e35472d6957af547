"""Generator: puzzles of the asked size and colour count whose designed solution is unique."""

from __future__ import annotations

import random

import pytest
from flow_checker import brute_force_count, verify

from solvers.common.cancel import CancelToken
from solvers.flow import PLUGIN
from solvers.flow.generate import MIN_PATH, _random_cover, generate
from solvers.flow.solve import solve


def _paths_json(made) -> dict[str, list[list[int]]]:
    p = made.puzzle
    return {p.at(*path[0]): [list(c) for c in path] for path in made.paths}


def _grid(made) -> list[str]:
    owner = {cell: made.puzzle.at(*path[0]) for path in made.paths for cell in path}
    return ["".join(owner[(r, c)] for c in range(made.puzzle.cols)) for r in range(made.puzzle.rows)]


def test_random_covers_never_touch_themselves() -> None:
    rng = random.Random(3)
    for rows, cols in [(5, 5), (6, 9), (12, 7), (15, 15)]:
        cover = _random_cover(rows, cols, max(2, rows), rng)
        assert cover is not None
        cells = sorted(c for p in cover for c in p)
        assert cells == [(r, c) for r in range(rows) for c in range(cols)]
        assert all(len(p) >= MIN_PATH for p in cover)
        letters = [chr(65 + i) if i < 26 else chr(97 + i - 26) for i in range(len(cover))]
        grid = [["."] * cols for _ in range(rows)]
        ends = [["."] * cols for _ in range(rows)]
        for ch, path in zip(letters, cover, strict=True):
            for r, c in path:
                grid[r][c] = ch
            for r, c in (path[0], path[-1]):
                ends[r][c] = ch
        verify(
            ["".join(row) for row in ends],
            ["".join(row) for row in grid],
            {ch: [list(c) for c in p] for ch, p in zip(letters, cover, strict=True)},
            designed=True,
        )


@pytest.mark.parametrize(
    ("cols", "rows", "colours"), [(5, 5, 5), (7, 7, 6), (6, 9, 6), (9, 9, None), (12, 8, 9)]
)
def test_generated_puzzles_are_unique(cols: int, rows: int, colours: int | None) -> None:
    made = generate(cols, rows, colours, seed=11)
    p = made.puzzle
    assert (p.rows, p.cols) == (rows, cols)
    if colours is not None:
        assert len(p.colours) == colours
    verify(p.row_strings(), _grid(made), _paths_json(made), designed=True)
    found = list(solve(p, limit=2, rules="designed", cancel=CancelToken(timeout=60)))
    assert len(found) == 1
    assert PLUGIN.count(p).status() == "unique"


def test_small_generated_puzzles_unique_by_brute_force() -> None:
    for seed in range(6):
        made = generate(4, 4, 3, seed=seed)
        assert brute_force_count(made.puzzle.row_strings(), designed=True) == 1


def test_generator_ci_size() -> None:
    # Scaled-down stand-in for the 50x50 run: non-square, 40 colours.
    made = generate(30, 20, 40, seed=3)
    assert (made.puzzle.rows, made.puzzle.cols, len(made.puzzle.colours)) == (20, 30, 40)
    found = list(solve(made.puzzle, limit=2, rules="designed"))
    assert len(found) == 1
    verify(made.puzzle.row_strings(), found[0].grid, found[0].extras["paths"], designed=True)


@pytest.mark.slow
@pytest.mark.parametrize(("cols", "rows", "colours"), [(50, 50, None), (60, 50, 62)])
def test_generator_large(cols: int, rows: int, colours: int | None) -> None:
    made = generate(cols, rows, colours, seed=1)
    assert len(made.puzzle.colours) == (colours or 45)
    found = list(solve(made.puzzle, limit=2, rules="designed", cancel=CancelToken(timeout=120)))
    assert len(found) == 1
    verify(made.puzzle.row_strings(), found[0].grid, found[0].extras["paths"], designed=True)


def test_generator_cancels_promptly() -> None:
    import threading
    import time

    from solvers.common.cancel import Cancelled

    token = CancelToken()
    threading.Timer(0.2, token.cancel).start()
    start = time.process_time()  # CPU time: the generator stopped, however busy the machine
    with pytest.raises(Cancelled):
        generate(50, 50, None, seed=1, cancel=token)
    assert time.process_time() - start < 1.5


def test_shipped_samples_are_unique_under_designed_rules() -> None:
    samples = PLUGIN.samples()
    assert len(samples) >= 5
    shapes = {(p.rows, p.cols) for _, p in samples}
    assert any(r != c for r, c in shapes)  # at least one non-square board
    for name, puzzle in samples:
        info: dict[str, object] = {}
        found = list(PLUGIN.solve(puzzle, limit=2, info=info))
        assert len(found) == 1 and info["rules"] == "designed", name
        verify(puzzle.row_strings(), found[0].grid, found[0].extras["paths"], designed=True)
