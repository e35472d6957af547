"""Predecessor generation: P in pred(S) <=> S in succ(P), on positions and on whole variants.

(a) random positions of the full game (and of reduced hands, with and without Remove): every
predecessor's forward actions lead to S, every forward child has its parent among its predecessors,
non-states are never predecessors, and a brute force over every one-dove change with the simple
reference rules finds the same set; (b) every class of small variants: the forward relation (ranked
by the engine's own ``build_partition`` CSR, plus the immediate-win classes it does not store) is
exactly the transpose of the predecessor lists, multiplicities included.
"""

from __future__ import annotations

import doves_reference as ref
import numpy as np
import pytest

from solvers.doves import engine
from solvers.doves.model import LETTERS, Position
from solvers.doves.retro import unmove
from solvers.doves.retro.engine import TERMINAL
from solvers.doves.retro.layout import Layout
from solvers.doves.retro.solve import solve
from solvers.doves.rules import Rules

FULL = 0xFFF


def random_positions(rng: np.random.Generator, count: int, hand: int = FULL) -> list[tuple[int, int]]:
    """(code, side to move) of random placements of 2..12 doves of ``hand`` with nobody isolated."""
    others = [d for d in range(2, 12) if hand >> d & 1]
    out: list[tuple[int, int]] = []
    while len(out) < count:
        k = int(rng.integers(0, len(others) + 1))
        doves = [0, 1] + [int(d) for d in rng.choice(others, size=k, replace=False)]
        cells = [int(c) for c in rng.choice(16, size=len(doves), replace=False)]
        placed = {d: divmod(c, 4) for d, c in zip(doves, cells, strict=True)}
        if not ref.nobody_isolated(placed):
            continue
        out.append((Position.from_cells(placed).code, int(rng.integers(0, 2))))
    return out


class Scratch:
    def __init__(self) -> None:
        self.pos = np.zeros(12, dtype=np.int64)
        self.preds = np.zeros(unmove.MAX_PREDS, dtype=np.uint64)
        self.acts = np.zeros(engine.MAX_ACTIONS, dtype=np.int64)
        self.codes = np.zeros(engine.MAX_ACTIONS, dtype=np.uint64)
        self.outs = np.zeros(engine.MAX_ACTIONS, dtype=np.int64)
        self.libs = np.zeros((engine.MAX_ACTIONS, 2), dtype=np.int64)

    def preds_of(self, code: int, side: int, remove: bool, hand: int) -> list[int]:
        n = unmove.unmoves(np.uint64(code), side, remove, hand, self.pos, self.preds)
        return [int(c) for c in self.preds[:n]]

    def children(self, code: int, side: int, remove: bool, judge: int, hand: int) -> list[int]:
        k = engine.generate(
            np.uint64(code), side, remove, judge, self.pos, self.acts, self.codes, self.outs, self.libs, hand
        )
        return [int(self.codes[j]) for j in range(k) if self.outs[j] == engine.ONGOING]

    def leads_to(self, pcode: int, side: int, code: int, remove: bool, judge: int, hand: int) -> bool:
        return bool(
            unmove.leads_to(
                np.uint64(pcode),
                side,
                np.uint64(code),
                remove,
                judge,
                hand,
                self.pos,
                self.acts,
                self.codes,
                self.outs,
                self.libs,
            )
        )


def is_state(code: int) -> bool:
    cells = ref.to_cells(Position.from_code(code).squares)
    return (
        ref.fits(cells)
        and ref.nobody_isolated(cells)
        and not ref.boss_surrounded(cells, 0)
        and not ref.boss_surrounded(cells, 1)
    )


RULES = [(True, 0), (False, 0), (True, 2), (False, 1)]


def hand_of(letters: str) -> int:
    return sum(1 << LETTERS.index(ch) for ch in letters)


# the full game, B+Y+M against b+y+t+h, and B+A+Y+M+H against b+y
HANDS = [FULL, hand_of("BYMbyth"), hand_of("BAYMHby")]


@pytest.mark.parametrize("remove,judge", RULES)
@pytest.mark.parametrize("hand", HANDS)
def test_random_positions_both_ways(remove: bool, judge: int, hand: int) -> None:
    rng = np.random.default_rng(hand * 7 + judge * 2 + remove)
    s = Scratch()
    preds_seen = children_seen = non_states = 0
    for code, side in random_positions(rng, 500 if hand == FULL else 250, hand):
        preds = s.preds_of(code, side, remove, hand)
        assert len(set(preds)) == len(preds)
        for p in preds:  # P in pred(S) => S in succ(P), and P is a state
            assert is_state(p)
            assert s.leads_to(p, 1 - side, code, remove, judge, hand), (Position.from_code(code), p)
        preds_seen += len(preds)
        if not is_state(code):
            assert preds == []
        state = is_state(code)
        non_states += not state
        for child in s.children(code, side, remove, judge, hand):  # S in succ(P) => P in pred(S)
            back = s.preds_of(child, 1 - side, remove, hand)
            assert (code in back) == state, (Position.from_code(code).board_string(), side, child)
            children_seen += 1
    assert preds_seen > 1000 and children_seen > 1000 and non_states > 0


def test_verified_keeps_every_candidate() -> None:
    """The reverse rules generate no candidate that the forward generator would refute."""
    rng = np.random.default_rng(5)
    s = Scratch()
    total = 0
    for remove, judge in RULES:
        for code, side in random_positions(rng, 300):
            n = unmove.unmoves(np.uint64(code), side, remove, FULL, s.pos, s.preds)
            m = unmove.verified(
                np.uint64(code), side, remove, judge, FULL, s.pos, s.preds, s.acts, s.codes, s.outs, s.libs
            )
            assert m == n
            total += n
    assert total > 5000


def brute_force_preds(code: int, side: int, remove: bool) -> set[int]:
    """Every state one mover's dove away from S (moved anywhere, taken off, put back anywhere) whose
    actions under the reference rules include S with the game going on."""
    squares = Position.from_code(code).squares
    cells = ref.to_cells(squares)
    target = ref.normalise(cells)
    mover = 1 - side
    candidates: list[dict[int, tuple[int, int]]] = []
    spots = [(r, c) for r in range(-2, 6) for c in range(-2, 6) if (r, c) not in cells.values()]
    for dove in range(mover, 12, 2):
        if dove in cells:
            for spot in spots:
                candidates.append({**cells, dove: spot})
            if dove > 1:
                candidates.append({i: rc for i, rc in cells.items() if i != dove})
        elif remove:
            for spot in spots:
                candidates.append({**cells, dove: spot})
    found = set()
    for cand in candidates:
        if not (ref.fits(cand) and ref.nobody_isolated(cand)):
            continue
        if ref.boss_surrounded(cand, 0) or ref.boss_surrounded(cand, 1):
            continue
        squares_p = ref.normalise(cand)
        if any(child == target and res == 0 for _, child, res in ref.actions(squares_p, mover, remove)):
            found.add(Position(squares_p).code)
    return found


@pytest.mark.parametrize("remove", [True, False])
def test_brute_force_with_the_reference_rules(remove: bool) -> None:
    rng = np.random.default_rng(11 + remove)
    s = Scratch()
    total = 0
    for code, side in random_positions(rng, 60):
        expected = brute_force_preds(code, side, remove)
        assert set(s.preds_of(code, side, remove, FULL)) == expected, Position.from_code(code).board_string()
        total += len(expected)
    assert total > 300


def forward_relation(layout: Layout, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(parent, child) per ONGOING action of every class, ranked; checked against the engine's CSR."""
    tabs = unmove.layout_tables(layout)
    src, dst = [], []
    step = 8192
    for lo in range(0, layout.size, step):
        hi = min(layout.size, lo + step)
        a = np.empty((hi - lo) * engine.MAX_ACTIONS, dtype=np.int64)
        b = np.empty_like(a)
        m = unmove.forward_pairs(lo, hi, rules.allow_remove, rules.judge, tabs, a, b)
        src.append(a[:m])
        dst.append(b[:m])
    parent, child = np.concatenate(src), np.concatenate(dst)
    # the engine's graph phase stores the same edges for every class that is neither terminal nor an
    # immediate win (plus -1 for an action that draws at once)
    _, store = solve(layout, rules)
    stored = []
    for p in range(len(layout.parts)):
        offs, edges = store.graph(p)
        lo, _ = layout.partition_range(p)
        owner = lo + np.repeat(np.arange(len(offs) - 1), np.diff(offs))
        keep = edges >= 0
        stored.append(np.stack([owner[keep], np.asarray(edges)[keep]]))
    csr = np.concatenate(stored, axis=1)
    plain = (store.values != 1) & (store.values != TERMINAL)
    keep = plain[parent]
    mine = parent[keep] * layout.size + child[keep]
    assert np.array_equal(np.sort(mine), np.sort(csr[0] * layout.size + csr[1]))
    assert not np.isin(parent, np.flatnonzero(store.values == TERMINAL)).any()
    return parent, child


def backward_relation(layout: Layout, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    tabs = unmove.layout_tables(layout)
    out: list[list[np.ndarray]] = [[], [], []]
    step = 8192
    for lo in range(0, layout.size, step):
        hi = min(layout.size, lo + step)
        bufs = [np.empty((hi - lo) * unmove.MAX_PREDS, dtype=np.int64) for _ in range(3)]
        m = unmove.backward_pairs(lo, hi, rules.allow_remove, tabs, *bufs)
        for acc, buf in zip(out, bufs, strict=True):
            acc.append(buf[:m])
    pred, cls, mult = (np.concatenate(x) for x in out)
    return pred, cls, mult


@pytest.mark.parametrize(
    "red,green,rules",
    [
        ("M", "HT", Rules()),
        ("M", "HT", Rules(allow_remove=False)),
        ("HT", "M", Rules(both_surrounded="draw")),
        ("Y", "A", Rules()),
        ("AT", "AT", Rules()),
    ],
)
def test_every_class_transpose(red: str, green: str, rules: Rules) -> None:
    """Class by class: pred lists (with multiplicities) == transpose of the forward relation."""
    layout = Layout.from_letters(red, green)
    parent, child = forward_relation(layout, rules)
    pairs, counts = np.unique(parent * layout.size + child, return_counts=True)
    pred, cls, mult = backward_relation(layout, rules)
    assert (mult > 0).all()  # every multiplicity is a whole number
    mine = pred * layout.size + cls
    order = np.argsort(mine)
    assert np.array_equal(mine[order], pairs)
    assert np.array_equal(mult[order], counts)
    assert len(parent) > 1000 and (counts > 1).any()  # multiplicities > 1 do occur
