"""The ``.xo`` reader and ``solve`` against an exploratory QA run (2026-11-28): bad ``rep=`` values,
repeated words and ``moves`` lines, and a piece on the board early. Inputs are that run's files,
copied here as literal strings."""

from __future__ import annotations

import pytest

from solvers.common.errors import InputError, ParseError
from solvers.xcetero import notation
from solvers.xcetero.plugin import Game, XceteroPlugin

PLUGIN = XceteroPlugin()
BOARD = ".1.\n...\n...\n"
RANGE = "rep=N must be a number 0..99 other than 1 (0 = off; N = a draw when a position occurs N times)"


@pytest.mark.parametrize(
    ("tail", "got"),
    [
        ("due 2 rep=-3", "-3"),  # x_repneg.xo: was "unexpected 'rep=-3' ... (expected the piece due 1..6)"
        ("due 2 rep=1", "1"),  # x_rep1.xo: was "needs N between 2 and 99 (0 = off)"
        ("due 2 rep=99999999999999999999", "'99999999999999999999'"),  # x_rephuge.xo
        ("due 2 rep=100", "100"),
    ],
)
def test_every_bad_rep_value_names_the_value_and_the_one_range(tail: str, got: str) -> None:
    with pytest.raises(ParseError) as info:
        notation.parse_position(BOARD + tail + "\n")
    assert str(info.value) == f"line 4, column 7: {RANGE}, got {got}"


def test_good_rep_values_still_read() -> None:
    assert notation.parse_position(BOARD + "due 2 rep=0\n").rules.repetition == 0
    assert notation.parse_position(BOARD + "due 2 rep=3\n").rules.repetition == 3
    assert notation.parse_position(BOARD + "due 2 rep=99\n").rules.repetition == 99
    with pytest.raises(ParseError, match=r"^line 1, column 15: unexpected 'rep=x': rep=N must be"):
        notation.parse_position(".../.../... 1 rep=x")


@pytest.mark.parametrize(
    ("tail", "message"),
    [  # x_return2.xo was accepted
        ("due 2 return return", "line 4, column 14: a second 'return' (the first is on line 4, column 7)"),
        ("due 2 rep=3 rep=4", "line 4, column 13: a second rep=N 'rep=4' (the first is on line 4, column 7)"),
        ("due 2\ndue 3", "line 5, column 5: a second piece due '3' (the first is on line 4, column 5)"),
    ],
)
def test_a_repeated_word_after_the_board_is_refused(tail: str, message: str) -> None:
    with pytest.raises(ParseError) as info:
        notation.parse_position(BOARD + tail + "\n")
    assert str(info.value) == message


def test_a_second_moves_line_is_refused_and_the_writer_uses_one_line() -> None:
    # x_moves_twice.xo: the two lines were joined into one record and analysed as 'O to move: Win(1)'
    with pytest.raises(ParseError) as info:
        PLUGIN.parse_document(BOARD + "due 2\nmoves 0 4\nmoves 8\n")
    assert str(info.value) == "line 6: a second 'moves' line (the first is on line 5)"
    # the writer never wraps a record, however long, so one line is all a document needs
    position = end = notation.parse_position(".../.../... 1")
    record: tuple[int, ...] = ()
    while len(record) < 40:  # a long record of moves that win nothing
        square = next(sq for sq in end.legal_moves() if not end.play(sq).winner())
        record, end = (*record, square), end.play(square)
    text = PLUGIN.serialize_document(position, Game(record))
    assert sum(1 for line in text.splitlines() if line.startswith("moves")) == 1
    assert PLUGIN.parse_document(text)[1].record == record


def test_solve_names_the_piece_on_the_board_early_as_check_does() -> None:
    # x_missing4.xo: solve said 'a piece is on the board early' without naming it
    text = "# All six pieces placed; O must jump with piece 3 (win in 5).\n...\n512\n6.3\ndue 3\n"
    puzzle = PLUGIN.parse(text)
    assert PLUGIN.check(puzzle).violations[0].cells == ((2, 0),)
    with pytest.raises(InputError) as info:
        list(PLUGIN.solve(puzzle))
    assert str(info.value) == (
        "not a game position: pieces enter in number order: a piece is on the board early at R3C1"
    )
