"""X-ceter-O plug-in: position files, validity check, perfect-play analysis, play and set-up editing.

The "puzzle" is a position (``rules.Position``); entries are the moves played from it in play mode,
each the destination square (0..8) of the piece due.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.display import DisplayList
from solvers.common.errors import InputError, ParseError
from solvers.common.game import GameRecord, position_verdict, take_back_ply
from solvers.common.protocol import (
    CheckResult,
    EditEvent,
    EditResult,
    PluginBase,
    ProgressFn,
    Solution,
    Tool,
    Violation,
)
from solvers.common.words import cells_text
from solvers.xcetero import META, engine, notation
from solvers.xcetero.drawing import draw_position
from solvers.xcetero.rules import PIECES, UNPLACED, Position, owner

Moves = tuple[int, ...]

# What the full retrograde analysis says of the start (tests/xcetero compare it with retro.summary);
# the help once said "neither side can force a win", against the panel's Win(13) beside it.
START_RESULT = (
    "With best play O, who moves first, wins in 13 plies by opening on the middle of a side (R1C2, "
    "R2C1, R2C3 or R3C2); a corner or centre opening only draws."
)


@dataclass(frozen=True)
class Game(GameRecord[int]):
    """Play-mode entries: the moves (destination squares) played from the set-up, and the record's
    ``later`` moves after the shown position (the shared ``GameRecord``: goto, then, restart)."""


def _game(entries: Any) -> Game:
    if isinstance(entries, Game):
        return entries
    return Game(tuple(int(m) for m in entries) if entries else ())


@dataclass
class XceteroUI:
    """The sides the computer plays (the panel keeps it current), so that taking a move back on
    the board returns to the player's turn, as the panel's Take back button does: before, a
    right-click took back only the computer's reply, and with the computer to move nothing came."""

    computer: frozenset[str] = frozenset()


def _entries(entries: Any) -> Moves:
    return _game(entries).moves


def verdict(position: Position) -> str:
    """The exact value of ``position`` in the games' one wording ("O to move: Win(5)"), for
    ``workbench solve`` and the panel's status line alike."""
    return position_verdict(position.mover(), engine.value(position).game_value())


def replay(position: Position, moves: Moves) -> tuple[Position, list[Violation], list[Position]]:
    """Play ``moves`` from ``position``; stops at the first bad move. Returns (end, problems, history)."""
    history = [position]
    for ply, square in enumerate(moves, start=1):
        reps = position.rules.repetition
        if position.winner():
            return position, [Violation("moveAfterEnd", f"move {ply}: the game is already won")], history
        if reps and sum(1 for p in history if p.key() == position.key()) >= reps:
            return (
                position,
                [Violation("moveAfterDraw", f"move {ply}: the game is drawn by repetition")],
                history,
            )
        if not 0 <= square < 9 or not position.is_legal(square):
            cells = ((square // 3, square % 3),) if 0 <= square < 9 else ()
            why = f"move {ply}: piece {position.due} cannot go to {engine.square_name(square)}"
            return position, [Violation("illegalMove", why, cells)], history
        position = position.play(square)
        history.append(position)
    return position, [], history


def refusal(end: Position, square: int, bad: list[Violation], history: list[Position]) -> str:
    """Why the due piece cannot go to ``square`` (empty if it can)."""
    if bad:
        return f"Cannot play: {bad[0].message}"
    if end.winner():
        return f"The game is over: {end.winner()} has won"
    reps = end.rules.repetition
    if reps and [p.key() for p in history].count(end.key()) >= reps:
        return "The game is over: drawn by repetition"
    if end.is_legal(square):
        return ""
    occupant = end.board()[square]
    tag = f"{owner(end.due)}{end.due}"
    if occupant == end.due:
        return f"{tag} must jump to another square (the rules forbid going back to its own square)"
    if occupant:
        whose = "your own" if owner(occupant) == end.mover() else "the opponent's"
        return (
            f"{engine.square_name(square)} is taken by {whose} piece {owner(occupant)}{occupant}: "
            f"{tag} needs an empty square"
        )
    return f"{tag} cannot go to {engine.square_name(square)}"


def pv_text(position: Position, moves: list[int]) -> str:
    words = []
    for square in moves:
        words.append(engine.describe_move(position, square))
        position = position.play(square)
    return " ".join(words)


class XceteroPlugin(PluginBase):
    meta = META  # declared in the package's __init__ (read without loading this module)

    # ---- formats --------------------------------------------------------------------------------
    def parse(self, text: str) -> Position:
        return self.parse_document(text)[0]

    def serialize(self, puzzle: Position) -> str:
        return notation.to_file(puzzle)

    def parse_document(self, text: str) -> tuple[Position, Game]:
        """A position plus an optional ``moves`` line: the moves played from it (each checked)."""
        rest, located = notation.split_moves(text)
        position = notation.parse_position(rest)
        end = position
        for ply, (square, line, col) in enumerate(located, start=1):
            if not end.is_legal(square):
                why = "the game is already won" if end.winner() else f"piece {end.due} cannot go there"
                raise ParseError(f"move {ply} to square {square}: {why}", line, col)
            end = end.play(square)
        return position, Game(tuple(square for square, _, _ in located))

    def serialize_document(self, puzzle: Position, entries: Any = None) -> str:
        moves = _game(entries).record  # the whole game record, also when an earlier move is shown
        text = notation.to_file(puzzle)
        return text + notation.moves_line(moves) + "\n" if moves else text

    def adapt_entries(self, puzzle: Position, entries: Any) -> Game:
        """Keep the moves that are still legal from the new position (e.g. after a rules change)."""
        moves = _game(entries).record
        _, _, history = replay(puzzle, moves)
        return Game(moves[: len(history) - 1])

    def looks_like_inline(self, arg: str) -> bool:
        return notation.looks_inline(arg)

    def new_puzzle(self, rows: int | None = None, cols: int | None = None) -> Position:
        return Position()

    def describe(self, puzzle: Position) -> str:
        phase = "placing" if puzzle.in_placement() else "jumping"
        return f"{puzzle.mover()} to move, piece {puzzle.due} ({phase}), {puzzle.placed()} of 6 on the board"

    def describe_document(self, puzzle: Position, entries: Any) -> str:
        """The position after the played moves (or why play stopped), not the set-up's."""
        moves = _entries(entries)
        end, bad, _history = replay(puzzle, moves)
        if not moves:
            return self.describe(puzzle)
        n = len(moves)
        played = Game.after(n).capitalize()  # as the CLI names it
        if bad:
            return f"{played}: {bad[0].message}"
        if end.winner():
            return f"{played}: {end.winner()} wins"
        return f"{played}: {self.describe(end)}"

    # ---- rules ----------------------------------------------------------------------------------
    def empty_entries(self, puzzle: Position) -> Game:
        return Game()

    def entries_from_solution(self, puzzle: Position, solution: Solution) -> Game:
        return Game(tuple(solution.data or ()))

    # ---- game record (the move list) -------------------------------------------------------------
    def record_moves(self, puzzle: Position, entries: Any) -> tuple[list[str], int]:
        """Every move of the record (e.g. 'O1→4', 'X2 7→3') and how many are played on the board."""
        game = _game(entries)
        end, _, history = replay(puzzle, game.record)
        texts = [engine.describe_move(before, sq) for before, sq in zip(history, game.record, strict=False)]
        if end.winner() and texts:
            texts[-1] += f"  ({end.winner()} wins)"
        return texts, min(len(game.moves), len(texts))

    def record_goto(self, puzzle: Position, entries: Any, ply: int) -> Game:
        return _game(entries).goto(ply)

    def check(self, puzzle: Position, entries: Any = None) -> CheckResult:
        """Position problems (order, lines, reachability) and bad moves in ``entries``.

        Complete means the line of play is over: someone has three in a row, the house repetition
        rule ends it, or (for analysis lines of drawn positions) the last move repeats a position
        of the line, closing a cycle of endless play.
        """
        violations = engine.problems(puzzle)
        end, bad, history = replay(puzzle, _entries(entries))
        violations += bad
        keys = [p.key() for p in history]
        reps = puzzle.rules.repetition
        complete = (
            end.winner() is not None
            or (reps > 0 and keys.count(end.key()) >= reps)
            or (len(keys) > 1 and keys.count(end.key()) > 1)
        )
        return CheckResult(complete and not bad, violations)

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
        found = engine.problems(puzzle)
        if found:  # where, as 'check' says it: "... early at R3C1"
            where = f" at {cells_text(found[0].cells)}" if found[0].cells else ""
            raise InputError(f"not a game position: {found[0].message}{where}")
        if cancel is not None:
            cancel.raise_if_cancelled()
        if info is not None:
            info["rules"] = "may return to own square" if puzzle.rules.may_return else "published"
            info["verdict"] = verdict(puzzle)  # a position's value, not a puzzle's "unique"
        yield self.analysis_solution(puzzle)

    def solve_position(self, puzzle: Position, entries: Any) -> tuple[Position, str]:
        """The position after the record's moves (the analysis of a won game is Lose(0) for the
        side to move; the house repetition rule never changes values, so it is only named)."""
        moves = _entries(entries)
        end, bad, history = replay(puzzle, moves)
        if bad:
            raise InputError(f"the game record does not fit the rules: {bad[0].message}")
        n = len(moves)
        where = Game.after(n) if n else "the set-up"
        if end.winner():
            return end, f"{where}, {end.winner()} has won"
        reps = end.rules.repetition
        drawn = reps and [p.key() for p in history].count(end.key()) >= reps
        return end, f"{where}, {end.mover()} to move" + (" (drawn by repetition in play)" if drawn else "")

    def analysis_solution(self, puzzle: Position) -> Solution:
        value = engine.value(puzzle)
        line = engine.principal_variation(puzzle)
        extras = {
            "state": notation.to_inline(puzzle),
            "side": puzzle.mover(),
            "due": puzzle.due,
            "value": value.text(),
            "moves": {str(sq): v.text() for sq, v in engine.move_values(puzzle).items()},
            "best": engine.best_moves(puzzle),
            "pv": line,
            "pv_text": pv_text(puzzle, line),
        }
        label = f"{puzzle.mover()} to move: {value.words()}"
        return Solution(grid=notation.board_rows(puzzle), extras=extras, data=tuple(line), label=label)

    # ---- editing --------------------------------------------------------------------------------
    def new_ui(self, puzzle: Position) -> XceteroUI:
        return XceteroUI()

    def tools(self, puzzle: Position) -> list[Tool]:
        # No shortcuts: 1-6 and D act on the cursor's square at once (``help_keys``); listed as
        # tool keys as well, the key help named each twice with two meanings (QA).
        pieces = [Tool(f"piece{p}", f"{owner(p)}{p}") for p in range(1, PIECES + 1)]
        return [
            Tool("move", "Move the due piece", mode="play"),
            *pieces,
            Tool("erase", "Take piece off"),  # no shortcut: Delete takes off the piece at the cursor
            Tool("due", "Make piece due"),
        ]

    def edit(self, puzzle: Position, entries: Any, event: EditEvent, ui: Any = None) -> EditResult | None:
        if event.cell is not None and not (0 <= event.cell[0] < 3 and 0 <= event.cell[1] < 3):
            event = replace(event, cell=None)  # off the board: a stale or hand-made event
        if event.mode == "play":
            return self._play(puzzle, _game(entries), event, ui)
        return self._setup(puzzle, event)

    def _play(self, puzzle: Position, game: Game, event: EditEvent, ui: Any) -> EditResult | None:
        moves = game.moves
        takeback = (event.kind == "press" and event.button == "right") or (
            event.kind == "key" and event.key in ("Backspace", "Delete")
        )
        if takeback:
            return self._take_back(puzzle, game, ui)
        if event.kind != "press" or event.cell is None:
            return None
        square = event.cell[0] * 3 + event.cell[1]
        end, bad, history = replay(puzzle, moves)
        why = refusal(end, square, bad, history)
        if why:
            return EditResult(label=why)  # nothing changes; the shell shows why in the status bar
        after = game.then(square)
        label = f"Play {engine.describe_move(end, square)}"
        if game.later and not after.later and game.later[:1] != (square,):
            label += f" (replaces {len(game.later)} later moves)"
        return EditResult(entries=after, label=label)

    def _take_back(self, puzzle: Position, game: Game, ui: Any) -> EditResult | None:
        """One move back, and further back while the computer is the side to move."""
        if not game.moves:
            return None
        computer = ui.computer if isinstance(ui, XceteroUI) else frozenset()
        ply = take_back_ply(len(game.moves), lambda n: replay(puzzle, game.moves[:n])[0].mover(), computer)
        return EditResult(entries=game.goto(ply), label="Take back")

    def _setup(self, puzzle: Position, event: EditEvent) -> EditResult | None:
        if event.cell is None:
            return None
        square = event.cell[0] * 3 + event.cell[1]
        board = puzzle.board()
        action: str | None = None
        if event.kind == "press":
            action = "erase" if event.button == "right" else (event.tool or "piece1")
        elif event.kind == "key":
            if event.key in "123456" and len(event.key) == 1:
                action = f"piece{event.key}"
            elif event.key in ("Delete", "Backspace", "Space"):
                action = "erase"
            elif event.key.upper() == "D":
                action = "due"
        if action is None:
            return None
        squares = list(puzzle.squares)
        if action == "due":
            if not board[square] or board[square] == puzzle.due:
                return None
            new = replace(puzzle, due=board[square])
            return EditResult(puzzle=new, entries=(), label=f"Piece {board[square]} due")
        if action == "erase":
            if not board[square]:
                return None
            squares[board[square] - 1] = UNPLACED
            label = f"Take piece {board[square]} off"
        elif action.startswith("piece") and action[5:] in ("1", "2", "3", "4", "5", "6"):
            piece = int(action[5:])
            if board[square] == piece:
                return None
            if board[square]:
                squares[board[square] - 1] = UNPLACED
            squares[piece - 1] = square
            label = f"Put piece {piece} on {engine.square_name(square)}"
        else:
            return None
        return EditResult(puzzle=_with_due(puzzle, tuple(squares)), entries=(), label=label)

    # ---- drawing --------------------------------------------------------------------------------
    def draw(
        self,
        puzzle: Position,
        solution: Solution | None = None,
        entries: Any = None,
        overlay: Any = None,
        ui: Any = None,
    ) -> DisplayList:
        moves = _entries(entries)
        if solution is not None:
            best = list(solution.data or ())
            caption = f"{solution.extras.get('value', '')}: {solution.extras.get('pv_text', '')}"
            return draw_position(puzzle, (), overlay, best_line=best, caption=_clip(caption, 140))
        best_line: list[int] | None = None
        caption = ""
        if isinstance(overlay, dict):
            # PV viewer: show the position after extra (not played) moves and the next move
            moves = moves + tuple(int(m) for m in overlay.get("preview", ()))
            if overlay.get("next") is not None:
                best_line = [int(overlay["next"])]
            caption = _clip(str(overlay.get("caption", "")))
        _, _, history = replay(puzzle, moves)
        moves = moves[: len(history) - 1]  # drop moves from the first bad one on
        return draw_position(puzzle, moves, overlay, best_line=best_line, caption=caption)

    # ---- help ---------------------------------------------------------------------------------
    def help_rules(self) -> str:
        return (
            "Tic-tac-toe with six numbered pieces: O has 1, 3 and 5, X has 2, 4 and 6. They enter in "
            "number order, each on any empty square.\n\n"
            "Once all six are on the board, the piece due (1, then 2, ... 6, 1, ...) must jump to any"
            " other empty square, never back onto the square it left. Three in a row wins at once. "
            f"{START_RESULT}"
        )

    def help_keys(self) -> list[tuple[str, str]]:
        return [
            ("Play: click an empty square", "place or jump the piece that is due"),
            (
                "Play: right-click, Backspace or Delete",
                "take the last move back (against the computer: back to your turn)",
            ),
            ("Edit: 1 ... 6", "put that piece on the cursor's square (the tools place it by click)"),
            ("Edit: Delete", "take the piece off"),
            ("Edit: D", "make the piece on the cursor's square the one due"),
        ]


def _clip(text: str, size: int = 44) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def _with_due(old: Position, squares: tuple[int, ...]) -> Position:
    """Keep the piece due consistent after a set-up edit (placing: the lowest piece not on the board)."""
    missing = [p for p in range(1, PIECES + 1) if squares[p - 1] == UNPLACED]
    if missing:
        due = missing[0]
    elif old.squares[old.due - 1] == UNPLACED:
        due = 1  # the sixth piece just arrived: the cycle starts again with piece 1
    else:
        due = old.due
    return replace(old, squares=squares, due=due)


PLUGIN = XceteroPlugin()
