"""Flow Free's own level packs: one level per line, the header and then each pipe of the level's
answer as the row-major cell indices it runs through (so the endpoints are each pipe's ends)::

    5,0,1,5;18,17,12;21,16,11,6;3,4,9;0,1,2,7,8,13,14,19,24,23,22;20,15,10,5

Header fields, comma-separated (read from the packs that public game clones ship):

* size: ``N`` (N x N) or ``W:H``, ``W_`` before it for warps (every row and column wraps, walls
  close seams), ``X_`` for hexagons (flat tops, even columns shifted down), flags such as ``+B``
  or ``+B:I`` after it (drawing hints; ignored, the answer check below holds whatever they mean);
* an unused 0, the level number, the number of pipes;
* optional: bridges (cells ``a:b``), holes (cells ``a:b``, each may carry a ``_...`` drawing
  suffix), walls (pairs ``a|b:c|d`` of neighbouring cells, also across a warp seam).

Blank lines and ``#`` comment lines are skipped; blanks next to ``,`` and ``;`` are dropped (``5, 0,
1, 5; 18, 17``), any other blank is refused. A line that starts like a header (size, then the unused
field) is read as a level, so a bad character further on is named with its column; a line that
does not is refused as no level line. Refused lines are listed with their line and reason (File >
Open, ``flow split``, the note of ``parse``), never counted as levels.

Our hex boards are pointy-top with odd rows shifted, so a hex level is turned a quarter turn
clockwise (cell (r, c) of the pack is our (c, H-1-r)); neighbours stay neighbours.

Every level comes with its answer, and that answer must pass our rule check of the board as read
before the level is accepted: a misread board is refused ("its own answer breaks ... at ..."), never
solved. The answer is kept (``Level.answer``) for comparisons; the document opens without it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace

from solvers.common.errors import ParseError
from solvers.common.limits import is_ascii_digits, normalise, shown
from solvers.flow.model import (
    BRIDGE,
    EMPTY,
    HOLE,
    LETTERS,
    MAX_NUMBER,
    MAX_SIDE,
    MNEMONIC_ORDER,
    Cell,
    FlowPaths,
    FlowPuzzle,
    wall,
)
from solvers.flow.rules import check

_SIZE = re.compile(r"(W_|X_)?([0-9]{1,4})(?::([0-9]{1,4}))?((?:[+:][A-Z])*)")
_HEAD = re.compile(_SIZE.pattern + r",[0-9]+,([0-9]{1,9}),([0-9]{1,9})(,.*)?")  # fullmatch, blanks out
# How a level line starts: its size and the unused field (ASCII digits only: int() would take
# others). A line that starts so is read as a level, so one bad character later on is named with
# its column instead of the whole text going to another reader.
_START = re.compile(r"(?:W_|X_)?[0-9]{1,4}(?::[0-9]{1,4})?(?:[+:][A-Za-z])*[ \t]*,[ \t]*[0-9]+[ \t]*,")
_SEPARATOR = re.compile(r"([,;])")  # split on it, the blanks at each piece's ends are dropped
_PIPE = re.compile(r"[0-9,]*")  # a pipe's cells (empty items are skipped)
_NOT_CELL = re.compile(r"[^0-9,]")
_NOT_DIGIT_OR_BLANK = re.compile(r"[^0-9 \t]")
_SIZE_CHARS = frozenset("0123456789:_+ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_HEADER_FIELDS = ("size", "unused field", "level number", "pipe count")
_MAX_LEVELS = 100_000  # bounds the work on a hostile file
_LINE_FORM = "'size,0,level,pipes[,...];cell,cell,...;...'"


@dataclass(frozen=True)
class Level:
    """One level of a pack: its board, its number in the pack and the answer it ships with."""

    puzzle: FlowPuzzle
    number: int
    answer: FlowPaths


def _is_comment(line: str) -> bool:
    return line.startswith("#")  # no level line can start so ('#' lines head some packs)


def looks_like(text: str) -> bool:
    """True if the first line that is neither blank nor a ``#`` comment starts like a level header
    and goes on to a ``;``. Our own boards and the community form have no ``,`` in a row, so
    skipping the comments cannot take one of their files (their comment lines are ``#`` too)."""
    for ln in normalise(text[:20_000]).split("\n"):
        first = ln.strip().lstrip("\ufeff")
        if first and not _is_comment(first):
            return bool(_START.match(first)) and ";" in first
    return False


def read_each(text: str) -> list[tuple[int, Level | ParseError]]:
    """Every level of the pack with its line (1-based): the level, or what is wrong with it. Any
    other line but blanks and ``#`` comments is refused the same way, with its line."""
    out: list[tuple[int, Level | ParseError]] = []
    for k, line in enumerate(normalise(text).split("\n"), start=1):
        stripped = line.strip().lstrip("\ufeff")
        if not stripped or _is_comment(stripped):
            continue
        if len(out) >= _MAX_LEVELS:
            raise ParseError(f"more than {_MAX_LEVELS} levels in one pack", k, 1)
        try:
            out.append((k, _level(line, k)))
        except ParseError as exc:
            out.append((k, exc))
    if not out:
        raise ParseError("no level: a Flow Free level line is expected", 1)
    return out


def parse(text: str) -> FlowPuzzle:
    """The pack's first level; its notes say how many levels open and which lines cannot be read
    (a refused line is no level of the pack: counted, it promised a level that does not open)."""
    levels = read_each(text)
    line, first = levels[0]
    if isinstance(first, ParseError):
        raise first
    opened = sum(not isinstance(level, ParseError) for _, level in levels)
    refused = [(k, exc) for k, exc in levels if isinstance(exc, ParseError)]
    if len(levels) == 1:
        return first.puzzle
    counted = f"the pack holds {opened} level{'s' if opened != 1 else ''}"
    if refused:
        k, exc = refused[0]
        others = ", ".join(str(j) for j, _ in refused[1:4]) + (", ..." if len(refused) > 4 else "")
        also = f"; also line{'s' if len(refused) > 2 else ''} {others}" if others else ""
        counted += (
            f" and {len(refused)} line{'s' if len(refused) != 1 else ''} that cannot be read "
            f"(line {k}: {exc.message}{also})"
        )
    note = (
        f"{counted}; this is level {first.number} (line {line}). "
        "'flow split FILE --to-dir DIR' writes each to a file of its own"
    )
    return replace(first.puzzle, notes=(note,))


def _cells(text: str, what: str, count: int, line: int) -> list[int]:
    out = []
    for token in filter(None, text.split(":")):
        index = token.split("_", 1)[0]  # a hole's drawing suffix
        if not (is_ascii_digits(index) and len(index) <= 9) or int(index) >= count:
            raise ParseError(f"{what}: {shown(token)} is no cell of the board", line)
        out.append(int(index))
    return out


def _named(ch: str) -> str:
    """A character of the user's line as a message shows it (a full-width digit looks like ours)."""
    if ch in " \t":
        return "a blank" if ch == " " else "a tab"
    if ch.isascii() and ch.isprintable():
        return shown(ch)
    name = unicodedata.name(ch, "")
    return f"{shown(ch)} (U+{ord(ch):04X}{' ' + name if name else ''})"


def _compact(line: str) -> str:
    """``line`` without the blanks next to ``,`` and ``;`` (they can join nothing); other blanks
    stay and are refused. Split and stripped piece by piece: a regex such as ``[ \t]*[,;]`` retries
    at every blank of a long run that no separator ends, quadratic on a hostile line."""
    parts = _SEPARATOR.split(line)
    return "".join(part if i % 2 else part.strip(" \t") for i, part in enumerate(parts))


def _column(line: str, index: int) -> int:
    """The 1-based column in ``line`` of the character at ``index`` of ``_compact(line)``:
    messages point into the line as the user sees it."""
    if " " not in line and "\t" not in line:
        return index + 1
    raw = comp = 0
    for i, part in enumerate(_SEPARATOR.split(line)):
        kept = part if i % 2 else part.strip(" \t")
        if index < comp + len(kept):
            return raw + (len(part) - len(part.lstrip(" \t"))) + index - comp + 1
        raw, comp = raw + len(part), comp + len(kept)
    return raw + index - comp + 1  # past the end


def _header_fault(head: str) -> tuple[str, int]:
    """What is wrong with a header that ``_HEAD`` refuses, and where (an index into ``head``)."""
    fields = head.split(",")
    at = 0
    for field, what in zip(fields, _HEADER_FIELDS, strict=False):
        if what == "size":
            fine = _SIZE.fullmatch(field) is not None
            bad = next((i for i, ch in enumerate(field) if ch not in _SIZE_CHARS), None)
            expected = "a size is N or W:H, W_ or X_ before it, flags such as +B after it"
        else:
            fine = is_ascii_digits(field) and (what == "unused field" or len(field) <= 9)
            bad = next((i for i, ch in enumerate(field) if ch not in "0123456789"), None)
            expected = "a number is expected"
        if not fine:
            if bad is not None:  # a blank here is inside a number, not next to a comma
                return f"{_named(field[bad])} in the {what} ({expected})", at + bad
            if not field:
                return f"the {what} is missing ({expected})", at
            if what != "size":  # only ASCII digits, too many of them
                return f"the {what} {shown(field)} has more than 9 digits", at
            return f"the {what} {shown(field)} is no {what} ({expected})", at
        at += len(field) + 1
    return f"the header ends after {len(fields)} of its 4 fields ('size,0,level,pipes')", len(head)


def _pipe_fault(body: str) -> int:
    """Where the first character that is no part of a cell list is in ``body``: in a run with
    other junk that junk (``5 garbage``: the ``g``), else the blank or the character itself."""
    m = _NOT_CELL.search(body)
    assert m is not None  # called only for a body that _PIPE refuses
    end = body.find(",", m.start())
    junk = _NOT_DIGIT_OR_BLANK.search(body, m.start(), len(body) if end < 0 else end)
    return junk.start() if junk else m.start()


def _level(raw: str, k: int) -> Level:
    line = raw.strip().lstrip("\ufeff")
    lead = raw.index(line)  # the columns of messages count from the start of the raw line

    def column(index: int) -> int:
        return lead + _column(line, index)

    if not _START.match(line):
        raise ParseError(f"not a Flow Free level line ({_LINE_FORM}): {shown(line)}", k, 1)
    # Blanks next to ',' and ';' are dropped (they can join nothing); any other is an error below.
    text = _compact(line) if " " in line or "\t" in line else line
    head, _, rest = text.partition(";")
    m = _HEAD.fullmatch(head)
    if m is None:
        fields = head.split(",")
        given = fields[2] if len(fields) > 2 and is_ascii_digits(fields[2]) and len(fields[2]) <= 9 else ""
        what, at = _header_fault(head)
        where = f"level {int(given)}" if given else "the level header"  # the level when it is readable
        raise ParseError(f"{where}: {what} at column {column(at)}", k)
    kind, width, height = m.group(1), int(m.group(2)), int(m.group(3) or m.group(2))
    number, pipes = int(m.group(5)), int(m.group(6))
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ParseError(f"level {number}: a board of {width}x{height}; at most {MAX_SIDE} per side", k, 1)
    bodies = rest.rstrip(";").split(";") if rest.rstrip(";") else []
    extra = head.split(",")[4:] + ["", "", ""]
    count = width * height
    if len(bodies) > count:
        raise ParseError(f"level {number}: more pipes than the {width}x{height} board has cells", k, 1)
    if any(body.count(",") >= 2 * count for body in bodies):  # a bridge is passed twice, no cell more
        raise ParseError(f"level {number}: a pipe longer than the {width}x{height} board", k, 1)
    start = len(head) + 1  # where each pipe starts in ``text``
    for i, body in enumerate(bodies, start=1):
        if not _PIPE.fullmatch(body):
            at = start + _pipe_fault(body)
            raise ParseError(
                f"level {number}: {_named(text[at])} in pipe {i} at column {column(at)} "
                f"(a pipe is cell numbers 0..{count - 1} separated by ',')",
                k,
            )
        start += len(body) + 1
    # Numbers too long for int() are outside every board: taken as 'count' (reported below).
    paths = [[int(x) if len(x) <= 9 else count for x in body.split(",") if x] for body in bodies]
    _check_pipes(text, paths, pipes, number, (width, height), k, column)
    if pipes > MAX_NUMBER:
        raise ParseError(f"level {number}: {pipes} pipes; at most {MAX_NUMBER}", k, 1)
    hexagonal = kind == "X_"
    rows, cols = (width, height) if hexagonal else (height, width)

    def ours(index: int) -> Cell:
        r, c = divmod(index, width)
        return (c, height - 1 - r) if hexagonal else (r, c)  # a hex level turned a quarter clockwise

    labels = (
        [MNEMONIC_ORDER[i] for i in range(pipes)]
        if pipes <= len(LETTERS)
        else [str(i + 1) for i in range(pipes)]
    )
    cells = [EMPTY] * count
    for index in _cells(extra[0], f"level {number}: bridges", count, k):
        cells[_flat(ours(index), cols)] = BRIDGE
    for index in _cells(extra[1], f"level {number}: holes", count, k):
        cells[_flat(ours(index), cols)] = HOLE
    for label, path in zip(labels, paths, strict=True):
        for end in (path[0], path[-1]):
            if cells[_flat(ours(end), cols)] != EMPTY:
                raise ParseError(f"level {number}: two things at cell {end}", k, 1)
            cells[_flat(ours(end), cols)] = label
    puzzle = FlowPuzzle(rows, cols, tuple(cells), hex=hexagonal)
    if kind == "W_":  # every seam between two cells wraps (one into a hole leads nowhere)
        open_rows = frozenset(r for r in range(rows) if puzzle.is_cell(r, 0) and puzzle.is_cell(r, cols - 1))
        open_cols = frozenset(c for c in range(cols) if puzzle.is_cell(0, c) and puzzle.is_cell(rows - 1, c))
        puzzle = replace(puzzle, warp_rows=open_rows, warp_cols=open_cols)
    walls = set()
    for pair in filter(None, extra[2].split(":")):
        ends = pair.split("|")
        if len(ends) != 2 or not all(is_ascii_digits(e) and len(e) <= 9 and int(e) < count for e in ends):
            raise ParseError(f"level {number}: walls: {shown(pair)} is no pair of cells", k, 1)
        a, b = ours(int(ends[0])), ours(int(ends[1]))
        if any(puzzle.step(*a, d) == b for d in range(puzzle.n_dirs)):
            walls.add(wall(a, b))
        elif not (kind == "W_" and (a[0] == b[0] or a[1] == b[1])):  # else: a seam into a hole
            raise ParseError(f"level {number}: walls: cells {ends[0]} and {ends[1]} are no neighbours", k, 1)
    puzzle = replace(puzzle, walls=frozenset(walls))
    answer = FlowPaths.from_dict(
        {label: [ours(i) for i in path] for label, path in zip(labels, paths, strict=True)}
    )
    found = check(puzzle, answer)
    if not found.complete or found.violations:
        why = found.violations[0].message if found.violations else "it leaves the board unfinished"
        if text.endswith(","):  # the count matched, but the last pipe may be cut short
            why += "; the line ends in a ',' (truncated?)"
        raise ParseError(f"level {number}: its own answer breaks the board as read ({why}); not opened", k, 1)
    return Level(puzzle, number, answer)


def _check_pipes(
    text: str,
    paths: list[list[int]],
    pipes: int,
    number: int,
    size: tuple[int, int],
    k: int,
    column: Callable[[int], int],
) -> None:
    """Each fault of the answer's pipes with a message of its own: a line cut short, a pipe count
    that differs from the header's, a pipe of one cell, a cell off the board (with its column)."""
    width, height = size
    count = width * height
    says = f"the header says {pipes} pipe{'s' if pipes != 1 else ''}"
    if not paths and pipes:  # nothing after the header
        raise ParseError(f"level {number}: the line ends after the header (truncated?); {says}", k, 1)
    if text.endswith(",") and paths and (len(paths) < pipes or len(paths[-1]) < 2):  # cut inside a pipe
        raise ParseError(f"level {number}: the line ends inside pipe {len(paths)} (truncated?); {says}", k, 1)
    if len(paths) != pipes:
        raise ParseError(f"level {number}: {says}; the line lists {len(paths)}", k, 1)
    for i, path in enumerate(paths, start=1):
        if len(path) < 2:
            held = "no cell" if not path else f"only cell {path[0]}"
            raise ParseError(f"level {number}: pipe {i} holds {held}; a pipe runs between two ends", k, 1)
    for i, path in enumerate(paths, start=1):
        if max(path) >= count:
            at, token = _token_of(text, i, next(x for x in path if x >= count))
            raise ParseError(
                f"level {number}: cell {token if len(token) <= 9 else shown(token)} in pipe {i} is outside the {width}x{height} "
                f"board (cells 0..{count - 1}) at column {column(at)}",
                k,
            )


def _token_of(text: str, pipe: int, value: int) -> tuple[int, str]:
    """Where in ``text`` pipe ``pipe`` (1-based) first holds a cell of ``value`` or more, and its text."""
    at = 0
    for _ in range(pipe):
        at = text.index(";", at) + 1
    end = text.find(";", at)
    for token in text[at : len(text) if end < 0 else end].split(","):
        if token and (len(token) > 9 or int(token) >= value):
            return at, token
        at += len(token) + 1
    return at, ""  # not reached: the caller found the cell in this pipe


def _flat(cell: Cell, cols: int) -> int:
    return cell[0] * cols + cell[1]
