"""Queries on the analysis table for single positions: validity, values, best moves, principal variation."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.common.game import GameValue
from solvers.common.protocol import Violation
from solvers.common.words import cell_name
from solvers.xcetero.retro import DRAW, LOSS, WIN, Analysis, analyse
from solvers.xcetero.rules import LINES, PIECES, UNPLACED, Position, owner


@dataclass(frozen=True)
class Value:
    """Game value for the side to move: outcome WIN / LOSS / DRAW, distance in plies (-1 for a draw)."""

    outcome: int
    distance: int

    def game_value(self) -> GameValue:
        if self.outcome == WIN:
            return GameValue("win", self.distance)
        if self.outcome == LOSS:
            return GameValue("lose", self.distance)
        return GameValue("draw")

    def text(self) -> str:
        """The shared wording of game values: Win(n) / Lose(n) / Draw."""
        return str(self.game_value())

    def words(self) -> str:
        return self.text()  # one wording everywhere (it was "win in n" here and "WIN n" in results)

    def after_move(self) -> Value:
        """The value of the move leading here, seen by the player who made it."""
        if self.outcome == DRAW:
            return self
        return Value(-self.outcome, self.distance + 1)

    def rank(self) -> tuple[int, int]:
        """Sort key, best first: fast wins, draws, slow losses."""
        if self.outcome == WIN:
            return (0, self.distance)
        if self.outcome == DRAW:
            return (1, 0)
        return (2, -self.distance)


def table(position: Position) -> Analysis:
    return analyse(position.rules.may_return)


def _ordered(position: Position) -> bool:
    """Pieces sit on the board in number order (1..k placed, the rest not)."""
    placed = [s != UNPLACED for s in position.squares]
    return all(placed[: sum(placed)])


def problems(position: Position) -> list[Violation]:
    """Why ``position`` cannot occur in a game from the empty board (empty list = it can)."""
    out: list[Violation] = []
    squares = position.squares
    k = position.placed()
    if not _ordered(position):
        early = [p for p in range(1, PIECES + 1) if squares[p - 1] != UNPLACED and p > k]
        cells = tuple(divmod(squares[p - 1], 3) for p in early)
        out.append(
            Violation("pieceOrder", "pieces enter in number order: a piece is on the board early", cells)
        )
    elif k < PIECES and position.due != k + 1:
        out.append(Violation("dueOrder", f"while placing, piece {k + 1} is due (not {position.due})"))
    lines = {side: position.line_of(side) for side in "OX"}
    if lines["O"] and lines["X"]:
        cells = tuple(divmod(s, 3) for s in (*lines["O"], *lines["X"]))
        out.append(Violation("bothLines", "both players have three in a row", cells))
    elif lines[position.mover()]:
        line = lines[position.mover()]
        assert line is not None
        out.append(
            Violation(
                "moverHasLine",
                f"{position.mover()} is to move but already has three in a row",
                tuple(divmod(s, 3) for s in line),
            )
        )
    # No reachability test is needed: the analysis shows every ordered state whose side to move holds
    # no line is reachable from the empty board (pinned by test_local_rules_describe_reachability).
    return out


def state(position: Position) -> int:
    return table(position).space.index_of(position.squares, position.due)


def value(position: Position) -> Value:
    o, d = table(position).value(state(position))
    return Value(o, d)


def move_values(position: Position) -> dict[int, Value]:
    """For every legal destination of the due piece: the value of that move for the mover."""
    analysis = table(position)
    row = analysis.succ[state(position)]
    out: dict[int, Value] = {}
    for square, child in enumerate(row.tolist()):
        if child >= 0:
            o, d = analysis.value(child)
            out[square] = Value(o, d).after_move()
    return out


def best_moves(position: Position) -> list[int]:
    """All moves that keep the game value (fastest win, slowest loss, or a draw)."""
    values = move_values(position)
    if not values:
        return []
    best = min(v.rank() for v in values.values())
    return [sq for sq, v in sorted(values.items()) if v.rank() == best]


def principal_variation(position: Position, max_plies: int = 1000) -> list[int]:
    """Best play from ``position``: to the end of a won/lost game; for a draw until a position repeats."""
    line: list[int] = []
    seen = {position.key()}
    while len(line) < max_plies:
        moves = best_moves(position)
        if not moves:
            break
        line.append(moves[0])
        position = position.play(moves[0])
        if position.key() in seen:
            break
        seen.add(position.key())
    return line


def opening_table(start: Position | None = None) -> list[dict[str, object]]:
    """For each first move from ``start`` (default: the empty board): its value for the mover and
    the opponent's best replies with their value for the opponent."""
    start = start or Position()
    rows: list[dict[str, object]] = []
    for square, val in sorted(move_values(start).items()):
        after = start.play(square)
        replies = best_moves(after)
        reply_value = value(after).text()
        rows.append({"square": square, "value": val.text(), "replies": replies, "reply_value": reply_value})
    return rows


def square_name(square: int) -> str:
    """A square as every message names cells: R1C1 (top left) .. R3C3. Files and JSON keep the
    digits 0..8 of the notation."""
    return cell_name(*divmod(square, 3))


def describe_move(position: Position, square: int) -> str:
    """E.g. 'O1→R2C2' (placing) or 'X2 R3C2→R2C1' (jumping)."""
    piece = position.due
    src = position.squares[piece - 1]
    tag = f"{owner(piece)}{piece}"
    to = square_name(square)
    return f"{tag}→{to}" if src == UNPLACED else f"{tag} {square_name(src)}→{to}"


def line_cells(position: Position) -> tuple[int, int, int] | None:
    winner = position.winner()
    return position.line_of(winner) if winner else None


__all__ = ["LINES", "Value", "best_moves", "move_values", "principal_variation", "problems", "value"]
