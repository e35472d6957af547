"""Solving with rule-set selection: designed rules first, strict rules if designed finds nothing;
a puzzle meant for Numberlink rules (``FlowPuzzle.rules``) is solved under them."""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from itertools import chain
from typing import Any

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.common.protocol import ProgressFn, Solution
from solvers.common.words import cell_name
from solvers.flow.coverage import unfillable_region
from solvers.flow.graph import FlowGraph, grid_graph, solution_rows
from solvers.flow.model import FlowPaths, FlowPuzzle
from solvers.flow.sat import RULES, EdgeSolution, Peek, SatStats
from solvers.flow.search import steps

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


RULE_WORDS = {"designed": "designed", "strict": "game rules", "numberlink": "Numberlink rules"}


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
    """Distinct solutions (edge sets). ``rules``: "designed", "strict", "numberlink" (cells may
    stay empty), or "auto": the puzzle's own rule set, i.e. Numberlink rules for a Numberlink
    puzzle, else designed, then strict only if designed has no solution (see ``_auto``). ``info["rules"]`` names the rule set
    the answers (and so the uniqueness verdict) refer to; ``info["verdict"]`` says it in words once
    the search has ended (limit reached or exhausted; not when cancelled)."""
    if rules not in RULE_CHOICES:
        raise ValueError(f"unknown rules {rules!r} (use {', '.join(RULE_CHOICES)})")
    puzzle.require_valid()
    if not puzzle.colours:  # QA: "no pair can reach 25 cells at R1C1" on a board without pairs
        raise InputError("nothing to solve: the board has no endpoints; place at least one pair")
    if rules == "auto" and puzzle.rules == "numberlink":
        rules = "numberlink"
    graph = grid_graph(puzzle)
    info = info if info is not None else {}
    info.pop("verdict", None)
    if puzzle.notes:  # what the reader read past, said once with the answer
        info["note"] = "; ".join(puzzle.notes)
    if progress is not None:
        words = "the designed convention" if rules == "auto" else RULE_WORDS[rules]
        progress({"text": f"solving under {words}", "found": 0})
    stats = SatStats()
    region = unfillable_region(graph) if rules != "numberlink" else None
    if region is not None:  # said at once, with where: the searches would fill it with loops
        rule_set = "strict" if rules == "auto" else rules
        info["rules"] = rule_set
        cells = f"{len(region)} cells" if len(region) > 1 else "the cell"
        where = cell_name(*graph.cells[region[0]])
        info["verdict"] = f"{verdict(0, True, rule_set)}: no pair can reach {cells} at {where}"
        _hint_numberlink(graph, cancel, info)
        return
    if rules == "auto":
        rule_set, search, buffered = _auto(graph, limit, cancel, progress)
    else:
        rule_set, search, buffered = rules, steps(graph, rules, cancel, stats), []
    info["rules"] = rule_set
    found = 0
    told = False  # that the designed convention has this one answer only
    try:
        for step in chain(buffered, search):
            if step is None:
                if stats.designed_unique and not told and progress is not None:
                    told = True
                    progress(_progress(rule_set, found, stats))
                continue
            found += 1
            if limit and found >= limit:  # said before the yield: callers may stop at the limit
                info["verdict"] = verdict(found, False, rule_set)
            yield to_solution(puzzle, graph, step, rule_set, found)
            if progress is not None:
                progress(_progress(rule_set, found, stats))
            if limit and found >= limit:
                return
    except Cancelled:
        if stats.designed_unique and found == 1:  # what is proven when the proof is cut short
            info["proven"] = verdict(1, True, "designed")
        raise
    info["verdict"] = verdict(found, True, rule_set)
    if found == 0 and rule_set == "strict":
        _hint_numberlink(graph, cancel, info)


# Published Arukone puzzles often leave cells empty: typed in as boards they get "no solution
# under the game rules", and nothing said where the answer is (QA pass 11). A short look under
# Numberlink rules says so when it finds one; a longer search would keep the verdict waiting.
HINT_SECONDS = 1.0
# Setting the Numberlink model up is not cut by the clock: 1.2 s in all on a 100x100 board of 150
# pairs (1.5 M (pair, cell) pairs), 4.5 s on a 200x200 of 300 (12 M); larger boards go without.
HINT_SIZE = 2_000_000
NUMBERLINK_HINT = (
    "a solution exists under Numberlink rules, where cells may stay empty "
    "(the Flow panel's Rules box; CLI: --rules numberlink)"
)


def _hint_numberlink(graph: FlowGraph, cancel: CancelToken | None, info: dict[str, Any]) -> None:
    """``info["hint"]`` if Numberlink rules have an answer found within ``HINT_SECONDS``."""
    if len(graph.colours) * graph.n_nodes > HINT_SIZE:
        return
    short = CancelToken(timeout=HINT_SECONDS)
    unlink = cancel.on_cancel(short.cancel) if cancel is not None else None
    try:
        if any(step is not None for step in steps(graph, "numberlink", short, SatStats())):
            info["hint"] = NUMBERLINK_HINT
    except Cancelled:
        pass  # the verdict is complete already: a cut look only goes without its hint
    finally:
        if unlink is not None:
            unlink()


def _progress(rule_set: str, found: int, stats: SatStats) -> dict[str, object]:
    """A progress message after ``found`` answers: what the search is after and, under Numberlink
    rules, whether the designed convention has proven this answer its only one ("proven": the GUI
    keeps it, as a worker killed on Esc sends no result)."""
    wanted = "a second solution" if found == 1 else "more"  # with limit 2: the uniqueness proof
    text = f"{RULE_WORDS[rule_set]}: looking for {wanted}"
    if not (stats.designed_unique and found == 1):
        return {"found": found, "text": text}
    proven = verdict(1, True, "designed")
    return {"found": found, "text": f"{proven}; {text}", "proven": proven}


# Auto rules: the designed search runs alone this long before the game-rules search joins it.
HEAD_START = 1.0
DESIGNED_SHARE = 2  # designed slices per strict slice while both run


def _auto(
    graph: FlowGraph, limit: int | None, cancel: CancelToken | None, progress: ProgressFn | None
) -> tuple[str, Iterator[EdgeSolution | None], list[EdgeSolution]]:
    """Decide the rule set of an auto solve: (rule set, its search, solutions found already).

    The designed convention wins as soon as it has a solution. Proving that it has none can take
    far longer than solving under the game rules on boards drawn by hand (10 s against 2 s at
    40x40), so after a head start both searches run by turns. The game rules win if the designed
    search proves there is nothing, or if they reach the limit (or run out) first: "N+ solutions
    under the game rules" and "unique (game rules)" are true whatever the designed answer would
    have been. Find All (no limit) waits for the designed answer unless the game rules run out."""
    designed = steps(graph, "designed", cancel, SatStats())
    started = time.perf_counter()
    strict: Generator[EdgeSolution | None, None, None] | None = None
    peek = Peek(on=False)  # designed runs here; its looser model joins the game rules' search later
    held: list[EdgeSolution] = []
    want = limit if limit else None
    while True:
        for _ in range(DESIGNED_SHARE if strict is not None else 1):
            result = next(designed, _DONE)
            if result is _DONE:
                # (the peek's designed model lets pipes touch themselves at their ends)
                if strict is not None:
                    peek.on = True
                    return "strict", strict, held
                return "strict", steps(graph, "strict", cancel, SatStats()), []
            if isinstance(result, EdgeSolution):
                if strict is not None:
                    strict.close()
                return "designed", designed, [result]
        if strict is None and time.perf_counter() - started >= HEAD_START:
            strict = steps(graph, "strict", cancel, SatStats(), peek)
            if progress is not None:
                progress({"text": "solving under both rule sets", "found": 0})
        if strict is not None:
            result = next(strict, _DONE)
            if result is _DONE or (want is not None and len(held) >= want):
                designed.close()
                return "strict", iter(()), held
            if isinstance(result, EdgeSolution):
                held.append(result)
                if want is not None and len(held) >= want:
                    designed.close()
                    return "strict", strict, held


_DONE = object()
