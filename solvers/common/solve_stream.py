"""The one solve-to-a-limit loop: stream a plug-in's solutions and return a typed ``SolveResult``.

Used by the GUI's Solve jobs on a pool thread and, for plug-ins declaring ``ISOLATED``, in a worker
process (``by_kind.stream_by_kind``), by the CLI's ``solve`` and by
``PluginBase.count`` (through ``collect``): every caller runs the same loop. It lives in
``solvers.common`` because worker processes run it: nothing here may need the application layer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.capabilities import GAME
from solvers.common.outcome import SearchOutcome, SolveResult, reached_limit


def stream_solutions(
    plugin: Any,
    puzzle: Any,
    limit: int | None,
    options: dict[str, Any] | None,
    cancel: CancelToken,
    progress: Callable[[dict[str, Any]], None],
    emit: Callable[[Any], None],
    info: dict[str, Any] | None = None,
) -> SolveResult:
    """Emit each solution; return how the search ended, with the solver's info. A cancel or a
    timeout ends it with an interrupted outcome instead of ``Cancelled``: what the solver said
    before the cut (the rule set the answers refer to, what is proven so far) still holds, so a
    cancelled job still has its result. A puzzle's verdict never speaks for a search the clock or
    the user cut short, but a game's does (its value names the depth searched: "Unknown after
    searching 8 plies")."""
    info = info if info is not None else {}
    found = 0
    try:
        solutions: Iterator[Any] = plugin.solve(
            puzzle, limit=limit, cancel=cancel, progress=progress, info=info, **(options or {})
        )
        for solution in solutions:
            found += 1
            emit(solution)
            progress({"found": found})
            if reached_limit(found, limit):
                break
            cancel.raise_if_cancelled()
    except Cancelled:
        said = SolveResult.of_info(SearchOutcome.after(found, limit, cancel, cancelled=True), info)
        game = GAME in getattr(getattr(plugin, "meta", None), "capabilities", ())
        return SolveResult(said.outcome, said.verdict if game else None, said.info)
    return SolveResult.of_info(SearchOutcome.after(found, limit, cancel), info)


def collect(
    plugin: Any,
    puzzle: Any,
    limit: int | None,
    options: dict[str, Any] | None = None,
    cancel: CancelToken | None = None,
    *,
    keep: bool = True,
) -> tuple[list[Any], SolveResult, SearchOutcome]:
    """``stream_solutions`` to the end: (the solutions if ``keep``, the result, its outcome; the
    outcome stays third for callers that take only it). A cancel or a timeout ends it with an
    interrupted outcome instead of ``Cancelled``."""
    token = cancel or CancelToken()
    solutions: list[Any] = []

    def emit(solution: Any) -> None:
        if keep:
            solutions.append(solution)

    result = stream_solutions(plugin, puzzle, limit, options, token, lambda _info: None, emit)
    return solutions, result, result.outcome
