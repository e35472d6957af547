"""Messages a player reads name things as the board shows them (QA pass 6, 2026-11-28)."""

from __future__ import annotations

import pytest

from solvers.common import registry
from solvers.common.errors import InputError, ParseError
from solvers.common.protocol import EditEvent
from solvers.flow import PLUGIN, FlowPuzzle
from solvers.flow.model import FlowPaths
from solvers.flow.solve import solve
from workbench import cli


@pytest.mark.parametrize("rules", ["auto", "designed", "strict", "numberlink"])
def test_a_board_without_endpoints_is_nothing_to_solve(rules: str) -> None:
    """It said "no solution under the game rules: no pair can reach 25 cells at R1C1"."""
    empty = FlowPuzzle.from_rows(["....."] * 5)
    with pytest.raises(InputError, match="nothing to solve: the board has no endpoints"):
        list(solve(empty, rules=rules))


def test_the_command_line_says_so_too(tmp_path, capsys) -> None:
    board = tmp_path / "empty.txt"
    board.write_text(".....\n" * 5, encoding="utf-8")
    assert cli.main(["solve", "flow", str(board)]) == 2
    assert "nothing to solve" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["flow", "toichika"])
def test_an_address_without_a_puzzle_is_said_so(kind: str) -> None:
    """It said "unknown puzzle type 'https:'"."""
    with pytest.raises(ParseError, match="no puzzle in this address") as info:
        registry.get(kind).parse("https://example.com/foo")
    assert "https:" not in str(info.value).split("(")[0]


def test_a_bare_query_still_reads() -> None:
    assert PLUGIN.parse("numlin/5/5/1j2h3m1h2j3").rows == 5


def test_endpoint_problems_name_the_colour() -> None:
    """The player sees a red dot, not a letter R; files show letters, so both are said."""
    three = FlowPuzzle.from_rows(["R.R", "...", "R.."])
    assert three.problems()[0][0].startswith("colour 'R' (red) has 3 endpoints")
    # every one of them: the "third" in reading order was often a dot placed before (QA pass 7)
    assert (
        three.problems()[0][0]
        == "colour 'R' (red) has 3 endpoints, at R1C1, R1C3 and R3C1 (each colour needs exactly two)"
    )
    assert FlowPuzzle.from_rows(["c..", "..."]).problems()[0][0].startswith("colour 'c' (dark cyan) has only")
    # Letters past the 16 named colours and numbered boards keep their labels alone.
    assert FlowPuzzle.from_rows(["7..", "..."]).problems()[0][0].startswith("colour '7' has only")


def test_undo_steps_name_the_pipe_by_its_colour() -> None:
    puzzle = PLUGIN.parse("R.R\nB.B\n")
    start = EditEvent("press", mode="play", cell=(0, 0))
    result = PLUGIN.edit(puzzle, FlowPaths(), start)
    assert result is not None
    drag = EditEvent("drag", mode="play", cell=(0, 1))
    step = PLUGIN.edit(puzzle, result.entries, drag)
    assert step is not None and step.label == "Draw red pipe"
    numbered = PLUGIN.parse("rules: numberlink\n1.1\n2.2\n")
    result = PLUGIN.edit(numbered, FlowPaths(), start)
    assert result is not None and result.label == "Draw pipe 1"
