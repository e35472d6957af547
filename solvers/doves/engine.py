"""Numba rules engine: action generation, outcome and exact Win(n)/Lose(n) search.

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
from numba import njit

PUT, MOVE, REMOVE = 0, 1, 2
ONGOING, MOVER_WINS, MOVER_LOSES, DRAW = 0, 1, -1, 2
JUDGE_MOVER_LOSES, JUDGE_MOVER_WINS, JUDGE_DRAW = 0, 1, 2
MAX_ACTIONS = 160  # generous: R1 bounds forward actions by 64
MAX_PLY = 64
KING, BROTHER, RAZOR, PEASHOOTER, TOTSU, HAJIKE = 0, 1, 2, 3, 4, 5

# stats array slots shared with Python (a watcher thread writes STOP while numba runs nogil)
NODES, STOP = 0, 1


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
) -> int:
    """All legal actions of ``side``: fills acts/codes/outs/libs, returns their number."""
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
        if pos[i] >= 0:
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
) -> int:
    """Number of legal action sequences of length ``depth``; a game-ending action ends its line."""
    n = generate(code, side, allow_remove, judge, pos[ply], acts[ply], codes[ply], outs[ply], libs[ply])
    if depth == 1:
        return n
    total = 0
    for k in range(n):
        if outs[ply, k] == ONGOING:
            total += perft(
                codes[ply, k], 1 - side, depth - 1, allow_remove, judge, ply + 1, pos, acts, codes, outs, libs
            )
    return total


# ---- exact search ---------------------------------------------------------------------------------
# Two questions, asked with a ply budget r (a null-window proof search, like R1's compare_board_value):
#   wins(r):  can the side to move surround the enemy boss within r plies, whatever the reply?
#   loses(r): does every action of the side to move lose within r plies (or at once)?
# The table keeps, per position and side, the smallest budget that proved yes and the largest that
# proved no, for each question; either answer is final for other budgets on the right side.

TT_KEY, TT_WIN_YES, TT_WIN_NO, TT_LOSE_YES, TT_LOSE_NO, TT_BEST = 0, 1, 2, 3, 4, 5
NEVER = 127  # "no" for every budget (e.g. the side to move can win at once, so it never loses)


@njit(cache=True, nogil=True)
def hash_key(code: np.uint64, side: int) -> np.uint64:
    z = code ^ (np.uint64(0x9E3779B97F4A7C15) * np.uint64(side + 1))
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def _slot(tt: np.ndarray, key: np.uint64) -> np.int64:
    idx = np.int64(key & np.uint64(tt.shape[0] - 1))
    if tt[idx, TT_KEY] != np.int64(key):
        tt[idx, TT_KEY] = np.int64(key)
        tt[idx, 1:] = 0
        tt[idx, TT_BEST] = -1
    return idx


@njit(cache=True, nogil=True)
def _order(
    ply: int, n: int, best: int, acts: np.ndarray, libs: np.ndarray, order: np.ndarray, attack: bool
) -> None:
    """Move ordering: table move first, then by the enemy boss's (attack) or own boss's liberties."""
    m = 0
    for k in range(n):
        if acts[ply, k] == best:
            order[ply, m] = k
            m += 1
    for level in range(5):
        for k in range(n):
            if acts[ply, k] == best:
                continue
            key = libs[ply, k, 1] if attack else 4 - libs[ply, k, 0]
            if key == level:
                order[ply, m] = k
                m += 1


WIN, LOSE = 0, 1


ENTER, NEXT, RETURN = 0, 1, 2


@njit(cache=True, nogil=True)
def _store(tt: np.ndarray, key: np.uint64, question: int, answer: bool, r: int, best: int) -> None:
    """Record ``question`` at budget ``r`` answered ``answer`` (yes: smallest budget, no: largest)."""
    idx = _slot(tt, key)
    yes = TT_WIN_YES if question == WIN else TT_LOSE_YES
    if answer:
        tt[idx, yes] = r if tt[idx, yes] == 0 else min(tt[idx, yes], r)
    else:
        tt[idx, yes + 1] = max(tt[idx, yes + 1], r)
    if best >= 0:
        tt[idx, TT_BEST] = best


@njit(cache=True, nogil=True)
def prove(
    code: np.uint64,
    side: int,
    r: int,
    question: int,
    allow_remove: bool,
    judge: int,
    tt: np.ndarray,
    stats: np.ndarray,
    pos: np.ndarray,
    acts: np.ndarray,
    codes: np.ndarray,
    outs: np.ndarray,
    libs: np.ndarray,
    order: np.ndarray,
) -> bool:
    """Answer ``question`` (WIN: wins within r plies; LOSE: loses within r plies) for ``side`` to move.

    Depth-first with an explicit stack (one frame per ply) rather than recursion, so numba can cache
    the compiled code. When ``stats[STOP]`` gets set the answer is meaningless and nothing more is
    stored."""
    f_code = np.zeros(MAX_PLY, dtype=np.uint64)
    f_key = np.zeros(MAX_PLY, dtype=np.uint64)
    f_side = np.zeros(MAX_PLY, dtype=np.int64)
    f_r = np.zeros(MAX_PLY, dtype=np.int64)
    f_q = np.zeros(MAX_PLY, dtype=np.int64)
    f_m = np.zeros(MAX_PLY, dtype=np.int64)
    f_n = np.zeros(MAX_PLY, dtype=np.int64)
    f_k = np.zeros(MAX_PLY, dtype=np.int64)
    ply = 0
    f_code[0] = code
    f_side[0] = side
    f_r[0] = r
    f_q[0] = question
    mode = ENTER
    result = False
    while True:
        if mode == ENTER:
            c = f_code[ply]
            sd = f_side[ply]
            rr = f_r[ply]
            q = f_q[ply]
            key = hash_key(c, sd)
            f_key[ply] = key
            idx = _slot(tt, key)
            yes = TT_WIN_YES if q == WIN else TT_LOSE_YES
            mode = RETURN
            if tt[idx, yes] and tt[idx, yes] <= rr:
                result = True
                continue
            if tt[idx, yes + 1] >= rr:
                result = False
                continue
            stats[NODES] += 1
            if stats[STOP] or ply >= MAX_PLY - 2:
                stats[STOP] = max(stats[STOP], 1)
                result = False
                continue
            n = generate(c, sd, allow_remove, judge, pos[ply], acts[ply], codes[ply], outs[ply], libs[ply])
            f_n[ply] = n
            decided = False
            for k in range(n):
                o = outs[ply, k]
                if o == MOVER_WINS or (q == LOSE and o == DRAW):
                    # the side to move wins (or draws) at once: it wins, and it never loses
                    _store(tt, key, q, q == WIN, 1 if q == WIN else NEVER, acts[ply, k])
                    result = q == WIN
                    decided = True
                    break
            if decided:
                continue
            if q == WIN and rr < 3:
                _store(tt, key, q, False, rr, -1)
                result = False
                continue
            _order(ply, n, tt[_slot(tt, key), TT_BEST], acts, libs, order, q == WIN)
            f_m[ply] = 0
            mode = NEXT
        elif mode == NEXT:
            q = f_q[ply]
            rr = f_r[ply]
            n = f_n[ply]
            k = -1
            while f_m[ply] < n:
                cand = order[ply, f_m[ply]]
                f_m[ply] += 1
                if outs[ply, cand] == ONGOING:  # a self-surround never helps either question
                    k = cand
                    break
            if k < 0:
                # exhausted: no win found (WIN), or no escape found (LOSE)
                _store(tt, f_key[ply], q, q == LOSE, rr, -1)
                result = q == LOSE
                mode = RETURN
                continue
            f_k[ply] = k
            if q == LOSE and rr < 2:
                _store(tt, f_key[ply], q, False, rr, acts[ply, k])
                result = False
                mode = RETURN
                continue
            f_code[ply + 1] = codes[ply, k]
            f_side[ply + 1] = 1 - f_side[ply]
            f_r[ply + 1] = rr - 1
            f_q[ply + 1] = LOSE if q == WIN else WIN
            ply += 1
            mode = ENTER
        else:
            if ply == 0:
                return result
            ply -= 1
            if stats[STOP]:
                result = False
                continue
            q = f_q[ply]
            # WIN: a child that loses is a win; LOSE: a child the opponent cannot win is an escape
            hit = result if q == WIN else not result
            if hit:
                _store(tt, f_key[ply], q, q == WIN, f_r[ply], acts[ply, f_k[ply]])
                result = q == WIN
            else:
                mode = NEXT
