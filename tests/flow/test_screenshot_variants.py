"""Screenshot import of the Flow Free variants: a real Flow Free: Bridges screenshot reads with its
bridge (GPL-3.0 test data, see data/flowsolver_bridges), and a hex lattice reads in the solver's
layout (more in test_screenshot_hex.py)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solvers.common.errors import InputError
from solvers.flow.model import BRIDGE, FlowPuzzle
from solvers.flow.screenshot import check, decode, detect, read_image, to_puzzle
from solvers.flow.screenshot_review import review_screenshot

BRIDGES = Path(__file__).parent / "data" / "flowsolver_bridges" / "bridges_example.jpg"
BRIDGES_LABEL = "BY.RO ..+.. ..Y.. .RO.G BG..."


def _pairs(endpoints) -> set[frozenset[tuple[int, int]]]:
    return {frozenset(cells) for cells in endpoints.values()}


def test_a_real_bridges_screenshot_reads_with_its_bridge() -> None:
    found = detect(read_image(BRIDGES))
    label = FlowPuzzle.from_rows(BRIDGES_LABEL.split())
    assert (found.rows, found.cols) == (5, 5)
    assert found.bridges == ((1, 2),)
    assert _pairs(dict(found.endpoints)) == _pairs(label.endpoints())
    assert not found.walls and not found.holes
    assert check(found) == []  # the one designed solution crosses the bridge
    puzzle, _ = to_puzzle(found)
    assert puzzle.cells[1 * 5 + 2] == BRIDGE
    assert [ch == "." for ch in puzzle.cells] == [ch == "." for ch in label.cells]


def test_the_review_names_and_marks_the_bridge() -> None:
    review = review_screenshot(BRIDGES)
    assert review.ok and review.summary.endswith("1 bridge, unique designed solution")
    assert [m.kind for m in review.marks].count("bridge") == 1


def test_without_its_bridge_the_board_is_refused() -> None:
    """The same picture with the bridge painted over has no solution: refused, not accepted."""
    img = read_image(BRIDGES)
    found = detect(img)
    x0, y0, sx, sy = found.grid
    cell = img.copy()
    cell[round(y0 + 1.1 * sy) : round(y0 + 1.9 * sy), round(x0 + 2.1 * sx) : round(x0 + 2.9 * sx)] = 0
    again = detect(cell)
    assert again.bridges == ()
    [reason] = check(again)
    assert "has no solution" in reason and "bridges" not in reason


@pytest.mark.parametrize("scale", [0.5, 1.5])
def test_a_grey_bar_or_text_in_a_cell_is_no_bridge(scale: float) -> None:
    """One light grey rail across a cell (not two), or a filled grey block, is no bridge."""
    img = read_image(BRIDGES)
    found = detect(img)
    x0, y0, sx, sy = found.grid
    out = img.copy()
    x, y = round(x0 + 3 * sx), round(y0 + 2 * sy)  # an empty cell (row 3, column 4)
    cv2.line(out, (x + 5, y + round(sy / 2)), (x + round(sx) - 5, y + round(sy / 2)), (210, 210, 210), 5)
    x, y = round(x0 + 3 * sx), round(y0 + 4 * sy)  # another (row 5, column 4)
    cv2.rectangle(out, (x + 20, y + 20), (x + round(sx) - 20, y + round(sy) - 20), (210, 210, 210), -1)
    out = cv2.resize(out, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    assert detect(decode(cv2.imencode(".png", out)[1].tobytes())).bridges == ((1, 2),)


def _hex_board(pointy: bool) -> np.ndarray:
    """A board of hexagons drawn as the app draws Flow Free: Hexes (thin dim lines, round dots)."""
    img = np.zeros((1200, 900, 3), np.uint8)
    size = 60.0
    w, h = np.sqrt(3) * size, 2 * size  # pointy side up; transposed below for flat side up
    for row in range(6):
        for col in range(5):
            cx = 150 + col * w + (w / 2 if row % 2 else 0)
            cy = 250 + row * 0.75 * h
            corners = [
                (cx + size * np.cos(np.radians(60 * k + 30)), cy + size * np.sin(np.radians(60 * k + 30)))
                for k in range(6)
            ]
            if not pointy:
                corners = [(y - 100, x + 100) for x, y in corners]
                cx, cy = cy - 100, cx + 100
            cv2.polylines(img, [np.round(corners).astype(np.int32)], True, (90, 110, 110), 2, cv2.LINE_AA)
            if (row + col) % 4 == 0:
                colour = [(0, 0, 255), (255, 0, 0), (0, 200, 0), (0, 220, 220)][(row + col) % 3]
                cv2.circle(img, (round(cx), round(cy)), 38, colour, -1, cv2.LINE_AA)
    return img


@pytest.mark.parametrize("pointy", [True, False], ids=["pointy", "flat"])
def test_a_hex_lattice_reads_in_the_solvers_layout(pointy: bool) -> None:
    """Odd rows shifted right (pointy tops) read as they are; the same board transposed (flat
    tops, odd columns lower) reads as the same board: the solver's odd-r rows."""
    found = detect(decode(cv2.imencode(".png", _hex_board(pointy))[1].tobytes()))
    assert found.hex and (found.rows, found.cols) == (6, 5) and found.holes == ()
    dots = {cell for cells in found.endpoints.values() for cell in cells}
    assert dots == {(r, c) for r in range(6) for c in range(5) if (r + c) % 4 == 0}


def test_a_square_board_without_a_board_is_not_called_hex() -> None:
    img = np.zeros((400, 300, 3), np.uint8)
    cv2.circle(img, (150, 200), 40, (0, 0, 255), -1)
    with pytest.raises(InputError, match="no grid of lines"):
        detect(img)
