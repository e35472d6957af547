"""Module CLI: ``python -m workbench xcetero analyse|value`` through ``PLUGIN.cli``."""

from __future__ import annotations

import json

import pytest

from solvers.xcetero import PLUGIN
from solvers.xcetero.rules import Position, apply_moves

ANALYSE_KEYS = {
    "reachable",
    "finished",
    "live",
    "win",
    "loss",
    "draw",
    "symmetry_classes",
    "initial",
    "longest_win",
    "longest_loss",
    "first_moves",
    "seconds",
}


def test_analyse_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert PLUGIN.cli(["analyse", "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert set(facts) == ANALYSE_KEYS
    assert facts["live"] + facts["finished"] == facts["reachable"]
    assert facts["win"] + facts["loss"] + facts["draw"] == facts["live"]
    assert sorted(facts["first_moves"]) == [str(i) for i in range(9)]
    # first_moves agree with the value command on the position after each first move
    for square, text in facts["first_moves"].items():
        after = apply_moves(Position(), [int(square)])
        assert PLUGIN.cli(["value", " ".join([_inline(after)]), "--json"]) == 0
        reply = json.loads(capsys.readouterr().out)
        kind, _, dist = reply["value"].rstrip(")").partition("(")
        flipped = {"Win": "Lose", "Lose": "Win", "Draw": "Draw"}[kind]
        assert text == (flipped if not dist else f"{flipped}({int(dist) + 1})")
    assert isinstance(facts["seconds"], float)


def _inline(p: Position) -> str:
    from solvers.xcetero.notation import to_inline

    return to_inline(p)


def test_value_json_is_checked_by_replaying(capsys: pytest.CaptureFixture[str]) -> None:
    assert PLUGIN.cli(["value", "4../512/6.3 3", "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["grid"] == ["4..", "512", "6.3"]
    assert reply["side"] == "O" and reply["due"] == 3
    kind, _, dist = reply["value"].rstrip(")").partition("(")
    assert kind == "Win"
    end = apply_moves(PLUGIN.parse("4../512/6.3 3"), reply["pv"])
    assert end.winner() == "O" and len(reply["pv"]) == int(dist)
    assert reply["value"] in reply["moves"].values()
    assert set(reply["moves"]) == {"1", "2", "7"}  # the empty squares


def test_value_of_a_file(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pos.xo"
    path.write_text(PLUGIN.serialize(PLUGIN.parse(".1./.../...")), encoding="utf-8")
    assert PLUGIN.cli(["value", str(path)]) == 0
    out = capsys.readouterr().out
    assert "X to move (piece 2): Lose(12)" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["value", "132/.4./5.6 due 7"], "line 1, column 17"),
        (["value", "no-such-file.xo"], "no such file"),
        (["value", "135/246/... 1"], "both players have three in a row"),
        (["value"], "required: state"),
        (["analyse", "--fast"], "unrecognized arguments: --fast"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        ([], "required: command"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert PLUGIN.cli(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_value_and_solve_answer_after_the_files_moves(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """A saved game is analysed where it stands, not at its set-up (before, ``value`` and ``solve``
    answered Win(5) for the sample's set-up whatever its ``moves`` line held)."""
    from workbench import cli as shell

    setup = "4../512/6.3 3"  # the jumping sample: O wins in 5 by 7 1 8 0 6
    path = tmp_path / "game.xo"
    path.write_text(PLUGIN.serialize(PLUGIN.parse(setup)) + "moves 7 1\n", encoding="utf-8")
    after = apply_moves(PLUGIN.parse(setup), [7, 1])
    assert PLUGIN.cli(["value", str(path), "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert (reply["value"], reply["side"], reply["due"]) == ("Win(3)", "O", after.due)
    assert reply["position"] == "after 2 moves, O to move"
    assert apply_moves(after, reply["pv"]).winner() == "O" and len(reply["pv"]) == 3
    assert PLUGIN.cli(["value", str(path)]) == 0
    assert "position: after 2 moves, O to move" in capsys.readouterr().out
    assert shell.main(["solve", "xcetero", str(path), "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["position"] == "after 2 moves, O to move" and solved["solutions"][0]["value"] == "Win(3)"
    # the whole winning line played: the game is over, and the value says so for the side to move
    path.write_text(PLUGIN.serialize(PLUGIN.parse(setup)) + "moves 7 1 8 0 6\n", encoding="utf-8")
    assert PLUGIN.cli(["value", str(path), "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert (reply["value"], reply["position"]) == ("Lose(0)", "after 5 moves, O has won")
    # without moves: the set-up
    path.write_text(PLUGIN.serialize(PLUGIN.parse(setup)), encoding="utf-8")
    assert PLUGIN.cli(["value", str(path), "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert (reply["value"], reply["position"]) == ("Win(5)", "the set-up, O to move")
