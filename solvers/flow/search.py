"""The exact search behind every Flow solve: the SAT search (``sat.py``) and, on narrow plain boards
under the game or Numberlink rules, the frontier count (``frontier.py``) when SAT is slow.

The SAT search answers most boards at once (many pipes, short paths), but it can stall on boards
drawn with few pipes and open areas, where pipes may wander: issue 28's 12x12 (5 pairs) got no
verdict in 70 s under either rule set. The frontier sweep counts the solutions of such a board
exactly (strict 3.3 s, Numberlink 8.3 s on that board) whatever the paths do, but its state count
grows steeply with the board's shorter side. (Under Numberlink rules SAT now decides that board in
0.3 s through canonical answers.) So SAT runs first for ``HEAD`` CPU seconds; if it has
not ended by then, a board no wider than ``WIDTH`` is swept (at most ``STATES`` states a layer) in
every direction by turns (``frontier.count_racing``).
The sweep's count, exact below the limit of 2, ends the search; at the limit (2+) its answers come
first and the SAT search goes on for more (Find All), skipping answers given already. A sweep that
gives up leaves the SAT search to go on as if nothing happened. Either way every verdict is proven.
"""

from __future__ import annotations

import time
from collections.abc import Generator

from solvers.common.cancel import CancelToken
from solvers.flow.coverage import unfillable_region
from solvers.flow.frontier import FrontierResult, NotApplicable, count_racing, sweep_width
from solvers.flow.graph import FlowGraph
from solvers.flow.sat import EdgeSolution, Peek, SatStats, edge_solution
from solvers.flow.sat import steps as sat_steps

RULES = ("strict", "numberlink")  # the rule sets the sweep counts
# CPU seconds of SAT search before a sweep. SAT decides published puzzles by canonical Numberlink
# answers (``canonical.py``; under the game rules too, as their answer is unique under both):
# published 13x13 and 14x14 in 0.5-0.7 s (Numberlink rules) and 1.5-1.7 s (game rules), where
# the sweep took over 100 s and 7 s. So SAT gets a few seconds before the sweep starts.
HEAD = 3.0
# Widest sweep tried: states grow 3-4x per unit of width, but the sweep direction matters as much
# (``count_racing``): published 13x13 and 14x14 puzzles peak at 0.2-0.7 M states the right way.
WIDTH = 14
STATES = 2_000_000  # states per layer before a sweep gives up (about 0.3 GB)


def steps(
    graph: FlowGraph,
    rules: str,
    cancel: CancelToken | None = None,
    stats: SatStats | None = None,
    peek: Peek | None = None,
) -> Generator[EdgeSolution | None, None, None]:
    """All solutions under a rule set, with a None after every search slice that found nothing
    (as ``sat.steps``, ``peek`` too), the frontier sweep joining where it pays (module notes)."""
    if rules != "numberlink" and unfillable_region(graph) is not None:
        return  # a region no pair can fill: no answer fills the board (``coverage.py``)
    search = sat_steps(graph, rules, cancel, stats, peek)
    try:
        if rules not in RULES or not _sweepable(graph):
            yield from search
            return
        given: set[bytes] = set()
        started = time.process_time()
        for solution in search:
            if solution is not None:
                given.add(solution.used.tobytes())
                yield solution
            elif time.process_time() - started > HEAD:
                break
            else:
                yield None
        else:
            return  # SAT ended first: its answers are all there is
        result = count_racing(graph, rules, limit=2, cancel=cancel, max_states=STATES)
        answers = _trusted(graph, rules, result, given)
        if answers is not None:
            for answer in answers:
                if answer.used.tobytes() not in given:
                    given.add(answer.used.tobytes())
                    yield answer
            if result is not None and result.complete:
                return
        for solution in search:
            if solution is None or solution.used.tobytes() not in given:
                yield solution
    finally:
        search.close()


def _trusted(
    graph: FlowGraph, rules: str, result: FrontierResult | None, given: set[bytes]
) -> list[EdgeSolution] | None:
    """The sweep's answers if they can be trusted, else None (the SAT search then decides): a sweep
    that gave up or could not keep its answers, an answer that breaks the rules, or an exact count
    that disagrees with the answers known (SAT's are proven valid) is not used."""
    if result is None or not result.rebuilt:
        return None
    answers = [edge_solution(graph, used) for used in result.solutions]
    if any(a is None or not _obeys(graph, rules, a) for a in answers):
        return None
    valid = [a for a in answers if a is not None]
    distinct = {a.used.tobytes() for a in valid}
    if len(distinct) < len(valid) or (result.complete and len(given | distinct) != result.count):
        return None
    return valid


def _obeys(graph: FlowGraph, rules: str, answer: EdgeSolution) -> bool:
    """Each pipe joins its own two endpoints; under the game rules every cell is covered."""
    ends_right = all(
        path[-1] == end for path, (_start, end) in zip(answer.paths, graph.terminals, strict=True)
    )
    covered = (answer.node_colour >= 0).all()
    return ends_right and (rules != "strict" or bool(covered))


def _sweepable(graph: FlowGraph) -> bool:
    try:
        return sweep_width(graph) <= WIDTH
    except NotApplicable:
        return False
