"""Toichika board model: walls, derived countries, givens; plus the player's entries.

Walls (not country labels) are the stored truth, because a puz.link URL stores wall bits and a
wall that separates nothing must survive a byte-exact round trip. Countries are derived as the
4-connected components of cells not separated by a wall.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solvers.common.errors import InputError

Cell = tuple[int, int]

# Direction codes follow pzprjs (url_format.md §1): 1 up, 2 down, 3 left, 4 right.
NONE = 0
UP, DOWN, LEFT, RIGHT = 1, 2, 3, 4
DIRECTIONS = (UP, DOWN, LEFT, RIGHT)
QUESTION = 5  # a given arrow of unknown direction ("?")
DOT = -1  # entries only: the player's "no arrow here" mark

DELTA = {UP: (-1, 0), DOWN: (1, 0), LEFT: (0, -1), RIGHT: (0, 1)}
OPPOSITE = {UP: DOWN, DOWN: UP, LEFT: RIGHT, RIGHT: LEFT}
ARROW_CHAR = {UP: "^", DOWN: "v", LEFT: "<", RIGHT: ">"}
# What sentences show (steps, hints): the file format's ASCII codes read as jargon ("cannot point ^/<").
ARROW_SIGN = {UP: "↑", DOWN: "↓", LEFT: "←", RIGHT: "→"}
CHAR_ARROW = {ch: d for d, ch in ARROW_CHAR.items()}
DIRECTION_NAME = {UP: "up", DOWN: "down", LEFT: "left", RIGHT: "right"}

MAX_SIZE = 100

Entries = tuple[int, ...]  # row-major: 0 nothing, 1..4 arrow, DOT, or pencil marks (below)

# Pencil marks: what the player has ruled out in a cell that holds no arrow yet, as a paper player
# crosses out directions. They live in the same int as the other entries (so every existing
# store, undo step and comparison of entries carries them): MARKS | bits, bits in the candidate
# layout of ``candidates`` (bit 0 = "empty" ruled out, i.e. an arrow goes here; bit d = direction
# d ruled out). A cell holds an arrow, a dot or marks, never two of them.
MARKS = 32
MARK_ARROW_HERE = 1  # bit 0: "empty" is ruled out
MARK_BITS = 0b11111


def is_marks(entry: int) -> bool:
    return entry > MARKS


def marks_of(entry: int) -> int:
    """The ruled-out candidate bits of an entry (0 for anything but pencil marks)."""
    return entry & MARK_BITS if entry > MARKS else 0


def marks_entry(bits: int) -> int:
    """The entry holding these ruled-out bits (0, a cell with nothing, when none)."""
    bits &= MARK_BITS
    return MARKS | bits if bits else 0


def ruled_out_directions(entry: int) -> list[int]:
    bits = marks_of(entry)
    return [d for d in DIRECTIONS if bits >> d & 1]


@dataclass(frozen=True)
class Toichika:
    rows: int
    cols: int
    vwalls: tuple[bool, ...]  # rows*(cols-1): wall between (r,c) and (r,c+1) at r*(cols-1)+c
    hwalls: tuple[bool, ...]  # (rows-1)*cols: wall between (r,c) and (r+1,c) at r*cols+c
    givens: tuple[int, ...]  # rows*cols: NONE, 1..4 or QUESTION

    def __post_init__(self) -> None:
        if not (1 <= self.rows <= MAX_SIZE and 1 <= self.cols <= MAX_SIZE):
            raise InputError(f"board size {self.cols}x{self.rows} out of range (1..{MAX_SIZE} each way)")
        if len(self.vwalls) != self.rows * (self.cols - 1) or len(self.hwalls) != (self.rows - 1) * self.cols:
            raise InputError("wall arrays do not match the board size")
        if len(self.givens) != self.rows * self.cols:
            raise InputError("given array does not match the board size")

    # ---- construction ---------------------------------------------------------------------------
    @staticmethod
    def empty(rows: int, cols: int) -> Toichika:
        return Toichika(
            rows, cols, (False,) * (rows * (cols - 1)), (False,) * ((rows - 1) * cols), (0,) * (rows * cols)
        )

    @staticmethod
    def from_labels(labels: list[list[int]], givens: list[list[int]] | None = None) -> Toichika:
        """Walls wherever neighbouring labels differ (the pzprv3 way of storing countries)."""
        rows, cols = len(labels), len(labels[0])
        vw = tuple(labels[r][c] != labels[r][c + 1] for r in range(rows) for c in range(cols - 1))
        hw = tuple(labels[r][c] != labels[r + 1][c] for r in range(rows - 1) for c in range(cols))
        flat = tuple(v for row in givens for v in row) if givens else (0,) * (rows * cols)
        return Toichika(rows, cols, vw, hw, flat)

    # ---- cells and walls ------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return self.rows * self.cols

    def index(self, r: int, c: int) -> int:
        return r * self.cols + c

    def given(self, r: int, c: int) -> int:
        return self.givens[r * self.cols + c]

    def wall_right(self, r: int, c: int) -> bool:
        """Bold line between (r,c) and (r,c+1)."""
        return self.vwalls[r * (self.cols - 1) + c]

    def wall_below(self, r: int, c: int) -> bool:
        """Bold line between (r,c) and (r+1,c)."""
        return self.hwalls[r * self.cols + c]

    def with_given(self, r: int, c: int, value: int) -> Toichika:
        cells = list(self.givens)
        cells[r * self.cols + c] = value
        return Toichika(self.rows, self.cols, self.vwalls, self.hwalls, tuple(cells))

    def with_wall(self, kind: str, r: int, c: int, on: bool) -> Toichika:
        """kind 'v': wall right of (r,c); kind 'h': wall below (r,c)."""
        if kind == "v":
            walls = list(self.vwalls)
            walls[r * (self.cols - 1) + c] = on
            return Toichika(self.rows, self.cols, tuple(walls), self.hwalls, self.givens)
        walls = list(self.hwalls)
        walls[r * self.cols + c] = on
        return Toichika(self.rows, self.cols, self.vwalls, tuple(walls), self.givens)

    def with_walls(self, vwalls: tuple[bool, ...], hwalls: tuple[bool, ...]) -> Toichika:
        return Toichika(self.rows, self.cols, vwalls, hwalls, self.givens)

    def resized(self, rows: int, cols: int) -> Toichika:
        """Keep the top-left part; new cells have no walls and no givens."""
        out = Toichika.empty(rows, cols)
        vw, hw, gv = list(out.vwalls), list(out.hwalls), list(out.givens)
        for r in range(min(rows, self.rows)):
            for c in range(min(cols, self.cols)):
                gv[r * cols + c] = self.given(r, c)
                if c + 1 < min(cols, self.cols):
                    vw[r * (cols - 1) + c] = self.wall_right(r, c)
                if r + 1 < min(rows, self.rows):
                    hw[r * cols + c] = self.wall_below(r, c)
        return Toichika(rows, cols, tuple(vw), tuple(hw), tuple(gv))

    # ---- countries ------------------------------------------------------------------------------
    @cached_property
    def region_of(self) -> tuple[int, ...]:
        """Country id per cell, numbered by first cell in row-major order.

        Vectorised (hook every open edge's larger root onto the smaller, then shortcut): the GUI
        recomputes it after every edit, and a flood fill in Python took ~16 ms at 100x80."""
        rows, cols = self.rows, self.cols
        idx = np.arange(rows * cols).reshape(rows, cols)
        vopen = ~np.array(self.vwalls, dtype=bool).reshape(rows, cols - 1)
        hopen = ~np.array(self.hwalls, dtype=bool).reshape(rows - 1, cols)
        a = np.concatenate([idx[:, :-1][vopen], idx[:-1, :][hopen]])
        b = np.concatenate([idx[:, 1:][vopen], idx[1:, :][hopen]])
        parent = np.arange(rows * cols)
        while True:
            pa, pb = parent[a], parent[b]
            differ = pa != pb
            if not differ.any():
                break
            np.minimum.at(parent, np.maximum(pa, pb)[differ], np.minimum(pa, pb)[differ])
            while True:  # shortcut until every cell points at its root
                up = parent[parent]
                if np.array_equal(up, parent):
                    break
                parent = up
        # Every root is the smallest cell of its country, so the roots' order is first-cell order.
        return tuple(np.unique(parent, return_inverse=True)[1].reshape(-1).tolist())

    @cached_property
    def regions(self) -> tuple[tuple[int, ...], ...]:
        """Cell indices of each country, row-major inside a country."""
        out: list[list[int]] = [[] for _ in range(max(self.region_of) + 1)]
        for i, reg in enumerate(self.region_of):
            out[reg].append(i)
        return tuple(tuple(cells) for cells in out)

    @cached_property
    def adjacent_regions(self) -> frozenset[tuple[int, int]]:
        """Pairs (a, b), a < b, of countries sharing at least one cell edge."""
        reg, cols = self.region_of, self.cols
        pairs: set[tuple[int, int]] = set()
        for i in range(self.size):
            r, c = divmod(i, cols)
            for j in ((i + 1) if c + 1 < cols else -1, (i + cols) if r + 1 < self.rows else -1):
                if j >= 0 and reg[i] != reg[j]:
                    pairs.add((min(reg[i], reg[j]), max(reg[i], reg[j])))
        return frozenset(pairs)

    def can_pair_regions(self, a: int, b: int) -> bool:
        """Partners must lie in different countries that do not share an edge."""
        return a != b and (min(a, b), max(a, b)) not in self.adjacent_regions

    def ray(self, i: int, d: int) -> list[int]:
        """Cells from cell i (exclusive) in direction d up to the grid edge."""
        r, c = divmod(i, self.cols)
        dr, dc = DELTA[d]
        out = []
        r, c = r + dr, c + dc
        while 0 <= r < self.rows and 0 <= c < self.cols:
            out.append(r * self.cols + c)
            r, c = r + dr, c + dc
        return out

    def cell(self, i: int) -> Cell:
        return divmod(i, self.cols)  # type: ignore[return-value]


def empty_entries(puzzle: Toichika) -> Entries:
    return (0,) * puzzle.size


def arrows_of(puzzle: Toichika, entries: Entries | None) -> list[int]:
    """The direction in force in every cell: givens win over entries; "?" without an entry stays QUESTION."""
    out = []
    for i, g in enumerate(puzzle.givens):
        e = entries[i] if entries is not None else 0
        if g in DIRECTIONS:
            out.append(g)
        elif g == QUESTION:
            out.append(e if e in DIRECTIONS else QUESTION)
        else:
            out.append(e if e in DIRECTIONS else NONE)
    return out


def grid_rows(puzzle: Toichika, arrows: list[int]) -> list[str]:
    """The CLI picture: ^ v < > for arrows, '.' for empty cells, '?' for an undirected '?'."""
    chars = [ARROW_CHAR.get(a, "?" if a == QUESTION else ".") for a in arrows]
    return ["".join(chars[r * puzzle.cols : (r + 1) * puzzle.cols]) for r in range(puzzle.rows)]
