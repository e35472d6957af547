"""The search behind every Flow solve (``solvers/flow/search.py``): SAT first, then the frontier sweep
on narrow plain boards under the game or Numberlink rules. Every answer is verified by the
independent checker; counts are compared with the pure SAT search and brute force."""

from __future__ import annotations

import time
from itertools import islice
from pathlib import Path

import numpy as np
import pytest
from flow_checker import brute_force_count, verify

from solvers.common.cancel import CancelToken
from solvers.flow import codec, sat, search
from solvers.flow.frontier import FrontierResult, count_racing
from solvers.flow.graph import grid_graph
from solvers.flow.handmade import handmade_board
from solvers.flow.plugin import PLUGIN
from solvers.flow.random_path import random_path_board
from solvers.flow.sat import SatStats, solutions

B12 = (Path(__file__).parent / "data" / "issue28_12x12.txt").read_text().split()  # issue 28's 12x12


def _answers(rows: list[str], rules: str, limit: int = 2) -> tuple[list, dict]:
    puzzle = codec.parse("\n".join(rows) + "\n")
    info: dict[str, object] = {}
    found = list(PLUGIN.solve(puzzle, limit=limit, rules=rules, info=info, cancel=CancelToken(timeout=300)))
    for solution in found:
        verify(
            puzzle.row_strings(), solution.grid, solution.extras["paths"], numberlink=rules == "numberlink"
        )
        assert PLUGIN.check_solution(puzzle, solution).complete
    return found, info


def test_the_issue_12x12_is_unique_under_the_game_rules() -> None:
    started = time.process_time()
    found, info = _answers(B12, "strict")
    assert len(found) == 1 and info["verdict"] == "unique (game rules)"
    designed, _ = _answers(B12, "designed")
    assert found[0].grid == designed[0].grid  # the published answer, the only one
    assert time.process_time() - started < 60  # CPU bound with a wide margin (idle: ~3.5 s)


@pytest.mark.slow
def test_the_issue_12x12_is_unique_under_numberlink_rules() -> None:
    # The solve decides by canonical answers (test_flow_canonical.py); the sweep, counting every
    # answer another way, must agree.
    found, info = _answers(B12, "numberlink")
    assert len(found) == 1 and info["verdict"] == "unique (Numberlink rules)"
    swept = count_racing(grid_graph(codec.parse("\n".join(B12) + "\n")), "numberlink", limit=2)
    assert swept is not None and swept.complete and swept.count == 1


def _idle_first(*args: object):  # noqa: ANN202 - the SAT search, after one idle slice
    yield None
    yield from sat.steps(*args)  # type: ignore[arg-type]


def _boards() -> list[list[str]]:
    boards = [handmade_board(w, h, seed).puzzle.row_strings() for w, h, seed in ((6, 6, 0), (7, 6, 1))]
    boards += [random_path_board(5, 6, 5, seed=seed).puzzle.row_strings() for seed in range(6)]
    boards.append(["A..B", "....", "B..A", "...."])  # no solution under either rule set
    return boards


@pytest.mark.parametrize("rules", ["strict", "numberlink"])
def test_the_sweep_gives_the_same_answers_as_sat(monkeypatch: pytest.MonkeyPatch, rules: str) -> None:
    # The SAT search idles once at the start, so the sweep runs first; Find All must still give
    # every solution exactly once (the sweep's answers first, then SAT's, skipping the ones given).
    monkeypatch.setattr(search, "HEAD", -1.0)
    monkeypatch.setattr(search, "sat_steps", _idle_first)
    swept_boards: list[int] = []
    real_count = search.count_racing
    monkeypatch.setattr(search, "count_racing", lambda *a, **k: swept_boards.append(1) or real_count(*a, **k))
    compared = 0
    for rows in _boards():
        graph = grid_graph(codec.parse("\n".join(rows) + "\n"))
        plain = list(islice((s.used.tobytes() for s in solutions(graph, rules)), 300))
        if len(plain) == 300:
            continue  # too many to enumerate twice here
        swept = [s.used.tobytes() for s in search.steps(graph, rules) if s is not None]
        assert len(set(swept)) == len(swept) and set(swept) == set(plain), rows
        if len(rows) * len(rows[0]) <= 30:
            assert len(plain) == brute_force_count(rows, numberlink=rules == "numberlink", cap=10_000), rows
        compared += 1
    assert compared >= 5 and len(swept_boards) == compared


def _stalled(*_args: object, **_kwargs: object):  # noqa: ANN202 - a SAT search that never answers
    for _ in range(100_000):
        yield None
    raise AssertionError("the sweep should have ended the search")


@pytest.mark.parametrize(
    ("rows", "rules", "found", "verdict"),
    [
        (["ABC", "...", "ABC"], "strict", 1, "unique (game rules)"),
        (["A.B", "...", "A.B"], "strict", 0, "no solution under the game rules"),
        (["A.B", ".C.", "ACB"], "numberlink", 1, "unique (Numberlink rules)"),
        (["A...", ".B..", "..B.", "...A"], "numberlink", 2, "2+ solutions (Numberlink rules)"),
    ],
)
def test_the_sweep_gives_the_verdict_when_sat_stalls(
    monkeypatch: pytest.MonkeyPatch, rows: list[str], rules: str, found: int, verdict: str
) -> None:
    # Through the plug-in, with a SAT search that never answers: the verdict is the sweep's.
    monkeypatch.setattr(search, "sat_steps", _stalled)
    monkeypatch.setattr(search, "HEAD", -1.0)
    answers, info = _answers(rows, rules)
    assert len(answers) == found and info["verdict"] == verdict


def _result(count: int, used: list[np.ndarray]) -> FrontierResult:
    return FrontierResult(count, count < 2, used, width=3, transposed=False, peak_states=1)


def test_a_sweep_that_disagrees_or_breaks_the_rules_is_not_trusted() -> None:
    graph = grid_graph(codec.parse("A..\n...\n..A\n"))
    known = [s.used for s in solutions(graph, "strict")]
    assert len(known) == 2
    a, b = known
    assert search._trusted(graph, "strict", _result(2, [a, b]), set()) is not None
    # An exact count of 1 while SAT has proven another answer valid: the SAT search decides.
    assert search._trusted(graph, "strict", _result(1, [a]), {b.tobytes()}) is None
    assert search._trusted(graph, "strict", None, set()) is None
    # Answers twice over, a loop, or a pipe that leaves cells uncovered under the game rules.
    assert search._trusted(graph, "strict", _result(2, [a, a]), set()) is None
    short = np.zeros_like(a)
    edges = graph.edges.tolist()
    for u, v in ((0, 1), (1, 2), (2, 5), (5, 8)):
        short[edges.index([u, v])] = True
    assert search._trusted(graph, "strict", _result(1, [short]), set()) is None
    assert search._trusted(graph, "numberlink", _result(1, [short]), set()) is not None
    loop = np.zeros_like(a)
    for u, v in ((0, 1), (0, 3), (1, 4), (3, 4)):
        loop[edges.index([u, v])] = True
    assert search._trusted(graph, "numberlink", _result(1, [short | loop]), set()) is None


def test_wide_boards_and_other_rules_never_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []
    monkeypatch.setattr(search, "count_racing", lambda *a, **k: called.append("swept"))
    monkeypatch.setattr(search, "HEAD", -1.0)
    wide = grid_graph(random_path_board(search.WIDTH + 1, search.WIDTH + 1, 20, seed=1).puzzle)
    assert next(s for s in search.steps(wide, "strict", None, SatStats()) if s is not None)
    small = grid_graph(codec.parse("ABC\n...\nABC\n"))
    assert len([s for s in search.steps(small, "designed") if s is not None]) == 1
    assert called == []
