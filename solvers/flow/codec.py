"""Text formats: the plain grid (one line per row, ``.`` empty, a letter per endpoint, as in the
reference puzzle files) and the spaced form (``- - A - ...``). Reading is lenient (CRLF, BOM,
trailing blanks and blank lines); writing is stable. Errors carry line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from solvers.common.errors import ParseError
from solvers.common.limits import body_lines, shown
from solvers.flow.model import (
    EMPTY,
    LABELS,
    LETTERS,
    MAX_SIDE,
    MNEMONIC_ORDER,
    FlowPuzzle,
    is_label_form,
)

EMPTY_CHARS = ".-"  # '.' in plain text, '-' in the spaced form; both are accepted in either
_TOKEN = re.compile(r"\S+")


def _unknown(ch: str, line: int, column: int) -> ParseError:
    shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
    return ParseError(
        f"unknown character {shown} (use . or - for an empty cell, A-Z a-z 0-9 for endpoints)", line, column
    )


def _is_spaced(lines: list[str], first: int, last: int) -> bool:
    """True if some line holds two whitespace-separated tokens (checked without splitting it all).

    Only the lines the parser may read are looked at: row ``MAX_SIDE + 1`` is an error anyway.
    """
    for k in range(first, min(last, first + MAX_SIDE) + 1):
        found = _TOKEN.finditer(lines[k])
        if next(found, None) is not None and next(found, None) is not None:
            return True
    return False


def _row_items(line: str, spaced: bool) -> Iterator[tuple[int, str]]:
    if spaced:
        return ((m.start() + 1, m.group()) for m in _TOKEN.finditer(line))
    return ((i + 1, ch) for i, ch in enumerate(line))


def parse(text: str, *, complete: bool = True) -> FlowPuzzle:
    """A board from text. ``complete=False`` accepts a board still being set up (a colour with one
    or three endpoints), as saved documents may hold; ``problems()`` still names what is missing."""
    # Limits are checked while reading, so a 4 MB one-line file costs no more than a 200-cell row.
    lines, offset = body_lines(text)
    if not lines:
        raise ParseError("empty board: no rows found")
    first, last = 0, len(lines) - 1
    spaced = _is_spaced(lines, first, last)
    rows: list[list[str]] = []
    row_lines: list[int] = []
    row_columns: list[list[int]] = []  # text column of each cell, for error messages
    for k in range(first, last + 1):
        line_no, ln = k + 1 + offset, lines[k].rstrip()
        if not ln.strip():
            raise ParseError("blank line inside the board", line_no)
        if len(rows) == MAX_SIDE:
            raise ParseError(f"board is taller than {MAX_SIDE} rows", line_no)
        cells: list[str] = []
        columns: list[int] = []
        for column, token in _row_items(ln, spaced):
            if len(cells) == MAX_SIDE:
                raise ParseError(f"board is wider than {MAX_SIDE} cells", line_no, column)
            if len(token) != 1:
                raise ParseError(
                    f"token {shown(token)} is not a single character (the spaced form separates cells by spaces)",
                    line_no,
                    column,
                )
            if token in EMPTY_CHARS:
                cells.append(EMPTY)
            elif token in LETTERS:
                cells.append(token)
            else:
                raise _unknown(token, line_no, column)
            columns.append(column)
        if rows and len(cells) != len(rows[0]):
            column = columns[len(rows[0])] if len(cells) > len(rows[0]) else (columns[-1] + 1)
            raise ParseError(
                f"ragged rows: this row has {len(cells)} cells, the first row has {len(rows[0])}",
                line_no,
                column,
            )
        rows.append(cells)
        row_lines.append(line_no)
        row_columns.append(columns)
    puzzle = FlowPuzzle(len(rows), len(rows[0]), tuple(ch for row in rows for ch in row))
    for message, cell in puzzle.problems() if complete else ():
        if cell is None:
            raise ParseError(message)
        r, c = cell
        raise ParseError(message, row_lines[r], row_columns[r][c])
    return puzzle


def serialize(puzzle: FlowPuzzle) -> str:
    return "\n".join(puzzle.row_strings()) + "\n"


def serialize_spaced(puzzle: FlowPuzzle) -> str:
    return (
        "\n".join(" ".join("-" if ch == EMPTY else ch for ch in row) for row in puzzle.row_strings()) + "\n"
    )


def relabel(puzzle: FlowPuzzle, mapping: dict[str, str]) -> FlowPuzzle:
    return FlowPuzzle(puzzle.rows, puzzle.cols, tuple(mapping.get(ch, ch) for ch in puzzle.cells))


def letters_for(indices: dict[str, int]) -> dict[str, str]:
    """Choose letters that a reader maps to the wanted display indices (letter -> new letter).

    Keeps the current letters when they already read back right; otherwise uses the label form
    (A..P) when every index is below 16, else the mnemonic letters. A few colour sets cannot be
    written so that they read back with the same colours (e.g. grey and colour 17 are ``A`` and
    ``D``, which read as the label form); then the mnemonic letters are used anyway.
    """
    current = set(indices)
    label = is_label_form(current)
    from solvers.flow.model import colour_index

    if all(colour_index(ch, label) == k for ch, k in indices.items()):
        return {ch: ch for ch in indices}
    if all(k < len(LABELS) for k in indices.values()):
        return {ch: LABELS[k] for ch, k in indices.items()}
    return {ch: MNEMONIC_ORDER[k] for ch, k in indices.items()}


def to_label_form(puzzle: FlowPuzzle) -> FlowPuzzle:
    """Rewrite a puzzle of at most 16 display colours with the label letters A..P (same colours)."""
    indices = {ch: puzzle.colour_index(ch) for ch in puzzle.colours}
    if any(k >= len(LABELS) for k in indices.values()):
        raise ParseError("the label form holds only the 16 colours A..P")
    return relabel(puzzle, {ch: LABELS[k] for ch, k in indices.items()})


def to_mnemonic_form(puzzle: FlowPuzzle) -> FlowPuzzle:
    """Rewrite a puzzle with the mnemonic letters (R = red, B = blue, ...), same colours."""
    return relabel(puzzle, {ch: MNEMONIC_ORDER[puzzle.colour_index(ch)] for ch in puzzle.colours})
