"""A solve ends in a typed ``SolveResult`` (solvers/common/outcome.py), not in string keys added to
the solver's info dict: the CLI, the GUI's report and ``count`` read its fields."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.outcome import SolveResult
from solvers.common.protocol import Meta, PluginBase, Solution
from solvers.common.solve_stream import collect, stream_solutions

ROOT = Path(__file__).resolve().parents[1]


class _Worded(PluginBase):
    """Two solutions; its info names its rules and words its verdict, as Flow's does."""

    meta = Meta("worded", "Worded", "a test plug-in")

    def solve(
        self, puzzle: Any, *, limit: int | None = 2, cancel=None, progress=None, info=None
    ) -> Iterator[Solution]:
        assert info is not None
        info["note"] = "hand-made"
        info["rules"] = "designed"
        yield Solution(grid=["1"], data=1)
        yield Solution(grid=["2"], data=2)
        info["verdict"] = "2 solutions (designed)"


def test_the_solve_loop_returns_typed_fields() -> None:
    found: list[Any] = []
    result = stream_solutions(_Worded(), None, None, None, CancelToken(), lambda _info: None, found.append)
    assert isinstance(result, SolveResult) and len(found) == 2
    assert (result.outcome.count, result.outcome.complete) == (2, True)
    assert result.verdict == "2 solutions (designed)" and result.rules == "designed"
    assert result.info == {"note": "hand-made", "rules": "designed"}  # no "outcome", no "verdict"
    assert result.describe() == "2 solutions (designed)"


def test_a_cancelled_collect_has_an_interrupted_result() -> None:
    token = CancelToken()
    token.cancel()
    solutions, result, outcome = collect(_Worded(), None, None, cancel=token)
    assert result.outcome is outcome and outcome.interrupted
    # what the solver said before the cut is kept (the answers' rule set); no verdict
    assert result.verdict is None and result.info == {"note": "hand-made", "rules": "designed"}


def test_no_code_reads_outcome_or_verdict_as_string_keys() -> None:
    """``SolveResult.of_info`` is the one reader of a solver's "verdict"; "outcome" is no key."""
    key = re.compile(r"""(\[|\.get\(|\.pop\()\s*["'](outcome|verdict)["']""")
    offenders = []
    for folder in ("workbench", "widgets", "solvers/common"):
        for path in (ROOT / folder).rglob("*.py"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if key.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}")
    assert offenders == ["solvers/common/outcome.py:" + str(_of_info_line())]


def _of_info_line() -> int:
    lines = (ROOT / "solvers/common/outcome.py").read_text(encoding="utf-8").splitlines()
    return next(k for k, line in enumerate(lines, start=1) if 'rest.pop("verdict"' in line)
