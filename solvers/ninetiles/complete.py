"""Complete a partial town: fill its empty positions with the unused tiles in every valid way.

Backtracking over the empty positions (row-major) with the edge-matching rule checked against
every placed neighbour; loops are checked when a town is full. Each tile is tried only in its
pictorially distinct direction digits (a road-less face is not tried in 4 identical turns).
"""

from __future__ import annotations

from collections.abc import Iterator

from solvers.common.cancel import CancelToken
from solvers.ninetiles.tiles import distinct_digits, face
from solvers.ninetiles.town import EMPTY, POSITIONS, Town, problems

_NEIGHBOURS = []  # per position: (neighbour, my edge, its edge)
for _p in range(POSITIONS):
    _r, _c = divmod(_p, 3)
    row = []
    if _r > 0:
        row.append((_p - 3, 0, 2))
    if _c > 0:
        row.append((_p - 1, 1, 3))
    if _r < 2:
        row.append((_p + 3, 2, 0))
    if _c < 2:
        row.append((_p + 1, 3, 1))
    _NEIGHBOURS.append(tuple(row))


def _mask(tile: int, d: int) -> int:
    return face(tile, d // 4).edge_mask(d % 4)


def completions(town: Town, cancel: CancelToken | None = None) -> Iterator[Town]:
    """Every valid complete town that keeps the given positions (none if the givens clash)."""
    if any(pr.code in ("repeatedTile", "edgeMismatch") for pr in problems(town)):
        return
    tiles, dirs = list(town.tiles), list(town.dirs)
    masks = [(_mask(t, d) if t != EMPTY else -1) for t, d in zip(tiles, dirs, strict=False)]
    empty = [p for p in range(POSITIONS) if tiles[p] == EMPTY]
    unused = [t for t in range(POSITIONS) if t not in tiles]
    options = {t: [(d, _mask(t, d)) for d in distinct_digits(t)] for t in unused}
    nodes = 0

    def fits(p: int, m: int) -> bool:
        for q, mine, theirs in _NEIGHBOURS[p]:
            mq = masks[q]
            if mq >= 0 and ((m >> mine) & 1) != ((mq >> theirs) & 1):
                return False
        return True

    def search(k: int) -> Iterator[Town]:
        nonlocal nodes
        nodes += 1
        if cancel is not None and nodes % 512 == 0:
            cancel.raise_if_cancelled()
        if k == len(empty):
            full = Town(tuple(tiles), tuple(dirs))
            if not problems(full):
                yield full
            return
        p = empty[k]
        for t in unused:
            if t in tiles:
                continue
            for d, m in options[t]:
                if fits(p, m):
                    tiles[p], dirs[p], masks[p] = t, d, m
                    yield from search(k + 1)
            tiles[p], dirs[p], masks[p] = EMPTY, EMPTY, -1

    yield from search(0)
