"""Lint is part of the suite: ruff must pass on the whole tree."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff not installed")
def test_ruff_clean() -> None:
    check = subprocess.run(["ruff", "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout[-3000:]
    fmt = subprocess.run(["ruff", "format", "--check", "."], cwd=ROOT, capture_output=True, text=True)
    assert fmt.returncode == 0, fmt.stdout[-3000:]
