"""Endpoint labels beyond 62 (issue 28, item 2): numbers 1..999 beside the letters, in the spaced
form (as pzprv3 files write them). Every answer is checked by the independent checker."""

from __future__ import annotations

import pytest
from flow_checker import tokens, verify

from solvers.common.errors import ParseError
from solvers.flow import codec
from solvers.flow.model import colour_index
from solvers.flow.plugin import PLUGIN


def _numbered(pairs_per_row: int, row_pairs: int) -> str:
    """Pairs n in two rows: n above n, numbered 1, 2, ... row by row (right-aligned)."""
    lines = []
    n = 0
    for _ in range(row_pairs):
        row = " ".join(f"{n + c + 1:>3}" for c in range(pairs_per_row))
        lines += [row, row]
        n += pairs_per_row
    return "\n".join(lines) + "\n"


def test_a_board_with_64_and_more_numbers_solves_uniquely() -> None:
    text = _numbered(14, 5)  # 70 numbers
    puzzle = codec.parse(text)
    assert len(puzzle.colours) == 70 and puzzle.at(9, 13) == "70"
    info: dict[str, object] = {}
    found = list(PLUGIN.solve(puzzle, info=info))
    assert len(found) == 1 and info["verdict"] == "unique (designed)"
    verify(tokens(puzzle.row_strings()), tokens(found[0].grid), found[0].extras["paths"])
    entries = PLUGIN.entries_from_solution(puzzle, found[0])
    assert PLUGIN.check(puzzle, entries).complete
    # The document keeps number labels, pipes included.
    assert PLUGIN.parse_document(PLUGIN.serialize_document(puzzle, entries)) == (puzzle, entries)


def test_numbers_write_the_spaced_form_and_read_back() -> None:
    puzzle = codec.parse("1 . 64\n. . .\n1 . 64\n")
    assert puzzle.at(0, 2) == "64" and puzzle.at(0, 0) == "1"
    text = codec.serialize(puzzle)
    assert text == " 1  - 64\n -  -  -\n 1  - 64\n"
    assert codec.parse(text) == puzzle and codec.serialize_spaced(puzzle) == text
    assert codec.parse("shape: hex\n" + text).hex  # the header still works
    # A winding 64-pair path board of letters and numbers mixed.
    mixed = codec.parse("A 10 999\nA 10 999\n")
    assert mixed.colours == ["A", "10", "999"]
    assert colour_index("10", False) == 62 and colour_index("999", False) == 62 + 989


def test_today_files_read_as_before() -> None:
    assert codec.parse("R.G\n...\nR.G\n").row_strings() == ["R.G", "...", "R.G"]
    assert codec.serialize(codec.parse("1.2\n...\n1.2\n")) == "1.2\n...\n1.2\n"  # digits are letters
    assert codec.parse("- 1 - 0\n- 1 - 0\n").colours == ["0", "1"]
    assert codec.parse("A.10\nA.10\n").row_strings() == ["A.10", "A.10"]  # plain rows: one cell per character


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("1 . 01\n1 . 01\n", (1, 5), "a number 1..999"),  # no leading zero
        ("1 . 1000\n1 . 1000\n", (1, 5), "a number 1..999"),
        ("1 . \u0661\u0662\n1 . 12\n", (1, 5), "a number 1..999"),  # ASCII digits only
        ("12 . 12\n. . 12\n", (2, 5), "12"),
    ],
)
def test_bad_numbers(text: str, where: tuple[int, int], words: str) -> None:
    with pytest.raises(ParseError) as err:
        codec.parse(text)
    assert (err.value.line, err.value.column) == where and words in err.value.message


def test_letter_forms_refuse_numbers_and_the_editor_keeps_them() -> None:
    puzzle = codec.parse("1 . 64\n. . .\n1 . 64\n")
    with pytest.raises(ParseError, match="mnemonic form holds only 62"):
        codec.to_mnemonic_form(puzzle)
    assert PLUGIN.tools(puzzle)  # the palette is built without an error
    from solvers.flow.edit import place_colour

    placed = place_colour(puzzle, (1, 1), 3)
    assert placed.at(0, 2) == "64" and placed.at(1, 1) not in (".", "64")


def test_community_files_with_many_labels_get_numbers() -> None:
    pairs = [f"p{i}" for i in range(70)]
    text = "# seventy pairs\n" + "\n".join(
        " ".join(pairs[k : k + 14]) for k in range(0, 70, 14) for _ in (0, 1)
    )
    puzzle = codec.parse(text + "\n")
    assert len(puzzle.colours) == 70 and puzzle.at(0, 0) == "1" and puzzle.at(9, 13) == "70"
    numbers = codec.parse("# numbered\n" + _numbered(14, 5))
    assert numbers == codec.parse(_numbered(14, 5))
