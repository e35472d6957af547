"""X-ceter-O rules engine for single positions (plain Python; the bulk analysis lives in ``retro``).

Squares are numbered 0..8 row by row from the top left. Pieces 1, 3, 5 are O's and 2, 4, 6 are X's;
they enter in number order and then move in the same cycle (1, 2, ..., 6, 1, ...). The state is the
square of every piece (``UNPLACED`` if not on the board yet) plus the number of the piece due.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

UNPLACED = -1
PIECES = 6
SQUARES = 9

# The eight lines of three, as square triples.
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)


@dataclass(frozen=True)
class Rules:
    """Rule options. Defaults are the published rules.

    ``may_return``: the lifted piece may be put back on its own square (a variant; published rules say no).
    ``repetition``: house draw rule for play, the game is drawn when a position occurs this many times
    (0 = off, the published rules have no draw clause). It never changes the analysis values.
    """

    may_return: bool = False
    repetition: int = 0


@dataclass(frozen=True)
class Position:
    """``squares[i]`` is the square of piece ``i + 1`` (``UNPLACED`` if not on the board); ``due`` is 1..6."""

    squares: tuple[int, ...] = (UNPLACED,) * PIECES
    due: int = 1
    rules: Rules = Rules()

    # ---- queries --------------------------------------------------------------------------------
    def board(self) -> list[int]:
        """Piece number on each square (0 = empty)."""
        cells = [0] * SQUARES
        for piece, sq in enumerate(self.squares, start=1):
            if sq != UNPLACED:
                cells[sq] = piece
        return cells

    def placed(self) -> int:
        return sum(1 for sq in self.squares if sq != UNPLACED)

    def in_placement(self) -> bool:
        return self.squares[self.due - 1] == UNPLACED

    def mover(self) -> str:
        return owner(self.due)

    def last_mover(self) -> str:
        return "X" if self.mover() == "O" else "O"

    def line_of(self, side: str) -> tuple[int, int, int] | None:
        """The first line completely held by ``side`` ("O" or "X"), if any."""
        first = 1 if side == "O" else 2
        mine = {self.squares[p - 1] for p in range(first, PIECES + 1, 2)} - {UNPLACED}
        for line in LINES:
            if mine.issuperset(line):
                return line
        return None

    def winner(self) -> str | None:
        """The side that has won: the player who just moved, if they hold a line."""
        side = self.last_mover()
        return side if self.line_of(side) is not None else None

    # ---- moves ----------------------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        """Destination squares for the due piece (empty once the game is won)."""
        if self.winner() is not None:
            return []
        board = self.board()
        own = self.squares[self.due - 1]
        return [sq for sq in range(SQUARES) if board[sq] == 0 or (sq == own and self.rules.may_return)]

    def is_legal(self, square: int) -> bool:
        return square in self.legal_moves()

    def play(self, square: int) -> Position:
        """The position after the due piece goes to ``square`` (raises ValueError if illegal)."""
        if not self.is_legal(square):
            raise ValueError(f"piece {self.due} cannot go to square {square}")
        squares = list(self.squares)
        squares[self.due - 1] = square
        return replace(self, squares=tuple(squares), due=self.due % PIECES + 1)

    def key(self) -> tuple[tuple[int, ...], int]:
        """Identity for repetition counting (rules excluded)."""
        return self.squares, self.due


def owner(piece: int) -> str:
    return "O" if piece % 2 == 1 else "X"


def apply_moves(position: Position, moves: tuple[int, ...] | list[int]) -> Position:
    for square in moves:
        position = position.play(square)
    return position
