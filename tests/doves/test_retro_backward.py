"""Backward (predecessor-driven) retrograde solver: byte-identical to the forward passes."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from solvers.common.cancel import Cancelled, CancelToken
from solvers.doves.cli import main
from solvers.doves.plugin import DovesPlugin
from solvers.doves.retro.backward import solve_backward
from solvers.doves.retro.layout import Layout
from solvers.doves.retro.solve import solve
from solvers.doves.rules import Rules

ROOT = Path(__file__).resolve().parents[2]


def same_as_forward(red: str, green: str, rules: Rules) -> tuple[dict[str, object], np.ndarray]:
    layout = Layout.from_letters(red, green)
    forward, fstore = solve(layout, rules)
    backward, bstore, stats = solve_backward(layout, rules)
    assert bstore.values.dtype == fstore.values.dtype
    assert bstore.values.tobytes() == fstore.values.tobytes(), (layout.name, rules.describe())
    f, b = forward.to_json(), backward.to_json()
    f.pop("seconds")
    b.pop("seconds")
    assert f == b  # counts, edges, start value, longest win, passes and decided per pass
    assert stats.expanded == forward.win + forward.loss
    return b, bstore.values


def test_every_one_dove_variant() -> None:
    for red, green in product("AYMTH", repeat=2):
        result, _ = same_as_forward(red, green, Rules())
        assert result["start_value"] == "Draw"


@pytest.mark.parametrize(
    "red,green,rules,start",
    [
        ("M", "HT", Rules(), "Draw"),
        ("M", "HT", Rules(allow_remove=False), "Lose(88)"),
        ("M", "AT", Rules(), "Lose(60)"),
        ("H", "YT", Rules(allow_remove=False), "Lose(98)"),
        ("M", "HT", Rules(both_surrounded="draw"), "Draw"),
        ("HT", "M", Rules(both_surrounded="mover_wins", allow_remove=False), None),
    ],
)
def test_one_against_two(red: str, green: str, rules: Rules, start: str | None) -> None:
    result, _ = same_as_forward(red, green, rules)
    if start is not None:
        assert result["start_value"] == start
    assert result["win"] and result["loss"]


def test_two_against_two_without_remove() -> None:
    result, _ = same_as_forward("AT", "AT", Rules(allow_remove=False))
    assert (result["win"], result["loss"], result["longest_win"]) == (13_400, 154, 7)


def test_cancel_and_timeout() -> None:
    layout = Layout.from_letters("M", "HT")
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        solve_backward(layout, Rules(), cancel=token)
    expired = CancelToken(timeout=0.0)
    with pytest.raises(Cancelled):
        solve_backward(layout, Rules(), cancel=expired)
    assert expired.reason == "timeout"
    # a cancel between levels stops the level loop at its next chunk
    lines: list[str] = []
    late = CancelToken()

    def progress(line: str) -> None:
        lines.append(line)
        if line.startswith("level 5:"):
            late.cancel()

    with pytest.raises(Cancelled):
        solve_backward(layout, Rules(allow_remove=False), cancel=late, progress=progress)
    assert lines[0].startswith("init:") and lines[-1].startswith("level 5:")


def test_cli_backward_method() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "workbench", "doves", "retro", "M", "HT", "--no-remove"]
        + ["--method", "backward", "--query", "bM;tBh", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["method"] == "backward" and data["variant"] == "BM-bth"
    assert data["start_value"] == "Lose(88)" and data["longest_win"] == 95
    assert data["query"]["value"] == "Lose(74)"  # as the forward method says
    assert data["backward"]["expanded"] == data["win"] + data["loss"]
    assert data["backward"]["predecessor_positions"] > data["backward"]["expanded"]
    assert set(data["seconds"]) == {"init", "backward"}


def test_cli_backward_workers_need_a_store(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["retro", "M", "--method", "backward", "--workers", "2"], DovesPlugin()) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "--workers/--scheduler need --store DIR" in lines[0]
