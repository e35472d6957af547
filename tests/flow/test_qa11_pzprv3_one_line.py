"""QA pass 11: a line drawn from one number into another pair's number is one pipe, not two.

pzprjs's own 'nmConnDiff' drawing (a line from 1 to 2) was read from 1 as pipe 1 and, again from
2, as pipe 2 on the same cells: Check said "path 1 runs into an endpoint of colour 2 at R4C5 (and 9
more problems)", eight of them "paths 1 and 2 cross" at cells where nothing crosses."""

from __future__ import annotations

from solvers.flow import PLUGIN
from workbench.cli import main

# pzprjs test/script/numlin.js (MIT licence, see data/public_numlin/README.md): the board and its
# 'nmConnDiff' drawing.
BOARD = "pzprv3/numlin/5/5/1 . . . . /2 . . 3 . /. . . . . /. 1 . . 2 /. . . . 3 /"
CONN_DIFF = "1 1 0 0 /0 0 0 0 /0 0 0 0 /0 0 1 1 /0 0 0 0 /0 0 1 0 0 /0 0 1 0 0 /0 0 1 0 0 /0 0 0 0 0 /"


def test_a_line_between_two_pairs_is_read_once() -> None:
    puzzle, entries = PLUGIN.parse_document(BOARD + CONN_DIFF)
    assert puzzle.notes == ()  # every line drawn is on the pipe read: nothing left out
    drawn = {label: path for label, path in entries.items if path}
    assert list(drawn) == ["1"]
    assert drawn["1"][0] == (0, 0) and drawn["1"][-1] == (3, 4)
    result = PLUGIN.check(puzzle, entries)
    assert [v.code for v in result.violations] == ["throughEndpoint"]


def test_check_names_the_one_problem(capsys) -> None:
    assert main(["check", "flow", BOARD + CONN_DIFF]) == 1
    assert capsys.readouterr().out.strip() == "broken: path 1 runs into an endpoint of colour 2 at R4C5"


def test_the_other_end_of_a_pair_still_gives_its_pipe() -> None:
    # 1's line runs into 2 at R1C2 (2's first number); 2 is drawn from its second number, R1C5.
    board = "pzprv3\nnumlin\n2\n5\n1 2 . . 2 \n1 . . . . \n1 0 0 1 \n0 0 0 0 \n0 0 0 0 0 \n"
    puzzle, entries = PLUGIN.parse_document(board)
    drawn = {label: path for label, path in entries.items if path}
    assert drawn == {"1": ((0, 0), (0, 1)), "2": ((0, 4), (0, 3))}
    assert puzzle.notes == ()
