"""Canonical answers under Numberlink rules (``solvers/flow/canonical.py``): the uniqueness proofs
they give are checked against exact counts (brute force, frontier sweep) on random small boards with
holes and walls, and the clauses against an independent test of the moves written here."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import replace
from itertools import chain
from pathlib import Path

import numpy as np
import pytest
from flow_checker import brute_force_count, verify_edge_answer

from solvers.flow import codec, sat
from solvers.flow.canonical import GAP, applies, step_table, supported
from solvers.flow.frontier import count_solutions
from solvers.flow.graph import FlowGraph, grid_graph
from solvers.flow.model import EMPTY, HOLE, FlowPuzzle
from solvers.flow.plugin import PLUGIN
from solvers.flow.sat import EdgeSolution, FlowSat
from solvers.flow.solve import to_solution

B12 = (Path(__file__).parent / "data" / "issue28_12x12.txt").read_text()  # issue 28's 12x12


def _pair_cells(rng: random.Random, rows: int, cols: int, pairs: int) -> list[str]:
    """Row-major cells with ``pairs`` pairs of endpoints at random places."""
    cells = [EMPTY] * (rows * cols)
    for k, spot in enumerate(rng.sample(range(rows * cols), 2 * pairs)):
        cells[spot] = "ABCDE"[k // 2]
    return cells


def _random_rows(rng: random.Random, max_pairs: int = 4) -> list[str]:
    """A board of 2..5 x 2..5 cells with 1..``max_pairs`` pairs at random places, as rows."""
    rows, cols = rng.randint(2, 5), rng.randint(2, 5)
    cells = _pair_cells(rng, rows, cols, rng.randint(1, min(max_pairs, rows * cols // 2)))
    return FlowPuzzle(rows, cols, tuple(cells)).row_strings()


def _graph_of(rows_text: list[str]) -> FlowGraph:
    return grid_graph(codec.parse("\n".join(rows_text) + "\n"))


def _stalled() -> Iterator[EdgeSolution | None]:
    """A game rules' own search that never answers."""
    while True:
        yield None


def _first_with_own_search_stalled(graph: FlowGraph, steps: int) -> tuple[bool, EdgeSolution | None]:
    """(ended, answer) of ``_first_answer`` with the own search stalled, within ``steps`` steps."""
    first = sat._first_answer(graph, _stalled(), None, sat.Peek())
    for _ in range(steps):
        try:
            next(first)
        except StopIteration as stop:
            answer, peeking = stop.value
            if peeking is not None:
                peeking.close()  # the designed search that gave it, left open for the caller
            return True, answer
    first.close()
    return False, None


def _has_touching_answer(graph: FlowGraph) -> bool:
    """Whether the designed model that lets pipes touch themselves at their ends has an answer."""
    touching = FlowSat(graph, "designed", touch_at_ends=True)
    try:
        return next(iter(touching.solutions()), None) is not None
    finally:
        touching.close()


def _random_board(rng: random.Random) -> FlowPuzzle | None:
    rows, cols = rng.randint(2, 6), rng.randint(2, 6)
    pairs = rng.randint(1, min(5, max(1, rows * cols // 3)))
    if 2 * pairs > rows * cols:
        return None
    cells = _pair_cells(rng, rows, cols, pairs)
    free = [i for i, ch in enumerate(cells) if ch == EMPTY]
    for spot in rng.sample(free, min(rng.choice([0, 0, 1, 2]), len(free))):
        cells[spot] = HOLE
    walls = set()
    for _ in range(rng.choice([0, 0, 1, 3])):
        r, c = rng.randrange(rows), rng.randrange(cols)
        if rng.random() < 0.5 and c + 1 < cols:
            walls.add(((r, c), (r, c + 1)))
        elif r + 1 < rows:
            walls.add(((r, c), (r + 1, c)))
    try:
        return FlowPuzzle(rows, cols, tuple(cells), walls=frozenset(walls), rules="numberlink")
    except ValueError:
        return None


def _exact_count(puzzle: FlowPuzzle, graph: FlowGraph) -> int | None:
    """All Numberlink answers, counted by brute force (no holes or walls) or the sweep (exact up to 8)."""
    if puzzle.rows * puzzle.cols <= 20 and puzzle.is_plain:
        return brute_force_count(puzzle.row_strings(), numberlink=True)
    result = count_solutions(graph, "numberlink", limit=8)
    return result.count if result is not None and result.complete else None


def _other_canonical(graph: FlowGraph, known: EdgeSolution | None) -> EdgeSolution | None:
    search = FlowSat(graph, "numberlink", canonical=True)
    try:
        if known is not None:
            search.block(known.used)
        return next(search.solutions(), None)
    finally:
        search.close()


def test_a_unique_proof_by_canonical_answers_agrees_with_exact_counts() -> None:
    # For every answer S of every board: when no move leads to S, "no canonical answer besides S"
    # must mean exactly "S is the only answer"; any answer found is a real one other than S.
    rng = random.Random(7)
    proofs = {"unique": 0, "2+": 0, "not applicable": 0, "no answer": 0}
    for _ in range(2500):
        puzzle = _random_board(rng)
        if puzzle is None:
            continue
        graph = grid_graph(puzzle)
        total = _exact_count(puzzle, graph)
        if total is None or step_table(graph) is None:  # no count, or no edge at all
            continue
        # An answer exists if and only if a canonical one does (any answer shortens to one).
        assert (_other_canonical(graph, None) is None) == (total == 0), codec.serialize(puzzle)
        proofs["no answer"] += total == 0
        if not total or total > 40:
            continue
        everything = FlowSat(graph, "numberlink")
        answers = list(everything.solutions())
        everything.close()
        assert len(answers) == total, codec.serialize(puzzle)
        known = {a.used.tobytes() for a in answers}
        for answer in answers:
            other = _other_canonical(graph, answer)
            if other is not None:
                assert other.used.tobytes() in known and other.used.tobytes() != answer.used.tobytes()
            if not applies(graph, answer.node_colour):
                proofs["not applicable"] += 1
                continue
            assert (other is None) == (total == 1), codec.serialize(puzzle)
            proofs["unique" if total == 1 else "2+"] += 1
    assert proofs["unique"] >= 200 and proofs["2+"] >= 250 and proofs["not applicable"] >= 1000, proofs
    assert proofs["no answer"] >= 100, proofs


def _reducible(puzzle: FlowPuzzle, answer: EdgeSolution, graph: FlowGraph) -> bool:
    """Does a move of canonical.py apply? Written from the moves' definitions (plain boards)."""
    cols = puzzle.cols
    where: dict[tuple[int, int], tuple[int, int]] = {}  # cell -> (pipe, position along it)
    for k, path in enumerate(answer.paths):
        for i, v in enumerate(path):
            where[graph.cells[v]] = (k, i)
    ends = {graph.cells[v] for pair in graph.terminals for v in pair}

    def empty(cell: tuple[int, int]) -> bool:
        return 0 <= cell[0] < puzzle.rows and 0 <= cell[1] < cols and cell not in where and cell not in ends

    for (r, c), (k, i) in where.items():
        for dr, dc in ((0, 1), (1, 0)):
            for gap in range(1, GAP + 1):
                other = where.get((r + gap * dr, c + gap * dc))
                between = [(r + s * dr, c + s * dc) for s in range(1, gap)]
                if other is None or other[0] != k or not all(empty(cell) for cell in between):
                    continue
                if abs(other[1] - i) > gap:
                    return True  # shortcut (gap 1) or straight gap
        for dc in (1, -1):
            other = where.get((r + 1, c + dc))
            if other is None or other[0] != k:
                continue
            corners = [(r, c + dc), (r + 1, c)]
            for m, far in (corners, corners[::-1]):
                if not empty(m):
                    continue
                if abs(other[1] - i) > 2:
                    return True  # the stretch is longer than the step through m
                if m[0] * cols + m[1] < far[0] * cols + far[1]:
                    return True  # same length through the corner with the larger id
    return False


def test_the_clauses_keep_exactly_the_answers_no_move_applies_to() -> None:
    # Every irreducible answer is a model of the canonical search; each answer it gives is a real
    # answer, irreducible unless loops were dropped from its model.
    rng = random.Random(3)
    compared = 0
    for _ in range(300):
        rows, cols = rng.randint(3, 5), rng.randint(3, 5)
        cells = _pair_cells(rng, rows, cols, rng.randint(1, 3))
        puzzle = FlowPuzzle(rows, cols, tuple(cells), rules="numberlink")
        graph = grid_graph(puzzle)
        everything = FlowSat(graph, "numberlink")
        answers = {a.used.tobytes(): a for a in everything.solutions()}
        everything.close()
        if not answers or len(answers) > 200:
            continue
        search = FlowSat(graph, "numberlink", canonical=True)
        canonical = {a.used.tobytes() for a in search.solutions()}
        cuts = search.stats.cycle_cuts
        search.close()
        irreducible = {key for key, a in answers.items() if not _reducible(puzzle, a, graph)}
        assert irreducible <= canonical <= set(answers), codec.serialize(puzzle)
        if cuts == 0:
            assert canonical == irreducible, codec.serialize(puzzle)
        compared += 1
    assert compared >= 150


def test_the_square_moves_need_a_square_grid_and_the_shortcut_any_board_without_bridges() -> None:
    assert step_table(grid_graph(codec.parse("A.B\n...\nA.B\n"))) is not None
    hexes = grid_graph(codec.parse("shape: hex\nA.B\n...\nA.B\n"))
    assert step_table(hexes) is None and supported(hexes)
    warped = grid_graph(codec.parse("warp rows: 1\nA.B\n...\nA.B\n"))
    assert step_table(warped) is None and supported(warped)
    bridged = grid_graph(codec.parse("A.B\n.+.\nA.B\n"))
    assert not supported(bridged)
    with pytest.raises(ValueError, match="canonical answers are a Numberlink search"):
        FlowSat(grid_graph(codec.parse("A.B\n...\nA.B\n")), "strict", canonical=True)


def test_an_empty_region_touching_a_pipe_twice_rules_the_proof_out() -> None:
    graph = grid_graph(codec.parse("rules: numberlink\nA..A\n....\n"))
    colour = np.full(graph.n_nodes, -1)
    colour[:4] = 0  # A straight along the top: the row below touches it four times
    assert not applies(graph, colour)
    colour = np.zeros(graph.n_nodes, dtype=np.int64)  # every cell used
    assert applies(graph, colour)


def test_the_issue_12x12_is_proven_unique_by_canonical_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    # Under Numberlink rules this open board took the frontier sweep 8-17 s; canonical answers
    # decide it in well under a second (CPU bound with a wide margin). The sweep must not run.
    from solvers.flow import search

    # The sweep may not even start: on a clean clone (no numba kernel cache) compiling the kernels
    # fell in its 3 CPU s head start in some test orders (seen in CI), so the head start is
    # lifted here; the proof must still come from canonical answers, within the bound below.
    monkeypatch.setattr(search, "HEAD", 60.0)
    monkeypatch.setattr(search, "count_racing", lambda *a, **k: pytest.fail("the sweep ran"))
    made: list[bool] = []
    real = sat.FlowSat.__post_init__

    def spy(self: FlowSat) -> None:
        made.append(self.canonical)
        real(self)

    monkeypatch.setattr(sat.FlowSat, "__post_init__", spy)
    puzzle = codec.parse("rules: numberlink\n" + B12)
    info: dict[str, object] = {}
    started = time.process_time()
    found = list(PLUGIN.solve(puzzle, limit=2, rules="numberlink", info=info))
    assert len(found) == 1 and info["verdict"] == "unique (Numberlink rules)"
    assert time.process_time() - started < 20.0
    assert True in made


def test_a_second_answer_from_either_search_ends_the_canonical_one() -> None:
    # Hand-made boards with several answers: "2+" comes from the game rules' stage or from the
    # canonical search, and Find All still gives every answer once.
    puzzle = codec.parse("rules: numberlink\nA....\n.....\n....A\n")
    info: dict[str, object] = {}
    found = list(PLUGIN.solve(puzzle, limit=None, rules="numberlink", info=info))
    assert len(found) == brute_force_count(puzzle.row_strings(), numberlink=True)
    assert len({str(s.extras["paths"]) for s in found}) == len(found)


@pytest.mark.parametrize("designed_first", [False, True])
def test_game_rules_verdicts_with_the_canonical_proof_agree_with_brute_force(
    monkeypatch: pytest.MonkeyPatch, designed_first: bool
) -> None:
    # Under the game rules the first answer fills the board, so "no canonical Numberlink answer
    # besides it" proves it unique; counts and Find All must still match brute force. (The proof
    # is skipped after an answer that runs alongside itself, as it cannot succeed; here it runs
    # anyway, which must be harmless.) With ``designed_first`` the designed peek gives the first
    # answer, so the proof joins at once with the game rules' search on a small share.
    if designed_first:
        monkeypatch.setattr(sat, "PEEK_AFTER", -1.0)
    ended: list[int] = []
    real = sat._canonical_search

    def spy(*args: object, **kwargs: object):  # noqa: ANN202 - the proof search, watched
        yield from real(*args, **kwargs)  # type: ignore[arg-type]
        ended.append(1)  # not reached when the search is closed early

    monkeypatch.setattr(sat, "_canonical_search", spy)
    monkeypatch.setattr(sat, "PROOF_DELAY", 0.0)  # the proof joins at once, even on tiny boards,
    monkeypatch.setattr(sat, "PROOF_SHARE", 0.0)
    monkeypatch.setattr(sat, "runs_alongside_itself", lambda *_: False)  # and after every answer
    rng = random.Random(11)
    checked = 0
    for _ in range(400):
        rows_text = _random_rows(rng)
        expected = brute_force_count(rows_text, cap=300)
        if expected >= 300:
            continue
        graph = _graph_of(rows_text)
        found = [s.used.tobytes() for s in sat.solutions(graph, "strict")]
        assert len(found) == len(set(found)) == expected, rows_text
        checked += 1
    assert checked >= 300 and len(ended) >= 15


def test_canonical_answers_prove_a_board_has_no_game_rules_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    # The game rules' first answer with their own search stalled: once the designed search has
    # no answer, canonical answers take turns; ending with only answers that leave cells empty
    # (and that no move leads to) proves there is no game-rules answer, checked by brute force; published puzzles whose answer leaves cells empty are
    # decided so ("no solution under the game rules", a 15x15 in 1.4 s instead of none in 10 s).
    monkeypatch.setattr(sat, "PEEK_AFTER", -1.0)  # the designed search from the first step,
    monkeypatch.setattr(sat, "CANONICAL_AFTER", 0.0)  # canonical answers once it has ended

    rng = random.Random(29)
    outcomes = {"none": 0, "answer": 0, "undecided": 0}
    for _ in range(300):
        rows_text = _random_rows(rng)
        graph = _graph_of(rows_text)
        ended, answer = _first_with_own_search_stalled(graph, 5000)
        if not ended:
            outcomes["undecided"] += 1  # the canonical search gave up: the own search would go on
            continue
        if answer is None:
            assert brute_force_count(rows_text, cap=1) == 0, rows_text
            outcomes["none"] += 1
        else:
            verify_edge_answer(rows_text, graph.cells, graph.colours, answer.paths)
            outcomes["answer"] += 1
    assert outcomes["none"] >= 60 and outcomes["answer"] >= 10, outcomes


def test_numberlink_counts_after_a_first_canonical_answer_agree_with_brute_force() -> None:
    # Without a designed answer the canonical search gives the first answer and, where a proof can
    # rest on it, goes on for a second one (the same model, not a new search): Find All and the
    # verdicts must still match brute force.
    rng = random.Random(31)
    through_canonical = 0
    for _ in range(250):
        puzzle = codec.parse("rules: numberlink\n" + "\n".join(_random_rows(rng)) + "\n")
        expected = brute_force_count(puzzle.row_strings(), numberlink=True, cap=200)
        if expected >= 200:
            continue
        found = list(PLUGIN.solve(puzzle, limit=None, rules="numberlink"))
        assert len(found) == len({str(s.extras["paths"]) for s in found}) == expected, puzzle.row_strings()
        if expected == 1 and brute_force_count(puzzle.row_strings(), designed=True, cap=1) == 0:
            through_canonical += 1
    assert through_canonical >= 10


def _edge_answer(graph: FlowGraph, colour: list[int]) -> EdgeSolution:
    """A stand-in answer with this colour per node (-1: empty) and no edges."""
    return EdgeSolution(np.zeros(graph.n_edges, dtype=bool), [], np.asarray(colour))


@pytest.mark.parametrize("scale", [None, 0.001])
@pytest.mark.parametrize("moves_may_lead_to_it", [True, False])
def test_the_game_rules_search_goes_on_after_a_rival_that_leaves_cells_empty(
    monkeypatch: pytest.MonkeyPatch, scale: float | None, moves_may_lead_to_it: bool
) -> None:
    # A canonical rival with an empty cell that a move may lead to (its empty region touches one
    # pipe twice) says nothing about the game rules: the proof hands over to their own search,
    # which must still be open (a 15x15 published puzzle with a second game-rules answer was
    # once called unique because ending the turns closed it). A rival that no move leads to is
    # no game-rules answer's end: the proof goes on past it, and here ends ("unique").
    graph = grid_graph(codec.parse("AB\nAB\n"))
    first = _edge_answer(graph, [0, 1, 0, 1])
    rival = _edge_answer(graph, [-1, 0, 0, 1] if moves_may_lead_to_it else [0, -1, 0, 1])
    assert applies(graph, rival.node_colour) is not moves_may_lead_to_it
    second = _edge_answer(graph, [0, 1, 1, 1])

    def proof(*_: object) -> Iterator[EdgeSolution | None]:
        yield from (None, None, rival)

    monkeypatch.setattr(sat, "_canonical_search", proof)

    def no_rival(*_: object) -> Iterator[EdgeSolution | None]:
        yield from ()  # the windows near the answer would add turns of their own

    monkeypatch.setattr(sat, "rival_near", no_rival)

    def own() -> Iterator[EdgeSolution | None]:
        yield None
        yield None
        yield None
        yield second

    search = own()
    turns = sat._proof_by_turns(graph, first, search, None, lambda step: step is second, scale)
    with pytest.raises(StopIteration) as done:
        while True:
            next(turns)
    assert done.value.value is moves_may_lead_to_it  # True: the own search goes on
    if moves_may_lead_to_it:
        assert [step for step in search if step is not None] == [second]


def test_a_rival_that_leaves_cells_empty_is_filled_into_a_game_rules_answer() -> None:
    # A Numberlink answer that leaves cells empty is often a detour away from a game-rules answer:
    # a small strict search near its empty cells finds one (or says nothing), never the avoided one.
    graph = grid_graph(codec.parse("A..A\n....\n"))
    line = next(s for s in sat.solutions(graph, "numberlink") if len(s.paths[0]) == 4)
    filled = sat._filled_near(graph, line, None, None)
    assert filled is not None and bool((filled.node_colour >= 0).all())
    verify_edge_answer(["A..A", "...."], graph.cells, graph.colours, filled.paths)
    assert sat._filled_near(graph, line, filled, None) is None  # the only game-rules answer
    rng = random.Random(37)
    made = 0
    for _ in range(150):
        rows_text = _random_rows(rng, max_pairs=3)
        graph = _graph_of(rows_text)
        for answer in sat.solutions(graph, "numberlink"):
            if bool((answer.node_colour < 0).any()):
                filled = sat._filled_near(graph, answer, None, None)
                if filled is not None:
                    verify_edge_answer(rows_text, graph.cells, graph.colours, filled.paths)
                    made += 1
                elif max(len(rows_text), len(rows_text[0])) <= 3:  # every edge may change: complete
                    assert brute_force_count(rows_text, cap=1) == 0, rows_text
                break
    assert made >= 30


def test_an_answer_that_runs_alongside_itself_has_a_canonical_rival() -> None:
    from solvers.flow.canonical import runs_alongside_itself

    graph = grid_graph(codec.parse("rules: numberlink\nA..\n...\nA..\n"))
    everything = FlowSat(graph, "numberlink")
    answers = list(everything.solutions())
    everything.close()
    touching = [a for a in answers if runs_alongside_itself(graph, a.used, a.node_colour)]
    assert touching and len(touching) < len(answers)  # e.g. (0,0) (0,1) (1,1) (1,0) (2,0)
    for answer in touching:
        assert _other_canonical(graph, answer) is not None  # its shortcut, shortened further
    straight = grid_graph(codec.parse("AB\nAB\n"))
    answer = next(sat.solutions(straight, "strict"))
    assert not runs_alongside_itself(straight, answer.used, answer.node_colour)


def _touches_only_at_ends(graph: FlowGraph, answer: EdgeSolution) -> bool:
    """Every two neighbouring cells of one pipe that are not linked include an endpoint."""
    colour = answer.node_colour
    for e, (u, v) in enumerate(graph.edges.tolist()):
        if colour[u] == colour[v] >= 0 and not answer.used[e]:
            if u not in graph.terminal_colour and v not in graph.terminal_colour:
                return False
    return True


def test_designed_answers_touching_at_their_ends_are_the_game_rules_answers_that_do() -> None:
    # The designed search that the game rules peek at lets a pipe run alongside itself at its
    # ends (published 48x35): its answers must be exactly the game-rules answers whose pipes touch
    # themselves nowhere else, on random boards against the (complete) game-rules enumeration.
    rng = random.Random(41)
    relaxed_only = 0
    for _ in range(150):
        rows_text = _random_rows(rng)
        if brute_force_count(rows_text, cap=200) >= 200:
            continue
        graph = _graph_of(rows_text)
        game = [s for s in sat.solutions(graph, "strict") if _touches_only_at_ends(graph, s)]
        relaxed = FlowSat(graph, "designed", touch_at_ends=True)
        try:
            found = list(relaxed.solutions())
        finally:
            relaxed.close()
        assert {s.used.tobytes() for s in found} == {s.used.tobytes() for s in game}, rows_text
        if found and brute_force_count(rows_text, designed=True, cap=1) == 0:
            relaxed_only += 1
    assert relaxed_only >= 5


def test_auto_rules_peek_with_touching_ends_once_the_designed_search_has_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Under auto rules the game rules' search starts while the (plain) designed one still runs, so
    # it starts without its designed peek; once the designed search has none, the peek (where pipes
    # may touch themselves at their ends) must join it. Before, a slow designed proof left the
    # 48x35 without an answer in 60 s. Here the game rules' own search gives nothing, so only the
    # peek can answer boards whose answers all touch themselves at their ends.
    from solvers.flow import solve

    monkeypatch.setattr(solve, "HEAD_START", -1.0)  # the game rules' search from the first turn
    monkeypatch.setattr(sat, "PEEK_AFTER", -1.0)
    monkeypatch.setattr(sat, "CANONICAL_AFTER", math.inf)  # the fill of canonical answers: not here
    real = sat._staged_steps

    def stalled_game_rules(graph: FlowGraph, rules: str, *args: object) -> Iterator[EdgeSolution | None]:
        if rules != "strict":
            yield from (None, None, None)  # a designed proof that takes a few turns
            yield from real(graph, rules, *args)  # type: ignore[arg-type]
            return
        for _ in range(200):
            yield None

    monkeypatch.setattr(sat, "_staged_steps", stalled_game_rules)
    rng = random.Random(41)
    answered = 0
    for _ in range(300):
        rows_text = _random_rows(rng)
        if brute_force_count(rows_text, designed=True, cap=1) or not brute_force_count(rows_text, cap=1):
            continue
        graph = _graph_of(rows_text)
        if not _has_touching_answer(graph):
            continue
        rules, rest, held = solve._auto(graph, 2, None, None)
        first = next((s for s in chain(held, rest) if s is not None), None)
        assert rules == "strict" and first is not None, rows_text
        verify_edge_answer(rows_text, graph.cells, graph.colours, first.paths)
        answered += 1
    assert answered >= 5


def test_the_game_rules_peek_runs_the_plain_designed_model_before_the_looser_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The peek's looser model (pipes may touch themselves at their ends) is 2-30x slower than the
    # plain one on generated 50x50s, so it runs only once the plain one has proved it has no
    # answer; either way the peek answers every board that one of the two models answers.
    monkeypatch.setattr(sat, "PEEK_AFTER", -1.0)
    monkeypatch.setattr(sat, "CANONICAL_AFTER", math.inf)
    models: list[bool] = []
    real = sat._designed_steps

    def spy(graph: FlowGraph, cancel: object, stats: object, seen: object, looser: bool = True):  # noqa: ANN202
        models.append(looser)
        yield from real(graph, cancel, stats, seen, looser)  # type: ignore[arg-type]

    monkeypatch.setattr(sat, "_designed_steps", spy)

    rng = random.Random(53)
    seen = {"plain": 0, "looser": 0}
    for _ in range(300):
        rows_text = _random_rows(rng)
        designed = brute_force_count(rows_text, designed=True, cap=1) > 0
        graph = _graph_of(rows_text)
        loose = _has_touching_answer(graph)
        models.clear()
        _, answer = _first_with_own_search_stalled(graph, 2000)
        assert (answer is not None) == (designed or loose), rows_text
        if answer is not None:
            verify_edge_answer(rows_text, graph.cells, graph.colours, answer.paths)
        assert models == ([False] if designed else [False, True]), rows_text
        seen["plain" if designed else "looser"] += answer is not None
    assert seen["plain"] >= 10 and seen["looser"] >= 3


def _random_variant(rng: random.Random) -> FlowPuzzle:
    """A small hex board or a square one with warps, holes at random, 1..3 pairs."""
    rows, cols = rng.randint(2, 4), rng.randint(2, 4)
    cells = _pair_cells(rng, rows, cols, rng.randint(1, min(3, rows * cols // 2)))
    for spot in rng.sample(range(rows * cols), rng.randint(0, 2)):
        if cells[spot] == EMPTY:
            cells[spot] = HOLE
    board = FlowPuzzle(rows, cols, tuple(cells))
    if rng.random() < 0.5:
        return replace(board, hex=True)
    return replace(
        board,
        warp_rows=frozenset(r for r in range(rows) if rng.random() < 0.5),
        warp_cols=frozenset(c for c in range(cols) if rng.random() < 0.5),
    )


@pytest.mark.parametrize("rules", ["strict", "numberlink"])
def test_the_shortcut_alone_proves_hex_and_warp_boards_as_brute_force_counts(
    monkeypatch: pytest.MonkeyPatch, rules: str
) -> None:
    # Hex boards and warps have no straight gaps or corners, but the shortcut still shortens every
    # answer: the proof by canonical answers runs there too (Flow Free's hex party levels: 27-46 s
    # and over 60 s before, 0.5-1.6 s now). Forced to run at once after every answer, counts and
    # Find All must match brute force over the model's steps.
    from test_variants import brute_force

    monkeypatch.setattr(sat, "PROOF_DELAY", 0.0)
    monkeypatch.setattr(sat, "PROOF_SHARE", 0.0)
    monkeypatch.setattr(sat, "runs_alongside_itself", lambda *_: False)
    built: list[FlowGraph] = []
    real_init = sat.FlowSat.__post_init__

    def spy(self: FlowSat) -> None:
        if self.canonical:
            built.append(self.graph)
        real_init(self)

    monkeypatch.setattr(sat.FlowSat, "__post_init__", spy)
    rng = random.Random(5)
    checked = 0
    for _ in range(300):
        puzzle = _random_variant(rng)
        if puzzle.problems():
            continue
        board = replace(puzzle, rules="numberlink") if rules == "numberlink" else puzzle
        expected = len(brute_force(board, designed=False))
        if expected > 100:
            continue
        found = list(PLUGIN.solve(board, limit=None, rules=rules))
        assert len(found) == len({str(s.extras["paths"]) for s in found}) == expected, codec.serialize(board)
        assert all(PLUGIN.check_solution(board, s).ok for s in found)
        checked += 1
    assert checked >= 150
    assert sum(1 for g in built if step_table(g) is None) >= 30  # the proof ran on hex and warp boards


def test_on_hex_and_warp_boards_a_canonical_rival_exists_exactly_when_a_second_answer_does() -> None:
    # The proof's own claim, checked head on: for an answer S that fills the board, the canonical
    # search (the shortcut alone on these boards) finds a rival if and only if brute force finds a
    # second Numberlink answer (every game-rules answer is one).
    from test_variants import brute_force

    rng = random.Random(23)
    checked = {True: 0, False: 0}
    for _ in range(400):
        puzzle = _random_variant(rng)
        if puzzle.problems():
            continue
        graph = grid_graph(puzzle)
        first = next(iter(sat.solutions(graph, "strict")), None)
        if first is None or not applies(graph, first.node_colour):
            continue
        others = len(brute_force(replace(puzzle, rules="numberlink"), designed=False)) - 1
        if others > 200:
            continue
        rival = next((x for x in sat._canonical_search(graph, first, None, set()) if x is not None), None)
        assert (rival is not None) == (others > 0), codec.serialize(puzzle)
        if rival is not None:  # a real Numberlink answer, by the rule check
            board = replace(puzzle, rules="numberlink")
            assert PLUGIN.check_solution(board, to_solution(board, graph, rival, "numberlink", 1)).ok
        checked[others > 0] += 1
    assert checked[True] >= 30 and checked[False] >= 30
