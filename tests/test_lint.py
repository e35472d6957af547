"""Lint is part of the suite: ruff must pass on the whole tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_clean() -> None:
    # ruff comes with the test extra: run it from this interpreter, never skip because a PATH lacks it.
    ruff = [sys.executable, "-m", "ruff"]
    check = subprocess.run([*ruff, "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout[-3000:]
    fmt = subprocess.run([*ruff, "format", "--check", "."], cwd=ROOT, capture_output=True, text=True)
    assert fmt.returncode == 0, fmt.stdout[-3000:]
