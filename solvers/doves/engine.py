"""Numba rules engine: position codes, action generation, outcomes and perft.

The exact Win(n)/Lose(n) search built on it is ``search.py``.

A position is R1's compact code (the ``to_u64`` layout of rules.md §3): 4 zero bits, 12 presence
bits (bit 59 = dove 0), then a 4-bit square index (row * 4 + col of the minimal 4x4 window) per dove,
dove ``i`` at bits ``44 - 4 i``. Doves are ordered B b A a Y y M m T t H h, so ``i & 1`` is the
colour (0 red, 1 green) and ``i >> 1`` the kind. One integer per position means the search passes
plain ints and the transposition table keys on them directly.

Inside a node the code is decoded onto an 8x8 bitboard with the window at rows/cols 2..5. A legal
action lands within one square of another dove, so every landing square stays inside 1..6 (a knight
may *try* 0 or 7, which the isolation test then rejects) and nothing ever wraps. After the action the
group is re-encoded relative to its new bounding box, which is the "floating" 4x4 field.

Actions are ints ``kind * 1024 + dove * 64 + cell`` (kind 0 put, 1 move, 2 remove; cell on the 8x8
board of the parent's frame). Outcomes are seen from the mover: 0 game goes on, 1 mover wins,
-1 mover loses, 2 draw (only with the "draw" judge for two surrounded bosses).
"""

from __future__ import annotations

import numpy as np

from solvers.common.kernels import njit

PUT, MOVE, REMOVE = 0, 1, 2
ONGOING, MOVER_WINS, MOVER_LOSES, DRAW = 0, 1, -1, 2
JUDGE_MOVER_LOSES, JUDGE_MOVER_WINS, JUDGE_DRAW = 0, 1, 2
MAX_ACTIONS = 160  # generous: R1 bounds forward actions by 64
MAX_PLY = 64
KING, BROTHER, RAZOR, PEASHOOTER, TOTSU, HAJIKE = 0, 1, 2, 3, 4, 5


def _tables() -> tuple[np.ndarray, ...]:
    bit = np.array([1 << i for i in range(64)], dtype=np.uint64)
    n8 = np.zeros(64, dtype=np.uint64)
    n4 = np.zeros(64, dtype=np.uint64)
    # steps[kind][cell] -> up to 8 target cells (-1 = none); T is handled by sliding
    king = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
    orth = [(-1, 0), (0, -1), (0, 1), (1, 0)]
    diag = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    knight = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]
    steps = np.full((6, 64, 8), -1, dtype=np.int64)
    for cell in range(64):
        r, c = divmod(cell, 8)
        for dr, dc in king:
            if 0 <= r + dr < 8 and 0 <= c + dc < 8:
                n8[cell] |= bit[(r + dr) * 8 + c + dc]
        for dr, dc in orth:
            if 0 <= r + dr < 8 and 0 <= c + dc < 8:
                n4[cell] |= bit[(r + dr) * 8 + c + dc]
        for kind, pattern in ((0, king), (1, king), (2, orth), (3, diag), (5, knight)):
            j = 0
            for dr, dc in pattern:
                if 0 <= r + dr < 8 and 0 <= c + dc < 8:
                    steps[kind, cell, j] = (r + dr) * 8 + c + dc
                    j += 1
    return bit, n8, n4, steps


BIT, N8, N4, STEPS = _tables()
ORTH_DR = np.array([-1, 0, 0, 1], dtype=np.int64)
ORTH_DC = np.array([0, -1, 1, 0], dtype=np.int64)
U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True, nogil=True)
def decode(code: np.uint64, pos: np.ndarray) -> None:
    """Fill ``pos[12]`` with 8x8 cells (window at 2..5) or -1 for doves in hand."""
    for i in range(12):
        if (code >> np.uint64(59 - i)) & U1:
            idx = np.int64((code >> np.uint64(44 - 4 * i)) & np.uint64(15))
            pos[i] = ((idx >> 2) + 2) * 8 + (idx & 3) + 2
        else:
            pos[i] = -1


@njit(cache=True, nogil=True)
def encode(pos: np.ndarray) -> np.uint64:
    """Code of a placement on the 8x8 board, translated to its bounding box."""
    minr = 8
    minc = 8
    for i in range(12):
        p = pos[i]
        if p >= 0:
            minr = min(minr, p >> 3)
            minc = min(minc, p & 7)
    code = U0
    for i in range(12):
        p = pos[i]
        if p >= 0:
            idx = ((p >> 3) - minr) * 4 + (p & 7) - minc
            code |= U1 << np.uint64(59 - i)
            code |= np.uint64(idx) << np.uint64(44 - 4 * i)
    return code


@njit(cache=True, nogil=True)
def occupancy(pos: np.ndarray) -> np.uint64:
    occ = U0
    for i in range(12):
        if pos[i] >= 0:
            occ |= BIT[pos[i]]
    return occ


@njit(cache=True, nogil=True)
def bounds(occ: np.uint64) -> tuple[int, int, int, int]:
    """(min row, max row, min col, max col) of a non-empty occupancy."""
    cols = np.int64(0)
    minr = 8
    maxr = -1
    for r in range(8):
        row = np.int64((occ >> np.uint64(8 * r)) & np.uint64(255))
        if row:
            cols |= row
            if minr == 8:
                minr = r
            maxr = r
    minc = 8
    maxc = -1
    for c in range(8):
        if (cols >> c) & 1:
            if minc == 8:
                minc = c
            maxc = c
    return minr, maxr, minc, maxc


@njit(cache=True, nogil=True)
def fits(occ: np.uint64) -> bool:
    minr, maxr, minc, maxc = bounds(occ)
    return maxr - minr < 4 and maxc - minc < 4


@njit(cache=True, nogil=True)
def any_isolated(pos: np.ndarray, occ: np.uint64) -> bool:
    for i in range(12):
        p = pos[i]
        if p >= 0 and (N8[p] & occ) == U0:
            return True
    return False


@njit(cache=True, nogil=True)
def liberties(p: int, occ: np.uint64, minr: int, maxr: int, minc: int, maxc: int) -> int:
    """Orthogonal neighbours of ``p`` that are neither occupied nor wall."""
    r = p >> 3
    c = p & 7
    wall_rows = maxr - minr == 3
    wall_cols = maxc - minc == 3
    free = 0
    for k in range(4):
        nr = r + ORTH_DR[k]
        nc = c + ORTH_DC[k]
        if wall_rows and (nr < minr or nr > maxr):
            continue
        if wall_cols and (nc < minc or nc > maxc):
            continue
        if 0 <= nr < 8 and 0 <= nc < 8 and (occ & BIT[nr * 8 + nc]):
            continue
        free += 1
    return free


@njit(cache=True, nogil=True)
def _judge(own: bool, enemy: bool, judge: int) -> int:
    """Outcome for the mover from which bosses are surrounded."""
    if own and enemy:
        if judge == JUDGE_MOVER_LOSES:
            return MOVER_LOSES
        if judge == JUDGE_MOVER_WINS:
            return MOVER_WINS
        return DRAW
    if own:
        return MOVER_LOSES
    if enemy:
        return MOVER_WINS
    return ONGOING


@njit(cache=True, nogil=True)
def outcome(pos: np.ndarray, occ: np.uint64, mover: int, judge: int) -> int:
    minr, maxr, minc, maxc = bounds(occ)
    own = liberties(pos[mover], occ, minr, maxr, minc, maxc) == 0
    enemy = liberties(pos[1 - mover], occ, minr, maxr, minc, maxc) == 0
    return _judge(own, enemy, judge)


@njit(cache=True, nogil=True)
def _emit(
    pos: np.ndarray,
    occ: np.uint64,
    side: int,
    judge: int,
    action: int,
    n: int,
    acts: np.ndarray,
    codes: np.ndarray,
    outs: np.ndarray,
    libs: np.ndarray,
) -> int:
    minr, maxr, minc, maxc = bounds(occ)
    acts[n] = action
    codes[n] = encode(pos)
    # liberties of the mover's boss (high first) and of the enemy boss (low first) order the search
    own = liberties(pos[side], occ, minr, maxr, minc, maxc)
    enemy = liberties(pos[1 - side], occ, minr, maxr, minc, maxc)
    libs[n, 0] = own
    libs[n, 1] = enemy
    outs[n] = _judge(own == 0, enemy == 0, judge)
    return n + 1


@njit(cache=True, nogil=True)
def generate(
    code: np.uint64,
    side: int,
    allow_remove: bool,
    judge: int,
    pos: np.ndarray,
    acts: np.ndarray,
    codes: np.ndarray,
    outs: np.ndarray,
    libs: np.ndarray,
    hand: int = 0xFFF,
) -> int:
    """All legal actions of ``side``: fills acts/codes/outs/libs, returns their number.

    ``hand`` (bit i = dove i) limits the doves that may be put: a reduced game (retro/) plays with
    fewer doves, the others stay out of the game rather than in hand."""
    decode(code, pos)
    occ = occupancy(pos)
    n = 0
    own_near = U0
    for i in range(side, 12, 2):
        if pos[i] >= 0:
            own_near |= N8[pos[i]]
    # put: next to an own dove, not orthogonally beside the enemy boss, group stays within 4x4
    put_cells = own_near & ~occ & ~N4[pos[1 - side]]
    for i in range(side, 12, 2):
        if pos[i] >= 0 or not (hand >> i) & 1:
            continue
        cells = put_cells
        while cells:
            t = 0
            while not (cells & BIT[t]):
                t += 1
            cells &= ~BIT[t]
            new_occ = occ | BIT[t]
            if not fits(new_occ):
                continue
            pos[i] = t
            n = _emit(pos, new_occ, side, judge, PUT * 1024 + i * 64 + t, n, acts, codes, outs, libs)
            pos[i] = -1
    # move
    for i in range(side, 12, 2):
        p = pos[i]
        if p < 0:
            continue
        kind = i >> 1
        base = occ & ~BIT[p]
        for j in range(8 if kind != TOTSU else 4):
            if kind == TOTSU:
                # slide: every empty square before the first obstacle is a target
                r = p >> 3
                c = p & 7
                while True:
                    r += ORTH_DR[j]
                    c += ORTH_DC[j]
                    if r < 0 or r > 7 or c < 0 or c > 7:
                        break
                    t = r * 8 + c
                    if occ & BIT[t]:
                        break
                    new_occ = base | BIT[t]
                    if not fits(new_occ):
                        break  # sliding further only widens the group
                    pos[i] = t
                    if not any_isolated(pos, new_occ):
                        n = _emit(
                            pos, new_occ, side, judge, MOVE * 1024 + i * 64 + t, n, acts, codes, outs, libs
                        )
                    pos[i] = p
                continue
            t = STEPS[kind, p, j]
            if t < 0:
                break
            if occ & BIT[t]:
                continue
            new_occ = base | BIT[t]
            if not fits(new_occ):
                continue
            pos[i] = t
            if not any_isolated(pos, new_occ):
                n = _emit(pos, new_occ, side, judge, MOVE * 1024 + i * 64 + t, n, acts, codes, outs, libs)
            pos[i] = p
    # remove: a non-boss own dove back to hand, leaving nobody isolated
    if allow_remove:
        for i in range(side + 2, 12, 2):
            p = pos[i]
            if p < 0:
                continue
            new_occ = occ & ~BIT[p]
            pos[i] = -1
            if not any_isolated(pos, new_occ):
                n = _emit(pos, new_occ, side, judge, REMOVE * 1024 + i * 64 + p, n, acts, codes, outs, libs)
            pos[i] = p
    return n


class Buffers:
    """Per-ply scratch arrays for ``generate`` (numba functions take them as arguments)."""

    def __init__(self, plies: int = MAX_PLY) -> None:
        self.pos = np.zeros((plies, 12), dtype=np.int64)
        self.acts = np.zeros((plies, MAX_ACTIONS), dtype=np.int64)
        self.codes = np.zeros((plies, MAX_ACTIONS), dtype=np.uint64)
        self.outs = np.zeros((plies, MAX_ACTIONS), dtype=np.int64)
        self.libs = np.zeros((plies, MAX_ACTIONS, 2), dtype=np.int64)
        self.order = np.zeros((plies, MAX_ACTIONS), dtype=np.int64)


@njit(cache=True, nogil=True)
def perft(
    code: np.uint64,
    side: int,
    depth: int,
    allow_remove: bool,
    judge: int,
    ply: int,
    pos: np.ndarray,
    acts: np.ndarray,
    codes: np.ndarray,
    outs: np.ndarray,
    libs: np.ndarray,
    hand: int = 0xFFF,
) -> int:
    """Number of legal action sequences of length ``depth``; a game-ending action ends its line.
    ``hand``: the doves in the game (a reduced game's, ``Rules.hand``)."""
    # the recursion lives in perft_hand: a recursive njit function with an omitted default
    # argument crashes numba (segmentation fault)
    return perft_hand(code, side, depth, allow_remove, judge, ply, pos, acts, codes, outs, libs, hand)


@njit(cache=True, nogil=True)
def perft_hand(
    code: np.uint64,
    side: int,
    depth: int,
    allow_remove: bool,
    judge: int,
    ply: int,
    pos: np.ndarray,
    acts: np.ndarray,
    codes: np.ndarray,
    outs: np.ndarray,
    libs: np.ndarray,
    hand: int,
) -> int:
    """``perft`` with every argument given."""
    n = generate(code, side, allow_remove, judge, pos[ply], acts[ply], codes[ply], outs[ply], libs[ply], hand)
    if depth == 1:
        return n
    total = 0
    for k in range(n):
        if outs[ply, k] == ONGOING:
            total += perft_hand(
                codes[ply, k],
                1 - side,
                depth - 1,
                allow_remove,
                judge,
                ply + 1,
                pos,
                acts,
                codes,
                outs,
                libs,
                hand,
            )
    return total
