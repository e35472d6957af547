"""A deliberately simple second implementation of the Tokyo Doves rules (tests only).

Plain dicts of (row, col) per dove and literal rule checks, written straight from rules.md §1 without
bitboards, tables or normalisation tricks, so that its perft counts can pin the fast engine down.
"""

from __future__ import annotations

from functools import cache

Cells = dict[int, tuple[int, int]]
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
ORTH = [(-1, 0), (1, 0), (0, -1), (0, 1)]
DIAG = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
KNIGHT = [(-2, -1), (-2, 1), (2, -1), (2, 1), (-1, -2), (1, -2), (-1, 2), (1, 2)]
STEPS = {0: KING, 1: KING, 2: ORTH, 3: DIAG, 5: KNIGHT}


def normalise(cells: Cells) -> tuple[int, ...]:
    minr = min(r for r, _ in cells.values())
    minc = min(c for _, c in cells.values())
    return tuple((cells[i][0] - minr) * 4 + cells[i][1] - minc if i in cells else -1 for i in range(12))


def to_cells(squares: tuple[int, ...]) -> Cells:
    return {i: divmod(s, 4) for i, s in enumerate(squares) if s >= 0}


def fits(cells: Cells) -> bool:
    rows = [r for r, _ in cells.values()]
    cols = [c for _, c in cells.values()]
    return max(rows) - min(rows) <= 3 and max(cols) - min(cols) <= 3


def touching(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def nobody_isolated(cells: Cells) -> bool:
    return all(any(touching(p, q) for j, q in cells.items() if j != i) for i, p in cells.items())


def boss_surrounded(cells: Cells, boss: int) -> bool:
    rows = [r for r, _ in cells.values()]
    cols = [c for _, c in cells.values()]
    occupied = set(cells.values())
    r, c = cells[boss]
    for dr, dc in ORTH:
        nr, nc = r + dr, c + dc
        if (nr, nc) in occupied:
            continue
        if dr and max(rows) - min(rows) == 3 and not min(rows) <= nr <= max(rows):
            continue  # wall above/below a full-height group
        if dc and max(cols) - min(cols) == 3 and not min(cols) <= nc <= max(cols):
            continue
        return False
    return True


def result(cells: Cells, mover: int) -> int:
    """1 mover wins, -1 mover loses (own boss, or both bosses: mover loses), 0 ongoing."""
    own = boss_surrounded(cells, mover)
    enemy = boss_surrounded(cells, 1 - mover)
    if own:
        return -1
    return 1 if enemy else 0


def actions(
    squares: tuple[int, ...], side: int, allow_remove: bool = True
) -> list[tuple[tuple, tuple[int, ...], int]]:
    """[((kind, dove, target), child squares, result)] with targets in the parent's frame."""
    cells = to_cells(squares)
    occupied = set(cells.values())
    out = []

    def emit(action: tuple, new: Cells) -> None:
        out.append((action, normalise(new), result(new, side)))

    own = [cells[i] for i in range(side, 12, 2) if i in cells]
    enemy_boss = cells[1 - side]
    for dove in range(side, 12, 2):
        if dove in cells:
            continue
        for r in range(-4, 8):
            for c in range(-4, 8):
                if (r, c) in occupied or not any(touching((r, c), p) for p in own):
                    continue
                if abs(r - enemy_boss[0]) + abs(c - enemy_boss[1]) == 1:
                    continue
                new = dict(cells)
                new[dove] = (r, c)
                if fits(new):
                    emit(("put", dove, (r, c)), new)
    for dove in range(side, 12, 2):
        if dove not in cells:
            continue
        r, c = cells[dove]
        targets = []
        if dove >> 1 == 4:
            for dr, dc in ORTH:
                k = 1
                while (r + k * dr, c + k * dc) not in occupied and k < 8:
                    targets.append((r + k * dr, c + k * dc))
                    k += 1
        else:
            targets = [(r + dr, c + dc) for dr, dc in STEPS[dove >> 1] if (r + dr, c + dc) not in occupied]
        for t in targets:
            new = dict(cells)
            new[dove] = t
            if fits(new) and nobody_isolated(new):
                emit(("move", dove, t), new)
    if allow_remove:
        for dove in range(side + 2, 12, 2):
            if dove in cells:
                new = dict(cells)
                del new[dove]
                if nobody_isolated(new):
                    emit(("remove", dove, None), new)
    return out


@cache
def perft(squares: tuple[int, ...], side: int, depth: int) -> int:
    moves = actions(squares, side)
    if depth == 1:
        return len(moves)
    return sum(perft(child, 1 - side, depth - 1) for _, child, res in moves if res == 0)


def wins_within(squares: tuple[int, ...], side: int, plies: int) -> bool:
    """Plain minimax: can ``side`` force a surround of the enemy boss within ``plies``?"""
    moves = actions(squares, side)
    if any(res == 1 for _, _, res in moves):
        return True
    if plies < 3:
        return False
    return any(res == 0 and loses_within(child, 1 - side, plies - 1) for _, child, res in moves)


def loses_within(squares: tuple[int, ...], side: int, plies: int) -> bool:
    moves = actions(squares, side)
    if any(res == 1 for _, _, res in moves):
        return False
    return all(res == -1 or wins_within(child, 1 - side, plies - 1) for _, child, res in moves)
