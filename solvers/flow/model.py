"""Flow Free puzzle values: a grid of empty cells and coloured endpoints, plus the variants of the
Flow Free family: holes (cells that are not part of the board), bridges (a cell crossed by a
horizontal and a vertical lane), walls between neighbouring cells, warps (a row or column whose two
border cells are neighbours across the seam) and hexagonal boards (odd rows shifted half a cell to
the right, "odd-r": six neighbours per cell).

A colour is one character of ``A-Z a-z 0-9``, or a number ``10..999`` (Numberlink puzzles have
more than 62 pairs; the numbers 1..9 are the digit letters). The label's *identity* pairs the
endpoints; its display colour follows the reference format's convention (see ``colour_index``).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from solvers.common.errors import InputError
from solvers.common.words import cell_name, listed

Cell = tuple[int, int]

EMPTY = "."
HOLE = "#"  # not part of the board
BRIDGE = "+"  # a horizontal and a vertical lane cross here
NOT_COLOURS = frozenset((EMPTY, HOLE, BRIDGE))
# Directions: square boards up, right, down, left; hex boards (odd-r) E, SE, SW, W, NW, NE.
SQUARE_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
HEX_STEPS_EVEN = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0))  # rows 0, 2, 4, ...
HEX_STEPS_ODD = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1))  # rows 1, 3, 5, ... (shifted right)
LETTERS = string.ascii_uppercase + string.ascii_lowercase + string.digits  # the 62 colours
# Mnemonic order of the reference format: index 0..15 = red, blue, yellow, green, orange, cyan,
# magenta, maroon, purple, grey, white, bright green, tan, dark blue, dark cyan, pink.
MNEMONIC = "RBYGOCMmPAWgTbcp"
LABELS = string.ascii_uppercase[:16]  # "A".."P": the alternative label form (A = index 0, ...)
# Letters that are no mnemonic get the display indices 16.. in this fixed order. Letters outside
# A..P come first: a file using them can never be mistaken for the label form.
EXTRA = "".join(sorted((ch for ch in LETTERS if ch not in MNEMONIC), key=lambda ch: ch in LABELS))
MNEMONIC_ORDER = MNEMONIC + EXTRA  # index -> letter in mnemonic form
COLOUR_NAMES = (
    "red",
    "blue",
    "yellow",
    "green",
    "orange",
    "cyan",
    "magenta",
    "maroon",
    "purple",
    "grey",
    "white",
    "bright green",
    "tan",
    "dark blue",
    "dark cyan",
    "pink",
)
MAX_SIDE = 200  # parse limit; the solver is meant for boards up to about 50x50
MAX_NUMBER = 999  # largest number label
FLOW_RULES, NUMBERLINK = "flow", "numberlink"
PUZZLE_RULES = (FLOW_RULES, NUMBERLINK)  # a puzzle's own rule set (see ``FlowPuzzle.rules``)
# How a board is drawn (``FlowPuzzle.look``): "auto" draws Numberlink puzzles (and boards with
# numbers past 9) as Numberlink is printed, other boards as the game draws them; "pipes" = round
# dots and thick pipes in colour; "lines" = the label in a ringed cell and thin lines, in colour;
# "ink" = the same in black, as on paper.
AUTO_LOOK, PIPES, LINES, INK = "auto", "pipes", "lines", "ink"
LOOKS = (AUTO_LOOK, PIPES, LINES, INK)


def is_number_label(token: str) -> bool:
    """A number label 1..999 (ASCII digits, no leading zero; 1..9 are also letters)."""
    return 0 < len(token) <= 3 and token.isascii() and token.isdigit() and token[0] != "0"


def is_label(token: str) -> bool:
    """An endpoint label: a colour letter or a number 1..999."""
    return (len(token) == 1 and token in LETTERS) or is_number_label(token)


def has_long_labels(labels: Iterable[str]) -> bool:
    """True if some label is a number of two or more digits (only the spaced form can hold it)."""
    return any(len(ch) > 1 for ch in labels)


def is_label_form(letters: set[str] | frozenset[str]) -> bool:
    """The reference rule: if every letter lies in A..P the letters are colour indices."""
    return bool(letters) and all(ch in LABELS for ch in letters)


def colour_index(letter: str, label_form: bool) -> int:
    """Display colour index (``color:N``) of a colour letter."""
    if label_form:
        return LABELS.index(letter)
    if len(letter) > 1:  # numbers 10..999 follow the 62 letters
        return len(MNEMONIC_ORDER) + int(letter) - 10
    return MNEMONIC_ORDER.index(letter)


def colour_name(index: int) -> str:
    return COLOUR_NAMES[index] if index < len(COLOUR_NAMES) else f"colour {index + 1}"


Wall = tuple[Cell, Cell]  # the two cells it separates, smaller first


def wall(a: Cell, b: Cell) -> Wall:
    return (a, b) if a <= b else (b, a)


ZERO_NOTE = "the two 0 cells are read as a pair of endpoints; if 0 means an empty cell, write '.' or '-'"


def zero_reading(cells: Sequence[str]) -> tuple[bool, tuple[str, ...]]:
    """How the cells of a spaced grid with no '.' or '-' read ``0`` (both readers, the plain one
    and the 'W H' one, ask here): (0 is an empty cell, notes). Other tools' number grids write 0
    for an empty cell, and a label is used exactly twice, so more than two 0s are empty cells;
    exactly two may be either, so they stay a pair and the notes say so."""
    zeros = sum(1 for cell in cells if cell == "0")
    return zeros > 2, ((ZERO_NOTE,) if zeros == 2 else ())


@dataclass(frozen=True)
class FlowPuzzle:
    """Givens only. ``cells`` is row-major; ``EMPTY``, ``HOLE``, ``BRIDGE`` or a colour letter per
    cell. ``walls`` separate neighbouring cells; ``warp_rows``/``warp_cols`` join the two border
    cells of a row/column (0-based indices); ``hex`` makes the board hexagonal (odd-r).

    The value may be incomplete while editing (a colour with one endpoint); ``problems()`` lists
    what stops it from being a valid puzzle, and the parser rejects such text.
    """

    rows: int
    cols: int
    cells: tuple[str, ...]
    walls: frozenset[Wall] = field(default=frozenset())
    warp_rows: frozenset[int] = field(default=frozenset())
    warp_cols: frozenset[int] = field(default=frozenset())
    hex: bool = False
    # The rule set the puzzle is meant for: "flow" (every cell covered) or "numberlink" (cells may
    # stay empty). It belongs to the puzzle, so a document keeps it and a solve follows it.
    rules: str = "flow"
    # Show each endpoint's label on its dot, as Arukone puzzles are printed (an arukone URL's
    # letters may spell a word). Numberlink puzzles and boards with labels past the palette show
    # them anyway; other Flow boards show plain coloured dots, as the game does.
    labels: bool = False
    # How the board is drawn (``LOOKS``); saved with it, like ``labels``.
    look: str = AUTO_LOOK
    # What the reader read past (e.g. unknown directives of a community file), said once when the
    # board is shown or solved. Not part of the value: edits drop it, equality ignores it.
    notes: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1 or len(self.cells) != self.rows * self.cols:
            raise InputError(f"bad board shape {self.rows}x{self.cols} for {len(self.cells)} cells")
        if self.rules not in PUZZLE_RULES:
            raise InputError(f"unknown rule set {self.rules!r} (use {' or '.join(PUZZLE_RULES)})")
        if self.look not in LOOKS:
            raise InputError(f"unknown look {self.look!r} (use {', '.join(LOOKS)})")

    @property
    def is_plain(self) -> bool:
        """A rectangle of square cells with no variant feature (today's plain format)."""
        return not (self.hex or self.walls or self.warp_rows or self.warp_cols) and not any(
            ch in (HOLE, BRIDGE) for ch in self.cells
        )

    def is_cell(self, r: int, c: int) -> bool:
        """Inside the rectangle and not a hole."""
        return self.inside(r, c) and self.cells[r * self.cols + c] != HOLE

    @property
    def n_dirs(self) -> int:
        return 6 if self.hex else 4

    def step(self, r: int, c: int, d: int) -> Cell | None:
        """The cell one step in direction ``d`` across the board's layout (warps included, walls
        and holes ignored), or None off the board."""
        if self.hex:
            dr, dc = (HEX_STEPS_ODD if r % 2 else HEX_STEPS_EVEN)[d]
            nr, nc = r + dr, c + dc
            return (nr, nc) if self.inside(nr, nc) else None
        dr, dc = SQUARE_STEPS[d]
        nr, nc = r + dr, c + dc
        if dr == 0 and not 0 <= nc < self.cols and r in self.warp_rows:
            nc %= self.cols
        elif dc == 0 and not 0 <= nr < self.rows and c in self.warp_cols:
            nr %= self.rows
        if not self.inside(nr, nc) or (nr, nc) == (r, c):
            return None
        return nr, nc

    def link(self, r: int, c: int, d: int) -> Cell | None:
        """The neighbour in direction ``d`` if a pipe may step there (no hole, no wall)."""
        if not self.is_cell(r, c):
            return None
        nxt = self.step(r, c, d)
        if nxt is None or not self.is_cell(*nxt) or wall((r, c), nxt) in self.walls:
            return None
        return nxt

    def direction(self, a: Cell, b: Cell) -> int | None:
        """The direction of the step from ``a`` to its neighbour ``b`` (None: not neighbours)."""
        for d in range(self.n_dirs):
            if self.link(a[0], a[1], d) == b:
                return d
        return None

    def adjacent(self, a: Cell, b: Cell) -> bool:
        return self.direction(a, b) is not None

    @classmethod
    def empty(cls, rows: int, cols: int) -> FlowPuzzle:
        return cls(rows, cols, (EMPTY,) * (rows * cols))

    @classmethod
    def from_rows(cls, rows: list[str]) -> FlowPuzzle:
        return cls(len(rows), len(rows[0]), tuple(ch for row in rows for ch in row))

    def at(self, r: int, c: int) -> str:
        return self.cells[r * self.cols + c]

    def inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.cols

    def with_cell(self, r: int, c: int, value: str) -> FlowPuzzle:
        cells = list(self.cells)
        cells[r * self.cols + c] = value
        return replace(self, cells=tuple(cells), notes=())

    def with_cells(self, cells: tuple[str, ...]) -> FlowPuzzle:
        """Same layout (walls, warps, shape), other cell contents."""
        return replace(self, cells=cells, notes=())

    def resized(self, rows: int, cols: int) -> FlowPuzzle:
        """Same contents where they still fit (walls and warps too)."""
        cells = tuple(
            self.at(r, c) if r < self.rows and c < self.cols else EMPTY
            for r in range(rows)
            for c in range(cols)
        )
        if cols == 1:  # a one-column hole row would be a lone '#' line, a comment in a saved file
            cells = tuple(EMPTY if ch == HOLE else ch for ch in cells)
        inside = FlowPuzzle.empty(rows, cols)
        walls = frozenset(w for w in self.walls if inside.inside(*w[0]) and inside.inside(*w[1]))
        return FlowPuzzle(
            rows,
            cols,
            cells,
            walls,
            frozenset(r for r in self.warp_rows if r < rows),
            frozenset(c for c in self.warp_cols if c < cols),
            self.hex,
            self.rules,
            self.labels,
            self.look,
        )

    def variant_words(self) -> list[str]:
        """What makes this board a variant, in words (empty for a plain board)."""
        words = []
        if self.hex:
            words.append("hexagonal")
        for mark, name in ((HOLE, "hole"), (BRIDGE, "bridge")):
            n = self.cells.count(mark)
            if n:
                words.append(f"{n} {name}{'s' if n != 1 else ''}")
        if self.walls:
            words.append(f"{len(self.walls)} wall{'s' if len(self.walls) != 1 else ''}")
        n = len(self.warp_rows) + len(self.warp_cols)
        if n:
            words.append(f"{n} warp{'s' if n != 1 else ''}")
        return words

    def row_strings(self) -> list[str]:
        """One string per row: its cells side by side, or, when a label is a number of two or
        more digits, the spaced form (tokens right-aligned to a common width, ``-`` empty)."""
        return cell_rows(self.cells, self.rows, self.cols)

    def endpoints(self) -> dict[str, list[Cell]]:
        """Endpoint cells per colour (row-major order), colours in display order."""
        return {ch: list(cells) for ch, cells in self._endpoint_cells}

    # Cached: a repaint asks several times, and scanning a 100x100 board takes over a millisecond.
    @cached_property
    def _endpoint_cells(self) -> tuple[tuple[str, tuple[Cell, ...]], ...]:
        found: dict[str, list[Cell]] = {}
        for i, ch in enumerate(self.cells):
            if ch not in NOT_COLOURS:
                found.setdefault(ch, []).append(divmod(i, self.cols))
        return tuple((ch, tuple(found[ch])) for ch in self.colours_of(found))

    @staticmethod
    def colours_of(letters: Iterable[str]) -> list[str]:
        """Letters in display order (by colour index under the reference reading rule)."""
        letter_set = frozenset(letters)
        label = is_label_form(letter_set)
        return sorted(letter_set, key=lambda ch: (colour_index(ch, label), ch))

    # Cached: drawing asks for colours per endpoint, and the value is immutable.
    @cached_property
    def _colour_order(self) -> tuple[str, ...]:
        return tuple(self.colours_of(ch for ch in self.cells if ch not in NOT_COLOURS))

    @property
    def colours(self) -> list[str]:
        return list(self._colour_order)

    @cached_property
    def label_form(self) -> bool:
        return is_label_form(frozenset(self._colour_order))

    def colour_index(self, letter: str) -> int:
        return colour_index(letter, self.label_form)

    def colour_word(self, letter: str) -> str | None:
        """The colour's name as a player knows it ("red"), or None: numbered boards pair numbers,
        and colours past the classic 16 have no name."""
        if self.rules == NUMBERLINK or len(letter) > 1:
            return None
        index = self.colour_index(letter)
        return COLOUR_NAMES[index] if index < len(COLOUR_NAMES) else None

    def pipe_name(self, letter: str) -> str:
        """A pipe as messages name it: "red pipe", else "pipe 7" / "pipe c"."""
        word = self.colour_word(letter)
        return f"{word} pipe" if word else f"pipe {letter}"

    def neighbours(self, r: int, c: int) -> Iterator[Cell]:
        """Cells a pipe may step to from (r, c): walls, holes, warps and hex layout applied."""
        seen: set[Cell] = set()
        for d in range(self.n_dirs):
            nxt = self.link(r, c, d)
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                yield nxt

    def problems(self) -> list[tuple[str, Cell | None]]:
        """Why this is not a well-formed puzzle (empty list if it is)."""
        out = self.layout_problems()
        for ch, cells in self.endpoints().items():
            # A Numberlink board (or one with numbers past 9) pairs numbers, not colours.
            numbered = self.rules == NUMBERLINK or len(ch) > 1
            what = ("number" if ch.isdigit() else "letter") if numbered else "colour"
            name = f"{what} {ch}" if what == "number" else f"{what} {ch!r}"
            word = self.colour_word(ch)  # None on numbered boards
            name += f" ({word})" if word else ""  # the player sees colours, files show letters
            if len(cells) == 1:
                r, c = cells[0]
                out.append((f"{name} has only one endpoint ({cell_name(r, c)})", cells[0]))
            elif len(cells) > 2:
                # All of them: the "third" in reading order was often one of the first two placed
                # (QA pass 7: a dot drawn at R3C3 was reported "at R5C5").
                where = listed([cell_name(r, c) for r, c in cells])
                out.append(
                    (
                        f"{name} has {len(cells)} endpoints, at {where} (each {what} needs exactly two)",
                        cells[2],
                    )
                )
        return out

    def layout_problems(self) -> list[tuple[str, Cell | None]]:
        """Why the board itself (not its endpoints) is no valid puzzle: a bridge or a warp on a hex
        board, a bridge whose lanes cannot go on, a warp that opens into a hole."""
        out: list[tuple[str, Cell | None]] = []
        if self.hex and BRIDGE in self.cells:
            r, c = divmod(self.cells.index(BRIDGE), self.cols)
            out.append((f"bridges are for square boards only ({cell_name(r, c)})", (r, c)))
        if self.hex and (self.warp_rows or self.warp_cols):
            out.append(("warps are for square boards only", None))
        if self.hex:
            return out
        for i, ch in enumerate(self.cells):
            if ch != BRIDGE:
                continue
            r, c = divmod(i, self.cols)
            for d in range(4):
                nxt = self.step(r, c, d)
                if nxt is None:
                    why = "the border"
                elif not self.is_cell(*nxt):
                    why = f"the hole at {cell_name(*nxt)}"
                elif wall((r, c), nxt) in self.walls:
                    why = "a wall"
                else:
                    continue
                lane = "horizontal" if d in (1, 3) else "vertical"
                out.append(
                    (
                        f"the bridge at {cell_name(r, c)} cannot be crossed: its {lane} lane "
                        f"runs into {why} (both lanes must be used)",
                        (r, c),
                    )
                )
                break
        for r in sorted(self.warp_rows):
            for c in (0, self.cols - 1):
                if self.inside(r, c) and not self.is_cell(r, c):
                    out.append((f"warp row {r + 1} opens into the hole at {cell_name(r, c)}", (r, c)))
        for c in sorted(self.warp_cols):
            for r in (0, self.rows - 1):
                if self.inside(r, c) and not self.is_cell(r, c):
                    out.append((f"warp column {c + 1} opens into the hole at {cell_name(r, c)}", (r, c)))
        return out

    def require_valid(self) -> None:
        problems = self.problems()
        if problems:
            raise InputError(problems[0][0])


@dataclass(frozen=True)
class FlowPaths:
    """The player's or solver's pipes: one ordered cell path per colour (sorted by letter).

    ``active`` is the colour being drawn by the current drag in play mode ("" = none); edits are
    pure functions, so the drag's colour has to travel with the value.
    """

    items: tuple[tuple[str, tuple[Cell, ...]], ...] = ()
    active: str = ""

    @classmethod
    def from_dict(cls, paths: Mapping[str, Sequence[Sequence[int]]], active: str = "") -> FlowPaths:
        items = tuple(
            sorted((k, tuple((int(p[0]), int(p[1])) for p in v)) for k, v in paths.items() if len(v))
        )
        return cls(items, active)

    def as_dict(self) -> dict[str, tuple[Cell, ...]]:
        return dict(self.items)

    def get(self, letter: str) -> tuple[Cell, ...]:
        for k, v in self.items:
            if k == letter:
                return v
        return ()

    def with_path(self, letter: str, path: tuple[Cell, ...], active: str | None = None) -> FlowPaths:
        d = self.as_dict()
        d[letter] = path
        return FlowPaths.from_dict(d, self.active if active is None else active)

    def with_active(self, active: str) -> FlowPaths:
        return FlowPaths(self.items, active)

    def owner(self) -> dict[Cell, str]:
        out: dict[Cell, str] = {}
        for k, v in self.items:
            for cell in v:
                out.setdefault(cell, k)
        return out


def cell_rows(cells: Sequence[str], rows: int, cols: int) -> list[str]:
    """Rows of cell tokens as text (see ``FlowPuzzle.row_strings``)."""
    if not has_long_labels(cells):
        return ["".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)]
    width = max(len(ch) for ch in cells)
    tokens = ["-" if ch == EMPTY else ch for ch in cells]
    return [" ".join(t.rjust(width) for t in tokens[r * cols : (r + 1) * cols]) for r in range(rows)]
