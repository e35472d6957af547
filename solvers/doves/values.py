"""The value of a Tokyo Doves position and an analysis result, shared by the search
(``analysis``) and the solved tables (``tablebase``) without either importing the other."""

from __future__ import annotations

from dataclasses import dataclass, field

from solvers.common.game import GameValue
from solvers.doves.model import Position
from solvers.doves.rules import Action


@dataclass(frozen=True)
class Value(GameValue):
    """The shared game value (``Win(n)`` / ``Lose(n)`` in plies for the side to move, ``Draw`` for a
    tablebase's exact draw, or ``Unknown``) plus the plies the search looked ahead (``depth``)."""

    depth: int = 0


@dataclass
class Analysis:
    value: Value
    line: list[Action]  # best line (proven values) or a surviving first action (Unknown)
    ssn: list[str]
    nodes: int
    seconds: float
    depth: int
    positions: list[Position] = field(default_factory=list)  # position before each action of ``line``
    source: str = "search"  # or "tablebase" (tablebase.lookup: exact, read from a solved table)
