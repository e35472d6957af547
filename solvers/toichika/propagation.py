"""Fast fixpoint of the named techniques, for the generator and for trials (no record kept).

The explainer restarts its sweep from the cheapest technique after every productive one, so the
rule-level techniques (levels 1-2) re-examine every cell a hundred times per puzzle although only
a few cells changed. Here each such sweep skips what cannot yield a new removal: a cell whose row
and column have not changed since its last check (its rays are the same), a country none of whose
cells changed. Whatever would be skipped could only repeat removals already applied, so the
sequence of states, and hence the fixpoint, is exactly the one of ``explain.propagate_reference``
(tests/toichika/test_toichika_propagation.py compares them). The sweeps also build no step text.
"""

from __future__ import annotations

from collections.abc import Iterator

from solvers.toichika.candidates import ARROWS, BIT, EMPTY, Board, Contradiction, State, single_direction
from solvers.toichika.model import DIRECTIONS, DOWN, LEFT, OPPOSITE, RIGHT, UP
from solvers.toichika.techniques import TECHNIQUES

Removals = dict[int, int]


class _Tracker:
    """Change stamps per row, column and country, and when each cheap check last ran."""

    def __init__(self, board: Board) -> None:
        n = board.n
        self.board = board
        self.time = 0
        self.row = [0] * (n // board.cols)
        self.col = [0] * board.cols
        self.reg = [0] * len(board.regions)
        self.checked: dict[str, list[int]] = {
            "one-per-country": [-1] * len(board.regions),
            "leftover-cell": [-1] * len(board.regions),
            "isolation-ban": [-1] * n,
            "partner-search": [-1] * n,
            "facing-pair": [-1] * n,
        }
        self.adjacency_done = False

    def apply(self, masks: list[int], removals: Removals) -> bool:
        b = self.board
        changed = False
        for i, bits in removals.items():
            old = masks[i]
            new = old & ~bits
            if new != old:
                if new == 0:
                    raise Contradiction("a cell has no candidate left", [i])
                masks[i] = new
                self.time += 1
                r, c = divmod(i, b.cols)
                self.row[r] = self.col[c] = self.reg[b.reg[i]] = self.time
                changed = True
        return changed

    def line_stale(self, key: str, i: int, d: int) -> bool:
        """Has the line (row or column) of i's ray ``d`` changed since the last check? Marks it checked.

        A change of i itself stamps both its lines, so it is seen from every direction."""
        chk = self.checked[key]
        r, c = divmod(i, self.board.cols)
        stamp = self.row[r] if d in (LEFT, RIGHT) else self.col[c]
        if stamp <= chk[i]:
            return False
        chk[i] = self.time
        return True

    def region_stale(self, key: str, r: int) -> bool:
        chk = self.checked[key]
        if self.reg[r] <= chk[r]:
            return False
        chk[r] = self.time
        return True


def _static_bad(board: Board) -> list[int]:
    return [sum(BIT[d] for d in DIRECTIONS if not row[d]) for row in board.static_partner]


def _adjacency(s: State, t: _Tracker) -> Iterator[Removals]:
    # static: once applied, masks only shrink and it never fires again
    if t.adjacency_done:
        return
    t.adjacency_done = True
    for i, bad in enumerate(_static_bad(s.board)):
        if s.masks[i] & bad:
            yield {i: s.masks[i] & bad}


def _one_per_country(s: State, t: _Tracker) -> Iterator[Removals]:
    masks = s.masks
    for r, cells in enumerate(s.board.regions):
        if not t.region_stale("one-per-country", r):
            continue
        sure = [i for i in cells if not masks[i] & EMPTY]
        if len(sure) > 1:
            raise Contradiction("a country must hold two arrows", sure)
        if sure:
            others = {j: masks[j] & ARROWS for j in cells if j != sure[0] and masks[j] & ARROWS}
            if others:
                yield others


def _leftover(s: State, t: _Tracker) -> Iterator[Removals]:
    masks = s.masks
    for r, cells in enumerate(s.board.regions):
        if not t.region_stale("leftover-cell", r):
            continue
        able = [i for i in cells if masks[i] & ARROWS]
        if not able:
            raise Contradiction("a country has no cell left for its arrow", list(cells))
        if len(able) == 1 and masks[able[0]] & EMPTY:
            yield {able[0]: EMPTY}


def _isolation(s: State, t: _Tracker) -> Iterator[Removals]:
    chk = t.checked["isolation-ban"]
    cols = s.board.cols
    for i in range(s.board.n):
        m = s.masks[i]
        if not m & ARROWS:
            continue
        # a direction whose line did not change since the last check still has its partners
        last = chk[i]
        r, c = divmod(i, cols)
        rows_changed = t.row[r] > last
        cols_changed = t.col[c] > last
        if not rows_changed and not cols_changed:
            continue
        chk[i] = t.time
        bad = 0
        for d in DIRECTIONS:
            if m & BIT[d] and (cols_changed if d in (UP, DOWN) else rows_changed) and not s.partners(i, d)[0]:
                bad |= BIT[d]
        if bad:
            yield {i: bad}


def _partner_search(s: State, t: _Tracker) -> Iterator[Removals]:
    b = s.board
    masks = s.masks
    for i in range(b.n):
        d = single_direction(masks[i])
        if not d or not t.line_stale("partner-search", i, d):
            continue
        cands, _ = s.partners(i, d)
        if not cands:
            continue
        opp = BIT[OPPOSITE[d]]
        before = []
        for j in b.rays[i][d]:
            if j == cands[0]:
                break
            if masks[j] & ARROWS:
                before.append(j)
        if before:
            yield {j: masks[j] & ARROWS for j in before}
        if len(cands) == 1:
            p = cands[0]
            yield {p: masks[p] & ~opp}
            continue
        regs = {b.reg[j] for j in cands}
        if len(regs) == 1:
            reg = regs.pop()
            rem = {j: masks[j] & ARROWS for j in b.regions[reg] if j not in cands}
            for j in cands:
                rem[j] = masks[j] & ARROWS & ~opp
            yield rem


def _facing_pair(s: State, t: _Tracker) -> Iterator[Removals]:
    b = s.board
    masks = s.masks
    for i in range(b.n):
        d = single_direction(masks[i])
        if d not in (RIGHT, DOWN) or not t.line_stale("facing-pair", i, d):
            continue
        between: list[int] = []
        partner = -1
        for j in b.rays[i][d]:
            m = masks[j]
            if not m & ARROWS:
                continue
            if not m & EMPTY:
                partner = j if m == BIT[OPPOSITE[d]] else -1
                break
            between.append(j)
        if partner >= 0 and between and len({b.reg[j] for j in between}) == 1:
            yield {j: masks[j] & ARROWS for j in between}


FAST = {
    "adjacency-ban": _adjacency,
    "one-per-country": _one_per_country,
    "leftover-cell": _leftover,
    "isolation-ban": _isolation,
    "partner-search": _partner_search,
    "facing-pair": _facing_pair,
}


def fixpoint(state: State, max_level: int, changed: list[int] | None = None) -> None:
    """Run the techniques up to ``max_level`` to a fixpoint in the explainer's order. Raises Contradiction.

    ``changed``: the state was a fixpoint of these techniques until the cells ``changed`` were
    narrowed (a case analysis assumes one candidate there), so only the rows, columns and
    countries of those cells need a first look; the result is the cold run's.
    """
    t = _Tracker(state.board)
    if changed is not None:
        for marks in t.checked.values():
            marks[:] = [0] * len(marks)
        t.adjacency_done = True
        t.time = 1
        for i in changed:
            r, c = divmod(i, state.board.cols)
            t.row[r] = t.col[c] = t.reg[state.board.reg[i]] = 1
    progress = True
    while progress:
        progress = False
        state.poll()
        for tech in TECHNIQUES:
            if tech.level > max_level:
                break
            fast = FAST.get(tech.id)
            if fast is not None:
                for removals in fast(state, t):
                    if t.apply(state.masks, removals):
                        progress = True
            else:
                for step in tech.run(state):
                    if t.apply(state.masks, step.removals):
                        progress = True
            if progress:
                break


__all__ = ["fixpoint"]
