"""How a Flow board is drawn (issue 28): a Numberlink puzzle looks as Numberlink is printed (its
numbers in ringed cells, thin lines), with the game's coloured pipes, coloured lines or black lines
a choice saved with the puzzle."""

from __future__ import annotations

from dataclasses import replace

import pytest

from solvers.common.display import Circle, Polyline, Text
from solvers.common.errors import ParseError
from solvers.flow import PLUGIN
from solvers.flow.draw import CELL, LINE_WIDTH, PIPE_WIDTH, effective_look, labels_always
from solvers.flow.model import LOOKS

NUMLIN = "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"
FLOW = "A.A\nB.B\n"


def _drawn(puzzle):
    solution = next(iter(PLUGIN.solve(puzzle, limit=1)))
    assert PLUGIN.check_solution(puzzle, solution).ok  # the rule check, not the solver, says so
    items = PLUGIN.draw(puzzle, solution).items
    pipes = [it for it in items if isinstance(it, Polyline)]
    dots = [it for it in items if isinstance(it, Circle)]
    texts = [it for it in items if isinstance(it, Text)]
    return pipes, dots, texts


def test_auto_draws_numberlink_puzzles_as_printed_and_flow_boards_as_the_game() -> None:
    numlin = PLUGIN.parse(NUMLIN)
    assert numlin.look == "auto" and effective_look(numlin) == "lines"
    pipes, dots, texts = _drawn(numlin)
    assert {p.width for p in pipes} == {CELL * LINE_WIDTH}
    assert all(p.color.startswith("color:") for p in pipes)  # coloured lines
    assert {d.fill for d in dots} == {"cell"}  # the number sits in a ringed cell
    assert all(d.stroke.startswith("color:") for d in dots)
    assert sorted(t.text for t in texts) == ["1", "1", "2", "2", "3", "3"]
    assert {t.color for t in texts} == {"ink"}
    flow = PLUGIN.parse(FLOW)
    assert effective_look(flow) == "pipes"
    pipes, dots, texts = _drawn(flow)
    assert {p.width for p in pipes} == {CELL * PIPE_WIDTH}
    assert all(d.fill.startswith("color:") for d in dots) and texts == []


def test_numbers_past_9_on_a_flow_board_are_drawn_as_numberlink_too() -> None:
    rows = ["10 - 11", "-  -  -", "10 - 11"]
    puzzle = PLUGIN.parse("\n".join(rows) + "\n")
    assert puzzle.rules == "flow" and effective_look(puzzle) == "lines"


def test_each_look_overrides_auto() -> None:
    numlin = PLUGIN.parse(NUMLIN)
    pipes, dots, _ = _drawn(replace(numlin, look="pipes"))
    assert {p.width for p in pipes} == {CELL * PIPE_WIDTH}
    assert all(d.fill.startswith("color:") for d in dots)
    pipes, dots, texts = _drawn(replace(numlin, look="ink"))
    assert {p.color for p in pipes} == {"ink"} and {d.stroke for d in dots} == {"ink"}
    assert len(texts) == 6
    flow = replace(PLUGIN.parse(FLOW), look="lines")
    assert labels_always(flow)  # a board drawn as Numberlink shows its labels
    pipes, dots, texts = _drawn(flow)
    assert {p.width for p in pipes} == {CELL * LINE_WIDTH} and sorted(t.text for t in texts) == list("AABB")


@pytest.mark.parametrize("look", LOOKS)
def test_the_look_is_saved_with_the_puzzle(look) -> None:
    puzzle = replace(PLUGIN.parse(NUMLIN), look=look)
    text = PLUGIN.serialize(puzzle)
    assert ("look:" in text) == (look != "auto")  # files without a look read as before
    assert PLUGIN.parse(text) == puzzle
    doc = PLUGIN.serialize_document(puzzle, None)
    assert PLUGIN.parse_document(doc)[0].look == look


def test_a_bad_look_is_refused_with_its_place() -> None:
    with pytest.raises(ParseError) as err:
        PLUGIN.parse("look: fancy\nA.B\n...\nA.B\n")
    assert err.value.line == 1 and "look must be" in str(err.value) and "'fancy'" in str(err.value)
    with pytest.raises(ParseError):
        PLUGIN.parse("look: lines\nlook: ink\nA.B\n...\nA.B\n")


def test_the_look_does_not_change_what_is_solved() -> None:
    numlin = PLUGIN.parse(NUMLIN)
    inked = replace(numlin, look="ink", labels=True)
    assert inked != numlin  # an undoable edit of the document
    assert PLUGIN.solve_identity(inked) == PLUGIN.solve_identity(numlin)
    assert PLUGIN.solve_identity(replace(numlin, rules="flow")) != PLUGIN.solve_identity(numlin)


def test_bridges_take_the_looks_line_width() -> None:
    puzzle = replace(PLUGIN.parse("..A..\n.....\nB.+.B\n.....\n..A..\n"), look="lines")
    items = PLUGIN.draw(puzzle, next(iter(PLUGIN.solve(puzzle, limit=1)))).items
    widths = {it.width for it in items if type(it).__name__ == "Line" and it.color.startswith("color:")}
    assert widths == {CELL * LINE_WIDTH}
