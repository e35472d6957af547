"""The ``W H`` header form: a line with the board's width and height, then its rows (``.`` empty,
any other character an endpoint), as a popular public Numberlink solver reads, prints and collects
puzzles. Its collections hold many puzzles in one file, separated by blank lines, with ``#``
comment lines between them and ``0 0`` for the end::

    # Author: ...

    5 4
    C...B
    A.BA.
    ...C.
    .....

A file is read in this form when, after leading blank and ``#`` lines, its first line is two
numbers and the next one a row of exactly that many cells (width first, or rows first as a public
dataset writes Janko's puzzles) with no space in it: no board of the other forms looks like that (a
row of two numbers is a spaced row, and the rows after it are spaced too). Spaced rows under such a
line are read too, but only where our own reading fails (``looks_like_spaced``).
Endpoints may be any printable ASCII character (published collections use ``_ ^ [ ] \\ ```` past
the letters and digits); they become our labels as the community form's do (kept when they are
letters and digits, else mnemonic letters in order, or numbers past 62).

``parse`` opens the first puzzle of a collection and says in its notes how many the file holds;
``read_each`` reads every one (a bad one does not stop the rest), for ``flow split``. Errors name
the line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from solvers.common.errors import InputError, ParseError
from solvers.common.limits import normalise, shown
from solvers.flow.community import our_labels
from solvers.flow.model import EMPTY, MAX_SIDE, FlowPuzzle, has_long_labels, zero_reading

_HEADER = re.compile(r"^\s*([0-9]{1,9})[ \t]+([0-9]{1,9})\s*$")  # ASCII digits only
_MAX_PUZZLES = 100_000  # bounds the work on a hostile file
_TOKEN = re.compile(r"\S+")
EMPTIES = (EMPTY, "-")


@dataclass(frozen=True)
class Block:
    """One puzzle's place in the file: its header line (0-based index), width and height."""

    line: int
    width: int
    height: int
    swapped: bool = False  # the header gave the rows first


def _skip(lines: list[str], k: int) -> int:
    """The index of the first line at or after ``k`` that is neither blank nor a ``#`` comment."""
    while k < len(lines) and (not lines[k].strip() or lines[k].lstrip().startswith("#")):
        k += 1
    return k


def _head(text: str) -> tuple[re.Match[str], str] | None:
    """The first line after blank and ``#`` lines if it is two numbers, and the line after it."""
    lines = normalise(text[:20_000]).split("\n")
    k = _skip(lines, 0)
    m = _HEADER.match(lines[k]) if k + 1 < len(lines) else None
    return None if m is None else (m, lines[k + 1])


def _sides(m: re.Match[str]) -> set[int]:
    return {int(m.group(1)), int(m.group(2))}


def looks_like(text: str) -> bool:
    head = _head(text)
    if head is None:
        return False
    m, row = head[0], head[1].strip()
    return bool(row) and not any(ch.isspace() for ch in row) and len(row) in _sides(m)


def looks_like_spaced(text: str) -> bool:
    """The form with spaced rows (``8 8`` then ``. . . . 4 5 . .``): a ``W H`` line and a row of
    exactly W tokens. Such a text may also be one of our spaced boards, so ``codec.parse`` tries
    this form only when its own reading fails."""
    head = _head(text)
    return head is not None and len(_TOKEN.findall(head[1])) in _sides(head[0]) - {1}


def header_mismatch(text: str) -> ParseError | None:
    """What is wrong when a text that failed every other reading begins with a ``W H`` line whose
    next line is no row of that size: a plain row of another length, or nothing. None when the
    text does not begin so (a spaced board's first row may also be two numbers)."""
    lines = normalise(text[:20_000]).split("\n")
    k = _skip(lines, 0)
    m = _HEADER.match(lines[k]) if k < len(lines) else None
    if m is None:
        return None
    header = f"the 'W H' line {m.group(1)} {m.group(2)} on line {k + 1}"
    row = lines[k + 1].strip() if k + 1 < len(lines) else ""
    if not row:
        return ParseError(f"{header} is followed by no board rows", k + 1, 1)
    if any(ch.isspace() for ch in row):
        return None  # a spaced row: our reading's own message stands
    return ParseError(
        f"this row has {len(row)} cells; {header} says {m.group(1)} or {m.group(2)} per row", k + 2, 1
    )


def _blocks(lines: list[str]) -> Iterator[Block]:
    """Each puzzle's header, up to ``0 0`` or the end; a line where a header belongs that is none
    is an error (the rest cannot be told apart)."""
    k = _skip(lines, 0)
    count = 0
    while k < len(lines):
        m = _HEADER.match(lines[k])
        if m is None:
            raise ParseError(
                f"expected the next puzzle's width and height ('W H'), got {shown(lines[k].strip())}",
                k + 1,
                1,
            )
        width, height = int(m.group(1)), int(m.group(2))
        if width == height == 0:
            return  # the form's end mark
        # Rows first ("12 15" over rows of 15 cells, as a public dataset writes Janko's puzzles):
        # the first row's length says which number is the width.
        first = len(_cells(lines[k + 1])) if k + 1 < len(lines) else width
        swapped = first != width and first == height
        if swapped:
            width, height = height, width
        if height > MAX_SIDE:  # its rows cannot be counted off, so the file is not read past it
            at = m.start(1) if swapped else m.start(2)
            raise ParseError(f"the height must be a number 1..{MAX_SIDE}, got {height}", k + 1, at + 1)
        count += 1
        if count > _MAX_PUZZLES:
            raise ParseError(f"more than {_MAX_PUZZLES} puzzles in one file", k + 1, 1)
        # The rows must all be there to find the next header: a gap is the whole file's trouble.
        for r in range(min(height, MAX_SIDE + 1)):
            if k + 1 + r >= len(lines):
                raise ParseError(
                    f"the header on line {k + 1} says {height} rows; the file ends after {r}", k + 1
                )
            if not lines[k + 1 + r].strip():
                raise ParseError(
                    f"the header on line {k + 1} says {height} rows; row {r + 1} is missing", k + 2 + r
                )
        yield Block(k, width, height, swapped)
        k = _skip(lines, k + 1 + min(height, len(lines)))


def _puzzle(lines: list[str], block: Block) -> FlowPuzzle:
    k, width, height = block.line, block.width, block.height
    m = _HEADER.match(lines[k])
    assert m is not None
    at_width, at_height = (m.start(2), m.start(1)) if block.swapped else (m.start(1), m.start(2))
    for value, name, at in ((width, "width", at_width), (height, "height", at_height)):
        if not 1 <= value <= MAX_SIDE:
            raise ParseError(f"the {name} must be a number 1..{MAX_SIDE}, got {value}", k + 1, at + 1)
    rows = [_cells(lines[k + 1 + r]) for r in range(height)]  # all there (``_blocks``)
    labels: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        line = k + 2 + r
        if len(row) != width:
            column = row[width][1] if len(row) > width else len(lines[k + 1 + r].rstrip()) + 1
            raise ParseError(
                f"this row has {len(row)} cells; the header on line {k + 1} says {width} (width height)",
                line,
                column,
            )
        for c, (token, column) in enumerate(row):
            if not all(ch.isascii() and ch.isprintable() for ch in token):
                raise ParseError(
                    f"unknown character in {shown(token)} (use . for an empty cell)", line, column
                )
            if token not in EMPTIES:
                labels.setdefault(token, []).append((r, c))
    tokens = [token for row in rows for token, _ in row]
    notes: tuple[str, ...] = ()
    number_grid = any(" " in lines[k + 1 + r].strip() for r in range(height)) and not (
        "." in tokens or "-" in tokens
    )
    if number_grid:
        zeros_empty, notes = zero_reading(tokens)  # as codec.parse reads them
        if zeros_empty:
            labels.pop("0")
    for label, uses in labels.items():
        if len(uses) != 2:
            r, c = uses[2] if len(uses) > 2 else uses[0]
            times = f"{len(uses)} time{'s' if len(uses) != 1 else ''}"
            raise ParseError(
                f"endpoint {shown(label)} appears {times} (needs exactly 2)", k + 2 + r, rows[r][c][1]
            )
    ours = our_labels(list(labels))
    return FlowPuzzle(height, width, tuple(ours.get(token, EMPTY) for token in tokens), notes=notes)


def _cells(line: str) -> list[tuple[str, int]]:
    """A row's cells with their 1-based columns: one per character, or whitespace-separated
    tokens when the row holds a space (``. . 4 5 .``, as some tools write it)."""
    body = line.rstrip()
    if any(ch.isspace() for ch in body.strip()):
        return [(m.group(), m.start() + 1) for m in _TOKEN.finditer(body)][: MAX_SIDE + 1]
    return [(ch, i + 1) for i, ch in enumerate(body[: MAX_SIDE + 1])]


def read_each(text: str) -> list[tuple[int, FlowPuzzle | ParseError]]:
    """Every puzzle of the file with the line its header is on (1-based): the puzzle, or what is
    wrong with it. Where the file stops being a sequence of puzzles (a row missing, so the next
    header is not where it belongs) the rest cannot be told apart: that place is the last entry."""
    found, tail = _read(text)
    if tail is None:
        return found
    rest = ParseError(f"{tail.message}; the file is not read past this", tail.line, tail.column)
    return [*found, (tail.line or 0, rest)]


def _read(text: str) -> tuple[list[tuple[int, FlowPuzzle | ParseError]], ParseError | None]:
    """The puzzles read, and where reading had to stop (None at the end or ``0 0``)."""
    lines = normalise(text).split("\n")
    found: list[tuple[int, FlowPuzzle | ParseError]] = []
    blocks = _blocks(lines)
    while True:
        try:
            block = next(blocks, None)
        except ParseError as exc:
            if not found:
                raise
            return found, _past_the_board(exc, lines, len(found))
        if block is None:
            return found, None
        try:
            found.append((block.line + 1, _puzzle(lines, block)))
        except ParseError as exc:
            found.append((block.line + 1, exc))


def _past_the_board(exc: ParseError, lines: list[str], read: int) -> ParseError:
    """The error for a line where the next puzzle's header belongs, said as what it most likely
    is: a row too many, or text after the board (dropping it gave another board's verdict)."""
    if not exc.message.startswith("expected the next puzzle's") or exc.line is None:
        return exc  # too many puzzles, a row missing: said as it is
    where = "the board's rows" if read == 1 else f"puzzle {read}'s rows"
    return ParseError(
        f"{shown(lines[exc.line - 1].strip())} comes after {where}, where a 'W H' line or the end "
        "belongs (does the header give too few rows? A comment line starts with '#')",
        exc.line,
        1,
    )


def parse(text: str) -> FlowPuzzle:
    """The file's first puzzle; its notes say when the file holds more. Text after a lone
    puzzle's rows is an error: the header may give too few rows, and the board read would be
    another one than the file shows."""
    found, tail = _read(text)
    if not found:
        raise ParseError("no puzzle: a 'W H' line and the board's rows are expected", 1)
    line, first = found[0]
    if isinstance(first, ParseError):
        raise first
    if tail is not None and len(found) == 1:
        raise tail
    if len(found) == 1:
        return first
    refused = [f"line {at}" for at, item in found if isinstance(item, ParseError)]
    more = "at least " if tail is not None else ""
    trouble = f", {len(refused)} of them unreadable ({', '.join(refused[:3])})" if refused else ""
    stop = f"; reading stops at line {tail.line}: {tail.message}" if tail is not None else ""
    note = (
        f"the file holds {more}{len(found)} puzzles{trouble}{stop}; this is the first (line {line}). "
        "'flow split FILE --to-dir DIR' writes each to a file of its own"
    )
    return replace(first, notes=(note,))


def serialize(puzzle: FlowPuzzle) -> str:
    """``W H`` and the plain rows, for another tool that reads this form: plain square boards with
    one-character labels only."""
    if not puzzle.is_plain or has_long_labels(puzzle.cells):
        raise InputError("the 'W H' form holds plain square boards with one letter or digit per endpoint")
    return f"{puzzle.cols} {puzzle.rows}\n" + "\n".join(puzzle.row_strings()) + "\n"
