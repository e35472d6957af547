"""A region no pair can fill (``coverage.py``): no answer under the rules that fill the board,
said at once. Checked against a brute-force count: the test must never refute a solvable board."""

from __future__ import annotations

import random

import pytest
from flow_checker import brute_force_count

from solvers.flow import PLUGIN
from solvers.flow.coverage import unfillable_region
from solvers.flow.graph import grid_graph


def test_pairs_stacked_at_the_top_leave_the_rest_unfillable() -> None:
    """QA: a 30x30 board with its 30 pairs in the top two rows got no verdict in 200 s under the
    default rules (the game rules' search filled the open rows with loops, cut one at a time)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcd"
    puzzle = PLUGIN.parse(f"{letters}\n{letters}\n" + ("." * 30 + "\n") * 28)
    region = unfillable_region(grid_graph(puzzle))
    assert region is not None and len(region) == 28 * 30
    info: dict[str, object] = {}
    assert list(PLUGIN.solve(puzzle, limit=2, info=info)) == []
    assert info["verdict"] == "no solution under the game rules: no pair can reach 840 cells at R3C1"
    assert list(PLUGIN.solve(puzzle, limit=2, rules="strict")) == []
    # Under Numberlink rules cells may stay empty: the pairs join at once, one way only.
    assert len(list(PLUGIN.solve(puzzle, limit=2, rules="numberlink"))) == 1


@pytest.mark.parametrize(
    ("rows", "stranded"),
    [
        (["A.A", ".#.", "B.B"], (1, 0)),  # a cell beside one end of A and one of B
        (["AB.", ".AB", "C.C"], None),  # every region has a pair beside it
        (["A.B..", "C#B#C", "A...."], (0, 1)),  # the top left pocket: one end of A and of B
        (["A.A"], None),
    ],
)
def test_small_boards(rows: list[str], stranded: tuple[int, int] | None) -> None:
    graph = grid_graph(PLUGIN.parse("\n".join(rows) + "\n"))
    region = unfillable_region(graph)
    assert (None if region is None else graph.cells[region[0]]) == stranded


def test_never_refutes_a_board_that_has_an_answer() -> None:
    """On random small boards: whenever a region is called unfillable, the brute-force count under
    the game rules is 0 (the test is sound); and it does call some (it is not idle)."""
    rng = random.Random(7)
    called = 0
    for _ in range(300):
        h, w = rng.randint(2, 4), rng.randint(2, 4)
        cells = ["."] * (h * w)
        spots = rng.sample(range(h * w), 2 * rng.randint(1, min(3, h * w // 2)))
        for k, spot in enumerate(spots):
            cells[spot] = "ABC"[k // 2]
        rows = ["".join(cells[r * w : (r + 1) * w]) for r in range(h)]
        if unfillable_region(grid_graph(PLUGIN.parse("\n".join(rows) + "\n"))) is not None:
            called += 1
            assert brute_force_count(rows, cap=1) == 0, rows
    assert called >= 20
