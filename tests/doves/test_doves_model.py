"""Formats: board strings, .doves files, R1 codes, canonical keys, SSN."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.common.errors import InputError, ParseError
from solvers.doves import PLUGIN
from solvers.doves.model import (
    GREEN,
    RED,
    START,
    Position,
    format_file,
    parse_board,
    parse_file,
    symmetric_images,
)
from solvers.doves.rules import from_ssn, legal_steps, to_ssn


def test_board_string_round_trip() -> None:
    for board in (" B; a;TH y;b mM", "bB;T YA", "hB A;maYT; Htb;M y", "b;B"):
        position = parse_board(board)
        assert position.board_string() == board
        assert parse_file(format_file(position)) == position


def test_code_matches_r1_layout() -> None:
    assert START.code == 864_761_497_199_312_896
    assert Position.from_code(START.code) == START


def test_canonical_key_example() -> None:
    keys = {
        parse_board("bB; H; y", RED).canonical_key(),
        parse_board("; b; BHy", RED).canonical_key(),
        parse_board("; B; bhY", GREEN).canonical_key(),
    }
    assert len(keys) == 1
    assert parse_board("bB; H; y", GREEN).canonical_key() not in keys


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=20), st.integers(0, 7))
def test_canonical_key_is_invariant_under_symmetry(choices: list[int], sym: int) -> None:
    position = START
    for choice in choices:
        steps = [s for s in legal_steps(position) if s.outcome == 0]
        if not steps:
            break
        position = steps[choice % len(steps)].position
    image = Position.from_cells(symmetric_images(position.cells())[sym], position.to_move)
    assert image.canonical_key() == position.canonical_key()
    swapped = Position.from_cells({i ^ 1: rc for i, rc in position.cells().items()}, 1 - position.to_move)
    assert swapped.canonical_key() == position.canonical_key()


def test_ssn_examples() -> None:
    assert to_ssn(START, from_ssn(START, "+AS1")) == "+AS1"
    action = from_ssn(START, "+AS1")
    assert (action.kind, action.dove, action.target) == ("put", 2, (2, 0))
    assert from_ssn(START, "-t").kind == "remove"
    with pytest.raises(InputError):
        from_ssn(START, "+AX1")


def test_file_format_and_errors() -> None:
    position = PLUGIN.parse("# comment\nto move: green\n.b\nB.\n")
    assert position.to_move == GREEN and position.board_string() == " b;B"
    assert PLUGIN.parse("bB;T YA / green").to_move == GREEN
    with pytest.raises(ParseError) as info:
        PLUGIN.parse("to move: red\nbB\nTxYA\n")
    assert (info.value.line, info.value.column) == (3, 2)
    with pytest.raises(ParseError, match="red Boss"):
        PLUGIN.parse("b;A")
    with pytest.raises(ParseError, match="at most 4x4"):
        PLUGIN.parse("bB   A")
    with pytest.raises(ParseError, match="twice"):
        PLUGIN.parse("bBB")
    with pytest.raises(ParseError, match="to move"):
        PLUGIN.parse("colour: red\nbB")
    assert PLUGIN.looks_like_inline("bB;T YA") and not PLUGIN.looks_like_inline("game.doves")


def test_documents_keep_played_moves() -> None:
    from solvers.doves import PlayEntries

    position = parse_board("bB;T YA")
    entries = PlayEntries((from_ssn(position, "+HN1"),))
    text = PLUGIN.serialize_document(position, entries)
    assert "moves: +HN1" in text
    again, played = PLUGIN.parse_document(text)
    assert again == position and played == entries
    assert PLUGIN.parse(text) == position
    with pytest.raises(ParseError) as info:
        PLUGIN.parse_document(text.replace("+HN1", "+HN1 +HN1"))
    assert info.value.line == 5 and "move 2" in str(info.value)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="BbAaYyMmTtHh .;/:\nXto movegren#-", max_size=40))
def test_parser_never_crashes(text: str) -> None:
    try:
        position = PLUGIN.parse(text)
    except InputError:
        return
    assert PLUGIN.parse(PLUGIN.serialize(position)) == position
