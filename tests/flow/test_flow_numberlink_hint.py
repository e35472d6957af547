"""A board with no answer under the game rules but one under Numberlink rules says so (QA pass 11:
published Arukone puzzles whose answers leave cells empty, typed in as boards, got "no solution
under the game rules" and no word of where the answer is)."""

from __future__ import annotations

import json
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.outcome import SearchOutcome, SolveResult
from solvers.common.report import SolveReport, report_text
from solvers.flow import codec
from solvers.flow.graph import grid_graph
from solvers.flow.plugin import PLUGIN
from solvers.flow.solve import NUMBERLINK_HINT, _hint_numberlink, solve


def _solve(text: str, rules: str = "auto") -> tuple[list[Any], dict[str, Any]]:
    info: dict[str, Any] = {}
    return list(solve(codec.parse(text), limit=2, info=info, rules=rules)), info


def test_no_game_rules_answer_but_a_numberlink_one_is_named() -> None:
    for board, verdict in (
        ("AB.\nAB.\n...\n", "no solution under the game rules"),  # the corner pocket stays empty
        ("AB\nAB\n..\n", "no solution under the game rules: no pair can reach 2 cells at R3C1"),
    ):
        found, info = _solve(board)
        assert not found and info["verdict"] == verdict and info["hint"] == NUMBERLINK_HINT
        for rules in ("auto", "strict"):
            assert _solve(board, rules)[1].get("hint") == NUMBERLINK_HINT
        # the hint is true: Numberlink rules have an answer, and the rule check accepts it
        answers, nl = _solve(board, "numberlink")
        assert answers and nl["rules"] == "numberlink"
        assert PLUGIN.check_solution(codec.parse(board), answers[0]).ok


def test_no_hint_where_numberlink_rules_have_no_answer_either_or_a_verdict_is_found() -> None:
    crossing = "A.B\n...\nB.A\n"  # the pairs must cross under every rule set
    found, info = _solve(crossing)
    assert not found and info["verdict"] == "no solution under the game rules" and "hint" not in info
    assert _solve(crossing, "numberlink")[1]["verdict"] == "no solution (Numberlink rules)"
    assert "hint" not in _solve("AB\nAB\n")[1]  # solved: nothing to point at
    assert "hint" not in _solve("AB.\nAB.\n...\n", "numberlink")[1]


def test_a_cut_look_goes_without_its_hint_and_keeps_the_verdict() -> None:
    graph = grid_graph(codec.parse("AB.\nAB.\n...\n"))
    stopped = CancelToken()
    stopped.cancel()
    info: dict[str, Any] = {"verdict": "no solution under the game rules"}
    _hint_numberlink(graph, stopped, info)  # the user's Esc: no exception, no hint
    assert info == {"verdict": "no solution under the game rules"}


def test_the_cli_and_the_results_line_say_it(tmp_path, capsys) -> None:
    path = tmp_path / "pocket.txt"
    path.write_text("AB.\nAB.\n...\n", encoding="utf-8")
    assert PLUGIN.cli(["solve", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("no solution under the game rules") and err == f"note: {NUMBERLINK_HINT}\n"
    assert PLUGIN.cli(["solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hint"] == NUMBERLINK_HINT and data["count"] == 0 and data["complete"] is True
    done = SolveResult(
        SearchOutcome.after(0, 2), "no solution under the game rules", {"hint": NUMBERLINK_HINT}
    )
    report = SolveReport("done", 0.25, 0, 0, 2, solve=done)  # type: ignore[arg-type]
    assert report_text(report) == (f"No solution under the game rules in 0.25 s. Note: {NUMBERLINK_HINT}.")


def test_a_board_too_large_for_a_short_look_goes_without_one(monkeypatch) -> None:
    import solvers.flow.solve as flow_solve

    graph = grid_graph(codec.parse("AB.\nAB.\n...\n"))
    monkeypatch.setattr(flow_solve, "HINT_SIZE", 2 * graph.n_nodes - 1)  # 2 pairs x 9 cells
    info: dict[str, Any] = {}
    _hint_numberlink(graph, None, info)
    assert "hint" not in info
    monkeypatch.setattr(flow_solve, "HINT_SIZE", 2 * graph.n_nodes)
    _hint_numberlink(graph, None, info)
    assert info["hint"] == NUMBERLINK_HINT
