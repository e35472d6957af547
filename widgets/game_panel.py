"""One side panel base for every two-player game: what the games do alike, written once.

A game's panel (Tokyo Doves, X-ceter-O) subclasses ``GamePanel`` and keeps only its game's specifics
(analysis, rules, notation); the base holds the parts that used to be written twice and drifted:

- the move list (``widgets.move_list.MoveList``) over the document's ``GameRecord``;
- the opponent: one check box per side the computer may play, a button for one opponent move, and
  the scheduling rule: **the opponent answers only a move that extended the line**. Browsing the
  move list, Take back and Undo only show positions; before this rule they made the AI play there
  and silently replace the recorded line (issue 29.2). The reply to the player's move is part of
  that move's undo step, so Undo takes both back to the player's turn, as Take back does, and Redo
  plays both (before, Undo took back only the reply and left the computer waiting on its turn);
  when the opponent is to move and does not (after Undo, going back, switching to Play mode), a
  line in its group says so and how to let it play;
- Take back: one move back, and further back to the human's turn when the opponent plays a side
  (the move list keeps the taken-back moves as later moves; playing another move replaces them);
- the best line: a list of the analysis's moves and "play line" (up to the selected row, all of
  it when none is selected), which keeps the record's later moves while they agree.

A third game needs a Qt-free back end (``solvers.common.game.GameRecord`` entries, its rules and
analysis) and a small subclass that fills in the hooks below.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from solvers.common.game import GameRecord, take_back_ply
from solvers.common.protocol import EditResult
from widgets.move_list import MoveList


class GamePanel(QWidget):
    """Move list, opponent, take-back and best line for a game whose entries are a ``GameRecord``."""

    auto_delay_ms = 200  # let the board repaint before the opponent's reply starts
    opponent_button_text = "Opponent move"
    opponent_name = "the opponent"  # "the computer", "the AI": who waits on its turn
    side_names: dict[Hashable, str] = {}  # the sides' names for the player ("Red"), else str(side)

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._plies_seen = 0  # moves played when the panel last looked (a move extends the line)
        # The document's (puzzle, entries) after the player's move the opponent is answering: its
        # reply joins that move's undo step while nothing else happened in between.
        self._reply_to: tuple[Any, Any] | None = None

        self.move_list = MoveList(ctx)
        self.move_list.analyse_requested.connect(self.analyse_shown)

        self.side_boxes: dict[Hashable, QCheckBox] = {}
        for side, text in self.opponent_sides():
            box = QCheckBox(text)
            box.toggled.connect(lambda _on: self.schedule_opponent())
            box.toggled.connect(lambda _on: self.share_sides())
            self.side_boxes[side] = box
        self.opponent_button = QPushButton(self.opponent_button_text)
        self.opponent_button.clicked.connect(self._opponent_clicked)
        self.waiting_label = QLabel()
        self.waiting_label.setWordWrap(True)
        self.waiting_label.setAccessibleName("Why the opponent waits")
        self.waiting_label.hide()
        self.back_button = QPushButton("Take back")
        self.back_button.setToolTip("One move back; against the opponent, back to your turn")
        self.back_button.clicked.connect(self.take_back)

        self.line_list = QListWidget()
        self.line_list.setAccessibleName("Best line")
        self.play_line_button = QPushButton("Play line to the selected move")
        self.play_line_button.setToolTip("Play the best line up to the selected row (all of it if none)")
        self.play_line_button.clicked.connect(self.play_line)

        self._opponent_timer = QTimer(self)
        self._opponent_timer.setSingleShot(True)
        self._opponent_timer.timeout.connect(self._auto_opponent)

    # ---- hooks a game supplies ------------------------------------------------------------------
    def record(self) -> GameRecord[Any]:
        """The document's entries as the game's record."""
        raise NotImplementedError

    def current(self) -> tuple[Any, bool]:
        """The position after the played moves, and whether play may go on from it."""
        raise NotImplementedError

    def side_to_move(self, position: Any) -> Hashable:
        raise NotImplementedError

    def side_after(self, ply: int) -> Hashable:
        """The side to move after the record's first ``ply`` moves."""
        raise NotImplementedError

    def opponent_sides(self) -> Sequence[tuple[Hashable, str]]:
        """(side, check box text) for each side the opponent may play."""
        return ()

    def opponent_move(self) -> Any:
        """Play one opponent move for the side to move (now, or when a job finishes)."""
        raise NotImplementedError

    def opponent_busy(self) -> bool:
        """Whether the opponent is choosing its move (a search job running)."""
        return False

    def opponent_may_play(self, position: Any) -> bool:
        """A game's own reason to hold the automatic opponent back (e.g. an endless line)."""
        return True

    def analyse_shown(self) -> None:
        """Analyse the position on the board ("Analyse this position" in the move list)."""
        raise NotImplementedError

    def best_line(self) -> list[Any]:
        """The moves of the shown best line from the position on the board (empty: none)."""
        return []

    # ---- layout helpers -------------------------------------------------------------------------
    def moves_box(self) -> QGroupBox:
        """The move list in its group."""
        box = QGroupBox("Moves")
        QVBoxLayout(box).addWidget(self.move_list)
        return box

    def opponent_box(self, title: str, *above: QWidget) -> QGroupBox:
        """The opponent's group: ``above`` (e.g. a level), the side boxes, opponent move and take back."""
        box = QGroupBox(title)
        layout = QVBoxLayout(box)
        for widget in above:
            layout.addWidget(widget)
        sides = QHBoxLayout()
        for side_box in self.side_boxes.values():
            sides.addWidget(side_box)
        layout.addLayout(sides)
        buttons = QHBoxLayout()
        buttons.addWidget(self.opponent_button)
        buttons.addWidget(self.back_button)
        layout.addLayout(buttons)
        layout.addWidget(self.waiting_label)
        return box

    # ---- opponent -------------------------------------------------------------------------------
    def computer_sides(self) -> frozenset[Hashable]:
        return frozenset(side for side, box in self.side_boxes.items() if box.isChecked())

    def share_sides(self) -> None:
        """Tell the board's editor which sides the opponent plays (its UI state's ``computer``),
        so that Backspace/right-click on the board take back to the player's turn as Take back
        does; call on each refresh too (a new document comes with a fresh UI state)."""
        ui = self.ctx.ui() if hasattr(self.ctx, "ui") else None
        if ui is not None and hasattr(ui, "computer"):
            ui.computer = self.computer_sides()

    def opponent_plays(self, side: Hashable) -> bool:
        box = self.side_boxes.get(side)
        return box is not None and box.isChecked()

    def line_grew(self) -> bool:
        """Whether a move extended the played line since the last look (call once per refresh)."""
        plies = self.record().ply
        grew = plies > self._plies_seen
        self._plies_seen = plies
        return grew

    def update_opponent(self, grew: bool) -> None:
        """After a refresh: the opponent answers a move that extended the line; browsing the record,
        take-back and undo only show positions (and stop a reply that was about to start)."""
        position, live = self.current()
        record = self.record()
        self.back_button.setEnabled(bool(record.ply))
        self.opponent_button.setEnabled(live)
        if grew and not record.later:
            human = not self.opponent_plays(self.side_after(record.ply - 1))
            self._reply_to = (self.ctx.puzzle(), self.ctx.entries()) if human else None
            self.schedule_opponent()
        elif record.later or not self.opponent_plays(self.side_to_move(position)):
            self._opponent_timer.stop()
        self.show_waiting()

    def schedule_opponent(self) -> None:
        if self.record().later:
            return  # browsing the record: the opponent plays only at the end of the line
        position, live = self.current()
        if (
            live
            and self.ctx.mode() == "play"
            and self.opponent_plays(self.side_to_move(position))
            and self.opponent_may_play(position)
        ):
            self._opponent_timer.start(self.auto_delay_ms)
        self.show_waiting()

    def _auto_opponent(self) -> None:
        position, live = self.current()
        if live and not self.record().later and self.opponent_plays(self.side_to_move(position)):
            self.opponent_move()
        self.show_waiting()

    def _opponent_clicked(self) -> None:
        self._reply_to = None  # asked for: a step of its own
        self.opponent_move()
        self.show_waiting()

    def apply_opponent_move(self, result: EditResult) -> None:
        """The opponent's move: the reply to the player's move joins that move's undo step."""
        state = (self.ctx.puzzle(), self.ctx.entries())
        joins = self._reply_to is not None and self._reply_to == state
        self._reply_to = None
        self.ctx.apply(replace(result, joins_previous=joins))

    def show_waiting(self) -> None:
        """Say why the opponent does not move on its turn (after Undo, going back in the moves,
        switching to Play mode) and how to let it play; hidden while it plays or is about to."""
        position, live = self.current()
        side = self.side_to_move(position) if live else None
        waits = (
            side is not None
            and self.ctx.mode() == "play"
            and self.opponent_plays(side)
            and not self._opponent_timer.isActive()
            and not self.opponent_busy()
        )
        if waits:
            self.waiting_label.setText(
                f"{self.side_names.get(side, side)} to move: {self.opponent_name} does not move by "
                "itself after Undo or going back in the moves. Press "
                f"“{self.opponent_button.text()}” to let it play."
            )
        self.waiting_label.setVisible(waits)

    # ---- take back and the best line ------------------------------------------------------------
    def take_back(self) -> None:
        """One move back (kept as a later move); against the opponent, back to the human's turn."""
        record = self.record()
        if not record.ply:
            return
        ply = take_back_ply(record.ply, self.side_after, self.computer_sides())
        self.ctx.apply(EditResult(entries=record.goto(ply), label="Take back"))

    def play_line(self) -> None:
        """Play the best line up to the selected row (all of it if no row is selected)."""
        line = self.best_line()
        if not line or not self.current()[1]:
            return
        row = self.line_list.currentRow()
        if row >= 0:
            line = line[: row + 1]
        self.play_moves(line, f"Play best line ({len(line)} moves)")

    def play_moves(self, moves: Sequence[Any], label: str) -> None:
        """Moves played at the shown position (one undo step); the record's later moves stay while
        they agree."""
        self.ctx.apply(EditResult(entries=self.record().then_all(list(moves)), label=label))


__all__ = ["GamePanel"]
