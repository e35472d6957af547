"""Step-by-step explainer: every corpus puzzle finishes, every step is sound, hints, JSON shape."""

from __future__ import annotations

import json

import pytest
from toichika_corpus import load_corpus

from solvers.toichika import PLUGIN
from solvers.toichika.candidates import BIT, EMPTY
from solvers.toichika.explain import explain, explain_json, hint, masks_to_arrows
from solvers.toichika.model import DIRECTIONS, DOT, LEFT, RIGHT, Toichika
from solvers.toichika.sat_solver import iter_solutions
from solvers.toichika.techniques import BY_ID, TECHNIQUES


def _bit(value: int) -> int:
    return EMPTY if value == 0 else BIT[value]


def test_every_corpus_puzzle_is_explained_soundly(shared_reference) -> None:
    trials = {}
    rules: dict[str, set[str]] = {}
    for item in load_corpus(shared_reference):
        puzzle = item.puzzle
        ex = explain(puzzle)
        assert ex.solved and not ex.error, item.name
        assert masks_to_arrows(ex.final) == item.answer, item.name
        for step in ex.steps:
            assert step.applied, (item.name, step.rule)
            for i, removed in step.applied.items():
                # a deduction never removes the value the unique solution has
                assert not removed & _bit(item.answer[i]), (item.name, step.rule, step.text)
        trials[item.name] = ex.trials
        rules[item.name] = {s.rule for s in ex.steps}
    assert len(trials) == 35
    assert all(t == 0 for t in trials.values()), trials  # the target: no trial at all
    # synthetic #29 (20x20) is the one that needs the long arrow and the local case analysis
    hardest = [name for name, used in rules.items() if "local-cases" in used]
    assert len(hardest) == 1 and "long-arrow" in rules[hardest[0]]


def test_grade_names_the_hardest_technique_and_its_uses(shared_reference) -> None:
    item = load_corpus(shared_reference)[28]
    ex = explain(item.puzzle)
    assert ex.grade() == "diabolical" and ex.hardest_uses() == {"local-cases": 1}
    assert ex.grade_text() == "diabolical (the hardest technique used is local case analysis, once)"
    out = explain_json(item.puzzle)
    assert out["grade"] == "diabolical" and out["grade_uses"] == {"local-cases": 1}


@pytest.mark.parametrize(
    "labels",
    [[[0, 3, 1, 0], [3, 3, 1, 0]], [[0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5]]],
)
def test_steps_on_non_unique_puzzles_keep_every_solution(labels) -> None:
    puzzle = Toichika.from_labels(labels)
    solutions = list(iter_solutions(puzzle, limit=0))
    assert len(solutions) >= 2
    ex = explain(puzzle)
    assert not ex.solved and not ex.error
    for step in ex.steps:
        for i, removed in step.applied.items():
            assert all(not removed & _bit(sol[i]) for sol in solutions), step.text
    # what is left still contains every solution
    for sol in solutions:
        assert all(ex.final[i] & _bit(sol[i]) for i in range(puzzle.size))


def test_techniques_have_english_and_japanese_names() -> None:
    ids = [t.id for t in TECHNIQUES]
    for needed in (
        "adjacency-ban",
        "partner-search",
        "isolation-ban",
        "leftover-cell",
        "corridor",
        "facing-pair",
    ):
        assert needed in ids
    assert all(t.name and t.name_ja for t in BY_ID.values())
    assert [t.level for t in TECHNIQUES] == sorted(t.level for t in TECHNIQUES)  # cheapest first


def test_explain_json_shape_and_cli(shared_reference, capsys) -> None:
    item = load_corpus(shared_reference)[0]
    out = explain_json(item.puzzle)
    assert set(out) >= {"solved", "steps", "grade", "trials", "grid"}
    assert out["solved"] is True and out["grade"] in (
        "easy",
        "medium",
        "hard",
        "very hard",
        "expert",
        "extreme",
    )
    assert out["grid"] == [s for s in PLUGIN.solve(item.puzzle, limit=1)][0].grid
    for step in out["steps"]:
        assert set(step) >= {"rule", "cells", "conclusions", "text"}
        assert all(len(rc) == 2 for rc in step["cells"])
    json.dumps(out)
    again = PLUGIN.explain(item.puzzle)
    assert {k: v for k, v in again.items() if k != "seconds"} == {
        k: v for k, v in out.items() if k != "seconds"
    }


def test_hint_follows_the_player_and_flags_wrong_entries(shared_reference) -> None:
    item = load_corpus(shared_reference)[0]  # 4x4: > . . < / . v . . / > . . < / . ^ . .
    puzzle = item.puzzle
    first = hint(puzzle, None)
    assert first["kind"] == "step" and first["conclusions"]
    assert first["rule"] == explain_json(puzzle)["steps"][0]["rule"]
    wrong = list(PLUGIN.empty_entries(puzzle))
    wrong[puzzle.index(0, 3)] = RIGHT
    result = hint(puzzle, tuple(wrong))
    assert result["kind"] == "wrong-entry" and result["cells"] == [[0, 3]]
    dot = list(PLUGIN.empty_entries(puzzle))
    dot[puzzle.index(1, 1)] = DOT
    assert hint(puzzle, tuple(dot))["cells"] == [[1, 1]]
    good = list(PLUGIN.empty_entries(puzzle))
    good[puzzle.index(0, 3)] = LEFT
    step = hint(puzzle, tuple(good))
    assert step["kind"] == "step"
    # the player's correct arrow is respected: no conclusion is about that cell
    assert [0, 3] not in [c["cell"] for c in step["conclusions"]]
    assert hint(puzzle, item.answer)["kind"] == "solved"


def _random_board(data, rows: int, cols: int) -> Toichika:
    """Random countries grown from seeds, plus a few random givens (any arrow or '?')."""
    from hypothesis import strategies as st

    labels = [[-1] * cols for _ in range(rows)]
    order = data.draw(st.permutations([(r, c) for r in range(rows) for c in range(cols)]))
    count = 0
    for r, c in order:
        if labels[r][c] >= 0:
            continue
        labels[r][c] = count
        frontier = [(r, c)]
        size = data.draw(st.integers(1, 4))
        while frontier and sum(row.count(count) for row in labels) < size:
            fr, fc = frontier.pop()
            for nr, nc in ((fr + 1, fc), (fr, fc + 1), (fr - 1, fc), (fr, fc - 1)):
                if 0 <= nr < rows and 0 <= nc < cols and labels[nr][nc] < 0:
                    labels[nr][nc] = count
                    frontier.append((nr, nc))
                    break
        count += 1
    givens = data.draw(
        st.lists(st.sampled_from([0] * 12 + [1, 2, 3, 4, 5]), min_size=rows * cols, max_size=rows * cols)
    )
    return Toichika.from_labels(labels, [givens[r * cols : (r + 1) * cols] for r in range(rows)])


def _check_random_boards(examples: int, largest: int) -> None:
    """Property test against the exact solver: no step removes a candidate some solution uses."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(2, largest), st.integers(2, largest), st.data())
    def run(rows: int, cols: int, data) -> None:
        puzzle = _random_board(data, rows, cols)
        solutions = list(iter_solutions(puzzle, limit=40))
        ex = explain(puzzle)
        if not solutions:
            return  # no solution: any conclusion is vacuously sound (the explainer may report a contradiction)
        assert not ex.error, ex.error
        for step in ex.steps:
            for i, removed in step.applied.items():
                assert all(not removed & _bit(sol[i]) for sol in solutions), step.text
        if len(solutions) == 1:
            assert ex.solved and masks_to_arrows(ex.final) == solutions[0]

    run()


def test_random_boards_every_step_keeps_every_solution() -> None:
    _check_random_boards(120, 5)


@pytest.mark.slow
def test_random_boards_every_step_keeps_every_solution_exhaustive() -> None:
    _check_random_boards(2000, 8)


# Unique 8x8 puzzles made by our own random generator (minimal givens); between them they need
# room pairing, reservation, corridor, facing pairs and trials.
GENERATED = [
    "https://puzz.link/p?toichika/8/8/lvvnjduaird0d2pmpuvf1dr0649293j2z6",
    "https://puzz.link/p?toichika/8/8/9daapfbkvisgc3vndj1hfp7054c2l2z516",
    "https://puzz.link/p?toichika/8/8/l2mthlqr6j5gqkefnnl77t6062o3c492g4c37",
    "https://puzz.link/p?toichika/8/8/hqeb76vnit70v0uunlgbft00a2292l1i354d1735",
    # generated "expert" before issue 31 (needed a trial); now a short case analysis does it
    "https://puzz.link/p?toichika/7/7/55invvnr8uvvl2l8dgv151i4536",
    "https://puzz.link/p?toichika/6/6/brulkae3udsv7483v",  # issue 31 tuning seed 101: partner cases
]


def test_every_technique_is_used_and_sound(shared_reference) -> None:
    from solvers.toichika.url_codec import decode_url

    puzzles = [item.puzzle for item in load_corpus(shared_reference)] + [decode_url(u) for u in GENERATED]
    used: set[str] = set()
    for puzzle in puzzles:
        solutions = list(iter_solutions(puzzle, limit=2))
        assert len(solutions) == 1
        ex = explain(puzzle)
        assert ex.solved and masks_to_arrows(ex.final) == solutions[0]
        for step in ex.steps:
            used.add(step.rule)
            assert all(not removed & _bit(solutions[0][i]) for i, removed in step.applied.items()), step.text
    assert used >= {t.id for t in TECHNIQUES} | {"case-chain"}


def test_a_trial_still_ends_what_no_short_chain_settles(monkeypatch) -> None:
    """Without the short case analysis (no chain is short enough) the 7x7 board needs a trial, and
    the trial removes only what no solution has."""
    from solvers.toichika import chains
    from solvers.toichika.url_codec import decode_url

    monkeypatch.setattr(chains, "CHAIN_DEPTH", 1)
    puzzle = decode_url(GENERATED[4])
    (solution,) = iter_solutions(puzzle, limit=2)
    ex = explain(puzzle)
    assert ex.solved and ex.trials >= 1 and ex.grade() == "expert"
    assert "case-chain" not in {s.rule for s in ex.steps}
    for step in ex.steps:
        assert all(not removed & _bit(solution[i]) for i, removed in step.applied.items()), step.text


def test_deep_trial_removes_only_impossible_candidates(shared_reference) -> None:
    from solvers.toichika.candidates import Board, State
    from solvers.toichika.explain import Witnesses, _deep_trial_step, _refutable

    item = load_corpus(shared_reference)[6]  # 15x15, needs trials
    puzzle = item.puzzle
    state = State(Board(puzzle), Board(puzzle).initial_masks())
    witnesses = Witnesses(puzzle, None)
    try:
        witnesses.refresh(state.masks)
        targets = _refutable(state, witnesses)
    finally:
        witnesses.close()
    assert targets and all(not bit & _bit(item.answer[i]) for i, bit in targets)
    step = _deep_trial_step(state, targets[0])
    assert step.rule == "deep-trial" and step.removals == {targets[0][0]: targets[0][1]}


def _blocks(rows: int, cols: int) -> Toichika:
    """rows x cols board of 2x2 countries (the 100x80 case used to outlive Esc by 20 s)."""
    per_row = (cols + 1) // 2
    return Toichika.from_labels([[(r // 2) * per_row + c // 2 for c in range(cols)] for r in range(rows)])


def test_board_rays_match_the_model() -> None:
    from solvers.toichika.candidates import Board

    p = _blocks(5, 7)
    board = Board(p)
    assert all(list(board.rays[i][d]) == p.ray(i, d) for i in range(p.size) for d in DIRECTIONS)


@pytest.mark.parametrize("delay", [0.1, 2.5])
def test_cancel_during_explanation_of_a_100x80_board_returns_promptly(delay: float) -> None:
    import threading
    import time

    from solvers.common.cancel import Cancelled, CancelToken

    token = CancelToken()
    timer = threading.Timer(delay, token.cancel)
    timer.start()
    t0 = time.process_time()  # CPU time (at most ``delay`` of it before the cancel): load-proof
    with pytest.raises(Cancelled):
        explain(_blocks(100, 80), token)  # a full explanation takes minutes
    late = time.process_time() - t0 - delay
    timer.cancel()
    assert late < 5.0, f"explain returned {late:.1f} s after cancel"  # it was 20-40 s before polling


def test_several_hardest_techniques_read_as_one_list() -> None:
    """QA pass 7: "the hardest techniques used are adjacency ban, 103 times and one arrow per
    country, 28 times and isolation ban, 21 times and ..." ran on; now one list, most used first."""
    from solvers.toichika.generate import generate

    ex = explain(generate(8, 8, "easy", seed=3).puzzle)
    text = ex.grade_text()
    assert text.startswith("easy (the hardest techniques used, all of one level: ") and text.endswith(")")
    listed = text.split(": ", 1)[1][:-1]
    assert listed.count(" and ") == 1 and ", " in listed
    counts = [
        int(part.rsplit(" ", 2)[-2]) for part in listed.replace(" and ", ", ").split(", ") if "times" in part
    ]
    assert counts == sorted(counts, reverse=True) and len(counts) >= 2
