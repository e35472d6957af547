"""``workbench flow import IMAGE [--to FILE] [--json]``: output, file, errors (exit 2, one line)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from solvers.flow import PLUGIN
from solvers.flow.model import FlowPuzzle, wall
from solvers.flow.screenshot_synth import Scene, Style, encode, level_scene, random_scene, render

ROOT = Path(__file__).resolve().parents[2]


def _shot(tmp_path: Path, scene: Scene, name: str = "shot.jpg") -> Path:
    path = tmp_path / name
    path.write_bytes(encode(render(scene, Style(width=1080, height=2340)), ".jpg", 75))
    return path


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workbench", "flow", "import", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_import_prints_the_puzzle_and_writes_it(tmp_path: Path, capsys) -> None:
    scene = level_scene(6, 7, 3)
    shot = _shot(tmp_path, scene)
    assert PLUGIN.cli(["import", str(shot)]) == 0
    captured = capsys.readouterr()
    assert PLUGIN.parse(captured.out) == scene.puzzle
    assert captured.err == ""
    out = tmp_path / "read.flow"
    assert PLUGIN.cli(["import", str(shot), "--to", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert PLUGIN.parse(out.read_text(encoding="utf-8")) == scene.puzzle


def test_import_json_with_walls(tmp_path: Path, capsys) -> None:
    scene = level_scene(8, 8, 5, walls=2)
    assert PLUGIN.cli(["import", str(_shot(tmp_path, scene)), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kind"] == "flow" and out["size"] == "8x8" and (out["rows"], out["cols"]) == (8, 8)
    puzzle = PLUGIN.parse("\n".join(out["puzzle"]))
    assert puzzle.cells == scene.puzzle.cells and puzzle.walls == {wall(a, b) for a, b in scene.walls}
    assert {k: [tuple(c) for c in v] for k, v in out["endpoints"].items()} == scene.puzzle.endpoints()
    assert sorted(tuple(map(tuple, w)) for w in out["walls"]) == sorted(scene.walls)
    assert out["problems"] == [] and out["holes"] == []
    # Two walls: Flow Free's own wall levels have 4 or more, so the read is said to be checked.
    assert len(out["notes"]) == 1 and "2 walls read" in out["notes"][0] and "check it" in out["notes"][0]


def _one_error_line(argv: list[str], text: str, capfd) -> None:
    assert PLUGIN.cli(["import", *argv]) == 2
    captured = capfd.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and text in lines[0], captured.err
    assert captured.out == ""


def test_import_errors_exit_2_with_one_line(tmp_path: Path, capfd) -> None:
    odd = Scene(FlowPuzzle.from_rows(["R...B", ".....", "..R..", ".....", "Y...Y"]))
    _one_error_line([str(_shot(tmp_path, odd))], "'B' (blue) has 1 dot (R1C5)", capfd)
    text = tmp_path / "puzzle.png"
    text.write_text("R.R\n", encoding="utf-8")
    _one_error_line([str(text)], "puzzle.png: not an image", capfd)
    good = _shot(tmp_path, level_scene(5, 5, 1))
    _one_error_line([str(tmp_path / "missing.png")], "no such file", capfd)
    _one_error_line([str(good), "--to", str(good)], "--to: refusing to overwrite the screenshot", capfd)
    _one_error_line([str(good), "--to", str(tmp_path / "nowhere" / "x.flow")], "does not exist", capfd)
    _one_error_line([], "the following arguments are required: image", capfd)


def test_damaged_file_in_a_real_process(tmp_path: Path) -> None:
    """The decoders' own stderr chatter must not add lines to the one-line error."""
    data = bytearray(_shot(tmp_path, random_scene(5, 5, random.Random(1))).read_bytes())
    for i in range(2000, len(data) - 100, 997):
        data[i] = (data[i] * 7 + 3) & 255
    bad = tmp_path / "damaged.jpg"
    bad.write_bytes(bytes(data))
    result = _run(str(bad))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench flow: damaged.jpg: damaged image data ("), lines


def test_a_board_without_a_solution_is_refused_not_printed(tmp_path: Path, capfd) -> None:
    """Endpoints in pairs but crossing (a misread picture looks like this): no board on stdout."""
    crossed = Scene(FlowPuzzle.from_rows(["R...G", ".....", ".....", ".....", "G...R"]))
    _one_error_line([str(_shot(tmp_path, crossed))], "the read 5x5 board has no solution", capfd)


def test_batch_import_to_a_folder(tmp_path: Path, capsys) -> None:
    """One level file per image, never over an existing file, and a summary naming each refusal."""
    pack = tmp_path / "pack"
    pack.mkdir()
    first = _shot(tmp_path, level_scene(5, 5, 1), "first.jpg")
    second = _shot(tmp_path, level_scene(6, 6, 2), "second.png")
    crossed = _shot(
        tmp_path, Scene(FlowPuzzle.from_rows(["R...G", ".....", ".....", ".....", "G...R"])), "x.jpg"
    )
    (pack / "second.txt").write_text("keep me\n", encoding="utf-8")
    code = PLUGIN.cli(["import", str(first), str(second), str(crossed), "--to-dir", str(pack)])
    assert code == 1  # some images refused
    out = capsys.readouterr().out.splitlines()
    assert PLUGIN.parse((pack / "first.txt").read_text(encoding="utf-8")) == level_scene(5, 5, 1).puzzle
    assert (pack / "second.txt").read_text(encoding="utf-8") == "keep me\n"
    assert not (pack / "x.txt").exists()
    assert out[0] == f"read     {first} -> {pack / 'first.txt'}"
    assert out[1].startswith(f"refused  {second}: ") and "exists (not overwritten)" in out[1]
    assert out[2].startswith(f"refused  {crossed}: ") and "has no solution" in out[2]
    assert out[3] == f"1 read, 2 refused, into {pack}"
    assert PLUGIN.cli(["import", str(first), "--to-dir", str(tmp_path / "none")]) == 2
    assert PLUGIN.cli(["import", str(first), str(second)]) == 2  # several images need --to-dir


def test_batch_import_json_summary(tmp_path: Path, capsys) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    shot = _shot(tmp_path, level_scene(5, 5, 1), "one.jpg")
    assert PLUGIN.cli(["import", str(shot), str(tmp_path / "none.png"), "--to-dir", str(pack), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert (out["kind"], out["read"], out["refused"]) == ("flow-import", 1, 1)
    assert out["images"][0] == {"image": str(shot), "status": "read", "file": str(pack / "one.txt")}
    assert out["images"][1]["status"] == "refused" and "no such file" in out["images"][1]["reason"]


def test_a_picture_that_cuts_into_the_board_is_refused(tmp_path: Path, capfd) -> None:
    """QA on real screenshots cropped 4-9 % into the board: the cut row or column was dropped, a
    pair with it, and the smaller board (complete and solvable) was accepted. These two levels lose
    a whole pair to the cut, and the rest is a unique level of its own (the wrong accept)."""
    from solvers.flow.screenshot import detect

    for seed, side in ((0, "right"), (59, "bottom")):
        img = render(level_scene(6, 6, seed), Style(width=1080, height=2340))
        whole = detect(img)
        assert (whole.rows, whole.cols) == (6, 6)
        x0, y0, sx, sy = whole.grid
        cut = img[:, : int(x0 + 5.6 * sx)] if side == "right" else img[: int(y0 + 5.5 * sy)]
        path = tmp_path / f"cut_{side}.png"
        path.write_bytes(encode(cut, ".png"))
        _one_error_line([str(path)], f"the picture cuts the board off at its {side} edge", capfd)


def _with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF APP1 segment holding only the Orientation tag (as phone cameras
    write it: the pixels stored turned, the tag saying how to show them)."""
    import struct

    tiff = b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    body = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + jpeg[2:]


def test_a_photo_stored_turned_is_read_as_it_is_shown(tmp_path: Path) -> None:
    """QA: a JPEG stored turned with EXIF Orientation 6 was read from its raw pixels, and the board
    accepted turned a quarter from what every viewer shows (30 of 30 such pictures)."""
    import cv2

    from solvers.flow.screenshot import decode, detect

    scene = level_scene(5, 7, 2)
    shown = render(scene, Style(width=1080, height=2340))
    stored = cv2.rotate(shown, cv2.ROTATE_90_COUNTERCLOCKWISE)  # Orientation 6: turn clockwise to show
    data = _with_orientation(encode(stored, ".jpg", 90), 6)
    found = detect(decode(data))
    assert (found.rows, found.cols) == (7, 5)
    assert {k: tuple(v) for k, v in found.endpoints.items()} == detect(shown).endpoints


def test_two_screenshots_side_by_side_are_refused(tmp_path: Path, capfd) -> None:
    """QA: two screenshots pasted side by side were read as one of the two boards, no word said."""
    import numpy as np

    left = render(level_scene(5, 5, 1), Style(width=720, height=1280))
    right = render(level_scene(6, 6, 2), Style(width=720, height=1280))
    path = tmp_path / "two.png"
    path.write_bytes(encode(np.concatenate([left, right], axis=1), ".png"))
    _one_error_line([str(path)], "the picture holds more than one board", capfd)
