"""Tablebases: build a small table, agree with the Win(n) search, answer solve/AI, refuse bad files."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solvers.common.errors import InputError
from solvers.doves import engine as rules_engine
from solvers.doves import tablebase
from solvers.doves.analysis import choose_action
from solvers.doves.cli import main
from solvers.doves.model import START, parse_board
from solvers.doves.plugin import DovesPlugin
from solvers.doves.retro.check import search_value
from solvers.doves.rules import DEFAULT_RULES, Rules, legal_steps, parse_doves

ROOT = Path(__file__).resolve().parents[2]
RULES = Rules(doves=parse_doves("M/TH"))  # 29,908 classes: Win/Lose within 19 plies, ~1 s to build
NO_REMOVE = Rules(allow_remove=False, doves=parse_doves("M/TH"))  # the start is Lose(88)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tablebases")
    for rules in (RULES, NO_REMOVE):
        path, summary = tablebase.build(rules, root)
        assert path == root / tablebase.file_name(rules) and summary["bytes"] == path.stat().st_size
    return root


@pytest.fixture
def data_dir(folder, monkeypatch) -> Path:
    monkeypatch.setenv(tablebase.ENV, str(folder))
    return folder


def test_rules_line_carries_the_dove_sets() -> None:
    rules = Rules.from_text("remove=no doves=ta/YA")
    assert rules.doves == ((1, 4), (1, 2)) and rules.to_text() == "remove=no both=mover_loses doves=AT/AY"
    assert Rules.from_text(rules.to_text()) == rules and Rules.from_text("doves=m").doves == ((3,), (3,))
    assert rules.hand == 0b11 | 1 << 2 | 1 << 8 | 1 << 3 | 1 << 5
    assert DEFAULT_RULES.hand == 0xFFF and "doves" not in DEFAULT_RULES.to_text()
    for bad in ("doves=AZ", "doves=A/B/C", "doves=Ａ"):
        with pytest.raises(InputError, match="doves="):
            Rules.from_text(bad)
    # a reduced game cannot put a dove that is out of it
    assert {s.action.dove for s in legal_steps(START.with_rules(Rules(doves=((3,), (4,)))))} <= {0, 6}


def test_table_agrees_with_the_search_on_hundreds_of_positions(folder) -> None:
    table = tablebase.find_table(RULES, folder)
    assert table is not None and table.values.shape == (29_908,)
    layout = table.layout()
    values = np.asarray(table.values)
    rng = random.Random(7)
    live = np.flatnonzero(values != tablebase.TERMINAL)
    decided = np.flatnonzero((values != tablebase.TERMINAL) & (values != 0) & (np.abs(values) <= 5))
    picks = rng.sample(list(decided), 150) + rng.sample(list(live), 150)
    tt = np.zeros((1 << 16, 6), dtype=np.int64)
    buf = rules_engine.Buffers()
    kinds = set()
    for index in picks:
        position = layout.position(int(index))  # a real game position (Green to move if swapped)
        stored = tablebase.value_of(table, position, layout)
        assert stored == int(values[index])
        expected = stored if abs(stored) <= 5 else 0
        assert search_value(position.with_rules(RULES), RULES.hand, 5, tt, buf) == expected, (
            position.board_string()
        )
        kinds.add(tablebase.as_value(stored).kind)
    assert kinds == {"win", "lose", "draw"}


def test_perfect_actions_keep_the_value(folder) -> None:
    table = tablebase.find_table(NO_REMOVE, folder)
    assert table is not None
    layout = table.layout()
    here, best = tablebase.perfect_steps(table, START, layout)
    assert here == -88 and best
    for step in best:  # Red loses in 88: every perfect action leaves Green a Win(87)
        assert tablebase.value_of(table, step.position, layout) == 87
    analysis = tablebase.lookup(START.with_rules(NO_REMOVE), folder)
    assert analysis is not None and str(analysis.value) == "Lose(88)" and analysis.source == "tablebase"
    assert len(analysis.line) >= 80 and len(analysis.ssn) == len(analysis.line)


def test_plugin_solve_and_ai_answer_from_the_table(data_dir) -> None:
    plugin = DovesPlugin()
    info: dict[str, object] = {}
    (solution,) = plugin.solve(START.with_rules(NO_REMOVE), info=info)
    assert solution.extras["value"] == "Lose(88)" and solution.extras["source"] == "tablebase"
    assert solution.label.startswith("tablebase: Lose(88)") and str(data_dir) in str(info["tablebase"])
    table = tablebase.find_table(NO_REMOVE)
    assert table is not None
    _, best = tablebase.perfect_steps(table, START)
    assert choose_action(START.with_rules(NO_REMOVE), 1) in [s.action for s in best]
    # another rule set: no table, the search answers
    (searched,) = plugin.solve(parse_board("bB;T YA"))
    assert searched.extras["source"] == "search" and searched.extras["value"] == "Win(5)"


@pytest.mark.parametrize("rules", [RULES, NO_REMOVE], ids=["remove", "no-remove"])
def test_forward_and_backward_builds_write_the_same_file(folder, tmp_path, rules) -> None:
    """The fixture's tables are built backward (the default); the stored-graph passes must write
    byte for byte the same file (values, checksum and all)."""
    path, summary = tablebase.build(rules, tmp_path, method="forward")
    assert summary["method"] == "forward"
    assert path.read_bytes() == (folder / tablebase.file_name(rules)).read_bytes()
    with pytest.raises(InputError, match="unknown method"):
        tablebase.build(rules, tmp_path, method="sideways")


def test_no_table_means_search(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(tablebase.ENV, str(tmp_path))
    assert (
        tablebase.lookup(START.with_rules(NO_REMOVE)) is None
        and tablebase.best_action(START.with_rules(NO_REMOVE)) is None
    )
    assert tablebase.lookup(START) is None  # the full game has no table
    # a position with a dove outside the variant is not covered either
    assert tablebase.lookup(parse_board("bB;A").with_rules(NO_REMOVE), tmp_path) is None


@pytest.mark.parametrize(
    "damage,needle",
    [
        (lambda b: b[:1000], "truncated or damaged"),
        (lambda b: b + b"x", "truncated or damaged"),
        (lambda b: b"PK\x03\x04" + b[4:], "wrong magic"),
        (lambda b: b"", "wrong magic"),
        (lambda b: b.replace(b'"version": 1', b'"version": 9'), "format version 9"),
        (lambda b: b.replace(b'"red": [3]', b'"red": [7]'), "damaged tablebase header"),
        (lambda b: b.replace(b'"classes": 29908', b'"classes": 29909'), "has another count"),
        (lambda b: b[:8] + (10**9).to_bytes(8, "little") + b[16:], "header length"),
        (lambda b: b.replace(b"{", b"\xff", 1), "damaged tablebase header"),
    ],
)
def test_damaged_files_are_refused(folder, tmp_path, damage, needle) -> None:
    good = (folder / tablebase.file_name(RULES)).read_bytes()
    path = tmp_path / tablebase.file_name(RULES)
    path.write_bytes(damage(good))
    with pytest.raises(InputError, match=needle):
        tablebase.find_table(RULES, tmp_path)


def test_a_flipped_value_fails_the_checksum(folder, tmp_path) -> None:
    good = bytearray((folder / tablebase.file_name(RULES)).read_bytes())
    good[-7] ^= 0x10  # one bit of one stored value: the header and the size still look right
    (tmp_path / tablebase.file_name(RULES)).write_bytes(bytes(good))
    with pytest.raises(InputError, match="do not match their checksum"):
        tablebase.find_table(RULES, tmp_path)


def test_a_damaged_table_falls_back_to_search_and_says_why(folder, tmp_path, monkeypatch, capsys) -> None:
    good = (folder / tablebase.file_name(NO_REMOVE)).read_bytes()
    (tmp_path / tablebase.file_name(NO_REMOVE)).write_bytes(good[:-2])  # truncated by one value
    (tmp_path / tablebase.file_name(RULES)).write_bytes((folder / tablebase.file_name(RULES)).read_bytes())
    problems: list[str] = []
    assert tablebase.lookup(START.with_rules(NO_REMOVE), tmp_path, problems) is None
    assert tablebase.best_action(START.with_rules(NO_REMOVE), tmp_path) is None
    assert len(problems) == 1 and "truncated or damaged" in problems[0]
    monkeypatch.setenv(tablebase.ENV, str(tmp_path))
    position = parse_board("bB;M")  # inside M/TH: the table would have answered
    info: dict[str, object] = {}
    texts: list[str] = []
    (solution,) = DovesPlugin().solve(
        position.with_rules(NO_REMOVE), info=info, progress=lambda p: texts.append(str(p.get("text", "")))
    )
    assert solution.extras["source"] == "search"
    assert "truncated or damaged" in str(info["tablebase_problem"])
    assert texts[0].startswith("tablebase unusable, searching:")
    assert choose_action(position.with_rules(NO_REMOVE), 1) in [
        s.action for s in legal_steps(position.with_rules(NO_REMOVE))
    ]
    # the CLI lists the damaged file as unusable and the good one as usable
    assert DovesPlugin().cli(["tablebase", "list", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"{tablebase.file_name(NO_REMOVE)}: UNUSABLE (" in out and "29,908 classes" in out


def test_a_foreign_table_under_the_name_is_refused(folder, tmp_path) -> None:
    (tmp_path / tablebase.file_name(RULES)).write_bytes(
        (folder / tablebase.file_name(NO_REMOVE)).read_bytes()
    )
    with pytest.raises(InputError, match="not of"):
        tablebase.find_table(RULES, tmp_path)


def test_cli_build_and_query(tmp_path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "workbench", "doves", "tablebase", *args, "--dir", str(tmp_path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )

    built = run("build", "M", "TH", "--rules", "remove=no", "--json")
    assert built.returncode == 0, built.stderr
    data = json.loads(built.stdout)
    assert (data["variant"], data["classes"], data["start_value"]) == ("BM-bth", 29_908, "Lose(88)")
    assert "level 2:" in built.stderr  # progress goes to stderr
    assert data["method"] == "backward"
    forward = run("build", "M", "TH", "--rules", "remove=no", "--method", "forward", "--json")
    assert forward.returncode == 0 and "pass 2:" in forward.stderr
    assert json.loads(forward.stdout)["start_value"] == "Lose(88)"
    doc = tmp_path / "game.doves"
    doc.write_text(PLUGIN_TEXT)
    queried = run("query", str(doc), "--json")
    assert queried.returncode == 0, queried.stderr
    answer = json.loads(queried.stdout)
    assert answer["value"] == "Lose(88)" and answer["to_move"] == "red" and answer["perfect"]
    doc.write_text(PLUGIN_TEXT + "moves: BW1\n")  # the position after the file's moves
    answer = json.loads(run("query", str(doc), "--json").stdout)
    assert (answer["value"], answer["to_move"]) == ("Win(87)", "green")


PLUGIN_TEXT = DovesPlugin().serialize_document(START, None).rstrip("\n") + "\nrules: remove=no doves=M/TH\n"


@pytest.mark.parametrize(
    "args,needle",
    [
        (("build", "AZ"), "'Z' is not a dove letter"),
        (("build", "AYMTH", "--max-classes", "10"), "more than --max-classes"),
        (("build", "A", "--rules", "remove=maybe"), "unknown rule option"),
        (("build",), "red"),
        (("query", "b;B"), "no table covers the full game"),
        (("query", "b;B", "--rules", "doves=A"), "no table for BA-ba"),
        (("query", "b;B", "--rules", "doves=A/"), "no table for BA-b"),
        (("query", "", "--rules", "doves=A"), ""),
        (("query", "b;B", "--to-move", "blue", "--rules", "doves=A"), "blue"),
        (("frobnicate",), "invalid choice"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: tuple[str, ...], needle: str, tmp_path, capsys) -> None:
    assert main(["tablebase", *args, "--dir", str(tmp_path)], DovesPlugin()) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and captured.out == ""
