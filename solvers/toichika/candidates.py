"""Candidate state for the step-by-step explainer: per cell, which of {empty, ^, v, <, >} remain.

A mask holds bit 0 for "empty" and bit d (1..4) for "arrow pointing d". Deductions only ever
remove bits, so anything derived from a looser state stays true in a tighter one; that is what
lets a technique sweep keep going after its own earlier conclusions were applied.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.common.cancel import CancelToken
from solvers.common.words import cell_name
from solvers.toichika.model import ARROW_CHAR, DIRECTIONS, OPPOSITE, QUESTION, Toichika

EMPTY = 1
ARROWS = 0b11110
ALL = 0b11111
BIT = {d: 1 << d for d in DIRECTIONS}


class Contradiction(Exception):
    """The state admits no solution; ``cells`` locate the problem."""

    def __init__(self, reason: str, cells: list[int]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.cells = cells


def mask_names(mask: int) -> list[str]:
    out = ["empty"] if mask & EMPTY else []
    return out + [ARROW_CHAR[d] for d in DIRECTIONS if mask & BIT[d]]


def single_direction(mask: int) -> int:
    """The direction if the mask is exactly one arrow (no empty), else 0."""
    for d in DIRECTIONS:
        if mask == BIT[d]:
            return d
    return 0


def _rays(i: int, rows: int, cols: int) -> list[range]:
    """Cells seen from i in each direction (index 0 unused), nearest first, like ``Toichika.ray``."""
    start = i - i % cols
    return [
        range(0),
        range(i - cols, -1, -cols),  # UP
        range(i + cols, rows * cols, cols),  # DOWN
        range(i - 1, start - 1, -1),  # LEFT
        range(i + 1, start + cols),  # RIGHT
    ]


class Board:
    """Static facts about a puzzle that every technique uses."""

    def __init__(self, p: Toichika, cancel: CancelToken | None = None) -> None:
        self.p = p
        self.n = p.size
        self.cols = p.cols
        self.reg = list(p.region_of)
        self.regions = [list(cells) for cells in p.regions]
        # neighbours[a]: countries sharing an edge with a (partners must be in neither a nor these)
        self.neighbours: list[set[int]] = [set() for _ in self.regions]
        for a, b in p.adjacent_regions:
            self.neighbours[a].add(b)
            self.neighbours[b].add(a)
        # Rays as lazy ``range`` objects: the lists took ~1.5 s to build on a 100x80 board.
        self.rays: list[list[range]] = [_rays(i, p.rows, p.cols) for i in range(self.n)]
        # static_partner[i][d]: some cell on the ray lies in a country allowed to pair with i's
        forbidden = [{a, *near} for a, near in enumerate(self.neighbours)]
        reg = self.reg
        self.static_partner: list[list[bool]] = []
        for i in range(self.n):
            if cancel is not None and i % p.cols == 0:
                cancel.raise_if_cancelled()
            banned = forbidden[reg[i]]
            row = [False] * 5
            for d in DIRECTIONS:
                for j in self.rays[i][d]:
                    if reg[j] not in banned:
                        row[d] = True
                        break
            self.static_partner.append(row)

    def pairable(self, a: int, b: int) -> bool:
        return a != b and b not in self.neighbours[a]

    def name(self, i: int) -> str:
        r, c = divmod(i, self.cols)
        return cell_name(r, c)

    def initial_masks(self) -> list[int]:
        masks = [ALL] * self.n
        for i, g in enumerate(self.p.givens):
            if g in DIRECTIONS:
                masks[i] = BIT[g]
            elif g == QUESTION:
                masks[i] = ARROWS
        return masks


@dataclass
class State:
    board: Board
    masks: list[int]
    cancel: CancelToken | None = None

    def copy(self) -> State:
        return State(self.board, list(self.masks), self.cancel)

    def poll(self) -> None:
        """Techniques call this in their sweeps: one sweep of a 100x80 board takes seconds."""
        if self.cancel is not None:
            self.cancel.raise_if_cancelled()

    def solved(self) -> bool:
        return all(m & (m - 1) == 0 for m in self.masks)

    def partners(self, i: int, d: int, blocking: bool = False) -> tuple[list[int], bool]:
        """Cells on i's ray that could be the partner of an arrow at i pointing d.

        Returns (candidates in ray order, blocked): the walk stops at the first cell that must
        hold an arrow, because sight cannot pass it. With ``blocking`` it also stops once some
        other country has all its remaining cells behind it on the ray: that country's arrow
        is certainly on the line by then, so nothing further can be seen.
        """
        b = self.board
        masks = self.masks
        ri = b.reg[i]
        near = b.neighbours[ri]
        opp = BIT[OPPOSITE[d]]
        out = []
        seen: dict[int, int] = {}
        for j in b.rays[i][d]:
            m = masks[j]
            if m & ARROWS:
                rj = b.reg[j]
                if m & opp and rj != ri and rj not in near:
                    out.append(j)
                if not m & EMPTY:
                    return out, True
                if blocking and rj != ri:
                    seen[rj] = seen.get(rj, 0) + 1
                    if seen[rj] == self.able_count(rj):
                        return out, True
        return out, False

    def able_count(self, region: int) -> int:
        masks = self.masks
        return sum(1 for i in self.board.regions[region] if masks[i] & ARROWS)
