"""Input limits shared by every reader: the size cap, safe file reading and ASCII-only numbers.

Why: ``str.isdigit()`` is true for ``²`` and ``٣`` (``int()`` then fails or, for ``٣``, silently
accepts), ``int()`` refuses strings over 4,300 digits with a bare ValueError, and reading a FIFO or
``/dev/zero`` never ends. Everything the user hands us goes through these helpers first.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from solvers.common.errors import InputError, ParseError

MAX_INPUT_BYTES = 4 * 1024 * 1024  # no puzzle file comes near this; parsers stay fast up to it
_DIGITS = frozenset("0123456789")


def is_ascii_digits(text: str) -> bool:
    """True for a non-empty run of 0-9 only (``"²"``, ``"٣"``, ``"+1"``, ``"1_0"`` are not)."""
    return bool(text) and all(ch in _DIGITS for ch in text)


def shown(text: str, width: int = 24) -> str:
    """``repr`` of user text, shortened so a megabyte of junk gives a one-line message."""
    return repr(text) if len(text) <= width else repr(text[:width]) + f"... ({len(text)} characters)"


def ascii_int(
    text: str,
    what: str,
    limit: int,
    *,
    minimum: int = 0,
    signed: bool = False,
    line: int | None = None,
    column: int | None = None,
) -> int:
    """``text`` as an int in ``minimum..limit``, or a ParseError naming ``what`` and the location.

    Only ASCII digits (and one leading ``-`` when ``signed``) are accepted; the length is bounded
    before converting, so ten thousand digits cost nothing and never hit Python's int-string limit.
    """
    body = text[1:] if signed and text.startswith("-") else text
    if not is_ascii_digits(body):
        raise ParseError(f"{what} must be a number {minimum}..{limit}, got {shown(text)}", line, column)
    bound = max(abs(limit), abs(minimum))
    if len(body.lstrip("0")) > len(str(bound)):
        raise ParseError(f"{what} must be a number {minimum}..{limit}, got {shown(text)}", line, column)
    value = int(text)
    if not minimum <= value <= limit:
        raise ParseError(f"{what} must be a number {minimum}..{limit}, got {value}", line, column)
    return value


def body_lines(text: str) -> tuple[list[str], int]:
    """The lines of ``text`` without leading/trailing blank lines, and how many lines were cut before.

    BOM and CR/CRLF are normalised. Trimming works on the whole string (C speed), so a file of
    four million newlines costs milliseconds, not a Python loop per line.
    """
    norm = normalise(text)
    rest = norm.lstrip()
    if not rest:
        return [], 0
    cut = norm.rfind("\n", 0, len(norm) - len(rest)) + 1  # keep the first line's indentation
    return norm[cut : len(norm.rstrip())].split("\n"), norm.count("\n", 0, cut)


_NONSPACE = re.compile(r"\S")


def normalise(text: str) -> str:
    """BOM dropped, CRLF and CR turned into LF."""
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def nonblank_lines(text: str, comment: str = "") -> Iterator[tuple[int, str]]:
    """(1-based line number, line) of each line holding something; blank runs are skipped at C speed.

    With ``comment`` (e.g. ``"#"``), lines whose first non-blank character is that one are skipped
    too, also at C speed. ``text`` must already be normalised (LF only).
    """
    for number, line, _ in nonblank_lines_at(text, comment):
        yield number, line


def nonblank_lines_at(text: str, comment: str = "") -> Iterator[tuple[int, str, int]]:
    """``nonblank_lines`` with each line's offset in ``text`` as well (to look into the gaps)."""
    pattern = _NONSPACE if not comment else _significant(comment)
    number, pos = 1, 0
    while (found := pattern.search(text, pos)) is not None:
        start = text.rfind("\n", pos, found.start()) + 1 or pos
        end = text.find("\n", found.start())
        end = len(text) if end < 0 else end
        number += text.count("\n", pos, start)
        yield number, text[start:end], start
        pos = end


@cache
def _significant(comment: str) -> re.Pattern[str]:
    return re.compile(rf"^[^\S\n]*[^\s{re.escape(comment)}]", re.MULTILINE)


def limit_text(text: str, what: str = "input") -> str:
    """Refuse pasted or inline text over the cap (the same cap as files); returns ``text``."""
    if len(text) > MAX_INPUT_BYTES:
        raise InputError(f"{what} is too large ({len(text):,} characters; at most {MAX_INPUT_BYTES:,})")
    return text


def read_user_bytes(path: Path) -> bytes:
    """At most the cap from a *regular* file; FIFOs, devices and folders are refused without blocking."""
    try:
        before = os.stat(path)
    except OSError as exc:
        raise InputError(f"{path}: cannot read file ({exc.strerror or exc})") from exc
    if not stat.S_ISREG(before.st_mode):
        kind = "a folder" if stat.S_ISDIR(before.st_mode) else "not a regular file"
        raise InputError(f"{path}: cannot read file ({kind})")
    if before.st_size > MAX_INPUT_BYTES:
        raise InputError(f"{path}: file too large ({before.st_size:,} bytes; at most {MAX_INPUT_BYTES:,})")
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO since the stat, open must not hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise InputError(f"{path}: cannot read file ({exc.strerror or exc})") from exc
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise InputError(f"{path}: cannot read file (not a regular file)")
        try:
            data = handle.read(MAX_INPUT_BYTES + 1)
        except OSError as exc:
            raise InputError(f"{path}: cannot read file ({exc.strerror or exc})") from exc
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"{path}: file too large (over {MAX_INPUT_BYTES:,} bytes)")
    return data


# Pictures users open as puzzles (a screenshot renamed, or picked in File > Open): said by name.
IMAGE_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "a PNG"),
    (b"\xff\xd8\xff", "a JPEG"),
    (b"GIF87a", "a GIF"),
    (b"GIF89a", "a GIF"),
    (b"BM", "a BMP"),
    (b"II*\x00", "a TIFF"),
    (b"MM\x00*", "a TIFF"),
)


def _picture_kind(data: bytes) -> str:
    """The kind of picture ("a PNG", ...) the data starts as; checked only once it is no text."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "a WebP"
    return next((name for magic, name in IMAGE_SIGNATURES if data.startswith(magic)), "")


def _not_text(where: str, data: bytes, why: str) -> InputError:
    picture = _picture_kind(data)
    if picture:
        return InputError(
            f"{where}: not a text file: it is {picture} picture (a Flow Free screenshot is read by "
            "File > Import Screenshot, or 'flow import' on the command line)"
        )
    return InputError(f"{where}: not a text file ({why})")


def decode_user_text(data: bytes, where: str) -> str:
    """UTF-8 (BOM allowed) with newlines normalised; binary data gets a clear 'not a text file'
    (a picture is named as one)."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise _not_text(where, data, f"binary data: a NUL byte at offset {nul}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _not_text(where, data, f"invalid UTF-8 at byte {exc.start}") from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_user_text(path: Path) -> str:
    """The one way to read a puzzle file the user named (CLI argument, Open, drop, Open Recent)."""
    return decode_user_text(read_user_bytes(path), str(path))
