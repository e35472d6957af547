"""The shared game record (solvers/common/game.py): goto, then, restart and the branch rule, for a
toy game and for both games built on it."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.common.game import GameRecord, GameValue
from solvers.doves.game import PlayEntries
from solvers.doves.rules import Action
from solvers.doves.values import Value
from solvers.xcetero import engine
from solvers.xcetero.plugin import Game
from solvers.xcetero.rules import Position as XoPosition


@dataclass(frozen=True)
class _Noted(GameRecord[str]):
    note: str = ""  # a game's own field: every step must keep it


def test_goto_keeps_the_record_and_clamps() -> None:
    game = _Noted(("a", "b", "c"), note="x")
    assert game.goto(1) == _Noted(("a",), ("b", "c"), "x")
    assert game.goto(1).record == ("a", "b", "c") and game.goto(1).ply == 1
    assert game.goto(-5) == _Noted((), ("a", "b", "c"), "x")
    assert game.goto(99) == game


def test_then_keeps_the_later_moves_while_they_agree_and_replaces_them_otherwise() -> None:
    back = _Noted(("a",), ("b", "c"), "x")
    assert back.then("b") == _Noted(("a", "b"), ("c",), "x")
    assert back.replaces("b") == 0 and back.replaces("z") == 2
    assert back.then("z") == _Noted(("a", "z"), (), "x")
    assert back.then_all(["b", "c", "d"]) == _Noted(("a", "b", "c", "d"), (), "x")
    assert back.then_all(["b", "q"]) == _Noted(("a", "b", "q"), (), "x")


def test_restart_drops_the_record_but_keeps_the_games_own_fields() -> None:
    assert _Noted(("a",), ("b",), "x").restart() == _Noted(note="x")


def test_both_games_are_the_shared_record_under_their_old_names() -> None:
    assert issubclass(Game, GameRecord) and issubclass(PlayEntries, GameRecord)
    assert Game((4,), (0, 8)).then(0) == Game((4, 0), (8,))
    assert Game((4, 0, 8)).goto(1) == Game((4,), (0, 8))
    first, second = Action("put", 2, (0, 1)), Action("put", 3, (1, 1))
    entries = PlayEntries((first, second))
    back = entries.goto(1)
    assert back.actions == (first,) and back.later == (second,)
    assert back.then(second) == entries
    assert back.restart() == PlayEntries()


def test_one_value_wording_for_both_games() -> None:
    assert [str(GameValue(k, 3)) for k in ("win", "lose", "draw", "unknown")] == [
        "Win(3)",
        "Lose(3)",
        "Draw",
        "Unknown",
    ]
    assert GameValue("lose", 2).after_move() == GameValue("win", 3)
    assert str(Value("win", 5, depth=7)) == "Win(5)" and isinstance(Value("draw"), GameValue)
    start = engine.value(XoPosition())  # the empty board: O wins in 13 plies
    assert start.text() == start.words() == "Win(13)" and start.game_value() == GameValue("win", 13)
