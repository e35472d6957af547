"""A variant's index space: its dove-set partitions laid end to end.

A reduced game gives each side its Boss plus some doves ("red AT, green AY"); the other doves are
out of the game (not in hand). Its positions are every placement of a subset of those doves that
holds both Bosses, with either side to move. Normalised to Red to move, a Green-to-move position
lands in the colour-swapped dove set. When both sides have the same doves that is the whole story;
when they differ, "Red to move with {B, b}" is two different situations (who may put what), so each
partition also carries an *orientation*: 0 = Red really is to move, 1 = the colours were swapped.
Partitions are ordered by (orientation, dove-set mask); the global index is
``offset[partition] + slot``, so each partition is one contiguous range a worker can own. The full
game is the variant with all five kinds on both sides: 1,024 partitions of 2..12 doves,
508,064,190,482 classes (the count of counting.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

import numpy as np

from solvers.common.errors import InputError
from solvers.common.kernels import njit
from solvers.doves.counting import SYM
from solvers.doves.model import LETTERS, Position
from solvers.doves.retro import indexing
from solvers.doves.retro.indexing import ShapeTables, dove_set, rank_in_partition, swap_colours

KIND_LETTERS = "AYMTH"  # kinds 1..5; the Boss (kind 0) is always in


def parse_kinds(text: str, name: str) -> tuple[int, ...]:
    """'AT' / 'at' / '' -> kinds (1..5), in kind order; InputError names the argument."""
    kinds = set()
    for ch in text.strip().upper():
        if ch not in KIND_LETTERS:
            raise InputError(f"{name}: {ch!r} is not a dove letter (use A Y M T H, the Boss is always in)")
        kinds.add(KIND_LETTERS.index(ch) + 1)
    return tuple(sorted(kinds))


def _popcount(x: int) -> int:
    return bin(x).count("1")


@njit(cache=True, nogil=True)
def rank_codes(
    codes: np.ndarray,
    sides: np.ndarray,
    out: np.ndarray,
    part_of_set: np.ndarray,
    part_off: np.ndarray,
    mask_to_shape: np.ndarray,
    square_index: np.ndarray,
    ng: np.ndarray,
    perms: np.ndarray,
    offset: np.ndarray,
    table_off: np.ndarray,
    dense: np.ndarray,
    sym: np.ndarray,
) -> None:
    """Global index of every (code, side to move); -1 for a dove set outside the variant."""
    for n in range(codes.shape[0]):
        code = codes[n]
        side = sides[n]
        if side:
            code = swap_colours(code)
        p = part_of_set[side, dove_set(code)]
        if p < 0:
            out[n] = -1
            continue
        out[n] = part_off[p] + rank_in_partition(
            code, mask_to_shape, square_index, ng, perms, offset, table_off, dense, sym
        )


@njit(cache=True, nogil=True)
def unrank_range(
    dset: int,
    start: int,
    out: np.ndarray,
    first: np.ndarray,
    offset: np.ndarray,
    slots: np.ndarray,
    squares: np.ndarray,
    table_off: np.ndarray,
    listing: np.ndarray,
) -> None:
    """Red-to-move codes of slots ``start .. start + len(out) - 1`` of one partition."""
    for n in range(out.shape[0]):
        out[n] = indexing.unrank_in_partition(
            dset, np.int64(start + n), first, offset, slots, squares, table_off, listing
        )


@dataclass
class Layout:
    red: tuple[int, ...]
    green: tuple[int, ...]
    mask: int = field(init=False)  # doves in the game (bit i = dove i)
    parts: np.ndarray = field(init=False)  # dove-set mask of each partition
    orient: np.ndarray = field(init=False)  # 0: Red to move, 1: colours swapped (Green to move)
    hands: np.ndarray = field(init=False)  # doves in the game, in the partition's (Red-to-move) frame
    part_off: np.ndarray = field(init=False)  # len(parts) + 1 offsets
    part_of_set: np.ndarray = field(init=False)  # (real side to move, 4096) -> partition or -1
    tables: ShapeTables = field(init=False)

    def __post_init__(self) -> None:
        self.mask, symmetric, keys = _keys(self.red, self.green)
        self.parts = np.array([s for _, s in keys], dtype=np.int64)
        self.orient = np.array([o for o, _ in keys], dtype=np.int64)
        self.hands = np.array([_swap_set(self.mask) if o else self.mask for o, _ in keys], dtype=np.int64)
        kmax = max(_popcount(s) for _, s in keys)
        self.tables = indexing.shape_tables(kmax)
        sizes = [self.tables.partition_size(_popcount(s)) for _, s in keys]
        self.part_off = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        self.part_of_set = np.full((2, 4096), -1, dtype=np.int64)
        for p, (o, s) in enumerate(keys):
            self.part_of_set[o, s] = p
            if symmetric:
                self.part_of_set[1, s] = p

    @staticmethod
    def from_letters(red: str, green: str | None = None) -> Layout:
        r = parse_kinds(red, "red doves")
        g = r if green is None else parse_kinds(green, "green doves")
        return Layout(r, g)

    @property
    def name(self) -> str:
        red = "B" + "".join(LETTERS[2 * k] for k in self.red)
        green = "b" + "".join(LETTERS[2 * k + 1] for k in self.green)
        return f"{red}-{green}"

    @property
    def size(self) -> int:
        return int(self.part_off[-1])

    def partition_range(self, p: int) -> tuple[int, int]:
        return int(self.part_off[p]), int(self.part_off[p + 1])

    def rank_many(self, codes: np.ndarray, sides: np.ndarray) -> np.ndarray:
        t = self.tables
        out = np.empty(len(codes), dtype=np.int64)
        rank_codes(
            codes.astype(np.uint64),
            sides.astype(np.int64),
            out,
            self.part_of_set,
            self.part_off,
            t.mask_to_shape,
            t.square_index,
            t.ng,
            t.perms,
            t.offset,
            t.table_off,
            t.dense,
            SYM,
        )
        return out

    def rank(self, position: Position) -> int:
        index = int(self.rank_many(np.array([position.code]), np.array([position.to_move]))[0])
        if index < 0:
            raise InputError(f"{position.board_string()!r} has doves outside the variant {self.name}")
        return index

    def codes(self, p: int, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Red-to-move codes of the slots ``start..stop`` of partition ``p``."""
        lo, hi = self.partition_range(p)
        stop = hi - lo if stop is None else stop
        out = np.empty(stop - start, dtype=np.uint64)
        t = self.tables
        unrank_range(
            int(self.parts[p]), start, out, t.first, t.offset, t.slots, t.squares, t.table_off, t.listing
        )
        return out

    def unrank(self, index: int) -> Position:
        if not 0 <= index < self.size:
            raise InputError(f"index {index} is outside 0..{self.size - 1}")
        p = int(np.searchsorted(self.part_off, index, side="right")) - 1
        lo, _ = self.partition_range(p)
        return Position.from_code(int(self.codes(p, index - lo, index - lo + 1)[0]))

    def position(self, index: int) -> Position:
        """The class ``index`` as a position of the game: Green to move in a swapped partition."""
        p = int(np.searchsorted(self.part_off, index, side="right")) - 1
        position = self.unrank(index)
        if self.orient[p]:
            return Position.from_cells({i ^ 1: rc for i, rc in position.cells().items()}, 1)
        return position

    def expected_size(self, by: dict[int, dict[str, int]] | None = None) -> int:
        """The same total from counting.py's closed form: per k doves, count_k / C(10, k - 2)."""
        if by is None:
            from solvers.doves.counting import count_positions

            by = count_positions().by_doves
        return sum(by[_popcount(s)]["positions"] // comb(10, _popcount(s) - 2) for s in self.parts.tolist())


def _keys(red: tuple[int, ...], green: tuple[int, ...]) -> tuple[int, bool, list[tuple[int, int]]]:
    """(doves in the game, same doves on both sides?, sorted (orientation, dove set) partitions)."""
    doves = [0, 1] + [2 * k for k in red] + [2 * k + 1 for k in green]
    mask = sum(1 << d for d in doves)
    symmetric = _swap_set(mask) == mask
    others = [d for d in doves if d > 1]
    keys: list[tuple[int, int]] = []
    for orient in (0,) if symmetric else (0, 1):
        for sub in range(1 << len(others)):
            s = 3 | sum(1 << d for j, d in enumerate(others) if sub >> j & 1)
            keys.append((orient, _swap_set(s) if orient else s))
    return mask, symmetric, sorted(keys)


def variant_size(red: tuple[int, ...], green: tuple[int, ...]) -> int:
    """Number of classes of a variant without building its prefix tables (cheap for any variant)."""
    tables = indexing.shape_tables(2)
    return sum(tables.partition_size(_popcount(s)) for _, s in _keys(red, green)[2])


def _swap_set(s: int) -> int:
    return sum(1 << (i ^ 1) for i in range(12) if s >> i & 1)
