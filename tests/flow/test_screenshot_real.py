"""Screenshot import on real screenshots of the Flow Free app (MIT-licensed, see data/flow_free_pddl)
and on this program's own exports of variant boards (holes and walls at 50 %-200 % scale, crops)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solvers.common.errors import InputError
from solvers.common.protocol import read_text
from solvers.flow import PLUGIN
from solvers.flow.model import FlowPuzzle
from solvers.flow.screenshot import check, detect, read_image, to_puzzle

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data" / "flow_free_pddl"
LABELS = {
    "lvl1": "R.G.Y ..B.O ..... .G.Y. .RBO.",
    "lvl2": "Y.... ..... ..G.. BGR.Y R...B",
    "lvl3": ".YBG. ...R. ..R.. Y..O. B.OG.",
    "lvl21": "GYC.RB ....O. ..C... ..R... G.O... Y.B...",
    "lvl22": ".OB..G ...... ..YR.G ...C.B .RY.CO ......",
    "lvl23": "...... .Y..G. ...R.. ...... ..YBG. ..BR..",
}


def _pairs(endpoints: dict[str, tuple[tuple[int, int], ...]]) -> set[frozenset[tuple[int, int]]]:
    return {frozenset(cells) for cells in endpoints.values()}


@pytest.mark.parametrize("name", sorted(LABELS))
def test_real_app_screenshot_reads_right(name: str) -> None:
    """The app draws glow bars behind the board and a header above it; the board is read exactly
    (size and every endpoint pair; the app's colours may take other letters than the label's)."""
    found = detect(read_image(DATA / f"{name}.jpg"))
    label = FlowPuzzle.from_rows(LABELS[name].split())
    assert (found.rows, found.cols) == (label.rows, label.cols)
    assert _pairs(dict(found.endpoints)) == _pairs(label.endpoints())
    assert not found.walls and not found.holes
    assert check(found) == []


def test_a_misread_grid_is_refused_not_accepted() -> None:
    """The same picture with its board's first row cut away reads one row short: the pairs break or
    the level has no solution, and check() says so instead of accepting a wrong board."""
    img = read_image(DATA / "lvl21.jpg")
    found = detect(img)
    x, y, w, h = found.board
    cut = img.copy()
    cut[: y + h // found.rows + 4] = 0  # black out the header and the first cell row
    try:
        again = detect(cut)
    except InputError:
        return
    assert (again.rows, again.cols) != (6, 6) or _pairs(dict(again.endpoints)) != _pairs(
        dict(found.endpoints)
    )
    assert check(again), "a board that is not the picture's level was accepted"


def _exports(name: str, tmp_path: Path) -> list[tuple[str, np.ndarray, FlowPuzzle]]:
    """Our own PNG export of a variant sample, light and dark, at 50 %-200 % and cropped."""
    from workbench.export import ExportOptions, export

    puzzle = PLUGIN.parse(read_text(ROOT / "assets" / "flow" / "variants" / f"{name}.txt"))
    out = []
    for palette in ("light", "dark"):
        path = tmp_path / f"{name}-{palette}.png"
        export(PLUGIN.draw(puzzle, None), path, ExportOptions(palette=palette))
        img = read_image(path)
        for scale in (0.5, 0.75, 1.0, 1.5, 2.0):
            out.append((f"{palette} x{scale}", cv2.resize(img, None, fx=scale, fy=scale), puzzle))
        m = 18  # inside the outer frame line: the crop cuts the border away
        out.append((f"{palette} crop", img[m:-m, m:-m], puzzle))
        out.append((f"{palette} crop x0.5", cv2.resize(img[m:-m, m:-m], None, fx=0.5, fy=0.5), puzzle))
    return out


@pytest.mark.parametrize("name", ["variant_holes", "variant_walls"])
def test_own_exports_read_holes_and_walls(qapp, name: str, tmp_path: Path) -> None:
    """Holes (drawn shaded and hatched) and walls come back from our own exports at any scale from
    50 % to 200 %, and from crops of the board (issue 29 item 5: holes were silently dropped)."""
    for label, img, puzzle in _exports(name, tmp_path):
        found = detect(img)
        read, notes = to_puzzle(found)
        assert read.cells == puzzle.cells, label
        assert read.walls == puzzle.walls, label
        assert check(found) == [] and notes == [], label


@pytest.mark.parametrize("palette", ["light", "dark"])
def test_own_exports_read_bridges(qapp, tmp_path: Path, palette: str) -> None:
    """A bridge deck as this program draws it (two rails with end ticks, grid-line grey) reads as
    a bridge, in either palette, and the board is accepted as it is."""
    from workbench.export import ExportOptions, export

    puzzle = PLUGIN.parse(read_text(ROOT / "assets" / "flow" / "variants" / "variant_bridges.txt"))
    path = tmp_path / "bridges.png"
    export(PLUGIN.draw(puzzle, None), path, ExportOptions(palette=palette))
    found = detect(read_image(path))
    read, _ = to_puzzle(found)
    assert read.cells == puzzle.cells and found.bridges == ((1, 5),)
    assert check(found) == []


def test_warps_are_refused_with_the_reason(qapp, tmp_path: Path) -> None:
    """What the importer does not read (warps) is said, never dropped into a wrong board."""
    from workbench.export import ExportOptions, export

    puzzle = PLUGIN.parse(read_text(ROOT / "assets" / "flow" / "variants" / "variant_warps.txt"))
    path = tmp_path / "warps.png"
    export(PLUGIN.draw(puzzle, None), path, ExportOptions())
    reasons = check(detect(read_image(path)))
    assert reasons and "warps are not read" in reasons[0]


def test_an_outer_row_of_holes_is_refused() -> None:
    """A grid grown into the header reads as an outer row of holes without a dot: refused, even
    though the level would solve (a real board would simply be one row smaller)."""
    from solvers.flow.screenshot import Detection

    ends = {"R": ((1, 0), (1, 4)), "G": ((2, 0), (2, 4)), "B": ((3, 0), (3, 4)), "Y": ((4, 0), (4, 4))}
    header = Detection(5, 5, ends, holes=tuple((0, c) for c in range(5)))
    assert check(header) == [
        "row 1 of the read 5x5 grid is mostly holes without a dot: the grid reaches past the board"
    ]
    ends = {"R": ((0, 2), (1, 4)), "P": ((1, 0), (1, 3)), "G": ((2, 0), (2, 4)), "B": ((3, 0), (3, 4))}
    ends = {**ends, "Y": ((4, 0), (4, 4))}
    assert check(Detection(5, 5, ends, holes=((0, 0), (0, 1)))) == []  # a shaped level's corner


def test_a_glow_behind_the_board_is_no_wall() -> None:
    """The app paints blurred colour bars behind the board; one across a column of cell edges
    lifts every pixel there, and measured from zero the whole strip read as three walls."""
    img = read_image(DATA / "lvl21.jpg")
    found = detect(img)
    x, y, w, h = found.board
    glow = np.zeros(img.shape, np.float32)
    cv2.rectangle(glow, (x + w // 3, y), (x + w // 3 + w // 4, y + h), (20, 20, 60), -1)
    glow = cv2.GaussianBlur(glow, (0, 0), w / 40)
    again = detect(np.clip(img.astype(np.float32) + glow, 0, 255).astype(np.uint8))
    assert again.walls == () and again.holes == ()
    assert _pairs(dict(again.endpoints)) == _pairs(dict(found.endpoints))
    assert check(again) == []


def test_a_board_not_confirmed_in_time_is_refused() -> None:
    """A solve that runs out of its budget proves nothing: the board is refused, not accepted."""
    found = detect(read_image(DATA / "lvl21.jpg"))
    assert check(found, budget=-1.0) == [
        "could not confirm within -1 s that the read 6x6 board has one solution"
    ]


def test_a_board_with_two_solutions_is_refused(monkeypatch) -> None:
    """The app's levels have exactly one solution (all 661 real boards of the tuning set do): a
    read board with two is not the level in the picture. Under the designed rules such boards are
    rare enough that none came from dropping a pair of real or generated levels, so the solver is
    stubbed to report two solutions."""
    import solvers.flow.solve as flow_solve

    found = detect(read_image(DATA / "lvl21.jpg"))
    real_solve = flow_solve.solve
    monkeypatch.setattr(flow_solve, "solve", lambda puzzle, **kw: iter([object(), object()]))
    assert check(found) == [
        "the read 6x6 board has more than one solution: a pair of dots was probably missed"
    ]
    monkeypatch.setattr(flow_solve, "solve", real_solve)
    assert check(found) == []


def _jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


@pytest.mark.parametrize(
    ("name", "how"),
    [
        ("lvl1", "scaled to 35 % and recompressed"),
        ("lvl21", "contrast raised"),
        ("lvl22", "blurred"),
    ],
)
def test_a_widened_grid_line_is_no_wall(name: str, how: str) -> None:
    """QA: real screenshots scaled down and recompressed, blurred or with contrast raised widened
    grid lines into bars that read as walls (1-8 of them), on edges the solution never uses, so the
    level still checked and the wrong board was accepted. A wall is a bright bar; these are no
    brighter than the grid lines, and the board is refused with where they are."""
    from solvers.flow.screenshot import BoardRefused

    img = read_image(DATA / f"{name}.jpg")
    if how.startswith("scaled"):
        img = _jpeg(cv2.resize(img, None, fx=0.35, fy=0.35, interpolation=cv2.INTER_AREA), 40)
    elif how.startswith("contrast"):
        img = cv2.convertScaleAbs(img, alpha=1.6, beta=128 * (1 - 1.6))
    else:
        img = cv2.GaussianBlur(img, (11, 11), 0)
    with pytest.raises(
        BoardRefused, match=r"wall.* read \(R\dC\d\|R\dC\d.*no brighter than the grid lines"
    ) as refused:
        detect(img)
    assert refused.value.partial.walls  # shown over the picture for the user to check


def _thin_lined_board(rows: list[str], cell: int = 200) -> np.ndarray:
    """A dark board as Flow Free: Bridges draws it: thin olive lines, no margin round the outline."""
    colours = {"R": (0, 0, 255), "G": (0, 128, 0), "B": (255, 0, 0), "Y": (0, 224, 238), "O": (0, 127, 255)}
    height, width = len(rows) * cell + 3, len(rows[0]) * cell + 3
    img = np.zeros((height, width, 3), np.uint8)
    for k in range(len(rows[0]) + 1):
        cv2.line(img, (1 + k * cell, 0), (1 + k * cell, height - 1), (80, 125, 130), 2)
    for k in range(len(rows) + 1):
        cv2.line(img, (0, 1 + k * cell), (width - 1, 1 + k * cell), (80, 125, 130), 2)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                centre = (1 + c * cell + cell // 2, 1 + r * cell + cell // 2)
                cv2.circle(img, centre, int(0.35 * cell), colours[ch], -1, cv2.LINE_AA)
    return img


def test_a_white_margin_round_the_screenshot_keeps_the_outer_cells() -> None:
    """QA: a white margin round a dark screenshot swallowed the board's outline (no thin line
    beside the margin), so outer columns were dropped and, with a whole pair in one, the smaller
    board was accepted. The lattice's lines run a cell past the last line found: that cell is board."""
    rows = LABELS["lvl1"].split()
    for margin in (0, 10, 40):
        img = _thin_lined_board(rows)
        if margin:
            img = cv2.copyMakeBorder(
                img, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=(255, 255, 255)
            )
        found = detect(img)
        assert (found.rows, found.cols) == (5, 5), margin
        assert _pairs(dict(found.endpoints)) == _pairs(FlowPuzzle.from_rows(rows).endpoints())
        assert check(found) == []


def test_a_sliver_of_a_cut_column_is_refused() -> None:
    """QA: a crop that leaves under a tenth of the last column shows no part of its dots, and the
    last inner line passed for the board's outline: the board was read a column short and, with a
    whole pair in that column, accepted (these two levels lose a pair so; the line map drops the
    sliver's short line pieces). Past a real outline the lattice's lines stop; here they run on
    across the sliver. A tight crop (the outline kept) is still read."""
    from solvers.flow.screenshot import BoardRefused
    from solvers.flow.screenshot_synth import Style, level_scene, render

    for seed, side in ((0, "right"), (59, "bottom")):
        img = render(level_scene(6, 6, seed), Style(width=1080, height=2340))
        whole = detect(img)
        x0, y0, sx, sy = whole.grid
        for keep in (0.05, 0.08):
            cut = img[:, : int(x0 + (5 + keep) * sx)] if side == "right" else img[: int(y0 + (5 + keep) * sy)]
            with pytest.raises(BoardRefused, match=f"cuts the board off at its {side} edge"):
                detect(cut)
        x, y, w, h = whole.board
        tight = detect(img[y : y + h, x : x + w])
        assert (tight.rows, tight.cols) == (6, 6) and check(tight) == []


def test_a_board_broken_up_by_blur_is_not_called_two_boards() -> None:
    """QA: a blurred screenshot breaks the board's lines into pieces, and the refusal said the
    picture holds more than one board; it now names blur as well."""
    img = cv2.GaussianBlur(read_image(DATA / "lvl2.jpg"), (11, 11), 0)
    with pytest.raises(
        InputError, match="broken into pieces by blur or compression: crop it to one sharp board"
    ):
        detect(img)


def test_a_cut_outline_is_said() -> None:
    """QA: a crop through a cell row a hair before its far line (0.97 of a row kept) looks just
    like a tight crop that cut the outline off; the row is kept, but nothing shows whether the
    board went on past the picture's edge (a 12x15 board was read as 12x14). It is said."""
    from solvers.flow.screenshot_synth import Style, level_scene, render

    img = render(level_scene(6, 6, 59), Style(width=1080, height=2340))
    whole = detect(img)
    assert not [w for w in whole.warnings if "outline" in w]
    x0, y0, sx, sy = whole.grid
    for rows_kept in (4.97, 5.97):
        cut = detect(img[: int(y0 + rows_kept * sy)])
        assert cut.rows == round(rows_kept)
        assert any("cuts the board's outline off at its bottom edge" in w for w in cut.warnings)


def test_a_tight_crop_of_our_own_board_is_read() -> None:
    """QA: the GUI's board cropped with 6 px below its thick frame was refused as "cut off at its
    bottom edge": the lattice's box ends a few pixels past the last line (the frame's width), which
    passed for a lattice running on to the picture's edge."""
    found = detect(read_image(Path(__file__).parent / "data" / "own_screens" / "app_board_tight_crop.png"))
    label = FlowPuzzle.from_rows(read_text(ROOT / "assets" / "flow" / "samples" / "01-5x5.txt").split())
    assert (found.rows, found.cols) == (5, 5)
    assert _pairs(dict(found.endpoints)) == _pairs(label.endpoints())
    assert check(found) == []
