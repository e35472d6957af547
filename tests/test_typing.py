"""mypy over the library, the widgets and the shell (configuration and the per-module baseline of
known errors: pyproject.toml; the baseline may only shrink)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_passes() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "solvers", "workbench", "widgets"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
