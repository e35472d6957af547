"""``doves ai``, ``analyse`` and ``perft`` take the rules from the file's ``rules:`` line; options
only override it (issue 26, item 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solvers.doves import tablebase
from solvers.doves.cli import main
from solvers.doves.model import START, Position, parse_board
from solvers.doves.plugin import DovesPlugin
from tests.doves import doves_reference as ref

PLUGIN = DovesPlugin()
# Green to move wins in 3 without Remove in the M/TH game (tS1E1); with every dove and Remove in
# the game a depth-5 search proves nothing and the AI plays another action.
WIN3 = parse_board(" h;  Bt;b; M").with_to_move(1)


def doc(tmp_path: Path, position: Position, rules: str, name: str = "game.doves") -> str:
    path = tmp_path / name
    text = PLUGIN.serialize_document(position, None).rstrip("\n")
    path.write_text(text + (f"\nrules: {rules}\n" if rules else "\n"))
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(list(args), PLUGIN) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(autouse=True)
def no_tables(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(tablebase.ENV, str(tmp_path / "no-tables"))  # never the user's own tables


def ref_perft(squares: tuple[int, ...], side: int, depth: int, allow_remove: bool) -> int:
    """The test-only second implementation, with the Remove switch its own perft does not pass."""
    moves = ref.actions(squares, side, allow_remove)
    if depth == 1:
        return len(moves)
    return sum(ref_perft(child, 1 - side, depth - 1, allow_remove) for _, child, res in moves if res == 0)


def test_perft_counts_under_the_files_rules(tmp_path, capsys) -> None:
    no_remove = doc(tmp_path, START, "remove=no")
    counts = run(capsys, "perft", no_remove, "--depth", "3", "--json")["perft"]
    assert counts == {"1": 29, "2": 827, "3": 26_766}
    assert ref_perft(START.squares, START.to_move, 3, allow_remove=False) == 26_766  # independently
    # options override the file's line, option by option
    assert (
        run(capsys, "perft", no_remove, "--depth", "3", "--rules", "remove=yes", "--json")["perft"]["3"]
        == 27_481
    )
    assert run(capsys, "perft", "b;B", "--depth", "3", "--no-remove", "--json")["perft"]["3"] == 26_766
    # a reduced game puts only its own doves
    reduced = doc(tmp_path, START, "remove=no doves=M/TH", "mth.doves")
    assert run(capsys, "perft", reduced, "--depth", "2", "--json")["perft"] == {"1": 9, "2": 120}


def test_analyse_and_ai_play_the_files_game(tmp_path, capsys) -> None:
    path = doc(tmp_path, WIN3, "remove=no doves=M/TH")
    analysed = run(capsys, "analyse", path, "--depth", "5", "--json")
    assert (analysed["value"], analysed["best"], analysed["to_move"]) == ("Win(3)", ["tS1E1"], "green")
    assert run(capsys, "ai", path, "--json")["action"] == "tS1E1"
    # overridden back to the full game, the same board is not a proven win within 5 plies
    assert (
        run(capsys, "analyse", path, "--depth", "5", "--rules", "remove=yes doves=AYMTH", "--json")["value"]
        == "Unknown"
    )


def test_ai_puts_only_doves_of_the_game(tmp_path, capsys) -> None:
    path = doc(tmp_path, START, "remove=no doves=M/TH")
    for level in ("1", "2", "3"):
        action = run(capsys, "ai", path, "--level", level, "--json")["action"]
        assert action.lstrip("+-")[0] in "BM", action  # Red has its Boss and its Mamedeppo only


def test_a_board_with_doves_outside_the_game_is_one_line(tmp_path, capsys) -> None:
    path = doc(tmp_path, parse_board("bB;A"), "doves=M/TH")
    assert main(["analyse", path], PLUGIN) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "outside the game doves=M/TH" in err[0]


def test_the_workbench_cli_plays_the_files_rules_from_the_puzzle(tmp_path) -> None:
    """Through ``python -m workbench`` (issue 30.1: the rules now ride in the position): analyse,
    ai and solve read the file's 'rules:' line, also with --to-move, which rebuilt the position."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, **{tablebase.ENV: str(tmp_path / "no-tables")})
    path = doc(tmp_path, WIN3, "remove=no doves=M/TH")
    red = doc(tmp_path, WIN3.with_to_move(0), "remove=no doves=M/TH", "red.doves")

    def cli(*args: str) -> dict:
        done = subprocess.run(
            [sys.executable, "-m", "workbench", *args, "--json"],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    analysed = cli("doves", "analyse", red, "--to-move", "green", "--depth", "5")
    assert (analysed["value"], analysed["best"]) == ("Win(3)", ["tS1E1"])
    assert cli("doves", "ai", red, "--to-move", "green")["action"] == "tS1E1"
    solved = cli("solve", "doves", path, "--limit", "1")
    assert solved["rules"] == "no remove; both bosses surrounded: mover loses; doves M/TH", solved
    assert "Win(3)" in json.dumps(solved) and "tS1E1" in json.dumps(solved)
