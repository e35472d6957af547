"""Every technique is sound: each removal it makes is checked with the exact SAT solver, on corpus
states, on random boards (with one or many solutions) and on generated puzzles."""

from __future__ import annotations

import random

import pytest
from toichika_corpus import load_corpus
from toichika_soundness import check_sweeps, random_board, random_state

from solvers.toichika.candidates import Board
from solvers.toichika.explain import explain, masks_to_arrows
from solvers.toichika.generate import generate
from solvers.toichika.model import Toichika
from solvers.toichika.sat_solver import iter_solutions
from solvers.toichika.techniques import BY_ID, local_cases, long_arrow, partner_cases


def test_new_techniques_sound_on_corpus_states(shared_reference) -> None:
    tally: dict[str, int] = {}
    corpus = load_corpus(shared_reference)
    for item in corpus[:11]:  # the real puzzles, from their givens
        check_sweeps(item.puzzle, Board(item.puzzle).initial_masks(), (BY_ID["long-arrow"],), tally)
    p = corpus[28].puzzle  # synthetic #29: the states where the group techniques were needed
    ex = explain(p)
    for k, step in enumerate(ex.steps):
        if BY_ID[step.rule].level >= 5:
            check_sweeps(p, ex.states[k], (BY_ID["long-arrow"], BY_ID["local-cases"]), tally)
    assert tally.get("long-arrow", 0) > 0 and tally.get("local-cases", 0) > 0, tally


@pytest.mark.parametrize("seed", range(6))
def test_every_technique_sound_on_random_boards(seed: int) -> None:
    rng = random.Random(seed)
    got = None
    while got is None:  # a few divisions have no solution at all
        got = random_board(rng.randrange(10**6), rng.randint(5, 9), rng.randint(5, 9))
    blank, solution = got
    tally: dict[str, int] = {}
    for k, share in enumerate((0.0, 0.2, 0.4)):
        # 0.0: the bare division (many solutions); more fixed cells: fewer solutions
        check_sweeps(blank, random_state(blank, solution, seed * 10 + k, share), tally=tally)
    assert sum(tally.values()) > 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 80))
def test_every_technique_sound_on_many_random_boards(seed: int) -> None:
    test_every_technique_sound_on_random_boards(seed)


@pytest.mark.parametrize(("grade", "seed"), [("fiendish", 2), ("diabolical", 3)])
def test_generated_puzzles_need_the_new_techniques_soundly(grade: str, seed: int) -> None:
    made = generate(7, 7, grade, seed=seed)
    assert list(iter_solutions(made.puzzle, limit=2)) == [made.solution]  # unique
    ex = explain(made.puzzle)
    assert ex.grade() == grade == made.grade and ex.trials == 0
    assert masks_to_arrows(ex.final) == made.solution
    rule = "long-arrow" if grade == "fiendish" else "local-cases"
    assert rule in ex.hardest_uses()
    tally: dict[str, int] = {}
    check_sweeps(made.puzzle, Board(made.puzzle).initial_masks(), tally=tally)
    assert tally.get(rule, 0) > 0


def test_group_search_is_bounded_on_an_open_board() -> None:
    """A 30x30 board of 2x2 countries and no givens: nothing narrows the groups' placements."""
    import time

    from solvers.toichika.candidates import State
    from solvers.toichika.explain import propagate

    blank = Toichika.from_labels([[(r // 2) * 15 + c // 2 for c in range(30)] for r in range(28)])
    board = Board(blank)
    state = State(board, board.initial_masks())
    propagate(state)
    t0 = time.process_time()  # CPU time: the budget's cost, not the machine's load
    for tech in (long_arrow, local_cases, partner_cases):
        for _ in tech(state):
            pass
    assert time.process_time() - t0 < 10  # a fixed node budget per sweep (about 1 s here)
