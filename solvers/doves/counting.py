"""Exact number of Tokyo Doves arrangements, by shape and in closed form (numpy, no enumeration).

A *shape* is a set of 2..12 occupied squares inside 4x4 where no square is isolated (every square
touches another one by a side or corner), taken up to translation and the 8 rotations/reflections.
A *position* is a labelling of a shape's squares with distinct doves: both Bosses plus k - 2 of the
other 10 doves, up to the same symmetries. Side to move is not part of it (rules.md §2).

Counting labellings of one canonical shape S with k squares: there are P(10, k - 2) = 10!/(12 - k)!
ways to put the non-Boss doves for every ordered pair of Boss squares. Whether a Boss on square x is
surrounded depends only on S and x (its four sides are in S or are walls of a full-span axis), so the
neither/one/both split is combinatorial in the number s of "surrounding" squares of S. Orbits follow
from Burnside over the stabiliser of S: a labelling with distinct labels is fixed by a symmetry only
if that symmetry fixes every square of S (all squares on a mirror line), hence
``orbits = labellings * (1 + f) / |Stab(S)|`` with f the number of such non-trivial symmetries.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import perm

import numpy as np

SQUARES = 16


def _sym_tables() -> np.ndarray:
    """perm[g, b]: where bit b (= r * 4 + c) of a 4x4 mask goes under symmetry g (before translation)."""
    table = np.zeros((8, SQUARES), dtype=np.int64)
    g = 0
    for transpose in (False, True):
        for flip_r in (False, True):
            for flip_c in (False, True):
                for b in range(SQUARES):
                    r, c = divmod(b, 4)
                    if transpose:
                        r, c = c, r
                    if flip_r:
                        r = 3 - r
                    if flip_c:
                        c = 3 - c
                    table[g, b] = r * 4 + c
                g += 1
    return table


SYM = _sym_tables()


def _bits(masks: np.ndarray) -> np.ndarray:
    return ((masks[:, None] >> np.arange(SQUARES)) & 1).astype(bool)


def _translate(masks: np.ndarray) -> np.ndarray:
    """Shift each mask to its bounding box's top-left corner (vectorised)."""
    bits = _bits(masks).reshape(-1, 4, 4)
    rows = bits.any(axis=2)
    cols = bits.any(axis=1)
    minr = np.argmax(rows, axis=1)
    minc = np.argmax(cols, axis=1)
    return (masks >> (4 * minr)) >> minc  # columns never wrap: every square's column >= minc


def _neighbour_masks() -> tuple[np.ndarray, np.ndarray]:
    n8 = np.zeros(SQUARES, dtype=np.int64)
    n4 = np.zeros(SQUARES, dtype=np.int64)
    for b in range(SQUARES):
        r, c = divmod(b, 4)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < 4 and 0 <= c + dc < 4:
                    n8[b] |= 1 << ((r + dr) * 4 + c + dc)
                    if dr == 0 or dc == 0:
                        n4[b] |= 1 << ((r + dr) * 4 + c + dc)
    return n8, n4


N8, N4 = _neighbour_masks()


def canonical_shapes() -> np.ndarray:
    """All canonical shapes (smallest mask over the 8 images, each translated to the corner)."""
    masks = np.arange(1 << SQUARES, dtype=np.int64)
    bits = _bits(masks)
    size = bits.sum(axis=1)
    lonely = np.zeros(masks.shape, dtype=bool)
    for b in range(SQUARES):
        lonely |= bits[:, b] & ((masks & N8[b]) == 0)
    ok = (size >= 2) & (size <= 12) & ~lonely
    masks = masks[ok]
    bits = bits[ok]
    images = np.stack([_translate((bits * (1 << SYM[g])).sum(axis=1)) for g in range(8)])
    canon = images.min(axis=0)
    return np.unique(canon[canon == masks])


def _surround_squares(mask: int) -> int:
    """Squares of the shape on which a Boss would be surrounded (sides occupied or walls)."""
    cells = [b for b in range(SQUARES) if mask >> b & 1]
    rows = {b // 4 for b in cells}
    cols = {b % 4 for b in cells}
    wall_rows = len(range(min(rows), max(rows) + 1)) == 4
    wall_cols = len(range(min(cols), max(cols) + 1)) == 4
    count = 0
    for b in cells:
        r, c = divmod(b, 4)
        closed = True
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            if dr and wall_rows and not 0 <= nr < 4:
                continue
            if dc and wall_cols and not 0 <= nc < 4:
                continue
            if 0 <= nr < 4 and 0 <= nc < 4 and mask >> (nr * 4 + nc) & 1:
                continue
            closed = False
            break
        count += closed
    return count


def _symmetry_factor(mask: int) -> tuple[int, int]:
    """(|stabiliser|, number of non-trivial symmetries fixing every square) of a canonical shape."""
    cells = [b for b in range(SQUARES) if mask >> b & 1]
    stab = 0
    pointwise = 0
    for g in range(8):
        image = sum(1 << int(SYM[g, b]) for b in cells)
        moved = int(_translate(np.array([image], dtype=np.int64))[0])
        if moved != mask:
            continue
        stab += 1
        if g == 0:
            continue
        # the translation that brought the image back: compare the images of one square
        shift = image.bit_length() - moved.bit_length()
        if all((1 << int(SYM[g, b])) >> shift == 1 << b for b in cells):
            pointwise += 1
    return stab, pointwise


@dataclass
class CountResult:
    shapes: int
    shapes_by_doves: dict[int, int]
    by_doves: dict[int, dict[str, int]] = field(default_factory=dict)
    seconds: float = 0.0

    def total(self, key: str = "positions") -> int:
        return sum(row[key] for row in self.by_doves.values())

    def to_json(self) -> dict[str, object]:
        return {
            "shapes": self.shapes,
            "shapes_by_doves": {str(k): v for k, v in sorted(self.shapes_by_doves.items())},
            "total": self.total(),
            "by_doves": {str(k): dict(v) for k, v in sorted(self.by_doves.items())},
            "neither": self.total("neither"),
            "one": self.total("one"),
            "both": self.total("both"),
            "seconds": round(self.seconds, 3),
        }


def count_positions() -> CountResult:
    start = time.perf_counter()
    shapes = canonical_shapes()
    by_doves: dict[int, dict[str, int]] = {
        k: {"positions": 0, "neither": 0, "one": 0, "both": 0} for k in range(2, 13)
    }
    shapes_by: dict[int, int] = dict.fromkeys(range(2, 13), 0)
    for mask in shapes.tolist():
        k = bin(mask).count("1")
        shapes_by[k] += 1
        s = _surround_squares(mask)
        stab, pointwise = _symmetry_factor(mask)
        others = perm(10, k - 2)  # ordered choice of the non-Boss doves for the other squares
        pairs = {"neither": (k - s) * (k - s - 1), "one": 2 * s * (k - s), "both": s * (s - 1)}
        row = by_doves[k]
        for key, n in pairs.items():
            labelled = n * others * (1 + pointwise)
            if labelled % stab:
                raise AssertionError(f"Burnside count not integral for shape {mask:#06x}")
            row[key] += labelled // stab
    for row in by_doves.values():
        row["positions"] = row["neither"] + row["one"] + row["both"]
    return CountResult(len(shapes), shapes_by, by_doves, time.perf_counter() - start)


# ---- the blog's convention (B1/B3, 2022) ---------------------------------------------------------


def _untranslated_images(mask: int) -> int:
    """Distinct masks among the 8 symmetric images of ``mask`` *as placed*, before any shift."""
    cells = [b for b in range(SQUARES) if mask >> b & 1]
    return len({sum(1 << int(SYM[g, b]) for b in cells) for g in range(8)})


def _blog_representative(mask: int) -> int:
    """The largest of the shape's 8 images shifted into the top-left corner.

    Only this choice reproduces the blog: for four shapes in a 3x3 box the number of untranslated
    images is 4 from one corner-shifted image and 8 from another (0x136 vs 0x631, for instance)."""
    cells = [b for b in range(SQUARES) if mask >> b & 1]
    images = np.array([sum(1 << int(SYM[g, b]) for b in cells) for g in range(8)], dtype=np.int64)
    return int(_translate(images).max())


@dataclass
class BlogCount:
    total: int
    neither: int
    one: int
    both: int
    seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "convention": "blog",
            "total": self.total,
            "neither": self.neither,
            "one": self.one,
            "both": self.both,
            "neither_or_both": self.neither + self.both,  # the blog's second figure
            "seconds": round(self.seconds, 3),
        }


def count_blog() -> BlogCount:
    """The blog's figures: each canonical shape with k squares weighs
    P(k, 2) x P(10, k - 2) x (distinct untranslated images of its representative) / 8.

    Right would be orbits of placed shapes (images compared after translation, plus Burnside for
    shapes on a mirror line), as ``count_positions`` does; images compared before translation
    over-count shapes that are symmetric only up to a shift. 509,462,034,903 in all; its second
    figure 318,195,819,783 is "neither Boss surrounded" plus "both surrounded" under this weighting.
    """
    start = time.perf_counter()
    sums = {"neither": 0, "one": 0, "both": 0}  # in eighths: the weights are multiples of 1/8
    for mask in canonical_shapes().tolist():
        k = bin(mask).count("1")
        rep = _blog_representative(mask)
        s = _surround_squares(rep)
        weight = perm(10, k - 2) * _untranslated_images(rep)
        sums["neither"] += (k - s) * (k - s - 1) * weight
        sums["one"] += 2 * s * (k - s) * weight
        sums["both"] += s * (s - 1) * weight
    if any(v % 8 for v in sums.values()):
        raise AssertionError("the blog weighting did not give whole numbers")
    n, o, b = (sums[key] // 8 for key in ("neither", "one", "both"))
    return BlogCount(n + o + b, n, o, b, time.perf_counter() - start)
