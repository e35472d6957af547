"""Parts of the Tokyo Doves panel (``widgets/panels/doves.py``) that are no panel of their own.

- ``SteadyLabel``: the value line, whose height follows the panel's width and never its text;
- ``analysis_work``: the analysis job's work (stored table first, else the deepening search);
- ``side_text`` and ``mark_outcome``: what the panel says once the game has ended.
"""

from __future__ import annotations

from collections.abc import Callable
from math import ceil
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel, QListWidget, QWidget

from solvers.doves import tablebase
from solvers.doves.analysis import Analysis, analyse
from solvers.doves.game import engine_outcome_caption, replay, winner
from solvers.doves.model import COLOUR_NAMES, Position
from solvers.doves.rules import Action

# The longest value line the panel writes (a long search that found nothing, ``_value_text`` and
# ``_finished``): the value line keeps the height it needs at the panel's width.
LONGEST_VALUE = (
    "Green to move: <b>Unknown</b> — looked 25 moves ahead, 88,888,888 positions, 88.88 s "
    "(no forced win in the time allowed)"
)


class SteadyLabel(QLabel):
    """A word-wrapped label as high as its longest expected text (``longest``) at its width.

    QA: the value line wrapped once more when the background analysis finished ("... (no forced win
    in the time allowed)"), everything below moved down a line, and a click aimed at "AI plays
    Green" landed between two rows. The height now changes with the width only (a resized window),
    never with the text; a text longer than ``longest`` still gets the room it needs."""

    def __init__(self, text: str, longest: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._longest = longest

    def _longest_height(self, width: int) -> int:
        margins = self.contentsMargins()
        document = QTextDocument()
        document.setDefaultFont(self.font())
        document.setDocumentMargin(0)
        document.setHtml(self._longest)
        document.setTextWidth(max(1, width - margins.left() - margins.right() - 2 * self.margin()))
        return ceil(document.size().height()) + margins.top() + margins.bottom() + 2 * self.margin()

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt API)
        return max(super().heightForWidth(width), self._longest_height(width))

    def minimumSizeHint(self):  # noqa: ANN201, N802 (Qt API)
        hint = super().minimumSizeHint()
        hint.setHeight(max(hint.height(), self.heightForWidth(max(1, self.width()))))
        return hint


def analysis_work(
    position: Position, max_depth: int, budget: float | None, depth_done: Callable[[Analysis], None]
) -> Callable[[Any, Any], Analysis | None]:
    """The analysis job: the stored table's exact value if there is one, else the search, each
    depth handed to ``depth_done`` (a signal: it runs in the worker thread)."""

    def work(cancel: Any, progress: Any) -> Analysis | None:
        problems: list[str] = []
        exact = tablebase.lookup(position, problems=problems)  # memory-mapped: no shared state
        if problems:  # a damaged table file: the search answers instead, and the user hears why
            progress({"fraction": 0.0, "text": f"the stored table is unusable, searching: {problems[0]}"})
        if exact is not None:
            depth_done(exact)
            return exact
        last = None
        for last in analyse(position, max_depth=max_depth, cancel=cancel, budget=budget):
            depth_done(last)
            progress({"fraction": last.depth / max_depth, "text": f"{last.depth} moves ahead: {last.value}"})
        return last

    return work


def side_text(puzzle: Position, actions: tuple[Action, ...]) -> str:
    """The line beside Switch side: who is to move, or, once the game has ended, that it is over
    and who won (QA: it said "Red to move" beside a greyed-out Switch side after Green had won)."""
    state = replay(puzzle, actions)
    if not state.finished:
        return f"<b>{COLOUR_NAMES[state.position.to_move].capitalize()}</b> to move"
    won = winner(state)
    return "<b>Game over</b>: " + ("a draw" if won is None else f"{COLOUR_NAMES[won].capitalize()} won")


def mark_outcome(moves: QListWidget, puzzle: Position, record: tuple[Action, ...]) -> None:
    """The move list's row of the move that ended the game says the outcome in a word ("wins",
    ``record_moves``); its tooltip gives the whole caption ("Green wins: the red Boss is surrounded").
    ``record`` is the whole game, also when an earlier position is shown."""
    state = replay(puzzle, record)
    item = moves.item(len(record)) if state.finished else None
    if item is not None:
        item.setToolTip(engine_outcome_caption(state.steps[-1], 1 - state.position.to_move))


__all__ = ["LONGEST_VALUE", "SteadyLabel", "analysis_work", "mark_outcome", "side_text"]
