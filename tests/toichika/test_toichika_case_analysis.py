"""Issue 31: partner cases (level 7) and the short case analysis (level 8) replace trials on boards
the generator built to need one; both are sound (checked with the exact solver) and shown with
their cells; the case analysis reads as "if ..., then ...; a contradiction" with its depth."""

from __future__ import annotations

import re

import pytest
from toichika_soundness import check_sweeps, restrictions

from solvers.toichika.candidates import BIT, EMPTY, Board, State
from solvers.toichika.chains import CHAIN_DEPTH, chain_step
from solvers.toichika.explain import CODES, explain, masks_to_arrows
from solvers.toichika.sat_solver import Probe, iter_solutions
from solvers.toichika.techniques import BY_ID
from solvers.toichika.url_codec import decode_url

# Tuning set of issue 31 (benchmarks/toichika_tuning.txt): generated "expert" before issue 31,
# i.e. the explainer needed a trial on each of them.
PARTNER_CASES = "https://puzz.link/p?toichika/6/6/brulkae3udsv7483v"  # seed 101
CASE_CHAIN = "https://puzz.link/p?toichika/6/6/mlvbusd5t3m7h1j3a"  # seed 103


def _state_before(url: str, rule: str) -> tuple[State, object]:
    puzzle = decode_url(url)
    ex = explain(puzzle)
    k = next(k for k, s in enumerate(ex.steps) if s.rule == rule)
    return State(Board(puzzle), list(ex.states[k])), ex.steps[k]


@pytest.mark.parametrize(
    ("url", "grade", "rule"),
    [(PARTNER_CASES, "ferocious", "partner-cases"), (CASE_CHAIN, "master", "case-chain")],
)
def test_boards_built_to_need_a_trial_are_explained_without_one(url: str, grade: str, rule: str) -> None:
    puzzle = decode_url(url)
    solutions = list(iter_solutions(puzzle, limit=2))
    assert len(solutions) == 1
    ex = explain(puzzle)
    assert ex.solved and ex.trials == 0 and masks_to_arrows(ex.final) == solutions[0]
    assert ex.grade() == grade and rule in ex.hardest_uses()
    assert BY_ID[rule].level == max(BY_ID[s.rule].level for s in ex.steps)


def test_partner_cases_is_sound_where_it_is_needed() -> None:
    state, step = _state_before(PARTNER_CASES, "partner-cases")
    tally: dict[str, int] = {}
    check_sweeps(state.board.p, state.masks, (BY_ID["partner-cases"],), tally)
    assert tally.get("partner-cases", 0) > 0
    assert step.cells and "R3C3" in step.text  # the country of R3C3 pairs down or is blocked


def _undecided(state: State) -> list[tuple[int, int]]:
    return [(i, bit) for i, m in enumerate(state.masks) if m & (m - 1) for _, bit in CODES if m & bit]


def test_case_chain_reads_as_an_argument_and_is_sound() -> None:
    state, step = _state_before(CASE_CHAIN, "case-chain")
    m = re.fullmatch(
        r"Case analysis, depth (\d+): if (R\d+C\d+) (points \w+|is empty), then (.*): a contradiction\. "
        r"So it is not the case that \2 \3\.",
        step.text,
    )
    assert m, step.text
    assert 2 <= int(m.group(1)) <= CHAIN_DEPTH
    assert int(m.group(1)) == m.group(4).count(";") + 1  # one clause per step, then the contradiction
    ((i, bit),) = step.removals.items()
    assert step.cells[0] == i and len(step.cells) > 1
    probe = Probe(state.board.p)
    try:
        code = next(c for c, b in CODES if b == bit)
        assert probe.solution({**restrictions(state.masks), i: {code}}) is None  # really impossible
    finally:
        probe.close()


def test_case_chain_sound_from_any_candidate() -> None:
    """Offered every undecided candidate (not only those the exact solver refutes), the chain still
    refutes only impossible ones: on the stuck states of both tuning boards, candidate by candidate."""
    for url, rule in ((CASE_CHAIN, "case-chain"), (PARTNER_CASES, "partner-cases")):
        state, _ = _state_before(url, rule)
        probe = Probe(state.board.p)
        try:
            base = restrictions(state.masks)
            refuted = 0
            for i, bit in _undecided(state):
                step = chain_step(state, [(i, bit)])
                if step is None:
                    continue
                code = next(c for c, b in CODES if b == bit)
                assert probe.solution({**base, i: {code}}) is None, step.text
                refuted += 1
            assert refuted > 0
        finally:
            probe.close()


def test_case_chain_finds_nothing_when_every_candidate_is_possible() -> None:
    puzzle = decode_url(CASE_CHAIN)
    solution = list(iter_solutions(puzzle, limit=1))[0]
    state = State(Board(puzzle), Board(puzzle).initial_masks())
    used = [(i, EMPTY if v == 0 else BIT[v]) for i, v in enumerate(solution)]
    assert chain_step(state, used) is None


def test_grades_rise_with_the_new_levels() -> None:
    assert (
        BY_ID["local-cases"].level
        < BY_ID["partner-cases"].level
        < BY_ID["case-chain"].level
        < BY_ID["trial"].level
        < BY_ID["deep-trial"].level
    )
