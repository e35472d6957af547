"""Display list for an X-ceter-O position: numbered O/X pieces, the due piece, hints, best line."""

from __future__ import annotations

import textwrap
from typing import Any

from solvers.common.display import Circle, DisplayList, GridGeometry, Line, Rect, Text, grid_lines
from solvers.xcetero import engine
from solvers.xcetero.rules import PIECES, UNPLACED, Position, owner

CELL = 80.0
MARGIN = 12.0
TRAY = 40.0  # row of pieces not yet on the board
STATUS = 26.0
WIN_COLOR = "#2e7d32"
CAPTION_CHARS = 36  # a caption line that fits under the board at 10 pt
CAPTION_LINES = 4


def wants_hints(overlay: Any) -> bool:
    if overlay == "hints":
        return True
    return isinstance(overlay, dict) and bool(overlay.get("hints"))


def _piece(dl: DisplayList, x: float, y: float, size: float, piece: int) -> None:
    """One numbered piece centred at (x, y); ``size`` is the square it sits in."""
    if owner(piece) == "O":
        # filled with the cell colour so a winning line drawn underneath never crosses the number
        dl.add(Circle(x, y, size * 0.32, fill="cell"))
        dl.add(Circle(x, y, size * 0.32, stroke="player-a", width=size * 0.07))
        dl.add(Text(x, y, str(piece), size=size * 0.3, color="player-a", bold=True))
    else:
        h = size * 0.31
        for dx in (-h, h):
            dl.add(Line((x - dx, y - h), (x + dx, y + h), "player-b", size * 0.07, cap="round"))
        # a clear gap round the number: at 0.15 / 0.26 its digits ran into the strokes (QA pass 10)
        dl.add(Circle(x, y, size * 0.18, fill="cell"))
        dl.add(Text(x, y, str(piece), size=size * 0.25, color="player-b", bold=True))


def status_text(position: Position, history: list[Position], hints: bool) -> str:
    winner = position.winner()
    if winner:
        return f"{winner} wins: three in a row"
    reps = position.rules.repetition
    if reps and sum(1 for p in history if p.key() == position.key()) >= reps:
        return f"draw by {reps}-fold repetition (house rule)"
    verb = "place" if position.in_placement() else "jump with"
    text = f"{position.mover()} to move: {verb} piece {position.due}"
    if hints and not engine.problems(position):
        text += f" ({engine.value(position).words()})"
    return text


def draw_position(
    start: Position,
    moves: tuple[int, ...],
    overlay: Any = None,
    best_line: list[int] | None = None,
    caption: str = "",
) -> DisplayList:
    history = [start]
    position = start
    for square in moves:
        position = position.play(square)
        history.append(position)
    hints = wants_hints(overlay)
    board_px = 3 * CELL
    geom = GridGeometry(MARGIN, MARGIN, CELL, 3, 3)
    caption_lines = textwrap.wrap(caption, CAPTION_CHARS)[:CAPTION_LINES]
    height = 2 * MARGIN + board_px + TRAY + STATUS + 0.75 * STATUS * len(caption_lines)
    dl = DisplayList(2 * MARGIN + board_px, height, grid=geom, title="X-ceter-O")
    dl.add(Rect(MARGIN, MARGIN, board_px, board_px, fill="cell"))
    due_square = position.squares[position.due - 1]
    over = position.winner() is not None
    if due_square != UNPLACED and not over:
        r, c = divmod(due_square, 3)
        dl.add(Rect(MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL, fill="highlight-fill"))
    if moves:
        r, c = divmod(moves[-1], 3)
        dl.add(
            Rect(MARGIN + c * CELL + 3, MARGIN + r * CELL + 3, CELL - 6, CELL - 6, stroke="accent", width=1.5)
        )
    dl.extend(grid_lines(geom))
    dl.add(Rect(MARGIN, MARGIN, board_px, board_px, stroke="wall", width=2.5))
    line = engine.line_cells(position)
    if line:  # under the pieces: it joins them without covering their numbers
        (x1, y1), (x2, y2) = geom.center(*divmod(line[0], 3)), geom.center(*divmod(line[2], 3))
        dl.add(Line((x1, y1), (x2, y2), "accent", 10.0, cap="round"))
    for square, piece in enumerate(position.board()):
        if piece:
            x, y = geom.center(*divmod(square, 3))
            _piece(dl, x, y, CELL, piece)
    if due_square != UNPLACED and not over:
        r, c = divmod(due_square, 3)
        dl.add(Rect(MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL, stroke="highlight", width=3.0))
    if best_line and not over:
        dest = best_line[0]
        x2, y2 = geom.center(*divmod(dest, 3))
        if due_square != UNPLACED:
            x1, y1 = geom.center(*divmod(due_square, 3))
            dl.add(Line((x1, y1), (x2, y2), "solution", 3.0, cap="round", dash=(4.0, 3.0)))
        dl.add(Circle(x2, y2, CELL * 0.12, fill="solution"))
    if hints and not over and not engine.problems(position):
        for square, value in engine.move_values(position).items():
            x, y = geom.center(*divmod(square, 3))
            color = WIN_COLOR if value.outcome > 0 else ("error" if value.outcome < 0 else "ink")
            dl.add(Text(x, y + CELL * 0.3, value.words(), size=CELL * 0.16, color=color, bold=True))
    # tray: pieces not yet placed, the due one highlighted
    tray_y = MARGIN + board_px + TRAY / 2 + 2
    slot = board_px / PIECES
    for piece in range(1, PIECES + 1):
        x = MARGIN + (piece - 0.5) * slot
        if position.squares[piece - 1] != UNPLACED:
            continue
        if piece == position.due and not over:
            dl.add(Rect(x - slot / 2 + 2, tray_y - slot / 2 + 2, slot - 4, slot - 4, fill="highlight-fill"))
        _piece(dl, x, tray_y, slot * 0.95, piece)
    y = MARGIN + board_px + TRAY + STATUS / 2
    dl.add(Text(dl.width / 2, y, status_text(position, history, hints), size=12.0, color="ink"))
    for i, text in enumerate(caption_lines):
        dl.add(Text(dl.width / 2, y + STATUS * (1 + 0.75 * i), text, size=10.0, color="solution"))
    return dl
