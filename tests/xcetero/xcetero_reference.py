"""A second, deliberately simple X-ceter-O solver for the tests (shares no code with the module).

Plain Python move generation over tuples (board string + piece due), a breadth-first search from the
empty board, then a plain fixpoint iteration: every round recomputes every value from the previous
round's values until nothing changes. Slow-ish (seconds) but easy to trust.
"""

from __future__ import annotations

import numpy as np

LINES3 = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

# A state is (board, due): board is a 9-character string of '0'..'6' (0 = empty), due is 1..6.


def won(board: str, side_parity: int) -> bool:
    return any(all(board[s] != "0" and int(board[s]) % 2 == side_parity for s in line) for line in LINES3)


def finished(board: str, due: int) -> bool:
    """The player who just moved (owner of the previous piece) holds a line."""
    previous = (due - 2) % 6 + 1
    return won(board, previous % 2)


def moves(board: str, due: int, may_return: bool = False) -> list[tuple[str, int]]:
    if finished(board, due):
        return []
    piece = str(due)
    here = board.find(piece)
    out = []
    for square in range(9):
        if board[square] == "0" or (may_return and square == here):
            cells = list(board)
            if here >= 0:
                cells[here] = "0"
            cells[square] = piece
            out.append(("".join(cells), due % 6 + 1))
    return out


def explore(may_return: bool = False) -> tuple[list[tuple[str, int]], list[list[int]]]:
    start = ("0" * 9, 1)
    number = {start: 0}
    states = [start]
    children: list[list[int]] = []
    i = 0
    while i < len(states):
        kids = []
        for nxt in moves(*states[i], may_return):
            if nxt not in number:
                number[nxt] = len(states)
                states.append(nxt)
            kids.append(number[nxt])
        children.append(kids)
        i += 1
    return states, children


UNKNOWN = 10**6  # sentinel code; values are coded +n for WIN n, -n - 1 for LOSS n, UNKNOWN for draw


def fixpoint(children: list[list[int]]) -> np.ndarray:
    """Plain Jacobi iteration of the game values (draw = never settled)."""
    n = len(children)
    width = max(len(k) for k in children)
    kids = np.full((n, width), -1, dtype=np.int64)
    for i, k in enumerate(children):
        kids[i, : len(k)] = k
    has = kids >= 0
    terminal = ~has.any(axis=1)
    value = np.full(n, UNKNOWN, dtype=np.int64)
    value[terminal] = -1  # LOSS 0
    while True:
        child = np.where(has, value[np.maximum(kids, 0)], 0)
        child_loss = has & (child < 0)  # child's side to move loses: we win
        child_win = has & (child > 0) & (child != UNKNOWN)
        loss_dist = np.where(child_loss, -child - 1, UNKNOWN)
        win_dist = np.where(child_win, child, -1)
        new = np.full(n, UNKNOWN, dtype=np.int64)
        can_win = child_loss.any(axis=1)
        new[can_win] = loss_dist.min(axis=1)[can_win] + 1
        all_lose = ~can_win & ~terminal & (child_win | ~has).all(axis=1)
        new[all_lose] = -(win_dist.max(axis=1)[all_lose] + 1) - 1
        new[terminal] = -1
        if np.array_equal(new, value):
            return value
        value = new


SYMMETRY_PERMS = [
    (0, 1, 2, 3, 4, 5, 6, 7, 8),
    (2, 5, 8, 1, 4, 7, 0, 3, 6),
    (8, 7, 6, 5, 4, 3, 2, 1, 0),
    (6, 3, 0, 7, 4, 1, 8, 5, 2),
    (2, 1, 0, 5, 4, 3, 8, 7, 6),
    (0, 3, 6, 1, 4, 7, 2, 5, 8),
    (6, 7, 8, 3, 4, 5, 0, 1, 2),
    (8, 5, 2, 7, 4, 1, 6, 3, 0),
]  # board[perm[i]] read in order i: rotations and reflections of the square


def images(state: tuple[str, int]) -> list[tuple[str, int]]:
    board, due = state
    return [("".join(board[p] for p in perm), due) for perm in SYMMETRY_PERMS]


def symmetry_classes(states: list[tuple[str, int]]) -> int:
    return len({min(images(s)) for s in states})
