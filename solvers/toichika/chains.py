"""Short case analysis (背理の連鎖): "if R3C4 points left, then ... contradiction", spelled out.

The last resort before a trial. One candidate is assumed and the readable techniques (levels 1-3:
the rules, partner search, facing pairs, corridor, blocking country) are applied one step at a time;
when that ends in a contradiction, the chain is cut down to the steps the contradiction needs and
shown step by step, with its depth (the number of steps). Only chains of at most ``CHAIN_DEPTH``
steps count: a longer one is a trial's job. Sound: every step of the chain is a sound technique
applied to the state "the candidates so far, with the assumption", so a contradiction there means
no solution has the assumed value.
"""

from __future__ import annotations

from solvers.toichika.candidates import ARROWS, EMPTY, Contradiction, State, single_direction
from solvers.toichika.model import DIRECTION_NAME
from solvers.toichika.propagation import fixpoint
from solvers.toichika.techniques import BY_ID, TECHNIQUES, Step, Technique

CHAIN_LEVEL = 3  # the techniques a chain may use (each step of it must read as a sentence)
CHAIN_DEPTH = 15  # longest chain shown (steps after cutting it down, the contradiction included)
RAW_STEPS = 60  # steps a case may take before it is given up (before cutting down)
PRUNE_CANDIDATES = 3  # the shortest raw chains that get cut down; the shortest result is shown

_CHAIN_TECHNIQUES: tuple[Technique, ...] = tuple(t for t in TECHNIQUES if t.level <= CHAIN_LEVEL)


def _apply(masks: list[int], removals: dict[int, int]) -> dict[int, int]:
    changed: dict[int, int] = {}
    for i, bits in removals.items():
        new = masks[i] & ~bits
        if new != masks[i]:
            if new == 0:
                raise Contradiction("a cell has no candidate left", [i])
            changed[i] = masks[i] & bits
            masks[i] = new
    return changed


def _dead_end(state: State) -> Contradiction | None:
    """The contradiction a technique meets in this state at once: it reports one, or its next
    conclusion would leave a cell with no candidate; or a country has no cell left."""
    b = state.board
    for cells in b.regions:
        if not any(state.masks[i] & ARROWS for i in cells):
            return Contradiction(
                f"the country of {b.name(cells[0])} has no cell left for its arrow", list(cells)
            )
    for tech in _CHAIN_TECHNIQUES:
        try:
            for step in tech.run(state):
                for i, bits in step.removals.items():
                    if state.masks[i] & ~bits == 0:
                        return Contradiction(f"{tech.name} leaves {b.name(i)} no candidate", [i, *step.cells])
        except Contradiction as exc:
            where = ", ".join(b.name(j) for j in dict.fromkeys(exc.cells[:3]))
            return Contradiction(f"{exc.reason}{f' at {where}' if where else ''} ({tech.name})", exc.cells)
    return None


def _run_case(state: State) -> tuple[list[Step], Contradiction] | None:
    """Apply the chain techniques one step at a time (cheapest first, as the explainer does) until
    a contradiction; None if the case stays open or takes more than RAW_STEPS steps."""
    steps: list[Step] = []
    try:
        progress = True
        while progress:
            progress = False
            for tech in _CHAIN_TECHNIQUES:
                for step in tech.run(state):
                    changed = _apply(state.masks, step.removals)
                    if changed:
                        step.applied = changed
                        steps.append(step)
                        progress = True
                        if len(steps) > RAW_STEPS:
                            return None
                if progress:
                    break
        end = _dead_end(state)
    except Contradiction as exc:
        return steps, exc
    return (steps, end) if end is not None else None


def _replay(start: State, steps: list[Step]) -> tuple[list[Step], Contradiction] | None:
    """Do these steps, in order, each still follow from its technique and end in a contradiction?
    Returns the steps up to the contradiction (it may come sooner) and the contradiction."""
    state = start.copy()
    done: list[Step] = []
    try:
        for step in steps:
            derived: dict[int, int] = {}
            for found in BY_ID[step.rule].run(state):
                for i, bits in found.removals.items():
                    derived[i] = derived.get(i, 0) | bits
            for i, bits in step.applied.items():
                if bits & state.masks[i] & ~derived.get(i, 0):
                    return None
            done.append(step)
            _apply(state.masks, step.applied)
        end = _dead_end(state)
    except Contradiction as exc:
        return done, exc
    return (done, end) if end is not None else None


def _cut_down(start: State, steps: list[Step], end: Contradiction) -> tuple[list[Step], Contradiction]:
    """Drop, last first, every step the contradiction can do without (each drop is replayed).

    Dropping step k leaves the steps before it as they were, so the replay starts from the state
    after them (kept from one pass over the chain: the drops only ever touch later steps).
    """
    kept = list(steps)
    prefix = [start.copy()]  # prefix[k]: the state after kept[:k]
    for step in kept[:-1]:
        after = prefix[-1].copy()
        _apply(after.masks, step.applied)
        prefix.append(after)
    for k in range(len(kept) - 1, -1, -1):
        if k >= len(kept):
            continue
        got = _replay(prefix[k], kept[k + 1 :])
        if got is not None:
            rest, end = got
            kept = kept[:k] + rest
    return kept, end


def _assumed(state: State, i: int, bit: int) -> str:
    name = state.board.name(i)
    d = single_direction(bit)
    return f"{name} points {DIRECTION_NAME[d]}" if d else f"{name} is empty"


def _conclusion(state: State, step: Step) -> str:
    """What a step of the chain concludes, in a few words ("R3C3 holds v", "R4C3 is empty")."""
    b = state.board
    parts = []
    for i in sorted(step.applied):
        m = state.masks[i]
        d = single_direction(m)
        if d:
            parts.append(f"{b.name(i)} holds {'^v<>'[d - 1]}")
        elif m == EMPTY:
            parts.append(f"{b.name(i)} is empty")
        else:
            gone = [n for n in ("^", "v", "<", ">") if step.applied[i] & (1 << ("^v<>".index(n) + 1))]
            parts.append(f"{b.name(i)} is not {'/'.join(gone)}" if gone else f"{b.name(i)} holds an arrow")
    return ", ".join(parts)


def _text(start: State, i: int, bit: int, steps: list[Step], end: Contradiction) -> str:
    state = start.copy()
    lines = []
    for step in steps:
        _apply(state.masks, step.applied)
        lines.append(f"{_conclusion(state, step)} ({BY_ID[step.rule].name})")
    last = end.reason
    what = _assumed(start, i, bit)
    body = "; ".join(lines)
    depth = len(steps) + 1
    return (
        f"Case analysis, depth {depth}: if {what}, then "
        + (f"{body}; then " if body else "")
        + f"{last}: a contradiction. So it is not the case that {what}."
    )


def chain_step(state: State, targets: list[tuple[int, int]]) -> Step | None:
    """The shortest readable refutation among ``targets`` ((cell, candidate bit) pairs), if any
    needs at most CHAIN_DEPTH steps.

    ``state`` is expected to be a fixpoint of the techniques up to CHAIN_LEVEL (the explainer
    calls this only when every technique is stuck): the quick pre-check of each case looks only
    at the assumed cell's lines. From any other state some chains are missed, never a wrong one
    made (the chain itself is found and checked step by step).
    """
    found: list[tuple[int, int, int, list[Step], Contradiction]] = []
    for i, bit in targets:
        state.poll()
        case = state.copy()
        case.masks[i] = bit
        try:
            # the fast fixpoint first (most cases stay open), from the stuck state: only i's lines
            fixpoint(case.copy(), CHAIN_LEVEL, changed=[i])
            continue
        except Contradiction:
            pass
        got = _run_case(case)
        if got is not None:
            steps, end = got
            found.append((len(steps), i, bit, steps, end))
    found.sort(key=lambda f: f[0])
    best: tuple[int, int, int, list[Step], Contradiction] | None = None
    for _, i, bit, steps, end in found[:PRUNE_CANDIDATES]:
        state.poll()
        start = state.copy()
        start.masks[i] = bit
        kept, last = _cut_down(start, steps, end)
        if len(kept) < CHAIN_DEPTH and (best is None or len(kept) < len(best[3])):
            best = (len(kept), i, bit, kept, last)
    if best is None:
        return None
    _, i, bit, kept, last = best
    start = state.copy()
    start.masks[i] = bit
    replayed = _replay(start, kept)  # the contradiction as the last technique meets it
    if replayed is not None:
        kept, last = replayed
    cells = [i] + [j for s in kept for j in s.applied] + list(last.cells)
    return Step("case-chain", list(dict.fromkeys(cells)), {i: bit}, _text(start, i, bit, kept, last))
