"""QA pass 8: the lines drawn in a pzprv3 file are the player's pipes, and none may be dropped.

Only lines joining a pair were read; any other line was left out without a word, so ``check``
said "no rule broken so far" about a line joining 1 and 2, and "complete: every rule holds"
about a drawing with a branch at a number. Lines drawn from a number are now read as far as they
go (to its partner, to another number, or to where the drawing stops). A fork or a closed loop
breaks the rules whatever comes next and is refused at its place; what a drawing in progress has
besides (a pair drawn from both ends, a piece in the open) is left out and said in a note.
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
    assert caught.value.line == 8
    assert "the lines drawn fork at R2C1 (2 lines meet there, at a number)" in caught.value.message


def test_a_closed_loop_is_refused_with_its_place() -> None:
    # A square of lines in the open next to the 1s: no pipe may close on itself.
    text = "pzprv3\nnumlin\n3\n3\n1 . . \n. . . \n1 . . \n0 1 \n0 1 \n0 0 \n0 1 1 \n0 0 0 \n"
    with pytest.raises(ParseError) as caught:
        PLUGIN.parse_document(text)
    assert "close a loop through R1C2" in caught.value.message and caught.value.line == 8


def test_a_loose_piece_is_left_out_with_a_note() -> None:
    text = "pzprv3\nnumlin\n3\n3\n1 . 2 \n. . . \n1 . 2 \n0 0 \n1 0 \n0 0 \n0 0 0 \n0 0 0 \n"
    puzzle, entries = PLUGIN.parse_document(text)
    assert entries is not None and entries.as_dict() == {}
    assert puzzle.notes and "left out 1 of the lines drawn (first at line 9, column 1)" in puzzle.notes[0]
    verdict = PLUGIN.check(puzzle, entries)  # unfinished, and a piece in the open breaks no rule yet
    assert not verdict.complete and not verdict.violations


def test_a_pair_drawn_from_both_ends_keeps_one_part_and_says_so() -> None:
    # A drawing in progress, as puzz.link saves it: both 1s have a line going out.
    puzzle, entries = PLUGIN.parse_document("pzprv3\nnumlin\n1\n5\n1 . . . 1 \n1 0 0 1 \n")
    assert entries is not None and entries.as_dict() == {"1": ((0, 0), (0, 1))}
    assert "left out 1 of the lines drawn (first at line 6, column 7)" in puzzle.notes[0]
    assert "left out" in PLUGIN.describe(puzzle)
    verdict = PLUGIN.check(puzzle, entries)
    assert not verdict.complete and not verdict.violations


def test_the_answer_written_by_us_reads_back() -> None:
    puzzle, _ = PLUGIN.parse_document(HEAD)
    solution = next(iter(PLUGIN.solve(puzzle, limit=1)))
    drawn = PLUGIN.entries_from_solution(puzzle, solution)
    from solvers.flow import pzpr

    assert PLUGIN.parse_document(pzpr.write_pzprv3(puzzle, drawn)) == (puzzle, drawn)


def test_check_from_the_command_line_says_what_was_left_out(tmp_path, capsys) -> None:  # noqa: ANN001
    from workbench.cli import main as workbench_main

    path = tmp_path / "both.txt"
    path.write_text("pzprv3\nnumlin\n1\n5\n1 . . . 1 \n1 0 0 1 \n", encoding="utf-8")
    assert workbench_main(["check", "flow", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "incomplete" in out and "note: left out 1 of the lines drawn" in err
    assert workbench_main(["check", "flow", str(path), "--json"]) == 0
    assert '"notes": ["left out 1 of the lines drawn' in capsys.readouterr().out


# pzprjs's own numlin check cases (test/script/numlin.js): drawings that each break one rule, and
# the answer. None of the broken ones may read as complete; each is broken, unfinished or refused.
PZPRJS = "pzprv3/numlin/5/5/1 . . . . /2 . . 3 . /. . . . . /. 1 . . 2 /. . . . 3 /"
PZPRJS_CASES = {
    "lnBranch": "0 0 0 0 /1 1 1 0 /0 0 0 0 /0 0 0 0 /0 0 0 0 /0 0 0 0 0 /0 1 0 0 0 /0 1 0 0 0 /0 0 0 0 0 /",
    "lnCross": "1 0 0 0 /1 1 1 0 /0 0 0 0 /0 0 0 0 /0 0 0 0 /0 1 0 0 0 /0 1 0 0 0 /0 1 0 0 0 /0 0 0 0 0 /",
    "lcTripleNum": "1 1 1 1 /1 1 1 0 /0 0 0 0 /0 0 0 0 /0 0 0 0 /1 0 0 0 1 /0 0 0 0 1 /0 0 0 0 1 /0 0 0 0 1 /",
    "nmConnDiff": "1 1 0 0 /0 0 0 0 /0 0 0 0 /0 0 1 1 /0 0 0 0 /0 0 1 0 0 /0 0 1 0 0 /0 0 1 0 0 /0 0 0 0 0 /",
    "lcOnNum": "0 0 0 0 /0 0 0 0 /0 0 0 0 /0 0 1 1 /0 0 0 0 /0 0 1 0 1 /0 0 1 0 1 /0 0 1 0 1 /0 0 0 0 0 /",
    "lnDeadEnd": "1 0 0 0 /0 0 0 0 /0 0 0 0 /0 0 0 0 /0 0 0 1 /0 1 0 0 0 /0 1 0 1 0 /0 0 0 1 0 /0 0 0 1 0 /",
    "lcIsolate": "1 0 0 0 /0 0 0 0 /0 0 1 0 /0 0 0 0 /0 0 1 0 /0 1 0 0 0 /0 1 0 0 0 /0 1 1 1 0 /0 0 1 1 0 /",
    "nmNoLine": "1 0 0 0 /0 0 0 0 /0 0 0 0 /0 0 0 0 /0 0 0 1 /0 1 0 0 0 /0 1 0 1 0 /0 1 0 1 0 /0 0 0 1 0 /",
}
PZPRJS_ANSWER = (
    "1 -1 1 1 /0 -1 0 0 /0 -1 -1 0 /0 -1 -1 0 /1 1 -1 1 /0 1 1 0 1 /1 1 1 1 1 /1 1 1 1 1 /1 0 1 1 0 /"
)


@pytest.mark.parametrize("code", sorted(PZPRJS_CASES))
def test_pzprjs_broken_drawings_never_read_as_complete(code: str) -> None:
    try:
        puzzle, entries = PLUGIN.parse_document(PZPRJS + PZPRJS_CASES[code])
    except ParseError as refused:
        assert "pzprv3: the lines drawn" in refused.message
        return
    assert not PLUGIN.check(puzzle, entries).complete


def test_pzprjs_crossing_is_called_a_crossing_and_its_answer_reads_complete() -> None:
    with pytest.raises(ParseError, match="the lines drawn cross at R2C2: pipes never cross"):
        PLUGIN.parse_document(PZPRJS + PZPRJS_CASES["lnCross"])
    puzzle, entries = PLUGIN.parse_document(PZPRJS + PZPRJS_ANSWER)
    assert PLUGIN.check(puzzle, entries).ok and PLUGIN.check(puzzle, entries).complete
