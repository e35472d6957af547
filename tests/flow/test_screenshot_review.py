"""The screenshot reading behind the GUI's confirm dialog (Qt-free): the picture, the board read,
whether it may be used, what looks wrong, and the marks drawn over the picture."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.flow.model import FlowPuzzle
from solvers.flow.screenshot import BoardRefused, Detection, check, detect, odd_dots, read_image
from solvers.flow.screenshot_review import SHOW_SIDE, _read_words, review_screenshot
from solvers.flow.screenshot_synth import Scene, Style, encode, level_scene, render

ROOT = Path(__file__).resolve().parents[2]
REAL = Path(__file__).parent / "data" / "flow_free_pddl"


def _write(tmp_path: Path, name: str, img: np.ndarray) -> Path:
    path = tmp_path / name
    path.write_bytes(cv2.imencode(Path(name).suffix, img)[1].tobytes())
    return path


def test_a_real_screenshot_reads_as_usable_with_its_marks() -> None:
    review = review_screenshot(REAL / "lvl21.jpg")
    assert review.ok and review.name == "lvl21.jpg"
    assert review.summary == "6x6, 6 colours, every colour twice, unique designed solution"
    assert review.puzzle == FlowPuzzle.from_rows("GYC.RB ....O. ..C... ..R... G.O... Y.B...".split())
    assert review.image.dtype == np.uint8 and review.image.shape[2] == 3
    dots = [m for m in review.marks if m.kind == "dot"]
    assert len(dots) == 12 and not any(m.alert for m in dots)
    # Each dot mark sits on its dot in the picture: the mark's colour is the pixels' colour there.
    for mark in dots:
        x, y, _ = mark.geometry
        rgb = review.image[round(y), round(x)].astype(int)
        want = np.array([int(mark.colour[i : i + 2], 16) for i in (1, 3, 5)])
        assert np.abs(rgb - want).max() < 40, mark


def test_walls_and_holes_become_marks_and_words(tmp_path) -> None:
    puzzle = FlowPuzzle.from_rows(["R...B", ".....", ".....", ".....", "R...B"])
    scene = Scene(puzzle, walls=(((1, 1), (1, 2)),), holes=((2, 2),))
    path = tmp_path / "walls.png"
    path.write_bytes(encode(render(scene, Style(width=720, height=1280)), ".png"))
    review = review_screenshot(path)
    kinds = [m.kind for m in review.marks]
    assert kinds.count("wall") == 1 and kinds.count("hole") == 1
    [wall_mark] = [m for m in review.marks if m.kind == "wall"]
    x1, y1, x2, y2 = wall_mark.geometry
    assert x1 == x2 and y2 > y1  # the edge between R2C2 and R2C3 is vertical
    found = Detection(5, 5, {"R": ((0, 0), (4, 0))}, walls=(((1, 1), (1, 2)),), holes=((2, 2), (2, 3)))
    assert (
        _read_words(found) == "5x5, 1 colour, every colour twice, 1 wall, 2 holes, unique designed solution"
    )


def test_hex_words_tell_holes_from_cells_outside_the_shape() -> None:
    """A hex board's lattice positions that are no cell are mostly its outline (the shape leaves
    them out), not holes the level has: only a gap inside a row is a hole (as the marks draw)."""
    outline = ((0, 6), (1, 6), (3, 6), (5, 0))  # at the ends of their rows
    found = Detection(6, 7, {"R": ((0, 0), (4, 5))}, holes=(*outline, (2, 3)), hex_frame=(1, 0, 0, 0, 1, 0))
    assert _read_words(found) == (
        "7x6 hex, 1 colour, every colour twice, 1 hole, 4 cells outside the board's shape, "
        "unique designed solution"
    )
    only_shape = Detection(6, 7, {"R": ((0, 0), (4, 5))}, holes=outline, hex_frame=(1, 0, 0, 0, 1, 0))
    assert "hole" not in _read_words(only_shape)


def test_a_large_picture_is_shrunk_for_showing_and_marks_follow(tmp_path) -> None:
    img = read_image(REAL / "lvl2.jpg")
    big = cv2.resize(img, None, fx=2.5, fy=2.5, interpolation=cv2.INTER_CUBIC)
    review = review_screenshot(_write(tmp_path, "big.png", big))
    assert max(review.image.shape[:2]) == SHOW_SIDE
    assert review.ok
    height, width = review.image.shape[:2]
    for mark in review.marks:
        if mark.kind == "dot":
            x, y, r = mark.geometry
            assert 0 < x < width and 0 < y < height and r > 5


def test_a_board_without_dots_comes_back_with_its_grid() -> None:
    """detect() refuses, but says what it found: the grid, for the user to fill in."""
    img = np.zeros((600, 600, 3), np.uint8)
    for i in range(6):  # a 5x5 grid of thin grey lines
        cv2.line(img, (50 + 100 * i, 50), (50 + 100 * i, 550), (120, 120, 120), 2)
        cv2.line(img, (50, 50 + 100 * i), (550, 50 + 100 * i), (120, 120, 120), 2)
    with pytest.raises(BoardRefused) as caught:
        detect(img)
    partial = caught.value.partial
    assert (partial.rows, partial.cols) == (5, 5) and not partial.endpoints
    x0, y0, sx, sy = partial.grid
    assert abs(x0 - 50) < 3 and abs(y0 - 50) < 3 and abs(sx - 100) < 3 and abs(sy - 100) < 3


def test_a_refused_board_keeps_what_was_read(tmp_path) -> None:
    path = _write(tmp_path, "empty-grid.png", _grid_picture())
    review = review_screenshot(path)
    assert not review.ok and review.summary == "no endpoint dots found on the 5x5 grid"
    assert review.puzzle == FlowPuzzle.empty(5, 5)  # a grid to fill in
    assert [m.kind for m in review.marks].count("grid") == 12


def test_a_picture_without_a_grid_has_no_puzzle(tmp_path) -> None:
    img = np.zeros((300, 300, 3), np.uint8)
    cv2.circle(img, (150, 150), 40, (0, 200, 0), -1)
    review = review_screenshot(_write(tmp_path, "dot.png", img))
    assert not review.ok and review.puzzle is None and review.marks == ()
    assert review.summary == "no Flow board found: no grid of lines in the image"


@pytest.mark.parametrize("data", [b"", b"GIF89a\x00", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40])
def test_a_file_that_is_no_picture_raises_input_error(tmp_path, data) -> None:
    path = tmp_path / "bad.png"
    path.write_bytes(data)
    with pytest.raises(InputError, match="bad.png"):
        review_screenshot(path)


def test_cancel_stops_the_check() -> None:
    found = detect(read_image(REAL / "lvl1.jpg"))
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        check(found, cancel=token)
    assert check(found, cancel=CancelToken()) == []


def test_check_on_a_small_board_loads_no_kernel_where_numba_is_imported() -> None:
    """A GUI worker process has numba imported (its warm-up) but maybe not the solver's kernels:
    loading them took 1.1 s of the 2 s budget, so a real level was refused under load. Boards up
    to 400 cells are checked with the plain Python kernels (50 ms at 15x15)."""
    code = (
        "import numba, sys\n"
        "from solvers.common.kernels import Kernel\n"
        "from solvers.flow.screenshot import check, detect, read_image\n"
        f"found = detect(read_image({str(REAL / 'lvl21.jpg')!r}))\n"
        "assert check(found) == []\n"
        "compiled = [n for m in list(sys.modules.values()) for n, k in list(vars(m).items())\n"
        "            if isinstance(k, Kernel) and k._compiled is not None]\n"
        "print(compiled)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


def _grid_picture() -> np.ndarray:
    img = np.zeros((600, 600, 3), np.uint8)
    for i in range(6):
        cv2.line(img, (50 + 100 * i, 50), (50 + 100 * i, 550), (120, 120, 120), 2)
        cv2.line(img, (50, 50 + 100 * i), (550, 50 + 100 * i), (120, 120, 120), 2)
    return img


def _level_with_dot(change: str) -> tuple[np.ndarray, tuple[int, int]]:
    """A real level's screenshot with its first dot redrawn: "larger" (filling its cell) or
    "shifted" (0.09 of a cell to the right). The pairs and the level stay as they were."""
    scene = level_scene(7, 7, 6)
    img = cv2.imdecode(
        np.frombuffer(encode(render(scene, Style(width=720, height=1280)), ".png"), np.uint8), 1
    )
    found = detect(img)
    assert check(found) == []
    x0, y0, sx, _ = found.grid
    letter, cells = next(iter(found.endpoints.items()))
    r, c = cells[0]
    cx, cy = round(x0 + (c + 0.5) * sx), round(y0 + (r + 0.5) * sx)
    colour = tuple(int(found.colours[letter][i : i + 2], 16) for i in (5, 3, 1))  # BGR
    cv2.circle(img, (cx, cy), round(0.42 * sx), (0, 0, 0), -1)
    if change == "larger":
        cv2.circle(img, (cx, cy), round(0.49 * sx), colour, -1, cv2.LINE_AA)
    else:
        cv2.circle(img, (round(cx + 0.09 * sx), cy), round(0.38 * sx), colour, -1, cv2.LINE_AA)
    return img, (r, c)


def test_a_dot_much_larger_than_the_others_makes_the_read_uncertain() -> None:
    img, (r, c) = _level_with_dot("larger")
    found = detect(img)
    assert found.problems() == []  # still paired: only its size gives it away
    [reason] = check(found)
    assert reason.startswith(f"the dot at R{r + 1}C{c + 1} is much larger than the others (radius 0.4")
    assert reason.endswith("the grid or a dot was probably misread")


def test_a_dot_off_its_cells_centre_makes_the_read_uncertain() -> None:
    img, (r, c) = _level_with_dot("shifted")
    found = detect(img)
    assert found.problems() == []
    assert check(found) == [
        f"the dot at R{r + 1}C{c + 1} sits 0.09 of a cell off its cell's centre:"
        " the grid or a dot was probably misread"
    ]


def test_real_dots_are_alike_and_centred() -> None:
    for path in sorted(REAL.glob("*.jpg")):
        found = detect(read_image(path))
        radii = [shape.radius for shape in found.shapes.values()]
        assert max(radii) - min(radii) < 0.02, path.name  # in cells; 0.34 each
        assert max(abs(s.dx) + abs(s.dy) for s in found.shapes.values()) < 0.02, path.name
        assert odd_dots(found) == {}


def test_the_review_rings_the_odd_dot(tmp_path) -> None:
    img, (r, c) = _level_with_dot("larger")
    review = review_screenshot(_write(tmp_path, "larger.png", img))
    assert not review.ok and review.summary.startswith(f"the dot at R{r + 1}C{c + 1} is much larger")
    x0, y0, sx, sy = detect(img).grid
    alerts = [m.geometry[:2] for m in review.marks if m.kind == "dot" and m.alert]
    assert alerts == [(x0 + (c + 0.5) * sx, y0 + (r + 0.5) * sy)]
