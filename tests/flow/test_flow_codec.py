"""Text formats: plain and spaced forms, lenient reading, errors with positions, label form."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.common.errors import InputError, ParseError
from solvers.flow import PLUGIN, FlowPuzzle
from solvers.flow.codec import (
    parse,
    serialize,
    serialize_spaced,
    to_label_form,
    to_mnemonic_form,
)
from solvers.flow.model import LETTERS

BOARD = "R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n"


def test_plain_round_trip_and_shape() -> None:
    p = parse(BOARD)
    assert (p.rows, p.cols) == (5, 5)
    assert p.colours == ["R", "B", "Y", "G", "O"]  # mnemonic display order
    assert p.endpoints()["G"] == [(0, 2), (3, 1)]
    assert serialize(p) == BOARD
    assert parse(serialize(p)) == p


def test_lenient_reading() -> None:
    p = parse(BOARD)
    assert parse(BOARD.replace("\n", "\r\n")) == p
    assert parse("\n\n" + BOARD + "\n\n   \n") == p
    assert parse("\ufeff" + BOARD.replace("\n", "  \n")) == p


def test_spaced_form() -> None:
    p = parse(BOARD)
    spaced = serialize_spaced(p)
    assert spaced.splitlines()[0] == "R - G - Y"
    assert parse(spaced) == p
    assert parse("- - A -\nA - - -\n") == FlowPuzzle.from_rows(["..A.", "A..."])


def test_non_square_and_many_colours() -> None:
    rows = ["".join(LETTERS[(r * 31 + c) % 62] for c in range(31)) for r in range(4)]
    # 4 x 31 with every one of the 62 colours exactly twice
    p = parse("\n".join(rows))
    assert (p.rows, p.cols, len(p.colours)) == (4, 31, 62)
    assert parse(serialize(p)) == p
    wide = FlowPuzzle.empty(50, 60).with_cell(0, 0, "A").with_cell(49, 59, "A")
    assert parse(serialize(wide)) == wide


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("R.G\nRG\n", 2, 3, "ragged"),
        ("R.G\nR\n", 2, 2, "this row has 1 cell, the first row has 3"),  # not "1 cells"
        ("R.G\nRG..\n", 2, 4, "ragged"),
        ("R.G\nR*G\n", 2, 2, "unknown character '*'"),
        ("R..\n...\n..G\nG..\n", 1, 1, "only one endpoint"),
        ("R.R\n.R.\n", 2, 2, "3 endpoints"),
        ("R - R\n- R -\n", 2, 3, "3 endpoints"),
        ("- - A -\nA - xy -\n", 2, 5, "not a single character"),
        ("R.R\n\nG.G\n", 2, None, "blank line"),
    ],
)
def test_errors_name_the_place(text: str, line: int, column: int | None, words: str) -> None:
    with pytest.raises(ParseError) as info:
        parse(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert words in str(info.value)


@pytest.mark.parametrize("text", ["", "\n\n", "   \n"])
def test_empty_board_is_an_error(text: str) -> None:
    with pytest.raises(ParseError, match="empty board"):
        parse(text)


def test_label_form_colours() -> None:
    # Only letters A..P: the letters are colour indices (A = red, B = blue, C = yellow ...).
    labels = parse("A.B\nA.B\nC.C\n")
    assert labels.label_form
    assert [labels.colour_index(ch) for ch in "ABC"] == [0, 1, 2]
    mnemonic = parse("A.R\nA.R\n...\n")  # R is after P: mnemonic letters (A = grey)
    assert not mnemonic.label_form
    assert [mnemonic.colour_index(ch) for ch in "RA"] == [0, 9]
    converted = to_label_form(parse(BOARD))
    assert serialize(converted) == "A.D.C\n..B.E\n.....\n.D.C.\n.ABE.\n"
    assert to_mnemonic_form(converted) == parse(BOARD)
    original = parse(BOARD)
    for ch, cells in original.endpoints().items():  # same display colours either way
        assert converted.colour_index(converted.at(*cells[0])) == original.colour_index(ch)
    with pytest.raises(InputError):
        to_label_form(parse("Z.Z\n...\n"))  # colour 17+ has no label letter


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(".-ABCRGxyz019 *\t\r\n#"), max_size=80))
def test_fuzz_parser_only_raises_parse_errors(text: str) -> None:
    try:
        p = PLUGIN.parse(text)
    except ParseError as exc:
        assert str(exc)
        return
    assert parse(serialize(p)) == p  # anything accepted round-trips


@st.composite
def boards(draw: st.DrawFn) -> FlowPuzzle:
    rows = draw(st.integers(1, 8))
    cols = draw(st.integers(1, 8))
    cells = ["."] * (rows * cols)
    n = draw(st.integers(0, min(10, rows * cols // 2)))
    spots = draw(st.permutations(range(rows * cols)))
    letters = draw(st.lists(st.sampled_from(LETTERS), min_size=n, max_size=n, unique=True))
    for k, ch in enumerate(letters):
        cells[spots[2 * k]] = ch
        cells[spots[2 * k + 1]] = ch
    return FlowPuzzle(rows, cols, tuple(cells))


@settings(max_examples=200, deadline=None)
@given(boards())
def test_fuzz_round_trips(p: FlowPuzzle) -> None:
    assert parse(serialize(p)) == p
    assert parse(serialize_spaced(p)) == p
    assert serialize(parse(serialize(p))) == serialize(p)


def test_labels_shown_reads_writes_and_refuses_other_words() -> None:
    puzzle = parse("labels: shown\nA.B\nA.B\n")
    assert puzzle.labels and serialize(puzzle) == "labels: shown\nA.B\nA.B\n"
    assert parse(serialize(puzzle)) == puzzle
    assert not parse("labels: hidden\nA.B\nA.B\n").labels
    assert serialize(parse("A.B\nA.B\n")) == "A.B\nA.B\n"  # no header by default
    with pytest.raises(ParseError) as err:
        parse("labels: yes\nA.B\nA.B\n")
    assert "labels must be shown or hidden" in str(err.value) and err.value.line == 1
    assert puzzle.resized(3, 3).labels  # edits keep it


def test_a_stray_spaced_line_is_named_not_the_first_row() -> None:
    """QA: one note line with a space ('hello world' after the board) made the whole board spaced,
    and the error blamed line 1, column 1, a valid row."""
    with pytest.raises(ParseError) as err:
        PLUGIN.parse("A..A\nB..B\nhello world\n")
    assert err.value.line == 1 and "line 3 holds spaces ('hello world')" in err.value.message
    with pytest.raises(ParseError, match="is not a single character"):
        PLUGIN.parse("A B\nAB. B\n")  # a spaced row's own bad token keeps its message


def test_two_zeros_in_a_number_grid_are_read_as_a_pair_and_said() -> None:
    """QA: '1 0 1 / 2 0 2' said "no solution" with exit 0 and no word that 0 was read as a colour
    (more zeros read as empty cells; exactly two are either a pair or two empty cells)."""
    puzzle = PLUGIN.parse("1 0 1\n2 0 2\n")
    assert puzzle.at(0, 1) == "0" and puzzle.notes and "read as a pair of endpoints" in puzzle.notes[0]
    assert PLUGIN.parse("3 2\n1 0 1\n2 0 2\n").notes == puzzle.notes  # with a 'W H' line: the same
    assert not PLUGIN.parse("1 - 1\n2 0 2\n0 - -\n").notes  # an empty cell written: 0 is a label


def test_a_w_h_line_that_does_not_fit_its_rows_is_named() -> None:
    """QA: '8 6' over rows of 7 said "token '......R' is not a single character"."""
    with pytest.raises(ParseError) as err:
        PLUGIN.parse("8 6\n......R\n.R..Y..\n")
    assert (err.value.line, err.value.column) == (2, 1)
    assert "this row has 7 cells; the 'W H' line 8 6 on line 1 says 8 or 6 per row" in err.value.message
    with pytest.raises(ParseError, match="is followed by no board rows"):
        PLUGIN.parse("7 6\n")


def test_dashes_under_a_comment_line_are_explained() -> None:
    """QA: '-' for empty cells reads fine, but under a '# comment' line (a community file, where
    only '.' is empty) it said "colour '-' appears 32 times" and nothing more."""
    assert PLUGIN.parse("-R-R\nB--B\n").row_strings() == [".R.R", "B..B"]
    with pytest.raises(ParseError, match="only '.' is an empty cell"):
        PLUGIN.parse("# comment here\n-R-R\nB--B\n")


def test_a_url_under_a_title_line_is_named() -> None:
    """QA: a title line above a URL said "token 'My' is not a single character"."""
    with pytest.raises(ParseError) as err:
        PLUGIN.parse("My puzzle\nhttps://puzz.link/p?numlin/5/5/1j2h3m1h2j3\n")
    assert err.value.line == 2 and "this line is a puzzle URL" in err.value.message
