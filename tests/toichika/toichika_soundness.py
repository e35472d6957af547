"""Soundness check of the explainer's techniques against the exact solver (tests only).

A deduction made from a candidate state is sound when no solution inside that state has the
removed value; the SAT solver answers that exactly, whatever the number of solutions.
"""

from __future__ import annotations

import random

from solvers.common.cancel import CancelToken
from solvers.toichika.candidates import ALL, BIT, EMPTY, Board, Contradiction, State, mask_names
from solvers.toichika.explain import CODES, apply
from solvers.toichika.generate import divide, hidden_solution
from solvers.toichika.model import DIRECTIONS, Toichika
from solvers.toichika.sat_solver import Probe
from solvers.toichika.techniques import TECHNIQUES, Technique


def restrictions(masks: list[int]) -> dict[int, set[int]]:
    return {i: {code for code, bit in CODES if m & bit} for i, m in enumerate(masks) if m != ALL}


def check_sweeps(
    puzzle: Toichika,
    masks: list[int],
    techniques: tuple[Technique, ...] = TECHNIQUES,
    tally: dict[str, int] | None = None,
) -> int:
    """Run every technique from ``masks`` to a fixpoint, checking each removal with the exact
    solver; returns the number of removals checked. Raises AssertionError on an unsound one."""
    board = Board(puzzle)
    state = State(board, list(masks))
    probe = Probe(puzzle)
    checked = 0
    try:
        if probe.solution(restrictions(state.masks)) is None:
            return 0  # no solution in this state: nothing to compare with
        progress = True
        while progress:
            progress = False
            for tech in techniques:
                try:
                    for step in tech.run(state):
                        base = restrictions(state.masks)
                        for i, bits in step.removals.items():
                            for code, bit in CODES:
                                if bits & bit & state.masks[i]:
                                    witness = probe.solution({**base, i: {code}})
                                    assert witness is None, (
                                        f"{tech.id} removed {mask_names(bit)} at {board.name(i)} but a "
                                        f"solution has it: {step.text}"
                                    )
                                    checked += 1
                                    if tally is not None:
                                        tally[tech.id] = tally.get(tech.id, 0) + 1
                        if apply(state, step):
                            progress = True
                except Contradiction as exc:
                    witness = probe.solution(restrictions(state.masks))
                    assert witness is None, (
                        f"{tech.id} reported a contradiction ({exc.reason}) on a solvable state"
                    )
                    return checked
    finally:
        probe.close()
    return checked


def random_board(seed: int, rows: int, cols: int) -> tuple[Toichika, tuple[int, ...]] | None:
    """A random division with a random solution (None if the division has none)."""
    rng = random.Random(seed)
    blank = Toichika.from_labels(divide(rows, cols, rng))
    solution = hidden_solution(blank, rng, False, CancelToken())
    return None if solution is None else (blank, solution)


def random_state(blank: Toichika, solution: tuple[int, ...], seed: int, fixed: float) -> list[int]:
    """Candidates with a random share of the cells fixed to the solution's value (givens or dots)."""
    rng = random.Random(seed)
    masks = [ALL] * blank.size
    for i, v in enumerate(solution):
        if rng.random() < fixed:
            masks[i] = BIT[v] if v in DIRECTIONS else EMPTY
    return masks
