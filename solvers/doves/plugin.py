"""Tokyo Doves plug-in: the protocol adapter (files, check, analysis, drawing, editing dispatch).

The game record lives in ``game.py``, the editors in ``editing.py``, the board picture in
``drawing.py``, the search in ``analysis.py``/``engine.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.display import DisplayList
from solvers.common.errors import InputError, ParseError
from solvers.common.limits import shown
from solvers.common.protocol import (
    CheckResult,
    EditEvent,
    EditResult,
    PluginBase,
    ProgressFn,
    Solution,
    Tool,
)
from solvers.doves import META, drawing, editing, engine
from solvers.doves.analysis import Analysis, analyse, analysis_verdict, choose_action
from solvers.doves.game import (
    PlayEntries,
    game_status,
    legal_targets,
    outcome_word,
    replay,
    shown_position,
)
from solvers.doves.model import (
    COLOUR_NAMES,
    START,
    Position,
    format_file,
    looks_like_board,
    parse_file,
    parse_moves,
)
from solvers.doves.play import arrangement_problems, isolated_doves
from solvers.doves.rules import DEFAULT_RULES, Action, from_ssn, play, surrounded, to_ssn

DEFAULT_DEPTH = 9
MAX_MOVES = 10_000  # actions a saved game may replay; bounds the work on a hostile file


class DovesPlugin(PluginBase):
    meta = META  # declared in the package's __init__ (read without loading this module)

    # Rule options are part of the puzzle (``Position.rules``, the ``rules:`` line of a file), so
    # an analysis needs the position alone. The plug-in object keeps no state.

    # ---- formats --------------------------------------------------------------------------------
    def parse(self, text: str) -> Position:
        return parse_file(text)

    def serialize(self, puzzle: Position) -> str:
        return format_file(puzzle)

    def parse_document(self, text: str) -> tuple[Position, PlayEntries]:
        """A position under its rule options (the optional ``rules:`` line, e.g. ``remove=no
        both=draw``) plus the actions played from it (the optional ``moves:`` line, in SSN)."""
        position = parse_file(text)
        moves, line = parse_moves(text)
        if len(moves) > MAX_MOVES:
            raise ParseError(f"more than {MAX_MOVES:,} moves in the 'moves:' line", line)
        actions: list[Action] = []
        current = position
        for n, ssn in enumerate(moves, 1):
            try:
                step = play(current, from_ssn(current, ssn))
            except InputError as exc:
                raise ParseError(f"move {n} ({shown(ssn)}): {exc}", line) from None
            if step.outcome != engine.ONGOING and n < len(moves):
                raise ParseError(f"move {n + 1} comes after the game ended", line)
            actions.append(step.action)
            current = step.position
        return position, PlayEntries(tuple(actions))

    def serialize_document(self, puzzle: Position, entries: Any = None) -> str:
        game = _game(entries)
        moves = []
        current = puzzle
        for action in game.record:
            moves.append(to_ssn(current, action))
            current = play(current, action).position
        return format_file(puzzle, moves)

    def looks_like_inline(self, arg: str) -> bool:
        return looks_like_board(arg)

    def new_puzzle(self, rows: int | None = None, cols: int | None = None) -> Position:
        return START

    def describe(self, puzzle: Position) -> str:
        return f"{COLOUR_NAMES[puzzle.to_move]} to move, {_doves_words(puzzle)}"

    def describe_document(self, puzzle: Position, entries: Any) -> str:
        """What is true after the played actions, under the puzzle's rules (the set-up line alone
        would miss the moves played and the rule options)."""
        game = _game(entries)
        text, _live = game_status(puzzle, game.actions)
        parts = [text, _doves_words(replay(puzzle, game.actions).position)]
        if game.actions:
            n = len(game.actions)
            parts[0] = f"{PlayEntries.after(n).capitalize()}: {text}"  # as the CLI names it
        rules = puzzle.rules  # only what differs from the standard game: the line must stay short
        if rules.doves is not None:
            parts.append(f"doves {rules.doves_text()}")
        if not rules.allow_remove:
            parts.append("no remove")
        if rules.both_surrounded != DEFAULT_RULES.both_surrounded:
            parts.append(f"both Bosses surrounded: {rules.both_surrounded.replace('_', ' ')}")
        return "; ".join(parts)

    # ---- game record (the move list) -----------------------------------------------------------
    def record_moves(self, puzzle: Position, entries: Any) -> tuple[list[str], int]:
        """Every action of the game record in SSN (with the mover), and how many are played. The
        last move of a finished game says the outcome in a word ("Green +aN3  (wins)"): the whole
        caption cut the row off in the panel's column (QA); the panel puts it in the row's tooltip."""
        game = _game(entries)
        state = replay(puzzle, game.record)
        texts = []
        before = puzzle
        for step in state.steps:
            texts.append(f"{COLOUR_NAMES[before.to_move].capitalize()} {to_ssn(before, step.action)}")
            before = step.position
        if state.finished:
            texts[-1] += f"  ({outcome_word(state.steps[-1])})"
        return texts, min(len(game.actions), len(texts))

    def record_goto(self, puzzle: Position, entries: Any, ply: int) -> PlayEntries:
        return _game(entries).goto(ply)

    # ---- rules ----------------------------------------------------------------------------------
    def empty_entries(self, puzzle: Position) -> PlayEntries:
        return PlayEntries()

    def adapt_entries(self, puzzle: Position, entries: Any) -> PlayEntries:
        """The record's actions that are still legal from the new puzzle (e.g. after a rules
        change), shown at the same move if it is kept."""
        game = _game(entries)
        kept = len(replay(puzzle, game.record).steps)
        return PlayEntries(game.record[:kept]).goto(game.ply)

    def entries_from_solution(self, puzzle: Position, solution: Solution) -> PlayEntries:
        analysis: Analysis = solution.data
        return PlayEntries(tuple(analysis.line))

    def check(self, puzzle: Position, entries: Any = None) -> CheckResult:
        problems = arrangement_problems(puzzle)
        if problems:
            return CheckResult(False, problems)
        game = _game(entries)
        actions = game.actions
        result = replay(puzzle, actions)
        # complete = a legal record with at least one action (an analysis line may stop before the
        # end: Unknown); a set-up without actions reads "no rule broken so far", not "complete"
        complete = result.error is None and (result.finished or bool(actions))
        return CheckResult(complete, [result.error] if result.error else [])

    def warm_up(self) -> None:
        """Play in the GUI (a click, a record replayed) generates moves with the engine's numba
        kernel: load it off the GUI thread."""
        from solvers.doves.model import START
        from solvers.doves.rules import legal_steps

        legal_steps(START)

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
        """Analysis by iterative deepening, to the proven value or to depth ``DEFAULT_DEPTH``,
        under the puzzle's rules.

        With ``limit`` 0/None ("find all") every completed depth is yielded as it arrives (the
        value and best line so far); with a positive limit only the final, deepest result is
        yielded, so the shell's F5 (limit 2) and ``export --solved`` (limit 1) show the answer rather
        than the first shallow depths. Every depth is also reported through ``progress``."""
        problems = arrangement_problems(puzzle)
        if problems:
            raise InputError(problems[0].message)
        rules = puzzle.rules
        if info is not None:
            info["rules"] = rules.describe()
            info["max_depth"] = DEFAULT_DEPTH
        from solvers.doves import tablebase

        unusable: list[str] = []
        exact = tablebase.lookup(puzzle, problems=unusable)  # a solved reduced game answers at once
        if unusable:  # a damaged table: say so, and search as without one
            if info is not None:
                info["tablebase_problem"] = unusable[0]
            if progress is not None:
                progress({"fraction": 0.0, "text": f"tablebase unusable, searching: {unusable[0]}"})
        if exact is not None:
            if info is not None:
                info["tablebase"] = str(tablebase.table_path(rules))
            if progress is not None:
                progress({"fraction": 1.0, "text": f"tablebase: {exact.value}"})
            self._verdict(puzzle, exact, info)
            yield self._solution(puzzle, exact)
            return
        stream = not limit
        last: Analysis | None = None
        try:
            for last in analyse(puzzle, max_depth=DEFAULT_DEPTH, cancel=cancel):
                self._verdict(puzzle, last, info)  # before the yield: the caller may stop at it
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
        except Cancelled:
            # Cut short: the deepest finished depth is still a true answer ("Unknown after
            # searching 8 plies"), so it is shown rather than thrown away.
            if not stream and last is not None:
                yield self._solution(puzzle, last)
            raise
        if not stream and last is not None:
            yield self._solution(puzzle, last)

    def solve_position(self, puzzle: Position, entries: Any) -> tuple[Position, str]:
        return shown_position(puzzle, _game(entries).actions)

    @staticmethod
    def _verdict(puzzle: Position, result: Analysis, info: dict[str, Any] | None) -> None:
        """The position's value, in the words a game's analysis ends with (not a puzzle's "unique")."""
        if info is not None:
            info["verdict"] = analysis_verdict(puzzle, result)

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
                "source": result.source,
            },
            data=result,
            label=(
                f"tablebase: {result.value} {' '.join(result.ssn[:12])}"
                if result.source == "tablebase"
                else f"depth {result.depth}: {result.value} {' '.join(result.ssn)}"
            ).strip(),
        )

    # ---- drawing --------------------------------------------------------------------------------
    def draw(
        self,
        puzzle: Position,
        solution: Solution | None = None,
        entries: Any = None,
        overlay: Any = None,
        ui: Any = None,
    ) -> DisplayList:
        """``ui`` (the screen's ``DovesUI``) adds the picked-up dove and its legal targets."""
        overlay = overlay if isinstance(overlay, dict) else {}
        if solution is not None and isinstance(solution.data, Analysis):
            result: Analysis = solution.data
            caption = f"{COLOUR_NAMES[puzzle.to_move].capitalize()} to move: {result.value}"
            if result.source == "tablebase":
                caption += " (tablebase)"
            if result.ssn:
                caption += "\n" + " ".join(result.ssn[:8]) + (" ..." if len(result.ssn) > 8 else "")
            dl = drawing.draw_position(
                puzzle, caption=caption, surrounded=surrounded(puzzle), in_game=puzzle.rules.hand
            )
            if result.line:
                self._draw_first_action(dl, puzzle, result.line[0])
            return dl
        game = _game(entries)
        state = replay(puzzle, game.actions)
        position = state.position
        picked = ui.selected if isinstance(ui, editing.DovesUI) else None
        selected = picked if picked is not None else overlay.get("selected")
        highlights = tuple(overlay.get("highlight", ()))
        if selected is not None and not state.finished:
            highlights += tuple(legal_targets(position, selected))
        last: tuple[tuple[int, int], ...] = ()
        if state.steps:
            # the moved/put dove's square after the last action
            cells = position.cells()
            dove = state.steps[-1].action.dove
            last = (cells[dove],) if dove in cells else ()
        caption, live = game_status(puzzle, game.actions)
        if live and game.actions:
            caption += f"  (move {len(game.actions) + 1})"
        if "caption" in overlay:
            caption = str(overlay["caption"])
        origin = editing.shown_origin(ui, puzzle, bool(game.actions))  # the set-up editor's frame
        dl = drawing.draw_position(
            position,
            highlights=highlights,
            selected=selected,
            last=last,
            caption=caption,
            surrounded=surrounded(position),
            errors=isolated_doves(position),
            in_game=puzzle.rules.hand,
            origin=origin,
        )
        hint = overlay.get("hint")
        if isinstance(hint, Action) and not state.finished:
            self._draw_first_action(dl, position, hint, origin)  # the panel's "best action" hint
        return dl

    def _draw_first_action(
        self, dl: DisplayList, position: Position, action: Action, origin: drawing.Origin = (0, 0)
    ) -> None:
        """The hint: an arrow for a move on the table; for a put or a remove, which spans the
        window and would cross other tiles' letters, an outline on the dove and a ring on its goal."""
        if action.kind == "move" and action.target is not None:
            src = drawing.board_cell(*position.cells()[action.dove], origin)
            drawing.arrow(dl, src, drawing.board_cell(*action.target, origin))
            return
        if action.target is None:  # remove: from the table to its slot in the hand
            src = drawing.board_cell(*position.cells()[action.dove], origin)
            dst = drawing.hand_slot(action.dove)
        else:
            src, dst = drawing.hand_slot(action.dove), drawing.board_cell(*action.target, origin)
        drawing.mark_source(dl, src)
        drawing.mark_target(dl, dst)

    # ---- editing (solvers/doves/editing.py) ---------------------------------------------------
    def tools(self, puzzle: Position) -> list[Tool]:
        return editing.tools(puzzle)

    def new_ui(self, puzzle: Position) -> editing.DovesUI:
        return editing.DovesUI()

    def edit(self, puzzle: Position, entries: Any, event: EditEvent, ui: Any = None) -> EditResult | None:
        """``ui`` (a ``DovesUI``) carries the set-up editor's drag from press to release."""
        game = _game(entries)
        if event.mode == "play":
            state = ui if isinstance(ui, editing.DovesUI) else editing.DovesUI()
            return editing.play_edit(puzzle, game, event, state)
        state = ui if isinstance(ui, editing.DovesUI) else editing.DovesUI()
        return editing.setup_edit(puzzle, event, state)  # the new set-up keeps the rules

    # ---- AI helpers used by the panel -------------------------------------------------------------
    def current_position(self, puzzle: Position, entries: Any) -> Position:
        return replay(puzzle, _game(entries).actions).position

    def ai_entries(
        self,
        puzzle: Position,
        entries: Any,
        level: int,
        cancel: CancelToken | None = None,
        seed: int | None = None,
    ) -> PlayEntries | None:
        """Entries with the AI's action appended (None if the game is over)."""
        game = _game(entries)
        state = replay(puzzle, game.actions)
        if state.error is not None or state.finished:
            return None
        action = choose_action(state.position, level, cancel=cancel, seed=seed)
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
            ("Play: Backspace", "take the last move back (against the AI: back to your turn)"),
            (
                "Play: Delete with a dove on the table picked up",
                "return that dove to your hand; this is your move",
            ),
            ("Escape or Space", "drop the selection"),
            ("Edit: dove tool, click a square", "place that dove; right-click sends it back to hand"),
            ("Edit: S", "switch the side to move"),
        ]


def played_status(puzzle: Position, actions: tuple[Action, ...]) -> str:
    """The status line after a move: the last action and where the game stands, "Red played
    +HN1; Green to move" or "...; Red wins: the green Boss is surrounded"."""
    state = replay(puzzle, actions)
    text, _live = game_status(puzzle, actions)
    if not state.steps:
        return text
    before = state.steps[-2].position if len(state.steps) > 1 else puzzle
    mover = COLOUR_NAMES[before.to_move].capitalize()
    return f"{mover} played {to_ssn(before, state.steps[-1].action)}; {text}"


def _doves_words(position: Position) -> str:
    """The table and hand line, "5 doves on the table, 7 in hand": the hand counts the doves the
    rules play with (a reduced game has fewer than 12)."""
    on = len(position.cells())
    in_hand = max(0, bin(position.rules.hand).count("1") - on)
    return f"{on} doves on the table, {in_hand} in hand"


def _game(entries: Any) -> PlayEntries:
    """The document's game record (a fresh one when there is none)."""
    return entries if isinstance(entries, PlayEntries) else PlayEntries()


PLUGIN = DovesPlugin()

# PlayEntries, game_status, played_status, replay and arrangement_problems are imported from here
# by the panel.
__all__ = [
    "PLUGIN",
    "DovesPlugin",
    "PlayEntries",
    "arrangement_problems",
    "game_status",
    "played_status",
    "replay",
]
