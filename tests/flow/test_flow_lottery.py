"""The routing lottery beside the strict stages (``sat._Lottery``): corridor 1 round further
randomised routings while no answer is known.

Answers go to the independent checker; counts with the lottery in the search are compared with
brute force, so an answer it gives is neither lost nor given twice.
"""

from __future__ import annotations

import random

import pytest
from flow_checker import brute_force_count, verify_edge_answer

from solvers.flow import sat
from solvers.flow.graph import FlowGraph, grid_graph
from solvers.flow.random_path import random_path_board
from solvers.flow.sat import SatStats


def _graph(size: int, seed: int, fewer: int = 0) -> tuple[list[str], FlowGraph]:
    pieces = random.Random(seed).randint(size, size * 3 // 2) - fewer
    puzzle = random_path_board(size, size, pieces, seed=seed).puzzle
    return puzzle.row_strings(), grid_graph(puzzle)


def _lottery_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # Corridor 1 round the plain routing first (empty on these boards), no restarts, one-conflict
    # slices, no annealing, and a lottery that may spend a great deal per conflict of the stage.
    monkeypatch.setattr(sat, "FIRST_TRIES", ((1, 10**9),))
    monkeypatch.setattr(sat, "RESTARTS", 0)
    monkeypatch.setattr(sat, "FIRST_SLICE", 1)
    monkeypatch.setattr(sat, "SLICE_CONFLICTS", 1)
    monkeypatch.setattr(sat, "ANNEAL_PER_CONFLICT", 0)
    monkeypatch.setattr(sat, "LOTTERY_SHARE", 1e6)


# Boards whose corridor 1 round the plain routing is empty while some randomised routing's holds
# an answer, and whose later stages give none at once (found by trying seeds).
@pytest.mark.parametrize(("size", "seed"), [(6, 72), (6, 101), (7, 92), (7, 228)])
def test_counts_stay_exact_when_the_lottery_gives_the_first_answer(
    monkeypatch: pytest.MonkeyPatch, size: int, seed: int
) -> None:
    _lottery_first(monkeypatch)
    rows, graph = _graph(size, seed, 1)
    expected = brute_force_count(rows, cap=5_000)
    stats = SatStats()
    got = [s for s in sat._staged_steps(graph, "strict", None, stats) if s is not None]
    assert stats.lottery == 1 and stats.tickets >= 1
    assert len(got) == expected and len({s.used.tobytes() for s in got}) == expected
    for solution in got:
        verify_edge_answer(rows, graph.cells, graph.colours, solution.paths)


def test_a_lottery_answer_is_an_answer_and_the_same_in_every_run() -> None:
    rows, graph = _graph(14, 7)
    answers = []
    for _ in range(2):
        stats = SatStats()
        lottery = sat._Lottery(graph, None, stats)
        try:
            answer = None
            for _ in range(200):
                answer = lottery.turn(10**6)
                if answer is not None:
                    break
        finally:
            lottery.close()
        assert answer is not None and stats.lottery == 1
        verify_edge_answer(rows, graph.cells, graph.colours, answer.paths)
        answers.append((answer.used.tobytes(), stats.tickets))
    assert answers[0] == answers[1]


def test_a_lottery_that_is_off_or_spent_draws_no_ticket(monkeypatch: pytest.MonkeyPatch) -> None:
    _, graph = _graph(8, 3)
    stats = SatStats()
    lottery = sat._Lottery(graph, None, stats)
    lottery.on = False
    assert lottery.turn(10**6) is None and stats.tickets == 0
    # A board without an answer pays at most LOTTERY_CONFLICTS (and LOTTERY_TICKETS) for it: the
    # first ticket's set-up alone is over one conflict, so no second ticket is drawn.
    monkeypatch.setattr(sat, "LOTTERY_CONFLICTS", 1)
    lottery = sat._Lottery(graph, None, stats)
    lottery.turn(10**6)
    lottery.close()
    assert stats.tickets == 1
    assert lottery.turn(10**6) is None and stats.tickets == 1
    monkeypatch.setattr(sat, "LOTTERY_CONFLICTS", 10**12)
    monkeypatch.setattr(sat, "LOTTERY_TICKETS", 3)
    rows, graph = _graph(6, 30, 1)  # corridor 1 is empty round every routing tried here
    stats = SatStats()
    lottery = sat._Lottery(graph, None, stats)
    for _ in range(10):
        assert lottery.turn(10**6) is None
    lottery.close()
    assert stats.tickets == 3


def test_the_game_rules_search_stops_its_lottery_once_another_search_answered() -> None:
    # Through the public entry point, with the canonical proof: the first answer comes from the
    # game rules' own search or the designed peek; afterwards no ticket is drawn.
    rows, graph = _graph(10, 5)
    stats = SatStats()
    got = []
    for step in sat.steps(graph, "strict", None, stats):
        if step is not None:
            got.append(step)
            if len(got) == 1:
                tickets = stats.tickets
            if len(got) == 2:
                break
    assert got and stats.tickets == tickets
    for solution in got:
        verify_edge_answer(rows, graph.cells, graph.colours, solution.paths)
