"""Solve by a module's id, for worker processes: they get the kind, not the plug-in object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solvers.common import registry
from solvers.common.cancel import CancelToken
from solvers.common.outcome import SolveResult
from solvers.common.solve_stream import stream_solutions


def stream_by_kind(
    kind: str,
    puzzle: Any,
    limit: int | None,
    options: dict[str, Any] | None,
    *,
    cancel: CancelToken,
    progress: Callable[[dict[str, Any]], None],
    emit: Callable[[Any], None],
) -> SolveResult:
    """``stream_solutions`` for the plug-in registered as ``kind`` (a worker process gets the kind,
    not the plug-in object)."""
    return stream_solutions(registry.get(kind), puzzle, limit, options, cancel, progress, emit)
