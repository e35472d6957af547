"""Retrograde analysis of every X-ceter-O state (numpy, no per-state Python objects).

Values are for the side to move: WIN n / LOSS n with n the distance to the end in plies (the winner
takes the fastest win, the loser the slowest loss), DRAW when neither side can force a win (endless
play). A state whose previous mover holds a line is finished (LOSS 0 for the side to move).

Algorithm: successor table (N x 9, -1 padded) -> predecessor lists (CSR) -> layers. LOSS 0 are the
finished states; WIN n are the undecided predecessors of LOSS n-1; a state becomes LOSS n when the
last of its successors is settled as WIN n-1 (counted down per state). Whatever stays undecided is a
draw. Results for both rule variants are cached in memory.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from solvers.common.cancel import CancelToken
from solvers.common.game import GameValue, ValueKind
from solvers.xcetero.rules import PIECES, SQUARES
from solvers.xcetero.states import HAS_LINE, OFF, POW10, SYMMETRIES, StateSpace, side_masks, state_space

WIN, LOSS, DRAW = 1, -1, 0
SORT_SLICES = 8


@dataclass(frozen=True)
class Analysis:
    space: StateSpace
    may_return: bool
    succ: np.ndarray  # (N, 9) successor state per destination square, -1 = illegal
    finished: np.ndarray  # (N,) bool: the previous mover holds a line
    mover_line: np.ndarray  # (N,) bool: the side to move holds a line (cannot arise in play)
    reachable: np.ndarray  # (N,) bool: reachable from the empty board (finished ones included)
    outcome: np.ndarray  # (N,) int8 WIN / LOSS / DRAW for the side to move
    distance: np.ndarray  # (N,) int16 plies to the end (-1 for draws)
    canonical: np.ndarray  # (N,) smallest state number among the 8 symmetric images
    seconds: float

    def value(self, state: int) -> tuple[int, int]:
        return int(self.outcome[state]), int(self.distance[state])


def value_text(outcome: int, distance: int) -> str:
    """The shared wording of game values (``solvers.common.game.GameValue``): Win(n) / Lose(n) / Draw."""
    kind: ValueKind = "win" if outcome == WIN else "lose" if outcome == LOSS else "draw"
    return str(GameValue(kind, distance if kind != "draw" else 0))


def _poll(cancel: CancelToken | None) -> None:
    if cancel is not None:
        cancel.raise_if_cancelled()


def _successors(
    space: StateSpace, may_return: bool, finished: np.ndarray, cancel: CancelToken | None = None
) -> np.ndarray:
    # Work on the base-10 arrangement codes: moving piece d from ``own`` to ``square`` changes the
    # code by (square - own) * 10**(d - 1), so no per-square copy of the position array is needed.
    pos, due = space.pos, space.due
    rows = np.arange(space.size)
    own = pos[rows, due - 1]
    weight = POW10[due - 1]
    base = (pos * POW10).sum(axis=1) - own * weight
    o_mask, x_mask = side_masks(pos)
    occupied = o_mask | x_mask
    new_due = due % PIECES + 1
    succ = np.empty((space.size, SQUARES), dtype=np.int64)
    for square in range(SQUARES):
        _poll(cancel)
        legal = ((occupied >> square) & 1) == 0
        if may_return:
            legal |= own == square
        legal &= ~finished
        arrangement = space.lut[base + square * weight]
        state = space.state_of(arrangement, new_due)
        succ[:, square] = np.where(legal, state, -1)
    return succ


def _reachable(succ: np.ndarray, cancel: CancelToken | None = None) -> np.ndarray:
    seen = np.zeros(succ.shape[0] + 1, dtype=bool)  # the extra slot absorbs the -1 padding
    seen[0] = True  # state 0 is the empty board, piece 1 due
    frontier = np.array([0])
    while frontier.size:
        _poll(cancel)
        mark = np.zeros_like(seen)
        mark[succ[frontier].ravel()] = True
        mark &= ~seen
        mark[-1] = False
        frontier = np.flatnonzero(mark)
        seen |= mark
    return seen[:-1]


def _gather(ptr: np.ndarray, data: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Concatenated CSR rows ``data[ptr[v]:ptr[v + 1]]`` for every v in ``nodes``."""
    starts = ptr[nodes]
    lengths = ptr[nodes + 1] - starts
    total = int(lengths.sum())
    if total == 0:
        return np.empty(0, dtype=data.dtype)
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return data[offsets + np.arange(total)]


def _group_by(src: np.ndarray, dst: np.ndarray, n: int, cancel: CancelToken | None) -> np.ndarray:
    """``src`` ordered by ``dst`` (the predecessor lists), sorted in slices of the ``dst`` range so
    the cancel token is polled between slices (one argsort of 10^6 edges takes ~0.3 s)."""
    parts = []
    bounds = np.linspace(0, n, SORT_SLICES + 1).astype(np.int64)
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        _poll(cancel)
        part = (dst >= lo) & (dst < hi)
        sub_src, sub_dst = src[part], dst[part]
        parts.append(sub_src[np.argsort(sub_dst)])
    return np.concatenate(parts)


def _retrograde(
    succ: np.ndarray, finished: np.ndarray, cancel: CancelToken | None = None
) -> tuple[np.ndarray, np.ndarray]:
    n = succ.shape[0]
    src = np.repeat(np.arange(n, dtype=np.int32), SQUARES)
    dst = succ.ravel().astype(np.int32)
    keep = dst >= 0
    src, dst = src[keep], dst[keep]
    pred = _group_by(src, dst, n, cancel)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=n), out=ptr[1:])
    _poll(cancel)
    left = (succ >= 0).sum(axis=1)  # successors not yet known to be wins for the opponent

    outcome = np.zeros(n, dtype=np.int8)
    distance = np.full(n, -1, dtype=np.int16)
    decided = finished.copy()
    outcome[finished] = LOSS
    distance[finished] = 0
    frontier = np.flatnonzero(finished)
    ply = 0
    while frontier.size:
        _poll(cancel)
        ply += 1
        preds = _gather(ptr, pred, frontier)
        if ply % 2 == 1:  # predecessors of LOSS (ply-1) states win in ply
            fresh = np.unique(preds[~decided[preds]])
            outcome[fresh] = WIN
        else:  # predecessors of WIN (ply-1) states lose in ply once all their moves are wins
            preds = preds[~decided[preds]]
            nodes, hits = np.unique(preds, return_counts=True)
            left[nodes] -= hits
            fresh = nodes[left[nodes] == 0]
            outcome[fresh] = LOSS
        distance[fresh] = ply
        decided[fresh] = True
        frontier = fresh
    return outcome, distance


def _canonical(space: StateSpace, cancel: CancelToken | None = None) -> np.ndarray:
    best = np.arange(space.size)
    for perm in SYMMETRIES[1:]:
        _poll(cancel)
        image = np.append(perm, OFF)[space.arrangements]
        arrangement = space.lut[(image * POW10).sum(axis=1)]
        best = np.minimum(best, space.state_of(arrangement[space.arrangement], space.due))
    return best


_LOCK = threading.Lock()  # the GUI (hints) and a solve job may ask at the same time: compute once
_CACHE: dict[bool, Analysis] = {}


def analyse(may_return: bool = False, cancel: CancelToken | None = None) -> Analysis:
    """The full analysis for one rule variant (cached; well under a second).

    ``cancel`` is polled between the numpy passes (each well under 0.1 s); a cancelled run raises
    ``Cancelled`` and caches nothing."""
    with _LOCK:
        if may_return not in _CACHE:
            _CACHE[may_return] = _analyse(may_return, cancel)
        return _CACHE[may_return]


def is_cached(may_return: bool) -> bool:
    return may_return in _CACHE


def clear_cache() -> None:
    """Forget cached analyses (the benchmark times cold runs)."""
    with _LOCK:
        _CACHE.clear()


def _analyse(may_return: bool, cancel: CancelToken | None) -> Analysis:
    start = time.perf_counter()
    space = state_space()
    _poll(cancel)
    o_mask, x_mask = side_masks(space.pos)
    o_moves = space.due % 2 == 1
    mover_mask = np.where(o_moves, o_mask, x_mask)
    last_mask = np.where(o_moves, x_mask, o_mask)
    finished = HAS_LINE[last_mask]
    succ = _successors(space, may_return, finished, cancel)
    outcome, distance = _retrograde(succ, finished, cancel)
    reachable = _reachable(succ, cancel)
    canonical = _canonical(space, cancel)
    return Analysis(
        space=space,
        may_return=may_return,
        succ=succ,
        finished=finished,
        mover_line=HAS_LINE[mover_mask],
        reachable=reachable,
        outcome=outcome,
        distance=distance,
        canonical=canonical,
        seconds=time.perf_counter() - start,
    )


def summary(analysis: Analysis) -> dict[str, object]:
    """The headline figures (the ``analyse --json`` object)."""
    reach = analysis.reachable
    live = reach & ~analysis.finished
    out = analysis.outcome
    dist = analysis.distance
    wins = live & (out == WIN)
    losses = live & (out == LOSS)
    first: dict[str, str] = {}
    for square in range(SQUARES):
        child = int(analysis.succ[0, square])
        o, d = analysis.value(child)
        first[str(square)] = value_text(-o, d + 1 if o != DRAW else -1)
    return {
        "reachable": int(reach.sum()),
        "finished": int((reach & analysis.finished).sum()),
        "live": int(live.sum()),
        "win": int(wins.sum()),
        "loss": int(losses.sum()),
        "draw": int((live & (out == DRAW)).sum()),
        "symmetry_classes": int(np.unique(analysis.canonical[reach]).size),
        "initial": value_text(*analysis.value(0)),
        "longest_win": int(dist[wins].max()) if wins.any() else 0,
        "longest_loss": int(dist[losses].max()) if losses.any() else 0,
        "first_moves": first,
        "seconds": round(analysis.seconds, 4),
    }
