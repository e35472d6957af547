"""Rules engine, state notation and the position checker."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.common.errors import InputError, ParseError
from solvers.xcetero import PLUGIN
from solvers.xcetero.notation import looks_inline, parse_position, to_file, to_inline
from solvers.xcetero.plugin import Game
from solvers.xcetero.rules import UNPLACED, Position, Rules, apply_moves


def test_placement_then_movement_cycle() -> None:
    p = Position()
    assert p.legal_moves() == list(range(9)) and p.mover() == "O" and p.in_placement()
    for k, square in enumerate([4, 0, 8, 2, 1, 7]):
        assert len(p.legal_moves()) == 9 - k
        p = p.play(square)
    # all six placed, piece 1 due again, exactly three empty squares to jump to
    assert p.due == 1 and not p.in_placement()
    assert p.winner() is None and p.legal_moves() == [3, 5, 6]
    assert not p.is_legal(4)  # may not go back to its own square
    q = Position(p.squares, p.due, Rules(may_return=True))
    assert q.legal_moves() == [3, 4, 5, 6]
    with pytest.raises(ValueError):
        p.play(0)


def test_win_by_placement_and_by_jump() -> None:
    p = apply_moves(Position(), [0, 3, 1, 4, 2])  # O1 O3 O5 on the top row
    assert p.winner() == "O" and p.legal_moves() == []
    # X completes the anti-diagonal by jumping with piece 2
    p = parse_position("21./34./6.5 due 2")  # X on 0, 4, 6; O on 1, 3, 8
    assert p.winner() is None and p.legal_moves() == [2, 5, 7]
    q = p.play(2)
    assert q.line_of("X") == (2, 4, 6) and q.winner() == "X"


def test_notation_round_trip_and_forms() -> None:
    p = parse_position("132/.4./5.6 due 2")
    assert p.squares == (0, 2, 1, 4, 6, 8) and p.due == 2
    assert parse_position(to_inline(p)) == p
    assert parse_position(to_file(p)) == p
    assert parse_position("13 2\n-4-\n5-6\n# comment\nDUE=2\n") == p
    assert parse_position("132.4.5.6 2") == p
    placing = parse_position(".1./.../...")
    assert placing.due == 2 and placing.squares[1:] == (UNPLACED,) * 5
    variant = parse_position(".../.../... 1 return rep=3")
    assert variant.rules == Rules(may_return=True, repetition=3)
    assert parse_position(to_file(variant)) == variant
    assert looks_inline(".../.../... 1") and looks_inline("132/.4./5.6 due 2")
    assert not looks_inline("game.xo") and not looks_inline("12")


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("132/.x./5.6 2", 1, 6, "unexpected character 'x'"),
        ("11./.../...", 1, 2, "piece 1 appears twice"),
        ("132\n.4.\n5.6\nmove 2\n", 4, 1, "unexpected 'move'"),
        ("132/.4./5.6 due 9", 1, 17, "unexpected '9'"),
    ],
)
def test_parse_errors_name_the_place(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_position(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert words in str(info.value)


def test_parse_errors_without_place() -> None:
    with pytest.raises(ParseError, match="9 squares"):
        parse_position("12./..")
    with pytest.raises(ParseError, match="say which piece is due"):
        parse_position("132/.4./5.6")
    with pytest.raises(ParseError, match="rep=N"):
        parse_position(".../.../... rep=1")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="123456.-/ \nduexr#=90", max_size=40))
def test_parser_never_crashes(text: str) -> None:
    try:
        p = parse_position(text)
    except ParseError:
        return
    assert parse_position(to_file(p)) == p


@pytest.mark.parametrize(
    ("state", "code"),
    [
        ("13./.../... 4", "pieceOrder"),  # piece 3 placed before piece 2
        ("12./.../... 1", "dueOrder"),  # while placing, piece 3 is due
        ("135/246/... 1", "bothLines"),
        ("135/.2./.46 1", "moverHasLine"),  # O to move already holding a row
        ("135/24./6.. 1", "moverHasLine"),  # O's row was complete after O5, X6 could not follow
    ],
)
def test_check_reports_impossible_positions(state: str, code: str) -> None:
    result = PLUGIN.check(PLUGIN.parse(state))
    assert [v.code for v in result.violations] == [code]


def test_finished_game_is_a_valid_position() -> None:
    won = PLUGIN.parse("135/24./6.. 2")  # O1 has just jumped into the top row
    result = PLUGIN.check(won)
    assert result.violations == [] and result.complete
    solution = next(PLUGIN.solve(won))
    assert solution.extras["value"] == "Lose(0)" and solution.extras["pv"] == []


def test_local_rules_describe_reachability() -> None:
    """Every ordered state whose side to move holds no line is reachable, and no other state is."""
    from solvers.xcetero.retro import analyse

    a = analyse()
    assert (a.reachable == ~a.mover_line).all()


def test_check_moves_and_completion() -> None:
    start = PLUGIN.parse(".../.../... 1")
    assert PLUGIN.check(start, ()).ok is False  # nothing wrong, but the game is not over
    won = (0, 3, 1, 4, 2)
    result = PLUGIN.check(start, won)
    assert result.ok
    bad = PLUGIN.check(start, (0, 0))
    assert [v.code for v in bad.violations] == ["illegalMove"] and bad.violations[0].cells == ((0, 0),)
    after = PLUGIN.check(start, (*won, 5))
    assert [v.code for v in after.violations] == ["moveAfterEnd"]
    # with the house repetition rule a threefold repetition ends the game
    rep = PLUGIN.parse("562/.43/.1. 2 rep=2")
    cycle = tuple(engine_cycle(rep))
    assert PLUGIN.check(rep, cycle).complete


def engine_cycle(position: Position) -> list[int]:
    from solvers.xcetero.engine import principal_variation

    line = principal_variation(position)
    assert line, "a drawn position has a best line that closes a cycle"
    return line


def test_solve_refuses_impossible_positions() -> None:
    with pytest.raises(InputError, match="not a game position"):
        list(PLUGIN.solve(PLUGIN.parse("135/246/... 1")))


def test_documents_keep_the_played_moves() -> None:
    start = PLUGIN.parse(".../.../... 1")
    text = PLUGIN.serialize_document(start, (1, 6, 4))
    assert text.endswith("due 1\nmoves 1 6 4\n")
    assert PLUGIN.parse_document(text) == (start, Game((1, 6, 4)))
    assert PLUGIN.parse(text) == start
    assert PLUGIN.serialize_document(start, ()) == PLUGIN.serialize(start)
    with pytest.raises(ParseError) as info:
        PLUGIN.parse_document(".../.../... 1\nmoves 1 1\n")
    assert (info.value.line, info.value.column) == (2, 9) and "piece 2 cannot go there" in str(info.value)
    with pytest.raises(ParseError) as info:
        PLUGIN.parse_document(".../.../... 1\nmoves 1 x\n")
    assert (info.value.line, info.value.column) == (2, 9)
    # a rules change keeps only the moves that stay legal
    assert PLUGIN.adapt_entries(start, (1, 6, 4, 9, 2)) == Game((1, 6, 4))
