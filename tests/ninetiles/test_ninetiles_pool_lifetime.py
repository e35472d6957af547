"""The pool processes of ``ninetiles enumerate`` die with their parent, even when it is SIGKILLed
(nothing of the parent runs then: the children must notice by themselves)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")

ROOT = Path(__file__).resolve().parents[2]


def _parents() -> dict[int, int]:
    """pid -> parent pid of every live (not zombie) process."""
    table: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            table[int(entry.name)] = int(fields[1])
    return table


def _descendants(root: int) -> set[int]:
    table = _parents()
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in table.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pids: set[int]) -> set[int]:
    return pids & set(_parents())


def test_pool_processes_die_when_the_parent_is_killed(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PUZZLE_WORKBENCH_CACHE": str(tmp_path / "cache")}
    argv = [sys.executable, "-m", "workbench", "ninetiles", "enumerate", "--store", str(tmp_path / "s")]
    parent = subprocess.Popen(
        [*argv, "--subset", "20000", "--workers", "2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    children: set[int] = set()
    try:
        deadline = time.monotonic() + 120  # start-up and counting the towns: seconds, more under load
        while time.monotonic() < deadline and parent.poll() is None:
            children = _descendants(parent.pid)
            if len(children) >= 2:  # both pool workers have started
                break
            time.sleep(0.05)
        assert parent.poll() is None and len(children) >= 2, "the pool never started"
        time.sleep(0.5)  # let them start working on their shards
        children = _descendants(parent.pid)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 10  # measured 1.5 s (all of them); a loaded machine meets 10 s
        while _alive(children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(children), f"still running after their parent was killed: {_alive(children)}"
    finally:
        parent.kill()
        for pid in _alive(children):  # a failed run must not leave them computing
            os.kill(pid, signal.SIGKILL)
