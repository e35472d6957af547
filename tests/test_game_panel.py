"""The shared game panel (widgets/game_panel.py) with a toy third game: a back end of a few lines
and a small subclass get the move list, the opponent, take-back and play line."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from PySide6.QtCore import QObject, Signal

from solvers.common.game import GameRecord
from solvers.common.protocol import EditResult
from widgets.game_panel import GamePanel

pytestmark = pytest.mark.gui
GOAL = 7  # toy game: add 1 or 2 in turn; who reaches 7 wins


@dataclass(frozen=True)
class Toy(GameRecord[int]):
    pass


class _Plugin:
    def record_moves(self, puzzle: Any, entries: Toy) -> tuple[list[str], int]:
        return [f"+{m}" for m in entries.record], entries.ply

    def record_goto(self, puzzle: Any, entries: Toy, ply: int) -> Toy:
        return entries.goto(ply)

    def serialize_document(self, puzzle: Any, entries: Toy) -> str:
        return " ".join(map(str, entries.record))


class _Context(QObject):
    changed = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.plugin = _Plugin()
        self.record = Toy()
        self.labels: list[str] = []

    def puzzle(self) -> None:
        return None

    def entries(self) -> Toy:
        return self.record

    def mode(self) -> str:
        return "play"

    def apply(self, result: EditResult) -> None:
        self.record = result.entries
        self.labels.append(result.label)
        self.changed.emit()

    def status(self, text: str) -> None:
        pass


class ToyPanel(GamePanel):
    auto_delay_ms = 10

    def __init__(self, ctx: _Context) -> None:
        super().__init__(ctx)
        ctx.changed.connect(lambda: self.update_opponent(self.line_grew()))

    def record(self) -> Toy:
        return self.ctx.entries()

    def current(self) -> tuple[int, bool]:
        total = sum(self.record().moves)
        return total, total < GOAL

    def side_to_move(self, position: Any) -> Hashable:
        return self.record().ply % 2

    def side_after(self, ply: int) -> Hashable:
        return ply % 2

    def opponent_sides(self) -> Sequence[tuple[Hashable, str]]:
        return ((0, "Opponent plays first"), (1, "Opponent plays second"))

    def opponent_move(self) -> None:
        self.play_moves([1], "Opponent plays 1")

    def analyse_shown(self) -> None:
        pass

    def best_line(self) -> list[Any]:
        return [1, 2, 1] if self.current()[1] else []


@pytest.fixture
def toy(qtbot):
    ctx = _Context()
    panel = ToyPanel(ctx)
    qtbot.addWidget(panel)
    return panel, ctx


def test_the_opponent_answers_a_move_that_extended_the_line(toy, qtbot) -> None:
    panel, ctx = toy
    panel.side_boxes[1].setChecked(True)
    panel.play_moves([2], "Play 2")
    qtbot.waitUntil(lambda: ctx.record == Toy((2, 1)), timeout=3000)
    panel.take_back()  # back past the opponent's reply to the human's turn; the record stays
    assert ctx.record == Toy((), (2, 1)) and ctx.labels[-1] == "Take back"


def test_browsing_and_take_back_never_make_the_opponent_play(toy, qtbot) -> None:
    panel, ctx = toy
    ctx.apply(EditResult(entries=Toy((2, 2, 2)), label="three"))  # the opponent (second) is to move
    panel.side_boxes[1].setChecked(True)  # toggling it on at its turn: it plays ...
    qtbot.waitUntil(lambda: ctx.record == Toy((2, 2, 2, 1)), timeout=3000)
    panel.move_list.goto(1)  # ... but a shown earlier position at its turn is only shown
    qtbot.wait(10 * panel.auto_delay_ms)
    assert ctx.record == Toy((2,), (2, 2, 1))


def test_play_line_up_to_the_selected_row_keeps_the_agreeing_record(toy) -> None:
    panel, ctx = toy
    ctx.apply(EditResult(entries=Toy((), (1, 2, 2)), label="record"))
    for text in ("1", "2", "3"):
        panel.line_list.addItem(text)
    panel.line_list.setCurrentRow(1)
    panel.play_line()
    assert ctx.record == Toy((1, 2), (2,)) and ctx.labels[-1] == "Play best line (2 moves)"


def test_the_move_lists_count_is_singular_for_one_move(toy) -> None:
    """It read "1 moves" above a one-move record."""
    panel, ctx = toy
    ctx.apply(EditResult(entries=Toy((2,)), label="one"))
    panel.move_list.refresh()
    assert panel.move_list.summary.text() == "1 move"
    ctx.apply(EditResult(entries=Toy((2,), (1,)), label="one shown of two"))
    panel.move_list.refresh()
    assert panel.move_list.summary.text() == "2 moves; showing move 1, 1 later"
