"""Retrograde analysis driven by predecessor generation (``unmove.py``): no stored graph.

*Init* (per partition, in chunks): every class is unranked and its actions generated once, as in the
forward graph phase, but no child is ranked: a class with a surrounded Boss is TERMINAL, one with an
action that surrounds the enemy Boss is WIN(1), and every other class keeps a counter of its actions
that lead to a position where the game goes on (self-surrounds are dropped, as in the forward
engine). A class with an action that draws at once (``both=draw``) can never lose: its counter is
DRAWN and never counts down. A class with no such action at all is LOSE(2) at once.

*Levels*: the classes decided at distance d (the frontier) are expanded in turn: for each, its
distinct predecessor classes (``unmove.pred_classes``) that are still undecided get
- d even (a LOSE(d) child): WIN(d + 1);
- d odd (a WIN(d) child): their counter lowered by the number of their actions into the class
  (``unmove.multiplicity``); at zero every action leads to a win of the opponent, whose longest is d,
  so the class is LOSE(d + 1).
Every class is expanded once, when it is decided, and a counter reaches zero exactly when all of a
class's children are wins, at the level of its slowest one; so the values are those of the forward
passes byte for byte (odd n = Win(n), -n = Lose(n), 0 = Draw, TERMINAL), and the number decided per
level is the forward ``decided_per_pass``. The search stops at the first level after 2 with nothing
decided, as the forward passes do.

Memory: the int16 values plus one byte of counter per class, and the frontier (int64 indices).

On disk and distributed (``backward_store.py``, ``cluster.solve_backward_distributed``): the same
kernels as tasks per partition. Init is per partition with no exchange. A level is two rounds:
every partition's frontier makes its updates (``frontier_updates``: unrank, un-move, rank the
predecessors; reads no values), written sorted by destination; then every partition applies those
addressed to it (``apply_updates``, its own range only) and writes its frontier of level d + 1; a
barrier ends each round. The traffic per level is about ``frontier size x distinct predecessors per
class`` (8 + 1 bytes each), instead of the whole values array a regenerating forward pass reads.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from solvers.common.cancel import CancelToken
from solvers.common.kernels import njit
from solvers.doves import engine as rules_engine
from solvers.doves.retro.engine import TERMINAL, game_over
from solvers.doves.retro.indexing import unrank_in_partition
from solvers.doves.retro.layout import Layout
from solvers.doves.retro.solve import MemoryStore, RetroResult, summarise
from solvers.doves.retro.unmove import (
    MAX_PREDS,
    class_code,
    layout_tables,
    multiplicity,
    pred_classes,
    stabiliser,
)
from solvers.doves.rules import Rules

CHUNK = 4096  # classes per numba call: a cancel or progress point
DRAWN = np.uint8(255)  # counter of a class with an action that draws at once: never counts down
Progress = Callable[[str], None]


@njit(cache=True, nogil=True)
def init_chunk(
    p: int,
    start: int,
    count: int,
    allow_remove: bool,
    judge: int,
    tabs: tuple,
    values: np.ndarray,
    counters: np.ndarray,
    wins: np.ndarray,
    losses: np.ndarray,
    out: np.ndarray,
) -> int:
    """Init of slots start..start+count-1 of partition ``p``: ``values``/``counters`` are that slice.

    Writes the global indices of the WIN(1) classes to ``wins`` and of the LOSE(2) ones to
    ``losses``; ``out`` gets (wins, losses, actions the forward engine would store as edges).
    Returns the number of wins."""
    first, offset, slots, squares, table_off, listing = tabs[0], tabs[1], tabs[2], tabs[3], tabs[4], tabs[5]
    part_off, parts, hands = tabs[13], tabs[14], tabs[16]
    dset = parts[p]
    hand = hands[p]
    lo = part_off[p]
    pos = np.zeros(12, dtype=np.int64)
    acts = np.zeros(rules_engine.MAX_ACTIONS, dtype=np.int64)
    codes = np.zeros(rules_engine.MAX_ACTIONS, dtype=np.uint64)
    outs = np.zeros(rules_engine.MAX_ACTIONS, dtype=np.int64)
    libs = np.zeros((rules_engine.MAX_ACTIONS, 2), dtype=np.int64)
    nw = 0
    nl = 0
    edges = 0
    for n in range(count):
        g = lo + start + n
        values[n] = 0
        counters[n] = 0
        code = unrank_in_partition(
            dset, np.int64(start + n), first, offset, slots, squares, table_off, listing
        )
        if game_over(code, pos):
            values[n] = TERMINAL
            continue
        k = rules_engine.generate(code, 0, allow_remove, judge, pos, acts, codes, outs, libs, hand)
        won = False
        live = 0
        draws = 0
        for j in range(k):
            o = outs[j]
            if o == rules_engine.MOVER_WINS:
                won = True
                break
            if o == rules_engine.DRAW:
                draws += 1
            elif o == rules_engine.ONGOING:
                live += 1
        if won:
            values[n] = 1
            wins[nw] = g
            nw += 1
            continue
        edges += live + draws
        if draws:
            counters[n] = DRAWN
        elif live == 0:
            values[n] = -2  # no action that does not lose at once: LOSE(2), the search's convention
            losses[nl] = g
            nl += 1
        else:
            counters[n] = live
    out[0] = nw
    out[1] = nl
    out[2] = edges
    return nw


@njit(cache=True, nogil=True)
def frontier_updates(
    frontier: np.ndarray,
    d: int,
    allow_remove: bool,
    tabs: tuple,
    dest: np.ndarray,
    mult: np.ndarray,
    stats: np.ndarray,
) -> int:
    """The updates the frontier classes (all of distance d) send to their predecessor classes:
    ``dest[i]`` the class and ``mult[i]`` its number of actions into the frontier class (only when
    d is odd: a WIN(d) child counts down; a LOSE(d) child makes a win, 0 here). Needs no values:
    the owner of ``dest[i]`` (``apply_updates``) skips the classes already decided.

    Buffers hold ``len(frontier) * MAX_PREDS``; returns the number of updates. ``stats`` +=
    (predecessor positions, distinct predecessor classes, -, errors: a predecessor outside the
    variant, must stay 0)."""
    pos = np.zeros(12, dtype=np.int64)
    pcodes = np.zeros(MAX_PREDS, dtype=np.uint64)
    idx = np.zeros(MAX_PREDS, dtype=np.int64)
    out_idx = np.zeros(MAX_PREDS, dtype=np.int64)
    out_found = np.zeros(MAX_PREDS, dtype=np.int64)
    out_code = np.zeros(MAX_PREDS, dtype=np.uint64)
    counting = (d & 1) == 1
    n = 0
    for f in range(frontier.shape[0]):
        g = frontier[f]
        npred, npos = pred_classes(g, allow_remove, tabs, pos, pcodes, idx, out_idx, out_found, out_code)
        stats[0] += npos
        stats[1] += npred
        stab_s = 0
        for j in range(npred):
            if out_idx[j] < 0:  # a dove set outside the variant: cannot happen, counted as an error
                stats[3] += 1
                continue
            k = 0
            if counting:
                if stab_s == 0:
                    stab_s = stabiliser(class_code(g, tabs)[1])
                k = multiplicity(out_found[j], out_code[j], stab_s)
            dest[n] = out_idx[j]
            mult[n] = k
            n += 1
    return n


@njit(cache=True, nogil=True)
def apply_updates(
    dest: np.ndarray,
    mult: np.ndarray,
    d: int,
    lo: int,
    values: np.ndarray,
    counters: np.ndarray,
    out: np.ndarray,
    stats: np.ndarray,
) -> int:
    """Apply level d's updates to classes lo.. (``values``/``counters`` start at class ``lo``):
    an undecided class becomes WIN(d + 1) (d even), or its counter goes down by ``mult`` and at
    zero it is LOSE(d + 1) (d odd). ``out`` gets the classes decided now (global indices); returns
    their number. The order of the updates does not change the values. ``stats`` += (-, -,
    undecided visits, errors: a count that does not fit, must stay 0)."""
    counting = (d & 1) == 1
    m = 0
    for i in range(dest.shape[0]):
        g = dest[i]
        c0 = g - lo
        if values[c0] != 0:
            continue
        stats[2] += 1
        if not counting:
            values[c0] = d + 1
            out[m] = g
            m += 1
            continue
        c = counters[c0]
        if c == DRAWN:
            continue
        k = mult[i]
        if k <= 0 or k > c:
            stats[3] += 1
            continue
        c -= k
        counters[c0] = c
        if c == 0:
            values[c0] = -(d + 1)
            out[m] = g
            m += 1
    return m


@dataclass
class BackwardStats:
    expanded: int = 0  # classes expanded (every decided class once)
    predecessor_positions: int = 0  # predecessor positions generated (un-move/un-put/un-remove)
    predecessor_classes: int = 0  # distinct predecessor classes of the expanded classes
    undecided_visits: int = 0  # of them, still undecided when visited (counter updates, new wins)
    seconds: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def init_partition(
    layout: Layout,
    p: int,
    rules: Rules,
    tabs: tuple[np.ndarray, ...],
    values: np.ndarray,
    counters: np.ndarray,
    cancel: CancelToken | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """Init of partition ``p`` (``values``/``counters``: its range) in chunks, a cancel point
    each: (its WIN(1) classes, its LOSE(2) classes, the actions counted)."""
    lo, hi = layout.partition_range(p)
    wins: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
    losses: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
    wbuf = np.empty(CHUNK, dtype=np.int64)
    lbuf = np.empty(CHUNK, dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    edges = 0
    for start in range(0, hi - lo, CHUNK):
        if cancel is not None:
            cancel.raise_if_cancelled()
        at = slice(start, min(start + CHUNK, hi - lo))
        init_chunk(
            p, start, at.stop - start, rules.allow_remove, rules.judge, tabs,
            values[at], counters[at], wbuf, lbuf, out,
        )  # fmt: skip
        wins.append(wbuf[: out[0]].copy())
        losses.append(lbuf[: out[1]].copy())
        edges += int(out[2])
    return np.concatenate(wins), np.concatenate(losses), edges


def solve_backward(
    layout: Layout,
    rules: Rules,
    cancel: CancelToken | None = None,
    progress: Progress | None = None,
) -> tuple[RetroResult, MemoryStore, BackwardStats]:
    """Single-process backward retrograde analysis; the store holds the values (no graph)."""
    store = MemoryStore(layout)
    values = store.values
    counters = np.zeros(layout.size, dtype=np.uint8)
    tabs = layout_tables(layout)
    stats = BackwardStats()
    clock = time.perf_counter()
    wins: list[np.ndarray] = []
    losses: list[np.ndarray] = []
    edges = 0
    for p in range(len(layout.parts)):
        lo, hi = layout.partition_range(p)
        won, lost, counted = init_partition(layout, p, rules, tabs, values[lo:hi], counters[lo:hi], cancel)
        wins.append(won)
        losses.append(lost)
        edges += counted
    stats.seconds["init"] = time.perf_counter() - clock
    frontier = np.concatenate(wins)
    later = np.concatenate(losses)
    if progress:
        progress(
            f"init: {layout.size:,} classes, {edges:,} actions counted, {len(frontier):,} immediate wins, "
            f"{stats.seconds['init']:.1f} s"
        )
    clock = time.perf_counter()
    decided: list[int] = []
    stat = np.zeros(4, dtype=np.int64)
    dest = np.empty(CHUNK * MAX_PREDS, dtype=np.int64)
    mult = np.empty(CHUNK * MAX_PREDS, dtype=np.uint8)
    buf = np.empty(CHUNK * MAX_PREDS, dtype=np.int64)
    d = 1
    while True:
        decided.append(len(frontier))
        if progress and d > 1:
            progress(f"level {d}: {len(frontier):,} decided")
        if len(frontier) == 0 and d > 2:
            break
        found = [later]
        for start in range(0, len(frontier), CHUNK):
            if cancel is not None:
                cancel.raise_if_cancelled()
            n = frontier_updates(
                frontier[start : start + CHUNK], d, rules.allow_remove, tabs, dest, mult, stat
            )
            m = apply_updates(dest[:n], mult[:n], d, 0, values, counters, buf, stat)
            found.append(buf[:m].copy())
        if stat[3]:
            raise AssertionError(
                f"level {d}: {int(stat[3])} predecessor updates did not fit (a predecessor bug)"
            )
        stats.expanded += len(frontier)
        frontier = np.concatenate(found)
        later = np.zeros(0, dtype=np.int64)
        d += 1
    stats.predecessor_positions = int(stat[0])
    stats.predecessor_classes = int(stat[1])
    stats.undecided_visits = int(stat[2])
    stats.seconds["backward"] = time.perf_counter() - clock
    seconds = {"init": stats.seconds["init"], "backward": stats.seconds["backward"]}
    return summarise(layout, rules, values, edges, decided, seconds), store, stats
