"""One answer to "is this count exact?" for every caller of a solver (CLI, GUI jobs, plug-ins).

A search that yields solutions ends in one of four ways: it ran out of candidates (the count is
exact), it reached the caller's limit, the user cancelled it, or its time ran out. Only the first
gives a complete count; the others say "at least N". ``SearchOutcome.after`` is the one place that
decides, and ``status`` the one wording.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from solvers.common.cancel import CancelToken

Stop = Literal["exhausted", "limit", "cancelled", "timeout"]


def reached_limit(found: int, limit: int | None) -> bool:
    """True once ``found`` solutions satisfy ``limit`` (0 or None means "find all": never)."""
    return bool(limit) and found >= (limit or 0)


@dataclass(frozen=True)
class SearchOutcome:
    """How many solutions a search found and why it ended.

    Built positionally as ``SearchOutcome(count, complete)`` (the older ``CountResult`` form), an
    incomplete search counts as stopped at the limit; ``after`` names the reason exactly.
    """

    count: int
    complete: bool  # the search was exhausted (count is exact)
    stop: Stop | None = None  # why it ended; None: "exhausted" if complete else "limit"

    def __post_init__(self) -> None:
        if self.stop is None:
            object.__setattr__(self, "stop", "exhausted" if self.complete else "limit")
        elif self.complete != (self.stop == "exhausted"):
            raise ValueError(f"a search that stopped by {self.stop!r} cannot be complete={self.complete}")

    @classmethod
    def after(
        cls, found: int, limit: int | None, cancel: CancelToken | None = None, *, cancelled: bool = False
    ) -> SearchOutcome:
        """The outcome of a search that yielded ``found`` solutions under ``limit``.

        Reaching the limit wins over a cancel that came later; a cancel token that fired on its
        deadline (or was cancelled with reason "timeout") reads as a timeout."""
        if reached_limit(found, limit):
            return cls(found, False, "limit")
        if cancelled or (cancel is not None and cancel.cancelled):
            timeout = cancel is not None and cancel.reason == "timeout"
            return cls(found, False, "timeout" if timeout else "cancelled")
        return cls(found, True, "exhausted")

    @property
    def interrupted(self) -> bool:
        """The user or the clock ended it (not the search itself, nor the limit)."""
        return self.stop in ("cancelled", "timeout")

    @property
    def unique(self) -> bool | None:
        """True/False when known; None when the search stopped before it could tell."""
        if self.count == 1 and self.complete:
            return True
        if self.count >= 2 or (self.count == 0 and self.complete):
            return False
        return None

    def status(self) -> str:
        """The user-visible wording: "unique", "3 solutions (complete)", "at least 2 solutions ..."."""
        n = self.count
        if self.complete:
            if n == 0:
                return "no solution"
            return "unique" if n == 1 else f"{n:,} solutions (complete)"
        why = self.why()
        if n == 0:
            return f"{why} before any solution"
        return f"at least {n:,} solution{'' if n == 1 else 's'} ({why})"

    def why(self) -> str:
        """Why an incomplete search ended, in words ("timed out")."""
        return {"limit": "stopped at the limit", "cancelled": "cancelled", "timeout": "timed out"}.get(
            str(self.stop), "exhausted"
        )

    def describe(self, verdict: object = None) -> str:
        """``status``, or a module's own wording (e.g. Flow's "unique (designed)") when the search
        ended by itself: a verdict never speaks for a search the user or the clock cut short."""
        if isinstance(verdict, str) and verdict and not self.interrupted:
            return verdict
        return self.status()


@dataclass(frozen=True)
class SolveResult:
    """How a solve ended, typed: what the solve loop (``solve_stream``) returns to the CLI, the GUI
    and ``count``, from a thread or a worker process alike."""

    outcome: SearchOutcome
    verdict: str | None = None  # the module's own wording of the count (Flow: "unique (designed)")
    info: dict[str, Any] = field(default_factory=dict)  # the rest of the solver's info, as it filled it

    @classmethod
    def of_info(cls, outcome: SearchOutcome, info: dict[str, Any]) -> SolveResult:
        """The one place that reads a solver's ``info`` keys with a meaning to the shell: a string
        "verdict" becomes the typed verdict; everything else is kept as the solver filled it."""
        rest = dict(info)
        verdict = rest.pop("verdict", None)
        return cls(outcome, verdict if isinstance(verdict, str) and verdict else None, rest)

    @property
    def rules(self) -> str | None:
        """The rule set the answers refer to (``info["rules"]``, which is also printed as it is)."""
        rules = self.info.get("rules")
        return rules if isinstance(rules, str) else None

    @property
    def proven(self) -> str | None:
        """What a search cut short had proven by then (``info["proven"]``, in the module's words:
        Flow's "unique (designed)" while a Numberlink proof runs); None if nothing."""
        proven = self.info.get("proven")
        return proven if isinstance(proven, str) and proven else None

    def describe(self) -> str:
        """``SearchOutcome.describe`` with this solve's verdict. A verdict that survived a cut
        (only a game's: it names the depth it searched, so it is true whenever it was said) is
        said with why the search ended: "Red to move: Unknown after looking 8 moves ahead (timed out)"."""
        if self.verdict and self.outcome.interrupted:
            return f"{self.verdict} ({self.outcome.why()})"
        return self.outcome.describe(self.verdict)
