"""Tokyo Doves plug-in: position files, checks, analysis, drawing, set-up editor and play."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.display import DisplayList
from solvers.common.errors import InputError, ParseError
from solvers.common.limits import shown
from solvers.common.protocol import (
    GAME,
    PLAY,
    SOLVE,
    CheckResult,
    EditEvent,
    EditResult,
    Meta,
    PluginBase,
    ProgressFn,
    Solution,
    Tool,
    Violation,
)
from solvers.doves import drawing, engine
from solvers.doves.analysis import Analysis, analyse, choose_action
from solvers.doves.model import (
    COLOUR_NAMES,
    KIND_HINTS,
    KIND_NAMES,
    LETTERS,
    START,
    Position,
    dove_name,
    format_file,
    looks_like_board,
    parse_file,
    parse_moves,
)
from solvers.doves.play import arrangement_problems, isolated_doves
from solvers.doves.rules import (
    DEFAULT_RULES,
    Action,
    Rules,
    Step,
    from_ssn,
    legal_steps,
    play,
    surrounded,
    to_ssn,
)

DEFAULT_DEPTH = 9
MAX_MOVES = 10_000  # actions a saved game may replay; bounds the work on a hostile file


@dataclass(frozen=True)
class PlayEntries:
    """Play-mode state: actions played from the set-up position, and a dove picked up (or None).

    ``later`` holds the game record's actions after the shown position (the move list's "forward"):
    going back keeps them, playing another action there replaces them (one undoable edit)."""

    actions: tuple[Action, ...] = ()
    selected: int | None = None
    later: tuple[Action, ...] = ()

    @property
    def record(self) -> tuple[Action, ...]:
        return self.actions + self.later

    def goto(self, ply: int) -> PlayEntries:
        """The same record shown after its first ``ply`` actions."""
        record = self.record
        ply = max(0, min(ply, len(record)))
        return PlayEntries(record[:ply], None, record[ply:])

    def then(self, action: Action) -> PlayEntries:
        """``action`` played at the shown position: the record's next action keeps the rest."""
        later = self.later[1:] if self.later[:1] == (action,) else ()
        return PlayEntries(self.actions + (action,), None, later)


@dataclass
class Replay:
    position: Position
    steps: list[Step]
    error: Violation | None = None

    @property
    def finished(self) -> bool:
        return bool(self.steps) and self.steps[-1].outcome != engine.ONGOING


def replay(position: Position, actions: tuple[Action, ...], rules: Rules = DEFAULT_RULES) -> Replay:
    steps: list[Step] = []
    current = position
    for n, action in enumerate(actions, 1):
        if steps and steps[-1].outcome != engine.ONGOING:
            return Replay(current, steps, Violation("afterEnd", f"action {n} comes after the game ended"))
        for step in legal_steps(current, rules):
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


def game_status(
    puzzle: Position, actions: tuple[Action, ...], rules: Rules = DEFAULT_RULES
) -> tuple[str, bool]:
    """One wording for the board caption, the panel and Check: (text, whether play goes on)."""
    problems = arrangement_problems(puzzle)
    if problems:
        return f"Not a playable set-up: {problems[0].message}", False
    state = replay(puzzle, actions, rules)
    if state.error is not None:
        return f"Not a legal game: {state.error.message}", False
    if state.finished:
        return engine_outcome_caption(state.steps[-1], 1 - state.position.to_move), False
    return f"{COLOUR_NAMES[state.position.to_move].capitalize()} to move", True


class DovesPlugin(PluginBase):
    meta = Meta(
        id="doves",
        name="Tokyo Doves",
        description="Two-player tile game on a floating 4x4 field: surround the enemy Boss dove. "
        "Exact Win(n)/Lose(n) analysis, AI, position counter.",
        extensions=(".doves",),
        aliases=("tokyodoves", "tokyo-doves"),
        capabilities=frozenset({SOLVE, PLAY, GAME}),
    )

    def __init__(self) -> None:
        self.rules = DEFAULT_RULES
        self._drag: tuple[str, int] | None = None  # edit-mode drag source: ("board"|"hand", dove)

    # ---- formats --------------------------------------------------------------------------------
    def parse(self, text: str) -> Position:
        return parse_file(text)

    def serialize(self, puzzle: Position) -> str:
        return format_file(puzzle)

    def parse_document(self, text: str) -> tuple[Position, PlayEntries]:
        """A position plus the actions played from it (the optional ``moves:`` line, in SSN)."""
        position = parse_file(text)
        moves, line = parse_moves(text)
        if len(moves) > MAX_MOVES:
            raise ParseError(f"more than {MAX_MOVES:,} moves in the 'moves:' line", line)
        actions: list[Action] = []
        current = position
        for n, ssn in enumerate(moves, 1):
            try:
                step = play(current, from_ssn(current, ssn), self.rules)
            except InputError as exc:
                raise ParseError(f"move {n} ({shown(ssn)}): {exc}", line) from None
            if step.outcome != engine.ONGOING and n < len(moves):
                raise ParseError(f"move {n + 1} comes after the game ended", line)
            actions.append(step.action)
            current = step.position
        return position, PlayEntries(tuple(actions))

    def serialize_document(self, puzzle: Position, entries: Any = None) -> str:
        actions = entries.record if isinstance(entries, PlayEntries) else ()
        moves = []
        current = puzzle
        for action in actions:
            moves.append(to_ssn(current, action))
            current = play(current, action, self.rules).position
        return format_file(puzzle, moves)

    def looks_like_inline(self, arg: str) -> bool:
        return looks_like_board(arg)

    def new_puzzle(self, rows: int | None = None, cols: int | None = None) -> Position:
        return START

    def describe(self, puzzle: Position) -> str:
        on = len(puzzle.cells())
        return f"{COLOUR_NAMES[puzzle.to_move]} to move, {on} doves on the table, {12 - on} in hand"

    # ---- game record (the move list) -----------------------------------------------------------
    def record_moves(self, puzzle: Position, entries: Any) -> tuple[list[str], int]:
        """Every action of the game record in SSN (with the mover), and how many are played."""
        game = entries if isinstance(entries, PlayEntries) else PlayEntries()
        state = replay(puzzle, game.record, self.rules)
        texts = []
        before = puzzle
        for step in state.steps:
            texts.append(f"{COLOUR_NAMES[before.to_move].capitalize()} {to_ssn(before, step.action)}")
            before = step.position
        if state.finished:
            texts[-1] += f"  ({engine_outcome_caption(state.steps[-1], 1 - before.to_move)})"
        return texts, min(len(game.actions), len(texts))

    def record_goto(self, puzzle: Position, entries: Any, ply: int) -> PlayEntries:
        game = entries if isinstance(entries, PlayEntries) else PlayEntries()
        return game.goto(ply)

    # ---- rules ----------------------------------------------------------------------------------
    def empty_entries(self, puzzle: Position) -> PlayEntries:
        return PlayEntries()

    def entries_from_solution(self, puzzle: Position, solution: Solution) -> PlayEntries:
        analysis: Analysis = solution.data
        return PlayEntries(tuple(analysis.line))

    def check(self, puzzle: Position, entries: Any = None) -> CheckResult:
        problems = arrangement_problems(puzzle)
        if problems:
            return CheckResult(False, problems)
        actions = entries.actions if isinstance(entries, PlayEntries) else ()
        result = replay(puzzle, actions, self.rules)
        # complete = a legal record with at least one action (an analysis line may stop before the
        # end: Unknown); a set-up without actions reads "no rule broken so far", not "complete"
        complete = result.error is None and (result.finished or bool(actions))
        return CheckResult(complete, [result.error] if result.error else [])

    # ---- analysis -------------------------------------------------------------------------------
    def solve(
        self,
        puzzle: Position,
        *,
        limit: int | None = 2,
        cancel: CancelToken | None = None,
        progress: ProgressFn | None = None,
        info: dict[str, Any] | None = None,
    ) -> Iterator[Solution]:
        """Analysis by iterative deepening, to the proven value or to depth ``DEFAULT_DEPTH``.

        With ``limit`` 0/None ("find all") every completed depth is yielded as it arrives (the
        value and best line so far); with a positive limit only the final, deepest result is
        yielded, so the shell's F5 (limit 2) and ``export --solved`` (limit 1) show the answer rather
        than the first shallow depths. Every depth is also reported through ``progress``."""
        problems = arrangement_problems(puzzle)
        if problems:
            raise InputError(problems[0].message)
        if info is not None:
            info["rules"] = self.rules.describe()
            info["max_depth"] = DEFAULT_DEPTH
        stream = not limit
        last: Analysis | None = None
        for last in analyse(puzzle, max_depth=DEFAULT_DEPTH, rules=self.rules, cancel=cancel):
            if progress is not None:
                best = " ".join(last.ssn[:3])
                progress(
                    {
                        "fraction": last.depth / DEFAULT_DEPTH,
                        "text": f"depth {last.depth}: {last.value} {best}".strip(),
                    }
                )
            if stream:
                yield self._solution(puzzle, last)
        if not stream and last is not None:
            yield self._solution(puzzle, last)

    def _solution(self, puzzle: Position, result: Analysis) -> Solution:
        return Solution(
            grid=puzzle.rows(),
            extras={
                "value": str(result.value),
                "best": result.ssn,
                "depth": result.depth,
                "nodes": result.nodes,
                "seconds": round(result.seconds, 3),
                "to_move": COLOUR_NAMES[puzzle.to_move],
            },
            data=result,
            label=f"depth {result.depth}: {result.value} {' '.join(result.ssn)}".strip(),
        )

    # ---- drawing --------------------------------------------------------------------------------
    def draw(
        self, puzzle: Position, solution: Solution | None = None, entries: Any = None, overlay: Any = None
    ) -> DisplayList:
        overlay = overlay if isinstance(overlay, dict) else {}
        if solution is not None and isinstance(solution.data, Analysis):
            result: Analysis = solution.data
            caption = f"{COLOUR_NAMES[puzzle.to_move].capitalize()} to move: {result.value}"
            if result.ssn:
                caption += "\n" + " ".join(result.ssn[:8]) + (" ..." if len(result.ssn) > 8 else "")
            dl = drawing.draw_position(puzzle, caption=caption, surrounded=surrounded(puzzle))
            if result.line:
                self._draw_first_action(dl, puzzle, result.line[0])
            return dl
        game = entries if isinstance(entries, PlayEntries) else PlayEntries()
        state = replay(puzzle, game.actions, self.rules)
        position = state.position
        selected = game.selected if game.selected is not None else overlay.get("selected")
        highlights = tuple(overlay.get("highlight", ()))
        if selected is not None and not state.finished:
            highlights += tuple(self._targets(position, selected))
        last: tuple[tuple[int, int], ...] = ()
        if state.steps:
            # the moved/put dove's square after the last action
            cells = position.cells()
            dove = state.steps[-1].action.dove
            last = (cells[dove],) if dove in cells else ()
        caption, live = game_status(puzzle, game.actions, self.rules)
        if live and game.actions:
            caption += f"  (move {len(game.actions) + 1})"
        if "caption" in overlay:
            caption = str(overlay["caption"])
        dl = drawing.draw_position(
            position,
            highlights=highlights,
            selected=selected,
            last=last,
            caption=caption,
            surrounded=surrounded(position),
            errors=isolated_doves(position),
        )
        hint = overlay.get("hint")
        if isinstance(hint, Action) and not state.finished:
            self._draw_first_action(dl, position, hint)  # the panel's "best action" hint
        return dl

    def _draw_first_action(self, dl: DisplayList, position: Position, action: Action) -> None:
        """The hint: an arrow for a move on the table; for a put or a remove, which spans the
        window and would cross other tiles' letters, an outline on the dove and a ring on its goal."""
        if action.kind == "move" and action.target is not None:
            src = drawing.board_cell(*position.cells()[action.dove])
            drawing.arrow(dl, src, drawing.board_cell(*action.target))
            return
        if action.target is None:  # remove: from the table to its slot in the hand
            src, dst = drawing.board_cell(*position.cells()[action.dove]), drawing.hand_slot(action.dove)
        else:
            src, dst = drawing.hand_slot(action.dove), drawing.board_cell(*action.target)
        drawing.mark_source(dl, src)
        drawing.mark_target(dl, dst)

    def _targets(self, position: Position, dove: int) -> list[tuple[int, int]]:
        return [
            s.action.target
            for s in legal_steps(position, self.rules)
            if s.action.dove == dove and s.action.target
        ]

    # ---- editing --------------------------------------------------------------------------------
    def tools(self, puzzle: Position) -> list[Tool]:
        tools = [
            Tool(
                "move",
                "Move / play",
                shortcut="V",
                mode="both",
                tip="Edit: drag doves between the table and the hands. Play: click an own dove, then its "
                "target (or drag it); click its hand slot to take it back to hand",
            )
        ]
        for i, letter in enumerate(LETTERS):
            # the tile letter plus the name: capital = red, lower case = green, as on the tiles
            tools.append(Tool(f"dove:{letter}", f"{letter} {KIND_NAMES[i >> 1]}", tip=dove_tip(i)))
        tools.append(
            Tool("erase", "Back to hand", shortcut="E", tip="Click a dove to put it back in its hand")
        )
        tools.append(Tool("side", "Switch side to move", shortcut="S", tip="Red or Green moves first"))
        return tools

    def edit(self, puzzle: Position, entries: Any, event: EditEvent) -> EditResult | None:
        if event.mode == "play":
            return self._play(puzzle, entries if isinstance(entries, PlayEntries) else PlayEntries(), event)
        return self._setup(puzzle, event)

    def _setup(self, puzzle: Position, event: EditEvent) -> EditResult | None:
        if (
            event.kind == "key"
            and event.key.upper() == "S"
            or (event.kind == "press" and event.tool == "side")
        ):
            return EditResult(
                puzzle=puzzle.with_to_move(1 - puzzle.to_move),
                entries=PlayEntries(),
                label="Switch side to move",
            )
        if event.cell is None or event.kind not in ("press", "release"):
            return None
        gr, gc = event.cell
        square = drawing.window_square(gr, gc)
        at = puzzle.at()
        if event.kind == "press":
            self._drag = None
            is_dove_tool = (
                len(event.tool) == 6 and event.tool.startswith("dove:") and event.tool[5] in LETTERS
            )
            if is_dove_tool and square is not None:
                return self._place(puzzle, LETTERS.index(event.tool[5:]), square)
            if event.tool == "erase" or event.button == "right":
                if square in at and at[square] >= 2:
                    return self._to_hand(puzzle, at[square])
                return None
            if square in at:
                self._drag = ("board", at[square])
            elif hand_dove := drawing.hand_dove_at(gr, gc):
                if hand_dove not in puzzle.cells():
                    self._drag = ("hand", hand_dove)
            return None
        drag, self._drag = self._drag, None
        if drag is None:
            return None
        _, dove = drag
        if square is not None and square != puzzle.cells().get(dove):
            return self._place(puzzle, dove, square)
        if square is None and drawing.hand_dove_at(gr, gc) is not None and dove >= 2 and drag[0] == "board":
            return self._to_hand(puzzle, dove)
        return None

    def _place(self, puzzle: Position, dove: int, square: tuple[int, int]) -> EditResult | None:
        cells = puzzle.cells()
        occupant = puzzle.at().get(square)
        if occupant is not None and occupant != dove:
            if occupant < 2:
                return EditResult(
                    label=f"{_cap(dove_name(occupant))} holds that square: a Boss stays on the table"
                )
            del cells[occupant]
        cells[dove] = square
        try:
            moved = Position.from_cells(cells, puzzle.to_move)
        except InputError:
            return EditResult(
                label=f"{_cap(dove_name(dove))} cannot go there: all doves must fit in a 4x4 area"
            )
        if moved == puzzle:
            return None
        return EditResult(
            puzzle=moved, entries=PlayEntries(), label=f"Place {dove_name(dove)}", merge_key=None
        )

    def _to_hand(self, puzzle: Position, dove: int) -> EditResult | None:
        cells = puzzle.cells()
        del cells[dove]
        return EditResult(
            puzzle=Position.from_cells(cells, puzzle.to_move),
            entries=PlayEntries(),
            label=f"{dove_name(dove)} to hand",
        )

    def _play(self, puzzle: Position, entries: PlayEntries, event: EditEvent) -> EditResult | None:
        state = replay(puzzle, entries.actions, self.rules)
        if state.error is not None or state.finished:
            return None
        position = state.position
        mover = position.to_move
        if event.kind == "key" and event.key in ("Escape", "Space") and entries.selected is not None:
            return EditResult(
                entries=replace(entries, selected=None), label="Deselect", merge_key=self._merge(entries)
            )
        if event.kind == "key" and event.key in ("Delete", "Backspace") and entries.selected is not None:
            return self._act(position, entries, Action("remove", entries.selected))
        if event.cell is None or event.kind not in ("press", "release"):
            return None
        if event.button == "right":
            return EditResult(
                entries=replace(entries, selected=None), label="Deselect", merge_key=self._merge(entries)
            )
        gr, gc = event.cell
        square = drawing.window_square(gr, gc)
        at = position.at()
        selected = entries.selected
        hand_dove = drawing.hand_dove_at(gr, gc)
        if event.kind == "press":
            if square in at and at[square] & 1 == mover and at[square] != selected:
                return EditResult(
                    entries=replace(entries, selected=at[square]),
                    label="Pick up dove",
                    merge_key=self._merge(entries),
                )
            if hand_dove is not None and hand_dove & 1 == mover and hand_dove not in position.cells():
                return EditResult(
                    entries=replace(entries, selected=hand_dove),
                    label="Pick up dove",
                    merge_key=self._merge(entries),
                )
            if selected is None:
                if square in at or hand_dove is not None:
                    colour = COLOUR_NAMES[mover]
                    return EditResult(label=f"It is {colour.capitalize()}'s turn: pick up a {colour} dove")
                return None
            if hand_dove is not None and hand_dove & 1 == mover and selected in position.cells():
                return self._act(position, entries, Action("remove", selected))
            if square is not None:
                kind = "move" if selected in position.cells() else "put"
                return self._act(position, entries, Action(kind, selected, square))
            return None
        # release: drag-and-drop onto a different square
        if selected is None or square is None or position.cells().get(selected) == square:
            return None
        kind = "move" if selected in position.cells() else "put"
        return self._act(position, entries, Action(kind, selected, square))

    def _merge(self, entries: PlayEntries) -> str:
        return f"doves-turn-{len(entries.actions)}"

    def _act(self, position: Position, entries: PlayEntries, action: Action) -> EditResult | None:
        for step in legal_steps(position, self.rules):
            if step.action == action:
                after = entries.then(action)
                label = f"Play {to_ssn(position, action)}"
                if entries.later and not after.later and entries.later[:1] != (action,):
                    label += f" (replaces {len(entries.later)} later moves)"
                return EditResult(entries=after, label=label, merge_key=self._merge(entries))
        return EditResult(label=refusal(position, action, self.rules))  # nothing changes: says why

    # ---- AI helpers used by the panel -------------------------------------------------------------
    def current_position(self, puzzle: Position, entries: Any) -> Position:
        game = entries if isinstance(entries, PlayEntries) else PlayEntries()
        return replay(puzzle, game.actions, self.rules).position

    def ai_entries(
        self,
        puzzle: Position,
        entries: Any,
        level: int,
        cancel: CancelToken | None = None,
        seed: int | None = None,
    ) -> PlayEntries | None:
        """Entries with the AI's action appended (None if the game is over)."""
        game = entries if isinstance(entries, PlayEntries) else PlayEntries()
        state = replay(puzzle, game.actions, self.rules)
        if state.error is not None or state.finished:
            return None
        action = choose_action(state.position, level, rules=self.rules, cancel=cancel, seed=seed)
        if action is None:
            return None
        return PlayEntries(game.actions + (action,))

    # ---- module CLI -------------------------------------------------------------------------------
    # ---- help ---------------------------------------------------------------------------------
    def help_rules(self) -> str:
        return (
            "Two players, red and green, each have six doves: a Boss and five others that move "
            "differently (A king step, Y one step straight, M one step diagonally, T slides straight,"
            " H knight jump). No dove is captured.\n\n"
            "On your turn either put a dove from your hand onto the table touching one of your own "
            "doves, move a dove by its pattern, or take one of your own doves (not the Boss) back to "
            "your hand. The doves must always fit in a 4x4 area and none may be isolated. Surround "
            "the enemy Boss on all four sides (by doves or the edge of the 4x4 area) to win."
        )

    def help_keys(self) -> list[tuple[str, str]]:
        return [
            ("Play: click one of your doves, then a square", "move it there (legal squares are marked)"),
            ("Play: click a dove in your hand, then a square", "put it onto the table"),
            ("Play: Delete with a dove selected", "take it back to your hand"),
            ("Escape or Space", "drop the selection"),
            ("Edit: dove tool, click a square", "place that dove; right-click sends it back to hand"),
            ("Edit: S", "switch the side to move"),
        ]

    def cli(self, argv: list[str]) -> int:
        from solvers.doves.cli import main

        return main(argv, self)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def refusal(position: Position, action: Action, rules: Rules = DEFAULT_RULES) -> str:
    """Why an illegal action is refused, in the rulebook's words (for the status bar)."""
    name = _cap(dove_name(action.dove))
    if action.target is None:
        if action.dove < 2:
            return "A Boss never goes back to the hand"
        if not rules.allow_remove:
            return "Removing a dove is switched off in the rules"
        return f"{name} cannot go back to the hand: that would leave a dove alone"
    at = position.at()
    occupant = at.get(action.target)
    if occupant is not None and occupant != action.dove:
        return f"{name} cannot go there: {dove_name(occupant)} is on that square"
    cells = position.cells()
    cells[action.dove] = action.target
    try:
        after = Position.from_cells(cells, position.to_move)
    except InputError:
        return f"{name} cannot go there: all doves must fit in a 4x4 area"
    if isolated_doves(after):
        return f"{name} cannot go there: every dove must touch another dove"
    if action.kind == "put":
        return f"{name} must be put next to an own dove, and not beside the enemy Boss"
    return f"{name} cannot reach that square: it {KIND_HINTS[action.dove >> 1]}"


def dove_tip(dove: int) -> str:
    """Tooltip of a dove tool: its name, how it moves, and what a click does."""
    colour = COLOUR_NAMES[dove & 1].capitalize()
    return (
        f"{colour} {KIND_NAMES[dove >> 1]} ({LETTERS[dove]}): {KIND_HINTS[dove >> 1]}. "
        "Click a square to place it there (all doves must fit in a 4x4 area)"
    )


def engine_outcome_caption(step: Step, mover: int) -> str:
    if step.outcome == engine.MOVER_WINS:
        return f"{COLOUR_NAMES[mover].capitalize()} wins: the {COLOUR_NAMES[1 - mover]} Boss is surrounded"
    if step.outcome == engine.MOVER_LOSES:
        return f"{COLOUR_NAMES[1 - mover].capitalize()} wins: {COLOUR_NAMES[mover]} surrounded their own Boss"
    return "Draw: both Bosses surrounded"


PLUGIN = DovesPlugin()

__all__ = ["PLUGIN", "DovesPlugin", "PlayEntries"]
