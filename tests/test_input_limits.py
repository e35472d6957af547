"""The shared input limits (solvers/common/limits.py) and the issue-15 cases they close."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from solvers.common import registry
from solvers.common.errors import InputError, ParseError
from solvers.common.limits import MAX_INPUT_BYTES, ascii_int, body_lines, is_ascii_digits, nonblank_lines
from solvers.common.protocol import read_text

ROOT = Path(__file__).resolve().parents[1]


# ---- numbers --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["²", "٣", "１", "1²", "+1", " 1", "1_0", "", "-", "--1"])
def test_only_ascii_digits_count_as_digits(text: str) -> None:
    assert not is_ascii_digits(text)
    with pytest.raises(ParseError, match="must be a number"):
        ascii_int(text, "size", 100, signed=True)


def test_ascii_int_bounds_and_locates() -> None:
    assert ascii_int("007", "size", 100) == 7
    assert ascii_int("-1", "id", 10, minimum=-1, signed=True) == -1
    with pytest.raises(ParseError) as info:
        ascii_int("9" * 100_000, "rows", 100, line=3, column=1)  # never converted: no int-string limit
    assert (info.value.line, info.value.column) == (3, 1)
    assert len(str(info.value)) < 120
    with pytest.raises(ParseError, match="1..100, got 0"):
        ascii_int("0", "rows", 100, minimum=1)


# ---- line helpers ---------------------------------------------------------------------------------
def test_line_helpers_keep_line_numbers() -> None:
    assert body_lines("\ufeff\r\n\r\n  ab\r\ncd\n\n") == (["  ab", "cd"], 2)
    assert body_lines(" \n\t\n") == ([], 0)
    text = "\n\na\n \n b #\n # x\n#\nc"
    assert list(nonblank_lines(text)) == [(3, "a"), (5, " b #"), (6, " # x"), (7, "#"), (8, "c")]
    assert list(nonblank_lines(text, comment="#")) == [(3, "a"), (5, " b #"), (8, "c")]


# ---- reading files --------------------------------------------------------------------------------
def _finishes(fn, seconds: float = 30.0) -> BaseException | None:
    """Run ``fn`` in a thread; fail if it blocks. Returns what it raised."""
    out: list[BaseException | None] = [None]

    def run() -> None:
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            out[0] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "reading blocked"
    return out[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.flow"
    os.mkfifo(fifo)
    error = _finishes(lambda: read_text(fifo))
    assert isinstance(error, InputError) and "not a regular file" in str(error)
    error = _finishes(lambda: registry.get("flow").parse_document_input(str(fifo)))
    assert isinstance(error, InputError) and "not a regular file" in str(error)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_device_is_refused() -> None:
    error = _finishes(lambda: read_text(Path("/dev/zero")))
    assert isinstance(error, InputError) and "not a regular file" in str(error)


def test_folder_big_and_binary_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="a folder"):
        read_text(tmp_path)
    big = tmp_path / "big.flow"
    big.write_bytes(b"." * (MAX_INPUT_BYTES + 1))
    with pytest.raises(InputError, match="too large"):
        read_text(big)
    binary = tmp_path / "x.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(InputError, match="not a text file"):
        read_text(binary)
    latin1 = tmp_path / "x.txt"
    latin1.write_bytes("caf\xe9\n".encode("latin-1"))
    with pytest.raises(InputError, match="not a text file .invalid UTF-8 at byte 3"):
        read_text(latin1)
    ok = tmp_path / "ok.flow"
    ok.write_bytes(b"\xef\xbb\xbfA.A\r\n")
    assert read_text(ok) == "A.A\n"


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "a JPEG"),
        (b"GIF89a\x01\x00\x01\x00\x80\x00", "a GIF"),
        (b"RIFF\x24\x00\x00\x00WEBPVP8 ", "a WebP"),
    ],
)
def test_a_picture_opened_as_a_puzzle_is_named(tmp_path: Path, head: bytes, kind: str) -> None:
    """QA: a screenshot renamed .flow said "not a text file (binary data: a NUL byte at offset 4)";
    it now says it is a picture, and where pictures are read."""
    picture = tmp_path / "level.flow"
    picture.write_bytes(head + bytes(range(256)))
    with pytest.raises(InputError, match=f"not a text file: it is {kind} picture .*Import Screenshot"):
        read_text(picture)
    text_like = tmp_path / "bm.txt"  # a text that starts like a BMP stays text
    text_like.write_bytes(b"BM..\n")
    assert read_text(text_like) == "BM..\n"


def test_inline_argument_over_the_cap_is_refused() -> None:
    with pytest.raises(InputError, match="too large"):
        registry.get("flow").parse_document_input("A\n" * (MAX_INPUT_BYTES // 2 + 1))


# ---- the cases, module by module ------------------------------------------------------------
TOICHIKA = (ROOT / "assets" / "toichika" / "samples" / "a_6x6_first_steps.toichika").read_text()


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [
        ("example", "1²\n21\n", "line 1, column 2: unexpected character '²'"),
        ("ninetiles", "²²²²²²²²²000000000", "line 1, column 1: character '²' is not a tile number"),
        ("ninetiles", "2F1 0B2 6F1\n7B3 4F0 5F0\n8F1 1B3 ²F1", "line 3, column 9: bad tile '²F1'"),
        ("toichika", "https://puzz.link/p?toichika/²/3/abc", "column 30: URL: columns must be a number"),
        (
            "toichika",
            "https://puzz.link/p?toichika/" + "9" * 5000 + "/3/abc",
            "columns must be a number 1..100",
        ),
        ("toichika", "pzprv3\ntoichika\n²\n2\n1\n", "line 3, column 1: pzprv3: the number of rows"),
        (
            "toichika",
            "pzprv3\ntoichika\n" + "9" * 5000 + "\n2\n1\n",
            "line 3, column 1: pzprv3: the number of rows",
        ),
        ("toichika", "pzprv3\ntoichika\n1\n2\n1\n0 --1 \n. . \n", "line 6, column 3: pzprv3: country id"),
        ("toichika", TOICHIKA[:95], "line 8: the board drawing ends without its bottom frame"),
        ("xcetero", "1.2/.3./... 4 rep=" + "9" * 5000, "column 15: rep=N must be a number 0..99"),
        ("xcetero", "1.2/.3./... 4 rep=٣", "unexpected 'rep=٣'"),
        ("flow", "A" * 300, "line 1, column 201: board is wider than 200 cells"),
        ("flow", "A.A\n#\nA 0,0 ²,1", "line 3, column 7: expected row,column, got '²,1'"),
    ],
)
def test_bad_numbers_and_cut_files_give_located_errors(kind: str, text: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        registry.get(kind).parse_document(text)
    assert message in str(info.value)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize(
    "argv",
    [
        ["ninetiles", "score", "²²²²²²²²²000000000"],
        ["solve", "toichika", "https://puzz.link/p?toichika/²/3/abc"],
        ["solve", "flow", "/dev/zero"],
    ],
)
def test_cli_reports_bad_input_in_one_line(argv: list[str]) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "workbench", *argv], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr
