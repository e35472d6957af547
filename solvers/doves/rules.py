"""Python face of the rules: actions, legal action lists, playing an action, SSN notation."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from solvers.common.errors import InputError
from solvers.common.limits import shown
from solvers.doves import engine
from solvers.doves.model import COLOUR_NAMES, LETTERS, Position

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

    @property
    def judge(self) -> int:
        if self.both_surrounded not in JUDGES:
            raise InputError(f"both-surrounded rule must be one of {', '.join(JUDGES)}")
        return JUDGES[self.both_surrounded]

    def describe(self) -> str:
        remove = "remove allowed" if self.allow_remove else "no remove"
        both = self.both_surrounded.replace("_", " ")
        return f"{remove}; both bosses surrounded: {both}"

    def to_text(self) -> str:
        """The ``rules:`` line of a ``.doves`` document: ``remove=yes both=mover_loses``."""
        return f"remove={'yes' if self.allow_remove else 'no'} both={self.both_surrounded}"

    @staticmethod
    def from_text(text: str) -> Rules:
        """Inverse of ``to_text``; options left out keep their defaults."""
        allow_remove, both = DEFAULT_RULES.allow_remove, DEFAULT_RULES.both_surrounded
        for word in text.split():
            key, sep, value = word.partition("=")
            key, value = key.lower(), value.lower()
            if key == "remove" and sep and value in ("yes", "no"):
                allow_remove = value == "yes"
            elif key == "both" and sep and value in JUDGES:
                both = value
            else:
                raise InputError(
                    f"unknown rule option {shown(word)} (expected remove=yes|no, both={'|'.join(JUDGES)})"
                )
        return Rules(allow_remove, both)


DEFAULT_RULES = Rules()
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


def legal_steps(position: Position, rules: Rules = DEFAULT_RULES) -> list[Step]:
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
    )
    nxt = 1 - position.to_move
    return [
        Step(
            Action.from_engine(buf.acts[0, k]),
            Position.from_code(int(buf.codes[0, k]), nxt),
            int(buf.outs[0, k]),
        )
        for k in range(n)
    ]


def play(position: Position, action: Action, rules: Rules = DEFAULT_RULES) -> Step:
    """Play one action; raises InputError naming the action if it is illegal here."""
    for step in legal_steps(position, rules):
        if step.action == action:
            return step
    raise InputError(f"illegal action {to_ssn(position, action)} for {COLOUR_NAMES[position.to_move]}")


def surrounded(position: Position) -> tuple[bool, bool]:
    """(red boss surrounded, green boss surrounded)."""
    libs = liberties(position)
    return libs.get(0, 1) == 0, libs.get(1, 1) == 0


def liberties(position: Position) -> dict[int, int]:
    """Liberties (empty, non-wall orthogonal neighbours) of every dove on the board."""
    pos = np.zeros(12, dtype=np.int64)
    engine.decode(np.uint64(position.code), pos)
    occ = engine.occupancy(pos)
    minr, maxr, minc, maxc = engine.bounds(occ)
    return {
        i: int(engine.liberties(int(pos[i]), occ, minr, maxr, minc, maxc)) for i in range(12) if pos[i] >= 0
    }


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


def play_line(position: Position, line: list[str], rules: Rules = DEFAULT_RULES) -> list[Step]:
    """Play SSN actions in order; stops with InputError at the first illegal one."""
    steps: list[Step] = []
    for n, text in enumerate(line, 1):
        if steps and steps[-1].outcome != engine.ONGOING:
            raise InputError(f"action {n} ({text}) comes after the game ended")
        step = play(position, from_ssn(position, text), rules)
        steps.append(step)
        position = step.position
    return steps
