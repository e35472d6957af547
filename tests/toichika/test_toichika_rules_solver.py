"""Checker (pzprjs codes and order) and the exact solver on the whole corpus."""

from __future__ import annotations

import threading
import time

import pytest
from toichika_corpus import load_corpus

from solvers.common.cancel import Cancelled, CancelToken
from solvers.toichika import PLUGIN
from solvers.toichika.model import DOWN, LEFT, QUESTION, RIGHT, UP, Toichika
from solvers.toichika.pzprv3_codec import read_pzprv3
from solvers.toichika.rules import check
from solvers.toichika.sat_solver import iter_solutions, model_for

HEAD = "pzprv3/toichika/4/4/6/0 1 1 2 /3 1 2 2 /3 3 4 5 /3 4 4 4 /4 . . . /. . . . /. . . . /. . . . /"
# The fail-check boards of pzprjs' test script (answers only; same puzzle), with the expected code.
FAILCHECK = [
    ("bkNumGe2", ". . . . /2 . . . /. . . . /4 . . . /", {(1, 0), (2, 0), (2, 1), (3, 0)}),
    ("arAdjPair", ". + 3 . /. + . . /. . . . /. . . . /", {(0, 0), (0, 1), (0, 2), (1, 1)}),
    ("arAlone", ". + + 3 /. 2 + + /. . . . /. . . . /", {(1, 1)}),
    ("bkNoNum", ". + + 3 /. 2 + + /. + . . /. 1 . . /", {(1, 0), (2, 0), (2, 1), (3, 0)}),
    (None, ". + + 3 /+ 2 + + /4 + + 3 /+ 1 + + /", set()),
]


@pytest.mark.parametrize(("code", "answers", "cells"), FAILCHECK, ids=[str(f[0]) for f in FAILCHECK])
def test_pzprjs_failcheck_boards_give_their_codes(code, answers, cells) -> None:
    puzzle, entries = read_pzprv3((HEAD + answers).replace("/", "\n"))
    result = check(puzzle, entries)
    if code is None:
        assert result.ok and result.complete
        return
    assert not result.ok
    first = result.violations[0]
    assert first.code == code
    assert set(first.cells) == cells


def test_question_mark_counts_as_arrow_but_never_pairs() -> None:
    puzzle = Toichika.empty(1, 4).with_wall("v", 0, 0, True).with_wall("v", 0, 2, True)
    puzzle = puzzle.with_wall("v", 0, 1, True)  # four 1-cell countries
    puzzle = puzzle.with_given(0, 0, QUESTION)
    entries = (0, 0, LEFT, 0)
    codes = [v.code for v in check(puzzle, entries).violations]
    assert codes[0] == "arAlone" and "bkNoNum" in codes
    # with a direction entered on the '?', it behaves as that arrow (our documented extension)
    result = check(puzzle, (RIGHT, 0, LEFT, 0))
    assert [v.code for v in result.violations] == ["bkNoNum", "bkNoNum"]


def test_corpus_solutions_are_unique_equal_and_accepted(shared_reference) -> None:
    for item in load_corpus(shared_reference):
        puzzle = item.puzzle
        solutions = list(PLUGIN.solve(puzzle, limit=2, cancel=CancelToken(timeout=60)))
        assert len(solutions) == 1, item.name
        assert solutions[0].data == item.answer, item.name
        assert PLUGIN.check_solution(puzzle, solutions[0]).ok, item.name
        assert check(puzzle, item.answer).ok
        assert PLUGIN.count(puzzle).status() == "unique"


def test_checker_rejects_every_single_change_of_a_solution(shared_reference) -> None:
    """Independent of the solver: flipping any one cell of a known answer breaks a rule."""
    item = load_corpus(shared_reference)[3]
    puzzle = item.puzzle
    for i in range(puzzle.size):
        if puzzle.givens[i]:
            continue
        for value in (0, UP, DOWN, LEFT, RIGHT):
            if value == item.answer[i]:
                continue
            changed = list(item.answer)
            changed[i] = value
            assert not check(puzzle, tuple(changed)).ok


def test_solution_grid_format_and_differing_cells() -> None:
    puzzle = Toichika.from_labels([[0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5]])  # six 1x2 columns
    solutions = list(PLUGIN.solve(puzzle, limit=0))
    for s in solutions:
        assert len(s.grid) == 2 and len(s.grid[0]) == 6 and set(s.grid[0]) <= set("^v<>.")
        assert PLUGIN.check_solution(puzzle, s).ok
    assert len(solutions) == 2
    diff = solutions[1].extras["differs_from_first"]
    assert diff and all(solutions[0].grid[r][c] != solutions[1].grid[r][c] for r, c in diff)
    assert PLUGIN.count(puzzle, limit=2).status() == "at least 2 solutions (stopped at the limit)"


def test_no_solution_and_model_cache() -> None:
    puzzle = Toichika.from_labels([[0, 1, 2]])  # three countries in a row: odd, no pairing possible
    assert PLUGIN.count(puzzle).status() == "no solution"
    even = Toichika.from_labels([[0, 1, 2, 3]])  # even, but neighbours cannot pair and 0-2 is blocked
    assert PLUGIN.count(even).status() == "no solution"
    a = Toichika.from_labels([[0, 0, 1, 1], [2, 2, 3, 3]])
    assert model_for(a) is model_for(a.with_given(0, 0, RIGHT))  # givens are assumptions


def test_exhaustive_count_matches_brute_force() -> None:
    """The SAT count equals an enumeration of one arrow per country filtered by the checker."""
    import itertools

    puzzle = Toichika.from_labels([[0, 3, 1, 0], [3, 3, 1, 0]])
    choices = [[(i, d) for i in cells for d in (UP, DOWN, LEFT, RIGHT)] for cells in puzzle.regions]
    brute = 0
    for pick in itertools.product(*choices):
        entries = [0] * puzzle.size
        for i, d in pick:
            entries[i] = d
        brute += check(puzzle, tuple(entries)).ok
    assert brute == PLUGIN.count(puzzle, limit=0).count == 2


def test_cancel_interrupts_a_long_enumeration() -> None:
    # 2x2 countries on 30x30 (one split in two for an even count): far too many solutions to list
    labels = [[(r // 2) * 15 + c // 2 for c in range(30)] for r in range(30)]
    labels[0][0] = labels[0][1] = 999
    puzzle = Toichika.from_labels(labels)
    token = CancelToken()
    threading.Timer(0.3, token.cancel).start()
    start = time.process_time()  # CPU time: the search stopped, however busy the machine
    with pytest.raises(Cancelled):
        for _ in iter_solutions(puzzle, limit=0, cancel=token):
            pass
    assert time.process_time() - start < 3.0
