"""A given '?' is an arrow of unknown direction: it takes an arrow or nothing, never a dot. The
native text format always refused a dot there; play mode set one (and a '?' given over a dot kept
it), pzprv3 files kept one, so a game saved in the text format could not be opened again (QA pass
8, left then; the edit-mode path found in review)."""

from __future__ import annotations

from solvers.common.protocol import EditEvent
from solvers.toichika.model import DOT, RIGHT, Toichika
from solvers.toichika.plugin import PLUGIN
from solvers.toichika.pzprv3_codec import read_pzprv3, write_pzprv3

# 2x2, one country per column pair: a '?' on R1C1 ('-' in pzprv3's clue block).
CLUES = "pzprv3/toichika/2/2/2/0 1 /0 1 /- . /. . /"


def _file(answer_rows: str) -> str:
    return (CLUES + answer_rows).replace("/", "\n")


def test_pzprv3_reads_a_dot_on_a_question_mark_as_no_entry() -> None:
    """Such files opened before (pzprjs may keep a dot there): the dot says nothing and is dropped,
    so what is read can be saved and opened again."""
    puzzle, entries = read_pzprv3(_file("+ . /. + /"))
    assert entries[0] == 0 and entries[3] == DOT
    assert read_pzprv3(write_pzprv3(puzzle, entries)) == (puzzle, entries)
    assert PLUGIN.parse_document(PLUGIN.serialize_document(puzzle, entries))[1] == entries


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


def test_a_question_mark_given_over_a_dot_drops_the_dot() -> None:
    """Dot a cell in play mode, then make it a '?' in edit mode: the dot went with the document
    into a file that did not reopen."""
    puzzle, entries = read_pzprv3(_file(". . /. . /"))
    dotted = PLUGIN.edit(puzzle, entries, EditEvent("key", "arrow", "play", (1, 0), key="."))
    assert dotted is not None and dotted.entries[2] == DOT
    asked = PLUGIN.edit(puzzle, dotted.entries, EditEvent("key", "arrow", "edit", (1, 0), key="?"))
    assert asked is not None and asked.puzzle is not None
    kept = PLUGIN.adapt_entries(asked.puzzle, dotted.entries)
    assert kept[2] == 0
    reopened, stored = PLUGIN.parse_document(PLUGIN.serialize_document(asked.puzzle, kept))
    assert reopened == asked.puzzle and PLUGIN.adapt_entries(reopened, stored) == kept
