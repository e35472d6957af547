"""The value of a Tokyo Doves position and an analysis result, shared by the search
(``analysis``) and the solved tables (``tablebase``) without either importing the other."""

from __future__ import annotations

from dataclasses import dataclass, field

from solvers.doves.model import Position
from solvers.doves.rules import Action


@dataclass
class Value:
    """Win(n) / Lose(n) in plies for the side to move, or Unknown (searched ``depth`` plies)."""

    kind: str  # "win" | "lose" | "draw" (a tablebase's exact draw) | "unknown"
    plies: int = 0
    depth: int = 0

    def __str__(self) -> str:
        if self.kind == "win":
            return f"Win({self.plies})"
        if self.kind == "lose":
            return f"Lose({self.plies})"
        if self.kind == "draw":
            return "Draw"
        return "Unknown"


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
