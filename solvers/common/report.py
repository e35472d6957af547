"""How a finished Solve or Analyse reads: one pure function from a typed report to one line.

The GUI's results panel and status bar use it; it sits beside ``SearchOutcome`` (which says how
far a search got) so every wording of a solve lives in ``solvers.common``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solvers.common.job_relay import JobStatus
from solvers.common.outcome import SearchOutcome, SolveResult


@dataclass(frozen=True)
class SolveReport:
    status: JobStatus  # the job's
    seconds: float
    found: int  # solutions that arrived
    shown: int  # of them, how many the list shows
    limit: int | None
    error: str = ""
    invalid: bool = False  # failed on bad input
    lost: bool = False  # its worker was ended or stopped from outside
    game_value: str | None = None  # a game's analysis: the value found (its last result's label)
    solve: SolveResult | None = None  # how the search ended (None: cancelled, failed or not a search)
    proven: str | None = None  # what a search cut short had proven (its result's, or its progress's)

    @classmethod
    def of_job(
        cls,
        outcome: Any,
        found: int,
        shown: int,
        limit: int | None,
        game_value: str | None = None,
    ) -> SolveReport:
        """From a ``workbench.jobs.JobOutcome`` (read by attribute: no Qt here). What a search cut
        short had proven comes from its result, or from its progress if its worker was killed
        before it answered."""
        solve = outcome.result if isinstance(outcome.result, SolveResult) else None
        proven = solve.proven if solve is not None and solve.proven else getattr(outcome, "proven", None)
        return cls(
            outcome.status,
            outcome.seconds,
            found,
            shown,
            limit,
            outcome.error,
            outcome.invalid,
            outcome.lost,
            game_value,
            solve,
            proven,
        )


def report_text(report: SolveReport) -> str:
    """One line for the results panel, e.g. 'Unique (game rules) in 0.12 s.'."""
    if report.status == JobStatus.FAILED and report.invalid:
        return f"Cannot solve: {report.error}"
    if report.status == JobStatus.FAILED and report.lost:
        return f"Solving stopped: {report.error}. Press Solve (F5) to try again."
    if report.status == JobStatus.FAILED:
        return f"Solver failed (a bug; please report it): {report.error}"
    if report.game_value is not None and report.status != JobStatus.CANCELLED:
        # The plug-in's verdict is the position's value in the words `workbench solve` prints.
        verdict = report.solve.verdict if report.solve is not None else None
        value = verdict or report.game_value or "no result"
        text = f"Analysis: {value} ({report.seconds:.2f} s)."
    else:
        cancelled = report.status == JobStatus.CANCELLED
        # A cancelled job's line counts what arrived; its result adds only what it had proven.
        solve = report.solve if report.solve is not None and not cancelled else None
        solve = solve or SolveResult(SearchOutcome.after(report.found, report.limit, cancelled=True))
        search = solve.outcome
        status = solve.describe()
        # A module's own wording (e.g. Flow's "unique (game rules)") names its rule set already.
        rules = solve.rules
        named = f" ({rules} rules)" if rules is not None and status != solve.verdict else ""
        when = "after" if search.interrupted else "in"
        text = f"{status[0].upper()}{status[1:]}{named} {when} {report.seconds:.2f} s."
        if report.proven and search.interrupted:
            text += f" Proven so far: {report.proven}."
        hint = solve.info.get("hint")  # where else an answer is (Flow: under Numberlink rules)
        if isinstance(hint, str) and hint and not search.interrupted:
            text += f" Note: {hint}."
    if report.found > report.shown:
        text += f" The list shows the first {report.shown:,}."
    return text
