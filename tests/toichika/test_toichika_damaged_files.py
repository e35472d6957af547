"""Damaged files are refused with the line (and column) of the fault, not read as another puzzle.

QA report 2 items 2, 3, 9, 10 and 11: a shortened separator line dropped walls, text after the
pzprv3 blocks and a wrong country count were ignored, answers contradicting a given were ignored,
``convert --to text`` lost the saved game, ``--json`` was ignored and a huge seed was "not a number".
The inputs are the QA files, kept here as literals.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solvers.common.errors import ParseError
from solvers.toichika import PLUGIN
from solvers.toichika.model import DOT, LEFT, QUESTION, RIGHT
from solvers.toichika.pzprv3_codec import read_pzprv3, write_pzprv3
from solvers.toichika.text_format import read_document, read_text, write_document, write_text

BOARD = """toichika
+-+-+-+-+-+-+
|.|.|.|.|. .|
+ +-+ +-+-+-+
|.|. . .|. .|
+-+-+-+-+ +-+
|. .|. .|.|.|
+ +-+-+ +-+-+
|.|.|^|.|^ .|
+ +-+ +-+-+ +
|.|>|. .|.|.|
+-+ + +-+ +-+
|. .|.|. . .|
+-+-+-+-+-+-+
"""

# game.pzprv3 of the QA report ("/" for the line breaks: pzprjs ends each row with a blank)
GAME = (
    "pzprv3/toichika/6/6/14/0 1 2 3 4 4 /0 2 2 2 5 5 /6 6 7 7 5 8 /6 9 10 7 11 11 /"
    "6 12 10 10 13 11 /12 12 10 13 13 13 /. . . . . . /. . . . . . /. . . . . . /"
    ". . 1 . 1 . /. 4 . . . . /. . . . . . /+ . 2 2 2 . /. . . . . 3 /4 . . . . 3 /"
    ". 1 . 1 . . /. . . . 3 . /. . . . . . /"
).replace("/", "\n")


def _replace_line(text: str, number: int, new: str) -> str:
    lines = text.split("\n")
    lines[number - 1] = new
    return "\n".join(lines)


def _error(read, text: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        read(text)
    return info.value


# ---- item 2: a shortened line of the drawing -------------------------------------------------


@pytest.mark.parametrize(
    ("line", "new", "length"),
    [
        (4, "+", 1),  # t_sepline_plus: the separator replaced by its first corner
        (4, "+ +-+ +-+-+", 11),  # t_sepline_short: its last two characters deleted
        (6, "+-+", 3),  # t_sepline_cut3: cut to three characters
        (3, "|.|.|.|.|.", 10),  # a cell line cut before its last cell
    ],
)
def test_a_shortened_line_is_refused_not_read_as_missing_walls(line: int, new: str, length: int) -> None:
    err = _error(read_text, _replace_line(BOARD, line, new))
    assert (err.line, err.column) == (line, length + 1)
    word = "character" if length == 1 else "characters"
    assert f"line is {length} {word}; the frame is 13 wide" in str(err)
    assert str(err).startswith(f"line {line}, column {length + 1}:")


def test_only_trailing_blanks_or_the_right_frame_may_be_missing() -> None:
    puzzle = read_text(BOARD)
    # editors strip trailing blanks; CRLF and extra blanks are fine as before
    assert read_text(BOARD.replace("\n", "  \r\n")) == puzzle
    # the right frame character alone is decoration: nothing about the puzzle is lost without it
    # (inner lines only: the top and bottom frames give the width)
    lines = BOARD.split("\n")
    lines[2:13] = [ln[:-1] if ln[-2] != " " else ln for ln in lines[2:13]]
    no_right_edge = "\n".join(lines)
    assert no_right_edge != BOARD and read_text(no_right_edge) == puzzle
    # a separator whose last wall is absent needs its '+' to say so; with it, it reads as before
    open_end = read_text(_replace_line(BOARD, 4, "+ +-+ +-+-+ +"))
    assert open_end != puzzle and open_end.hwalls[:6] == (False, True, False, True, True, False)
    assert _error(read_text, _replace_line(BOARD, 4, "+ +-+ +-+-+ ")).line == 4


# ---- item 3: pzprv3 blocks ---------------------------------------------------------------------


def test_pzprv3_text_after_the_last_block_is_refused() -> None:
    puzzle, entries = read_pzprv3(GAME)
    # what pzprjs and write_pzprv3 end with: a newline, maybe blank lines, maybe a history record
    assert write_pzprv3(puzzle, entries) == GAME
    assert read_pzprv3(GAME + "\n\n") == (puzzle, entries)
    assert read_pzprv3(GAME + 'history:{\n "type": "toichika"\n}\n') == (puzzle, entries)
    # p_trailing_junk: two junk lines after a blank one
    err = _error(read_pzprv3, GAME + "\nthis is junk\n1 2 3\n")
    assert (err.line, err.column) == (25, 1) and "'this is junk' after the answer rows" in str(err)
    # p_dup_clue_row: the first clue row twice shifts the answers; the last one is left over
    lines = GAME.split("\n")
    dup = "\n".join(lines[:12] + lines[11:])
    err = _error(read_pzprv3, dup)
    assert err.line == 24 and "after the answer rows" in str(err)
    # a file without answers ends after its clue rows
    no_answers = "\n".join(lines[:17]) + "\n"
    assert read_pzprv3(no_answers)[1] == (0,) * 36
    err = _error(read_pzprv3, no_answers + "\n\njunk\n")
    assert err.line == 20 and "'junk' after the clue rows" in str(err)


def test_pzprv3_country_count_must_match_the_ids() -> None:
    err = _error(read_pzprv3, _replace_line(GAME, 5, "4"))  # p_count_wrong: 14 changed to 4
    assert (err.line, err.column) == (5, 1)
    assert "the file says 4 countries, the country ids name 14" in str(err)
    assert _error(read_pzprv3, _replace_line(GAME, 5, "15")).line == 5


# pzprjs numbers its countries 0..n-1 as connected areas, so one id on two separate areas means a
# damaged or hand-edited file; reading it as it stands would solve a puzzle with more countries
# than the file says (exit 0 on a different puzzle).
SPLIT = (
    "pzprv3/toichika/4/4/5/0 1 1 2 /3 1 2 2 /3 3 4 0 /3 4 4 4 /4 . . . /. . . . /. . . . /. . . . /"
).replace("/", "\n")


def test_pzprv3_one_country_id_on_two_separate_areas_is_refused() -> None:
    err = _error(read_pzprv3, SPLIT)  # id 0 on R1C1 and on R3C4, far apart
    assert (err.line, err.column) == (8, 7)
    assert str(err) == "line 8, column 7: pzprv3: country 0 covers two separate areas (R1C1 and R3C4)"
    # the same file through the "pzprv3 in a URL" form and the plug-in's one reader
    url = "https://puzz.link/p?" + SPLIT.replace("\n", "/")
    assert "country 0 covers two separate areas (R1C1 and R3C4)" in str(_error(PLUGIN.parse, url))
    assert "country 0 covers two separate areas" in str(_error(PLUGIN.parse_document, SPLIT))
    # an id that is reused only diagonally is still two areas (countries touch by edges only)
    diagonal = "pzprv3/toichika/2/2/2/0 1 /1 0 /. . /. . /".replace("/", "\n")
    # (the first cell, row by row, outside its id's first part is named: R2C1 of id 1)
    assert "country 1 covers two separate areas (R1C2 and R2C1)" in str(_error(read_pzprv3, diagonal))
    # the fixed file (R3C4 its own country 5) and a country wrapping round another read as before
    fixed = _replace_line(SPLIT, 8, "3 3 4 5 ").replace("\n5\n", "\n6\n", 1)
    assert len(read_pzprv3(fixed)[0].regions) == 6
    ring = "pzprv3/toichika/3/3/2/0 0 0 /0 1 0 /0 0 0 /. . . /. . . /. . . /".replace("/", "\n")
    assert len(read_pzprv3(ring)[0].regions) == 2


def test_pzprv3_split_country_fails_the_cli_with_exit_2(tmp_path: Path, capsys) -> None:
    assert PLUGIN.cli(["uniqueness", _file(tmp_path, SPLIT, "split.pzprv3")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "line 8, column 7: pzprv3: country 0 covers two separate areas (R1C1 and R3C4)" in captured.err


# ---- item 9: answers on given cells ----------------------------------------------------------

ANSWER = "answer\n.vvvv.\n>....<\n>....<\n.^^^^.\n.>..<.\n......\n"


@pytest.mark.parametrize(
    ("row", "new", "line", "column", "message"),
    [
        (5, ".<..<.", 20, 2, "R5C2 is a given '>'; the answer block says '<'"),  # t_answer_conflict2
        (4, ".^+^+.", 19, 3, "R4C3 is a given '^'; the answer block says '+'"),  # t_answer_dot_on_given
        (4, ".^v^^.", 19, 3, "R4C3 is a given '^'; the answer block says 'v'"),
    ],
)
def test_an_answer_contradicting_a_given_is_refused(
    row: int, new: str, line: int, column: int, message: str
) -> None:
    text = BOARD + _replace_line(ANSWER, row + 1, new)
    err = _error(read_document, text)
    assert (err.line, err.column) == (line, column) and message in str(err)


def test_a_given_repeated_in_the_answer_block_is_accepted() -> None:
    puzzle, entries = read_document(BOARD + ANSWER)  # givens written as themselves: stored as nothing
    assert entries is not None
    assert entries[puzzle.index(4, 1)] == 0 and entries[puzzle.index(3, 2)] == 0
    assert entries[puzzle.index(1, 0)] == RIGHT
    assert read_document(write_document(puzzle, entries)) == (puzzle, entries)


def test_a_question_given_takes_an_arrow_but_no_dot_or_arrow_here_mark() -> None:
    puzzle = read_text(BOARD).with_given(0, 0, QUESTION)
    text = write_text(puzzle)
    _, entries = read_document(text + "answer\n<.....\n" + "......\n" * 5)
    assert entries is not None and entries[0] == LEFT
    err = _error(read_document, text + "answer\n+.....\n" + "......\n" * 5)
    assert (err.line, err.column) == (16, 1) and "R1C1 is a given '?'; the answer block says '+'" in str(err)
    marks = "marks\n" + ". . . . . .\n" * 6
    with_marks = text + "answer\n" + "......\n" * 6
    assert read_document(with_marks + marks.replace(". . . . . .", "^ . . . . .", 1))[1] is not None
    err = _error(read_document, with_marks + marks.replace(". . . . . .", "o . . . . .", 1))
    assert err.line == 23 and "R1C1 is a given '?'; the marks block says 'o'" in str(err)
    err = _error(read_document, write_text(read_text(BOARD)) + "answer\n" + "......\n" * 6 + _marks_on_r5c2())
    assert err.line == 27 and "R5C2 is a given '>'" in str(err)


def _marks_on_r5c2() -> str:
    rows = [". . . . . ."] * 6
    rows[4] = ". ^ . . . ."
    return "marks\n" + "\n".join(rows) + "\n"


# ---- item 10: convert keeps the game; --json -------------------------------------------------


def test_convert_to_text_keeps_answers_and_marks(tmp_path: Path, capsys) -> None:
    assert PLUGIN.cli(["convert", _file(tmp_path, GAME, "game.pzprv3"), "--to", "text"]) == 0
    out = capsys.readouterr().out
    puzzle, entries = PLUGIN.parse_document(out)
    assert (puzzle, entries) == read_pzprv3(GAME)
    assert out.endswith("answer\n+.vvv.\n.....<\n>....<\n.^.^..\n....<.\n......\n")
    # pencil marks survive a text-to-text conversion too
    entries = list(entries or ())
    game = write_document(puzzle, tuple(entries)).replace("......\n", "......\nmarks\n" + _marks_free(), 1)
    assert PLUGIN.parse_document(game)[1] != tuple(entries)
    assert PLUGIN.cli(["convert", _file(tmp_path, game), "--to", "text"]) == 0
    assert PLUGIN.parse_document(capsys.readouterr().out) == PLUGIN.parse_document(game)
    assert DOT in PLUGIN.parse_document(game)[1]  # type: ignore[operator]


def _marks_free() -> str:
    rows = [". . . . . ."] * 6
    rows[5] = "o ^< . . . ."
    return "\n".join(rows) + "\n"


def _file(tmp_path: Path, text: str, name: str = "game.toichika") -> str:
    """A file holding ``text`` (the CLI reads files or URLs)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_url_and_convert_json_give_an_object(tmp_path: Path, capsys) -> None:
    url = "https://puzz.link/p?toichika/6/6/uiburcbvbdd5o15164e"
    path = _file(tmp_path, GAME, "game.pzprv3")
    assert PLUGIN.cli(["url", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"kind": "toichika", "url": url}
    assert PLUGIN.cli(["url", path]) == 0
    assert capsys.readouterr().out == url + "\n"
    assert PLUGIN.cli(["convert", path, "--to", "url", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"kind": "toichika", "format": "url", "text": url + "\n"}
    assert PLUGIN.cli(["convert", path, "--to", "pzprv3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["text"] == GAME
    assert PLUGIN.cli(["convert", path, "--to", "text", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "text" and PLUGIN.parse_document(out["text"]) == read_pzprv3(GAME)


# ---- item 11: a huge seed ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "shown"),
    [
        ("99999999999999999999999", "got 99999999999999999999999"),
        ("9223372036854775808", "got 9223372036854775808"),
        ("9" * 5000, "got a 5000-digit number"),
        ("-5", "got -5"),
    ],
)
def test_a_seed_out_of_range_says_so(seed: str, shown: str, capsys) -> None:
    assert PLUGIN.cli(["generate", "2", "3", "--seed", seed]) == 2
    err = capsys.readouterr().err
    assert "--seed: out of range: a seed is 0..9223372036854775807" in err and shown in err
    assert "whole number" not in err


def test_a_seed_that_is_no_number_is_still_called_so(capsys) -> None:
    assert PLUGIN.cli(["generate", "2", "3", "--seed", "1e5"]) == 2
    assert "expected a whole number" in capsys.readouterr().err


def test_a_pzprv3_answer_on_a_given_arrow_is_refused() -> None:
    """The answer rows hold '.' on a given arrow's cell (pzprjs and our writer); any other value
    there was dropped without a word, as the native format's answer block once did."""
    from solvers.toichika import PLUGIN
    from solvers.toichika.pzprv3_codec import read_pzprv3, write_pzprv3

    puzzle = PLUGIN.parse("https://puzz.link/p?toichika/6/6/uiburcbvbdd5o15164e")
    (solution,) = list(PLUGIN.solve(puzzle, limit=1))
    text = write_pzprv3(puzzle, PLUGIN.entries_from_solution(puzzle, solution))
    assert read_pzprv3(text)[0] == puzzle
    lines = text.split("\n")
    r, c = next((r, c) for r in range(6) for c in range(6) if puzzle.given(r, c) in (1, 2, 3, 4))
    first_answer = 5 + 2 * 6
    tokens = lines[first_answer + r].split(" ")
    tokens[c] = "2"
    lines[first_answer + r] = " ".join(tokens)
    with pytest.raises(ParseError) as err:
        read_pzprv3("\n".join(lines))
    assert (
        err.value.line == first_answer + r + 1
        and f"R{r + 1}C{c + 1} holds a given arrow" in err.value.message
    )
