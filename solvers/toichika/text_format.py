"""The module's own readable file format (``.toichika``): the board drawn in ASCII.

    toichika
    +-+-+-+-+
    |>|. .|.|
    +-+ +-+ +
    |.|.|. .|
    ...

Cells sit at odd rows/columns: ``.`` empty, ``^ v < >`` given arrows, ``?`` an arrow of unknown
direction. Between two cells ``|`` (vertical) or ``-`` (horizontal) is a bold wall, a space is
none. The frame and ``+`` corners are decoration, but every line reaches the last cell/wall column
(trailing blanks may be stripped, and the right frame character left off): a shorter line is an
error, since padding it would invent "no wall" where the file was cut. ``#`` lines are comments.
Lossless: every wall bit is kept, including walls that separate nothing.

A saved game may follow with a line ``answer`` and one line per row of the player's entries:
``.`` nothing, ``+`` a dot (no arrow), ``^ v < >`` an entered arrow. Pencil marks follow, when
there are any, as a line ``marks`` and one line per row of space-separated cells: ``.`` none, else
what is ruled out: ``o`` "an arrow goes here" (empty ruled out), ``^ v < >`` those directions,
e.g. ``. ^< o .``. Files without the block (all files written before marks existed) read as before.
"""

from __future__ import annotations

import re

from solvers.common.errors import ParseError
from solvers.common.limits import nonblank_lines, normalise, shown
from solvers.toichika.model import (
    ARROW_CHAR,
    CHAR_ARROW,
    DIRECTIONS,
    DOT,
    MARK_ARROW_HERE,
    MAX_SIZE,
    QUESTION,
    Entries,
    Toichika,
    is_marks,
    marks_entry,
    marks_of,
)

HEADER = "toichika"
ANSWER = "answer"
MARKS = "marks"
_ANSWER_LINE = re.compile(r"^[^\S\n]*answer[^\S\n]*$", re.IGNORECASE | re.MULTILINE)
_MARKS_LINE = re.compile(r"^[^\S\n]*marks[^\S\n]*$", re.IGNORECASE | re.MULTILINE)
# Pencil-mark characters in a fixed order: "o" for "an arrow here", then the ruled-out directions.
MARK_CHARS = (("o", MARK_ARROW_HERE), *((ARROW_CHAR[d], 1 << d) for d in DIRECTIONS))


def write_document(p: Toichika, entries: Entries | None) -> str:
    """The board, plus the player's entries (and pencil marks) when there are any."""
    text = write_text(p)
    if entries is None or not any(entries):
        return text
    chars = {0: ".", DOT: "+", **ARROW_CHAR}
    rows = ["".join(chars.get(entries[r * p.cols + c], ".") for c in range(p.cols)) for r in range(p.rows)]
    text += ANSWER + "\n" + "\n".join(rows) + "\n"
    if any(is_marks(e) for e in entries):
        marks = [
            " ".join(_marks_token(entries[r * p.cols + c]) for c in range(p.cols)) for r in range(p.rows)
        ]
        text += MARKS + "\n" + "\n".join(marks) + "\n"
    return text


def _marks_token(entry: int) -> str:
    bits = marks_of(entry)
    return "".join(ch for ch, bit in MARK_CHARS if bits & bit) or "."


def read_document(text: str) -> tuple[Toichika, Entries | None]:
    norm = normalise(text)
    found = _ANSWER_LINE.search(norm)
    if found is None:
        return read_text(norm), None
    cut = norm.count("\n", 0, found.start())  # 0-based index of the 'answer' line
    puzzle = read_text(norm[: found.start()])
    marks_at = _MARKS_LINE.search(norm, found.end())
    answer_end = marks_at.start() if marks_at is not None else len(norm)
    codes = {".": 0, "+": DOT, **CHAR_ARROW}
    entries: list[int] = []
    for n, row in _block(puzzle, norm[found.end() : answer_end], cut, "answer"):
        if len(row) != puzzle.cols:
            raise ParseError(f"answer row has {len(row)} cells, expected {puzzle.cols}", n)
        for c, ch in enumerate(row):
            if ch not in codes:
                raise ParseError(f"unexpected answer character {ch!r} (use . + ^ v < >)", n, c + 1)
            entries.append(_answer_on(puzzle, len(entries), codes[ch], ch, n, c + 1))
    if marks_at is None:
        return puzzle, tuple(entries)
    cut = norm.count("\n", 0, marks_at.start())
    bits_of = dict(MARK_CHARS)
    for r, (n, row) in enumerate(_block(puzzle, norm[marks_at.end() :], cut, "marks")):
        tokens = row.split()
        if len(tokens) != puzzle.cols:
            raise ParseError(f"marks row has {len(tokens)} cells, expected {puzzle.cols}", n)
        for c, token in enumerate(tokens):
            bits = 0
            for ch in "" if token == "." else token:
                if ch not in bits_of:
                    raise ParseError(f"unexpected pencil mark {ch!r} (use . o ^ v < >)", n)
                bits |= bits_of[ch]
            i = r * puzzle.cols + c
            given = puzzle.givens[i]
            # The editor never puts marks on a given arrow, nor "an arrow here" on a "?" (it is one).
            if bits and (given in DIRECTIONS or (given == QUESTION and bits & MARK_ARROW_HERE)):
                raise ParseError(
                    f"R{r + 1}C{c + 1} is a given {_given_char(given)!r}; the marks block says {token!r}", n
                )
            if bits and entries[i] != 0:
                raise ParseError(f"R{r + 1}C{c + 1} has both an answer and pencil marks", n)
            if bits:
                entries[i] = marks_entry(bits)
    return puzzle, tuple(entries)


def _given_char(given: int) -> str:
    return "?" if given == QUESTION else ARROW_CHAR.get(given, ".")


def _answer_on(puzzle: Toichika, i: int, entry: int, ch: str, line: int, column: int) -> int:
    """The entry for cell ``i``; on a given cell only what the given allows (else a ParseError).

    A given arrow takes no entry: ``.`` or a repeat of the given itself (stored as nothing). A "?"
    takes an arrow (its direction) but no dot. Anything else contradicts the given, and ignoring it
    would let ``check`` report a board the file does not describe.
    """
    given = puzzle.givens[i]
    if given in DIRECTIONS:
        if entry == 0 or entry == given:
            return 0
    elif given != QUESTION or entry != DOT:
        return entry
    r, c = divmod(i, puzzle.cols)
    raise ParseError(
        f"R{r + 1}C{c + 1} is a given {_given_char(given)!r}; the answer block says {ch!r}", line, column
    )


def _block(puzzle: Toichika, text: str, cut: int, what: str) -> list[tuple[int, str]]:
    """The ``puzzle.rows`` non-blank lines of a block that starts after line ``cut`` (0-based)."""
    rows: list[tuple[int, str]] = []
    for n, ln in nonblank_lines(text, comment="#"):
        rows.append((cut + n, ln.strip()))  # n counts from the block's own header line
        if len(rows) > puzzle.rows:
            break
    if len(rows) != puzzle.rows:
        raise ParseError(f"the {what} block needs {puzzle.rows} rows, found {len(rows)}", cut + 1)
    return rows


def write_text(p: Toichika) -> str:
    # Row slices and joins, not per-cell method calls: the Text tab rewrites it after every edit.
    rows, cols = p.rows, p.cols
    chars = ["?" if g == QUESTION else ARROW_CHAR.get(g, ".") for g in p.givens]
    bars = ["|" if w else " " for w in p.vwalls]
    dashes = ["-+" if w else " +" for w in p.hwalls]
    top = "+" + "-+" * cols
    lines = [HEADER, top]
    for r in range(rows):
        seps = bars[r * (cols - 1) : (r + 1) * (cols - 1)] + ["|"]
        lines.append("|" + "".join(map(str.__add__, chars[r * cols : (r + 1) * cols], seps)))
        if r + 1 < rows:
            lines.append("+" + "".join(dashes[r * cols : (r + 1) * cols]))
    lines.append(top)
    return "\n".join(lines) + "\n"


def _is_frame(line: str) -> bool:
    return line.startswith("+") and line.endswith("+") and not line.strip("+-")


def read_text(text: str) -> Toichika:
    body: list[tuple[int, str]] = []
    header_seen = False
    for n, ln in nonblank_lines(normalise(text), comment="#"):
        if not body and not header_seen and ln.strip().lower() == HEADER:
            header_seen = True
            continue
        body.append((n, ln.rstrip()))
        if len(body) == 1 and not body[0][1].startswith("+"):
            raise ParseError("the board drawing must start with a '+-+-...' frame line", n, 1)
        if len(body) > 2 * MAX_SIZE + 1:  # stop reading: no valid drawing is this tall
            raise ParseError(f"the board drawing is taller than {MAX_SIZE} rows", n)
    if not body:
        raise ParseError("empty board: expected an ASCII drawing starting with '+-+'")
    first_line, first = body[0]
    last_line, last = body[-1]
    if len(body) == 1 or len(last) != len(first) or not _is_frame(last):
        # Without this a file cut short would read as a smaller board (the rows so far).
        raise ParseError(
            f"the board drawing ends without its bottom frame line {shown(first)} (is the file cut short?)",
            last_line,
        )
    if len(body) % 2 == 0:
        raise ParseError(
            "the drawing needs an odd number of lines (frame, rows, separators, frame)", body[-1][0]
        )
    rows = (len(body) - 1) // 2
    cols = (len(first) - 1) // 2
    if not (1 <= rows <= MAX_SIZE and 1 <= cols <= MAX_SIZE):
        raise ParseError(f"board size {cols}x{rows} out of range (1..{MAX_SIZE})", first_line)
    width = 2 * cols + 1
    lines = []
    for n, ln in body:
        if len(ln) > width:
            raise ParseError(f"line is {len(ln)} characters, the frame is {width}", n, width + 1)
        if len(ln) < width - 1:
            # Padding is only for trailing blanks an editor stripped: a line that stops before the
            # last cell or wall column (a cut or shortened separator) would read as missing walls,
            # i.e. a different puzzle. Only the right frame character itself may be left off.
            raise ParseError(
                f"line is {len(ln)} {'character' if len(ln) == 1 else 'characters'}; the frame is "
                f"{width} wide (a line may end early only by its right frame '+' or '|'; is it cut?)",
                n,
                len(ln) + 1,
            )
        lines.append((n, ln.ljust(width)))
    givens: list[int] = []
    vwalls: list[bool] = []
    hwalls: list[bool] = []
    for r in range(rows):
        n, ln = lines[2 * r + 1]
        for c in range(cols):
            ch = ln[2 * c + 1]
            if ch == ".":
                givens.append(0)
            elif ch == "?":
                givens.append(QUESTION)
            elif ch in CHAR_ARROW:
                givens.append(CHAR_ARROW[ch])
            else:
                raise ParseError(f"unexpected cell character {ch!r} (use . ^ v < > ?)", n, 2 * c + 2)
            if c + 1 < cols:
                wall = ln[2 * c + 2]
                if wall not in "| ":
                    raise ParseError(f"unexpected wall character {wall!r} (use '|' or a space)", n, 2 * c + 3)
                vwalls.append(wall == "|")
        if r + 1 < rows:
            n, ln = lines[2 * r + 2]
            for c in range(cols):
                wall = ln[2 * c + 1]
                if wall not in "- ":
                    raise ParseError(f"unexpected wall character {wall!r} (use '-' or a space)", n, 2 * c + 2)
                hwalls.append(wall == "-")
    return Toichika(rows, cols, tuple(vwalls), tuple(hwalls), tuple(givens))
