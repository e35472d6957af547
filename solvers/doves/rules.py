"""Python face of the rules: actions, legal action lists, playing an action, SSN notation.

The rule options (``Rules``) live in ``model.py`` because a ``Position`` carries them; they are
re-exported here, where their callers have always imported them from."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from solvers.common.errors import InputError
from solvers.doves import engine
from solvers.doves.model import COLOUR_NAMES, DEFAULT_RULES, JUDGES, LETTERS, Position, Rules, parse_doves

KINDS = ("put", "move", "remove")


@dataclass(frozen=True)
class Action:
    """One action in the frame of the position it is played from (row/col may be -1 or 4)."""

    kind: str  # "put" | "move" | "remove"
    dove: int
    target: tuple[int, int] | None = None  # None for remove

    @staticmethod
    def from_engine(code: int) -> Action:
        kind, rest = divmod(int(code), 1024)
        dove, cell = divmod(rest, 64)
        if kind == engine.REMOVE:
            return Action("remove", dove)
        return Action(KINDS[kind], dove, (cell // 8 - 2, cell % 8 - 2))


@dataclass(frozen=True)
class Step:
    action: Action
    position: Position  # the position after the action (other side to move)
    outcome: int  # engine.ONGOING / MOVER_WINS / MOVER_LOSES / DRAW, seen from the mover


def legal_steps(position: Position) -> list[Step]:
    """Every legal action under the position's rules; each successor keeps those rules."""
    rules = position.rules
    buf = engine.Buffers(1)
    n = engine.generate(
        np.uint64(position.code),
        position.to_move,
        rules.allow_remove,
        rules.judge,
        buf.pos[0],
        buf.acts[0],
        buf.codes[0],
        buf.outs[0],
        buf.libs[0],
        rules.hand,
    )
    nxt = 1 - position.to_move
    return [
        Step(
            Action.from_engine(buf.acts[0, k]),
            Position.from_code(int(buf.codes[0, k]), nxt, rules),
            int(buf.outs[0, k]),
        )
        for k in range(n)
    ]


def play(position: Position, action: Action) -> Step:
    """Play one action; raises InputError naming the action if it is illegal here."""
    for step in legal_steps(position):
        if step.action == action:
            return step
    raise InputError(f"illegal action {to_ssn(position, action)} for {COLOUR_NAMES[position.to_move]}")


def surrounded(position: Position) -> tuple[bool, bool]:
    """(red boss surrounded, green boss surrounded)."""
    libs = liberties(position)
    return libs.get(0, 1) == 0, libs.get(1, 1) == 0


def liberties(position: Position) -> dict[int, int]:
    """Liberties (empty, non-wall orthogonal neighbours) of every dove on the board.

    Plain Python on purpose: the board, the panel and the status lines ask this of one position on
    the GUI thread, where the engine's numba kernel would first have to load (seconds on a fresh
    install). ``engine.liberties`` is the search's version; a test checks that both agree."""
    cells = position.cells()
    if not cells:
        return {}
    rows = [r for r, _ in cells.values()]
    cols = [c for _, c in cells.values()]
    minr, maxr, minc, maxc = min(rows), max(rows), min(cols), max(cols)
    # A full span of four rows (columns) puts walls just outside it: the board is at most 4x4.
    wall_rows, wall_cols = maxr - minr == 3, maxc - minc == 3
    occupied = set(cells.values())
    out = {}
    for dove, (r, c) in cells.items():
        free = 0
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if (wall_rows and not minr <= nr <= maxr) or (wall_cols and not minc <= nc <= maxc):
                continue
            free += (nr, nc) not in occupied
        out[dove] = free
    return out


# ---- SSN (R1's Standard Short Notation, coordinates relative to the red boss) ---------------------
def _square(dr: int, dc: int) -> str:
    ns = f"S{dr}" if dr > 0 else f"N{-dr}" if dr < 0 else ""
    ew = f"E{dc}" if dc > 0 else f"W{-dc}" if dc < 0 else ""
    return ns + ew


def to_ssn(position: Position, action: Action) -> str:
    letter = LETTERS[action.dove]
    if action.kind == "remove":
        return f"-{letter}"
    assert action.target is not None
    br, bc = position.cells()[0]
    square = _square(action.target[0] - br, action.target[1] - bc)
    return f"+{letter}{square}" if action.kind == "put" else f"{letter}{square}"


SSN_RE = re.compile(r"^\s*([+-]?)([BbAaYyMmTtHh])((?:[NS][1-9])?)((?:[EW][1-9])?)\s*$")


def from_ssn(position: Position, text: str) -> Action:
    """Parse SSN for ``position`` (the action is not checked for legality here)."""
    m = SSN_RE.match(text)
    if not m:
        raise InputError(f"not an SSN action: {text!r} (e.g. '+AS1', 'mE2', '-t')")
    sign, letter, ns, ew = m.groups()
    dove = LETTERS.index(letter)
    if sign == "-":
        if ns or ew:
            raise InputError(f"a remove takes no square: {text!r}")
        return Action("remove", dove)
    dr = (int(ns[1]) * (1 if ns[0] == "S" else -1)) if ns else 0
    dc = (int(ew[1]) * (1 if ew[0] == "E" else -1)) if ew else 0
    br, bc = position.cells()[0]
    return Action("put" if sign == "+" else "move", dove, (br + dr, bc + dc))


def play_line(position: Position, line: list[str]) -> list[Step]:
    """Play SSN actions in order; stops with InputError at the first illegal one."""
    steps: list[Step] = []
    for n, text in enumerate(line, 1):
        if steps and steps[-1].outcome != engine.ONGOING:
            raise InputError(f"action {n} ({text}) comes after the game ended")
        step = play(position, from_ssn(position, text))
        steps.append(step)
        position = step.position
    return steps


__all__ = [
    "DEFAULT_RULES",
    "JUDGES",
    "Action",
    "Position",
    "Rules",
    "Step",
    "from_ssn",
    "legal_steps",
    "liberties",
    "parse_doves",
    "play",
    "play_line",
    "surrounded",
    "to_ssn",
]
