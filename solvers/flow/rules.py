"""The game rules as named checks (stable codes), used for live checking and to verify answers.

A finished board joins every pair by one path of orthogonal steps, paths never cross or branch,
and every cell is covered. The checker applies the strict game rules; the *designed* convention
(no pipe touches itself) is a property of how levels are made, not a rule the player must obey.
"""

from __future__ import annotations

from solvers.common.protocol import CheckResult, Violation
from solvers.common.words import plural
from solvers.flow.model import EMPTY, Cell, FlowPaths, FlowPuzzle


def check(puzzle: FlowPuzzle, entries: FlowPaths | None) -> CheckResult:
    violations: list[Violation] = []
    endpoints = puzzle.endpoints()
    for ch, cells in endpoints.items():
        if len(cells) != 2:
            violations.append(
                Violation(
                    "endpointCount",
                    f"colour {ch} has {plural(len(cells), 'endpoint')} (needs 2)",
                    tuple(cells),
                )
            )
    paths = entries.as_dict() if entries is not None else {}
    owner: dict[Cell, str] = {}
    connected: set[str] = set()
    for ch, path in paths.items():
        if ch not in endpoints:
            violations.append(Violation("unknownColour", f"path of colour {ch} has no endpoints", path))
            continue
        if any(not puzzle.inside(r, c) for r, c in path):
            violations.append(Violation("outside", f"path {ch} leaves the board", ()))
            continue
        if path[0] not in endpoints[ch]:
            violations.append(
                Violation("startNotEndpoint", f"path {ch} does not start at its endpoint", path[:1])
            )
        for a, b in zip(path, path[1:], strict=False):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                violations.append(Violation("brokenPath", f"path {ch} jumps between non-neighbours", (a, b)))
        seen: set[Cell] = set()
        for i, cell in enumerate(path):
            if cell in seen:
                violations.append(Violation("selfCrossing", f"path {ch} visits a cell twice", (cell,)))
            seen.add(cell)
            mark = puzzle.at(*cell)
            if mark != EMPTY and mark != ch:
                violations.append(
                    Violation("throughEndpoint", f"path {ch} runs into an endpoint of colour {mark}", (cell,))
                )
            elif mark == ch and 0 < i < len(path) - 1:
                violations.append(
                    Violation("throughEndpoint", f"path {ch} runs through its own endpoint", (cell,))
                )
            other = owner.get(cell)
            if other is not None and other != ch:
                violations.append(Violation("crossing", f"paths {other} and {ch} cross", (cell,)))
            owner.setdefault(cell, ch)
        if len(path) >= 2 and len(endpoints[ch]) == 2 and set(endpoints[ch]) == {path[0], path[-1]}:
            connected.add(ch)
    uncovered = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if (r, c) not in owner]
    complete = bool(endpoints) and connected == set(endpoints) and not uncovered
    return CheckResult(complete, violations)
