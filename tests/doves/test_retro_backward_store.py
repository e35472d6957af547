"""The backward analysis on disk, as tasks per partition (``retro/backward_store.py``), run here:
byte-identical to the in-memory solver, resumable after a cancel, and a task killed half-way
through its apply is undone from its journal before it runs again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.doves.retro import backward_store
from solvers.doves.retro.backward import solve_backward
from solvers.doves.retro.layout import Layout
from solvers.doves.retro.solve import DiskStore
from solvers.doves.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
NO_REMOVE = Rules(allow_remove=False)


def in_memory(red: str, green: str, rules: Rules) -> tuple[dict[str, object], np.ndarray]:
    result, memory, _ = solve_backward(Layout.from_letters(red, green), rules)
    data = result.to_json()
    data.pop("seconds")
    return data, memory.values


def stored(root: Path, red: str, green: str, rules: Rules, **run: object) -> dict[str, object]:
    layout = Layout.from_letters(red, green)
    result, _stats = backward_store.solve_backward_stored(
        layout,
        rules,
        root,
        backward_store.run_here(**run),
        run.get("progress"),  # type: ignore[arg-type]
    )
    data = result.to_json()
    data.pop("seconds")
    return data


@pytest.mark.parametrize(
    "red,green,rules", [("M", "HT", NO_REMOVE), ("AT", "AT", Rules())], ids=["BM-bth", "BAT-bat"]
)
def test_stored_run_is_byte_identical_to_memory(ram_tmp_path, red: str, green: str, rules: Rules) -> None:
    expected, values = in_memory(red, green, rules)
    assert stored(ram_tmp_path, red, green, rules) == expected  # counts, start value, levels and all
    assert np.load(ram_tmp_path / "values.npy").tobytes() == values.tobytes()
    assert not list((ram_tmp_path / "journal").iterdir())
    left = {path.name for path in (ram_tmp_path / "updates").iterdir()}
    assert left == set(), "a finished level's updates are deleted"
    assert stored(ram_tmp_path, red, green, rules) == expected  # a finished store answers at once


# BM-bth with Remove has 20 levels (a stored run: about 1 s CPU), without it 96 (about 4 s): CI runs
# the short one; the long one (cancelled past level 30) stays for --runslow.
RESUMABLE = [
    pytest.param(Rules(), 10, id="with-remove"),
    pytest.param(NO_REMOVE, 30, id="no-remove", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("rules,cancel_at", RESUMABLE)
def test_a_cancelled_run_resumes_to_the_same_tables(ram_tmp_path, rules: Rules, cancel_at: int) -> None:
    expected, values = in_memory("M", "HT", rules)
    assert len(expected["decided_per_pass"]) > cancel_at + 5  # the cancel falls well inside the run
    token = CancelToken()

    def progress(message: str) -> None:
        if message.startswith(f"level {cancel_at}:"):
            token.cancel()

    with pytest.raises(Cancelled):
        stored(ram_tmp_path, "M", "HT", rules, cancel=token, progress=progress)
    state = json.loads((ram_tmp_path / "state.json").read_text())
    assert cancel_at - 2 <= len(state["levels"]) <= cancel_at and not state["done"]
    assert stored(ram_tmp_path, "M", "HT", rules) == expected
    assert np.load(ram_tmp_path / "values.npy").tobytes() == values.tobytes()


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(Rules(), id="with-remove"),
        pytest.param(NO_REMOVE, id="no-remove", marks=pytest.mark.slow),
    ],
)
def test_an_apply_killed_half_way_is_undone_from_its_journal(ram_tmp_path, monkeypatch, rules: Rules) -> None:
    """Level 3 (odd: counters go down) of one partition applies its updates, then dies before
    writing its frontier. Run again blindly, the counters would go down twice."""
    expected, values = in_memory("M", "HT", rules)
    real = backward_store.apply_updates
    crashed: list[int] = []

    def dies_after_applying(dest, mult, d, lo, vals, cnts, out, stats):  # type: ignore[no-untyped-def]
        m = real(dest, mult, d, lo, vals, cnts, out, stats)
        if d == 3 and m and not crashed:
            crashed.append(lo)
            raise OSError("worker lost")
        return m

    monkeypatch.setattr(backward_store, "apply_updates", dies_after_applying)
    with pytest.raises(OSError, match="worker lost"):
        stored(ram_tmp_path, "M", "HT", rules)
    assert crashed and list((ram_tmp_path / "journal").glob("d3_q*.npz"))
    assert stored(ram_tmp_path, "M", "HT", rules) == expected
    assert np.load(ram_tmp_path / "values.npy").tobytes() == values.tobytes()


def test_folders_of_other_runs_are_refused(tmp_path) -> None:
    layout = Layout.from_letters("A", "A")
    stored(tmp_path / "a", "A", "A", Rules())
    with pytest.raises(InputError, match="holds a run of BA-ba"):
        stored(tmp_path / "a", "M", "M", Rules())
    with pytest.raises(InputError, match="holds a run of BA-ba"):
        stored(tmp_path / "a", "A", "A", NO_REMOVE)
    with pytest.raises(InputError, match="holds a backward run"):
        DiskStore(tmp_path / "a", layout)
    DiskStore(tmp_path / "f", layout)
    with pytest.raises(InputError, match="holds a forward run"):
        stored(tmp_path / "f", "A", "A", Rules())


@pytest.mark.parametrize(
    "flags,start,longest,query",
    [
        pytest.param((), "Draw", 19, "Draw", id="with-remove"),  # 20 levels: the CI one
        pytest.param(("--no-remove",), "Lose(88)", 95, "Lose(74)", id="no-remove", marks=pytest.mark.slow),
    ],
)
def test_cli_backward_with_a_store(
    ram_tmp_path, flags: tuple[str, ...], start: str, longest: int, query: str
) -> None:
    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "workbench", "doves", "retro", "M", "HT", *flags, "--method", "backward"]
            + ["--store", str(ram_tmp_path), "--query", "bM;tBh", *extra],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )

    done = run("--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["method"] == "backward" and data["variant"] == "BM-bth"
    assert (data["start_value"], data["longest_win"], data["query"]["value"]) == (start, longest, query)
    assert json.loads((ram_tmp_path / "result.json").read_text())["start_value"] == start
    again = run()  # progress lines, then the result
    assert again.returncode == 0 and f"start_value: {start}" in again.stdout
