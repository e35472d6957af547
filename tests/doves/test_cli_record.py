"""The CLI analyses a saved game where it stands: ``doves analyse``, ``ai``, ``perft``, ``tablebase
query`` and ``workbench solve doves`` replay the file's ``moves:`` line (before, all but the
tablebase query answered for the set-up, e.g. for Red to move when Green was)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solvers.common.protocol import PluginBase
from solvers.doves import tablebase
from solvers.doves.cli import main
from solvers.doves.plugin import DovesPlugin
from solvers.doves.rules import from_ssn, legal_steps, play
from workbench import cli as shell

PLUGIN = DovesPlugin()
SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "doves" / "samples" / "02-win-in-3.doves"
LINE = ("+MS1E1", "+tE2", "MS2E2")  # Red's forced win from the sample (Win(3) for Red to move)


def game(tmp_path: Path, moves: tuple[str, ...], name: str = "game.doves") -> str:
    path = tmp_path / name
    path.write_text(SAMPLE.read_text().rstrip("\n") + "\nmoves: " + " ".join(moves) + "\n")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(list(args), PLUGIN) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def fails(capsys: pytest.CaptureFixture[str], *args: str, plugin: PluginBase = PLUGIN) -> str:
    code = shell.main(list(args)) if args[0] == "solve" else main(list(args), plugin)
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and captured.out == "", captured
    return lines[0]


@pytest.fixture(autouse=True)
def no_tables(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(tablebase.ENV, str(tmp_path / "no-tables"))  # never the user's own tables


def test_analyse_ai_perft_and_solve_answer_after_the_files_moves(tmp_path, capsys) -> None:
    path = game(tmp_path, LINE[:1])
    setup, _ = PLUGIN.parse_document(SAMPLE.read_text())
    after = play(setup, from_ssn(setup, LINE[0])).position  # Green to move, lost in 2
    analysed = run(capsys, "analyse", path, "--depth", "5", "--json")
    assert (analysed["value"], analysed["to_move"]) == ("Lose(2)", "green")
    assert analysed["position"] == "after 1 move, Green to move"
    action = run(capsys, "ai", path, "--json")["action"]
    assert play(after, from_ssn(after, action)).position  # a legal action of Green's, here
    assert action.lstrip("+-")[0].islower()  # green doves are lower case
    counts = run(capsys, "perft", path, "--depth", "1", "--json")
    assert counts["perft"] == {"1": len(legal_steps(after))} and counts["position"].startswith("after 1 move")
    # the shell's solve, the same position
    assert shell.main(["solve", "doves", path, "--limit", "1", "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["position"] == "after 1 move, Green to move"
    assert solved["solutions"][0]["value"] == "Lose(2)"
    assert solved["solutions"][0]["grid"] == after.rows()
    assert shell.main(["solve", "doves", path, "--limit", "1"]) == 0
    assert "Position: after 1 move, Green to move" in capsys.readouterr().out
    # a file without moves is its set-up, as before
    plain = run(capsys, "analyse", str(SAMPLE), "--depth", "5", "--json")
    assert (plain["value"], plain["position"]) == ("Win(3)", "the set-up, Red to move")


def test_to_move_with_moves_may_only_repeat_the_side_they_leave(tmp_path, capsys) -> None:
    path = game(tmp_path, LINE[:1])
    assert run(capsys, "analyse", path, "--to-move", "green", "--depth", "3", "--json")["to_move"] == "green"
    for command in (("analyse", path), ("ai", path), ("perft", path), ("tablebase", "query", path)):
        line = fails(capsys, *command, "--to-move", "red")
        assert "--to-move red" in line and "Green to move" in line, line
    # without moves --to-move still sets the side
    plain = run(capsys, "analyse", str(SAMPLE), "--to-move", "green", "--depth", "1", "--json")
    assert plain["position"] == "the set-up, Green to move"


def test_a_finished_game_or_a_record_the_rules_refuse_is_one_line(tmp_path, capsys) -> None:
    won = game(tmp_path, LINE, "won.doves")
    for args in (("analyse", won), ("ai", won), ("perft", won), ("solve", "doves", won)):
        line = fails(capsys, *args)
        assert "game ended with move 3" in line and "Red wins" in line, line
    # a Remove in the record, analysed without Remove: the record no longer fits the rules
    removing = game(tmp_path, ("-A",), "remove.doves")
    assert (
        run(capsys, "analyse", removing, "--depth", "1", "--json")["position"]
        == "after 1 move, Green to move"
    )
    line = fails(capsys, "analyse", removing, "--no-remove")
    assert "action 1 (-A) is illegal" in line, line


def test_export_solved_draws_the_analysis_of_where_the_game_stands(tmp_path, capsys) -> None:
    out = tmp_path / "after.svg"
    assert shell.main(["export", "doves", game(tmp_path, LINE[:1]), str(out), "--solved"]) == 0
    capsys.readouterr()
    text = out.read_text()
    assert "Green to move: Lose(2)" in text and "Red to move" not in text
