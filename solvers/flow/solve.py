"""Solving with rule-set selection: designed rules first, strict rules if designed finds nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.protocol import ProgressFn, Solution
from solvers.flow.graph import FlowGraph, grid_graph
from solvers.flow.model import FlowPaths, FlowPuzzle
from solvers.flow.sat import RULES, EdgeSolution, FlowSat

RULE_CHOICES = ("auto", *RULES)


def to_solution(puzzle: FlowPuzzle, graph: FlowGraph, found: EdgeSolution, rules: str, n: int) -> Solution:
    cells = graph.cells
    paths = {graph.colours[k]: [list(cells[v]) for v in path] for k, path in enumerate(found.paths)}
    letters = [graph.colours[k] for k in found.node_colour.tolist()]
    grid = ["".join(letters[r * puzzle.cols : (r + 1) * puzzle.cols]) for r in range(puzzle.rows)]
    return Solution(
        grid=grid,
        extras={"rules": rules, "paths": paths},
        data=FlowPaths.from_dict(paths),
        label=f"{rules} rules",
    )


def solve(
    puzzle: FlowPuzzle,
    *,
    limit: int | None = 2,
    cancel: CancelToken | None = None,
    progress: ProgressFn | None = None,
    info: dict[str, Any] | None = None,
    rules: str = "auto",
) -> Iterator[Solution]:
    """Distinct solutions (edge sets). ``rules``: "designed", "strict", or "auto" (designed, then
    strict only if designed has no solution). ``info["rules"]`` names the rule set the answers
    (and so the uniqueness verdict) refer to."""
    if rules not in RULE_CHOICES:
        raise ValueError(f"unknown rules {rules!r} (use {', '.join(RULE_CHOICES)})")
    puzzle.require_valid()
    graph = grid_graph(puzzle)
    order = ("designed", "strict") if rules == "auto" else (rules,)
    found = 0
    for rule_set in order:
        if info is not None:
            info["rules"] = rule_set
        if progress is not None:
            progress({"text": f"solving under {rule_set} rules", "found": found})
        sat = FlowSat(graph, rule_set, cancel)
        try:
            for edge_solution in sat.solutions():
                found += 1
                yield to_solution(puzzle, graph, edge_solution, rule_set, found)
                if progress is not None:
                    progress({"found": found, "text": f"{found} found ({rule_set} rules)"})
                if limit and found >= limit:
                    return
        finally:
            sat.close()
        if found:
            return
