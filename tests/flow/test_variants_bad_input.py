"""Flow variants: hostile input for the extended format and the community reader. Each case is an
``InputError`` naming line (and column), never a traceback, and quick even for multi-megabyte text."""

from __future__ import annotations

import time

import pytest

from solvers.common.errors import ParseError
from solvers.flow import codec

BOARD = "A..B\n....\nA..B\n"
BIG_BOARD = "\n".join(["A" + "." * 198 + "A"] + ["." * 200] * 199) + "\n"


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("walls: " + "1,1-1,2 " * 500_000 + "\n" + BOARD, (1, 16), "listed twice"),
        ("walls: " + "x" * 4_000_000 + "\n" + BOARD, (1, 8), "row,column-row,column"),
        ("shape: " + "h" * 4_000_000 + "\n" + BOARD, (1, 8), "square or hex"),
        ("walls: 1,1-1,2 \u0661,\u0661-\u0661,\u0662\n" + BOARD, (1, 16), "row,column-row,column"),
        ("warp rows: 1 \u0662\n" + BOARD, (1, 14), "expected a number 1..3"),
        ("warp columns: \uff12\n" + BOARD, (1, 15), "expected a number 1..4"),
        ("# size: 99999x99999\nA..B\nA..B\n", (1, 9), "1..200"),
        ("# size: " + "9" * 100_000 + "x3\nA..B\nA..B\n", (1, 9), "1..200"),
        ("# size: 0x2\nA..B\nA..B\n", (1, 9), "1..200"),
        ("# size: \u0664x\u0662\nA..B\nA..B\n", (1, 9), "1..200"),
        ("shape: hex\nA..B\n...\nA..B\n", (3, 4), "ragged"),
        ("# type: hex\nA..B\nA..B.\n", (3, 5), "ragged"),
        ("# type: square\nA..B\n....\nA..C\n", (2, 4), "'B' appears 1 time"),
        ("# a level\nred . . blue\n. . . .\nred . . green\n", (2, 9), "'blue' appears 1 time"),
        ("# type: square\n" + "A" * 5_000_000 + "\n", (2, 201), "wider than 200"),
        ("A..B\n+...\nA..B\n", (2, 1), "horizontal lane runs into the border"),
        ("A+.B\n....\nA..B\n", (1, 2), "vertical lane runs into the border"),
        ("A..B\n#+..\nA..B\n", (2, 2), "runs into the hole at R2C1"),
        ("walls: 2,2-2,3\nA..B\n.+..\nA..B\n", (3, 2), "runs into a wall"),
        ("warp rows: 2\nA..B\n#...\nA..B\n", (3, 1), "warp row 2 opens into the hole"),
        ("warp columns: 2\nA#.B\n....\nA..B\n", (2, 2), "warp column 2 opens into the hole"),
    ],
)
def test_bad_variant_input(text: str, where: tuple[int, int], words: str) -> None:
    started = time.process_time()  # CPU time: a parse's cost, not the machine's load
    with pytest.raises(ParseError) as err:
        codec.parse(text)
    assert (err.value.line, err.value.column) == where, err.value
    assert words in err.value.message
    assert time.process_time() - started < 2.0


def test_thousands_of_walls_and_valid_edge_cases() -> None:
    walls = " ".join(f"{r + 1},{c + 1}-{r + 1},{c + 2}" for r in range(200) for c in range(199))
    puzzle = codec.parse(f"walls: {walls}\n{BIG_BOARD}")
    assert len(puzzle.walls) == 200 * 199
    assert codec.parse(codec.serialize(puzzle)) == puzzle
    # A bridge on the border of a warped row crosses the seam; a hole inside a warped row is fine.
    assert codec.parse("warp rows: 2\nA..B\n+.#.\nA..B\n").at(1, 0) == "+"


def test_lone_hole_rows_are_refused() -> None:
    # A saved document's paths section may begin with a bare '#' line: a row that is only a hole
    # would be read as that, so the parser, the hole tool and resizing never make one.
    from solvers.common.protocol import EditEvent
    from solvers.flow.edit import edit

    for text, where in (("#\n", (1, 1)), ("A\n#\nA\n", (2, 1))):
        with pytest.raises(ParseError) as err:
            codec.parse(text)
        assert (err.value.line, err.value.column) == where
    column = codec.parse("A\n.\nA\n")
    assert edit(column, None, EditEvent("press", tool="hole", cell=(1, 0), button="left")) is None
    assert edit(column, None, EditEvent("key", cell=(1, 0), key="#")) is None
    assert codec.parse("A#.\n...\n..A\n").resized(3, 1).cells == ("A", ".", ".")


def test_a_warp_index_with_thousands_of_digits_is_a_located_error() -> None:
    # Found by the fuzz suite: int() refused the 5,000-digit number with a ValueError.
    from solvers.common.errors import ParseError
    from solvers.flow.codec import parse

    with pytest.raises(ParseError, match="warp rows"):
        parse("warp rows: " + "1" * 5000 + "\nA.A\n")


def test_a_repeated_warp_is_refused_like_a_repeated_wall() -> None:
    # 1.9 million repeats were accepted; a repeat is now refused at once (issue 26, item 11).
    text = "warp rows: " + "1 " * 1_900_000 + "\n" + BOARD
    started = time.process_time()
    with pytest.raises(ParseError) as err:
        codec.parse(text)
    assert (err.value.line, err.value.column) == (1, 14)
    assert "warp rows: 1 is listed twice" in err.value.message
    assert time.process_time() - started < 1.0
    with pytest.raises(ParseError, match="warp columns: 2 is listed twice"):
        codec.parse("warp columns: 2 1 2\n" + BOARD)


@pytest.mark.parametrize(
    "text",
    [
        "A.B\n...\nA.B\n# type: hex\n",
        "A.B\n...\nA.B\n\n#   TYPE :  hex  \n",
        "A.B\r\n...\r\nA.B\r\n# type: hex\r\n",
        "A . B\n. . .\nA . B\n# size: 3x3\n# type: hex\n",
    ],
)
def test_a_type_directive_after_the_rows_is_honoured(text: str) -> None:
    # It was read as the paths header of a saved document, and the board solved as square.
    from solvers.flow import document

    assert codec.parse(text).hex
    puzzle, paths = document.parse_document(text)
    assert puzzle.hex and paths is None


def test_a_directive_inside_our_paths_section_stays_a_comment() -> None:
    from solvers.flow import document

    text = "A.B\n...\nA.B\n# paths (row,column from 0, in drawing order)\n# type: hex\nA 0,0 1,0\n"
    puzzle, paths = document.parse_document(text)
    assert not puzzle.hex and paths is not None and paths.get("A") == ((0, 0), (1, 0))


def test_check_calls_a_board_the_solver_refuses_broken() -> None:
    # A hex board with a bridge: solve refuses it, check said "no rule broken so far".
    from solvers.common.words import check_status, check_text
    from solvers.flow import document, rules

    for text in ("shape: hex\nR+R\n...\n", "warp rows: 2\nA..B\n#...\nA..B\n"):
        puzzle, _ = document.parse_document(text)
        result = rules.check(puzzle, None)
        assert check_status(result) == "broken"
        assert result.violations[0].code == "invalidBoard"
        with pytest.raises(ParseError) as err:
            codec.parse(text)
        assert err.value.message in check_text(result)
