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
    assert puzzle.notes and "holds 3 levels; this is level 1" in puzzle.notes[0]
    assert not PLUGIN.writes_back(pack.read_text())  # Save asks for a new name
    out = tmp_path / "levels"
    out.mkdir()
    assert workbench_main(["flow", "split", str(pack), "--to-dir", str(out)]) == 1
    report = capsys.readouterr().out
    assert "2 written, 1 refused" in report and "level 3" in report
    assert PLUGIN.parse((out / "pack-2.txt").read_text()).row_strings() == ["R..R", "B..B"]
    assert workbench_main(["solve", "flow", lines[0]]) == 0  # a level line as the argument
    assert "unique" in capsys.readouterr().out
