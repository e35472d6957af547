"""Solve or warm up by a module's id, for worker processes: they get the kind, not the plug-in object."""

from __future__ import annotations

import contextlib
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


def warm_up_kinds(kinds: list[str], *, cancel: CancelToken) -> None:
    """Every listed plug-in's ``warm_up`` (the shell's first-launch warm-up runs it in a worker,
    where numba compiles and writes its cache)."""
    for kind in kinds:
        with contextlib.suppress(Exception):  # reported by the warm-up in the GUI process
            registry.get(kind).warm_up()
