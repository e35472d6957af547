"""Numba exact search for Tokyo Doves: Win(n)/Lose(n) proofs over ``engine.generate``.

Positions, actions and outcomes are the engine's (see ``engine.py``).
"""

from __future__ import annotations

import numpy as np

from solvers.common.kernels import njit
from solvers.doves.engine import DRAW, MAX_PLY, MOVER_WINS, ONGOING, generate

# stats array slots shared with Python (a watcher thread writes STOP while numba runs nogil)
NODES, STOP = 0, 1

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
    hand: int = 0xFFF,
) -> bool:
    """Answer ``question`` (WIN: wins within r plies; LOSE: loses within r plies) for ``side`` to move.

    Depth-first with an explicit stack (one frame per ply) rather than recursion, so numba can cache
    the compiled code. When ``stats[STOP]`` gets set the answer is meaningless and nothing more is
    stored. ``hand`` limits the doves that may be put (``engine.generate``)."""
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
            n = generate(
                c, sd, allow_remove, judge, pos[ply], acts[ply], codes[ply], outs[ply], libs[ply], hand
            )
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
