"""The frontier counter (``solvers/flow/frontier.py``): exact counts against independent brute-force
searches on small random boards (holes and walls included, game and Numberlink rules), every
rebuilt solution checked independently, and agreement with the SAT solver on bigger boards."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest
from flow_checker import brute_force_count, verify

from solvers.common.cancel import Cancelled, CancelToken
from solvers.flow import frontier, sat
from solvers.flow.codec import parse
from solvers.flow.frontier import NotApplicable, count_solutions, sweep_width
from solvers.flow.graph import grid_graph
from solvers.flow.handmade import handmade_board
from solvers.flow.model import EMPTY, HOLE, LETTERS, FlowPuzzle, wall
from solvers.flow.random_path import random_path_board

Cell = tuple[int, int]
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
B12 = """\
B..........A
D..E........
............
............
........D...
............
............
..CE........
...........C
............
..........B.
A...........
"""


# ---- an independent brute force that knows holes and walls --------------------------------------
def brute_count(rows: list[str], walls: set[frozenset[Cell]], numberlink: bool, cap: int) -> int:
    """Solutions by depth-first search over each colour's path in turn (tiny boards only)."""
    h, w = len(rows), len(rows[0])
    ends: dict[str, list[Cell]] = {}
    for r in range(h):
        for c in range(w):
            if rows[r][c] not in (EMPTY, HOLE):
                ends.setdefault(rows[r][c], []).append((r, c))
    colours = sorted(ends)
    used = [[rows[r][c] != EMPTY for c in range(w)] for r in range(h)]
    count = 0

    def run(k: int) -> None:
        nonlocal count
        if count >= cap:
            return
        if k == len(colours):
            if numberlink or all(all(row) for row in used):
                count += 1
            return
        start, goal = ends[colours[k]]

        def walk(cell: Cell) -> None:
            for dr, dc in STEPS:
                n = (cell[0] + dr, cell[1] + dc)
                if not (0 <= n[0] < h and 0 <= n[1] < w) or frozenset((cell, n)) in walls:
                    continue
                if n == goal:
                    run(k + 1)
                elif not used[n[0]][n[1]]:
                    used[n[0]][n[1]] = True
                    walk(n)
                    used[n[0]][n[1]] = False

        walk(start)

    run(0)
    return count


def check_edges(puzzle: FlowPuzzle, used: np.ndarray, numberlink: bool) -> None:
    """An edge set (FlowGraph numbering) is a solution: endpoint degree 1, other cells 0 or 2 (2
    under the game rules), no wall or hole crossed, every path joins its two endpoints, no loops."""
    graph = grid_graph(puzzle)
    adj: dict[Cell, list[Cell]] = {}
    for e in np.flatnonzero(used):
        a, b = (graph.cells[int(x)] for x in graph.edges[e])
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1, "not neighbours"
        assert wall(a, b) not in puzzle.walls, "crosses a wall"
        assert HOLE not in (puzzle.at(*a), puzzle.at(*b)), "enters a hole"
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    seen: set[Cell] = set()
    for letter, (start, goal) in puzzle.endpoints().items():
        assert len(adj.get(start, [])) == 1 and len(adj.get(goal, [])) == 1, f"{letter} end degree"
        prev, cell = None, start
        path = [start]
        while cell != goal:
            nxt = [n for n in adj[cell] if n != prev]
            assert len(nxt) == 1, f"{letter} branches or stops at {cell}"
            prev, cell = cell, nxt[0]
            assert puzzle.at(*cell) in (EMPTY, letter), f"{letter} runs into another endpoint"
            path.append(cell)
        assert len(set(path)) == len(path)
        seen.update(path)
    assert set(adj) <= seen, "a loop or loose piece"
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            if puzzle.at(r, c) != HOLE and not numberlink:
                assert (r, c) in seen, f"{(r, c)} uncovered"


def answer(puzzle: FlowPuzzle, used: np.ndarray) -> tuple[list[str], dict[str, list[list[int]]]]:
    """The CLI's answer form (grid rows and paths) of an edge set, for ``flow_checker.verify``."""
    graph = grid_graph(puzzle)
    adj: dict[Cell, list[Cell]] = {}
    for e in np.flatnonzero(used):
        a, b = (graph.cells[int(x)] for x in graph.edges[e])
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    grid = [list(row) for row in puzzle.row_strings()]
    paths: dict[str, list[list[int]]] = {}
    for letter, (start, _goal) in puzzle.endpoints().items():
        path, prev = [start], None
        while len(path) == 1 or len(adj[path[-1]]) == 2:
            nxt = next(n for n in adj[path[-1]] if n != prev)
            prev = path[-1]
            path.append(nxt)
        for r, c in path:
            grid[r][c] = letter
        paths[letter] = [list(p) for p in path]
    return ["".join(row) for row in grid], paths


def random_board(rng: random.Random, walls_and_holes: bool) -> tuple[FlowPuzzle, set[frozenset[Cell]]]:
    """Random endpoints (often no solution), or half the time a board cut from a random path (always
    solvable under both rule sets) with walls only where that path does not run."""
    h, w = rng.randint(3, 5), rng.randint(3, 6)
    if rng.random() < 0.5:
        pieces = random_path_board(h, w, rng.randint(2, 4), seed=rng.randrange(10**6)).pieces
        cells = [EMPTY] * (h * w)
        on_path: set[frozenset[Cell]] = set()
        for k, piece in enumerate(pieces):
            for r, c in (piece[0], piece[-1]):
                cells[r * w + c] = LETTERS[k]
            on_path.update(frozenset(step) for step in zip(piece, piece[1:], strict=False))
        cut: set[frozenset[Cell]] = set()
        for _ in range(rng.randint(0, 4) if walls_and_holes else 0):
            r, c = rng.randrange(h), rng.randrange(w)
            dr, dc = rng.choice(((0, 1), (1, 0)))
            step = frozenset(((r, c), (r + dr, c + dc)))
            if r + dr < h and c + dc < w and step not in on_path:
                cut.add(step)
        walls = frozenset(wall(*sorted(x)) for x in cut)
        return FlowPuzzle(h, w, tuple(cells), walls=walls), cut
    cells = [EMPTY] * (h * w)
    spots = rng.sample(range(h * w), min(h * w, 2 * rng.randint(1, 4) + 3))
    holes = rng.randint(0, 2) if walls_and_holes else 0
    for i in spots[:holes]:
        cells[i] = HOLE
    for k, i in enumerate(spots[holes:]):
        if k // 2 < 4 and len(spots[holes:]) - k >= 2 - k % 2:
            cells[i] = LETTERS[k // 2]
    letters = [ch for ch in cells if ch not in (EMPTY, HOLE)]
    for ch in set(letters):
        if letters.count(ch) == 1:
            cells[cells.index(ch)] = EMPTY
    walls: set[frozenset[Cell]] = set()
    for _ in range(rng.randint(0, 4) if walls_and_holes else 0):
        r, c = rng.randrange(h), rng.randrange(w)
        dr, dc = rng.choice(((0, 1), (1, 0)))
        if r + dr < h and c + dc < w:
            walls.add(frozenset(((r, c), (r + dr, c + dc))))
    puzzle = FlowPuzzle(h, w, tuple(cells), walls=frozenset(wall(*sorted(x)) for x in walls))
    return puzzle, walls


@pytest.mark.parametrize("rules", ["strict", "numberlink"])
@pytest.mark.parametrize("walls_and_holes", [False, True])
def test_counts_match_brute_force_on_random_boards(rules: str, walls_and_holes: bool) -> None:
    numberlink = rules == "numberlink"
    rng = random.Random(f"{rules}{walls_and_holes}")
    limit = 6
    seen_counts = set()
    for _ in range(100):
        puzzle, walls = random_board(rng, walls_and_holes)
        if not puzzle.endpoints():
            continue
        rows = puzzle.row_strings()
        expected = brute_count(rows, walls, numberlink, limit)
        if not walls_and_holes:  # the shared checker agrees with ours
            assert expected == min(limit, brute_force_count(rows, numberlink=numberlink, cap=limit))
        result = count_solutions(puzzle, rules, limit=limit)
        assert result is not None
        assert result.count == expected, rows
        assert result.complete == (expected < limit)
        assert len(result.solutions) == expected
        assert len({s.tobytes() for s in result.solutions}) == expected, "solutions differ"
        for used in result.solutions:
            check_edges(puzzle, used, numberlink)
            if not walls_and_holes:
                verify(rows, *answer(puzzle, used), numberlink=numberlink)
        seen_counts.add(expected)
    assert {0, 1, limit} <= seen_counts  # the boards test all three outcomes


@pytest.mark.parametrize("rules", ["strict", "numberlink"])
def test_every_sweep_direction_counts_the_same_with_the_same_solutions(rules: str) -> None:
    """Sweeping from the other end, or column by column on a square board, counts the same
    solutions (brute force agrees) as edge sets of the board itself; wide boards keep their
    longer side as the sweep direction."""
    numberlink = rules == "numberlink"
    rng = random.Random(f"directions{rules}")
    for _ in range(40):
        puzzle, walls = random_board(rng, True)
        if not puzzle.endpoints():
            continue
        expected = brute_count(puzzle.row_strings(), walls, numberlink, 4)
        n = frontier.orientations(puzzle)
        assert n == (4 if puzzle.rows == puzzle.cols else 2)
        answers = set()
        for o in range(n):
            result = count_solutions(puzzle, rules, limit=4, orientation=o)
            assert result is not None and result.count == expected, (o, puzzle.row_strings())
            assert result.width == min(puzzle.rows, puzzle.cols)
            for used in result.solutions:
                check_edges(puzzle, used, numberlink)
            answers.add(frozenset(s.tobytes() for s in result.solutions))
        if expected < 4:  # all found: every direction finds the same ones
            assert len(answers) == 1
        racing = frontier.count_racing(puzzle, rules, limit=4)
        assert racing is not None and racing.count == expected


def test_the_racing_count_answers_from_the_direction_with_fewest_states() -> None:
    """A board whose state count is far smaller one way round than the others: the directions take
    turns by their largest layer, so the cheap one finishes first; a layer cap that stops the
    others does not stop the race."""
    # A hand-made-style 10x10: largest layers 12,966 / 30,209 / 7,853 / 27,224 by direction.
    puzzle = handmade_board(10, 10, 2).puzzle
    peaks = [count_solutions(puzzle, "strict", orientation=o) for o in range(4)]
    counts = {p.count for p in peaks if p is not None}
    assert len(counts) == 1 and None not in peaks
    smallest = min(p.peak_states for p in peaks if p is not None)
    assert max(p.peak_states for p in peaks if p is not None) > 3 * smallest
    for cap in (smallest, frontier.MAX_STATES):
        result = frontier.count_racing(puzzle, "strict", max_states=cap)
        assert result is not None and {result.count} == counts and result.peak_states == smallest
        check_edges(puzzle, result.solutions[0], False)
        verify(puzzle.row_strings(), *answer(puzzle, result.solutions[0]))
    assert frontier.count_racing(puzzle, "strict", max_states=smallest - 1) is None


# Issue 27's reference board extreme_12x12_30 upside down, thinned to five colours: O's two ends
# on the frontier join through a piece (a bridge through the swept rows) while Y passes between
# them; the old crossing test pruned that state and counted 0 (a "no solution" for a solvable board).
BRIDGED = """\
.........GRM
...O........
....G.......
Y...R.......
............
O........Y..
......M.....
............
............
............
............
............
"""


@pytest.mark.parametrize(
    "rules",
    ["strict", pytest.param("numberlink", marks=pytest.mark.slow)],  # Numberlink: ~30 s
)
def test_colour_ends_joined_through_a_piece_are_not_pruned_as_crossing(rules: str) -> None:
    puzzle = parse(BRIDGED)
    # Solvable (the reference board is): every direction counts the same, at least one, and
    # every answer passes the independent check.
    counts = set()
    for o in range(frontier.orientations(puzzle)):
        result = count_solutions(puzzle, rules, orientation=o)
        assert result is not None and result.count >= 1, o
        counts.add(result.count)
        for used in result.solutions:
            verify(puzzle.row_strings(), *answer(puzzle, used), numberlink=rules == "numberlink")
    assert len(counts) == 1


@pytest.mark.parametrize("rules", ["strict", "numberlink"])
def test_every_direction_agrees_with_sat_on_open_boards(rules: str) -> None:
    """Hand-made-style boards (few pipes, open areas: long pipes, many pieces on the frontier)
    in every sweep direction against the SAT search."""
    for n, seed in ((8, 0), (8, 1), (9, 2), (9, 3), (10, 4)):
        puzzle = handmade_board(n, n, seed).puzzle
        count, found = _sat_count(puzzle, rules)
        for o in range(frontier.orientations(puzzle)):
            result = count_solutions(puzzle, rules, orientation=o)
            assert result is not None and result.count == count, (n, seed, o)
            if count == 1:
                assert result.solutions[0].tobytes() == found[0]


def _issue_example(rules: str) -> None:
    puzzle = parse(B12)
    result = count_solutions(puzzle, rules)
    assert result is not None and result.count == 1 and result.complete and result.width == 12
    check_edges(puzzle, result.solutions[0], rules == "numberlink")
    verify(puzzle.row_strings(), *answer(puzzle, result.solutions[0]), numberlink=rules == "numberlink")


def test_the_issue_example_is_unique_under_the_game_rules() -> None:
    _issue_example("strict")  # about 3 s of CPU


@pytest.mark.slow
def test_the_issue_example_is_unique_under_numberlink_rules() -> None:
    _issue_example("numberlink")  # about 8 s of CPU


def test_trivial_boards() -> None:
    for text, rules, expected in (("AA\n", "strict", 1), ("...\n...\n", "strict", 0)):
        result = count_solutions(parse(text), rules)
        assert result is not None and result.count == expected
    empty = count_solutions(parse("...\n...\n"), "numberlink")
    assert empty is not None and empty.count == 1 and not empty.solutions[0].any()
    with pytest.raises(ValueError, match="limit"):
        count_solutions(parse("AA\n"), "strict", limit=9)


def _sat_count(puzzle: FlowPuzzle, rules: str) -> tuple[int, list[bytes]]:
    found = []
    for solution in sat.solutions(grid_graph(puzzle), rules, CancelToken(timeout=120)):
        found.append(solution.used.tobytes())
        if len(found) == 2:
            break
    return len(found), found


@pytest.mark.parametrize("rules", ["strict", "numberlink"])
def test_agrees_with_sat_on_random_path_and_handmade_boards(rules: str) -> None:
    boards = [
        random_path_board(n, n, n + seed % 3, seed=seed).puzzle for n in (8, 9, 10) for seed in range(3)
    ]
    boards += [handmade_board(n, n, seed).puzzle for n in (8, 10) for seed in range(3)]
    boards.append(random_path_board(6, 9, 5, seed=1).puzzle)  # wider than tall: swept transposed
    for puzzle in boards:
        result = count_solutions(puzzle, rules)
        assert result is not None
        count, found = _sat_count(puzzle, rules)
        assert result.count == count, puzzle.row_strings()
        if count == 1:
            assert result.solutions[0].tobytes() == found[0]
        for used in result.solutions:
            verify(puzzle.row_strings(), *answer(puzzle, used), numberlink=rules == "numberlink")


def test_wide_boards_are_swept_along_their_longer_side() -> None:
    puzzle = random_path_board(5, 12, 6, seed=3).puzzle  # 12 columns, 5 rows
    assert sweep_width(puzzle) == 5
    result = count_solutions(puzzle, "strict")
    assert result is not None and result.transposed and result.width == 5
    assert result.count >= 1
    for used in result.solutions:
        verify(puzzle.row_strings(), *answer(puzzle, used))


def test_a_layer_over_the_state_limit_gives_up() -> None:
    puzzle = parse(B12)
    assert count_solutions(puzzle, "numberlink", max_states=1000) is None


def test_past_the_memory_budget_the_count_stays_exact_without_solutions() -> None:
    puzzle = parse("A.B\n...\nA.B\n")
    result = count_solutions(puzzle, "numberlink", limit=8, max_stored=5)
    assert result is not None and result.count == 7 and result.complete
    assert result.solutions == [] and not result.rebuilt


@pytest.mark.parametrize("rules", ["strict", "numberlink"])
def test_past_the_back_pointer_budget_the_rows_are_swept_again(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = random_path_board(8, 8, 9, seed=4).puzzle
    full = count_solutions(puzzle, rules, limit=3)
    assert full is not None and full.count >= 1 and full.rebuilt
    back_bytes = sum(full.layer_states) * (3 * 5 + 1)  # all back pointers
    calls = []
    by_rows = frontier._rebuild_by_rows
    monkeypatch.setattr(frontier, "_rebuild_by_rows", lambda *a: calls.append(1) or by_rows(*a))
    again = count_solutions(puzzle, rules, limit=3, max_stored=back_bytes // 2)
    assert calls == [1] and again is not None and again.rebuilt and again.count == full.count
    assert [s.tobytes() for s in again.solutions] == [s.tobytes() for s in full.solutions]


def test_a_cancel_while_the_rows_are_swept_again_keeps_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = random_path_board(8, 8, 9, seed=4).puzzle
    full = count_solutions(puzzle, "numberlink")
    assert full is not None and full.count >= 1
    token = CancelToken()
    by_rows = frontier._rebuild_by_rows
    monkeypatch.setattr(frontier, "_rebuild_by_rows", lambda *a: token.cancel() or by_rows(*a))
    again = count_solutions(puzzle, "numberlink", cancel=token, max_stored=sum(full.layer_states) * 5)
    assert again is not None and again.count == full.count and not again.rebuilt and again.solutions == []


def test_cancel_stops_the_sweep() -> None:
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        count_solutions(parse(B12), "numberlink", cancel=token)
    # And from another thread, mid-sweep.
    token = CancelToken()
    timer = threading.Timer(0.2, token.cancel)
    timer.start()
    try:
        with pytest.raises(Cancelled):
            count_solutions(handmade_board(16, 16, 1).puzzle, "numberlink", cancel=token)
    finally:
        timer.cancel()
    # The racing count too, with all four directions under way.
    token = CancelToken()
    timer = threading.Timer(0.5, token.cancel)
    timer.start()
    try:
        with pytest.raises(Cancelled):
            frontier.count_racing(handmade_board(16, 16, 1).puzzle, "numberlink", cancel=token)
    finally:
        timer.cancel()


def test_variants_and_designed_rules_are_refused() -> None:
    plain = parse("A.B\n...\nA.B\n")
    with pytest.raises(NotApplicable, match="strict and numberlink"):
        count_solutions(plain, "designed")
    for text in ("A.B\n.+.\nA.B\n", "shape: hex\nA.B\n...\nA.B\n"):
        with pytest.raises(NotApplicable):
            count_solutions(parse(text), "strict")
    bridge = parse("A.B\n.+.\nA.B\n")
    with pytest.raises(NotApplicable, match="bridges"):
        count_solutions(grid_graph(bridge), "strict")


@pytest.mark.parametrize(
    ("slots", "crossing"),
    [
        ([-1, -2, -1, -2, 0, 0], True),  # k j k j, nothing to bridge: must cross
        ([-1, -2, -2, -1, 0, 0], False),  # k j j k: nested
        ([-1, -2, -1, 3, -2, 3], False),  # a piece over j's second end can carry k round it
        ([3, 3, -1, -2, -1, -2], True),  # a piece off to one side helps neither colour
        ([-1, 3, 3, -2, -1, -2], True),  # ... nor one between k's first end and j
        ([-1, 3, -2, 3, -1, -2], False),  # k's pipe can run over j's first end through the piece
        ([-1, -2, 0, -1, -3, -2], True),  # a colour with one end here (-3) may run off below
    ],
)
def test_the_crossing_test_prunes_only_what_no_piece_colouring_can_untangle(
    slots: list[int], crossing: bool
) -> None:
    """The frontier's crossing test on hand-written states (colours -1, -2, -3; pieces 3): with a
    piece on the frontier it keeps a state where some colouring of the pieces lets the ends pair up
    without crossing, and prunes the rest (before, every state with a piece was kept unexamined)."""
    state = np.asarray(slots, dtype=np.int64)
    work = np.zeros((9, 8), dtype=np.int64)
    w = len(slots) - 1
    assert frontier._crossing(state, work, w, w - 1) is crossing
    assert not work[frontier.ENDS].any() and not work[frontier.PIECE_OF].any()  # left clean
