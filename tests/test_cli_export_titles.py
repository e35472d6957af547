"""Every file the command line exports carries the puzzle's title, as ``export`` and File > Export
give it (QA pass 10: ``solve --export`` wrote "Puzzle Workbench diagram" and ``explain
--export-step`` only the module's name)."""

from __future__ import annotations

import re
from pathlib import Path

from workbench.cli import main

ASSETS = Path(__file__).resolve().parents[1] / "assets"


def _title(path: Path) -> str:
    found = re.search(r"<title>([^<]*)</title>", path.read_text(encoding="utf-8"))
    assert found is not None
    return found.group(1)


def test_solve_export_names_the_puzzle(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    out = tmp_path / "solved.svg"
    assert main(["solve", "flow", str(ASSETS / "flow" / "samples" / "02-7x7.txt"), "--export", str(out)]) == 0
    capsys.readouterr()
    assert _title(out) == "02-7x7 (Flow Free)"


def test_an_exported_step_names_the_puzzle_and_the_step(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    out = tmp_path / "step.svg"
    source = ASSETS / "toichika" / "samples" / "a_6x6_first_steps.toichika"
    assert main(["explain", "toichika", str(source), "--export-step", "3", str(out)]) == 0
    capsys.readouterr()
    assert _title(out) == "a_6x6_first_steps (Toichika), step 3"
