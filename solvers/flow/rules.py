"""The game rules as named checks (stable codes), used for live checking and to verify answers.

A finished board joins every pair by one path of steps between neighbouring cells (walls, holes,
warps and hex layout as the puzzle says), paths never cross or branch, and every cell is covered
(under Numberlink rules cells may stay empty; a path always runs from an endpoint, so no loose
line piece can exist in the entries).
A bridge cell has two lanes: a path crosses it straight through (it may not turn there), each lane
takes one path, and both lanes must be covered. The checker applies the strict game rules; the *designed* convention
(no pipe touches itself) is a property of how levels are made, not a rule the player must obey.
"""

from __future__ import annotations

from solvers.common.protocol import CheckResult, Violation
from solvers.common.words import plural
from solvers.flow.model import BRIDGE, EMPTY, HOLE, Cell, FlowPaths, FlowPuzzle


def check(puzzle: FlowPuzzle, entries: FlowPaths | None, rules: str | None = None) -> CheckResult:
    """The game rules; under Numberlink rules (``rules``, else the puzzle's own) cells may stay
    empty, so a board is complete once every pair is joined."""
    fill = (rules or puzzle.rules) != "numberlink"
    # A board the solver refuses is reported as broken with the solver's words, never as
    # "no rule broken so far".
    violations = [
        Violation("invalidBoard", f"invalid board: {message}", () if cell is None else (cell,))
        for message, cell in puzzle.layout_problems()
    ]
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
    owner: dict[tuple[Cell, int], str] = {}  # (cell, lane) -> colour; lane -1 off bridges
    connected: set[str] = set()
    for ch, path in paths.items():
        if ch not in endpoints:
            violations.append(Violation("unknownColour", f"path of colour {ch} has no endpoints", path))
            continue
        if any(not puzzle.is_cell(r, c) for r, c in path):
            violations.append(Violation("outside", f"path {ch} leaves the board", ()))
            continue
        if path[0] not in endpoints[ch]:
            violations.append(
                Violation("startNotEndpoint", f"path {ch} does not start at its endpoint", path[:1])
            )
        steps: list[int | None] = [puzzle.direction(a, b) for a, b in zip(path, path[1:], strict=False)]
        for (a, b), d in zip(zip(path, path[1:], strict=False), steps, strict=True):
            if d is None:
                violations.append(Violation("brokenPath", f"path {ch} jumps between non-neighbours", (a, b)))
        seen: set[tuple[Cell, int]] = set()
        for i, cell in enumerate(path):
            mark = puzzle.at(*cell)
            lane = -1
            if mark == BRIDGE:
                d_in = steps[i - 1] if i > 0 else None
                d_out = steps[i] if i < len(steps) else None
                if d_in is not None and d_out is not None and d_in != d_out:
                    violations.append(Violation("bridgeTurn", f"path {ch} turns on a bridge", (cell,)))
                d = d_in if d_in is not None else d_out
                lane = 0 if d in (1, 3) else 1
            slot = (cell, lane)
            if slot in seen:
                violations.append(Violation("selfCrossing", f"path {ch} visits a cell twice", (cell,)))
            seen.add(slot)
            if mark not in (EMPTY, BRIDGE) and mark != ch:
                violations.append(
                    Violation("throughEndpoint", f"path {ch} runs into an endpoint of colour {mark}", (cell,))
                )
            elif mark == ch and 0 < i < len(path) - 1:
                violations.append(
                    Violation("throughEndpoint", f"path {ch} runs through its own endpoint", (cell,))
                )
            other = owner.get(slot)
            if other is not None and other != ch:
                violations.append(Violation("crossing", f"paths {other} and {ch} cross", (cell,)))
            owner.setdefault(slot, ch)
        if len(path) >= 2 and len(endpoints[ch]) == 2 and set(endpoints[ch]) == {path[0], path[-1]}:
            connected.add(ch)
    # Coverage is looked at only once every pipe is joined (a cell scan: 23 ms on 100x100, and the
    # window checks on every edit and repaint).
    complete = (
        bool(endpoints) and connected == set(endpoints) and not (fill and _any_uncovered(puzzle, owner))
    )
    return CheckResult(complete, violations)


def _any_uncovered(puzzle: FlowPuzzle, owner: dict[tuple[Cell, int], str]) -> bool:
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            mark = puzzle.at(r, c)
            if mark == HOLE:
                continue
            if any(((r, c), lane) not in owner for lane in ((0, 1) if mark == BRIDGE else (-1,))):
                return True
    return False
