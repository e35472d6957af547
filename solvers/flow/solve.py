"""Solving with rule-set selection: designed rules first, strict rules if designed finds nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.protocol import ProgressFn, Solution
from solvers.flow.graph import FlowGraph, grid_graph, solution_rows
from solvers.flow.model import FlowPaths, FlowPuzzle
from solvers.flow.sat import RULES, EdgeSolution, SatStats, solutions

RULE_CHOICES = ("auto", *RULES)


def to_solution(puzzle: FlowPuzzle, graph: FlowGraph, found: EdgeSolution, rules: str, n: int) -> Solution:
    cells = graph.cells
    paths = {graph.colours[k]: [list(cells[v]) for v in path] for k, path in enumerate(found.paths)}
    grid = solution_rows(puzzle, graph, found.node_colour)
    return Solution(
        grid=grid,
        extras={"rules": rules, "paths": paths},
        data=FlowPaths.from_dict(paths),
        label=RULE_WORDS.get(rules, rules),
    )


RULE_WORDS = {"designed": "designed", "strict": "game rules"}


def verdict(count: int, complete: bool, rules: str) -> str:
    """The uniqueness verdict with its rule set, as users read it."""
    words = RULE_WORDS.get(rules, rules)
    if count == 0:
        if not complete:
            return "stopped before any solution"
        return "no solution under the game rules" if rules == "strict" else f"no solution ({words})"
    if complete:
        return f"unique ({words})" if count == 1 else f"exactly {count:,} solutions ({words})"
    if rules == "strict":
        return f"{count:,}+ solutions under the game rules"
    return f"{count:,}+ solutions ({words})"


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
    (and so the uniqueness verdict) refer to; ``info["verdict"]`` says it in words once the search
    has ended (limit reached or exhausted; not when cancelled)."""
    if rules not in RULE_CHOICES:
        raise ValueError(f"unknown rules {rules!r} (use {', '.join(RULE_CHOICES)})")
    puzzle.require_valid()
    graph = grid_graph(puzzle)
    order = ("designed", "strict") if rules == "auto" else (rules,)
    info = info if info is not None else {}
    info.pop("verdict", None)
    found = 0
    for rule_set in order:
        info["rules"] = rule_set
        stats = SatStats()
        if progress is not None:
            progress({"text": f"solving under {RULE_WORDS[rule_set]}", "found": found})
        for edge_solution in solutions(graph, rule_set, cancel, stats):
            found += 1
            if limit and found >= limit:  # said before the yield: callers may stop consuming at the limit
                info["verdict"] = verdict(found, False, rule_set)
            yield to_solution(puzzle, graph, edge_solution, rule_set, found)
            if progress is not None:
                progress({"found": found, "text": f"at least {found:,} ({RULE_WORDS[rule_set]})"})
            if limit and found >= limit:
                return
        if found:
            break
    info["verdict"] = verdict(found, True, info["rules"])
