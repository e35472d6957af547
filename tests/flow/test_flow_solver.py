"""Solver behaviour: exact counts against brute force, rule sets and fallback, limits, cancel."""

from __future__ import annotations

import random
import threading
import time

import pytest
from flow_checker import brute_force_count, verify

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.flow import PLUGIN, FlowPuzzle
from solvers.flow.solve import solve


def _random_board(rng: random.Random, rows: int, cols: int, colours: int) -> list[str]:
    cells = ["."] * (rows * cols)
    spots = rng.sample(range(rows * cols), 2 * colours)
    for k in range(colours):
        cells[spots[2 * k]] = cells[spots[2 * k + 1]] = "RBYGOC"[k]
    return ["".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)]


def _all(rows: list[str], rules: str) -> list:
    return list(solve(FlowPuzzle.from_rows(rows), limit=0, rules=rules, cancel=CancelToken(timeout=60)))


def test_counts_match_brute_force_on_small_boards() -> None:
    rng = random.Random(7)
    checked = solvable = 0
    while checked < 60:
        rows, cols = rng.choice([(3, 3), (3, 4), (4, 4), (4, 3), (2, 5), (4, 5)])
        board = _random_board(rng, rows, cols, rng.randint(1, 3))
        for rules in ("strict", "designed"):
            solutions = _all(board, rules)
            assert len(solutions) == brute_force_count(board, designed=rules == "designed"), (board, rules)
            grids = {(tuple(s.grid), str(s.extras["paths"])) for s in solutions}
            assert len(grids) == len(solutions), "solutions are distinct"
            for s in solutions:
                verify(board, s.grid, s.extras["paths"], designed=rules == "designed")
                assert s.extras["rules"] == rules
        checked += 1
        solvable += bool(brute_force_count(board))
    assert solvable >= 5  # the sample really exercised solvable boards


def test_known_enumeration() -> None:
    # 2x3 with one colour on the left column: the only route is the U-turn through the right
    # column, whose ends sit side by side, so designed rules forbid it.
    board = ["A..", "A.."]
    assert len(_all(board, "strict")) == 1
    assert _all(board, "designed") == []
    # An empty 3x3 with the pair in opposite corners: two routes in strict rules (the two
    # snakes); no path that never touches itself covers the 3x3 (the snakes run alongside).
    assert len(_all(["A..", "...", "..A"], "strict")) == 2
    assert len(_all(["A..", "...", "..A"], "designed")) == 0


def test_auto_falls_back_to_strict_and_says_so() -> None:
    puzzle = PLUGIN.parse("A..\nA..\n")
    info: dict[str, object] = {}
    solutions = list(PLUGIN.solve(puzzle, limit=2, info=info))
    assert info["rules"] == "strict" and len(solutions) == 1
    assert solutions[0].extras["rules"] == "strict"
    assert solutions[0].extras["paths"] == {"A": [[0, 0], [0, 1], [0, 2], [1, 2], [1, 1], [1, 0]]}
    assert solutions[0].grid == ["AAA", "AAA"]
    designed = PLUGIN.parse("R.R\nG.G\nB.B\n")
    info = {}
    assert len(list(PLUGIN.solve(designed, info=info))) == 1 and info["rules"] == "designed"


def test_limit_and_count() -> None:
    open_board = PLUGIN.parse("A....\n.....\n.....\n....A\n")  # many strict snakes
    assert len(list(PLUGIN.solve(open_board, limit=3, rules="strict"))) == 3
    assert PLUGIN.count(open_board, limit=2).status() == "at least 2 solutions (stopped at the limit)"
    assert PLUGIN.count(PLUGIN.parse("R.R\nG.G\nB.B\n")).status() == "unique"


def test_invalid_puzzle_is_an_input_error() -> None:
    incomplete = FlowPuzzle.from_rows(["A..", "..."])
    with pytest.raises(InputError, match="only one endpoint"):
        list(PLUGIN.solve(incomplete))
    with pytest.raises(InputError, match="nothing to solve"):  # no colours: no pair to join
        list(PLUGIN.solve(FlowPuzzle.empty(3, 3)))


def test_cancel_stops_promptly() -> None:
    # Enumerating every strict solution of an open 7x7 board (corner-to-corner Hamiltonian
    # paths) takes far longer than the test.
    puzzle = PLUGIN.parse("\n".join(["A......"] + ["......."] * 5 + ["......A"]))
    token = CancelToken()
    start = time.process_time()  # CPU time: the search stopped, however busy the machine
    found = 0
    with pytest.raises(Cancelled):
        for _ in PLUGIN.solve(puzzle, limit=0, cancel=token, rules="strict"):
            found += 1
            if found == 1:  # timed from the first solution: under load it can take any fixed delay
                threading.Timer(0.2, token.cancel).start()
    assert time.process_time() - start < 1.0
    assert found > 0


def test_progress_reports() -> None:
    seen: list[dict] = []
    list(PLUGIN.solve(PLUGIN.parse("R.R\nG.G\nB.B\n"), progress=seen.append))
    assert any(p.get("found") == 1 for p in seen)


def test_count_under_a_rule_set() -> None:
    u_turn = PLUGIN.parse("A..\nA..\n")
    assert PLUGIN.count_rules(u_turn, "designed").status() == "no solution"
    assert PLUGIN.count_rules(u_turn, "strict").status() == "unique"
    assert PLUGIN.count_rules(PLUGIN.parse("A..\n...\n..A\n"), "strict", limit=0).count == 2
