"""Colours drawn for more than one pair (a board with more pairs than the palette has colours):
the dots are paired only when exactly one way to pair them gives a level, proven by the solver."""

from __future__ import annotations

from pathlib import Path

import pytest

from solvers.common.protocol import read_text
from solvers.flow import PLUGIN
from solvers.flow.model import FlowPuzzle
from solvers.flow.screenshot import (
    Detection,
    check,
    checked,
    detect,
    import_screenshot,
    pair_repeats,
    pairings,
    read_image,
    to_puzzle,
)

# 25 pairs on 12x12 (made by ``generate(12, 12, colours=25, seed=1)``): more than the 24 colours
# of this program's diagrams.
REPEATS = Path(__file__).parent / "data" / "repeated_colours_12x12.txt"


def _level() -> FlowPuzzle:
    puzzle = FlowPuzzle.from_rows(["R.G.Y", "..B.O", ".....", ".G.Y.", ".RBO."])
    assert check(_detection(puzzle)) == []
    return puzzle


def _detection(puzzle: FlowPuzzle, merge: dict[str, str] | None = None) -> Detection:
    """What the reader gives for ``puzzle`` when the colours in ``merge`` (letter -> letter) are
    drawn alike: their dots come as one colour of four."""
    merge = merge or {}
    endpoints: dict[str, list[tuple[int, int]]] = {}
    for letter, cells in puzzle.endpoints().items():
        endpoints.setdefault(merge.get(letter, letter), []).extend(cells)
    return Detection(puzzle.rows, puzzle.cols, {k: tuple(sorted(v)) for k, v in endpoints.items()})


def _pairs(found: Detection) -> set[frozenset[tuple[int, int]]]:
    return {frozenset(v) for v in found.endpoints.values()}


def test_pairings_lists_every_way() -> None:
    cells = ((0, 0), (0, 1), (1, 0), (1, 1))
    ways = list(pairings(cells))
    assert len(ways) == 3 and len({frozenset(map(frozenset, w)) for w in ways}) == 3
    assert len(list(pairings(tuple((0, c) for c in range(6))))) == 15


def test_one_colour_drawn_twice_is_paired_by_the_only_way_that_solves() -> None:
    level = _level()
    found = _detection(level, {"O": "R"})  # orange drawn as red: red has four dots
    assert "has 4 dots" in check(found)[0]
    paired, why = pair_repeats(found)
    assert why == ""
    assert _pairs(paired) == {frozenset(v) for v in level.endpoints().values()}
    assert check(paired) == []
    assert "paired by the only way that solves" in paired.warnings[-1]
    assert paired.colours.keys() <= paired.endpoints.keys()


def test_two_colours_drawn_twice_are_paired_too() -> None:
    level = _level()
    paired, reasons = checked(_detection(level, {"O": "R", "Y": "G"}))
    assert reasons == []
    assert _pairs(paired) == {frozenset(v) for v in level.endpoints().values()}


def test_a_pairing_that_is_not_proven_is_refused_with_the_reason() -> None:
    level = _level()
    found = _detection(level, {"O": "R"})
    _, why = pair_repeats(found, budget=0.0)  # no time to prove anything
    assert why.startswith("colours drawn for more than one pair: 'R' (4 dots)") and "could not prove" in why
    # Two ways that both give a level: a 2x2 board of four dots of one colour (rows or columns).
    open_board = Detection(2, 2, {"R": ((0, 0), (0, 1), (1, 0), (1, 1))})
    paired, reasons = checked(open_board)
    assert paired is open_board and len(reasons) == 1
    assert reasons[0].endswith("'R' (4 dots); 2 ways to pair them give a level")


def test_too_many_ways_are_refused_without_solving() -> None:
    found = Detection(6, 6, {"R": tuple((r, c) for r in range(2) for c in range(4))})  # 8 dots: 105 ways
    paired, why = pair_repeats(found)
    assert paired is found and "105 ways to pair them are too many to prove one" in why


def test_an_odd_colour_is_left_to_check() -> None:
    found = Detection(3, 3, {"R": ((0, 0), (0, 2), (2, 0)), "B": ((1, 1), (2, 2))})
    assert pair_repeats(found) == (found, "")
    assert "has 3 dots" in checked(found)[1][0]


@pytest.mark.parametrize("palette", ["light", "dark"])
def test_an_export_with_repeated_colours_reads_back(qapp, tmp_path: Path, palette: str) -> None:
    """This program's own diagram of a board with more pairs than its 24 colours repeats colours
    and labels the dots with their letters; the dots (letters filled) are found and paired."""
    from workbench.export import ExportOptions, export

    level = PLUGIN.parse(read_text(REPEATS))
    path = tmp_path / "repeats.png"
    export(PLUGIN.draw(level, None), path, ExportOptions(palette=palette))
    found = detect(read_image(path))
    assert sum(len(v) for v in found.endpoints.values()) == 50  # every dot, letters and all
    assert any(len(v) == 4 for v in found.endpoints.values())
    paired, why = pair_repeats(found, budget=120)  # wide: the machine may be busy
    assert why == ""
    assert _pairs(paired) == {frozenset(v) for v in level.endpoints().values()}
    assert check(paired, budget=60) == []
    read, _ = to_puzzle(paired)
    assert read.rows == level.rows and {c for v in read.endpoints().values() for c in v} == {
        c for v in level.endpoints().values() for c in v
    }


def test_import_screenshot_pairs_repeated_colours(tmp_path: Path) -> None:
    """File > Import's reader (no review) pairs them too and says so in its notes."""
    import cv2

    from solvers.flow.screenshot_synth import Scene, Style, render

    level = _level()
    img = render(Scene(level), Style(width=720, height=1280))
    found = detect(img)
    x0, y0, sx, sy = found.grid
    orange = tuple(int(v) for v in img[round(y0 + 1.5 * sy), round(x0 + 4.5 * sx)])
    red = tuple(int(v) for v in img[round(y0 + 0.5 * sy), round(x0 + 0.5 * sx)])
    img[(img == orange).all(axis=2)] = red  # orange drawn as red
    path = tmp_path / "shot.png"
    path.write_bytes(cv2.imencode(".png", img)[1].tobytes())
    puzzle, notes = import_screenshot(path)
    assert {frozenset(v) for v in puzzle.endpoints().values()} == {
        frozenset(v) for v in level.endpoints().values()
    }
    assert any("paired by the only way that solves" in note for note in notes)
