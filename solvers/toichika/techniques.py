"""Named human techniques (手筋) over the candidate state, cheapest first.

Each technique is a generator of ``Step`` values: the candidates it removes, the cells it relied
on and a short sentence. Sources and wording: docs/toichika.md (from the technique notes of udop's
Toichika solver write-up, restated in our words).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from solvers.common.words import listed
from solvers.toichika.candidates import ARROWS, BIT, EMPTY, Contradiction, State, single_direction
from solvers.toichika.model import ARROW_SIGN, DIRECTION_NAME, DIRECTIONS, DOWN, OPPOSITE, RIGHT


@dataclass
class Step:
    rule: str
    cells: list[int]
    removals: dict[int, int]
    text: str
    applied: dict[int, int] = field(default_factory=dict)  # what really changed (filled by the engine)


@dataclass(frozen=True)
class Technique:
    id: str
    name: str
    name_ja: str
    level: int
    run: Callable[[State], Iterator[Step]]


def _dirs(bits: int) -> str:
    return listed([ARROW_SIGN[d] for d in DIRECTIONS if bits & BIT[d]], "or")


# ---- level 1: the rules themselves ---------------------------------------------------------------
def adjacency_ban(s: State) -> Iterator[Step]:
    """An arrow may only point where some cell lies in a country that is neither its own nor a neighbour."""
    b = s.board
    for i in range(b.n):
        s.poll()
        m = s.masks[i]
        bad = 0
        for d in DIRECTIONS:
            if m & BIT[d] and not b.static_partner[i][d]:
                bad |= BIT[d]
        if bad:
            yield Step(
                "adjacency-ban",
                [i],
                {i: bad},
                f"{b.name(i)} cannot point {_dirs(bad)}: every cell that way is in its own country or a "
                "neighbouring one (or there is none), so no partner is allowed there.",
            )


def one_arrow_per_country(s: State) -> Iterator[Step]:
    b = s.board
    for cells in b.regions:
        s.poll()
        sure = [i for i in cells if not s.masks[i] & EMPTY]
        if len(sure) > 1:
            raise Contradiction("a country must hold two arrows", sure)
        if sure:
            others = {j: s.masks[j] & ARROWS for j in cells if j != sure[0] and s.masks[j] & ARROWS}
            if others:
                yield Step(
                    "one-per-country",
                    [sure[0]],
                    others,
                    f"{b.name(sure[0])} holds its country's arrow, so the country's other cells are empty.",
                )


def leftover_cell(s: State) -> Iterator[Step]:
    b = s.board
    for cells in b.regions:
        s.poll()
        able = [i for i in cells if s.masks[i] & ARROWS]
        if not able:
            raise Contradiction("a country has no cell left for its arrow", list(cells))
        if len(able) == 1 and s.masks[able[0]] & EMPTY:
            i = able[0]
            yield Step(
                "leftover-cell",
                list(cells),
                {i: EMPTY},
                f"{b.name(i)} is the only cell of its country that can still hold an arrow, so the arrow is there.",
            )


def isolation_ban(s: State) -> Iterator[Step]:
    b = s.board
    for i in range(b.n):
        s.poll()
        m = s.masks[i]
        bad = 0
        seen: list[int] = []
        for d in DIRECTIONS:
            if m & BIT[d]:
                cands, _ = s.partners(i, d)
                if not cands:
                    bad |= BIT[d]
                    seen.extend(b.rays[i][d])
        if bad:
            yield Step(
                "isolation-ban",
                [i] + seen,
                {i: bad},
                f"{b.name(i)} cannot point {_dirs(bad)}: no cell that way can still hold a partner pointing back.",
            )


# ---- level 2: looking along a placed arrow ---------------------------------------------------------
def _placed_arrows(s: State) -> Iterator[tuple[int, int, list[int]]]:
    """(cell, direction, possible partners in ray order) of every placed arrow that has some."""
    for i in range(s.board.n):
        s.poll()
        d = single_direction(s.masks[i])
        if d:
            cands, _ = s.partners(i, d)
            if cands:
                yield i, d, cands


def partner_search(s: State) -> Iterator[Step]:
    b = s.board
    for i, d, cands in _placed_arrows(s):
        opp = BIT[OPPOSITE[d]]
        before = []
        for j in b.rays[i][d]:
            if j == cands[0]:
                break
            if s.masks[j] & ARROWS:
                before.append(j)
        if before:
            yield Step(
                "partner-search",
                [i] + before,
                {j: s.masks[j] & ARROWS for j in before},
                f"The arrow at {b.name(i)} points {DIRECTION_NAME[d]}; an arrow before its first possible "
                f"partner {b.name(cands[0])} could not pair with it, so {', '.join(b.name(j) for j in before)} "
                "are empty.",
            )
        if len(cands) == 1:
            p = cands[0]
            yield Step(
                "partner-search",
                [i, *b.rays[i][d][: b.rays[i][d].index(p) + 1]],
                {p: s.masks[p] & ~opp},
                f"The arrow at {b.name(i)} points {DIRECTION_NAME[d]} and {b.name(p)} is its only possible "
                f"partner, so {b.name(p)} holds {ARROW_SIGN[OPPOSITE[d]]}.",
            )
            continue
        regs = {b.reg[j] for j in cands}
        if len(regs) == 1:
            reg = regs.pop()
            rem = {j: s.masks[j] & ARROWS for j in b.regions[reg] if j not in cands}
            for j in cands:
                rem[j] = s.masks[j] & ARROWS & ~opp
            yield Step(
                "partner-search",
                [i] + cands,
                rem,
                f"Every possible partner of {b.name(i)} ({DIRECTION_NAME[d]}) is in one country, so that "
                f"country's arrow is one of {', '.join(b.name(j) for j in cands)} and points "
                f"{ARROW_SIGN[OPPOSITE[d]]}.",
            )


def facing_pair(s: State) -> Iterator[Step]:
    b = s.board
    for i in range(b.n):
        s.poll()
        d = single_direction(s.masks[i])
        if d not in (RIGHT, DOWN):  # look one way only, each facing pair is met once
            continue
        between: list[int] = []
        partner = -1
        for j in b.rays[i][d]:
            m = s.masks[j]
            if not m & ARROWS:
                continue
            if not m & EMPTY:
                partner = j if m == BIT[OPPOSITE[d]] else -1
                break
            between.append(j)
        if partner < 0 or not between:
            continue
        if len({b.reg[j] for j in between}) == 1:
            yield Step(
                "facing-pair",
                [i, partner] + between,
                {j: s.masks[j] & ARROWS for j in between},
                f"{b.name(i)} and {b.name(partner)} face each other; the open cells between them are all in one "
                "country, which can hold one arrow, and that arrow could not face both, so they are empty.",
            )


def _all_but_facing_back(s: State, cells: list[int], d: int) -> dict[int, int]:
    """Removals leaving ``cells`` only "empty" or an arrow facing back against direction ``d``."""
    keep = ~BIT[OPPOSITE[d]]
    return {j: s.masks[j] & ARROWS & keep for j in cells if s.masks[j] & ARROWS & keep}


# ---- level 3: countries as a whole -----------------------------------------------------------------
def corridor(s: State) -> Iterator[Step]:
    b = s.board
    for i in range(b.n):
        s.poll()
        d = single_direction(s.masks[i])
        if not d:
            continue
        run: list[int] = []
        reg = -1
        for j in b.rays[i][d]:
            if not s.masks[j] & ARROWS:
                continue
            if reg < 0:
                reg = b.reg[j]
            if b.reg[j] != reg:
                break
            run.append(j)
        if reg < 0 or reg == b.reg[i]:
            continue
        able = [j for j in b.regions[reg] if s.masks[j] & ARROWS]
        if not set(able) <= set(run):
            continue
        if not b.pairable(b.reg[i], reg):
            raise Contradiction("the first country an arrow sees cannot be its partner", [i] + able)
        rem = _all_but_facing_back(s, run, d)
        if rem:
            yield Step(
                "corridor",
                [i] + able,
                rem,
                f"All cells left in the country of {b.name(run[0])} lie in a row along the line of "
                f"{b.name(i)}'s arrow, before any other arrow; wherever that country's arrow goes it is the "
                f"first arrow {b.name(i)} sees, so it points {ARROW_SIGN[OPPOSITE[d]]}.",
            )


def charao(s: State) -> Iterator[Step]:
    """Weak reservation (techniques.md #11): the run of the first possible partner's country along
    the line can only hold an arrow that faces the placed arrow, even if the country's arrow is
    elsewhere. Cells before that first candidate are empty in every solution (partner search), and
    the run's other cells share one country, so an arrow in the run is the first arrow seen."""
    b = s.board
    for i, d, cands in _placed_arrows(s):
        ray = b.rays[i][d]
        reg = b.reg[cands[0]]
        run: list[int] = []
        for j in ray[ray.index(cands[0]) :]:
            if b.reg[j] != reg:
                break
            run.append(j)
        rem = _all_but_facing_back(s, run, d)
        if rem:
            yield Step(
                "charao",
                [i] + run,
                rem,
                f"{b.name(cands[0])} is the first cell that could face {b.name(i)}'s arrow; an arrow anywhere in "
                f"its country's run {', '.join(b.name(j) for j in run)} along that line would be the first arrow "
                f"{b.name(i)} sees, so it could only point {ARROW_SIGN[OPPOSITE[d]]}.",
            )


def room_pairing(s: State) -> Iterator[Step]:
    b = s.board
    for cells in b.regions:
        s.poll()
        allowed: dict[int, int] = {}
        partner_regions: set[int] = set()
        for i in cells:
            m = s.masks[i]
            for d in DIRECTIONS:
                if m & BIT[d]:
                    for p in s.partners(i, d, blocking=True)[0]:
                        allowed[p] = allowed.get(p, 0) | BIT[OPPOSITE[d]]
                        partner_regions.add(b.reg[p])
        if len(partner_regions) != 1:
            continue
        other = partner_regions.pop()
        rem = {}
        for j in b.regions[other]:
            extra = s.masks[j] & ARROWS & ~allowed.get(j, 0)
            if extra:
                rem[j] = extra
        if rem:
            yield Step(
                "room-pairing",
                list(cells) + list(b.regions[other]),
                rem,
                f"Every possible partner of the country of {b.name(cells[0])} is in the country of "
                f"{b.name(b.regions[other][0])}, so the two countries pair up and the latter's arrow must be "
                "one that faces a candidate of the former.",
            )


def blocking_country(s: State) -> Iterator[Step]:
    """A country lying wholly on an arrow's line stops its sight: look no further than that country."""
    b = s.board
    for i in range(b.n):
        s.poll()
        m = s.masks[i]
        for d in DIRECTIONS:
            if not m & BIT[d]:
                continue
            strong, _ = s.partners(i, d, blocking=True)
            if strong == s.partners(i, d)[0]:
                continue
            if not strong:
                yield Step(
                    "blocking-country",
                    [i, *b.rays[i][d]],
                    {i: BIT[d]},
                    f"{b.name(i)} cannot point {DIRECTION_NAME[d]}: a country on that line has all its "
                    "remaining cells on the line, so its arrow blocks the view before any possible partner.",
                )
            elif single_direction(m) == d:
                opp = BIT[OPPOSITE[d]]
                regs = {b.reg[j] for j in strong}
                if len(regs) == 1:
                    reg = regs.pop()
                    rem = {j: s.masks[j] & ARROWS for j in b.regions[reg] if j not in strong}
                    for j in strong:
                        rem[j] = s.masks[j] & ARROWS & ~opp
                    if len(strong) == 1:
                        rem[strong[0]] |= EMPTY
                    yield Step(
                        "blocking-country",
                        [i, *b.rays[i][d]],
                        rem,
                        f"A country lying wholly on the line of {b.name(i)} blocks the view beyond it, so "
                        f"{b.name(i)}'s partner is among {', '.join(b.name(j) for j in strong)} and points "
                        f"{ARROW_SIGN[OPPOSITE[d]]}.",
                    )


def _partner_regions(s: State, cells: list[int]) -> set[int]:
    b = s.board
    out: set[int] = set()
    for i in cells:
        m = s.masks[i]
        for d in DIRECTIONS:
            if m & BIT[d]:
                out.update(b.reg[p] for p in s.partners(i, d, blocking=True)[0])
    return out


def reservation(s: State) -> Iterator[Step]:
    """Countries that can only pair with each other are reserved: nobody else can pair with them."""
    b = s.board
    taken: dict[int, int] = {}  # country -> the country it must pair with
    for reg, cells in enumerate(b.regions):
        s.poll()
        regs = _partner_regions(s, cells)
        if len(regs) == 1:
            other = regs.pop()
            taken[reg] = other
            taken[other] = reg
    if not taken:
        return
    for i in range(b.n):
        s.poll()
        m = s.masks[i]
        if not m & ARROWS or b.reg[i] in taken:
            continue
        bad = 0
        used: list[int] = []
        for d in DIRECTIONS:
            if m & BIT[d]:
                cands = s.partners(i, d)[0]
                if cands and all(b.reg[p] in taken for p in cands):
                    bad |= BIT[d]
                    used.extend(cands)
        if bad:
            pairs = sorted({(min(b.reg[p], taken[b.reg[p]]), max(b.reg[p], taken[b.reg[p]])) for p in used})
            names = "; ".join(f"{b.name(b.regions[x][0])}+{b.name(b.regions[y][0])}" for x, y in pairs)
            cells = [i] + [j for x, y in pairs for j in (*b.regions[x], *b.regions[y])]
            yield Step(
                "reservation",
                cells,
                {i: bad},
                f"{b.name(i)} cannot point {_dirs(bad)}: every possible partner that way is in a country "
                f"already reserved for another pair (countries of {names}).",
            )


MATCHING_LIMIT = 40  # largest group of countries whose pairings are enumerated (S2 stopped at 12)


def _perfect_matchings(
    nodes: list[int], edges: dict[int, set[int]], budget: list[int]
) -> set[tuple[int, int]] | None:
    """Edges used by some perfect matching of the group, or None when the search budget runs out.

    The budget counts the nodes of the plain enumeration tree (pair the lowest free country, in
    every way); the tree repeats subtrees, so each set of free countries is solved once and its
    subtree size added to the count: same answer and same cut-off, a fraction of the work.
    """
    limit = budget[0]
    # sets of countries as bit masks over the group's positions: far cheaper to hash than frozensets
    # (bit order = country order, so the lowest bit is the plain enumeration's ``min(free)``)
    nodes = sorted(nodes)
    where = {v: k for k, v in enumerate(nodes)}
    adj = [sum(1 << where[o] for o in edges[v] if o in where) for v in nodes]
    memo: dict[int, tuple[int, bool]] = {}  # free countries -> (subtree size, matchable)
    count = 0

    def walk(free: int) -> tuple[int, bool]:
        nonlocal count
        hit = memo.get(free)
        if hit is not None:
            count += hit[0]
            if count > limit:
                raise TimeoutError
            return hit
        count += 1
        if count > limit:
            raise TimeoutError
        size, ok = 1, not free
        if free:
            low = free & -free
            rest = free ^ low
            options = adj[low.bit_length() - 1] & rest
            while options:
                bit = options & -options
                options ^= bit
                sub, sub_ok = walk(rest ^ bit)
                size += sub
                ok = ok or sub_ok
        memo[free] = (size, ok)
        return size, ok

    try:
        walk((1 << len(nodes)) - 1)
    except TimeoutError:
        return None
    budget[0] = limit - count
    used: set[tuple[int, int]] = set()
    for free in memo:
        if free:
            low = free & -free
            rest = free ^ low
            first = nodes[low.bit_length() - 1]
            options = adj[low.bit_length() - 1] & rest
            while options:
                bit = options & -options
                options ^= bit
                if memo[rest ^ bit][1]:
                    other = nodes[bit.bit_length() - 1]
                    used.add((min(first, other), max(first, other)))
    return used


def matching(s: State) -> Iterator[Step]:
    """Countries pair up perfectly: a pairing of two countries that fits in no perfect matching is impossible."""
    b = s.board
    support: dict[tuple[int, int], list[tuple[int, int]]] = {}  # country pair -> (cell, direction)
    edges: dict[int, set[int]] = {r: set() for r in range(len(b.regions))}
    for i in range(b.n):
        s.poll()
        m = s.masks[i]
        for d in DIRECTIONS:
            if m & BIT[d]:
                for p in s.partners(i, d, blocking=True)[0]:
                    a, c = b.reg[i], b.reg[p]
                    support.setdefault((min(a, c), max(a, c)), []).append((i, d))
                    edges[a].add(c)
                    edges[c].add(a)
    seen: set[int] = set()
    for start in range(len(b.regions)):
        s.poll()
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            r = stack.pop()
            group.append(r)
            for o in edges[r]:
                if o not in seen:
                    seen.add(o)
                    stack.append(o)
        if len(group) % 2:
            raise Contradiction(
                "an odd group of countries can only pair among themselves", b.regions[group[0]]
            )
        if len(group) > MATCHING_LIMIT or len(group) == 2:
            continue
        used = _perfect_matchings(group, edges, [20000])
        if used is None:
            continue
        if not used:
            raise Contradiction(
                "these countries cannot all pair up", [c for r in group for c in b.regions[r]]
            )
        dead = [pair for pair in support if pair[0] in group and pair not in used]
        if not dead:
            continue
        removals: dict[int, int] = {}
        for pair in dead:
            for i, d in support[pair]:
                partners = s.partners(i, d, blocking=True)[0]
                alive = [p for p in partners if tuple(sorted((b.reg[i], b.reg[p]))) in used]
                if not alive:
                    removals[i] = removals.get(i, 0) | BIT[d]
        if removals:
            names = ", ".join(f"{b.name(b.regions[x][0])}+{b.name(b.regions[y][0])}" for x, y in sorted(dead))
            yield Step(
                "matching",
                [c for r in group for c in b.regions[r]],
                removals,
                f"The {len(group)} countries of this group can only pair among themselves; no complete "
                f"pairing uses the pairs {names}, so the arrows that would form them are impossible.",
            )


# ---- levels 5-6: several countries at once ---------------------------------------------------------
GROUP_NODES = 1000  # search nodes for one group of countries
SWEEP_NODES = 12_000  # search nodes for one sweep of a technique (a fixed budget keeps runs reproducible)


def _options(s: State, reg: int) -> list[tuple[int, int]]:
    """(cell, direction) placements still open to a country's arrow."""
    masks = s.masks
    return [(i, d) for i in s.board.regions[reg] for d in DIRECTIONS if masks[i] & BIT[d]]


def _sight(s: State, i: int, d: int, members: set[int]) -> tuple[tuple[int, ...], bool]:
    """Walk the ray of an arrow (i, d) up to the first cell outside the group that settles it.

    Returns the group's cells met before that point (nearest first) and what the point means:
    True for a possible partner outside the group, False for a cell that must hold an arrow
    that cannot be the partner, or the edge of the board.
    """
    b = s.board
    masks = s.masks
    ri = b.reg[i]
    opp = BIT[OPPOSITE[d]]
    inside: list[int] = []
    for j in b.rays[i][d]:
        m = masks[j]
        if not m & ARROWS:
            continue
        rj = b.reg[j]
        if rj in members:
            inside.append(j)
            continue
        if m & opp and b.pairable(ri, rj):
            return tuple(inside), True
        if not m & EMPTY:
            return tuple(inside), False
    return tuple(inside), False


class _Budget:
    def __init__(self, nodes: int) -> None:
        self.left = nodes


def _consistent_options(
    s: State, group: tuple[int, ...], budget: _Budget
) -> list[set[tuple[int, int]]] | None:
    """For each country of ``group``, the placements used by some consistent joint placement.

    A joint placement gives each country of the group one arrow; it is consistent when each of
    these arrows can still see a partner: walking its ray, the group's other cells are empty, a
    placed arrow of the group ends the walk (a partner only if it faces back from a pairable
    country), and outside the group the candidates decide. Backtracking judges the cells of
    countries not yet placed optimistically (a partner if they could be one), so no consistent
    placement is lost. None when the group is not worth it or the budget runs out.
    """
    b = s.board
    members = set(group)
    opts = [_options(s, r) for r in group]
    sights = {(i, d): _sight(s, i, d, members) for o in opts for i, d in o}
    # countries that never look at one another add nothing to what one country alone shows
    if not any(b.reg[j] != b.reg[i] for (i, _), (cells, _) in sights.items() for j in cells):
        return None
    alive: list[set[tuple[int, int]]] = [set() for _ in group]
    chosen: dict[int, int] = {}
    placed: set[int] = set()

    def sees(i: int, d: int) -> bool:
        cells, outcome = sights[(i, d)]
        opp = OPPOSITE[d]
        for j in cells:
            e = chosen.get(j)
            if e is not None:
                return e == opp and b.pairable(b.reg[i], b.reg[j])
            rj = b.reg[j]
            if rj not in placed and s.masks[j] & BIT[opp] and b.pairable(b.reg[i], rj):
                return True  # not placed yet: it might be the partner
        return outcome

    def witness(order: list[int]) -> bool:
        """Place the countries of ``order`` after the ones already placed; True at the first success."""
        if not order:
            return True
        k, rest = order[0], order[1:]
        placed.add(group[k])
        for i, d in opts[k]:
            budget.left -= 1
            if budget.left < 0:
                raise TimeoutError
            chosen[i] = d
            if all(sees(j, e) for j, e in chosen.items()) and witness(rest):
                return True  # keep the placement: the caller reads it
            del chosen[i]
        placed.discard(group[k])
        return False

    # one witness search per placement not yet seen in a consistent joint placement
    try:
        for k in range(len(group)):
            for opt in opts[k]:
                if opt in alive[k]:
                    continue
                chosen.clear()
                placed.clear()
                chosen[opt[0]] = opt[1]
                placed.add(group[k])
                others = sorted((x for x in range(len(group)) if x != k), key=lambda x: len(opts[x]))
                if sees(*opt) and witness(others):
                    for x, r in enumerate(group):
                        alive[x].add(next((i, d) for i, d in chosen.items() if b.reg[i] == r))
    except TimeoutError:
        return None
    return alive


def _group_step(s: State, group: tuple[int, ...], budget: _Budget, rule: str, lead: str) -> Step | None:
    b = s.board
    own = _Budget(min(GROUP_NODES, budget.left))
    alive = _consistent_options(s, group, own)
    # the rays walked to set up the search count too
    budget.left -= min(GROUP_NODES, budget.left) - max(own.left, 0) + sum(len(_options(s, r)) for r in group)
    if alive is None:
        return None
    cells = [c for r in group for c in b.regions[r]]
    if any(not a for a in alive):
        raise Contradiction("these countries have no way to place their arrows together", cells)
    removals: dict[int, int] = {}
    for k, r in enumerate(group):
        for i, d in _options(s, r):
            if (i, d) not in alive[k]:
                removals[i] = removals.get(i, 0) | BIT[d]
    if not removals:
        return None
    dead = ", ".join(f"{b.name(i)} {_dirs(bits)}" for i, bits in sorted(removals.items()))
    return Step(
        rule,
        cells,
        removals,
        f"{lead} Placing their {len(group)} arrows together, every way with {dead} leaves one of them "
        "blocked by another that does not face back, or with no possible partner, so those are impossible.",
    )


def _undecided(s: State) -> list[bool]:
    return [len(_options(s, r)) > 1 for r in range(len(s.board.regions))]


def _tightest_first(s: State, groups: Iterator[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Groups with the fewest joint placements first: the cheapest to search, the likeliest to conclude."""
    counts = [len(_options(s, r)) for r in range(len(s.board.regions))]
    sized = []
    for group in groups:
        total = 1
        for r in group:
            total *= counts[r]
        sized.append((total, group))
    sized.sort()
    return [group for _, group in sized]


def _line_groups(s: State, size: int) -> Iterator[tuple[int, ...]]:
    """Runs of ``size`` undecided countries met one after another along a row or a column."""
    b = s.board
    rows, cols = b.p.rows, b.cols
    undecided = _undecided(s)
    lines = [range(r * cols, (r + 1) * cols) for r in range(rows)]
    lines += [range(c, rows * cols, cols) for c in range(cols)]
    seen: set[tuple[int, ...]] = set()
    for line in lines:
        s.poll()
        run: list[int] = []
        for j in line:
            rj = b.reg[j]
            if undecided[rj] and s.masks[j] & ARROWS and rj not in run:
                run.append(rj)
        for k in range(len(run) - size + 1):
            group = tuple(sorted(run[k : k + size]))
            if group not in seen:
                seen.add(group)
                yield group


def long_arrow(s: State) -> Iterator[Step]:
    """Long arrow over a run of countries (techniques.md #11, generalised).

    The countries met one after another along a line hold one arrow each; an arrow of one placed
    across another's line blocks it unless it faces back, so an arrow's partner must lie beyond
    the next countries. Every joint placement of the run's arrows is tried; a placement that is
    part of no consistent one is impossible. Sound: a solution restricted to the run is such a
    joint placement, because the rest of the board is judged only by its remaining candidates.
    """
    b = s.board
    budget = _Budget(SWEEP_NODES)
    for size in (2, 3):
        for group in _tightest_first(s, _line_groups(s, size)):
            if budget.left <= 0:
                return
            names = ", ".join(b.name(b.regions[r][0]) for r in group)
            step = _group_step(
                s, group, budget, "long-arrow", f"The countries of {names} lie along one line."
            )
            if step is not None:
                yield step
                return  # candidates changed: the engine re-runs the cheaper techniques first


LOCAL_SIDE = 3  # the window of local case analysis (cells)
LOCAL_LIMIT = 6  # most countries considered together


def _window_groups(s: State) -> Iterator[tuple[int, ...]]:
    """Undecided countries with a free cell in a LOCAL_SIDE x LOCAL_SIDE window, each window once."""
    b = s.board
    rows, cols = b.p.rows, b.cols
    undecided = _undecided(s)
    seen: set[tuple[int, ...]] = set()
    for r0 in range(max(1, rows - LOCAL_SIDE + 1)):
        s.poll()
        for c0 in range(max(1, cols - LOCAL_SIDE + 1)):
            regs = set()
            for r in range(r0, min(rows, r0 + LOCAL_SIDE)):
                for c in range(c0, min(cols, c0 + LOCAL_SIDE)):
                    i = r * cols + c
                    if undecided[b.reg[i]] and s.masks[i] & ARROWS:
                        regs.add(b.reg[i])
            group = tuple(sorted(regs))
            if 3 < len(group) <= LOCAL_LIMIT and group not in seen:
                seen.add(group)
                yield group


def local_cases(s: State) -> Iterator[Step]:
    """Local case analysis: the same joint placement as the long arrow, for the countries that meet
    in a small window of the board (up to LOCAL_LIMIT countries); no propagation beyond sight."""
    b = s.board
    budget = _Budget(SWEEP_NODES)
    for group in _tightest_first(s, _window_groups(s)):
        if budget.left <= 0:
            return
        where = b.name(min(c for r in group for c in b.regions[r] if s.masks[c] & ARROWS))
        lead = f"The countries of {', '.join(b.name(b.regions[r][0]) for r in group)} meet near {where}."
        step = _group_step(s, group, budget, "local-cases", lead)
        if step is not None:
            yield step
            return


PARTNER_LIMIT = 6  # most countries in one "partner cases" group (the country and those it may see)


def _partner_group(s: State, reg: int, undecided: list[bool]) -> tuple[int, ...]:
    """The country and the undecided countries its arrow could see: along each open placement's
    ray, every undecided country met up to and including the first possible partner (the arrows
    there decide whether it is seen). Nearest first, at most PARTNER_LIMIT countries."""
    b = s.board
    masks = s.masks
    met: dict[int, int] = {}  # country -> distance of its nearest cell on a ray
    for i, d in _options(s, reg):
        opp = BIT[OPPOSITE[d]]
        for dist, j in enumerate(b.rays[i][d]):
            m = masks[j]
            if not m & ARROWS:
                continue
            rj = b.reg[j]
            if rj != reg and undecided[rj]:
                met[rj] = min(met.get(rj, dist), dist)
            if (m & opp and b.pairable(reg, rj)) or not m & EMPTY:
                break
    near = sorted(met, key=lambda r: (met[r], r))[: PARTNER_LIMIT - 1]
    return tuple(sorted((reg, *near)))


def partner_cases(s: State) -> Iterator[Step]:
    """Partner cases: a country and the countries that could hold its partner (or stand between)
    place their arrows together; a placement of one of them in no consistent joint placement is
    impossible. The same bounded joint placement as the long arrow, over the countries one arrow
    can see rather than a line or a window: "this country pairs with A or with B; if A's arrow
    points away, B's must ... and then this country sees no partner"."""
    b = s.board
    budget = _Budget(SWEEP_NODES)
    undecided = _undecided(s)
    groups: dict[tuple[int, ...], int] = {}  # group -> the country whose sight made it
    for reg in range(len(b.regions)):
        s.poll()
        if undecided[reg]:
            group = _partner_group(s, reg, undecided)
            if len(group) >= 2:
                groups.setdefault(group, reg)
    for group in _tightest_first(s, iter(groups)):
        if budget.left <= 0:
            return
        lead_reg = groups[group]
        others = ", ".join(b.name(b.regions[r][0]) for r in group if r != lead_reg)
        lead = (
            f"The arrow of the country of {b.name(b.regions[lead_reg][0])} may first see the arrows of "
            f"the countries of {others} (its partner, or one standing in between)."
        )
        step = _group_step(s, group, budget, "partner-cases", lead)
        if step is not None:
            yield step
            return


TECHNIQUES: tuple[Technique, ...] = (
    Technique("adjacency-ban", "adjacency ban", "端・隣接禁", 1, adjacency_ban),
    Technique("one-per-country", "one arrow per country", "国に矢印1つ", 1, one_arrow_per_country),
    Technique("leftover-cell", "leftover cell", "残りマス", 1, leftover_cell),
    Technique("isolation-ban", "isolation ban", "孤立禁", 1, isolation_ban),
    Technique("partner-search", "partner search", "相方探し", 2, partner_search),
    Technique("facing-pair", "facing-pair closure", "向かい合い確定", 2, facing_pair),
    Technique("corridor", "corridor", "廊下", 3, corridor),
    Technique("blocking-country", "blocking country", "国の壁", 3, blocking_country),
    Technique("room-pairing", "room pairing", "部屋ペア", 4, room_pairing),
    Technique("reservation", "reservation", "予約", 4, reservation),
    Technique("matching", "global matching", "マッチング", 4, matching),
    Technique("charao", "charao (weak reservation)", "チャラ男手筋", 4, charao),
    Technique(
        "long-arrow", "long arrow (a run of countries along a line)", "長い矢印(国の列)", 5, long_arrow
    ),
    Technique("local-cases", "local case analysis", "局所場合分け", 6, local_cases),
    Technique("partner-cases", "partner cases", "相方の場合分け", 7, partner_cases),
)
CASE_CHAIN = Technique(
    "case-chain", "case analysis (short chain)", "場合分け(短い連鎖)", 8, lambda s: iter(())
)
TRIAL = Technique("trial", "trial (assume and refute)", "仮定・背理法", 9, lambda s: iter(()))
DEEP_TRIAL = Technique("deep-trial", "trial by exhaustive search", "仮定(総当たり)", 10, lambda s: iter(()))
BY_ID = {t.id: t for t in (*TECHNIQUES, CASE_CHAIN, TRIAL, DEEP_TRIAL)}
