"""`check` means the same in every module (unfinished is not broken), and the words read right."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from solvers.common import registry
from solvers.common.protocol import CheckResult, Violation
from solvers.common.words import check_status, check_text, plural
from workbench.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


@pytest.mark.parametrize("kind", ["toichika", "flow", "ninetiles", "example"])
def test_an_unfinished_sample_is_incomplete_not_broken(capsys, kind: str) -> None:
    samples = registry.get(kind).sample_paths()
    sample = samples[1] if kind == "ninetiles" else samples[0]  # its first sample is a finished town
    code, out = run(capsys, "check", kind, str(sample))
    assert (code, out.strip()) == (0, "incomplete: no rule broken so far")
    data = json.loads(run(capsys, "check", kind, str(sample), "--json")[1])
    assert data["status"] == "incomplete" and data["violations"] == []


def test_a_broken_rule_exits_1_and_names_cells_1_based(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.latin"
    bad.write_text("11...\n.....\n.....\n.....\n.....\n")
    code, out = run(capsys, "check", "example", str(bad))
    assert code == 1
    assert out.startswith("broken: ") and "R1C1" in out and "R1C2" in out
    assert "(0," not in out  # never 0-based for users


def test_words() -> None:
    assert plural(1, "country") == "1 country" and plural(2, "country") == "2 countries"
    assert plural(1, "endpoint") == "1 endpoint" and plural(3, "endpoint") == "3 endpoints"
    assert plural(2, "day") == "2 days"
    broken = CheckResult(False, [Violation("bkNumGe2", "a country holds two arrows", ((0, 0),))])
    assert check_status(broken) == "broken"
    assert "bkNumGe2" not in check_text(broken)  # codes are for tools, not for people
    assert check_text(CheckResult(True)) == "complete: every rule holds"
    toichika = registry.get("toichika")
    assert "1 country," in toichika.describe(toichika.new_puzzle(1, 1))


def test_one_empty_nine_tiles_position_is_singular() -> None:
    from solvers.ninetiles.town import validity

    plugin = registry.get("ninetiles")
    town, _ = plugin.parse_document(plugin.sample_paths()[1].read_text())  # positions 4 and 7 empty
    assert validity(town)[1] == "incomplete: R2C2, R3C2 are empty"
    one_gap = dataclasses.replace(
        town, tiles=town.tiles[:7] + (1,) + town.tiles[8:], dirs=town.dirs[:7] + (2,) + town.dirs[8:]
    )
    assert validity(one_gap)[1] == "incomplete: R2C2 is empty"


def test_cli_solution_heading_is_not_doubled(capsys) -> None:
    sample = registry.get("toichika").sample_paths()[0]
    code, out = run(capsys, "solve", "toichika", str(sample))
    assert code == 0
    assert "Solution 1 (Solution 1)" not in out and "Solution 1:" in out


def test_a_sentence_goes_on_after_broken() -> None:
    """QA: "Play: broken: There is no paired arrow in the direction of an arrow at R4C5"."""
    sentence = CheckResult(
        False, [Violation("arAlone", "An arrow finds no partner in its direction.", ((3, 4),))]
    )
    assert check_text(sentence) == "broken: an arrow finds no partner in its direction at R4C5"
    article = CheckResult(False, [Violation("x", "A country has more than one arrow", ((0, 0),))])
    assert check_text(article) == "broken: a country has more than one arrow at R1C1"  # QA pass 7
    cell_first = CheckResult(False, [Violation("x", "R1C1 and R1C2 repeat 1", ((0, 0),))])
    assert check_text(cell_first).startswith("broken: R1C1 and R1C2")
