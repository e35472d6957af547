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

Our hex boards are pointy-top with odd rows shifted, so a hex level is turned a quarter turn
clockwise (cell (r, c) of the pack is our (c, H-1-r)); neighbours stay neighbours.

Every level comes with its answer, and that answer must pass our rule check of the board as read
before the level is accepted: a misread board is refused ("its own answer breaks ... at ..."), never
solved. The answer is kept (``Level.answer``) for comparisons; the document opens without it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from solvers.common.errors import ParseError
from solvers.common.limits import normalise, shown
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

_LINE = re.compile(
    r"^(W_|X_)?([0-9]{1,4})(?::([0-9]{1,4}))?((?:[+:][A-Z])*),[0-9]+,([0-9]{1,9}),([0-9]{1,9})(,[^;]*)?;[0-9,;]+;?$"
)  # ASCII digits only: int() would take others
_MAX_LEVELS = 100_000  # bounds the work on a hostile file


@dataclass(frozen=True)
class Level:
    """One level of a pack: its board, its number in the pack and the answer it ships with."""

    puzzle: FlowPuzzle
    number: int
    answer: FlowPaths


def looks_like(text: str) -> bool:
    first = next((ln.strip() for ln in normalise(text[:20_000]).split("\n") if ln.strip()), "")
    return bool(_LINE.match(first.lstrip("\ufeff")))


def read_each(text: str) -> list[tuple[int, Level | ParseError]]:
    """Every level of the pack with its line (1-based): the level, or what is wrong with it."""
    out: list[tuple[int, Level | ParseError]] = []
    for k, line in enumerate(normalise(text).split("\n"), start=1):
        line = line.strip().lstrip("\ufeff")
        if not line:
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
    """The pack's first level; its notes say how many levels the pack holds."""
    levels = read_each(text)
    line, first = levels[0]
    if isinstance(first, ParseError):
        raise first
    if len(levels) == 1:
        return first.puzzle
    note = (
        f"the pack holds {len(levels)} levels; this is level {first.number} (line {line}). "
        "'flow split FILE --to-dir DIR' writes each to a file of its own"
    )
    return replace(first.puzzle, notes=(note,))


def _cells(text: str, what: str, count: int, line: int) -> list[int]:
    out = []
    for token in filter(None, text.split(":")):
        index = token.split("_", 1)[0]  # a hole's drawing suffix
        if not (index.isascii() and index.isdigit()) or int(index) >= count:
            raise ParseError(f"{what}: {shown(token)} is no cell of the board", line)
        out.append(int(index))
    return out


def _level(line: str, k: int) -> Level:
    m = _LINE.match(line)
    if m is None:
        raise ParseError("not a Flow Free level line ('size,0,level,pipes[,...];cell,cell,...;...')", k, 1)
    kind, width, height = m.group(1), int(m.group(2)), int(m.group(3) or m.group(2))
    number, pipes = int(m.group(5)), int(m.group(6))
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ParseError(f"level {number}: a board of {width}x{height}; at most {MAX_SIDE} per side", k, 1)
    head, *bodies = line.rstrip(";").split(";")
    extra = head.split(",")[4:] + ["", "", ""]
    count = width * height
    if len(bodies) > count:
        raise ParseError(f"level {number}: more pipes than the {width}x{height} board has cells", k, 1)
    if any(body.count(",") >= 2 * count for body in bodies):  # a bridge is passed twice, no cell more
        raise ParseError(f"level {number}: a pipe longer than the {width}x{height} board", k, 1)
    paths = [[int(x) for x in body.split(",") if x] for body in bodies]
    if len(paths) != pipes or any(len(p) < 2 or max(p) >= count for p in paths):
        raise ParseError(f"level {number}: the header says {pipes} pipes of cells 0..{count - 1}", k, 1)
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
        if len(ends) != 2 or not all(e.isascii() and e.isdigit() and int(e) < count for e in ends):
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
        raise ParseError(f"level {number}: its own answer breaks the board as read ({why}); not opened", k, 1)
    return Level(puzzle, number, answer)


def _flat(cell: Cell, cols: int) -> int:
    return cell[0] * cols + cell[1]
