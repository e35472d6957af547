"""Boards in the style of published (hand-made) Numberlink puzzles, for benchmarks and tests.

Published puzzles have few numbers, long paths that wind across open areas, and an answer that
fills the board. The construction: a random cover of the grid by few long paths, none touching
itself (``generate._random_cover``, asked for about one pair per ``cells_per_pair`` cells); its
endpoints are the puzzle. The cover is a solution under all three rule sets (designed, game rules,
Numberlink), so every board is solvable by construction, and the cover is returned with it.

``unique_under`` ("designed", "strict" or "numberlink") additionally splits a path where the
solver finds a second answer under that rule set until the answer is unique there (as published
puzzles are under Numberlink rules). Each split adds one pair, so this is meant for small boards;
it gives up (``InputError``) after ``max_pairs`` pairs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.flow.generate import MIN_PATH, _puzzle_of, _random_cover
from solvers.flow.model import LETTERS, Cell, FlowPuzzle
from solvers.flow.solve import solve

GENERATOR = "solvers/flow/handmade.py handmade_board"


@dataclass(frozen=True)
class HandmadeBoard:
    puzzle: FlowPuzzle
    paths: tuple[tuple[Cell, ...], ...]  # the construction: a designed answer that fills the board
    seed: int
    unique_under: str | None  # the rule set the answer was made unique under, if any


def handmade_board(
    cols: int,
    rows: int,
    seed: int,
    *,
    cells_per_pair: tuple[int, int] = (28, 42),
    unique_under: str | None = None,
    max_pairs: int = len(LETTERS),
    cancel: CancelToken | None = None,
) -> HandmadeBoard:
    """A ``cols`` x ``rows`` board with about one pair per 28..42 cells (at least 3 pairs)."""
    if not (4 <= rows <= 100 and 4 <= cols <= 100):
        raise InputError(f"hand-made boards are 4..100 cells each way, got {cols}x{rows}")
    if unique_under not in (None, "designed", "strict", "numberlink"):
        raise InputError(f"unknown rule set {unique_under!r} (use designed, strict or numberlink)")
    rng = random.Random(seed)
    area = rows * cols
    target = min(len(LETTERS), max(3, round(area / rng.uniform(*cells_per_pair))))
    for _ in range(50):
        cover = _random_cover(rows, cols, target, rng, cancel)
        if cover is None:
            continue
        paths: list[list[Cell]] | None = cover
        if unique_under is not None:
            paths = _split_until_unique(rows, cols, cover, unique_under, rng, cancel, max_pairs)
        if paths is not None:
            return HandmadeBoard(
                _puzzle_of(rows, cols, paths), tuple(tuple(p) for p in paths), seed, unique_under
            )
    raise InputError(f"no {cols}x{rows} hand-made board found for seed {seed}")


def _split_until_unique(
    rows: int,
    cols: int,
    paths: list[list[Cell]],
    rules: str,
    rng: random.Random,
    cancel: CancelToken | None,
    max_pairs: int,
) -> list[list[Cell]] | None:
    """Split the cover's paths where another answer differs from it, until none is left."""
    while len(paths) <= max_pairs:
        puzzle = _puzzle_of(rows, cols, paths)
        ours = {cell: i for i, p in enumerate(paths) for cell in p}
        letter = {cell: puzzle.at(*paths[i][0]) for cell, i in ours.items()}
        other = None
        for found in solve(puzzle, limit=2, rules=rules, cancel=cancel):
            owner = {tuple(cell): ch for ch, cells in found.extras["paths"].items() for cell in cells}
            if any(owner.get(cell) != ch for cell, ch in letter.items()):
                other = owner
                break
        if other is None:
            return paths  # the cover is the only answer
        # A cell the other answer leaves empty or gives another colour: cut our path there.
        diff = [cell for cell, ch in letter.items() if other.get(cell) != ch]
        rng.shuffle(diff)
        for cell in diff:
            i = ours[cell]
            p = paths[i]
            j = p.index(cell)
            cut = next((k for k in (j, j + 1) if MIN_PATH <= k <= len(p) - MIN_PATH), None)
            if cut is not None:
                paths = [*paths[:i], p[:cut], p[cut:], *paths[i + 1 :]]
                break
        else:
            return None  # only short paths differ
    return None
