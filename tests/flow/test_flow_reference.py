"""All reference puzzles (../shared, tests only): solved, verified independently, uniqueness."""

from __future__ import annotations

from pathlib import Path

from flow_checker import verify

from solvers.common.cancel import CancelToken
from solvers.flow import PLUGIN
from solvers.flow.solve import solve

# Boards with a second solution under the strict game rules (each proven below by two distinct
# solutions that pass the independent checker). All others are unique under both rule sets.
STRICT_AMBIGUOUS = {"jumbo_13x13_26", "jumbo_14x14_01", "jumbo_14x14_19", "jumbo_14x14_30"}


def _files(shared_reference: Path) -> list[Path]:
    files = sorted((shared_reference / "flow" / "puzzles").glob("*.txt"))
    assert len(files) == 29
    return files


def _rows(path: Path) -> list[str]:
    return [ln for ln in path.read_text().replace("\r\n", "\n").split("\n") if ln]


def test_reference_designed_unique_and_verified(shared_reference: Path) -> None:
    for path in _files(shared_reference):
        puzzle = PLUGIN.parse(path.read_text())
        info: dict[str, object] = {}
        solutions = list(PLUGIN.solve(puzzle, limit=2, cancel=CancelToken(timeout=60), info=info))
        if path.stem == "unsolvable_cross":
            assert solutions == [] and info["rules"] == "strict", "falls back to strict, still none"
            continue
        assert info["rules"] == "designed", path.stem
        assert len(solutions) == 1, f"{path.stem}: published levels are unique under designed rules"
        solution = solutions[0]
        assert solution.extras["rules"] == "designed"
        verify(_rows(path), solution.grid, solution.extras["paths"], designed=True)
        assert PLUGIN.check_solution(puzzle, solution).ok


def test_unsolvable_cross_count_is_complete(shared_reference: Path) -> None:
    puzzle = PLUGIN.parse((shared_reference / "flow/puzzles/unsolvable_cross.txt").read_text())
    result = PLUGIN.count(puzzle, limit=2)
    assert (result.count, result.complete, result.status()) == (0, True, "no solution")


def test_reference_strict_uniqueness(shared_reference: Path) -> None:
    for path in _files(shared_reference):
        if path.stem == "unsolvable_cross":
            continue
        puzzle = PLUGIN.parse(path.read_text())
        solutions = list(solve(puzzle, limit=2, rules="strict", cancel=CancelToken(timeout=60)))
        for solution in solutions:
            verify(_rows(path), solution.grid, solution.extras["paths"])
        expected = 2 if path.stem in STRICT_AMBIGUOUS else 1
        assert len(solutions) == expected, path.stem
        if expected == 2:
            assert solutions[0].grid != solutions[1].grid or solutions[0].extras != solutions[1].extras
