"""Generator: every puzzle is unique (SAT), explained to that solution, at the requested grade."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.toichika.explain import explain, masks_to_arrows
from solvers.toichika.generate import divide, generate, grade_level
from solvers.toichika.model import Toichika
from solvers.toichika.sat_solver import iter_solutions
from solvers.toichika.url_codec import decode_url

ROOT = Path(__file__).resolve().parents[2]


def _check(made, grade: str) -> None:
    puzzle = made.puzzle
    solutions = list(iter_solutions(puzzle, limit=2))
    assert solutions == [made.solution], "not unique, or not the hidden solution"
    ex = explain(puzzle)
    assert ex.solved and masks_to_arrows(ex.final) == made.solution
    assert ex.grade() == grade == made.grade
    assert 0 < made.givens < len(puzzle.regions)  # some givens went, and a puzzle has at least one


@pytest.mark.parametrize(
    ("size", "grade", "seed"),
    [(6, "easy", 1), (7, "medium", 2), (6, "hard", 3), (5, "easy", 4), (8, "medium", 5), (8, "very-hard", 6)],
)
def test_generated_puzzle_is_unique_explained_and_at_grade(size: int, grade: str, seed: int) -> None:
    made = generate(size, size, grade, seed=seed)
    _check(made, grade.replace("-", " "))
    assert (made.puzzle.rows, made.puzzle.cols) == (size, size)


def test_rectangular_board_keeps_width_and_height() -> None:
    made = generate(7, 4, "easy", seed=11)
    assert (made.puzzle.cols, made.puzzle.rows) == (7, 4)
    _check(made, "easy")


def test_same_seed_same_puzzle_other_seed_other_puzzle() -> None:
    a = generate(7, 6, "medium", seed=42)
    b = generate(7, 6, "medium", seed=42)
    c = generate(7, 6, "medium", seed=43)
    assert a.puzzle == b.puzzle and a.solution == b.solution and a.seed == 42
    assert c.puzzle != a.puzzle


def test_no_seed_reports_the_seed_that_reproduces_it() -> None:
    made = generate(6, 6, "easy")
    assert generate(6, 6, "easy", seed=made.seed).puzzle == made.puzzle


def test_division_has_no_single_cells_a_mix_of_sizes_and_even_count() -> None:
    import random

    for seed in range(20):
        labels = divide(10, 10, random.Random(seed))
        p = Toichika.from_labels(labels)
        sizes = [len(cells) for cells in p.regions]
        assert min(sizes) >= 2, f"seed {seed}: a 1-cell country"
        assert len(set(sizes)) >= 3, f"seed {seed}: sizes {sorted(sizes)} are not a mix"
        assert len(sizes) % 2 == 0


def test_singles_allowed_on_request() -> None:
    import random

    found = any(
        min(len(c) for c in Toichika.from_labels(divide(10, 10, random.Random(s), singles=True)).regions) == 1
        for s in range(30)
    )
    assert found


def test_symmetric_given_layout() -> None:
    made = generate(8, 8, "medium", seed=5, symmetric=True)
    _check(made, "medium")
    g, n = made.puzzle.givens, made.puzzle.size
    assert all(bool(g[i]) == bool(g[n - 1 - i]) for i in range(n))


def test_cancel_stops_the_generator() -> None:
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        generate(10, 10, "hard", seed=1, cancel=token)


def test_progress_is_reported() -> None:
    seen: list[dict] = []
    generate(6, 6, "easy", seed=2, progress=seen.append)
    assert seen and all("text" in p for p in seen)
    # QA: a bar filled per board ran backwards at each new board; how many boards it takes is
    # not known, so the row shows "busy" and the board's count in its text.
    assert not any("fraction" in p for p in seen) and seen[-1]["text"].startswith("board ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((1, 6, "easy"), "width must be between 2 and 30, got 1"),
        ((6, 31, "easy"), "height"),
        ((6, 6, "silly"), "unknown grade"),
    ],
)
def test_bad_arguments_are_input_errors(args: tuple, message: str) -> None:
    with pytest.raises(InputError, match=message):
        generate(*args, seed=1)


def test_a_time_cap_gives_up_with_a_message() -> None:
    """QA: 8x8 expert and extreme ran for minutes in the GUI; with ``max_seconds`` it says why."""
    with pytest.raises(InputError, match=r"no extreme 8x8 puzzle found in 0.5 s \(\d+ boards\); try again"):
        generate(8, 8, "extreme", seed=3, max_seconds=0.5)


def test_impossible_board_gives_up_with_a_message() -> None:
    with pytest.raises(InputError, match="no extreme 4x3 puzzle found in 5 boards"):
        generate(4, 3, "extreme", seed=1, max_attempts=5)
    # Under 10 cells none is ever found (2,000 boards each at every grade): said at once.
    with pytest.raises(InputError, match=r"a 3x3 board is too small: puzzles are made from 10 cells up"):
        generate(3, 3, "easy", seed=1)


def test_grade_names_accept_cli_spelling() -> None:
    assert grade_level("very-hard") == grade_level("very hard") == 4


def test_grade_ladder_places_the_group_techniques_below_trials() -> None:
    from solvers.toichika.generate import grade_names
    from solvers.toichika.techniques import BY_ID

    assert grade_names() == [
        "easy",
        "medium",
        "hard",
        "very-hard",
        "fiendish",
        "diabolical",
        "ferocious",
        "master",
        "expert",
        "extreme",
    ]
    assert grade_level("fiendish") == BY_ID["long-arrow"].level == 5
    assert grade_level("diabolical") == BY_ID["local-cases"].level == 6
    assert grade_level("ferocious") == BY_ID["partner-cases"].level == 7
    assert grade_level("master") == BY_ID["case-chain"].level == 8
    assert grade_level("expert") == BY_ID["trial"].level == 9


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "workbench", "toichika", "generate", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_cli_generate_json_and_url() -> None:
    run = _cli("6", "6", "--grade", "medium", "--seed", "9", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["grade"] == "medium" and out["seed"] == 9 and out["unique"] is True
    made = generate(6, 6, "medium", seed=9)
    assert decode_url(out["url"]) == made.puzzle
    assert out["givens"] == made.givens
    url = _cli("6", "6", "--grade", "medium", "--seed", "9", "--to", "url")
    assert url.stdout.strip() == out["url"]
    pzprv3 = _cli("6", "6", "--grade", "medium", "--seed", "9", "--to", "pzprv3")
    assert pzprv3.stdout.startswith("pzprv3\ntoichika\n6\n6\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("1", "6"), "argument W: must be between 2 and 30, got 1"),
        (("6", "40"), "argument H: must be between 2 and 30, got 40"),
        (("6", "6", "--grade", "silly"), "unknown grade 'silly'"),
        (("6", "6", "--seed", "-1"), "argument --seed"),
    ],
)
def test_cli_bad_arguments_one_line_exit_2(args: tuple[str, ...], message: str) -> None:
    run = _cli(*args)
    assert run.returncode == 2
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert not run.stdout


def test_cli_timeout_exit_3() -> None:
    run = _cli("30", "30", "--grade", "expert", "--timeout", "0.5")
    assert run.returncode == 3
    assert "timed out" in run.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("size", "grade"),
    [
        (10, "hard"),
        (12, "very-hard"),
        (15, "medium"),
        (8, "master"),  # "expert" (a trial) is rare since issue 31: none at 6x6 in 2000 boards
        (8, "ferocious"),
        (20, "hard"),
        (20, "very-hard"),
        (10, "fiendish"),
        (10, "diabolical"),
    ],
)
def test_bigger_generated_puzzles(size: int, grade: str) -> None:
    made = generate(size, size, grade, seed=size)
    _check(made, grade.replace("-", " "))


@pytest.mark.slow
@pytest.mark.parametrize("grade", ["easy", "hard", "very-hard", "master"])
def test_symmetric_at_every_grade(grade: str) -> None:
    made = generate(10, 10, grade, seed=3, symmetric=True)
    _check(made, grade.replace("-", " "))
    g, n = made.puzzle.givens, made.puzzle.size
    assert all(bool(g[i]) == bool(g[n - 1 - i]) for i in range(n))
