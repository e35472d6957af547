"""The body of a Solve job, without Qt: stream a plug-in's solutions and return its info dict.

Used by ``jobs.solve_work`` on a pool thread and, for plug-ins declaring ``ISOLATED``, by a worker
process (``solvers.common.process_jobs.remote_stream(stream_by_kind, ...)``), so both run the same loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from solvers.common import registry
from solvers.common.cancel import CancelToken
from solvers.common.outcome import SearchOutcome, reached_limit


def stream_solutions(
    plugin: Any,
    puzzle: Any,
    limit: int | None,
    options: dict[str, Any] | None,
    cancel: CancelToken,
    progress: Callable[[dict[str, Any]], None],
    emit: Callable[[Any], None],
) -> dict[str, Any]:
    """Emit each solution; return the solver's info with ``info["outcome"]`` the ``SearchOutcome``
    (a cancelled run ends by ``Cancelled`` instead; its caller builds the outcome from the items)."""
    info: dict[str, Any] = {}
    found = 0
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
    info["outcome"] = SearchOutcome.after(found, limit, cancel)
    return info


def stream_by_kind(
    kind: str,
    puzzle: Any,
    limit: int | None,
    options: dict[str, Any] | None,
    *,
    cancel: CancelToken,
    progress: Callable[[dict[str, Any]], None],
    emit: Callable[[Any], None],
) -> dict[str, Any]:
    """``stream_solutions`` for the plug-in registered as ``kind`` (a worker process gets the kind,
    not the plug-in object)."""
    return stream_solutions(registry.get(kind), puzzle, limit, options, cancel, progress, emit)
