"""puzz.link / pzv.jp URLs and pzprv3 files of numlin (Numberlink) and arukone (issue 28, item 3).

The format facts (pzprjs's "number16" cell code) are checked against pzprjs's own sample URL,
decoded by hand, and by round trips."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from unittest.mock import ANY

import pytest

from solvers.common.errors import ParseError
from solvers.flow import codec, pzpr
from solvers.flow.model import EMPTY, FlowPaths, FlowPuzzle
from solvers.flow.plugin import PLUGIN
from workbench.cli import main as workbench_main

SAMPLE = "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"  # pzprjs's sample
# Decoded by hand: '1' a 1; 'j' = 19 - 15 = 4 empty cells; '2'; 'h' = 2 empty; '3'; 'm' = 7 empty;
# '1'; 'h' = 2; '2'; 'j' = 4; '3': 1 + 4 + 1 + 2 + 1 + 7 + 1 + 2 + 1 + 4 + 1 = 25 cells.
SAMPLE_ROWS = ["1....", "2..3.", ".....", ".1..2", "....3"]


def test_the_pzprjs_sample_decodes_as_worked_out_by_hand() -> None:
    puzzle = PLUGIN.parse(SAMPLE)
    assert puzzle.row_strings() == SAMPLE_ROWS and puzzle.rules == "numberlink"
    assert pzpr.encode_url(puzzle) == SAMPLE
    assert pzpr.encode_url(puzzle, "pzv.jp", "play") == "http://pzv.jp/p.html?numlin_play/5/5/1j2h3m1h2j3"


@pytest.mark.parametrize(
    "url",
    [
        "http://pzv.jp/p.html?numlin/5/5/1j2h3m1h2j3",
        "https://puzz.link/p?numlin_edit/5/5/1j2h3m1h2j3",
        "https://puzz.link/p?numlin_play/5/5/1j2h3m1h2j3/",
        "p?numlin/5/5/1j2h3m1h2j3",
        "p.html?numlin/5/5/1j2h3m1h2j3",
        "?numlin/5/5/1j2h3m1h2j3",
        "numlin/5/5/1j2h3m1h2j3",
        "  https://puzz.link/p?numlin/v:/5/5/1j2h3m1h2j3  ",
        # Copied without the scheme (address bars and chat programs drop it).
        "puzz.link/p?numlin/5/5/1j2h3m1h2j3",
        "www.puzz.link/p?numlin/5/5/1j2h3m1h2j3",
        "PZV.JP/p.html?numlin/5/5/1j2h3m1h2j3",
    ],
)
def test_url_forms(url: str) -> None:
    puzzle, entries = PLUGIN.parse_document(url)
    assert puzzle.row_strings() == SAMPLE_ROWS and entries is None


def test_arukone_letters_and_its_e_flag() -> None:
    # 1 = A, 27 = a ('-1b'), 52 = z ('-34'); 'g' = one empty cell.
    body = "1g-34-1bg-1b1g-34"
    filled = PLUGIN.parse(f"https://puzz.link/p?arukone/3/3/{body}")
    assert filled.row_strings() == ["A.z", "a.a", "A.z"] and filled.rules == "flow"
    loose = PLUGIN.parse(f"https://puzz.link/p?arukone/e/3/3/{body}")
    assert loose.row_strings() == filled.row_strings() and loose.rules == "numberlink"
    assert pzpr.encode_url(filled) == f"https://puzz.link/p?arukone/3/3/{body}"
    assert pzpr.encode_url(loose) == f"https://puzz.link/p?arukone/e/3/3/{body}"


def test_number16_codes_and_long_runs_round_trip() -> None:
    # 15 = f, 16 = -10, 255 = -ff, 256 = +100, 999 = +3e7; 50 empty cells = 20 + 20 + 10 = 'zzp'.
    cells = ["15", "16", "255", "256", "999"] + [EMPTY] * 50 + ["15", "16", "255", "256", "999"]
    puzzle = FlowPuzzle(6, 10, tuple(cells), rules="numberlink")
    url = pzpr.encode_url(puzzle)
    assert url == "https://puzz.link/p?numlin/10/6/f-10-ff+100+3e7zzpf-10-ff+100+3e7"
    assert PLUGIN.parse(url) == puzzle


def test_random_boards_round_trip_through_urls_and_files() -> None:
    rng = random.Random(28)
    for trial in range(60):
        rows, cols = rng.randint(1, 12), rng.randint(2, 12)
        numbers = rng.sample(range(1, 1000), (rows * cols) // 2 // rng.randint(1, 3) or 1)
        cells = [EMPTY] * (rows * cols)
        spots = rng.sample(range(rows * cols), 2 * len(numbers))
        for k, n in enumerate(numbers):
            cells[spots[2 * k]] = cells[spots[2 * k + 1]] = str(n)
        puzzle = FlowPuzzle(rows, cols, tuple(cells), rules="numberlink")
        assert PLUGIN.parse(pzpr.encode_url(puzzle)) == puzzle, trial
        assert pzpr.read_pzprv3(pzpr.write_pzprv3(puzzle)) == (puzzle, FlowPaths())
        letters = puzzle.with_cells(
            tuple("AbCdEfGhIjKlMnOpQrStUvWxYz"[int(ch) % 26] if ch != EMPTY else ch for ch in cells)
        )
        if not letters.problems():
            for rules in ("flow", "numberlink"):
                board = FlowPuzzle(rows, cols, letters.cells, rules=rules)
                assert PLUGIN.parse(pzpr.encode_url(board)) == replace(board, labels=True)  # Arukone


def test_a_flow_board_is_written_as_arukone_and_reads_back() -> None:
    puzzle = codec.parse("R.G\n...\nR.G\n")
    url = pzpr.encode_url(puzzle)
    assert url == "https://puzz.link/p?arukone/3/3/-12g7i-12g7"  # R = 18, G = 7
    assert PLUGIN.parse(url) == replace(puzzle, labels=True)  # an Arukone puzzle shows its letters
    assert pzpr.read_pzprv3(pzpr.write_pzprv3(puzzle))[0] == replace(puzzle, labels=True)  # so does its file
    mixed = codec.parse("rules: numberlink\nA . 10\nA . 10\n")
    assert PLUGIN.parse(pzpr.encode_url(mixed)).row_strings() == ["1.2", "1.2"]  # renumbered
    with pytest.raises(ParseError, match="plain square boards only"):
        pzpr.encode_url(codec.parse("shape: hex\nA.A\n"))


def test_pzprv3_files_with_the_pipes_drawn() -> None:
    text = (
        "pzprv3\nnumlin\n2\n3\n1 . 1 \n2 . 2 \n"  # cells
        "1 1 \n0 -1 \n"  # sides between horizontal neighbours
        "0 0 0 \n"  # sides between vertical neighbours
    )
    puzzle, entries = PLUGIN.parse_document(text)
    assert puzzle.row_strings() == ["1.1", "2.2"] and puzzle.rules == "numberlink"
    assert entries is not None and entries.as_dict() == {"1": ((0, 0), (0, 1), (0, 2))}
    assert PLUGIN.parse_document(pzpr.write_pzprv3(puzzle, entries)) == (puzzle, entries)
    arukone = "pzprv3\narukone\n2\n2\ndontpassallcell\nA B \nA B \n0 \n0 \n1 1 \n"
    board, drawn = PLUGIN.parse_document(arukone)
    assert board.rules == "numberlink" and drawn is not None and set(drawn.as_dict()) == {"A", "B"}
    assert pzpr.write_pzprv3(board, drawn) == arukone
    assert PLUGIN.parse("pzprv3\nnumlin\n1\n2\n1 1 \n") == FlowPuzzle(1, 2, ("1", "1"), rules="numberlink")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("https://puzz.link/p?numlin/5/4/1j2h3m1h2j3", "after the last cell of a 5x4 board"),
        ("https://puzz.link/p?numlin/5/5/1j2h3m1h2j", "truncated: it describes 24 of the 25 cells"),
        ("https://puzz.link/p?numlin/5/5/1j2h3m1h2j-f", "'-' must be followed by 2 hex digits"),
        ("https://puzz.link/p?numlin/5/5/1j2h3m1h2j.", "'?' clues"),
        ("https://puzz.link/p?numlin/5/5/1j2h3m1h2j!", "invalid character '!'"),
        ("https://puzz.link/p?numlin/2/1/+3e8+3e8", "number 1000 at R1C1 is out of range 1..999"),
        ("https://puzz.link/p?numlin/2/1/00", "number 0 at R1C1 is out of range"),
        ("https://puzz.link/p?numlin/2/1/=000=000", "over 4095"),
        ("https://puzz.link/p?arukone/2/1/-35-35", "number 53 at R1C1 is out of range 1..52"),
        ("https://puzz.link/p?numlin/5/5", "expected <cols>/<rows>/<body>"),
        ("https://puzz.link/p?numlin/0/5/1", "columns must be a number 1..200"),
        ("https://puzz.link/p?numlin/5/999/1", "rows must be a number 1..200"),
        ("https://puzz.link/p?toichika/6/6/uiburcbvbdd5o15164e", "unknown puzzle type 'toichika'"),
        ("https://puzz.link/p?", "unknown puzzle type ''"),
        ("https://puzz.link/p?numlin/2/1/1g", "number 1 has only one endpoint (R1C1)"),
        (
            "https://puzz.link/p?numlin/3/1/-40-40-40",
            "number 64 has 3 endpoints, at R1C1, R1C2 and R1C3",
        ),
        ("https://puzz.link/p?arukone/e/2/1/1g", "letter 'A' has only one endpoint"),
        ("pzprv3\ntoichika\n2\n2\n", "unknown puzzle type 'toichika'"),
        ("pzprv3\nnumlin\n2\n", "number of columns must be a number"),
        ("pzprv3\nnumlin\n2", "number of columns is missing"),
        ("pzprv3\nnumlin\n1\n2\n1 \n", "needs 2 values, found 1"),
        ("pzprv3\nnumlin\n1\n2\n1 - \n", "'?' clues"),
        ("pzprv3\narukone\n1\n2\nA A \n", "passallcell or dontpassallcell"),
        ("pzprv3\narukone\n1\n2\npassallcell\n1 1 \n", "expected a letter A-Z a-z"),
        ("pzprv3\nnumlin\n1\n2\n1 1 \n7 \n", "a line value is 0, 1 or -1"),
    ],
)
def test_bad_urls_and_files_get_one_clear_line(text: str, words: str, capsys) -> None:
    with pytest.raises(ParseError) as err:
        PLUGIN.parse_document(text)
    assert words in str(err.value)
    if "\n" not in text:
        assert workbench_main(["solve", "flow", text]) == 2
        out = capsys.readouterr()
        assert out.out == "" and len(out.err.strip().splitlines()) == 1 and words in out.err


def test_cli_solves_a_url_and_converts_to_url(capsys, tmp_path) -> None:
    assert workbench_main(["solve", "flow", SAMPLE, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["count"] >= 1
    # Without its scheme the URL is still no file name; a host page without a puzzle is.
    assert workbench_main(["solve", "flow", SAMPLE.removeprefix("https://"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == out | {"seconds": ANY}
    assert workbench_main(["solve", "flow", "puzz.link/list.html"]) == 2
    assert "no such file: 'puzz.link/list.html'" in capsys.readouterr().err
    path = tmp_path / "board.txt"
    path.write_text("\n".join(SAMPLE_ROWS) + "\n")
    assert PLUGIN.cli(["convert", str(path), "--to", "url"]) == 0
    assert capsys.readouterr().out == "https://puzz.link/p?arukone/5/5/1j2h3m1h2j3\n"  # digits: Flow rules
    assert PLUGIN.cli(["convert", SAMPLE, "--to", "url"]) == 0
    assert capsys.readouterr().out == SAMPLE + "\n"
    assert PLUGIN.cli(["convert", SAMPLE, "--to", "pzprv3"]) == 0
    assert capsys.readouterr().out.startswith("pzprv3\nnumlin\n5\n5\n1 . . . . \n")
    assert PLUGIN.cli(["convert", SAMPLE]) == 0
    assert capsys.readouterr().out == "rules: numberlink\n" + "\n".join(SAMPLE_ROWS) + "\n"


def test_huge_and_hostile_inputs_are_quick() -> None:
    import time

    from solvers.flow.model import FlowPaths

    # A pipe snaking over every cell of a 200x200 file is read back as that pipe.
    order = [(r, c if r % 2 == 0 else 199 - c) for r in range(200) for c in range(200)]
    cells = [EMPTY] * 40_000
    cells[0] = "1"
    cells[order[-1][0] * 200 + order[-1][1]] = "1"
    puzzle = FlowPuzzle(200, 200, tuple(cells), rules="numberlink")
    text = pzpr.write_pzprv3(puzzle, FlowPaths.from_dict({"1": order}))
    started = time.process_time()
    again, entries = PLUGIN.parse_document(text)
    assert again == puzzle and entries is not None and len(entries.get("1")) == 40_000
    hostile = [
        "numlin/200/200/" + "1" * 4_000_000,
        "numlin/200/200/" + "+" * 4_000_000,
        "numlin/200/200/" + "z" * 4_000_000,
        "p?numlin/" + "/" * 100_000 + "5/5/1",
        "pzprv3\nnumlin\n200\n200\n" + "1 " * 2_000_000,
    ]
    for bad in hostile:
        with pytest.raises(ParseError):
            PLUGIN.parse_document(bad)
    assert time.process_time() - started < 5.0


# pzprjs's own test data for numlin (test/script/numlin.js) writes pzprv3 files on one line, a
# '/' for each line break, as other solvers do; pzprjs reads both forms. This one: lines branch.
ONE_LINE = (
    "pzprv3/numlin/5/5/1 . . . . /2 . . 3 . /. . . . . /. 1 . . 2 /. . . . 3 /"
    "0 0 0 0 /1 1 1 0 /0 0 0 0 /0 0 0 0 /0 0 0 0 /0 0 0 0 0 /0 1 0 0 0 /0 1 0 0 0 /0 0 0 0 0 /"
)


def test_pzprv3_on_one_line_reads_as_the_file(capsys) -> None:
    puzzle, entries = PLUGIN.parse_document(ONE_LINE)
    assert puzzle.row_strings() == SAMPLE_ROWS and puzzle.rules == "numberlink"
    # The branching lines are read as the three pipes that meet at R2C2, which Check calls broken
    # (they were dropped, and Check said "no rule broken so far": QA pass 8).
    assert entries is not None and set(entries.as_dict()) == {"1", "2", "3"}
    assert PLUGIN.check(puzzle, entries).violations
    assert PLUGIN.parse(ONE_LINE) == PLUGIN.parse(SAMPLE)
    # Our own files, written on one line, read back the same (pipes included).
    solution = next(iter(PLUGIN.solve(puzzle, limit=1)))
    drawn = PLUGIN.entries_from_solution(puzzle, solution)
    file_text = pzpr.write_pzprv3(puzzle, drawn)
    assert PLUGIN.parse_document(file_text.replace("\n", "/")) == (puzzle, drawn)
    assert PLUGIN.check(puzzle, drawn).ok
    # From the command line, as a URL is.
    assert workbench_main(["solve", "flow", ONE_LINE]) == 0
    assert "unique (Numberlink rules)" in capsys.readouterr().out


def test_pzprv3_on_one_line_places_errors_by_column(capsys) -> None:
    bad = "pzprv3/numlin/5/5/1 . . . . /2 . . 3 . /. . x . . /. 1 . . 2 /. . . . 3 /"
    with pytest.raises(ParseError) as err:
        PLUGIN.parse_document(bad)
    assert (err.value.line, err.value.column) == (1, bad.index("x") + 1)
    assert workbench_main(["solve", "flow", bad]) == 2
    assert "line 1, column 45: pzprv3: expected a number" in capsys.readouterr().err
    with pytest.raises(ParseError, match="the cell block needs 5 lines"):
        PLUGIN.parse_document("pzprv3/numlin/5/5")
    with pytest.raises(ParseError, match="unknown puzzle type 'norinori'"):
        PLUGIN.parse_document("pzprv3/norinori/5/5/5/0 0 1 2 2 /")
    huge = "pzprv3/numlin/200/200/" + "/" * 4_000_000
    with pytest.raises(ParseError):
        PLUGIN.parse_document(huge)


def test_a_board_whose_first_row_spells_pzprv3_stays_a_board() -> None:
    # Six letters: a valid board row today; only a pzprv3 header with a puzzle id is a file.
    assert PLUGIN.parse("pzprv3\nzrv3..\n").row_strings() == ["pzprv3", "zrv3.."]
    assert PLUGIN.parse_document("pzprv3\nabcdef\nabcdef\nzrv3..\n")[0].rows == 4
    assert PLUGIN.parse("pzprv3.1\nnumlin\n1\n2\n1 1 \n").row_strings() == ["11"]


# ---- QA findings: files that end early, the writer's words, answers kept, URL forms ---------------

SOLVED = (  # the sample with its answer drawn (pzprjs writes files so)
    "pzprv3\nnumlin\n5\n5\n1 . . . . \n2 . . 3 . \n. . . . . \n. 1 . . 2 \n. . . . 3 \n"
    "1 0 1 1 \n0 0 0 0 \n0 0 0 0 \n0 0 0 0 \n1 1 0 1 \n"  # sides between horizontal neighbours
    "0 1 1 0 1 \n1 1 1 1 1 \n1 1 1 1 1 \n1 0 1 1 0 \n"  # sides between vertical neighbours
)
HEAD_AND_CELLS = SOLVED.split("1 0 1 1 \n")[0]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        # Three of the nine lines drawn, then the end (the last newline gives no line of its own).
        (
            HEAD_AND_CELLS + "0 0 0 0 \n" * 3,
            12,
            "the line block needs 9 lines, the file ends after 3 of them (6 more needed)",
        ),
        # Five across lines, then the end: the down lines are still part of the same block.
        (HEAD_AND_CELLS + "0 0 0 0 \n" * 5, 14, "the line block needs 9 lines, the file ends after 5"),
        # Three of the five cell lines; trailing blank lines are still the end of the file.
        (
            SOLVED[: SOLVED.index(". 1 . . 2")] + "\n\n",
            7,
            "the cell block needs 5 lines, the file ends after 3",
        ),
        ("pzprv3\nnumlin\n5\n5\n", 4, "the cell block needs 5 lines, the file ends before it"),
    ],
)
def test_a_pzprv3_file_that_ends_early_says_so(text: str, line: int, words: str) -> None:
    with pytest.raises(ParseError) as err:
        PLUGIN.parse_document(text)
    assert err.value.line == line and words in err.value.message
    assert "line line" not in str(err.value)


def test_pzprv3_lines_that_are_wrong_are_named_with_their_place() -> None:
    # A blank line inside the block, with more after it, is a line without values (not the end).
    gap = SOLVED.replace("0 0 0 0 \n", "\n", 1)
    with pytest.raises(ParseError) as err:
        PLUGIN.parse_document(gap)
    assert err.value.line == 11 and "a line of the line block needs 4 values, found 0" in err.value.message
    # A bad value in the down lines is placed there, not at the first line of the block.
    bad = SOLVED.replace("1 1 1 1 1 \n1 0 1 1 0", "1 1 1 1 1 \n1 0 1 x 0")
    with pytest.raises(ParseError) as err:
        PLUGIN.parse_document(bad)
    assert (err.value.line, err.value.column) == (18, 7) and "got 'x'" in err.value.message


def test_the_pzprv3_writer_names_a_pzprv3_file_in_its_messages(tmp_path, capsys) -> None:
    row = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    many = codec.parse(f"{row}\n{row}\n")  # 62 colours under Flow rules
    with pytest.raises(ParseError, match="an arukone pzprv3 file holds at most 52") as err:
        pzpr.write_pzprv3(many)
    assert "URL" not in str(err.value)
    with pytest.raises(ParseError, match="an arukone URL holds at most 52"):
        pzpr.encode_url(many)
    hexed = codec.parse("shape: hex\nA.A\n")
    with pytest.raises(ParseError, match="pzprv3 files hold plain square boards only") as err:
        pzpr.write_pzprv3(hexed)
    assert "URL" not in str(err.value)
    path = tmp_path / "b62.txt"
    path.write_text(f"{row}\n{row}\n")
    assert PLUGIN.cli(["convert", str(path), "--to", "pzprv3"]) == 2
    err_text = capsys.readouterr().err
    assert "pzprv3 file holds at most 52" in err_text and "URL" not in err_text


def test_an_answer_drawn_in_a_pzprv3_file_is_written_back() -> None:
    puzzle, entries = PLUGIN.parse_document(SOLVED)
    assert entries is not None and set(entries.as_dict()) == {"1", "2", "3"}
    assert PLUGIN.check(puzzle, entries).ok
    assert pzpr.write_pzprv3(puzzle, entries) == SOLVED  # every line value, as drawn
    # One column: its across lines hold no values, the pipe is in the down lines.
    column = FlowPuzzle(3, 1, ("1", EMPTY, "1"), rules="numberlink")
    pipe = FlowPaths.from_dict({"1": [(0, 0), (1, 0), (2, 0)]})
    assert pzpr.read_pzprv3(pzpr.write_pzprv3(column, pipe)) == (column, pipe)


@pytest.mark.parametrize(
    "url",
    [
        "https://puzz.link/p?numlin%2F5%2F5%2F1j2h3m1h2j3",
        "https://puzz.link/p?numlin%2f5%2f5%2f1j2h3m1h2j3",
        "numlin%2F5%2F5%2F1j2h3m1h2j3",
        "p%3Fnumlin%2F5%2F5%2F1j2h3m1h2j3",
        "https%3A%2F%2Fpuzz.link%2Fp%3Fnumlin%2F5%2F5%2F1j2h3m1h2j3",
        # Wrapped by a mail or chat program: in the body, after '?', after a '/', and on three lines.
        "https://puzz.link/p?numlin/5/5/1j2h3\nm1h2j3\n",
        "https://puzz.link/p?\nnumlin/5/5/1j2h3m1h2j3",
        "https://puzz.link/p\n?numlin/5/5/1j2h3m1h2j3",
        "numlin/5/\n5/1j2h3m1h2j3",
        "\ufeff  https://puzz.link/p?numlin/5/5/1j\r\n2h3m1\r\n  h2j3\r\n",
    ],
)
def test_percent_encoded_and_wrapped_urls_read(url: str) -> None:
    assert pzpr.looks_like_url(url)
    puzzle, entries = PLUGIN.parse_document(url)
    assert puzzle.row_strings() == SAMPLE_ROWS and puzzle.rules == "numberlink" and entries is None


def test_percent_encoded_urls_from_the_command_line(capsys) -> None:
    assert workbench_main(["solve", "flow", "https://puzz.link/p?numlin%2F5%2F5%2F1j2h3m1h2j3"]) == 0
    assert "unique (Numberlink rules)" in capsys.readouterr().out
    assert workbench_main(["solve", "flow", "numlin%2F5%2F5%2F1j2h3m1h2j3"]) == 0
    assert "unique (Numberlink rules)" in capsys.readouterr().out
    # An escape that makes no URL leaves a missing file a missing file.
    assert workbench_main(["solve", "flow", "p%3Fx.txt"]) == 2
    assert "no such file: 'p%3Fx.txt'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "place", "words"),
    [
        # Places count in the text as given: '%21' starts at column 49, the '!' of a wrapped URL
        # is on line 2 after its indentation, the 0 after "numlin%2F" at column 30.
        ("https://puzz.link/p?numlin%2F5%2F5%2F1j2h3m1h2j3%21", (1, 49), "unexpected characters '!'"),
        ("https://puzz.link/p?numlin/5/5/1j2h3\n  m1h2j3!\n", (2, 9), "unexpected characters '!'"),
        ("https://puzz.link/p?numlin%2F0%2F5%2F1", (1, 30), "columns must be a number 1..200"),
        ("https://puzz.link/p?numlin/5/5/1j2h3\nm1h2j\n", (2, 6), "truncated: it describes 24 of the 25"),
        (
            "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3\nhttps://puzz.link/p?numlin/5/5/1j2h3m1h2j3\n",
            (2, 1),
            "a second URL starts here (the first is on line 1): paste one URL at a time",
        ),
        ("numlin/5/5/1j2h3m1h2j3\n\np?numlin/5/5/1j2h3m1h2j3\n", (3, 1), "a second URL starts here"),
        ("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3\n1....\n", (2, 1), "text after the URL of line 1"),
        ("https://puzz.link/p?numlin/5/5/1j2h3\n\nm1h2j3\n", (3, 1), "must have no blank lines or spaces"),
        ("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3\nMy puzzle\n", (2, 1), "text after the URL"),
    ],
)
def test_url_errors_name_the_fault_and_its_place(text: str, place: tuple[int, int], words: str) -> None:
    with pytest.raises(ParseError) as err:
        PLUGIN.parse_document(text)
    assert (err.value.line, err.value.column) == place and words in err.value.message


def test_boards_are_never_taken_for_urls() -> None:
    # Board rows hold no '/', '?' or '://': rows spelling a puzzle id stay a board.
    for text in ("arukone\narukone\n", "R.G\n...\nR.G\n", "rules: numberlink\n1.1\n", "look: ink\nA#A\n"):
        assert not pzpr.looks_like_url(text), text
        assert PLUGIN.parse(text).rows >= 1
    assert PLUGIN.parse("arukone\narukone\n").row_strings() == ["arukone", "arukone"]
    with pytest.raises(ParseError, match="colour 'n' has 4 endpoints"):  # a board's error, not a URL's
        PLUGIN.parse("numlin\nnumlin\n")
    assert not pzpr.looks_like_url("p%3Fx.txt") and not pzpr.looks_like_url("100%25\n")
    # A comment naming where a puzzle came from keeps a community file a community file.
    community = "# from https://puzz.link/p?numlin/5/5/1j2h3m1h2j3\n# type: square\nR.G\n...\nR.G\n"
    assert not pzpr.looks_like_url(community) and codec.foreign_form(community) == "community"
    assert PLUGIN.parse(community).row_strings() == ["R.G", "...", "R.G"]


def test_hostile_wrapped_urls_are_quick() -> None:
    import time

    started = time.process_time()
    for bad in (
        "https://puzz.link/p?numlin/200/200/\n" + "1\n" * 2_000_000,
        "https://puzz.link/p?" + "x" * 4000 + "\n" + ("?" + "x" * 4000 + "\n") * 900,
        "https://puzz.link/p?numlin/5/5/" + "%41" * 1_000_000,
    ):
        with pytest.raises(ParseError):
            PLUGIN.parse_document(bad)
    assert time.process_time() - started < 5.0
