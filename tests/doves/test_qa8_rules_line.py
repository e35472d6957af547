"""QA pass 8: a ``.doves`` file's ``rules:`` line that contradicts itself or its board.

Both were answered with a confident value and exit 0: ``rules: remove=no ... remove=yes`` was read
as its last option, and ``rules: doves=M/T`` over a board holding the full game's doves was analysed
("Win(3)") and checked ("no rule broken so far") as if the extra doves were in the game."""

from __future__ import annotations

from pathlib import Path

import pytest

from solvers.common.errors import InputError, ParseError
from solvers.doves import tablebase
from solvers.doves.model import parse_file
from solvers.doves.plugin import DovesPlugin
from workbench.cli import main as workbench_main

PLUGIN = DovesPlugin()
BOARD = "to move: red\n.By.\nH..a\nA.m.\n..Yb\n"  # the sample 02-win-in-3: Red wins in 3


@pytest.fixture(autouse=True)
def no_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(tablebase.ENV, str(tmp_path / "no-tables"))  # never the user's own tables


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("remove=no both=draw remove=yes", "remove="),
        ("both=draw both=mover_wins", "both="),
        ("doves=AT doves=M", "doves="),
        ("REMOVE=no remove=no", "remove="),
    ],
)
def test_an_option_given_twice_is_refused_with_the_line(line: str, named: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_file(BOARD + f"rules: {line}\n")
    assert caught.value.line == 6
    assert f"the rule option {named} is given twice" in caught.value.message


def test_an_option_given_once_still_reads() -> None:
    rules = parse_file(BOARD + "rules: remove=no both=draw\n").rules
    assert not rules.allow_remove and rules.both_surrounded == "draw"


def test_doves_outside_the_reduced_game_are_broken_not_analysed() -> None:
    position = parse_file(BOARD + "rules: doves=M/T\n")
    verdict = PLUGIN.check(position)
    assert not verdict.complete
    assert [v.code for v in verdict.violations] == ["outsideGame"]
    assert "outside the game doves=M/T" in verdict.violations[0].message
    assert "red Hajike (H)" in verdict.violations[0].message
    with pytest.raises(InputError, match="outside the game doves=M/T"):
        next(iter(PLUGIN.solve(position, limit=1)))


def test_the_command_line_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "reduced.doves"
    path.write_text(BOARD + "rules: doves=M/T\n", encoding="utf-8")
    assert workbench_main(["solve", "doves", str(path)]) == 2
    assert "outside the game doves=M/T" in capsys.readouterr().err
    assert workbench_main(["check", "doves", str(path)]) == 1
    assert "broken: the board holds" in capsys.readouterr().out


def test_a_reduced_game_with_its_own_doves_is_still_analysed() -> None:
    position = parse_file("to move: red\nBb\nMt\nrules: doves=M/T\n")
    assert PLUGIN.check(position).violations == []
