"""Boards as a person draws them: cut a random Hamiltonian path of the grid into pieces.

The ends of each piece become a colour's endpoints. Such a board always has a solution under the
game rules (the pieces themselves), but usually none under the designed convention, since the
pieces run alongside themselves. Used by the benchmark and the tests of strict-rule solving.

The Hamiltonian path is randomised by "backbite" moves: take an end of the path, pick a grid
neighbour of it that lies on the path, join the end to it and reverse the part in between; the
result is again a Hamiltonian path. Many moves from a zig-zag start mix the path well enough for a
benchmark (the distribution is not exactly uniform, which does not matter here).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solvers.common.errors import InputError
from solvers.flow.model import EMPTY, MAX_NUMBER, MNEMONIC_ORDER, Cell, FlowPuzzle


@dataclass(frozen=True)
class PathBoard:
    puzzle: FlowPuzzle
    pieces: tuple[tuple[Cell, ...], ...]  # a known solution under the game rules, one path per colour


def hamiltonian_path(rows: int, cols: int, rng: random.Random, moves: int | None = None) -> list[Cell]:
    """A random Hamiltonian path of the rows x cols grid (as cells in path order)."""
    path: list[Cell] = [(r, c if r % 2 == 0 else cols - 1 - c) for r in range(rows) for c in range(cols)]
    n = len(path)
    if n < 3:
        return path
    where = {cell: i for i, cell in enumerate(path)}
    steps = moves if moves is not None else 20 * n
    for _ in range(steps):
        if rng.random() < 0.5:  # work on the front: reverse, bite, reverse back is the same move
            path.reverse()
            where = _reindex(path, where, 0, n)
        r, c = path[-1]
        options = [
            (r + dr, c + dc)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        ]
        target = rng.choice(options)
        i = where[target]
        if i == n - 2:
            continue  # the end's own predecessor: nothing changes
        # Join the end to path[i]: path[i+1:] reversed follows path[i].
        path[i + 1 :] = path[i + 1 :][::-1]
        where = _reindex(path, where, i + 1, n)
    return path


def _reindex(path: list[Cell], where: dict[Cell, int], start: int, stop: int) -> dict[Cell, int]:
    for j in range(start, stop):
        where[path[j]] = j
    return where


def random_path_board(
    rows: int, cols: int, pieces: int, seed: int | None = None, min_length: int = 2
) -> PathBoard:
    """A board of ``pieces`` colours cut from one random Hamiltonian path (cols x rows cells)."""
    if not (1 <= rows <= 200 and 1 <= cols <= 200):
        raise InputError(f"board size must be 1..200 in each direction, got {cols}x{rows}")
    n = rows * cols
    if not (1 <= pieces <= len(MNEMONIC_ORDER) + MAX_NUMBER - 9) or pieces * min_length > n:
        raise InputError(f"cannot cut {n} cells into {pieces} pieces of at least {min_length} cells")
    rng = random.Random(seed)
    path = hamiltonian_path(rows, cols, rng)
    # Random cut points with every piece at least min_length long.
    spare = n - pieces * min_length
    extra = sorted(rng.randint(0, spare) for _ in range(pieces - 1))
    lengths = [b - a + min_length for a, b in zip([0, *extra], [*extra, spare], strict=True)]
    cells = [EMPTY] * n
    out: list[tuple[Cell, ...]] = []
    start = 0
    for k, length in enumerate(lengths):
        piece = tuple(path[start : start + length])
        start += length
        # The 62 letters first, then the numbers 10..999 (1..9 are letters already).
        letter = MNEMONIC_ORDER[k] if k < len(MNEMONIC_ORDER) else str(k - len(MNEMONIC_ORDER) + 10)
        for r, c in (piece[0], piece[-1]):
            cells[r * cols + c] = letter
        out.append(piece)
    return PathBoard(FlowPuzzle(rows, cols, tuple(cells)), tuple(out))
