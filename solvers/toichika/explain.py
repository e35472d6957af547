"""Step-by-step explainer: apply techniques cheapest first, then trial, until the board is solved.

Trial (仮定) assumes one candidate, propagates with the named techniques and removes the candidate
when that ends in a contradiction. If no single assumption refutes itself that way, a "deep trial"
asks the exact solver whether the assumption has any solution at all, so every puzzle finishes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.words import cell_name, listed
from solvers.toichika.candidates import ALL, ARROWS, BIT, EMPTY, Board, Contradiction, State, mask_names
from solvers.toichika.chains import chain_step
from solvers.toichika.model import (
    ARROW_CHAR,
    ARROW_SIGN,
    CHAR_ARROW,
    DIRECTIONS,
    DOT,
    QUESTION,
    Entries,
    Toichika,
    marks_entry,
    marks_of,
)
from solvers.toichika.propagation import fixpoint
from solvers.toichika.sat_solver import Probe, is_consistent, iter_solutions
from solvers.toichika.techniques import BY_ID, TECHNIQUES, Step

GRADES = {
    1: "easy",
    2: "medium",
    3: "hard",
    4: "very hard",
    5: "fiendish",
    6: "diabolical",
    7: "ferocious",
    8: "master",
    9: "expert",
    10: "extreme",
}
NAMED_LEVEL = max(t.level for t in TECHNIQUES)  # the hardest named technique; trials are above
TRIAL_LEVEL = 4  # a trial propagates with the techniques up to this level (the group searches cost too much)


def apply(state: State, step: Step) -> dict[int, int]:
    """Remove the step's candidates; return what really changed. Raises on an emptied cell."""
    changed: dict[int, int] = {}
    masks = state.masks
    for i, bits in step.removals.items():
        new = masks[i] & ~bits
        if new != masks[i]:
            if new == 0:
                raise Contradiction("a cell has no candidate left", [i])
            changed[i] = masks[i] & bits
            masks[i] = new
    return changed


def propagate(state: State, cancel: CancelToken | None = None, max_level: int = TRIAL_LEVEL) -> None:
    """Run the techniques to a fixpoint (no record). Raises Contradiction.

    The incremental sweeps of ``propagation.fixpoint`` reach the same states as
    ``propagate_reference`` (the plain loop), several times faster.
    """
    if cancel is not None and state.cancel is None:
        state = State(state.board, state.masks, cancel)  # same mask list: the caller sees the result
    fixpoint(state, max_level)
    _check_counts(state)


def propagate_reference(
    state: State, cancel: CancelToken | None = None, max_level: int = TRIAL_LEVEL
) -> None:
    """The plain fixpoint loop, kept as the reference that ``propagate`` must match."""
    progress = True
    while progress:
        progress = False
        if cancel is not None:
            cancel.raise_if_cancelled()
        for tech in TECHNIQUES:
            if tech.level > max_level:
                break
            for step in tech.run(state):
                if apply(state, step):
                    progress = True
            if progress:
                break
    _check_counts(state)


def _check_counts(state: State) -> None:
    state.poll()
    for cells in state.board.regions:
        if not any(state.masks[i] & ARROWS for i in cells):
            raise Contradiction("a country has no cell left for its arrow", list(cells))


@dataclass
class Explanation:
    puzzle: Toichika
    steps: list[Step] = field(default_factory=list)
    states: list[list[int]] = field(default_factory=list)  # masks after each step; states[0] = start
    solved: bool = False
    trials: int = 0
    seconds: float = 0.0
    error: str = ""

    @property
    def final(self) -> list[int]:
        return self.states[-1]

    def hardest_level(self) -> int:
        return max((BY_ID[s.rule].level for s in self.steps), default=1)

    def grade(self) -> str:
        if not self.solved:
            return "unsolved"
        return GRADES[self.hardest_level()]

    def hardest_uses(self) -> dict[str, int]:
        """How often each technique of the hardest level was used: the grade's weight."""
        level = self.hardest_level()
        out: dict[str, int] = {}
        for s in self.steps:
            if BY_ID[s.rule].level == level:
                out[s.rule] = out.get(s.rule, 0) + 1
        return out

    def grade_text(self) -> str:
        """The grade in a player's words: "fiendish (the hardest technique used is long arrow,
        2 times)"; it read "fiendish (long arrow x2)"."""
        if not self.solved:
            return "unsolved"
        uses = [(BY_ID[k].name.split(" (")[0], n) for k, n in self.hardest_uses().items()]
        if not uses:
            return self.grade()
        if len(uses) == 1:
            name, n = uses[0]
            return f"{self.grade()} (the hardest technique used is {name}, {_times(n)})"
        # Several of one level: a list, not "a, 103 times and b, 28 times and c, ..." (QA pass 7)
        named = [f"{name} {_times(n)}" for name, n in sorted(uses, key=lambda use: -use[1])]
        return f"{self.grade()} (the hardest techniques used, all of one level: {listed(named)})"

    def trials_text(self) -> str:
        """How many steps are trial and error: "none by trial and error" ("0 trials" before)."""
        return f"{self.trials or 'none'} by trial and error"


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _record(state: State, step: Step, out: Explanation) -> bool:
    changed = apply(state, step)
    if not changed:
        return False
    step.applied = changed
    out.steps.append(step)
    out.states.append(list(state.masks))
    return True


CODES = ((0, EMPTY), *BIT.items())  # (answer code, candidate bit)


class Witnesses:
    """Solutions that agree with the current candidates, found with the exact solver.

    A candidate that some such solution uses can never be refuted, so trials skip it: this only
    saves time; every reported trial is still a refutation by the named techniques (or, for a
    deep trial, by the exhaustive search itself).
    """

    def __init__(self, puzzle: Toichika, cancel: CancelToken | None) -> None:
        self.probe = Probe(puzzle, cancel)
        self.found: list[tuple[int, ...]] = []

    @staticmethod
    def restrictions(masks: list[int]) -> dict[int, set[int]]:
        return {i: {code for code, bit in CODES if m & bit} for i, m in enumerate(masks) if m != 0b11111}

    def refresh(self, masks: list[int]) -> None:
        self.found = [s for s in self.found if all(masks[i] & _bit(v) for i, v in enumerate(s))]
        if not self.found:
            solution = self.probe.solution(self.restrictions(masks))
            if solution is not None:
                self.found.append(solution)

    def used(self, i: int, bit: int) -> bool:
        return any(_bit(s[i]) == bit for s in self.found)

    def close(self) -> None:
        self.probe.close()


def _bit(code: int) -> int:
    return EMPTY if code == 0 else BIT[code]


def _candidates(state: State) -> list[tuple[int, int]]:
    """Undecided (cell, bit) pairs, small countries and narrow cells first."""
    b = state.board
    order = []
    for i in range(b.n):
        if i % b.cols == 0:
            state.poll()
        m = state.masks[i]
        if m & (m - 1):
            size = sum(1 for j in b.regions[b.reg[i]] if state.masks[j] & ARROWS)
            for code, bit in CODES:
                if m & bit:
                    order.append((size, bin(m).count("1"), code == 0, i, bit))
    order.sort()
    return [(i, bit) for *_, i, bit in order]


def _refutable(state: State, witnesses: Witnesses) -> list[tuple[int, int]]:
    """Undecided candidates that no solution uses (the exact solver answers; each answer that finds
    a solution witnesses many candidates at once). Only these can be refuted by a trial."""
    base = witnesses.restrictions(state.masks)
    out = []
    for i, bit in _candidates(state):
        state.poll()
        if witnesses.used(i, bit):
            continue
        code = next(c for c, bt in CODES if bt == bit)
        solution = witnesses.probe.solution({**base, i: {code}})
        if solution is None:
            out.append((i, bit))
        else:
            witnesses.found.append(solution)
    return out


def _trial_step(state: State, targets: list[tuple[int, int]], cancel: CancelToken | None) -> Step | None:
    """Find one candidate whose assumption propagates to a contradiction."""
    b = state.board
    for i, bit in targets:
        if cancel is not None:
            cancel.raise_if_cancelled()
        trial = state.copy()
        trial.masks[i] = bit
        try:
            propagate(trial, cancel)
        except Contradiction as exc:
            what = mask_names(bit)[0]
            return Step(
                "trial",
                [i] + [j for j in exc.cells if j != i],
                {i: bit},
                f"Assume {b.name(i)} is {what}: the techniques then reach a contradiction ({exc.reason}), "
                f"so {b.name(i)} is not {what}.",
            )
    return None


def _deep_trial_step(state: State, target: tuple[int, int]) -> Step:
    i, bit = target
    name, what = state.board.name(i), mask_names(bit)[0]
    return Step(
        "deep-trial",
        [i],
        {i: bit},
        f"Assume {name} is {what}: an exhaustive search finds no way to finish the board, so {name} is not {what}.",
    )


def explain(
    puzzle: Toichika,
    cancel: CancelToken | None = None,
    start: list[int] | None = None,
    max_steps: int | None = None,
) -> Explanation:
    t0 = time.perf_counter()
    board = Board(puzzle, cancel)
    state = State(board, list(start) if start is not None else board.initial_masks(), cancel)
    out = Explanation(puzzle, states=[list(state.masks)])
    witnesses: Witnesses | None = None
    try:
        if len(board.regions) % 2:
            raise Contradiction("an odd number of countries cannot pair up", [])
        while not state.solved():
            if max_steps is not None and len(out.steps) >= max_steps:
                break
            if cancel is not None:
                cancel.raise_if_cancelled()
            progress = False
            for tech in TECHNIQUES:
                for step in tech.run(state):
                    if cancel is not None:
                        cancel.raise_if_cancelled()
                    if _record(state, step, out):
                        progress = True
                        if max_steps is not None and len(out.steps) >= max_steps:
                            break
                if progress:
                    break
            if progress:
                continue
            _check_counts(state)
            if witnesses is None:
                witnesses = Witnesses(puzzle, cancel)
            witnesses.refresh(state.masks)
            if not witnesses.found:
                raise Contradiction("no solution agrees with the candidates left", [])
            targets = _refutable(state, witnesses)
            if not targets:
                break  # every candidate left is used by some solution: nothing more to conclude
            chain = chain_step(state, targets)
            if chain is not None:
                _record(state, chain, out)
                continue
            step = _trial_step(state, targets, cancel) or _deep_trial_step(state, targets[0])
            _record(state, step, out)
            out.trials += 1
        out.solved = state.solved() and _is_valid_final(state)
    except Contradiction as exc:
        where = ", ".join(board.name(i) for i in exc.cells[:6])
        out.error = f"contradiction: {exc.reason}" + (f" at {where}" if where else "")
    finally:
        if witnesses is not None:
            witnesses.close()
    out.seconds = time.perf_counter() - t0
    return out


def _is_valid_final(state: State) -> bool:
    from solvers.toichika.rules import check

    return check(state.board.p, masks_to_arrows(state.masks)).ok


def masks_to_arrows(masks: list[int]) -> tuple[int, ...]:
    return tuple(next((d for d in DIRECTIONS if m == BIT[d]), 0) for m in masks)


def step_overlay(ex: Explanation, row: int) -> dict[str, Any]:
    """What the board draws at explanation row ``row`` (0 = start): candidates, used and concluded cells."""
    overlay: dict[str, Any] = {"state": ex.states[row]}
    if row > 0:
        step = ex.steps[row - 1]
        overlay["used"] = [ex.puzzle.cell(i) for i in step.cells]
        overlay["changed"] = [ex.puzzle.cell(i) for i in step.applied]
    return overlay


def grid_of(puzzle: Toichika, masks: list[int]) -> list[str]:
    """Rows like the solve output; '?' marks a cell still undecided."""
    chars = []
    for m in masks:
        if m == EMPTY:
            chars.append(".")
        elif m in (BIT[d] for d in DIRECTIONS):
            chars.append(ARROW_CHAR[next(d for d in DIRECTIONS if m == BIT[d])])
        else:
            chars.append("?")
    return ["".join(chars[r * puzzle.cols : (r + 1) * puzzle.cols]) for r in range(puzzle.rows)]


def step_json(puzzle: Toichika, step: Step, after: list[int]) -> dict[str, Any]:
    tech = BY_ID[step.rule]
    conclusions = []
    for i, removed in sorted(step.applied.items()):
        now = after[i]
        value = mask_names(now)[0] if now & (now - 1) == 0 else None
        conclusions.append(
            {
                "cell": list(puzzle.cell(i)),
                "removed": mask_names(removed),
                "now": value,
                "left": mask_names(now),
            }
        )
    return {
        "rule": tech.name,
        "rule_ja": tech.name_ja,
        "technique": tech.id,
        "level": tech.level,
        "cells": [list(puzzle.cell(i)) for i in dict.fromkeys(step.cells)],
        "conclusions": conclusions,
        "text": step.text,
    }


def explain_json(puzzle: Toichika, cancel: CancelToken | None = None) -> dict[str, Any]:
    ex = explain(puzzle, cancel)
    out: dict[str, Any] = {
        "solved": ex.solved,
        "steps": [step_json(puzzle, s, ex.states[k + 1]) for k, s in enumerate(ex.steps)],
        "grade": ex.grade(),
        "grade_uses": ex.hardest_uses(),
        "trials": ex.trials,
        "grid": grid_of(puzzle, ex.final),
        "seconds": round(ex.seconds, 4),
    }
    if ex.error:
        out["error"] = ex.error
    return out


def entries_masks(puzzle: Toichika, entries: Entries | None) -> list[int]:
    """Start state from the player's entries: an arrow fixes its cell, a dot empties it, and
    pencil marks remove what they rule out (the player's knowledge, so a hint is always new)."""
    masks = Board(puzzle).initial_masks()
    if entries is None:
        return masks
    for i, e in enumerate(entries):
        if puzzle.givens[i] in DIRECTIONS:
            continue
        if e in DIRECTIONS:
            masks[i] &= BIT[e]
        elif e == DOT:
            masks[i] &= EMPTY
        else:
            masks[i] &= ~marks_of(e)
    return masks


def hint(puzzle: Toichika, entries: Entries | None, cancel: CancelToken | None = None) -> dict[str, Any]:
    """The next step from the player's position, or the first entry that contradicts the solution.

    A "wrong-entry" result carries ``fix`` ({"cell", "entry"}: what ``apply_hint`` writes there);
    a "step" result carries its conclusions, which ``apply_hint`` writes as arrows, dots and marks.
    """
    from solvers.toichika.rules import check

    if entries is not None and check(puzzle, entries).ok:
        return {"kind": "solved", "text": "The board is complete and correct.", "cells": []}
    solutions = list(iter_solutions(puzzle, limit=2, cancel=cancel))
    if not solutions:
        return {"kind": "no-solution", "text": "The puzzle has no solution.", "cells": []}
    if entries is not None:
        wrong = _first_wrong_entry(puzzle, entries, solutions, cancel)
        if wrong is not None:
            i, fixed = wrong
            r, c = puzzle.cell(i)
            e = entries[i]
            if e == DOT:
                shown = "a dot contradicts"
            elif e in DIRECTIONS:
                shown = f"the arrow {ARROW_SIGN[e]} contradicts"
            else:
                bad = marks_of(e) & ~marks_of(fixed)
                names = [_mark_name(bit) for bit in (EMPTY, *BIT.values()) if bad & bit]
                several = len(names) > 1
                shown = f"the pencil mark{'s' if several else ''} {', '.join(names)} contradict{'' if several else 's'}"
            return {
                "kind": "wrong-entry",
                "cells": [[r, c]],
                "text": f"{cell_name(r, c)}: {shown} the solution.",
                "fix": {"cell": [r, c], "entry": fixed},
            }
    start = entries_masks(puzzle, entries)
    ex = explain(puzzle, cancel, start=start, max_steps=1)
    if ex.error:
        return {"kind": "contradiction", "text": ex.error, "cells": []}
    if not ex.steps:
        done = State(Board(puzzle), start).solved()
        return {"kind": "solved" if done else "stuck", "text": "Nothing left to deduce.", "cells": []}
    return {"kind": "step", **step_json(puzzle, ex.steps[0], ex.states[1])}


def _mark_name(bit: int) -> str:
    return "'an arrow here'" if bit == EMPTY else f"'not {mask_names(bit)[0]}'"


def _allowed(puzzle: Toichika, i: int, e: int) -> set[int]:
    """Answer codes (0 = empty) an entry leaves possible."""
    if e == DOT:
        return {0}
    if e in DIRECTIONS:
        return {e}
    bits = marks_of(e)  # bit k rules out answer code k (bit 0: empty)
    codes = set(DIRECTIONS) if puzzle.givens[i] == QUESTION else {0, *DIRECTIONS}
    return {code for code in codes if not (bits >> code) & 1}


def _first_wrong_entry(
    puzzle: Toichika, entries: Entries, solutions: list[tuple[int, ...]], cancel: CancelToken | None
) -> tuple[int, int] | None:
    """First entry (row-major) that no solution shares, with what it should become: an arrow or a
    dot is erased, pencil marks lose the marks that rule out the solution's value. With a unique
    solution a direct comparison, else the exact solver."""
    for i, e in enumerate(entries):
        if puzzle.givens[i] in DIRECTIONS or e == 0:
            continue
        allowed = _allowed(puzzle, i, e)
        if len(solutions) == 1:
            want = solutions[0][i]
            if want not in allowed:
                return i, 0 if e == DOT or e in DIRECTIONS else marks_entry(marks_of(e) & ~(1 << want))
        elif not is_consistent(puzzle, {i: allowed}, cancel):
            return i, 0
    return None


def apply_hint(puzzle: Toichika, entries: Entries | None, result: dict[str, Any]) -> Entries | None:
    """The entries with a hint's conclusions written in (None when the hint concludes nothing).

    A conclusion that leaves one arrow places it, one that leaves only "empty" places a dot, any
    other writes pencil marks for every candidate ruled out. ``entries_masks`` of the result is
    exactly the state after the hint's step, so the next hint always says something new.
    """
    current = list(entries) if entries is not None else [0] * puzzle.size
    if result.get("kind") == "wrong-entry" and "fix" in result:
        r, c = result["fix"]["cell"]
        current[puzzle.index(r, c)] = int(result["fix"]["entry"])
        return tuple(current)
    if result.get("kind") != "step":
        return None
    for conclusion in result["conclusions"]:
        r, c = conclusion["cell"]
        i = puzzle.index(r, c)
        if puzzle.givens[i] in DIRECTIONS:
            continue
        left = 0
        for name in conclusion["left"]:
            left |= EMPTY if name == "empty" else BIT[CHAR_ARROW[name]]
        if left == EMPTY:
            current[i] = DOT
        elif left & EMPTY == 0 and left & (left - 1) == 0:
            current[i] = left.bit_length() - 1
        else:
            start = ARROWS if puzzle.givens[i] == QUESTION else ALL
            current[i] = marks_entry(start & ~left)
    return tuple(current)
