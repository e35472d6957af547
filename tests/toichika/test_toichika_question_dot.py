"""A given '?' is an arrow of unknown direction: it takes an arrow or nothing, never a dot. The
native text format always refused a dot there; pzprv3 read one and play mode set one, so a game
saved in the text format could not be opened again (QA pass 8, left then)."""

from __future__ import annotations

import pytest

from solvers.common.errors import ParseError
from solvers.common.protocol import EditEvent
from solvers.toichika.model import DOT, RIGHT, Toichika
from solvers.toichika.plugin import PLUGIN
from solvers.toichika.pzprv3_codec import read_pzprv3, write_pzprv3

# 2x2, one country per column pair: a '?' on R1C1 ('-' in pzprv3's clue block).
CLUES = "pzprv3/toichika/2/2/2/0 1 /0 1 /- . /. . /"


def _file(answer_rows: str) -> str:
    return (CLUES + answer_rows).replace("/", "\n")


def test_pzprv3_refuses_a_dot_on_a_question_mark_naming_the_cell() -> None:
    with pytest.raises(ParseError) as err:
        read_pzprv3(_file("+ . /. . /"))
    assert "R1C1" in str(err.value) and "'?'" in str(err.value)
    assert err.value.line == 10  # the first answer row


def test_pzprv3_still_reads_an_arrow_or_nothing_on_a_question_mark() -> None:
    puzzle, entries = read_pzprv3(_file("4 . /. + /"))
    assert entries[0] == RIGHT and entries[3] == DOT
    assert read_pzprv3(write_pzprv3(puzzle, entries)) == (puzzle, entries)


def test_play_mode_refuses_a_dot_on_a_question_mark_and_says_why() -> None:
    puzzle, entries = read_pzprv3(_file(". . /. . /"))
    assert isinstance(puzzle, Toichika)
    refused = PLUGIN.edit(puzzle, entries, EditEvent("key", "arrow", "play", (0, 0), key="."))
    assert refused is not None and refused.entries is None and refused.puzzle is None
    assert "R1C1" in refused.label and "no dot" in refused.label
    placed = PLUGIN.edit(puzzle, entries, EditEvent("key", "arrow", "play", (1, 1), key="."))
    assert placed is not None and placed.entries[3] == DOT


def test_every_play_state_on_a_question_mark_saves_and_reopens() -> None:
    """What play mode lets a user make there, the document format stores (no work is lost)."""
    puzzle, entries = read_pzprv3(_file(". . /. . /"))
    states = []
    for key in (".", "2", "1", "Delete"):  # dot, arrow right, arrow up, erase
        result = PLUGIN.edit(puzzle, entries, EditEvent("key", "arrow", "play", (0, 0), key=key))
        states.append(entries if result is None or result.entries is None else result.entries)
    assert {s[0] for s in states} >= {0, RIGHT}  # the arrow keys did set arrows
    for state in states:
        reopened, stored = PLUGIN.parse_document(PLUGIN.serialize_document(puzzle, state))
        assert reopened == puzzle and PLUGIN.adapt_entries(puzzle, stored) == state
