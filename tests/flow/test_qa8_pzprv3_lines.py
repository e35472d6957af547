"""QA pass 8: the lines drawn in a pzprv3 file are the player's pipes, and none may be dropped.

Only lines joining a pair were read; any other line was left out without a word, so ``check``
said "no rule broken so far" about a line joining 1 and 2, and "complete: every rule holds"
about a drawing with a branch at a number. Lines drawn from a number are now read as far as they
go (to its partner, to another number, or to where the drawing stops), and a line that can be on
no such pipe (a loose piece, a second branch, a pair drawn from both ends) is refused at its place.
"""

from __future__ import annotations

import pytest

from solvers.common.errors import ParseError
from solvers.flow.plugin import FlowPlugin

PLUGIN = FlowPlugin()
HEAD = "pzprv3\nnumlin\n2\n3\n1 . 2 \n1 . 2 \n"  # 3x2: pair 1 down the left, pair 2 down the right


def test_a_line_joining_two_numbers_is_broken_not_incomplete() -> None:
    puzzle, entries = PLUGIN.parse_document(HEAD + "1 1 \n0 0 \n0 0 0 \n")
    assert entries is not None and entries.get("1") == ((0, 0), (0, 1), (0, 2))
    verdict = PLUGIN.check(puzzle, entries)
    assert verdict.violations and "runs into an endpoint of colour 2" in verdict.violations[0].message


def test_a_pipe_drawn_part_of_the_way_is_kept() -> None:
    _, entries = PLUGIN.parse_document(HEAD + "0 0 \n1 0 \n0 0 0 \n")  # from the second 1 only
    assert entries is not None and entries.as_dict() == {"1": ((1, 0), (1, 1))}


def test_a_branch_at_a_number_is_refused_with_its_place() -> None:
    # Both pairs joined, and a line from the lower 1 into the middle: Check said "complete".
    with pytest.raises(ParseError) as caught:
        PLUGIN.parse_document(HEAD + "0 0 \n1 0 \n1 1 1 \n")
    assert (caught.value.line, caught.value.column) == (8, 1)
    assert "the line between R2C1 and R2C2 is on no pipe drawn from a number" in caught.value.message


def test_a_loose_piece_is_refused_with_its_place() -> None:
    text = "pzprv3\nnumlin\n3\n3\n1 . 2 \n. . . \n1 . 2 \n0 0 \n1 0 \n0 0 \n0 0 0 \n0 0 0 \n"
    with pytest.raises(ParseError) as caught:
        PLUGIN.parse_document(text)
    assert (caught.value.line, caught.value.column) == (9, 1)
    assert "R2C1 and R2C2" in caught.value.message


def test_the_answer_written_by_us_reads_back() -> None:
    puzzle, _ = PLUGIN.parse_document(HEAD)
    solution = next(iter(PLUGIN.solve(puzzle, limit=1)))
    drawn = PLUGIN.entries_from_solution(puzzle, solution)
    from solvers.flow import pzpr

    assert PLUGIN.parse_document(pzpr.write_pzprv3(puzzle, drawn)) == (puzzle, drawn)
