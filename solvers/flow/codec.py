"""Text formats: the plain grid (one line per row, ``.`` empty, a letter per endpoint, as in the
reference puzzle files) and the spaced form (``- - A - ...``). Reading is lenient (CRLF, BOM,
trailing blanks and blank lines); writing is stable. Errors carry line and column.

Number labels 10..999 (Numberlink puzzles with more than 62 pairs) are tokens of the spaced form
(``1 - 64 - 2``); a board that has one is written in the spaced form, with tokens right-aligned.

Variants: ``#`` is a hole, ``+`` a bridge; optional header lines before the board (each holds a
colon, which no board row can) give the rest, 1-based::

    shape: hex
    warp rows: 2 5
    warp columns: 1
    walls: 2,3-2,4 5,1-6,1
    rules: numberlink
    labels: shown
    look: lines

``rules: numberlink``: the puzzle is meant for Numberlink rules (cells may stay empty).
``labels: shown``: the dots show their labels (an Arukone puzzle's letters). ``look: pipes``,
``lines`` or ``ink``: how the board is drawn (none: "auto", see ``model.LOOKS``). A plain board has
no header, so old files read and write exactly as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from solvers.common.errors import ParseError
from solvers.common.limits import body_lines, shown
from solvers.common.words import plural
from solvers.flow.model import (
    AUTO_LOOK,
    BRIDGE,
    EMPTY,
    FLOW_RULES,
    HOLE,
    LABELS,
    LETTERS,
    LOOKS,
    MAX_NUMBER,
    MAX_SIDE,
    MNEMONIC_ORDER,
    PUZZLE_RULES,
    FlowPuzzle,
    has_long_labels,
    is_label_form,
    is_number_label,
    wall,
    zero_reading,
)

EMPTY_CHARS = ".-"  # '.' in plain text, '-' in the spaced form; both are accepted in either
_TOKEN = re.compile(r"\S+")


def _unknown(ch: str, line: int, column: int) -> ParseError:
    shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
    return ParseError(
        f"unknown character {shown} (use . or - for an empty cell, # a hole, + a bridge, A-Z a-z 0-9 for "
        "endpoints)",
        line,
        column,
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


def _not_a_token(
    token: str, lines: list[str], k: int, first: int, last: int, offset: int, column: int
) -> ParseError:
    """A cell token that is neither one character nor a number. When its row has no space, the
    board was read as spaced because of another line (a note after the board, a title above it):
    name that line, not this valid-looking row."""
    line_no = k + 1 + offset
    spaced_at = next(
        (j for j in range(first, min(last, first + MAX_SIDE) + 1) if _is_spaced(lines, j, j)), None
    )
    if spaced_at is not None and not _is_spaced(lines, k, k):
        return ParseError(
            f"line {spaced_at + 1 + offset} holds spaces ({shown(lines[spaced_at].strip())}), so the board "
            f"was read as spaced rows, but this row has none: rows are all plain or all spaced "
            "(a note belongs on a '#' line above the board)",
            line_no,
            column,
        )
    return ParseError(
        f"token {shown(token)} is not a single character or a number 1..{MAX_NUMBER} (the "
        "spaced form separates cells by spaces)",
        line_no,
        column,
    )


def _url_inside(text: str) -> ParseError | None:
    """A puzz.link URL on a later line of a text that is no board (a title above it, a note): the
    board reader's "token 'My' is not a single character" told nothing of it."""
    from solvers.flow import pzpr

    for number, line in enumerate(text[:20_000].split("\n")[1:40], start=2):
        stripped = line.strip()
        if "/" in stripped and " " not in stripped and pzpr.looks_like_url(stripped):  # rows hold no "/"
            return ParseError(
                "this line is a puzzle URL: give the URL alone, without the other lines", number, 1
            )
    return None


def _row_items(line: str, spaced: bool) -> Iterator[tuple[int, str]]:
    if spaced:
        return ((m.start() + 1, m.group()) for m in _TOKEN.finditer(line))
    return ((i + 1, ch) for i, ch in enumerate(line))


def parse(text: str, *, complete: bool = True) -> FlowPuzzle:
    """A board from text. ``complete=False`` accepts a board still being set up (a colour with one
    or three endpoints), as saved documents may hold; ``problems()`` still names what is missing."""
    from solvers.flow import sized

    form = foreign_form(text)
    if form is not None:
        return _read_foreign(form)(text)
    try:
        return _parse_ours(text, complete)
    except ParseError as ours:
        if not sized.looks_like_spaced(text):  # "8 8" over spaced rows: that form, not ours
            # "8 6" over rows of 7 read as our spaced board said "token '......R' is not a
            # single character": the header's mismatch is the likelier fault.
            raise sized.header_mismatch(text) or _url_inside(text) or ours from None
        try:
            return sized.parse(text)
        except ParseError as theirs:
            # Our board with a mistake of its own keeps our message; rows that only fit under a
            # 'W H' line (ours saw ragged rows) get that form's.
            raise (theirs if "ragged rows" in ours.message else ours) from None


def foreign_form(text: str) -> str | None:
    """The other tool's form ``text`` is in, told by its head (None: ours, or a ``W H`` line over
    spaced rows, which only a reading tells apart: ``is_ours``). The one place that orders the
    tests: level packs first; the ``W H`` form before the community one, whose files also begin
    with ``#`` comments."""
    from solvers.flow import community, levelpack, pzpr, sized

    tests = (
        ("level pack", levelpack.looks_like),
        ("puzz.link URL", pzpr.looks_like_url),
        ("pzprv3", pzpr.looks_like_pzprv3),
        ("W H", sized.looks_like),
        ("community", community.looks_like),
    )
    return next((form for form, looks in tests if looks(text)), None)


def _read_foreign(form: str) -> Callable[[str], FlowPuzzle]:
    from solvers.flow import community, levelpack, pzpr, sized

    readers: dict[str, Callable[[str], FlowPuzzle]] = {
        "level pack": levelpack.parse,
        "puzz.link URL": pzpr.decode_url,
        "pzprv3": lambda text: pzpr.read_pzprv3(text)[0],
        "W H": sized.parse,
        "community": community.parse,
    }
    return readers[form]


def is_ours(text: str) -> bool:
    """Whether ``text`` is in one of our own forms (so Save may write it back as it was read)."""
    from solvers.flow import sized

    if foreign_form(text) is not None:
        return False
    if not sized.looks_like_spaced(text):
        return True
    try:
        _parse_ours(text, complete=False)
    except ParseError:
        return False  # read as the 'W H' form
    return True


def _parse_ours(text: str, complete: bool) -> FlowPuzzle:
    # Limits are checked while reading, so a 4 MB one-line file costs no more than a 200-cell row.
    lines, offset = body_lines(text)
    if not lines:
        raise ParseError("empty board: no rows found")
    first, last = 0, len(lines) - 1
    header: list[tuple[int, str]] = []
    while first <= last and (":" in lines[first] or not lines[first].strip()):
        if lines[first].strip():
            header.append((first + 1 + offset, lines[first]))
        first += 1
        if len(header) > 10:
            raise ParseError(
                "too many header lines (shape, warp rows, warp columns, walls, rules)", first + offset
            )
    if first > last:
        raise ParseError("empty board: no rows found after the header", last + 1 + offset)
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
                if spaced and is_number_label(token):  # a number label 10..999 (spaced form only)
                    cells.append(token)
                    columns.append(column)
                    continue
                raise _not_a_token(token, lines, k, first, last, offset, column)
            if token in EMPTY_CHARS:
                cells.append(EMPTY)
            elif token in (HOLE, BRIDGE):
                if token == HOLE and len(ln.strip()) == 1:
                    # A lone '#' line starts the paths section of a saved document (old files).
                    raise ParseError("a row that is only a hole (#) reads as a comment line", line_no, column)
                cells.append(token)
            elif token in LETTERS:
                cells.append(token)
            else:
                raise _unknown(token, line_no, column)
            columns.append(column)
        if rows and len(cells) != len(rows[0]):
            column = columns[len(rows[0])] if len(cells) > len(rows[0]) else (columns[-1] + 1)
            raise ParseError(
                f"ragged rows: this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])}",
                line_no,
                column,
            )
        rows.append(cells)
        row_lines.append(line_no)
        row_columns.append(columns)
    board = tuple(ch for row in rows for ch in row)
    notes: tuple[str, ...] = ()
    if spaced and EMPTY not in board:  # our own spaced files write '-': none of them reads otherwise
        zeros_empty, notes = zero_reading(board)
        if zeros_empty:
            board = tuple(EMPTY if ch == "0" else ch for ch in board)
    puzzle = FlowPuzzle(len(rows), len(rows[0]), board, notes=notes)
    puzzle = _apply_header(puzzle, header)
    for message, cell in puzzle.problems() if complete else ():
        if cell is None:
            raise ParseError(message)
        r, c = cell
        raise ParseError(message, row_lines[r], row_columns[r][c])
    return puzzle


_HEADER_KEYS = ("shape", "warp rows", "warp columns", "walls", "rules", "labels", "look")


def _numbers(value: str, what: str, limit: int, line: int, start: int) -> frozenset[int]:
    out = set()
    for m in _TOKEN.finditer(value):  # a repeat is refused, so a huge line stops after ``limit``
        token = m.group()
        if not (token.isascii() and token.isdigit() and len(token) <= 4) or not 1 <= int(token) <= limit:
            raise ParseError(
                f"{what}: expected a number 1..{limit}, got {shown(token)}", line, start + m.start()
            )
        if int(token) - 1 in out:
            raise ParseError(f"{what}: {int(token)} is listed twice", line, start + m.start())
        out.add(int(token) - 1)
    return frozenset(out)


def _word(
    fields: dict[str, tuple[int, str, int]], name: str, choices: tuple[str, ...], default: str = ""
) -> str:
    """Header ``name``'s word, one of ``choices`` in any case; ``default`` (else the first choice)
    if there is none."""
    if name not in fields:
        return default or choices[0]
    line_no, value, col = fields[name]
    word = value.strip().lower()
    if word not in choices:
        where = col + len(value) - len(value.lstrip())
        raise ParseError(f"{name} must be {' or '.join(choices)}, got {shown(value.strip())}", line_no, where)
    return word


def _apply_header(puzzle: FlowPuzzle, header: list[tuple[int, str]]) -> FlowPuzzle:
    """Shape, warps and walls from the header lines (1-based numbers in the text)."""
    fields: dict[str, tuple[int, str, int]] = {}
    for line_no, text in header:
        key, _, value = text.partition(":")
        name = " ".join(key.lower().split())
        if name == "warp cols":
            name = "warp columns"
        if name not in _HEADER_KEYS:
            raise ParseError(
                f"unknown header {shown(key.strip())} (use {', '.join(_HEADER_KEYS)}, or a board row)",
                line_no,
                1,
            )
        if name in fields:
            raise ParseError(f"second {name!r} line", line_no, 1)
        fields[name] = (line_no, value, len(key) + 2)
    hexagonal = _word(fields, "shape", ("square", "hex")) == "hex"
    warp_rows = warp_cols = frozenset[int]()
    if "warp rows" in fields:
        warp_rows = _numbers(fields["warp rows"][1], "warp rows", puzzle.rows, *fields["warp rows"][::2])
    if "warp columns" in fields:
        warp_cols = _numbers(
            fields["warp columns"][1], "warp columns", puzzle.cols, *fields["warp columns"][::2]
        )
    if hexagonal and (warp_rows or warp_cols):
        raise ParseError(
            "warps are for square boards only",
            min(fields[k][0] for k in ("warp rows", "warp columns") if k in fields),
        )
    rules = _word(fields, "rules", PUZZLE_RULES)
    labels = _word(fields, "labels", ("shown", "hidden"), "hidden") == "shown"
    look = _word(fields, "look", LOOKS, AUTO_LOOK)
    out = FlowPuzzle(
        puzzle.rows,
        puzzle.cols,
        puzzle.cells,
        frozenset(),
        warp_rows,
        warp_cols,
        hexagonal,
        rules,
        labels,
        look,
        notes=puzzle.notes,
    )
    walls: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    if "walls" in fields:
        line_no, value, col = fields["walls"]
        for m in _TOKEN.finditer(value):  # a repeat stops a huge line early: walls are distinct
            if len(walls) > 3 * out.rows * out.cols + out.rows + out.cols:
                raise ParseError(
                    f"more walls than the {out.rows}x{out.cols} board has sides", line_no, col + m.start()
                )
            token = m.group()
            where = col + m.start()
            parts = token.replace("-", ",").split(",")
            if len(parts) != 4 or not all(p.isascii() and p.isdigit() and len(p) < 5 for p in parts):
                raise ParseError(f"a wall is row,column-row,column; got {shown(token)}", line_no, where)
            r1, c1, r2, c2 = (int(p) - 1 for p in parts)
            a, b = (r1, c1), (r2, c2)
            if not (out.inside(*a) and out.inside(*b)):
                raise ParseError(
                    f"wall {shown(token)} lies outside the {out.rows}x{out.cols} board", line_no, where
                )
            if not any(out.step(r1, c1, d) == b for d in range(out.n_dirs)):
                raise ParseError(
                    f"wall {shown(token)} does not separate two neighbouring cells", line_no, where
                )
            if wall(a, b) in walls:
                raise ParseError(f"wall {shown(token)} is listed twice", line_no, where)
            walls.add(wall(a, b))
    return replace(out, walls=frozenset(walls))


def header_lines(puzzle: FlowPuzzle) -> list[str]:
    """The variant header (empty for a plain board)."""
    out = []
    if puzzle.hex:
        out.append("shape: hex")
    if puzzle.warp_rows:
        out.append("warp rows: " + " ".join(str(r + 1) for r in sorted(puzzle.warp_rows)))
    if puzzle.warp_cols:
        out.append("warp columns: " + " ".join(str(c + 1) for c in sorted(puzzle.warp_cols)))
    if puzzle.walls:
        out.append(
            "walls: "
            + " ".join(f"{a[0] + 1},{a[1] + 1}-{b[0] + 1},{b[1] + 1}" for a, b in sorted(puzzle.walls))
        )
    if puzzle.rules != FLOW_RULES:
        out.append(f"rules: {puzzle.rules}")
    if puzzle.labels:
        out.append("labels: shown")
    if puzzle.look != AUTO_LOOK:
        out.append(f"look: {puzzle.look}")
    return out


def serialize(puzzle: FlowPuzzle) -> str:
    """The plain form; the spaced form when a label is a number of two or more digits."""
    return "\n".join([*header_lines(puzzle), *puzzle.row_strings()]) + "\n"


def serialize_spaced(puzzle: FlowPuzzle) -> str:
    if has_long_labels(puzzle.cells):
        return serialize(puzzle)  # already spaced (numbers right-aligned)
    rows = (" ".join("-" if ch == EMPTY else ch for ch in row) for row in puzzle.row_strings())
    return "\n".join([*header_lines(puzzle), *rows]) + "\n"


def relabel(puzzle: FlowPuzzle, mapping: dict[str, str]) -> FlowPuzzle:
    return puzzle.with_cells(tuple(mapping.get(ch, ch) for ch in puzzle.cells))


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
    if any(k >= len(MNEMONIC_ORDER) for k in indices.values()):
        return {ch: ch for ch in indices}  # number labels: no letter form holds them
    return {ch: MNEMONIC_ORDER[k] for ch, k in indices.items()}


def to_label_form(puzzle: FlowPuzzle) -> FlowPuzzle:
    """Rewrite a puzzle of at most 16 display colours with the label letters A..P (same colours)."""
    indices = {ch: puzzle.colour_index(ch) for ch in puzzle.colours}
    beyond = [ch for ch, k in indices.items() if k >= len(LABELS)]
    if beyond:  # the letters name palette colours, not pairs: 'Z' alone is colour 26 already
        ch = beyond[0]
        raise ParseError(
            f"the label form's letters A..P name the palette's first {len(LABELS)} colours; "
            f"{shown(ch)} is drawn in colour {indices[ch] + 1}, which no letter there names "
            "(--to mnemonic keeps every colour)"
        )
    return relabel(puzzle, {ch: LABELS[k] for ch, k in indices.items()})


def to_mnemonic_form(puzzle: FlowPuzzle) -> FlowPuzzle:
    """Rewrite a puzzle with the mnemonic letters (R = red, B = blue, ...), same colours."""
    if has_long_labels(puzzle.colours):
        raise ParseError(f"the mnemonic form holds only {len(LETTERS)} colours; this board numbers its pairs")
    return relabel(puzzle, {ch: MNEMONIC_ORDER[puzzle.colour_index(ch)] for ch in puzzle.colours})
