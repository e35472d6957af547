"""A second answer near a known one (``solvers/flow/near.py`` windows, ``sat.rival_near``): every
rival is a real answer (checked independently) that differs from the known one inside one window,
on boards a window covers the search finds a rival exactly when brute force counts two answers,
and the solver's verdicts use it: with every other search stalled, it alone says "2+"."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from itertools import islice

import numpy as np
import pytest
from flow_checker import brute_force_count, verify, verify_edge_answer
from stalled import stalled

from solvers.common.cancel import CancelToken
from solvers.flow import codec, sat, search
from solvers.flow.graph import FlowGraph, grid_graph
from solvers.flow.model import EMPTY, FlowPuzzle
from solvers.flow.near import WINDOW_SIDES, windows
from solvers.flow.plugin import PLUGIN
from solvers.flow.random_path import random_path_board
from solvers.flow.sat import EdgeSolution


def _board(rng: random.Random, rows: int, cols: int, pairs: int) -> list[str]:
    cells = [EMPTY] * (rows * cols)
    for k, spot in enumerate(rng.sample(range(rows * cols), 2 * pairs)):
        cells[spot] = "ABCDEFGH"[k // 2]
    return FlowPuzzle(rows, cols, tuple(cells)).row_strings()


def _graph(rows_text: list[str]) -> FlowGraph:
    return grid_graph(codec.parse("\n".join(rows_text) + "\n"))


@pytest.mark.parametrize(("rows", "cols"), [(1, 2), (3, 3), (4, 9), (13, 5), (20, 40), (35, 48)])
def test_the_windows_cover_every_edge(rows: int, cols: int) -> None:
    text = "\n".join("." * cols for _ in range(rows)) + "\n"
    graph = grid_graph(codec.parse("A" + text[1:-2] + "A\n" if rows * cols > 1 else text))
    masks = list(windows(graph))
    covered = np.zeros(graph.n_edges, dtype=bool)
    for mask in masks:
        covered |= mask
    assert covered.all()
    cells = np.asarray(graph.cells)
    spans = []  # the cells an edge of the window touches: the window and a border of one cell
    for mask in masks:
        ends = graph.edges[mask].ravel()
        spans.append(int(max(np.ptp(cells[ends, 0]), np.ptp(cells[ends, 1]))) + 1 if len(ends) else 0)
    assert spans[0] <= min(WINDOW_SIDES) + 2 and max(spans) <= max(WINDOW_SIDES) + 2
    if max(rows, cols) <= min(WINDOW_SIDES):
        assert len(masks) == 1 and masks[0].all()  # one window is the whole board


def _first(graph: FlowGraph, rules: str) -> EdgeSolution | None:
    return next(iter(sat.solutions(graph, rules)), None)


@pytest.mark.parametrize("rules", ["strict", "numberlink"])
def test_a_rival_is_found_exactly_when_there_is_one_on_boards_a_window_covers(rules: str) -> None:
    rng = random.Random(5)
    numberlink = rules == "numberlink"
    seen_two = seen_one = 0
    for _ in range(400):
        rows, cols = rng.randint(2, 5), rng.randint(2, 5)
        rows_text = _board(rng, rows, cols, rng.randint(1, min(3, rows * cols // 2)))
        graph = _graph(rows_text)
        known = _first(graph, rules)
        if known is None:
            continue
        count = brute_force_count(rows_text, cap=2, numberlink=numberlink)
        rivals = [r for r in sat.rival_near(graph, known, rules, None) if r is not None]
        assert len(rivals) == (1 if count >= 2 else 0), rows_text
        for rival in rivals:
            assert rival.used.tobytes() != known.used.tobytes()
            verify_edge_answer(rows_text, graph.cells, graph.colours, rival.paths, numberlink=numberlink)
        seen_two += count >= 2
        seen_one += count == 1
    assert seen_two >= 20 and seen_one >= 20


def test_a_rival_differs_from_the_known_answer_inside_one_window() -> None:
    # Larger boards than a window: what the rival changes lies within one window's span.
    found = 0
    for seed in range(25):
        rows_text = random_path_board(10, 10, 8, seed=seed).puzzle.row_strings()  # always solvable
        graph = _graph(rows_text)
        known = _first(graph, "strict")
        if known is None:
            continue
        for rival in sat.rival_near(graph, known, "strict", None):
            if rival is None:
                continue
            verify_edge_answer(rows_text, graph.cells, graph.colours, rival.paths)
            changed = graph.edges[rival.used != known.used].ravel()
            cells = np.asarray(graph.cells)[changed]
            assert max(np.ptp(cells[:, 0]), np.ptp(cells[:, 1])) <= max(WINDOW_SIDES) + 1
            found += 1
    assert found >= 10


# Its only designed answer has a game-rules rival (found by brute force among random 5x5 boards).
DESIGNED_UNIQUE_WITH_A_RIVAL = [".....", ".....", "..BA.", ".....", "B...A"]


@pytest.mark.parametrize("rules", ["strict", "numberlink"])
def test_with_every_other_search_stalled_the_windows_say_two(
    monkeypatch: pytest.MonkeyPatch, rules: str
) -> None:
    # The published 20x20s' canonical proofs run for a minute, and the game rules' own search finds
    # nothing on the generated 40x20 spirals in 300 s; here both never end. The windows take equal
    # time with the proof, so "2+" must come from them.
    monkeypatch.setattr(sat, "_canonical_search", stalled)
    monkeypatch.setattr(sat, "_staged_steps", stalled)
    monkeypatch.setattr(sat, "PEEK_AFTER", -1.0)  # the first answer from the designed search
    monkeypatch.setattr(search, "WIDTH", 0)  # nor the frontier sweep
    rows_text = DESIGNED_UNIQUE_WITH_A_RIVAL
    assert (
        brute_force_count(rows_text, designed=True, cap=2) == 1 and brute_force_count(rows_text, cap=2) == 2
    )
    puzzle = codec.parse(
        ("rules: numberlink\n" if rules == "numberlink" else "") + "\n".join(rows_text) + "\n"
    )
    info: dict[str, object] = {}
    found = list(
        PLUGIN.solve(puzzle, limit=2, rules=rules, info=info, cancel=CancelToken(60))
    )  # not for ever
    assert len(found) == 2
    assert info["verdict"] == (
        "2+ solutions under the game rules" if rules == "strict" else "2+ solutions (Numberlink rules)"
    )
    for solution in found:
        verify(rows_text, solution.grid, solution.extras["paths"], numberlink=rules == "numberlink")


def _burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_the_windows_run_alone_first_then_share_the_time() -> None:
    # Setting the canonical model up takes seconds on a 50x50, in its first step; the windows go
    # first for the head start, then step while they have had no more time than the proof.
    def main() -> Iterator[str]:
        while True:
            _burn(0.02)
            yield "proof"

    def helper() -> Iterator[str]:
        for _ in range(100):
            _burn(0.005)
            yield "window"

    steps = list(islice(sat._fair(main(), helper(), head=0.03), 40))
    assert steps[:4] == ["window"] * 4 and "proof" in steps
    later = steps[steps.index("proof") :]
    assert 2 <= later.count("window") / later.count("proof") <= 6  # about 4 windows per proof step
    assert list(islice(sat._fair(main(), helper()), 1)) == ["proof"]  # no head start: the proof first
