"""Flow Free puzzle values: a rectangular grid of empty cells and coloured endpoints.

A colour is one character of ``A-Z a-z 0-9``. The character's *identity* pairs the endpoints; its
display colour follows the reference format's convention (see ``colour_index``).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from solvers.common.errors import InputError

Cell = tuple[int, int]

EMPTY = "."
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


def is_label_form(letters: set[str] | frozenset[str]) -> bool:
    """The reference rule: if every letter lies in A..P the letters are colour indices."""
    return bool(letters) and all(ch in LABELS for ch in letters)


def colour_index(letter: str, label_form: bool) -> int:
    """Display colour index (``color:N``) of a colour letter."""
    if label_form:
        return LABELS.index(letter)
    return MNEMONIC_ORDER.index(letter)


def colour_name(index: int) -> str:
    return COLOUR_NAMES[index] if index < len(COLOUR_NAMES) else f"colour {index + 1}"


@dataclass(frozen=True)
class FlowPuzzle:
    """Givens only. ``cells`` is row-major; ``EMPTY`` or a colour letter per cell.

    The value may be incomplete while editing (a colour with one endpoint); ``problems()`` lists
    what stops it from being a valid puzzle, and the parser rejects such text.
    """

    rows: int
    cols: int
    cells: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1 or len(self.cells) != self.rows * self.cols:
            raise InputError(f"bad board shape {self.rows}x{self.cols} for {len(self.cells)} cells")

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
        return FlowPuzzle(self.rows, self.cols, tuple(cells))

    def row_strings(self) -> list[str]:
        return ["".join(self.cells[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows)]

    def endpoints(self) -> dict[str, list[Cell]]:
        """Endpoint cells per colour (row-major order), colours in display order."""
        found: dict[str, list[Cell]] = {}
        for i, ch in enumerate(self.cells):
            if ch != EMPTY:
                found.setdefault(ch, []).append(divmod(i, self.cols))
        return {ch: found[ch] for ch in self.colours_of(found)}

    @staticmethod
    def colours_of(letters: Iterable[str]) -> list[str]:
        """Letters in display order (by colour index under the reference reading rule)."""
        letter_set = frozenset(letters)
        label = is_label_form(letter_set)
        return sorted(letter_set, key=lambda ch: (colour_index(ch, label), ch))

    # Cached: drawing asks for colours per endpoint, and the value is immutable.
    @cached_property
    def _colour_order(self) -> tuple[str, ...]:
        return tuple(self.colours_of(ch for ch in self.cells if ch != EMPTY))

    @property
    def colours(self) -> list[str]:
        return list(self._colour_order)

    @cached_property
    def label_form(self) -> bool:
        return is_label_form(frozenset(self._colour_order))

    def colour_index(self, letter: str) -> int:
        return colour_index(letter, self.label_form)

    def neighbours(self, r: int, c: int) -> Iterator[Cell]:
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            if self.inside(r + dr, c + dc):
                yield r + dr, c + dc

    def problems(self) -> list[tuple[str, Cell | None]]:
        """Why this is not a well-formed puzzle (empty list if it is)."""
        out: list[tuple[str, Cell | None]] = []
        for ch, cells in self.endpoints().items():
            if len(cells) == 1:
                r, c = cells[0]
                out.append((f"colour {ch!r} has only one endpoint (row {r + 1}, column {c + 1})", cells[0]))
            elif len(cells) > 2:
                r, c = cells[2]
                out.append(
                    (
                        f"colour {ch!r} has {len(cells)} endpoints; the third is at row {r + 1}, "
                        f"column {c + 1} (each colour needs exactly two)",
                        cells[2],
                    )
                )
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
