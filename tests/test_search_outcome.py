"""The one rule for "complete / exhausted" (solvers/common/outcome.py) and its wording."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solvers.common import registry
from solvers.common.cancel import CancelToken
from solvers.common.outcome import SearchOutcome, reached_limit

ROOT = Path(__file__).resolve().parents[1]


def test_found_all() -> None:
    assert SearchOutcome.after(0, 2) == SearchOutcome(0, True, "exhausted")
    assert SearchOutcome.after(0, 2).status() == "no solution"
    assert SearchOutcome.after(1, 2).status() == "unique"
    assert SearchOutcome.after(1, 2).unique is True
    # "find all" (limit 0 or None) is never stopped by the limit
    for limit in (0, None):
        outcome = SearchOutcome.after(576, limit)
        assert (outcome.complete, outcome.stop, outcome.unique) == (True, "exhausted", False)
        assert outcome.status() == "576 solutions (complete)"
    assert SearchOutcome.after(1234, None).status() == "1,234 solutions (complete)"


def test_stopped_at_limit() -> None:
    outcome = SearchOutcome.after(2, 2)
    assert (outcome.complete, outcome.stop, outcome.unique) == (False, "limit", False)
    assert outcome.status() == "at least 2 solutions (stopped at the limit)"
    one = SearchOutcome.after(1, 1)
    assert (one.unique, one.status()) == (None, "at least 1 solution (stopped at the limit)")
    assert not one.interrupted
    # the limit wins over a cancel that came after it was reached
    token = CancelToken()
    token.cancel()
    assert SearchOutcome.after(2, 2, token).stop == "limit"


def test_cancelled() -> None:
    token = CancelToken()
    token.cancel()
    outcome = SearchOutcome.after(3, 0, token)
    assert (outcome.complete, outcome.stop, outcome.interrupted) == (False, "cancelled", True)
    assert outcome.status() == "at least 3 solutions (cancelled)"
    assert SearchOutcome.after(0, 2, cancelled=True).status() == "cancelled before any solution"
    # a cancelled search that found one solution does not know whether it is unique
    assert SearchOutcome.after(1, 2, cancelled=True).unique is None


def test_timed_out() -> None:
    token = CancelToken(timeout=0.001)
    time.sleep(0.01)
    outcome = SearchOutcome.after(1, 0, token)
    assert (outcome.complete, outcome.stop) == (False, "timeout")
    assert outcome.status() == "at least 1 solution (timed out)"
    assert SearchOutcome.after(0, 2, token).status() == "timed out before any solution"
    told = CancelToken()
    told.cancel("timeout")  # the CLI's watchdog says why it fired
    assert SearchOutcome.after(4, 0, told).stop == "timeout"


def test_module_verdict_only_for_a_search_that_ended_itself() -> None:
    assert SearchOutcome.after(1, 2).describe("unique (designed)") == "unique (designed)"
    assert SearchOutcome.after(2, 2).describe(None) == "at least 2 solutions (stopped at the limit)"
    cut = SearchOutcome.after(1, 2, cancelled=True)
    assert cut.describe("unique (designed)") == "at least 1 solution (cancelled)"


def test_positional_form_and_inconsistent_values() -> None:
    # CountResult(count, complete), the older form, still works
    assert SearchOutcome(2, False).stop == "limit"
    assert SearchOutcome(2, True).stop == "exhausted"
    with pytest.raises(ValueError):
        SearchOutcome(2, True, "cancelled")
    assert reached_limit(2, 2) and not reached_limit(1, 2)
    assert not reached_limit(10**6, 0) and not reached_limit(10**6, None)


def test_plugin_count_uses_the_rule() -> None:
    plugin = registry.get("example")
    empty = plugin.parse(plugin.serialize(plugin.new_puzzle(3, 3)))
    assert plugin.count(empty, limit=2) == SearchOutcome(2, False, "limit")
    token = CancelToken()
    token.cancel()
    assert plugin.count(empty, limit=0, cancel=token).stop == "cancelled"


def test_cli_reports_the_stop_reason(capsys, tmp_path: Path) -> None:
    from workbench.cli import main

    blank = tmp_path / "blank.latin"
    blank.write_text("....\n....\n....\n....\n")
    assert main(["solve", "example", str(blank), "--json", "--limit", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["count"], data["complete"], data["stop"]) == (3, False, "limit")
    assert main(["solve", "example", str(blank), "--limit", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("576 solutions (complete) (")


def test_cli_timeout_says_timed_out(tmp_path: Path) -> None:
    """A search cut short by --timeout says so, never "complete"."""
    blank = tmp_path / "blank.latin"
    blank.write_text(("." * 9 + "\n") * 9)
    run = subprocess.run(
        [sys.executable, "-m", "workbench", "solve", "example", str(blank), "--limit", "0", "--timeout", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 3, run.stderr
    assert "timed out after 1 s" in run.stderr
    last = run.stdout.splitlines()[-1]
    # how far it got depends on the machine: "at least N solutions (timed out)" or, on a slow start,
    # "timed out before any solution"
    assert "timed out" in last and "complete" not in last, last
