"""The games' words in the shell: a game position has a value, never a puzzle's "unique", and a
saved game's position is named alike on the board's line and in the CLI (one wording per game,
from the shared game layer)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solvers.common.game import GameValue, position_verdict
from solvers.common.protocol import read_text
from solvers.doves import tablebase
from solvers.doves.plugin import DovesPlugin, PlayEntries
from solvers.doves.rules import from_ssn
from solvers.xcetero.plugin import Game, XceteroPlugin
from workbench import cli as shell

SAMPLES = Path(__file__).resolve().parents[1] / "assets"
DOVES = SAMPLES / "doves" / "samples" / "04-win-in-5.doves"  # Red to move wins in 5
XO = SAMPLES / "xcetero" / "samples" / "03-jumping.xo"  # O to move wins in 5


@pytest.fixture(autouse=True)
def no_tables(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(tablebase.ENV, str(tmp_path / "no-tables"))  # never the user's own tables


def _solve(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert shell.main(["solve", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("kind", "path", "value"),
    [("doves", DOVES, "Red to move: Win(5)"), ("xcetero", XO, "O to move: Win(5)")],
)
def test_solving_a_game_says_the_positions_value_not_unique(capsys, kind, path, value) -> None:
    last = _solve(capsys, kind, str(path)).strip().splitlines()[-1]
    assert last.startswith(f"{value} (") and "unique" not in last, last
    out = json.loads(_solve(capsys, kind, str(path), "--json"))
    assert out["verdict"] == value and out["solutions"][0]["value"] == "Win(5)"
    assert out["unique"] is None  # a position has a value, not one solution of many
    # every depth streamed (--limit 0) is still one value, not "5 solutions (complete)"
    last = _solve(capsys, kind, str(path), "--limit", "0").strip().splitlines()[-1]
    assert last.startswith(f"{value} ("), last


def test_an_unknown_value_names_the_depth_searched() -> None:
    assert (
        position_verdict("Red", GameValue("unknown"), 9) == "Red to move: Unknown after looking 9 moves ahead"
    )
    assert position_verdict("X", GameValue("draw"), 9) == "X to move: Draw"


def test_a_puzzles_verdict_is_unchanged(capsys) -> None:
    last = _solve(capsys, "flow", str(SAMPLES / "flow" / "samples" / "02-7x7.txt")).strip().splitlines()[-1]
    assert last.startswith("unique ("), last


def test_a_saved_doves_game_is_named_alike_on_the_board_line_and_in_the_cli(tmp_path, capsys) -> None:
    """A put is a move of the record (the move list and the board's "(move 2)" count it so): the
    line under the board said "After 1 action" where the CLI said "after 1 move"."""
    plugin = DovesPlugin()
    puzzle = plugin.parse(read_text(DOVES))
    entries = PlayEntries((from_ssn(puzzle, "+HN1"),))  # a put, not a move
    board_line = plugin.describe_document(puzzle, entries)
    _, where = plugin.solve_position(puzzle, entries)
    assert board_line.startswith("After 1 move: ") and where.startswith("after 1 move, "), (board_line, where)
    path = tmp_path / "game.doves"
    path.write_text(plugin.serialize_document(puzzle, entries), encoding="utf-8")
    assert "Position: after 1 move, Green to move" in _solve(capsys, "doves", str(path), "--limit", "1")


def test_a_saved_xcetero_game_is_named_alike_on_the_board_line_and_in_the_cli() -> None:
    plugin = XceteroPlugin()
    puzzle = plugin.parse(read_text(XO))
    entries = Game((7, 1))
    assert plugin.describe_document(puzzle, entries).startswith("After 2 moves: ")
    assert plugin.solve_position(puzzle, entries)[1].startswith("after 2 moves, ")


def test_a_game_analysis_cut_short_keeps_its_deepest_finished_depth(capsys) -> None:
    """Tokyo Doves' start is not solved in a second: the timeout used to throw the finished depths
    away ("timed out before any solution"); the deepest one is a true answer, shown as such."""
    start = SAMPLES / "doves" / "samples" / "01-start.doves"
    assert shell.main(["solve", "doves", str(start), "--timeout", "1"]) == 3
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("Red to move: Unknown after looking ") and " moves ahead (timed out) (" in last, (
        last
    )
    assert shell.main(["solve", "doves", str(start), "--timeout", "1", "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["count"] == 1 and out["stop"] == "timeout" and out["unique"] is None
    assert out["verdict"].startswith("Red to move: Unknown after looking ")
    assert out["solutions"][0]["depth"] >= 1
