"""Screenshot import: the CI subset of the synthetic test set, this program's own exports, and bad
files (core, no Qt except the exports, which are drawn with the real export path)."""

from __future__ import annotations

import random
import struct
import zlib

import cv2
import numpy as np
import pytest

from solvers.common.errors import InputError
from solvers.common.protocol import read_text
from solvers.flow import PLUGIN
from solvers.flow.model import FlowPuzzle
from solvers.flow.screenshot import decode, detect, import_screenshot, to_puzzle
from solvers.flow.screenshot_synth import (
    Scene,
    Style,
    encode,
    make_case,
    random_scene,
    render,
    synthetic_specs,
)

SUBSET = synthetic_specs(subset=True)


def _pairs(endpoints) -> set[frozenset]:
    return {frozenset(cells) for cells in endpoints.values()}


def test_subset_covers_every_resolution_quality_and_board_kind() -> None:
    names = " ".join(spec.name for spec in SUBSET)
    for token in ("720x1280", "1080x1920", "1080x2340", "1440x3200", "1536x2048", "q95", "q75", "q50"):
        assert token in names
    assert "walls=" in names and "holes=" in names and "png" in names
    assert any(spec.board[0] != spec.board[1] for spec in SUBSET)


@pytest.mark.parametrize("spec", SUBSET, ids=[spec.name for spec in SUBSET])
def test_every_endpoint_of_the_subset(spec) -> None:
    case = make_case(spec)
    found = detect(decode(case.data, case.name))
    truth = case.scene
    assert (found.rows, found.cols) == (truth.puzzle.rows, truth.puzzle.cols)
    assert _pairs(found.endpoints) == _pairs(truth.puzzle.endpoints())
    assert set(found.walls) == set(truth.walls)
    assert set(found.holes) == set(truth.holes)
    assert found.problems() == []
    # the app's colours come back under their own letters
    assert found.endpoints == {k: tuple(v) for k, v in truth.puzzle.endpoints().items()}


@pytest.mark.parametrize(
    "palette,transparent,solved",
    [("light", False, False), ("dark", False, False), ("light", True, False), ("dark", False, True)],
)
def test_own_exports_read_back_exactly(qapp, tmp_path, palette, transparent, solved) -> None:
    from workbench.export import ExportOptions, export

    for sample in PLUGIN.sample_paths():
        puzzle = PLUGIN.parse(read_text(sample))
        # a solved diagram: pipes cross the grid lines and run through the dots
        solution = next(iter(PLUGIN.solve(puzzle, limit=1))) if solved else None
        out = tmp_path / f"{sample.stem}.png"
        export(PLUGIN.draw(puzzle, solution), out, ExportOptions(palette=palette, transparent=transparent))
        imported, notes = import_screenshot(out)
        assert imported == puzzle, sample.name
        assert notes == []


def test_walls_and_holes_are_imported_into_the_puzzle() -> None:
    from solvers.flow.model import HOLE, wall

    scene = random_scene(9, 9, random.Random(4), walls=3, holes=2)
    found = detect(render(scene, Style(width=1080, height=1920)))
    assert set(found.walls) == set(scene.walls) and set(found.holes) == set(scene.holes)
    puzzle, notes = to_puzzle(found)
    assert puzzle.endpoints() == scene.puzzle.endpoints()
    assert puzzle.walls == {wall(a, b) for a, b in scene.walls}
    assert {(r, c) for r in range(9) for c in range(9) if puzzle.at(r, c) == HOLE} == set(scene.holes)
    assert notes == list(found.warnings)
    data = found.to_json()
    assert data["size"] == "9x9" and len(data["walls"]) == 3 and len(data["holes"]) == 2


def _odd_scene() -> Scene:
    # red three times, blue once, yellow a pair
    puzzle = FlowPuzzle.from_rows(["R...B", ".....", "..R..", ".....", "Y.R.Y"])
    return Scene(puzzle)


def test_a_colour_with_one_or_three_dots_is_named() -> None:
    found = detect(render(_odd_scene(), Style(width=720, height=1280)))
    problems = found.problems()
    assert any("'R' (red) has 3 dots (R1C1, R3C3, R5C3)" in p for p in problems)
    assert any("'B' (blue) has 1 dot (R1C5)" in p for p in problems)
    assert len(problems) == 2


def _png_with_size(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    body = chunk(b"IDAT", zlib.compress(b"\0" * 100))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + body + chunk(b"IEND", b"")


def _damaged_jpeg() -> bytes:
    data = bytearray(encode(render(_odd_scene(), Style(width=720, height=1280)), ".jpg", 75))
    for i in range(2000, len(data) - 100, 997):
        data[i] = (data[i] * 7 + 3) & 255
    return bytes(data)


def _table() -> bytes:
    """A grid of tall cells, as a photo or a spreadsheet shows: no Flow board."""
    img = np.zeros((1280, 720, 3), np.uint8)
    for x in range(60, 661, 200):
        cv2.line(img, (x, 200), (x, 1100), (90, 90, 90), 2)
    for y in range(200, 1101, 450):
        cv2.line(img, (60, y), (660, y), (90, 90, 90), 2)
    return encode(img)


GOOD_JPEG = encode(render(_odd_scene(), Style(width=720, height=1280)), ".jpg", 75)


@pytest.mark.parametrize(
    "data,message",
    [
        (b"", "empty file"),
        (b"R.B\n...\nR.B\n", "not an image"),
        ("héllo wörld ١٢٣".encode(), "not an image"),
        (GOOD_JPEG[: len(GOOD_JPEG) // 2], "truncated JPEG"),
        (encode(np.zeros((300, 200, 3), np.uint8))[:-30], "truncated PNG"),
        (_png_with_size(50000, 50000), "image too large (50000x50000"),
        (_damaged_jpeg(), "damaged image data"),
        (encode(np.zeros((1280, 720, 3), np.uint8)), "image is blank"),
        (encode(np.zeros((20, 20, 3), np.uint8)), "image too small"),
        (encode(render(Scene(FlowPuzzle.empty(6, 6)))), "no endpoint dots found on the 6x6 grid"),
        (
            _table(),
            "unreadable grid: a 3x2 grid of 200x450 px cells is no Flow board (a photo, a phone frame or a table?): crop the picture to the board",
        ),
        (
            encode(np.random.default_rng(1).integers(0, 256, (640, 480, 3), dtype=np.uint8)),
            "no grid of lines",
        ),
    ],
    ids=[
        "empty",
        "text",
        "unicode",
        "cut-jpeg",
        "cut-png",
        "bomb",
        "damaged",
        "black",
        "tiny",
        "no-dots",
        "table",
        "noise",
    ],
)
def test_bad_files_give_one_clear_error(data: bytes, message: str, capfd) -> None:
    with pytest.raises(InputError) as info:
        detect(decode(data, "shot.png"))
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert capfd.readouterr().err == ""  # the decoders' own complaints never reach the terminal


def test_import_names_the_file(tmp_path) -> None:
    path = tmp_path / "notes.png"
    path.write_text("not a picture", encoding="utf-8")
    with pytest.raises(InputError, match="notes.png: not an image"):
        import_screenshot(path)
    with pytest.raises(InputError, match="no such file"):
        import_screenshot(tmp_path / "missing.png")
    with pytest.raises(InputError, match="not a regular file"):
        import_screenshot(tmp_path)


def test_grey_png_and_rgba_inputs_decode() -> None:
    img = render(random_scene(6, 6, random.Random(2)), Style(width=720, height=1280))
    rgba = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    assert decode(encode(rgba)).shape == img.shape
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert decode(encode(gray)).shape == img.shape


def test_colours_keep_their_display_colour_when_letters_fall_in_a_to_p() -> None:
    # blue (B) and cyan (C) alone would read as the label form, where C is yellow
    puzzle = FlowPuzzle.from_rows(["B...C", ".....", "C...B"])
    found = detect(render(Scene(puzzle), Style(width=720, height=1280)))
    imported, _ = to_puzzle(found)
    shown = {imported.colour_index(ch) for ch in imported.colours}
    assert shown == {1, 5}  # blue and cyan
    assert _pairs(imported.endpoints()) == _pairs(puzzle.endpoints())
    single = FlowPuzzle.from_rows(["B...C", ".....", "....B"])
    problems = detect(render(Scene(single), Style(width=720, height=1280))).problems()
    assert problems == ["colour 'F' (cyan) has 1 dot (R1C5)"]
