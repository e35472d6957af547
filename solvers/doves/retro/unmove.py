"""Predecessor generation (numba): un-move, un-put and un-remove.

Given a position S with ``side`` to move, the side that made the last action is the *mover*
``1 - side``. ``unmoves`` lists every position P, the mover to move, from which one legal action
leads to S with the game going on (outcome ONGOING: S has no surrounded Boss):

- **un-move**: a mover's dove on the board goes back along the reverse of its pattern. The step
  patterns (king for Boss and Aniki, orthogonal, diagonal, knight) are their own reverse; a Totsu
  came from any square of an orthogonal ray from its square over empty squares (the engine lets it
  stop on any empty square of its slide, and if both ends fit in 4x4 so does every square between);
- **un-put**: a mover's non-Boss dove of the game (``hand``) on the board goes back to hand, when
  its square touches (8-neighbourhood) another of the mover's doves and is not orthogonally beside
  the enemy Boss;
- **un-remove** (only with the Remove rule): a mover's non-Boss dove of the game that is in hand
  comes back on any empty square next to a dove.

P must be a state: it fits in 4x4, no dove is isolated, no Boss is surrounded (a surrounded Boss
means the game was over in P). S must be a state too, or it has no predecessor. The both-surrounded
judge plays no part: it only decides actions that surround a Boss, and such an action never leads to
a state. ``verified`` keeps only the candidates whose forward ``engine.generate`` yields S, the
cross-check of the reverse rules (the tests prove the two agree).

Distinct candidates are distinct positions (a position differs from S in one dove only, and the
doves that stay fix the translation), so ``unmoves`` lists each predecessor position once.

**Classes.** A class is a position up to the 8 symmetries, stored Red to move (``indexing.py``).
For a class C (representative S) and a predecessor class P, let ``found`` be the number of
predecessor positions of S in P's orbit and m(P, C) the number of actions of P leading into C (the
forward graph's edge multiplicity). Counting the pairs (P', S') of the two orbits joined by an
action both ways gives |orbit P| m = |orbit S| found, and |orbit X| = 8 / |Stab X| (the symmetries
mapping the labelled position onto itself, translation factored out), so
``m(P, C) = found * |Stab P| / |Stab S|``. That is what lets the backward solver count each class's
actions without ranking its children.
"""

from __future__ import annotations

import numpy as np

from solvers.common.kernels import njit
from solvers.doves.counting import SYM
from solvers.doves.engine import (
    BIT,
    MAX_ACTIONS,
    N4,
    N8,
    ONGOING,
    ORTH_DC,
    ORTH_DR,
    STEPS,
    TOTSU,
    U0,
    U1,
    any_isolated,
    bounds,
    decode,
    encode,
    generate,
    liberties,
    occupancy,
)
from solvers.doves.retro.indexing import dove_set, rank_in_partition, swap_colours, unrank_in_partition
from solvers.doves.retro.layout import Layout

# un-move <= 8 + 8 + 4 + 4 + 12 + 8 (B A Y M T H), un-put <= 5, un-remove <= 5 doves x 36 squares
MAX_PREDS = 256


def layout_tables(layout: Layout) -> tuple[np.ndarray, ...]:
    """The index tables the numba functions below take as one tuple (see ``_unpack`` order)."""
    t = layout.tables
    return (
        t.first,
        t.offset,
        t.slots,
        t.squares,
        t.table_off,
        t.listing,
        t.mask_to_shape,
        t.square_index,
        t.ng,
        t.perms,
        t.dense,
        SYM,
        layout.part_of_set,
        layout.part_off,
        layout.parts,
        layout.orient,
        layout.hands,
    )


@njit(cache=True, nogil=True)
def is_state(pos: np.ndarray, occ: np.uint64) -> bool:
    """Fits in 4x4, no isolated dove, neither Boss surrounded."""
    minr, maxr, minc, maxc = bounds(occ)
    if maxr - minr > 3 or maxc - minc > 3:
        return False
    if any_isolated(pos, occ):
        return False
    return (
        liberties(pos[0], occ, minr, maxr, minc, maxc) > 0
        and liberties(pos[1], occ, minr, maxr, minc, maxc) > 0
    )


@njit(cache=True, nogil=True)
def unmoves(
    code: np.uint64, side: int, allow_remove: bool, hand: int, pos: np.ndarray, out: np.ndarray
) -> int:
    """Predecessor positions of ``code`` (``side`` to move) into ``out``; returns their number.

    Every one has the other side (the mover) to move. ``out`` must hold ``MAX_PREDS`` codes."""
    decode(code, pos)
    occ = occupancy(pos)
    if not is_state(pos, occ):
        return 0
    mover = 1 - side
    n = 0
    # un-move
    for i in range(mover, 12, 2):
        p = pos[i]
        if p < 0:
            continue
        kind = i >> 1
        base = occ & ~BIT[p]
        if kind == TOTSU:
            for j in range(4):
                r = p >> 3
                c = p & 7
                while True:
                    r -= ORTH_DR[j]
                    c -= ORTH_DC[j]
                    if r < 0 or r > 7 or c < 0 or c > 7:
                        break
                    q = r * 8 + c
                    if occ & BIT[q]:
                        break  # the slide passed only over empty squares
                    pos[i] = q
                    if is_state(pos, base | BIT[q]):
                        out[n] = encode(pos)
                        n += 1
                    pos[i] = p
            continue
        for j in range(8):
            q = STEPS[kind, p, j]
            if q < 0:
                break
            if occ & BIT[q]:
                continue
            pos[i] = q
            if is_state(pos, base | BIT[q]):
                out[n] = encode(pos)
                n += 1
            pos[i] = p
    # un-put: the put square touched another own dove and was not beside the enemy Boss
    enemy_boss = N4[pos[side]]
    for i in range(mover + 2, 12, 2):
        p = pos[i]
        if p < 0 or not (hand >> i) & 1 or enemy_boss & BIT[p]:
            continue
        near = U0
        for j in range(mover, 12, 2):
            if j != i and pos[j] >= 0:
                near |= N8[pos[j]]
        if not near & BIT[p]:
            continue
        pos[i] = -1
        if is_state(pos, occ & ~BIT[p]):
            out[n] = encode(pos)
            n += 1
        pos[i] = p
    # un-remove: the dove comes back next to some dove
    if allow_remove:
        near = U0
        for j in range(12):
            if pos[j] >= 0:
                near |= N8[pos[j]]
        cells = near & ~occ
        for i in range(mover + 2, 12, 2):
            if pos[i] >= 0 or not (hand >> i) & 1:
                continue
            for q in range(64):
                if not cells & BIT[q]:
                    continue
                pos[i] = q
                if is_state(pos, occ | BIT[q]):
                    out[n] = encode(pos)
                    n += 1
            pos[i] = -1
    return n


@njit(cache=True, nogil=True)
def leads_to(
    pcode: np.uint64,
    side: int,
    target: np.uint64,
    allow_remove: bool,
    judge: int,
    hand: int,
    pos: np.ndarray,
    acts: np.ndarray,
    codes: np.ndarray,
    outs: np.ndarray,
    libs: np.ndarray,
) -> bool:
    """Does a legal action of ``side`` in ``pcode`` lead to ``target`` with the game going on?"""
    k = generate(pcode, side, allow_remove, judge, pos, acts, codes, outs, libs, hand)
    for j in range(k):
        if codes[j] == target and outs[j] == ONGOING:
            return True
    return False


@njit(cache=True, nogil=True)
def verified(
    code: np.uint64,
    side: int,
    allow_remove: bool,
    judge: int,
    hand: int,
    pos: np.ndarray,
    out: np.ndarray,
    acts: np.ndarray,
    codes: np.ndarray,
    outs: np.ndarray,
    libs: np.ndarray,
) -> int:
    """``unmoves`` keeping only the candidates whose forward generation yields ``code``."""
    n = unmoves(code, side, allow_remove, hand, pos, out)
    m = 0
    for j in range(n):
        if leads_to(out[j], 1 - side, code, allow_remove, judge, hand, pos, acts, codes, outs, libs):
            out[m] = out[j]
            m += 1
    return m


@njit(cache=True, nogil=True)
def stabiliser(code: np.uint64) -> int:
    """Number of the 8 symmetries mapping the (bounding-box normalised) position onto itself."""
    cells = np.empty(12, dtype=np.int64)
    doves = np.empty(12, dtype=np.int64)
    k = 0
    for i in range(12):
        if (code >> np.uint64(59 - i)) & U1:
            cells[k] = np.int64((code >> np.uint64(44 - 4 * i)) & np.uint64(15))
            doves[k] = i
            k += 1
    count = 0
    for g in range(8):
        minr = 4
        minc = 4
        for j in range(k):
            b = SYM[g, cells[j]]
            minr = min(minr, b >> 2)
            minc = min(minc, b & 3)
        image = U0
        for j in range(k):
            b = SYM[g, cells[j]] - 4 * minr - minc
            image |= U1 << np.uint64(59 - doves[j])
            image |= np.uint64(b) << np.uint64(44 - 4 * doves[j])
        if image == code:
            count += 1
    return count


@njit(cache=True, nogil=True)
def partition_of(g: np.int64, part_off: np.ndarray) -> int:
    """Partition holding global index ``g`` (``part_off`` ascending, len = partitions + 1)."""
    lo = 0
    hi = part_off.shape[0] - 2
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if part_off[mid] <= g:
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True, nogil=True)
def class_code(g: np.int64, tabs: tuple) -> tuple[int, np.uint64]:
    """(partition, Red-to-move code in the partition's frame) of class ``g``."""
    first, offset, slots, squares, table_off, listing = tabs[0], tabs[1], tabs[2], tabs[3], tabs[4], tabs[5]
    part_off, parts = tabs[13], tabs[14]
    q = partition_of(g, part_off)
    code = unrank_in_partition(parts[q], g - part_off[q], first, offset, slots, squares, table_off, listing)
    return q, code


@njit(cache=True, nogil=True)
def rank_child(code: np.uint64, real_side: int, tabs: tuple) -> np.int64:
    """Global index of a position whose *frame* side 1 is to move (real side ``real_side``)."""
    child = swap_colours(code)
    p = tabs[12][real_side, dove_set(child)]
    if p < 0:
        return np.int64(-1)
    return tabs[13][p] + rank_in_partition(
        child, tabs[6], tabs[7], tabs[8], tabs[9], tabs[1], tabs[4], tabs[10], tabs[11]
    )


@njit(cache=True, nogil=True)
def pred_classes(
    g: np.int64,
    allow_remove: bool,
    tabs: tuple,
    pos: np.ndarray,
    pcodes: np.ndarray,
    idx: np.ndarray,
    out_idx: np.ndarray,
    out_found: np.ndarray,
    out_code: np.ndarray,
) -> tuple[int, int]:
    """Distinct predecessor classes of class ``g``: (their number, predecessor positions generated).

    ``out_idx[j]``: the class, ``out_found[j]``: how many predecessor positions of the class's
    representative fall in it, ``out_code[j]``: one of them (frame side 1 to move), for
    ``multiplicity``. Buffers hold ``MAX_PREDS``."""
    q, code = class_code(g, tabs)
    n = unmoves(code, 0, allow_remove, tabs[16][q], pos, pcodes)
    real_side = 1 - tabs[15][q]
    for j in range(n):
        idx[j] = rank_child(pcodes[j], real_side, tabs)
    # insertion sort of (index, code) pairs: n is small
    for a in range(1, n):
        x = idx[a]
        c = pcodes[a]
        b = a - 1
        while b >= 0 and idx[b] > x:
            idx[b + 1] = idx[b]
            pcodes[b + 1] = pcodes[b]
            b -= 1
        idx[b + 1] = x
        pcodes[b + 1] = c
    d = 0
    for j in range(n):
        if d > 0 and out_idx[d - 1] == idx[j]:
            out_found[d - 1] += 1
        else:
            out_idx[d] = idx[j]
            out_found[d] = 1
            out_code[d] = pcodes[j]
            d += 1
    return d, n


@njit(cache=True, nogil=True)
def multiplicity(found: int, pcode: np.uint64, stab_s: int) -> int:
    """Actions of the predecessor class into the class (module docstring); -1 if not a whole number."""
    num = found * stabiliser(pcode)
    if num % stab_s:
        return -1
    return num // stab_s


@njit(cache=True, nogil=True)
def successor_classes(
    g: np.int64,
    allow_remove: bool,
    judge: int,
    tabs: tuple,
    pos: np.ndarray,
    acts: np.ndarray,
    codes: np.ndarray,
    outs: np.ndarray,
    libs: np.ndarray,
    out: np.ndarray,
) -> int:
    """Every ONGOING child class of class ``g``, one entry per action (also for immediate wins);
    none for a terminal class (a Boss already surrounded: the game is over there)."""
    q, code = class_code(g, tabs)
    decode(code, pos)
    if not is_state(pos, occupancy(pos)):
        return 0
    k = generate(code, 0, allow_remove, judge, pos, acts, codes, outs, libs, tabs[16][q])
    real_side = 1 - tabs[15][q]
    m = 0
    for j in range(k):
        if outs[j] == ONGOING:
            out[m] = rank_child(codes[j], real_side, tabs)
            m += 1
    return m


@njit(cache=True, nogil=True)
def forward_pairs(
    lo: int,
    hi: int,
    allow_remove: bool,
    judge: int,
    tabs: tuple,
    src: np.ndarray,
    dst: np.ndarray,
) -> int:
    """(parent, child) for every ONGOING action of classes lo..hi-1; buffers hold (hi-lo)*MAX_ACTIONS."""
    pos = np.zeros(12, dtype=np.int64)
    acts = np.zeros(MAX_ACTIONS, dtype=np.int64)
    codes = np.zeros(MAX_ACTIONS, dtype=np.uint64)
    outs = np.zeros(MAX_ACTIONS, dtype=np.int64)
    libs = np.zeros((MAX_ACTIONS, 2), dtype=np.int64)
    buf = np.zeros(MAX_ACTIONS, dtype=np.int64)
    m = 0
    for g in range(lo, hi):
        k = successor_classes(np.int64(g), allow_remove, judge, tabs, pos, acts, codes, outs, libs, buf)
        for j in range(k):
            src[m] = g
            dst[m] = buf[j]
            m += 1
    return m


@njit(cache=True, nogil=True)
def backward_pairs(
    lo: int,
    hi: int,
    allow_remove: bool,
    tabs: tuple,
    src: np.ndarray,
    dst: np.ndarray,
    mult: np.ndarray,
) -> int:
    """(predecessor, class, multiplicity) for every distinct predecessor class of classes lo..hi-1."""
    pos = np.zeros(12, dtype=np.int64)
    pcodes = np.zeros(MAX_PREDS, dtype=np.uint64)
    idx = np.zeros(MAX_PREDS, dtype=np.int64)
    out_idx = np.zeros(MAX_PREDS, dtype=np.int64)
    out_found = np.zeros(MAX_PREDS, dtype=np.int64)
    out_code = np.zeros(MAX_PREDS, dtype=np.uint64)
    m = 0
    for g in range(lo, hi):
        d, n = pred_classes(np.int64(g), allow_remove, tabs, pos, pcodes, idx, out_idx, out_found, out_code)
        if d == 0:
            continue
        _, code = class_code(np.int64(g), tabs)
        stab_s = stabiliser(code)
        for j in range(d):
            src[m] = out_idx[j]
            dst[m] = g
            mult[m] = multiplicity(out_found[j], out_code[j], stab_s)
            m += 1
    return m
