"""mypy over the Qt-free library (configuration and the per-module baseline: pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_passes_on_solvers() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "solvers"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
