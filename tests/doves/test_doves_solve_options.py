"""A document's rule options reach every solver caller that has the document (CLI solve, export)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

from solvers.doves import PLUGIN

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_solve_reads_the_rules_saved_in_the_file(tmp_path: Path) -> None:
    sample = ROOT / "assets" / "doves" / "samples" / "02-win-in-3.doves"
    puzzle, entries = PLUGIN.parse_document(sample.read_text())
    assert PLUGIN.solve_options(entries) == {}  # the rules are the puzzle's: solve reads them there
    other = dataclasses.replace(puzzle.rules, allow_remove=not puzzle.rules.allow_remove)
    path = tmp_path / "other-rules.doves"
    path.write_text(PLUGIN.serialize_document(puzzle.with_rules(other), entries))
    for file, rules in ((sample, puzzle.rules), (path, other)):
        done = _cli("solve", "doves", str(file), "--json", "--limit", "1")
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)
        assert out["rules"] == rules.describe(), out
