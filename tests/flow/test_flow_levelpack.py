"""Flow Free's own level-pack lines (header; each pipe of the answer as cell indices): read with
every variant, each level's own answer checked against the board as read, a pack opened at its
first level, split into files, and solved from the command line.

Levels here are our own boards written in that form by ``_line`` (the packs themselves are the
game's and stay outside the repository)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from solvers.common.errors import ParseError
from solvers.flow import PLUGIN, levelpack
from solvers.flow.model import BRIDGE, HOLE, FlowPuzzle
from workbench.cli import main as workbench_main

VARIANTS = Path(__file__).resolve().parents[2] / "assets" / "flow" / "variants"


def _line(puzzle: FlowPuzzle, number: int = 1) -> str:
    """Our board and its first answer in the level-pack form (hex boards a quarter turn back)."""
    solution = next(iter(PLUGIN.solve(puzzle, limit=1)))
    paths = PLUGIN.entries_from_solution(puzzle, solution)
    rows, cols = puzzle.rows, puzzle.cols
    if puzzle.hex:  # ours (r, c) is the pack's (H-1-c, r) on a board 'rows' wide, 'cols' high
        size, index = f"X_{rows}:{cols}", (lambda r, c: (cols - 1 - c) * rows + r)
    else:
        size, index = (f"{cols}:{rows}" if rows != cols else str(cols)), (lambda r, c: r * cols + c)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    bridges = ":".join(str(index(*x)) for x in cells if puzzle.at(*x) == BRIDGE)
    holes = ":".join(f"{index(*x)}_0" for x in cells if puzzle.at(*x) == HOLE)
    walls = ":".join(f"{index(*a)}|{index(*b)}" for a, b in sorted(puzzle.walls))
    head = f"{size},0,{number},{len(paths.items)},{bridges},{holes},{walls}".rstrip(",")
    return ";".join([head, *(",".join(str(index(*x)) for x in path) for _, path in paths.items)])


@pytest.mark.parametrize(
    "name", ["variant_bridges.txt", "variant_holes.txt", "variant_walls.txt", "variant_hex.txt"]
)
def test_each_variant_reads_back_with_its_own_answer(name: str) -> None:
    ours = PLUGIN.parse((VARIANTS / name).read_text(encoding="utf-8"))
    line = _line(ours)
    assert levelpack.looks_like(line)
    [(_, level)] = levelpack.read_each(line)
    assert not isinstance(level, ParseError), level
    board = level.puzzle
    # The same board (labels given in pipe order) and an answer that passes the rule check.
    assert [ch == "." for ch in board.cells] == [ch == "." for ch in ours.cells]
    assert board.walls == ours.walls and board.hex == ours.hex
    assert PLUGIN.check(board, level.answer).ok
    found = list(PLUGIN.solve(board, limit=2))
    assert len(found) == len(list(PLUGIN.solve(ours, limit=2)))


def test_a_plain_level_and_a_rectangle() -> None:
    puzzle = PLUGIN.parse("3,0,1,3;0,1,2;3,4,5;6,7,8")
    assert puzzle.row_strings() == ["R.R", "B.B", "Y.Y"]
    rect = PLUGIN.parse("4:2,0,2,2;0,1,2,3;4,5,6,7")
    assert (rect.rows, rect.cols) == (2, 4)
    # A hole with its drawing suffix, flags after the size.
    [(_, level)] = levelpack.read_each("3+B:I,0,3,2,,4_0B;0,1,2,5,8;3,6,7")
    assert not isinstance(level, ParseError), level
    assert level.puzzle.at(1, 1) == HOLE and PLUGIN.check(level.puzzle, level.answer).ok


def test_warps_wrap_every_open_seam_and_walls_close_some() -> None:
    # 3 wide, 2 high: pipe A runs 2 -> 0 across the row seam; the column seams are walled.
    line = "W_3:2,0,1,2,,,0|3:1|4:2|5;1,2,0;4,5,3"
    [(_, level)] = levelpack.read_each(line)
    assert not isinstance(level, ParseError), level
    board = level.puzzle
    assert board.warp_rows == {0, 1} and board.warp_cols == {0, 1, 2}
    assert PLUGIN.check(board, level.answer).ok
    assert list(PLUGIN.solve(board, limit=2))


def test_a_misread_board_is_refused_not_solved() -> None:
    # The answer's pipe jumps from cell 2 to cell 3 (not neighbours on a 3x3 board): the board as
    # read cannot be the level, so it is refused with the level and the reason.
    [(line, level)] = levelpack.read_each("3,0,7,3;0,1,2,3;4,5;6,7,8")
    assert line == 1 and isinstance(level, ParseError)
    assert "level 7: its own answer breaks the board as read" in str(level)
    with pytest.raises(ParseError, match="level 7"):
        PLUGIN.parse("3,0,7,3;0,1,2,3;4,5;6,7,8")
    with pytest.raises(ParseError, match="the header says 4 pipes"):
        PLUGIN.parse("3,0,1,4;0,1,2;3,4,5;6,7,8")
    with pytest.raises(ParseError, match="at most 200 per side"):
        PLUGIN.parse("300,0,1,1;0,1")
    with pytest.raises(ParseError, match="unknown character"):  # a full-width digit is no size
        PLUGIN.parse("\uff15,0,1,1;0,1")
    with pytest.raises(ParseError, match="more pipes than the 3x3 board has cells"):
        PLUGIN.parse("3,0,1,1;" + "0,1;" * 5000)
    started = time.process_time()
    with pytest.raises(ParseError, match="a pipe longer than the 200x200 board"):  # and at once
        PLUGIN.parse("200,0,1,1;" + ",".join(str(i % 40_000) for i in range(2_000_000)))
    assert time.process_time() - started < 2.0


def test_a_pack_opens_at_level_1_splits_and_solves_from_the_command_line(tmp_path, capsys) -> None:
    pack = tmp_path / "pack.txt"
    lines = ["3,0,1,3;0,1,2;3,4,5;6,7,8", "4:2,0,2,2;0,1,2,3;4,5,6,7", "3,0,3,3;0,1,2,3"]
    pack.write_text("\n".join(lines) + "\n", encoding="utf-8")
    puzzle, entries = PLUGIN.parse_document(pack.read_text())
    assert entries is None  # the level's answer is not the player's
    # Level 3 lists one pipe of three: refused with its line and reason, not counted as a level.
    assert (
        puzzle.notes and "holds 2 levels and 1 line that cannot be read (line 3: level 3" in puzzle.notes[0]
    )
    assert "this is level 1" in puzzle.notes[0]
    assert not PLUGIN.writes_back(pack.read_text())  # Save asks for a new name
    out = tmp_path / "levels"
    out.mkdir()
    assert workbench_main(["flow", "split", str(pack), "--to-dir", str(out)]) == 1
    report = capsys.readouterr().out
    assert "2 written, 1 refused" in report and "level 3" in report
    assert PLUGIN.parse((out / "pack-2.txt").read_text()).row_strings() == ["R..R", "B..B"]
    assert workbench_main(["solve", "flow", lines[0]]) == 0  # a level line as the argument
    assert "unique" in capsys.readouterr().out


# QA's level (the 5x5 of the module docstring) and the same line with one fault each.
QA_LEVEL = "5,0,1,5;18,17,12;21,16,11,6;3,4,9;0,1,2,7,8,13,14,19,24,23,22;20,15,10,5"


@pytest.mark.parametrize(
    ("line", "fault"),
    [
        # A full-width digit looks like ours; int() would even take it. Named with its code point.
        (
            QA_LEVEL.replace("18,", "\uff11\uff18,", 1),
            "'\uff11' (U+FF11 FULLWIDTH DIGIT ONE) in pipe 1 at column 9",
        ),
        (QA_LEVEL.replace("18,", "-18,", 1), "'-' in pipe 1 at column 9"),
        # A trailing word: its first letter is named, not the blank before it.
        (QA_LEVEL + " garbage", "'g' in pipe 5 at column 74"),
        # A blank between two numbers joins nothing: refused, not read as one cell or two.
        (QA_LEVEL.replace("3,4,9", "3,4 9"), "a blank in pipe 3 at column 32"),
        (QA_LEVEL.replace("5,0,1,5", "5,0,1,5x"), "'x' in the pipe count (a number is expected) at column 8"),
        (QA_LEVEL.replace("5,0,1,5", "5+b,0,1,5"), "'b' in the size"),
    ],
)
def test_one_bad_character_is_named_with_its_column(line: str, fault: str) -> None:
    """A line that starts like a header is a level line: its fault is said by this reader, not
    by another form's (it gave "unknown character ','" or "token ... is not a single character")."""
    assert levelpack.looks_like(line)
    with pytest.raises(ParseError) as caught:
        PLUGIN.parse(line)
    assert caught.value.line == 1
    assert caught.value.message.startswith("level 1: ") and fault in caught.value.message


def test_a_bad_level_line_on_the_command_line_is_read_as_one(capsys) -> None:
    line = QA_LEVEL.replace("18,", "-18,", 1)
    assert PLUGIN.looks_like_inline(line)  # it said "no such file: ..."
    assert workbench_main(["solve", "flow", line]) != 0
    err = capsys.readouterr().err
    assert "level 1: '-' in pipe 1 at column 9" in err and "no such file" not in err


def test_blanks_next_to_separators_are_dropped_and_comments_skipped() -> None:
    # Blanks and tabs around ',' and ';' can join nothing, so they are dropped: the same level.
    plain = PLUGIN.parse(QA_LEVEL)
    spaced = QA_LEVEL.replace(",", ", ").replace(";", "\t; ")
    assert levelpack.looks_like(spaced) and PLUGIN.parse(spaced).cells == plain.cells
    # A '#' comment line above the level: a level pack still (it was read as a community file).
    commented = "# Pack 1\n\n" + QA_LEVEL + "\n"
    assert levelpack.looks_like(commented)
    assert PLUGIN.parse(commented).cells == plain.cells
    [(line, level)] = levelpack.read_each(commented)
    assert line == 3 and not isinstance(level, ParseError)
    # A column past dropped blanks still points into the line as written (the '-' is column 14).
    with pytest.raises(ParseError, match=r"line 2: level 1: '-' in pipe 1 at column 14"):
        PLUGIN.parse("# a comment\n  \t5,0,1,1;0,-1")


def test_community_files_with_comments_stay_community_files() -> None:
    # Their '#' lines head board rows (no ',' and ';'), so they are no level pack.
    from solvers.flow import codec

    for text in ["# my favourite puzzle\nR.G\n...\nR.G\n", "# type: square\n# size: 3x3\nR.G\n...\nR.G\n"]:
        assert not levelpack.looks_like(text)
        assert codec.foreign_form(text) == "community"
    assert codec.foreign_form("# Pack 1\n" + QA_LEVEL) == "level pack"


@pytest.mark.parametrize(
    ("line", "fault"),
    [
        # Cut short inside pipe 4 (QA's l_trunc.txt), and right after the header.
        (
            "5,0,1,5;18,17,12;21,16,11,6;3,4,9;0,1,2,",
            "the line ends inside pipe 4 (truncated?); the header says 5 pipes",
        ),
        ("5,0,1,5", "the line ends after the header (truncated?)"),
        # The header's count differs from the pipes listed (l_wrongpipes.txt).
        (QA_LEVEL.replace("5,0,1,5", "5,0,1,4"), "the header says 4 pipes; the line lists 5"),
        ("3,0,1,3;0,1,2;3,4,5", "the header says 3 pipes; the line lists 2"),
        # A cell off the board (level 3 of l_pack.txt), with its column.
        ("3,0,3,2;0,1,2,5,4,3;6,7,9", "cell 9 in pipe 2 is outside the 3x3 board (cells 0..8) at column 25"),
        ("3,0,1,2;0,1,2,5,4,3;6,7," + "9" * 5000, "is outside the 3x3 board"),  # too long for int()
        ("3,0,1,2;0,1,2,5,4,3;6", "pipe 2 holds only cell 6"),
    ],
)
def test_each_pipe_fault_has_its_own_message(line: str, fault: str) -> None:
    """One message ("the header says 5 pipes of cells 0..24") was given for all of these."""
    [(k, level)] = levelpack.read_each(line)
    assert k == 1 and isinstance(level, ParseError)
    assert fault in level.message and "of cells 0.." not in level.message


def test_lines_that_cannot_be_read_are_refused_not_counted() -> None:
    # A garbage line after the level (QA's l_trail.txt) is refused with its line, like an
    # unreadable level (l_pack.txt's level 3): the note counts only the levels that open.
    trail = PLUGIN.parse(QA_LEVEL + "\ngarbage line\n")
    assert trail.notes and trail.notes[0].startswith("the pack holds 1 level and 1 line that cannot be read")
    assert "line 2: not a Flow Free level line" in trail.notes[0] and "'garbage line'" in trail.notes[0]
    pack = "\n".join([QA_LEVEL, "3,0,2,2;0,1,2,5,4,3;6,7,8", "3,0,3,2;0,1,2,5,4,3;6,7,9", "junk"])
    note = PLUGIN.parse(pack).notes[0]
    assert note.startswith("the pack holds 2 levels and 2 lines that cannot be read (line 3: level 3: cell 9")
    assert "also line 4" in note
    # The File > Open chooser lists the refused lines with their line and reason.
    chooser = PLUGIN.collection(pack)
    assert chooser[2].startswith("line 3: cannot be opened (level 3: cell 9 in pipe 2 is outside")
    assert chooser[3].startswith("line 4: cannot be opened (not a Flow Free level line")
