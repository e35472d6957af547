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
        for word in text.split():
            key, sep, value = word.partition("=")
            key, value = key.lower(), value.lower()
            if key == "remove" and sep and value in ("yes", "no"):
                allow_remove = value == "yes"
            elif key == "both" and sep and value in JUDGES:
                both = value
            elif key == "doves" and sep:
                doves = parse_doves(value)
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
        rules.hand,
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
