"""The ``.doves`` file reader against an exploratory QA run (2026-11-28): blank lines inside the grid,
repeated header lines, a grid that lost a Boss, and rule options echoed as typed. The inputs are that
run's damaged files, copied here as literal strings."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from solvers.common.errors import InputError, ParseError
from solvers.doves import tablebase
from solvers.doves.cli import main
from solvers.doves.model import GREEN, RED, parse_board, parse_file
from solvers.doves.play import isolated_doves
from solvers.doves.plugin import DovesPlugin
from solvers.doves.rules import Rules

PLUGIN = DovesPlugin()
HEADER = "# Tokyo Doves position: rows top to bottom, '.' = empty square; doves not shown are in hand\n"
D_ISOLATED = "to move: red\n.B.\n\n\n.b.\n"  # a damaged file of the QA run
D_BLANKROWS = "to move: red\nBb\n\n\nA\n"  # a damaged file of the QA run


@pytest.fixture(autouse=True)
def no_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(tablebase.ENV, str(tmp_path / "no-tables"))  # never the user's own tables


# ---- item 4: a blank line inside the grid is an empty row, as ';;' is in a board string ----------
def test_blank_lines_inside_the_grid_are_empty_rows_as_in_the_board_string() -> None:
    # They were dropped: B and b, three rows apart, were read as neighbours and analysed.
    isolated = parse_file(D_ISOLATED)
    assert isolated == parse_board(".B.;;;.b.")
    assert isolated.cells()[0] == (0, 0) and isolated.cells()[1] == (3, 0)
    assert isolated_doves(isolated), "the two Bosses touch no other dove"
    assert parse_file(D_BLANKROWS) == parse_board("Bb;;;A")  # the report's inline 'bB;;;A' layout
    # an empty row is part of legal positions, so it is kept, not refused
    legal = parse_file("bB\n\nAa\n")
    assert legal == parse_board("bB;;Aa") and not isolated_doves(legal)
    # a row of blanks is the same empty row; comments and blank lines around the grid are no rows
    assert parse_file("bB\n   \nAa\n") == legal
    assert parse_file("\n\n# set-up\nbB\n# a note\n\nAa\n\n\nrules: remove=no\n") == legal.with_rules(
        Rules(allow_remove=False)
    )
    assert parse_file("bB\n# a note inside the grid\nAa\n") == parse_board("bB;Aa")


def test_a_position_pulled_apart_by_blank_lines_is_refused_not_analysed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "d_isolated.doves"
    path.write_text(D_ISOLATED)
    assert main(["analyse", str(path), "--depth", "1"], PLUGIN) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "red Boss (B) touches no other dove" in err[0], err


def test_a_huge_blank_gap_inside_the_grid_is_refused_quickly_with_its_line() -> None:
    text = "bB\n" + "\n" * 1_000_000 + "Aa\n"
    clock = time.process_time()
    with pytest.raises(ParseError, match=r"^line 1000002: a position has at most 64 grid rows$"):
        parse_file(text)
    assert time.process_time() - clock < 0.5
    # a gap of comments is no gap, however long
    assert parse_file("bB\n" + "#\n" * 200_000 + "Aa\n") == parse_board("bB;Aa")


# ---- item 5: a header line given twice is refused, naming both lines -----------------------------
@pytest.mark.parametrize(
    ("text", "message"),
    [
        (  # a damaged file of the QA run: the second (inside the grid) used to win
            HEADER + "to move: red\n.By.\nH..a\nA.m.\nto move: green\n..Yb\n",
            "line 6: a second 'to move:' line (the first is on line 2)",
        ),
        (  # a damaged file of the QA run: after the grid, too
            "to move: red\nbB\nto move: green\n",
            "line 3: a second 'to move:' line (the first is on line 1)",
        ),
        ("side: red\nbB\nturn: green\n", "line 3: a second 'to move:' line (the first is on line 1)"),
        (  # a damaged file of the QA run: the first used to win
            "to move: red\nbB\nrules: remove=no\nrules: remove=yes\n",
            "line 4: a second 'rules:' line (the first is on line 3)",
        ),
        (  # a damaged file of the QA run: the second used to be ignored
            "to move: red\nbB\nmoves: +AN1\nmoves: +aS1\n",
            "line 4: a second 'moves:' line (the first is on line 3)",
        ),
    ],
)
def test_a_second_header_line_is_refused(text: str, message: str) -> None:
    for read in (PLUGIN.parse, PLUGIN.parse_document):
        with pytest.raises(ParseError) as info:
            read(text)
        assert str(info.value) == message


def test_one_header_line_of_each_kind_still_reads() -> None:
    position, entries = PLUGIN.parse_document("to move: green\nbB\nrules: remove=no\nmoves: +aS1W1\n")
    assert position == parse_board("bB", GREEN).with_rules(Rules(allow_remove=False))
    assert len(entries.record) == 1
    assert parse_file("bB\nto move: red\n").to_move == RED  # 'to move:' after the grid, once


# ---- a header line between grid rows: the grid is cut in two, as a damaged file would have it ----
@pytest.mark.parametrize(
    ("text", "message"),
    [
        (  # the side to move was silently taken and the rows joined: analysed, exit 0
            "bB\nto move: green\nAa\n",
            "line 2: a 'to move:' line between grid rows (lines 1 and 3); "
            "it belongs before or after the grid",
        ),
        (
            HEADER + "to move: red\nbB\nrules: remove=no\nAa\n",
            "line 4: a 'rules:' line between grid rows (lines 3 and 5); it belongs before or after the grid",
        ),
        (  # blank lines and comments around it change nothing; the first header line is named
            "bB\n\n# a note\nmoves: +AN1\nside: red\n\nAa\n",
            "line 4: a 'moves:' line between grid rows (lines 1 and 7); it belongs before or after the grid",
        ),
    ],
)
def test_a_header_line_between_grid_rows_is_refused(text: str, message: str) -> None:
    for read in (PLUGIN.parse, PLUGIN.parse_document):
        with pytest.raises(ParseError) as info:
            read(text)
        assert str(info.value) == message


def test_a_header_line_between_grid_rows_fails_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "header_mid.doves"
    path.write_text("bB\nto move: green\nAa\n")
    assert main(["analyse", str(path), "--depth", "1"], PLUGIN) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "line 2: a 'to move:' line between grid rows (lines 1 and 3)" in err[0], err


def test_header_lines_before_and_after_the_grid_still_read() -> None:
    expected = parse_board("bB;Aa", GREEN).with_rules(Rules(allow_remove=False))
    assert parse_file("to move: green\nrules: remove=no\nbB\nAa\n") == expected
    assert parse_file("bB\nAa\nto move: green\nrules: remove=no\n") == expected
    assert parse_file("# c\nto move: green\n\nbB\nAa\n\n# c\nrules: remove=no\n\n") == expected
    position, entries = PLUGIN.parse_document("rules: remove=no\nbB\nAa\nto move: green\nmoves: +yS2\n")
    assert position == expected and len(entries.record) == 1


# ---- item 11: a grid that lost a Boss; doves= echoed as typed ------------------------------------
def test_a_missing_boss_names_the_grid_and_the_dove_not_the_first_row() -> None:
    # a damaged file of the QA run: the last row cut to '..' loses b; it said 'line 3'
    text = HEADER + "to move: red\n.By.\nH..a\nA.m.\n..\n"
    with pytest.raises(ParseError) as info:
        parse_file(text)
    assert str(info.value) == (
        "line 6: the green Boss (b) must be on the board: it is missing (the grid is lines 3-6)"
    )
    with pytest.raises(ParseError, match=r"^line 2: the red Boss \(B\) must be on the board: it is missing "):
        parse_file("to move: red\nb\n")


def test_rule_options_echo_the_dove_letters_as_typed() -> None:
    with pytest.raises(InputError) as info:
        Rules.from_text("doves=ZZ/zz")
    assert str(info.value).startswith("doves='ZZ/zz': 'Z' is not a dove letter")
    assert Rules.from_text("REMOVE=NO doves=at/AY") == Rules.from_text("remove=no doves=AT/ay")


def test_the_cli_echoes_the_typed_rule_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "bB;T YA", "--rules", "doves=ZZ/zz", "--depth", "1"], PLUGIN) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "doves='ZZ/zz'" in err[0], err
