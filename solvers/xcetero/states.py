"""Dense numbering of every X-ceter-O state, vectorised with numpy.

A state is (square of pieces 1..6, piece due). In the placement phase pieces 1..k are on the board
and piece k+1 is due, so the state is just an arrangement of k pieces (9Pk of them, 18,730 for
k = 0..5). With all six pieces placed there are 9P6 = 60,480 arrangements times 6 pieces due.

State number: placement arrangements come first (one state each), then movement arrangement ``a``
with piece ``d`` due is ``P + 6 * (a - P) + d - 1``. Arrangements are found through a lookup table
indexed by the base-10 code ``sum(square_i * 10**i)`` with 9 standing for "not placed".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations

import numpy as np

from solvers.xcetero.rules import LINES, PIECES, SQUARES, UNPLACED

OFF = 9  # "not placed" inside the arrays (1 << 9 is masked away by & 511)
POW10 = 10 ** np.arange(PIECES, dtype=np.int64)
LINE_MASKS = np.array([sum(1 << s for s in line) for line in LINES], dtype=np.int64)

# The 8 symmetries of the square as square permutations (new square of each old square).
_ROT = (6, 3, 0, 7, 4, 1, 8, 5, 2)  # quarter turn clockwise
_MIR = (2, 1, 0, 5, 4, 3, 8, 7, 6)  # left-right mirror


def _symmetries() -> np.ndarray:
    perms = []
    base = list(range(SQUARES))
    for mirrored in (False, True):
        p = [_MIR[s] for s in base] if mirrored else list(base)
        for _ in range(4):
            perms.append(p)
            p = [_ROT[s] for s in p]
    return np.array(perms, dtype=np.int64)


SYMMETRIES = _symmetries()  # shape (8, 9)


def _has_line_table() -> np.ndarray:
    masks = np.arange(512, dtype=np.int64)
    return ((masks[:, None] & LINE_MASKS[None, :]) == LINE_MASKS[None, :]).any(axis=1)


HAS_LINE = _has_line_table()  # HAS_LINE[mask] for a 9-bit occupancy mask


@dataclass(frozen=True)
class StateSpace:
    arrangements: np.ndarray  # (A, 6) int64 squares of pieces 1..6, OFF = not placed
    pos: np.ndarray  # (N, 6) int64 squares of each state
    due: np.ndarray  # (N,) int64 piece due 1..6
    arrangement: np.ndarray  # (N,) arrangement number of each state
    lut: np.ndarray  # (10**6,) int64 code -> arrangement number (-1 = none)
    placement: int  # number of placement arrangements (= placement states)

    @property
    def size(self) -> int:
        return int(self.due.shape[0])

    def state_of(self, arrangement: np.ndarray, due: np.ndarray) -> np.ndarray:
        """State numbers from arrangement numbers and pieces due (due is implied while placing)."""
        moving = arrangement >= self.placement
        return np.where(
            moving, self.placement + PIECES * (arrangement - self.placement) + due - 1, arrangement
        )

    def index(self, pos: np.ndarray, due: np.ndarray) -> np.ndarray:
        """State numbers of ``pos`` (..., 6) with ``due`` (...), OFF for not placed."""
        arrangement = self.lut[(np.asarray(pos, dtype=np.int64) * POW10).sum(axis=-1)]
        return self.state_of(arrangement, np.asarray(due))

    def index_of(self, squares: tuple[int, ...], due: int) -> int:
        """State number of one position (``squares`` as in ``rules.Position``, -1 = not placed)."""
        pos = np.array([OFF if s == UNPLACED else s for s in squares], dtype=np.int64)
        if self.lut[int((pos * POW10).sum())] < 0:
            raise ValueError(f"not a placement-ordered arrangement: {squares}")
        return int(self.index(pos, np.asarray(due, dtype=np.int64)))

    def squares_of(self, state: int) -> tuple[tuple[int, ...], int]:
        return tuple(UNPLACED if s == OFF else int(s) for s in self.pos[state]), int(self.due[state])


def side_masks(pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """9-bit occupancy masks of O (pieces 1, 3, 5) and X (pieces 2, 4, 6)."""
    bits = (np.int64(1) << pos) & 511
    return bits[:, 0] | bits[:, 2] | bits[:, 4], bits[:, 1] | bits[:, 3] | bits[:, 5]


@cache
def state_space() -> StateSpace:
    rows: list[np.ndarray] = []
    for k in range(PIECES + 1):
        perms = np.array(list(permutations(range(SQUARES), k)), dtype=np.int64)
        block = np.full((perms.shape[0], PIECES), OFF, dtype=np.int64)
        if k:
            block[:, :k] = perms
        rows.append(block)
    arrangements = np.concatenate(rows)
    placement = arrangements.shape[0] - rows[-1].shape[0]
    lut = np.full(10**PIECES, -1, dtype=np.int64)
    lut[(arrangements * POW10).sum(axis=1)] = np.arange(arrangements.shape[0])
    counts = (arrangements[:placement] != OFF).sum(axis=1)
    moving = arrangements[placement:]
    number = np.arange(arrangements.shape[0])
    arrangement = np.concatenate([number[:placement], np.repeat(number[placement:], PIECES)])
    due = np.concatenate([counts + 1, np.tile(np.arange(1, PIECES + 1), moving.shape[0])])
    return StateSpace(
        arrangements=arrangements,
        pos=arrangements[arrangement],
        due=due,
        arrangement=arrangement,
        lut=lut,
        placement=placement,
    )
