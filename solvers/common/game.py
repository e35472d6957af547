"""The Qt-free game layer shared by every two-player game (Tatham's midend, in small).

A game module supplies its back end (rules, notation, analysis); this module holds what every game
does alike:

- ``GameRecord``: the moves played from the set-up, as data, and the record's ``later`` moves after
  the shown position (the move list's "forward"). The record is the undo history's unit: going back
  keeps the later moves, playing the record's next move keeps the rest, playing another move there
  replaces them (one undoable edit, so Undo brings them back).
- ``GameValue``: the value of a position for the side to move (win / lose / draw / unknown, with the
  distance in plies) and its one wording, "Win(3)", "Lose(2)", "Draw", "Unknown", used by every
  game's panel, board caption, CLI text and analysis result.
- ``position_verdict``: a game analysis's one-line answer ("Red to move: Win(5)"), where a puzzle's
  solve says "unique": ``solve``'s result line, its JSON "verdict" and the status bar.

It imports no game module: the games build on it, never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Hashable
from dataclasses import dataclass, replace
from typing import Generic, Literal, Self, TypeVar

M = TypeVar("M")  # a game's move: a square (X-ceter-O), an Action (Tokyo Doves), ...


@dataclass(frozen=True)
class GameRecord(Generic[M]):
    """Moves played from the set-up (``moves``) and the record's moves after them (``later``).

    Subclasses add the game's own fields (e.g. rule options); every step keeps them."""

    moves: tuple[M, ...] = ()
    later: tuple[M, ...] = ()

    @staticmethod
    def after(n: int) -> str:
        """How far a record has gone, "after 3 moves": one wording for the line under the board
        (capitalised there) and the CLI's position ("after 3 moves, O to move").

        "Move" in the record's sense, one turn whatever it does: a Tokyo Doves put or remove (the
        rules' other *actions*) is a move of the record as placing a stone is a move in Go, and
        the move list, the board's "(move 4)" and the ``moves:`` line count them so."""
        return f"after {n} move{'' if n == 1 else 's'}"

    @property
    def record(self) -> tuple[M, ...]:
        """The whole game record, also when an earlier position is shown."""
        return self.moves + self.later

    @property
    def ply(self) -> int:
        """How many moves are played on the board."""
        return len(self.moves)

    def goto(self, ply: int) -> Self:
        """The same record shown after its first ``ply`` moves (clamped to the record)."""
        record = self.record
        ply = max(0, min(ply, len(record)))
        return replace(self, moves=record[:ply], later=record[ply:])

    def then(self, move: M) -> Self:
        """``move`` played at the shown position: the record's next move keeps the rest, another
        move replaces them."""
        later = self.later[1:] if self.later[:1] == (move,) else ()
        return replace(self, moves=self.moves + (move,), later=later)

    def then_all(self, moves: tuple[M, ...] | list[M]) -> Self:
        """Several moves played one after another (a best line): each keeps the record while it agrees."""
        record = self
        for move in moves:
            record = record.then(move)
        return record

    def restart(self) -> Self:
        """No moves played and no record (a new set-up); the subclass's own fields stay."""
        return replace(self, moves=(), later=())

    def replaces(self, move: M) -> int:
        """How many later moves playing ``move`` here would drop (0: none, or it is the record's next)."""
        return 0 if self.later[:1] == (move,) else len(self.later)


ValueKind = Literal["win", "lose", "draw", "unknown"]


@dataclass(frozen=True)
class GameValue:
    """The value for the side to move: it wins / loses within ``plies`` plies with best play by both
    sides, the game is drawn, or the search did not decide it (``unknown``)."""

    kind: ValueKind
    plies: int = 0

    def __str__(self) -> str:
        if self.kind == "win":
            return f"Win({self.plies})"
        if self.kind == "lose":
            return f"Lose({self.plies})"
        return "Draw" if self.kind == "draw" else "Unknown"

    def after_move(self) -> GameValue:
        """The value of the move leading here, seen by the player who made it."""
        if self.kind == "win":
            return GameValue("lose", self.plies + 1)
        if self.kind == "lose":
            return GameValue("win", self.plies + 1)
        return self


def position_verdict(side: str, value: GameValue, depth: int | None = None) -> str:
    """How a game analysis ends, in words: the value for the side to move ("Red to move: Win(5)").

    A position has a value, not a count of solutions, so this stands in for a puzzle's verdict
    ("unique") in the CLI's result line, ``solve --json``'s "verdict" and the GUI's status bar.
    ``depth``: how far a search looked, named when it left the value Unknown."""
    text = f"{side} to move: {value}"
    if value.kind == "unknown" and depth:
        text += f" after looking {depth} moves ahead"
    return text


def take_back_ply(ply: int, side_after: Callable[[int], Hashable], computer: Container[Hashable]) -> int:
    """Where taking a move back from ``ply`` lands: one move back, and further back while the side
    to move there (``side_after(ply)``) is one the computer plays, so the player gets their turn
    back (the panels' Take back button and the boards' Backspace/right-click alike)."""
    ply = max(ply - 1, 0)
    while ply and side_after(ply) in computer:
        ply -= 1
    return ply


__all__ = ["GameRecord", "GameValue", "ValueKind", "position_verdict", "take_back_ply"]
