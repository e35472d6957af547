"""Positions, rule options, the board-string and file formats, R1's compact code and the canonical key.

A ``Position`` stores each of the 12 doves' square in the group's own 4x4 window (row * 4 + col,
translated so the bounding box starts at row 0, col 0) or -1 while it is in hand, the side to move
and the game's rule options (``Rules``). Translation is therefore already factored out, and ``==``
compares positions as the game sees them. Doves are indexed B b A a Y y M m T t H h (R1's order):
``i & 1`` is the colour, ``i >> 1`` the kind.

The rule options are part of the position (issue 30.1, as Tatham's ``game_params`` sit beside the
game description): they decide which set-ups and moves are legal, so set-up edits keep them, every
action's successor inherits them, and an analysis needs the position alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from solvers.common.errors import InputError, ParseError
from solvers.common.limits import nonblank_lines, nonblank_lines_at, normalise, shown
from solvers.doves import engine

LETTERS = "BbAaYyMmTtHh"
RED, GREEN = 0, 1
COLOUR_NAMES = ("red", "green")
KIND_NAMES = ("Boss", "Aniki", "Yaibato", "Mamedeppo", "Totsu", "Hajike")
KIND_HINTS = (
    "moves one step in any of the 8 directions; its side loses when it is surrounded",
    "moves one step in any of the 8 directions",
    "moves one step up, down, left or right",
    "moves one step diagonally",
    "slides up, down, left or right over empty squares and stops before the first dove",
    "jumps like a chess knight, over other doves",
)
EMPTY_CHARS = " .-_0"
MAX_GRID = 64  # rows/columns a file may draw (the doves themselves span at most 4x4); bounds the work


def dove_name(i: int) -> str:
    return f"{COLOUR_NAMES[i & 1]} {KIND_NAMES[i >> 1]} ({LETTERS[i]})"


JUDGES = {
    "mover_loses": engine.JUDGE_MOVER_LOSES,
    "mover_wins": engine.JUDGE_MOVER_WINS,
    "draw": engine.JUDGE_DRAW,
}


@dataclass(frozen=True)
class Rules:
    """Rule options: the optional Remove action (default on) and who wins when both bosses fall."""

    allow_remove: bool = True
    both_surrounded: str = "mover_loses"  # R1's default NextWins: the player who just acted loses
    # a reduced game (retro/, tablebases): (red kinds, green kinds) besides the Bosses, 1..5 = A Y M T
    # H; the other doves are out of the game, not in hand. None = the full game.
    doves: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    @property
    def hand(self) -> int:
        """Doves in the game (bit i = dove i), the ``hand`` of ``engine.generate``."""
        if self.doves is None:
            return 0xFFF
        red, green = self.doves
        return 3 | sum(1 << (2 * k) for k in red) | sum(1 << (2 * k + 1) for k in green)

    def doves_text(self) -> str:
        """'AT/AY' (red/green kinds), '' for the full game."""
        if self.doves is None:
            return ""
        red, green = ("".join("AYMTH"[k - 1] for k in side) for side in self.doves)
        return f"{red}/{green}"

    @property
    def judge(self) -> int:
        if self.both_surrounded not in JUDGES:
            raise InputError(f"both-surrounded rule must be one of {', '.join(JUDGES)}")
        return JUDGES[self.both_surrounded]

    def describe(self) -> str:
        remove = "remove allowed" if self.allow_remove else "no remove"
        both = self.both_surrounded.replace("_", " ")
        doves = f"; doves {self.doves_text()}" if self.doves is not None else ""
        return f"{remove}; both bosses surrounded: {both}{doves}"

    def to_text(self) -> str:
        """The ``rules:`` line of a ``.doves`` document: ``remove=yes both=mover_loses``."""
        doves = f" doves={self.doves_text()}" if self.doves is not None else ""
        return f"remove={'yes' if self.allow_remove else 'no'} both={self.both_surrounded}{doves}"

    @staticmethod
    def from_text(text: str) -> Rules:
        """Inverse of ``to_text``; options left out keep their defaults."""
        allow_remove, both = DEFAULT_RULES.allow_remove, DEFAULT_RULES.both_surrounded
        doves: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        seen: dict[str, str] = {}  # option -> the word that gave it: a second one is refused
        for word in text.split():
            key, sep, value = word.partition("=")
            key, low = key.lower(), value.lower()
            if sep and key in seen:  # 'remove=no ... remove=yes' was read as the last one, silently
                raise InputError(
                    f"the rule option {key}= is given twice ({shown(seen[key])} and {shown(word)})"
                )
            seen[key] = word
            if key == "remove" and sep and low in ("yes", "no"):
                allow_remove = low == "yes"
            elif key == "both" and sep and low in JUDGES:
                both = low
            elif key == "doves" and sep:
                doves = parse_doves(value)  # as typed: its messages echo the user's letters
            else:
                raise InputError(
                    f"unknown rule option {shown(word)} (expected remove=yes|no, "
                    f"both={'|'.join(JUDGES)}, doves=RED/GREEN)"
                )
        return Rules(allow_remove, both, doves)


def parse_doves(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """'at/ay' or 'at' (the same for both sides) -> kinds (1..5) per side, each in kind order."""
    parts = text.split("/")
    if len(parts) > 2:
        raise InputError(f"doves={shown(text)}: expected RED/GREEN letters such as doves=AT/AY")
    sides = []
    for part in parts:
        kinds = set()
        for ch in part.strip().upper():
            if ch not in "AYMTH":
                raise InputError(f"doves={shown(text)}: {shown(ch)} is not a dove letter (A Y M T H)")
            kinds.add("AYMTH".index(ch) + 1)
        sides.append(tuple(sorted(kinds)))
    return sides[0], sides[-1]


DEFAULT_RULES = Rules()


@dataclass(frozen=True)
class Position:
    squares: tuple[int, ...]  # 12 entries: row * 4 + col in the minimal window, or -1 in hand
    to_move: int = RED
    rules: Rules = DEFAULT_RULES  # the game's rule options: the file's ``rules:`` line

    # ---- construction ---------------------------------------------------------------------------
    @staticmethod
    def from_cells(
        cells: dict[int, tuple[int, int]], to_move: int = RED, rules: Rules = DEFAULT_RULES
    ) -> Position:
        """From dove -> (row, col) in any frame; validates only the 4x4 bound (see ``check``)."""
        if not cells:
            raise InputError("no dove on the board")
        minr = min(r for r, _ in cells.values())
        minc = min(c for _, c in cells.values())
        squares = [-1] * 12
        for i, (r, c) in cells.items():
            rr, cc = r - minr, c - minc
            if rr > 3 or cc > 3:
                raise InputError("the doves do not fit in a 4x4 area")
            squares[i] = rr * 4 + cc
        return Position(tuple(squares), to_move, rules)

    @staticmethod
    def from_code(code: int, to_move: int = RED, rules: Rules = DEFAULT_RULES) -> Position:
        squares = tuple((code >> (44 - 4 * i)) & 15 if (code >> (59 - i)) & 1 else -1 for i in range(12))
        return Position(squares, to_move, rules)

    def with_cells(self, cells: dict[int, tuple[int, int]]) -> Position:
        """Another placement under the same side to move and rules (a set-up edit)."""
        return Position.from_cells(cells, self.to_move, self.rules)

    def with_rules(self, rules: Rules) -> Position:
        return replace(self, rules=rules)

    # ---- queries --------------------------------------------------------------------------------
    def cells(self) -> dict[int, tuple[int, int]]:
        return {i: divmod(s, 4) for i, s in enumerate(self.squares) if s >= 0}

    def at(self) -> dict[tuple[int, int], int]:
        return {rc: i for i, rc in self.cells().items()}

    def hand(self, colour: int) -> list[int]:
        return [i for i in range(colour, 12, 2) if self.squares[i] < 0]

    @property
    def size(self) -> tuple[int, int]:
        cells = self.cells().values()
        if not cells:
            return 0, 0
        return max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1

    @property
    def code(self) -> int:
        """R1's ``to_u64`` compact code (rules.md §3)."""
        code = 0
        for i, s in enumerate(self.squares):
            if s >= 0:
                code |= 1 << (59 - i)
                code |= s << (44 - 4 * i)
        return code

    def with_to_move(self, to_move: int) -> Position:
        return replace(self, to_move=to_move)

    def board_string(self) -> str:
        """R1's text form: rows joined by ';', blanks for empty squares, trailing blanks dropped."""
        rows, cols = self.size
        grid = [[" "] * cols for _ in range(rows)]
        for i, (r, c) in self.cells().items():
            grid[r][c] = LETTERS[i]
        return ";".join("".join(row).rstrip() for row in grid)

    def rows(self, empty: str = ".") -> list[str]:
        rows, cols = self.size
        grid = [[empty] * cols for _ in range(rows)]
        for i, (r, c) in self.cells().items():
            grid[r][c] = LETTERS[i]
        return ["".join(row) for row in grid]

    def canonical_key(self) -> int:
        """R1's ``to_invariant_u64``: swap colours if green moves, then the least of the 8 images."""
        cells = self.cells()
        if self.to_move == GREEN:
            cells = {i ^ 1: rc for i, rc in cells.items()}
        best = None
        for image in symmetric_images(cells):
            code = Position.from_cells(image).code
            if best is None or code < best:
                best = code
        assert best is not None
        return best


def symmetric_images(cells: dict[int, tuple[int, int]]) -> list[dict[int, tuple[int, int]]]:
    """The 8 rotations/reflections of a placement (frames are re-normalised by ``from_cells``)."""
    images = []
    for transpose in (False, True):
        for flip_r in (1, -1):
            for flip_c in (1, -1):
                image = {}
                for i, (r, c) in cells.items():
                    rr, cc = (c, r) if transpose else (r, c)
                    image[i] = (rr * flip_r, cc * flip_c)
                images.append(image)
    return images


START = Position.from_cells({1: (0, 0), 0: (1, 0)})


# ---- board strings -------------------------------------------------------------------------------
def parse_board(text: str, to_move: int = RED, *, line: int | None = None) -> Position:
    """R1's board text: rows separated by ';', one character per square (rules.md §4/§5); a board
    string names no rule options: the standard game."""
    cells: dict[int, tuple[int, int]] = {}
    rows = text.split(";", MAX_GRID)
    if len(rows) > MAX_GRID:
        raise ParseError(
            f"a board string has at most {MAX_GRID} rows", line, sum(len(x) + 1 for x in rows[:-1])
        )
    row_start = 0
    for r, row in enumerate(rows):
        if len(row) > MAX_GRID:
            raise ParseError(f"a board row has at most {MAX_GRID} squares", line, row_start + MAX_GRID + 1)
        for c, ch in enumerate(row):
            if ch in EMPTY_CHARS:
                continue
            i = LETTERS.find(ch)
            column = row_start + c + 1
            if i < 0:
                raise ParseError(f"unexpected character {ch!r} (use {LETTERS}, blank or '.')", line, column)
            if i in cells:
                raise ParseError(f"dove {ch!r} appears twice", line, column)
            cells[i] = (r, c)
        row_start += len(row) + 1
    return _build(cells, to_move, line)


def _build(
    cells: dict[int, tuple[int, int]],
    to_move: int,
    line: int | None,
    grid: tuple[int, int] | None = None,
) -> Position:
    """``grid`` = the file's first and last grid line: a fault of the whole grid names that range
    (and ``line`` is where it ends), not the first row, which may be fine."""
    where = ""
    if grid is not None:
        where = (
            f" (the grid is line {grid[0]})"
            if grid[0] == grid[1]
            else f" (the grid is lines {grid[0]}-{grid[1]})"
        )
    if not cells:
        raise ParseError("no dove on the board" + where, line)
    for i in (0, 1):
        if i not in cells:
            raise ParseError(
                f"the {COLOUR_NAMES[i]} Boss ({LETTERS[i]}) must be on the board: it is missing{where}",
                line,
            )
    rows = max(r for r, _ in cells.values()) - min(r for r, _ in cells.values()) + 1
    cols = max(c for _, c in cells.values()) - min(c for _, c in cells.values()) + 1
    if rows > 4 or cols > 4:
        raise ParseError(f"the doves span {rows}x{cols} squares; at most 4x4 is allowed{where}", line)
    return Position.from_cells(cells, to_move)


def parse_side(word: str) -> int:
    key = word.strip().lower()
    if key in ("red", "r", "orange", "first"):
        return RED
    if key in ("green", "g", "second"):
        return GREEN
    raise InputError(f"side to move must be 'red' or 'green', not {shown(word.strip())}")


def looks_like_board(text: str) -> bool:
    """One-line board strings ('bB;T YA', 'b;B / green'): the parser then names any bad character."""
    return "\n" not in text and (";" in text or ("B" in text and "b" in text and len(text) <= 40))


# ---- the .doves file format ----------------------------------------------------------------------
def parse_file(text: str) -> Position:
    """Lenient reader of the ``.doves`` format (see docs/doves.md) and of one-line board strings.

    File: optional ``#`` comments, an optional ``to move: red|green`` line, then 1..4 grid rows with
    ``.`` for empty squares (a blank line between grid rows is an empty row, as ``;;`` is in a
    board string), and an optional ``rules:`` line. Each header line may appear once: a second one
    is a ParseError naming both lines (they used to be resolved silently); one between grid rows is
    a ParseError naming it (the rows used to be joined). One line: a board
    string, optionally followed by ``/ red`` or ``/ green``. A ``moves:``
    line is the document's (``parse_moves``).
    """
    norm = normalise(text)
    nonblank: list[tuple[int, str]] = []
    starts: list[int] = []  # where each of those lines starts in ``norm``: to look into the gaps
    for n, ln, start in nonblank_lines_at(norm, comment="#"):
        nonblank.append((n, ln))
        starts.append(start)
        if len(nonblank) > MAX_GRID + 3:  # the grid rows, 'to move', 'rules' and 'moves'
            raise ParseError(f"too many lines: a position has at most {MAX_GRID} grid rows", n)
    if not nonblank:
        raise ParseError("empty position (expected a board such as 'b;B')")
    if len(nonblank) == 1 and (";" in nonblank[0][1] or "/" in nonblank[0][1]):
        n, ln = nonblank[0]
        board, side = ln, "red"
        if "/" in ln:
            board, side = ln.rsplit("/", 1)
            board = board.rstrip()
        try:
            to_move = parse_side(side)
        except InputError as exc:
            raise ParseError(str(exc), n) from None
        return parse_board(board.rstrip("\n"), to_move, line=n)
    to_move = RED
    cells: dict[int, tuple[int, int]] = {}
    row = 0
    first_row_line = last_row_line = None
    last_row = (0, 0)  # (line, offset) of the grid row read last
    rules_field: tuple[str, int] | None = None
    seen: dict[str, int] = {}  # header kind -> the line it is on: a second one is refused
    # The first header line after a grid row: if another grid row follows, the grid is cut in two
    # (a damaged file); joining the halves would analyse a position the file does not hold.
    header_in_grid: tuple[str, int] | None = None
    for (n, ln), start in zip(nonblank, starts, strict=True):
        stripped = ln.strip()
        if ":" in stripped:
            key, _, value = stripped.partition(":")
            kind = key.strip().lower().replace("-", " ")
            kind = "to move" if kind in ("side", "turn") else kind
            if kind not in ("to move", "rules", "moves"):
                raise ParseError(
                    f"unknown field {shown(key.strip())} (expected 'to move', 'moves' or 'rules')", n, 1
                )
            if kind in seen:  # two of a kind used to be resolved silently, each kind its own way
                raise ParseError(f"a second '{kind}:' line (the first is on line {seen[kind]})", n)
            seen[kind] = n
            if last_row_line is not None and header_in_grid is None:
                header_in_grid = (kind, n)
            if kind == "rules":
                rules_field = (value.strip(), n)
            elif kind == "to move":
                try:
                    to_move = parse_side(value)
                except InputError as exc:
                    raise ParseError(str(exc), n, len(key) + 2) from None
            continue  # 'moves:' holds the played actions: the document's (parse_moves)
        if header_in_grid is not None:
            kind, at = header_in_grid
            raise ParseError(
                f"a '{kind}:' line between grid rows (lines {last_row_line} and {n}); "
                "it belongs before or after the grid",
                at,
            )
        if last_row_line is not None:
            # A blank line inside the grid is an empty row, as ';;' is in a board string (a row of
            # blanks reads the same, and empty rows can be part of a legal position). Comment lines
            # are not rows: count only the lines that hold nothing.
            row += _blank_lines_between(norm, last_row, (n, start))
            if row >= MAX_GRID:
                raise ParseError(f"a position has at most {MAX_GRID} grid rows", n)
        first_row_line = first_row_line or n
        last_row_line, last_row = n, (n, start)
        if len(ln.rstrip()) > MAX_GRID:
            raise ParseError(f"a grid row has at most {MAX_GRID} squares", n, MAX_GRID + 1)
        for c, ch in enumerate(ln.rstrip()):  # leading blanks are empty squares, as in board strings
            if ch in EMPTY_CHARS:
                continue
            i = LETTERS.find(ch)
            if i < 0:
                raise ParseError(f"unexpected character {ch!r} (use {LETTERS} or '.')", n, c + 1)
            if i in cells:
                raise ParseError(f"dove {ch!r} appears twice", n, c + 1)
            cells[i] = (row, c)
        row += 1
    grid = None if first_row_line is None else (first_row_line, last_row_line or first_row_line)
    position = _build(cells, to_move, grid[1] if grid else None, grid)
    if rules_field is None:
        return position
    try:  # after the board, so a bad board is named first (as before the rules moved here)
        return position.with_rules(Rules.from_text(rules_field[0]))
    except InputError as exc:
        raise ParseError(str(exc), rules_field[1]) from None


def _blank_lines_between(text: str, before: tuple[int, int], after: tuple[int, int]) -> int:
    """How many lines between two grid rows, given as (line number, offset of the line's start),
    hold nothing (comments and header lines there are no rows). Regex counting keeps a huge gap at
    C speed."""
    (n0, start), (n1, end) = before, after
    if n1 - n0 <= 1:
        return 0
    gap = text[text.index("\n", start) + 1 : end - 1]  # the n1 - n0 - 1 lines, joined by '\n'
    return len(_BLANK_LINE.findall(gap))


_BLANK_LINE = re.compile(r"^[^\S\n]*$", re.MULTILINE)


def format_file(position: Position, moves: list[str] | None = None) -> str:
    """The ``.doves`` text. The ``rules:`` line is written only for other than the standard rules,
    after the grid and before ``moves:``, as always: every earlier version reads it."""
    lines = [
        "# Tokyo Doves position: rows top to bottom, '.' = empty square; doves not shown are in hand",
        f"to move: {COLOUR_NAMES[position.to_move]}",
        *position.rows(),
    ]
    if position.rules != DEFAULT_RULES:
        lines.append(f"rules: {position.rules.to_text()}")
    if moves:
        lines.append("moves: " + " ".join(moves))
    return "\n".join(lines) + "\n"


def parse_field(text: str, name: str) -> tuple[str, int | None]:
    """The value of a document's ``name:`` line (``moves``, ``rules``) and its line number."""
    for n, ln in nonblank_lines(normalise(text), comment="#"):
        key, sep, value = ln.strip().partition(":")
        if sep and key.strip().lower() == name:
            return value.strip(), n
    return "", None


def parse_moves(text: str) -> tuple[list[str], int | None]:
    """The SSN actions of a ``moves:`` line (played from the position), and that line's number."""
    value, n = parse_field(text, "moves")
    return value.split(), n
