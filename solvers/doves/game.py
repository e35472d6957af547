"""A Tokyo Doves game record: the actions played from a set-up, replayed under the rules.

The domain side of play mode, shared by the plug-in (check, drawing, editing), the move list and
the panel: what the record is, where it stands, and why an action is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.common.errors import InputError
from solvers.common.game import GameRecord
from solvers.common.protocol import Violation
from solvers.doves import engine
from solvers.doves.model import COLOUR_NAMES, KIND_HINTS, Position, dove_name
from solvers.doves.play import arrangement_problems, isolated_doves
from solvers.doves.rules import Action, Step, legal_steps, to_ssn


@dataclass(frozen=True)
class PlayEntries(GameRecord[Action]):
    """Play-mode state: the actions played from the set-up position (the dove picked up is UI state).

    The record itself (``moves``, ``later``, goto, then, restart) is the shared ``GameRecord``;
    ``actions`` is this game's name for ``moves``. The rule options are the puzzle's
    (``Position.rules``), not the record's: the entries are the record alone."""

    @property
    def actions(self) -> tuple[Action, ...]:
        return self.moves


@dataclass
class Replay:
    position: Position
    steps: list[Step]
    error: Violation | None = None

    @property
    def finished(self) -> bool:
        return bool(self.steps) and self.steps[-1].outcome != engine.ONGOING


def replay(position: Position, actions: tuple[Action, ...]) -> Replay:
    """The actions played from ``position`` under its rules, up to the first one that breaks them."""
    steps: list[Step] = []
    current = position
    for n, action in enumerate(actions, 1):
        if steps and steps[-1].outcome != engine.ONGOING:
            return Replay(current, steps, Violation("afterEnd", f"action {n} comes after the game ended"))
        for step in legal_steps(current):
            if step.action == action:
                steps.append(step)
                current = step.position
                break
        else:
            return Replay(
                current,
                steps,
                Violation("illegalAction", f"action {n} ({to_ssn(current, action)}) is illegal"),
            )
    return Replay(current, steps)


def shown_position(puzzle: Position, actions: tuple[Action, ...]) -> tuple[Position, str]:
    """Where a saved game stands, for whatever analyses it (the CLI's analyse, ai, perft, tablebase
    query and solve): the position after ``actions`` under the puzzle's rules, and a few words
    naming it ("after 3 moves, Green to move"; "the set-up, Red to move").

    A record the rules refuse (e.g. a Remove analysed with ``--no-remove``) or one that ended the
    game is an InputError: a search from there would answer for a position that is not the game's."""
    state = replay(puzzle, actions)
    if state.error is not None:
        raise InputError(f"the game record does not fit the rules: {state.error.message}")
    n = len(state.steps)
    if state.finished:
        outcome = engine_outcome_caption(state.steps[-1], 1 - state.position.to_move)
        raise InputError(f"nothing to analyse: the game ended with move {n} ({outcome})")
    where = PlayEntries.after(n) if n else "the set-up"
    return state.position, f"{where}, {COLOUR_NAMES[state.position.to_move].capitalize()} to move"


def game_status(puzzle: Position, actions: tuple[Action, ...]) -> tuple[str, bool]:
    """One wording for the board caption, the panel and Check: (text, whether play goes on)."""
    problems = arrangement_problems(puzzle)
    if problems:
        return f"Not a playable set-up: {problems[0].message}", False
    state = replay(puzzle, actions)
    if state.error is not None:
        return f"Not a legal game: {state.error.message}", False
    if state.finished:
        return engine_outcome_caption(state.steps[-1], 1 - state.position.to_move), False
    return f"{COLOUR_NAMES[state.position.to_move].capitalize()} to move", True


def legal_targets(position: Position, dove: int) -> list[tuple[int, int]]:
    """Squares the legal actions of ``dove`` lead to (the play-mode highlights)."""
    return [s.action.target for s in legal_steps(position) if s.action.dove == dove and s.action.target]


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def refusal(position: Position, action: Action) -> str:
    """Why an illegal action is refused, in the rulebook's words (for the status bar)."""
    name = capitalised(dove_name(action.dove))
    if action.target is None:
        if action.dove < 2:
            return "A Boss never goes back to the hand"
        if not position.rules.allow_remove:
            return "Removing a dove is switched off in the rules"
        return f"{name} cannot go back to the hand: that would leave a dove alone"
    at = position.at()
    occupant = at.get(action.target)
    if occupant is not None and occupant != action.dove:
        return f"{name} cannot go there: {dove_name(occupant)} is on that square"
    cells = position.cells()
    cells[action.dove] = action.target
    try:
        after = position.with_cells(cells)
    except InputError:
        return f"{name} cannot go there: all doves must fit in a 4x4 area"
    if isolated_doves(after):
        return f"{name} cannot go there: every dove must touch another dove"
    if action.kind == "put":
        return f"{name} must be put next to an own dove, and not beside the enemy Boss"
    return f"{name} cannot reach that square: it {KIND_HINTS[action.dove >> 1]}"


def winner(state: Replay) -> int | None:
    """The colour that won a finished game (None: a draw, or the game goes on)."""
    if not state.finished:
        return None
    outcome, mover = state.steps[-1].outcome, 1 - state.position.to_move
    if outcome == engine.MOVER_WINS:
        return mover
    if outcome == engine.MOVER_LOSES:
        return 1 - mover
    return None


def outcome_word(step: Step) -> str:
    """The end of the game in a word, for the move list's row of the last move: "wins", "loses"
    (surrounded its own Boss) or "draw"; ``engine_outcome_caption`` says it in full."""
    return {engine.MOVER_WINS: "wins", engine.MOVER_LOSES: "loses"}.get(step.outcome, "draw")


def engine_outcome_caption(step: Step, mover: int) -> str:
    if step.outcome == engine.MOVER_WINS:
        return f"{COLOUR_NAMES[mover].capitalize()} wins: the {COLOUR_NAMES[1 - mover]} Boss is surrounded"
    if step.outcome == engine.MOVER_LOSES:
        return f"{COLOUR_NAMES[1 - mover].capitalize()} wins: {COLOUR_NAMES[mover]} surrounded their own Boss"
    return "Draw: both Bosses surrounded"
