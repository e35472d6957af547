"""Public Numberlink and Arukone puzzles (puzz.link URLs from MIT-licensed repositories, see
data/public_numlin/README.md): parsed from their URLs, solved under each rule set with limit 2,
every answer checked by the independent checker, and the counts compared with the frontier sweep
(a different algorithm) where it finishes fast, and with the count the source states."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flow_checker import tokens, verify

from solvers.flow.frontier import count_solutions
from solvers.flow.plugin import PLUGIN

DATA = Path(__file__).parent / "data" / "public_numlin"
PUZZLES = json.loads((DATA / "puzzles.json").read_text(encoding="utf-8"))["puzzles"]
NOT_A_PUZZLE = (  # penpa-edit's parser test: numbers appear up to four times
    "https://puzz.link/p?numlin/10/10/j48315g977k512g2g48s3g66j6i22j55g9m76g49g93g1g188g4j7g44k3h"
)


@pytest.mark.parametrize("item", PUZZLES, ids=[p["url"].split("?")[1][:24] for p in PUZZLES])
def test_public_puzzle_verdicts(item: dict) -> None:
    puzzle = PLUGIN.parse(item["url"])
    counts: dict[str, int] = {}
    for rules, expected in item["verdicts"].items():
        info: dict[str, object] = {}
        found = list(PLUGIN.solve(puzzle, limit=2, rules=rules, info=info))
        assert info["verdict"] == expected, (rules, info["verdict"])
        for solution in found:
            spaced = " " in puzzle.row_strings()[0]  # numbers over 9: rows of tokens
            verify(
                tokens(puzzle.row_strings()) if spaced else puzzle.row_strings(),
                tokens(solution.grid) if spaced else solution.grid,
                solution.extras["paths"],
                designed=rules == "designed",
                numberlink=rules == "numberlink",
            )
        assert len({json.dumps(s.extras["paths"], sort_keys=True) for s in found}) == len(found)
        counts[rules] = len(found)
    for rules, count in {**item["frontier"], **item.get("source_says", {})}.items():
        assert counts[rules] == min(count, 2), rules
    for rules, count in item["frontier"].items():
        swept = count_solutions(puzzle, rules, limit=3)
        assert swept is not None and swept.complete and swept.count == count, rules


def test_designed_answers_hold_under_the_looser_rules() -> None:
    # A designed answer is a game-rules and a Numberlink answer: where the designed rules have one,
    # neither looser rule set may say "no solution" or name another single answer.
    for item in PUZZLES:
        puzzle = PLUGIN.parse(item["url"])
        designed = list(PLUGIN.solve(puzzle, limit=2, rules="designed"))
        for rules in ("strict", "numberlink"):
            found = list(PLUGIN.solve(puzzle, limit=2, rules=rules))
            if designed:
                assert found, (item["url"], rules)
            if len(found) == 1 and designed:
                assert found[0].extras["paths"] == designed[0].extras["paths"], (item["url"], rules)


def test_a_url_whose_numbers_repeat_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="number 1 has 4 endpoints, at R1C8, R2C10, R8C8 and R8C10"):
        PLUGIN.parse(NOT_A_PUZZLE)
