"""The wording of a finished Solve/Analyse: one pure function (solvers/common/report.py)."""

from __future__ import annotations

from types import SimpleNamespace

from solvers.common.outcome import SearchOutcome, SolveResult
from solvers.common.report import SolveReport, report_text


def _report(**kw: object) -> SolveReport:
    base: dict[str, object] = {"status": "done", "seconds": 0.125, "found": 1, "shown": 1, "limit": 2}
    base.update(kw)
    return SolveReport(**base)  # type: ignore[arg-type]


def test_failures_say_whose_fault() -> None:
    assert report_text(_report(status="failed", error="colour R has 3 dots", invalid=True)) == (
        "Cannot solve: colour R has 3 dots"
    )
    lost = report_text(_report(status="failed", error="the worker was ended by SIGKILL", lost=True))
    assert lost.startswith("Solving stopped: the worker was ended by SIGKILL") and "bug" not in lost
    assert report_text(_report(status="failed", error="KeyError: 3")).startswith("Solver failed (a bug")


def test_searches_say_how_far_they_got_and_under_which_rules() -> None:
    unique = SearchOutcome.after(1, 2)
    assert report_text(_report(solve=SolveResult(unique, info={"rules": "designed"}))) == (
        "Unique (designed rules) in 0.12 s."
    )
    # a module's own verdict names its rules itself: no second "(... rules)"
    verdict = SolveResult(unique, "unique (game rules)", {"rules": "strict"})
    assert report_text(_report(solve=verdict)) == "Unique (game rules) in 0.12 s."
    none = report_text(_report(found=0, shown=0, solve=SolveResult(SearchOutcome.after(0, 2))))
    assert none.startswith("No solution in")
    cancelled = report_text(_report(status="cancelled", found=3, shown=3, limit=0))
    assert "after 0.12 s" in cancelled and "3" in cancelled
    many = report_text(
        _report(found=5000, shown=1000, limit=0, solve=SolveResult(SearchOutcome.after(5000, 0)))
    )
    assert many.endswith("The list shows the first 1,000.")


def test_a_game_says_its_value() -> None:
    assert report_text(_report(game_value="Win(5)")) == "Analysis: Win(5) (0.12 s)."
    assert report_text(_report(game_value="")) == "Analysis: no result (0.12 s)."
    # the plug-in's verdict (the position's value) wins over the last result's label
    valued = SolveResult(SearchOutcome.after(1, 2), "Red to move: Win(5)")
    text = report_text(_report(game_value="depth 5: Win(5) +HN1 bN1W1", solve=valued))
    assert text == "Analysis: Red to move: Win(5) (0.12 s)."
    # a cancelled analysis reads like a cancelled search
    assert (
        report_text(_report(status="cancelled", game_value="Win(5)"))
        == "At least 1 solution (cancelled) after 0.12 s."
    )


def test_a_cancelled_search_says_what_it_had_proven() -> None:
    # Flow's Numberlink proof cut short: the designed convention had already proven the answer its
    # only one, which the line keeps; the count is still only "at least".
    cut = SearchOutcome.after(1, 2, cancelled=True)
    said = SolveResult(cut, None, {"rules": "numberlink", "proven": "unique (designed)"})
    job = _outcome("cancelled", said)
    text = "At least 1 solution (cancelled) after 0.12 s. Proven so far: unique (designed)."
    assert report_text(SolveReport.of_job(job, 1, 1, 2)) == text
    # a worker killed on Esc sends no result: what its progress said is proven stands in
    assert report_text(SolveReport.of_job(_outcome("cancelled", proven="unique (designed)"), 1, 1, 2)) == text
    # without a proof, or with a game's verdict, the cancelled line is the plain one
    plain = _outcome("cancelled", SolveResult(cut, None, {"rules": "numberlink"}))
    assert report_text(SolveReport.of_job(plain, 1, 1, 2)) == "At least 1 solution (cancelled) after 0.12 s."
    game = _outcome("cancelled", SolveResult(cut, "Red to move: Unknown after looking 8 moves ahead"))
    assert (
        report_text(SolveReport.of_job(game, 1, 1, 2, "Win(5)"))
        == "At least 1 solution (cancelled) after 0.12 s."
    )
    # a search that ended by itself says its verdict, never "so far"
    done = _outcome(
        "done", SolveResult(SearchOutcome.after(1, 2), "unique (Numberlink rules)", {"proven": "x"})
    )
    assert report_text(SolveReport.of_job(done, 1, 1, 2)) == "Unique (Numberlink rules) in 0.12 s."


def _outcome(status: str, result: object = None, proven: str | None = None) -> SimpleNamespace:
    """A ``JobOutcome`` as ``of_job`` reads it (by attribute)."""
    return SimpleNamespace(
        status=status, result=result, error="", seconds=0.125, invalid=False, lost=False, proven=proven
    )
