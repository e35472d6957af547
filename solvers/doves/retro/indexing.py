"""Perfect index: Tokyo Doves positions up to symmetry and side to move <-> dense integers.

A position is normalised to *Red to move* (if Green moves, the colours are swapped: dove i <-> i ^ 1)
and taken up to the 8 rotations/reflections (translation is already factored out by the code). Its
*dove set* (12-bit mask, bit i = dove i on the board) names its partition; inside a partition the
index is dense: ``0 .. size - 1``, every value is exactly one class.

Inside a partition of k doves, a class is (canonical shape, labelling of its k squares by the k doves
in dove order). Shapes are ``counting.canonical_shapes()`` (smallest mask of the 8 translated images);
the shapes of k squares are concatenated in mask order, shape s taking ``k! / |G_s|`` slots, where
G_s is the group of distinct permutations of the shape's squares induced by the symmetries that map
the shape onto itself (symmetries fixing every square act trivially, so G_s acts freely on
labellings; this is the Burnside count of ``counting.py``).

A labelling is ranked as a permutation (lexicographic rank R of "square of the j-th dove", 0..k!-1).
For an asymmetric shape the slot is R. For a symmetric shape the canonical labelling of a class is the
image with the least R, and only its first P = min(k, 5) entries decide that: five distinct squares
never lie on one mirror line, so no non-trivial symmetry fixes a 5-prefix and G_s acts freely on
prefixes. A per-shape table numbers the canonical prefixes densely, and the slot is
``dense(prefix) * (k - P)! + R mod (k - P)!``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from math import factorial

import numpy as np

from solvers.common.kernels import njit
from solvers.doves.counting import SYM, canonical_shapes

PREFIX = 5  # squares of a labelling that decide its canonical image (see the module docstring)
FACT = np.array([factorial(n) for n in range(13)], dtype=np.int64)
U1 = np.uint64(1)


@njit(cache=True, nogil=True)
def perm_rank(seq: np.ndarray, k: int) -> np.int64:
    """Lexicographic rank of a permutation ``seq[0:k]`` of 0..k-1."""
    r = np.int64(0)
    for i in range(k):
        c = seq[i]
        for j in range(i):
            if seq[j] < seq[i]:
                c -= 1
        r += c * FACT[k - 1 - i]
    return r


@njit(cache=True, nogil=True)
def perm_unrank(r: np.int64, k: int, out: np.ndarray) -> None:
    """Inverse of ``perm_rank``: fill ``out[0:k]``."""
    used = 0
    for i in range(k):
        f = FACT[k - 1 - i]
        c = r // f
        r -= c * f
        x = 0
        while True:
            if not (used >> x) & 1:
                if c == 0:
                    break
                c -= 1
            x += 1
        out[i] = x
        used |= 1 << x


@njit(cache=True, nogil=True)
def _prefix_table(k: int, p: int, perms: np.ndarray, ng: int, dense: np.ndarray, listing: np.ndarray) -> int:
    """Number the canonical p-prefixes of a symmetric shape: dense[prefix] (or -1) and its inverse."""
    f = FACT[k - p]
    n = FACT[k] // f
    seq = np.zeros(12, dtype=np.int64)
    img = np.zeros(12, dtype=np.int64)
    m = 0
    for q in range(n):
        perm_unrank(q * f, k, seq)  # smallest permutation with this prefix: ranks compare prefixes
        canonical = True
        for h in range(1, ng):
            for j in range(k):
                img[j] = perms[h, seq[j]]
            if perm_rank(img, k) // f < q:
                canonical = False
                break
        if canonical:
            dense[q] = m
            listing[m] = q
            m += 1
        else:
            dense[q] = -1
    return m


@dataclass
class ShapeTables:
    """Every canonical shape with its squares, symmetry group and prefix tables (numba-friendly)."""

    mask_to_shape: np.ndarray  # 65536 -> shape id or -1
    k: np.ndarray  # squares per shape
    squares: np.ndarray  # (shapes, 12) 4x4 cell (r * 4 + c) of each square, in increasing order
    square_index: np.ndarray  # (shapes, 16) index of a cell among the shape's squares, -1 if absent
    ng: np.ndarray  # |G_s|
    perms: np.ndarray  # (shapes, 8, 12) G_s as permutations of square indices (row 0 = identity)
    slots: np.ndarray  # k! / |G_s|
    offset: np.ndarray  # first slot of the shape within a partition of k doves
    first: np.ndarray  # first shape id with k squares (index k, 0..13)
    table_off: np.ndarray  # start of the shape's prefix tables in dense/listing, -1 if asymmetric
    dense: np.ndarray
    listing: np.ndarray
    kmax: int

    def partition_size(self, k: int) -> int:
        last = int(self.first[k + 1]) - 1
        return int(self.offset[last] + self.slots[last])


_CACHE: dict[int, ShapeTables] = {}
# Analysis jobs, the AI and tablebase lookups may ask from several threads at once: one builds,
# the others wait for its tables instead of building their own (seconds, and a torn cache).
_CACHE_LOCK = threading.Lock()


def _cached(kmax: int) -> ShapeTables | None:
    return next((tables for have, tables in list(_CACHE.items()) if have >= kmax), None)


def shape_tables(kmax: int = 12) -> ShapeTables:
    """Tables for partitions of up to ``kmax`` doves (prefix tables are built only for those).
    Thread-safe: built once per ``kmax`` and process."""
    tables = _cached(kmax)
    if tables is not None:
        return tables
    with _CACHE_LOCK:
        tables = _cached(kmax)
        return tables if tables is not None else _build_shape_tables(kmax)


def _build_shape_tables(kmax: int) -> ShapeTables:
    shapes = canonical_shapes().tolist()
    shapes.sort(key=lambda m: (bin(m).count("1"), m))
    count = len(shapes)
    mask_to_shape = np.full(1 << 16, -1, dtype=np.int64)
    ks = np.zeros(count, dtype=np.int64)
    squares = np.full((count, 12), -1, dtype=np.int64)
    square_index = np.full((count, 16), -1, dtype=np.int64)
    ng = np.zeros(count, dtype=np.int64)
    perms = np.zeros((count, 8, 12), dtype=np.int64)
    first = np.zeros(14, dtype=np.int64)
    for s, mask in enumerate(shapes):
        mask_to_shape[mask] = s
        cells = [b for b in range(16) if mask >> b & 1]
        ks[s] = len(cells)
        squares[s, : len(cells)] = cells
        for j, b in enumerate(cells):
            square_index[s, b] = j
        found: list[tuple[int, ...]] = [tuple(range(len(cells)))]
        for g in range(8):
            image = [int(SYM[g, b]) for b in cells]
            minr = min(b >> 2 for b in image)
            minc = min(b & 3 for b in image)
            moved = [b - 4 * minr - minc for b in image]
            if sum(1 << b for b in moved) != mask:
                continue
            perm = tuple(cells.index(b) for b in moved)
            if perm not in found:
                found.append(perm)
        ng[s] = len(found)
        for h, perm in enumerate(found):
            perms[s, h, : len(cells)] = perm
    for k in range(13, -1, -1):
        first[k] = int(np.searchsorted(ks, k)) if k <= 12 else count
    slots = FACT[ks] // ng
    offset = np.zeros(count, dtype=np.int64)
    for k in range(2, 13):
        lo, hi = first[k], first[k + 1]
        offset[lo:hi] = np.concatenate(([0], np.cumsum(slots[lo:hi])[:-1]))
    table_off = np.full(count, -1, dtype=np.int64)
    sizes = [
        int(FACT[ks[s]] // FACT[ks[s] - min(ks[s], PREFIX)]) if ng[s] > 1 and ks[s] <= kmax else 0
        for s in range(count)
    ]
    dense = np.full(max(1, sum(sizes)), -1, dtype=np.int32 if kmax > 8 else np.int64)
    listing = np.full(max(1, sum(sizes)), -1, dtype=dense.dtype)
    at = 0
    for s in range(count):
        if not sizes[s]:
            continue
        k = int(ks[s])
        p = min(k, PREFIX)
        d = np.empty(sizes[s], dtype=np.int64)
        li = np.empty(sizes[s], dtype=np.int64)
        m = _prefix_table(k, p, perms[s], int(ng[s]), d, li)
        if m * ng[s] != sizes[s]:
            raise AssertionError(
                f"shape {shapes[s]:#06x}: the symmetry group does not act freely on prefixes"
            )
        table_off[s] = at
        dense[at : at + sizes[s]] = d
        listing[at : at + m] = li[:m]
        at += sizes[s]
    tables = ShapeTables(
        mask_to_shape,
        ks,
        squares,
        square_index,
        ng,
        perms,
        slots,
        offset,
        first,
        table_off,
        dense,
        listing,
        kmax,
    )
    _CACHE[kmax] = tables
    return tables


# ---- codes -----------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def swap_colours(code: np.uint64) -> np.uint64:
    """The same placement with every dove's colour swapped (dove i <-> i ^ 1)."""
    out = np.uint64(0)
    for i in range(12):
        if (code >> np.uint64(59 - i)) & U1:
            j = i ^ 1
            sq = (code >> np.uint64(44 - 4 * i)) & np.uint64(15)
            out |= U1 << np.uint64(59 - j)
            out |= sq << np.uint64(44 - 4 * j)
    return out


@njit(cache=True, nogil=True)
def dove_set(code: np.uint64) -> int:
    """12-bit mask of the doves on the board (bit i = dove i)."""
    s = 0
    for i in range(12):
        if (code >> np.uint64(59 - i)) & U1:
            s |= 1 << i
    return s


@njit(cache=True, nogil=True)
def rank_in_partition(
    code: np.uint64,
    mask_to_shape: np.ndarray,
    square_index: np.ndarray,
    ng: np.ndarray,
    perms: np.ndarray,
    offset: np.ndarray,
    table_off: np.ndarray,
    dense: np.ndarray,
    sym: np.ndarray,
) -> np.int64:
    """Slot of a Red-to-move code within its dove-set partition."""
    cells = np.empty(12, dtype=np.int64)
    k = 0
    for i in range(12):
        if (code >> np.uint64(59 - i)) & U1:
            cells[k] = np.int64((code >> np.uint64(44 - 4 * i)) & np.uint64(15))
            k += 1
    best_mask = 1 << 17
    best_g = 0
    best_shift = 0
    for g in range(8):
        minr = 4
        minc = 4
        for j in range(k):
            b = sym[g, cells[j]]
            minr = min(minr, b >> 2)
            minc = min(minc, b & 3)
        shift = 4 * minr + minc
        mask = 0
        for j in range(k):
            mask |= 1 << (sym[g, cells[j]] - shift)
        if mask < best_mask:
            best_mask = mask
            best_g = g
            best_shift = shift
    s = mask_to_shape[best_mask]
    seq = np.empty(12, dtype=np.int64)
    for j in range(k):
        seq[j] = square_index[s, sym[best_g, cells[j]] - best_shift]
    if ng[s] == 1:
        return offset[s] + perm_rank(seq, k)
    img = np.empty(12, dtype=np.int64)
    best = np.int64(-1)
    for h in range(ng[s]):
        for j in range(k):
            img[j] = perms[s, h, seq[j]]
        r = perm_rank(img, k)
        if best < 0 or r < best:
            best = r
    f = FACT[k - min(k, 5)]
    return offset[s] + np.int64(dense[table_off[s] + best // f]) * f + best % f


@njit(cache=True, nogil=True)
def unrank_in_partition(
    dset: int,
    slot: np.int64,
    first: np.ndarray,
    offset: np.ndarray,
    slots: np.ndarray,
    squares: np.ndarray,
    table_off: np.ndarray,
    listing: np.ndarray,
) -> np.uint64:
    """Red-to-move code of the class in ``slot`` of partition ``dset`` (squares in the shape's frame)."""
    k = 0
    for i in range(12):
        if (dset >> i) & 1:
            k += 1
    lo = first[k]
    hi = first[k + 1] - 1
    while lo < hi:  # last shape whose offset <= slot
        mid = (lo + hi + 1) // 2
        if offset[mid] <= slot:
            lo = mid
        else:
            hi = mid - 1
    s = lo
    local = slot - offset[s]
    if table_off[s] >= 0:
        f = FACT[k - min(k, 5)]
        local = np.int64(listing[table_off[s] + local // f]) * f + local % f
    seq = np.empty(12, dtype=np.int64)
    perm_unrank(local, k, seq)
    code = np.uint64(0)
    j = 0
    for i in range(12):
        if (dset >> i) & 1:
            code |= U1 << np.uint64(59 - i)
            code |= np.uint64(squares[s, seq[j]]) << np.uint64(44 - 4 * i)
            j += 1
    return code
