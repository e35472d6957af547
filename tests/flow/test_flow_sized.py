"""The 'W H' header form (a popular public Numberlink solver's input and its puzzle collections):
one or many puzzles per file, read, opened, split into a level pack and written."""

from __future__ import annotations

import json

import pytest

from solvers.common.errors import InputError, ParseError
from solvers.flow import PLUGIN, sized
from workbench.cli import main as workbench_main

# Made here, in the form's layout: comments, several puzzles, blank lines between, the end mark.
COLLECTION = """# A collection: comments and blank lines between the puzzles

5 4
C...B
A.BA.
...C.
.....

# the next one uses endpoints past letters and digits
3 2
_._
^.^

0 0
"""
FIRST = ["C...B", "A.BA.", "...C.", "....."]


def _solved_and_checked(puzzle):
    found = list(PLUGIN.solve(puzzle, limit=2))
    assert found and all(PLUGIN.check_solution(puzzle, s).ok for s in found)  # the rule check
    return found


def test_a_collection_opens_at_its_first_puzzle_and_says_how_many() -> None:
    puzzle = PLUGIN.parse(COLLECTION)
    assert (puzzle.cols, puzzle.rows) == (5, 4) and puzzle.row_strings() == FIRST
    assert puzzle.notes and "holds 2 puzzles" in puzzle.notes[0] and "flow split" in puzzle.notes[0]
    assert PLUGIN.parse_document(COLLECTION)[0] == puzzle
    assert len(_solved_and_checked(puzzle)) == 1
    single = PLUGIN.parse("5 4\n" + "\n".join(FIRST) + "\n")
    assert single == puzzle and single.notes == ()


def test_endpoints_past_letters_and_digits_get_our_labels() -> None:
    (_, first), (line, second) = sized.read_each(COLLECTION)
    assert line == 10 and not isinstance(second, Exception)
    assert second.row_strings() == ["R.R", "B.B"]  # mnemonic letters in order of appearance
    assert _solved_and_checked(second)


def test_the_form_is_told_apart_from_our_spaced_rows() -> None:
    # A spaced board whose first row is two numbers stays a spaced board.
    assert PLUGIN.parse("1 2\n1 2\n").row_strings() == ["12", "12"]
    assert not sized.looks_like("1 2\n1 2\n") and sized.looks_like("2 1\n.A\n")


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("5 4\nC...B\nA.BA\n...C.\n.....\n", (3, 5), "this row has 4 cells; the header on line 1 says 5"),
        ("3 3\n...\n...", (1, None), "says 3 rows; the file ends after 2"),
        ("3 3\n...\n...\n", (4, None), "says 3 rows; row 3 is missing"),
        ("3 2\nA.A\n\nB.B\n", (3, None), "row 2 is missing"),
        ("300 1\n" + "A" * 300 + "\n", (1, 1), "the width must be a number 1..200, got 300"),
        ("5 5000\nA...A\n", (1, 3), "the height must be a number 1..200, got 5000"),
        ("3 1\nA.B\n", (2, 1), "endpoint 'A' appears 1 time (needs exactly 2)"),
        ("3 1\nA\u00e9A\n", (2, 2), "unknown character"),
        ("2 1\nAA\nrubbish\n", (3, 1), "'rubbish' comes after the board's rows, where a 'W H' line"),
    ],
)
def test_bad_files_get_one_clear_line(text: str, where, words: str) -> None:
    with pytest.raises(ParseError) as err:
        for _, found in sized.read_each(text):
            if isinstance(found, ParseError):
                raise found
    assert (err.value.line, err.value.column) == where and words in err.value.message


def test_split_writes_a_level_pack_and_reports_the_refused(tmp_path, capsys) -> None:
    source = tmp_path / "pack.txt"
    source.write_text(COLLECTION.replace("0 0\n", "300 1\n" + "A" * 300 + "\n"), encoding="utf-8")
    out = tmp_path / "levels"
    out.mkdir()
    assert workbench_main(["flow", "split", str(source), "--to-dir", str(out), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert (report["written"], report["refused"]) == (2, 1)
    assert "width must be a number 1..200" in report["puzzles"][2]["reason"]
    assert sorted(p.name for p in out.iterdir()) == ["pack-1.txt", "pack-2.txt"]
    assert PLUGIN.parse((out / "pack-1.txt").read_text()).row_strings() == FIRST
    # Never over an existing file.
    assert workbench_main(["flow", "split", str(source), "--to-dir", str(out)]) == 1
    assert "exists (not overwritten)" in capsys.readouterr().out
    assert workbench_main(["flow", "split", str(source), "--to-dir", str(tmp_path / "none")]) == 2
    assert "is no existing folder" in capsys.readouterr().err


def test_the_cli_solves_the_first_with_a_note_and_writes_the_form(tmp_path, capsys) -> None:
    source = tmp_path / "pack.txt"
    source.write_text(COLLECTION, encoding="utf-8")
    assert workbench_main(["solve", "flow", str(source)]) == 0
    out = capsys.readouterr()
    assert "unique" in out.out and "holds 2 puzzles" in out.out  # said with the verdict
    assert workbench_main(["flow", "convert", str(source), "--to", "wh"]) == 0
    text = capsys.readouterr().out
    assert text == "5 4\n" + "\n".join(FIRST) + "\n" and PLUGIN.parse(text).row_strings() == FIRST
    with pytest.raises(InputError, match="plain square boards"):
        sized.serialize(PLUGIN.parse("shape: hex\nA.A\n"))


def test_the_form_with_spaced_rows_as_other_tools_write_it() -> None:
    # A 'W H' line over spaced rows ('.' empty), as a SAT-based solver's data files are written.
    text = "4 3\n1 . . 2 \n. . . . \n1 . . 2 \n"
    puzzle = PLUGIN.parse(text)
    assert puzzle.row_strings() == ["1..2", "....", "1..2"] and PLUGIN.parse_document(text)[0] == puzzle
    assert _solved_and_checked(puzzle)
    # Ours wins where both read: this is our 2x2 spaced board with labels 2 and 1.
    assert PLUGIN.parse("2 1\n2 1\n").row_strings() == ["21", "21"]
    with pytest.raises(ParseError) as err:
        PLUGIN.parse("4 3\n1 . . 2 \n. . . \n1 . . 2 \n")
    assert err.value.line == 3 and "this row has 3 cells; the header on line 1 says 4" in err.value.message


def test_number_grids_with_0_for_an_empty_cell() -> None:
    """Another tool's benchmark boards are spaced numbers with 0 for an empty cell; '0' was read
    as a colour with dozens of endpoints."""
    grid = "1 0 0 2\n0 0 0 0\n1 0 0 2\n"
    puzzle = PLUGIN.parse(grid)
    assert puzzle.row_strings() == ["1..2", "....", "1..2"]
    assert _solved_and_checked(puzzle)
    # A 0 that is a label (twice) stays one, and our own spaced files (empty cells as '-') too.
    assert PLUGIN.parse("0 1\n0 1\n").row_strings() == ["01", "01"]
    ours = PLUGIN.parse("0 - 0\n10 - 10\n")
    assert [ours.at(0, 0), ours.at(0, 1), ours.at(0, 2), ours.at(1, 0)] == ["0", ".", "0", "10"]
    with pytest.raises(ParseError, match="colour '7' has only one endpoint"):
        PLUGIN.parse("1 0 0 7\n0 0 0 0\n1 0 0 0\n")


def test_a_header_with_the_rows_first() -> None:
    """A public dataset writes Janko's puzzles as 'rows cols' over spaced rows; the first row's
    length tells the order, and a header that fits neither way is named."""
    text = "2 4\n1 - - 2\n1 - - 2\n"  # 2 rows of 4
    puzzle = PLUGIN.parse(text)
    assert (puzzle.rows, puzzle.cols) == (2, 4) and puzzle.row_strings() == ["1..2", "1..2"]
    assert PLUGIN.parse("4 2\n1 - - 2\n1 - - 2\n") == puzzle  # width first
    with pytest.raises(ParseError, match="says 3 rows; the file ends after 2"):
        PLUGIN.parse("3 4\n1 - - 2\n1 - - 2")


def test_our_own_board_with_a_mistake_keeps_our_message() -> None:
    # '1 2' over '1 3' reads as a 'W H' line too; the mistake is ours to name: '2' has one end.
    with pytest.raises(ParseError, match="colour '2' has only one endpoint"):
        PLUGIN.parse("1 2\n1 3\n")
    with pytest.raises(ParseError, match="endpoint '2' appears 1 time"):  # rows only a header fits
        PLUGIN.parse("4 3\n1 . . 2 \n. . . . \n1 . . 3 \n")


def test_text_after_a_lone_board_is_an_error_not_dropped() -> None:
    """QA: '3 2' over three rows read as a 3x2 board and said "unique (designed)" with exit 0; the
    three rows alone have no solution. A header giving too few rows must not pass unnoticed."""
    for text, line in (("3 2\nA.A\nB.B\n...\n", 4), ("3 2\nA.A\nB.B\nmy note\n", 4)):
        with pytest.raises(ParseError) as err:
            PLUGIN.parse(text)
        assert err.value.line == line and "does the header give too few rows?" in err.value.message
    # A comment after the board, the end mark and blank lines are fine.
    assert PLUGIN.parse("3 2\nA.A\nB.B\n# solved by hand\n\n0 0\n").row_strings() == ["A.A", "B.B"]


def test_a_collection_broken_in_the_middle_says_where_reading_stops(tmp_path, capsys) -> None:
    """QA: a 5-puzzle file whose 3rd puzzle lacks a row said "holds 2 puzzles" and sent the user to
    'flow split', which wrote nothing."""
    good = "3 1\nA.A\n\n"
    text = good + good + "3 2\nB.B\n\n3 1\nC.C\n\n" + good + good
    notes = PLUGIN.parse(text).notes
    assert len(notes) == 1 and "holds at least 2 puzzles; reading stops at line 9" in notes[0]
    found = sized.read_each(text)
    assert [isinstance(p, ParseError) for _, p in found] == [False, False, True]
    source = tmp_path / "broken.txt"
    source.write_text(text, encoding="utf-8")
    (tmp_path / "out").mkdir()
    assert workbench_main(["flow", "split", str(source), "--to-dir", str(tmp_path / "out")]) == 1
    out = capsys.readouterr().out
    assert "2 written, 1 refused" in out and "the file is not read past this" in out
    assert len(list((tmp_path / "out").iterdir())) == 2


def test_the_chooser_counts_only_the_puzzles_it_can_open() -> None:
    """QA: a file whose last entry cannot be read said "puzzle 2 of 3 in the file"."""
    from solvers.flow import collection_files

    good = "3 1\nA.A\n\n"
    text = good + good + "3 2\nB.B\n\n3 1\nC.C\n"
    assert collection_files.puzzle_at(text, 1).notes == ("puzzle 2 of 2 in the file (1 more cannot be read)",)
    assert collection_files.labels(text)[2].startswith("line 9: cannot be opened")
