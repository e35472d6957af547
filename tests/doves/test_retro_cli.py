"""``workbench doves retro``: JSON result, query, cross-check; bad arguments exit 2 with one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.doves.cli import main
from solvers.doves.plugin import DovesPlugin

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workbench", "doves", "retro", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_json_result_with_query_and_check(tmp_path) -> None:
    done = run("M", "HT", "--query", "bM;tBh", "--check", "40", "--json", "--store", str(tmp_path))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["variant"] == "BM-bth" and data["classes"] == 29_908
    assert (data["win"], data["loss"], data["longest_win"]) == (1_261, 189, 19)
    assert data["query"] == {"board": "bM;tBh", "to_move": "red", "value": "Draw"}
    assert data["check"]["checked"] == 40 and data["check"]["mismatches"] == []
    assert json.loads((tmp_path / "result.json").read_text())["win"] == 1_261


@pytest.mark.parametrize(
    "args,needle",
    [
        (("AZ",), "'Z' is not a dove letter"),
        (("AYMTH",), "more than --max-classes"),
        (("A", "--workers", "2"), "need --store"),
        (("A", "--query", "bB;Y"), "outside the variant"),
        (("A", "--check", "x"), "--check"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: tuple[str, ...], needle: str, capsys) -> None:
    assert main(["retro", *args], DovesPlugin()) == 2  # in-process: a subprocess per case is slow
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and captured.out == ""
