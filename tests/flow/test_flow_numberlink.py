"""Numberlink rules (issue 28, item 1): every pair joined, paths never cross or branch, cells may
stay empty, no loose line pieces. Counts are compared with a brute-force search and every answer
is checked by the independent checker (``flow_checker``, Numberlink mode)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flow_checker import brute_force_count, verify
from stalled import stalled

from solvers.common.cancel import Cancelled, CancelToken
from solvers.flow import codec, rules, sat, search
from solvers.flow.frontier import count_solutions
from solvers.flow.model import EMPTY, FlowPaths, FlowPuzzle
from solvers.flow.plugin import PLUGIN

SAMPLE = "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"


def _solve(puzzle: FlowPuzzle, limit: int | None = 2, rules: str = "auto") -> tuple[list, dict]:
    info: dict[str, object] = {}
    found = list(PLUGIN.solve(puzzle, limit=limit, info=info, rules=rules))
    for solution in found:
        assert solution.extras["rules"] == "numberlink"
        verify(puzzle.row_strings(), solution.grid, solution.extras["paths"], numberlink=True)
        assert PLUGIN.check_solution(puzzle, solution).complete
    return found, info


def test_the_pzprjs_sample_is_unique_under_numberlink_rules() -> None:
    puzzle = PLUGIN.parse(SAMPLE)
    found, info = _solve(puzzle)
    assert info["verdict"] == "unique (Numberlink rules)" and info["rules"] == "numberlink"
    assert len(found) == 1 and brute_force_count(puzzle.row_strings(), numberlink=True) == 1


def test_an_answer_may_leave_cells_empty() -> None:
    puzzle = codec.parse("rules: numberlink\nAA.BB\n")
    found, info = _solve(puzzle)
    assert info["verdict"] == "unique (Numberlink rules)" and found[0].grid == ["AA.BB"]
    # The same board under Flow rules has no answer; the option overrides the puzzle's rule set.
    flow_info: dict[str, object] = {}
    assert not list(PLUGIN.solve(codec.parse("AA.BB\n"), info=flow_info))
    assert flow_info["verdict"] == "no solution under the game rules: no pair can reach the cell at R1C3"
    assert len(_solve(codec.parse("AA.BB\n"), rules="numberlink")[0]) == 1


def test_several_answers_and_find_all_agree_with_brute_force() -> None:
    rng = random.Random(1)
    boards = ["rules: numberlink\nA.B\n...\nA.B\n"]
    for _ in range(40):
        rows, cols = rng.randint(2, 4), rng.randint(2, 4)
        pairs = rng.randint(1, min(3, rows * cols // 2))
        cells = [EMPTY] * (rows * cols)
        for k, spot in enumerate(rng.sample(range(rows * cols), 2 * pairs)):
            cells[spot] = "ABC"[k // 2]
        board = FlowPuzzle(rows, cols, tuple(cells), rules="numberlink")
        boards.append(codec.serialize(board))
    for text in boards:
        puzzle = codec.parse(text)
        found, info = _solve(puzzle, limit=None)
        expected = brute_force_count(puzzle.row_strings(), numberlink=True)
        assert len(found) == expected, text
        assert (
            len({tuple(s.grid) + tuple(sorted(map(str, s.extras["paths"].items()))) for s in found})
            == expected
        )
        if expected == 1:
            assert info["verdict"] == "unique (Numberlink rules)"
        elif expected == 0:
            assert info["verdict"] == "no solution (Numberlink rules)"
        else:
            assert info["verdict"] == f"exactly {expected:,} solutions (Numberlink rules)"


def test_limit_two_says_two_plus() -> None:
    found, info = _solve(codec.parse("rules: numberlink\nA..B\n....\nA..B\n"))
    assert len(found) == 2 and info["verdict"] == "2+ solutions (Numberlink rules)"


def test_a_larger_open_board_has_cycle_free_answers() -> None:
    # Few pairs on an open 10x10 board: the SAT models hold loops, which must never be answers.
    rows = [
        "1........2",
        "..........",
        "..3.......",
        "..........",
        ".....1....",
        "..........",
        ".......3..",
        "..........",
        "..........",
        "2.........",
    ]
    puzzle = codec.parse("rules: numberlink\n" + "\n".join(rows) + "\n")
    found, info = _solve(puzzle, limit=25)
    assert len(found) == 25 and info["verdict"] == "25+ solutions (Numberlink rules)"
    assert len({json.dumps(s.extras["paths"], sort_keys=True) for s in found}) == 25
    # The edge sets themselves hold nothing but the pipes (a loop would not show in the grid).
    from solvers.flow.graph import grid_graph
    from solvers.flow.sat import solutions

    for k, answer in enumerate(solutions(grid_graph(puzzle), "numberlink")):
        assert int(answer.used.sum()) == sum(len(p) - 1 for p in answer.paths)
        if k == 40:
            break


def test_check_complete_means_every_pair_joined() -> None:
    puzzle = codec.parse("rules: numberlink\nA.B\n...\nA.B\n")
    joined = FlowPaths.from_dict({"A": [[0, 0], [1, 0], [2, 0]], "B": [[0, 2], [1, 2], [2, 2]]})
    assert rules.check(puzzle, joined).complete  # the middle column stays empty
    assert not rules.check(puzzle, joined, "strict").complete
    assert not rules.check(codec.parse("A.B\n...\nA.B\n"), joined).complete
    half = FlowPaths.from_dict({"A": [[0, 0], [1, 0], [2, 0]], "B": [[0, 2], [1, 2]]})
    result = rules.check(puzzle, half)
    assert not result.complete and not result.violations


def test_the_rule_set_is_saved_with_the_document_and_community_fill_false() -> None:
    puzzle = PLUGIN.parse(SAMPLE)
    text = PLUGIN.serialize_document(puzzle, FlowPaths.from_dict({"1": [[0, 0], [0, 1]]}))
    assert text.startswith("rules: numberlink\n")
    again, entries = PLUGIN.parse_document(text)
    assert again == puzzle and again.rules == "numberlink" and entries is not None
    community = codec.parse("# fill: false\n# size: 5x1\nred red . blue blue\n")
    assert community.rules == "numberlink"
    found, info = _solve(community)
    assert info["verdict"] == "unique (Numberlink rules)" and found[0].grid[0][2] == "."
    assert codec.parse("# fill: true\nAA\n").rules == "flow"
    # Edits keep the rule set; a resized board too.
    assert puzzle.with_cell(2, 2, EMPTY).rules == "numberlink" == PLUGIN.resize(puzzle, 6, 6).rules


def test_cli_rules_numberlink(tmp_path, capsys) -> None:
    path = tmp_path / "board.txt"
    path.write_text("AA.BB\n")
    assert PLUGIN.cli(["solve", str(path), "--rules", "numberlink", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["rules"], out["count"], out["unique"]) == ("numberlink", 1, True)
    assert out["verdict"] == "unique (Numberlink rules)"
    assert out["solutions"][0]["grid"] == ["AA.BB"]
    assert PLUGIN.cli(["solve", SAMPLE]) == 0
    assert "unique (Numberlink rules)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "text",
    [
        "shape: hex\nrules: numberlink\nA.A\n...\nB.B\n",
        "rules: numberlink\n..A..\n.....\nB.+.B\n.....\n..A..\n",
    ],
)
def test_variants_under_numberlink_rules(text: str) -> None:
    # Hex layout and bridges: the same graph model; answers go through the module's checker.
    puzzle = codec.parse(text)
    found = list(PLUGIN.solve(puzzle, limit=50))
    assert found
    for solution in found:
        result = PLUGIN.check_solution(puzzle, solution)
        assert result.complete and not result.violations


B12 = (Path(__file__).parent / "data" / "issue28_12x12.txt").read_text().split()  # issue 28's 12x12


def test_a_hand_made_board_gets_its_first_answer_from_the_designed_head_start() -> None:
    # The plain Numberlink model found nothing here in minutes; designed answers are Numberlink
    # answers and come at once (CPU-time bound with a wide margin).
    import time

    puzzle = codec.parse("rules: numberlink\n" + "\n".join(B12) + "\n")
    started = time.process_time()
    found, info = _solve(puzzle, limit=1)
    assert len(found) == 1 and info["verdict"] == "1+ solutions (Numberlink rules)"
    assert time.process_time() - started < 20.0


def test_neighbour_answers_are_valid_and_new() -> None:
    import numpy as np

    from solvers.flow.graph import grid_graph
    from solvers.flow.numberlink import neighbour
    from solvers.flow.sat import _decode

    def answer(text: str, cells: list[tuple[int, int]]):  # the edge set of one pipe along cells
        puzzle = codec.parse("rules: numberlink\n" + text)
        graph = grid_graph(puzzle)
        node = {cell: i for i, cell in enumerate(graph.cells)}
        used = np.zeros(graph.n_edges, dtype=bool)
        for a, b in zip(cells, cells[1:], strict=False):
            pair = {node[a], node[b]}
            used[next(e for e, (u, v) in enumerate(graph.edges.tolist()) if {u, v} == pair)] = True
        decoded, loops = _decode(graph, used)
        assert decoded is not None and not loops
        return puzzle, graph, decoded

    def check(puzzle, graph, used) -> list[str]:
        decoded, loops = _decode(graph, used)
        assert decoded is not None and not loops
        paths = {graph.colours[k]: [list(graph.cells[v]) for v in p] for k, p in enumerate(decoded.paths)}
        from solvers.flow.graph import solution_rows

        grid = solution_rows(puzzle, graph, decoded.node_colour)
        verify(puzzle.row_strings(), grid, paths, numberlink=True)
        return grid

    # A detour: the straight pipe swings through the empty row below.
    puzzle, graph, straight = answer("A..A\n....\n", [(0, 0), (0, 1), (0, 2), (0, 3)])
    other = neighbour(graph, straight)
    assert other is not None and int(other.sum()) == 5
    check(puzzle, graph, other)
    # A shortcut: the pipe runs alongside itself ((0, 1) beside (0, 2)) and is cut short.
    puzzle, graph, touching = answer("A.A\n...\n", [(0, 0), (0, 1), (1, 1), (1, 2), (0, 2)])
    short = neighbour(graph, touching)
    assert short is not None
    assert check(puzzle, graph, short) == ["AAA", "..."]
    # No empty cell to swing through (only one, boxed in by endpoints), no stretch beside itself.
    _, graph, full = answer("A.\n.A\n", [(0, 0), (0, 1), (1, 1)])
    assert neighbour(graph, full) is None


def test_numberlink_boards_show_their_numbers() -> None:
    from solvers.common.display import Text

    def texts(text: str) -> list[str]:
        return sorted(item.text for item in PLUGIN.draw(codec.parse(text)).items if isinstance(item, Text))

    assert texts("rules: numberlink\nA.B\n...\nA.B\n") == ["A", "A", "B", "B"]
    assert texts("1 . 999\n1 . 999\n") == ["1", "1", "999", "999"]
    assert texts("R.G\n...\nR.G\n") == []  # a Flow board keeps plain dots
    assert texts("1.2\n...\n1.2\n") == []  # digit letters too


HM10 = Path(__file__).parent / "data" / "handmade" / "hm_10x10_s0_unique.txt"


def test_a_proof_cut_short_says_what_is_proven(monkeypatch: pytest.MonkeyPatch) -> None:
    # Published 20x20s are designed-unique at once but need 35-100 s for the proof under Numberlink
    # rules: when the user stops it, "unique (designed)" is still proven and is said (progress while
    # it runs, ``info["proven"]`` after the cut). The proof is stalled here on purpose.
    monkeypatch.setattr(sat, "_canonical_search", stalled)
    puzzle = dataclasses.replace(codec.parse(HM10.read_text()), rules="numberlink")
    swept = count_solutions(puzzle, "numberlink", limit=2)  # another algorithm: one Numberlink answer,
    assert swept is not None and swept.complete and swept.count == 1  # so at most one designed one
    token = CancelToken()
    texts: list[str] = []

    def progress(info: dict[str, object]) -> None:
        texts.append(str(info.get("text", "")))
        if "unique (designed)" in texts[-1]:
            token.cancel()

    info: dict[str, object] = {}
    found = []
    with pytest.raises(Cancelled):
        for solution in PLUGIN.solve(puzzle, limit=2, cancel=token, progress=progress, info=info):
            found.append(solution)
    assert len(found) == 1 and info["proven"] == "unique (designed)" and "verdict" not in info
    verify(puzzle.row_strings(), found[0].grid, found[0].extras["paths"], designed=True)
    assert texts[-1] == "unique (designed); Numberlink rules: looking for a second solution"


class _AfterPolls(CancelToken):
    """Cancelled once asked this many times: a cut after a fixed amount of search, whatever the clock."""

    def __init__(self, polls: int) -> None:
        super().__init__()
        self._left = polls

    @property
    def cancelled(self) -> bool:
        self._left -= 1
        if self._left < 0:
            self.cancel()
        return super().cancelled


def test_nothing_is_said_proven_that_is_not(monkeypatch: pytest.MonkeyPatch) -> None:
    # Boards without a designed answer (or with two, none of which small random boards have): a cut
    # never claims "unique (designed)", wherever it falls (real searches cut after 3..200 polls of
    # the token); designed-unique boards say it when the cut comes after their designed search
    # ended (a stalled proof, so that the cut comes after it).
    rng = random.Random(5)
    boards: list[tuple[list[str], int]] = []
    while len(boards) < 150:
        rows, cols = rng.randint(2, 4), rng.randint(2, 4)
        pairs = rng.randint(1, rows * cols // 2)  # many pairs: designed answers are likelier
        cells = [EMPTY] * (rows * cols)
        for k, spot in enumerate(rng.sample(range(rows * cols), 2 * pairs)):
            cells[spot] = "ABCDEFGH"[k // 2]
        rows_text = FlowPuzzle(rows, cols, tuple(cells)).row_strings()
        boards.append((rows_text, brute_force_count(rows_text, designed=True, cap=2)))

    def cut(rows_text: list[str], polls: int) -> tuple[dict[str, object], int]:
        info: dict[str, object] = {}
        found: list[object] = []
        with contextlib.suppress(Cancelled):
            puzzle = codec.parse("rules: numberlink\n" + "\n".join(rows_text) + "\n")
            for solution in PLUGIN.solve(puzzle, limit=None, cancel=_AfterPolls(polls), info=info):
                found.append(solution)
        return info, len(found)

    cut_after_one = 0  # boards without a designed answer cut with one Numberlink answer found
    for rows_text, designed in boards:
        for polls in (3, 6, 12, 25, 50, 100, 200):
            info, found = cut(rows_text, polls)
            assert "proven" not in info or designed == 1, rows_text
            cut_after_one += designed == 0 and found == 1 and "verdict" not in info
    assert cut_after_one >= 15, cut_after_one
    monkeypatch.setattr(sat, "_canonical_search", stalled)
    monkeypatch.setattr(sat, "_staged_steps", stalled)  # nor the game rules' stage
    said = {0: 0, 1: 0, 2: 0}
    for rows_text, designed in boards:
        info, _found = cut(rows_text, 60)
        said[min(designed, 2)] += "proven" in info
    assert said[1] >= 5 and said[0] == said[2] == 0, said


def _slow_first_slices(real: object, seconds: float, then_real: bool = True, looser: object = None) -> object:
    """``_designed_steps`` whose plain model spends ``seconds`` of CPU in empty slices first (then
    searches for real, or ends without an answer); the looser model is ``looser`` (or ``real``)."""

    def steps(*args: object, **kwargs: object) -> Iterator[object]:
        if args[4]:  # the looser model (pipes touching themselves at their ends)
            yield from (looser or real)(*args, **kwargs)  # type: ignore[operator]
            return
        end = time.process_time() + seconds
        while time.process_time() < end:
            busy = time.process_time() + 0.02
            while time.process_time() < busy:
                pass
            yield None
        if then_real:
            yield from real(*args, **kwargs)  # type: ignore[operator]

    return steps


def test_a_designed_search_cut_short_by_its_head_start_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # Hand-made 50x40 boards: the designed answer came 1.3-1.8 s after the model's setup, the
    # head start cut it off at 1 s, and the searches after it found nothing in 10 s (none at all).
    # Now the designed search goes on by turns with them until it has its answer or ends.
    slow = _slow_first_slices(sat._designed_steps, 0.4, looser=lambda *a, **_k: stalled(None, None, a[1]))
    monkeypatch.setattr(sat, "_designed_steps", slow)
    monkeypatch.setattr(sat, "DESIGNED_HEAD", 0.1)
    monkeypatch.setattr(sat, "_staged_steps", stalled)  # nothing else finds it
    monkeypatch.setattr(sat, "_canonical_search", stalled)
    monkeypatch.setattr(search, "WIDTH", 0)  # nor the frontier sweep
    puzzle = dataclasses.replace(codec.parse(HM10.read_text()), rules="numberlink")
    found = list(PLUGIN.solve(puzzle, limit=1, rules="numberlink", cancel=CancelToken(10)))
    assert len(found) == 1
    verify(puzzle.row_strings(), found[0].grid, found[0].extras["paths"], numberlink=True)


def test_the_looser_designed_model_runs_once_the_cut_short_plain_one_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The plain model ends without an answer after its head start: the looser one (pipes that touch
    # themselves at their ends) is tried then, as it is when the plain one ends within the head start.
    looser: list[bool] = []
    real = sat._designed_steps

    def counted(*args: object, **kwargs: object) -> Iterator[object]:
        looser.append(bool(args[4]))
        yield from real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sat, "_designed_steps", _slow_first_slices(counted, 0.4, then_real=False))
    monkeypatch.setattr(sat, "DESIGNED_HEAD", 0.1)
    monkeypatch.setattr(sat, "_staged_steps", stalled)
    monkeypatch.setattr(sat, "_canonical_search", stalled)
    monkeypatch.setattr(search, "WIDTH", 0)
    puzzle = dataclasses.replace(codec.parse(HM10.read_text()), rules="numberlink")
    found = list(PLUGIN.solve(puzzle, limit=1, rules="numberlink", cancel=CancelToken(30)))
    assert len(found) == 1 and looser == [True]
    verify(puzzle.row_strings(), found[0].grid, found[0].extras["paths"], numberlink=True)


def test_the_designed_head_start_counts_from_its_first_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    # Setting the designed model up took up to 1 s on generated 50x50 puzzles, and when that counted
    # in the head start, some got no answer at all under Numberlink rules (designed rules: 2 s).
    real = sat._designed_steps

    def slow_setup(*args: object, **kwargs: object) -> Iterator[object]:
        if args[4]:  # the looser model (pipes touching themselves at their ends) finds nothing here
            yield from stalled(None, None, args[1])  # type: ignore[arg-type]
        end = time.process_time() + 0.3
        while time.process_time() < end:  # the setup, then a slice without an answer
            pass
        yield None
        yield from real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sat, "_designed_steps", slow_setup)
    monkeypatch.setattr(sat, "DESIGNED_HEAD", 0.1)
    monkeypatch.setattr(sat, "_staged_steps", stalled)  # nothing else finds it
    monkeypatch.setattr(sat, "_canonical_search", stalled)
    monkeypatch.setattr(search, "WIDTH", 0)
    puzzle = dataclasses.replace(codec.parse(HM10.read_text()), rules="numberlink")
    found = list(PLUGIN.solve(puzzle, limit=1, rules="numberlink", cancel=CancelToken(30)))
    assert len(found) == 1
    verify(puzzle.row_strings(), found[0].grid, found[0].extras["paths"], numberlink=True)
