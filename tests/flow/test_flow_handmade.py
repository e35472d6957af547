"""Hand-made-style Numberlink boards (issue 28, item 6): a fixed corpus under data/handmade/ (few
pairs, long winding paths, open areas; made by ``solvers/flow/handmade.py``, seed and call in each
file's header), solved under the designed and Numberlink rules, every answer checked by the
independent checker. Each file also holds its construction (``# answer`` lines), which is checked
on its own; where the header says an answer is unique, the solver must find exactly that one."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from flow_checker import verify

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.flow.handmade import handmade_board
from solvers.flow.plugin import PLUGIN

DATA = Path(__file__).parent / "data" / "handmade"
FILES = sorted(DATA.glob("*.txt"))
CPU_BUDGET = 60.0  # CPU seconds per board and rule set: ~40x what an idle machine needs
_EXPECT = re.compile(r"# expect designed=(\d+) numberlink=(\d+|\?)")
_CALL = re.compile(r"handmade_board\((\d+), (\d+), seed=(\d+)(?:, unique_under=\"(\w+)\")?\)")


class Corpus:
    """One corpus file, read by hand (not through the codec): board rows, construction, header."""

    def __init__(self, path: Path) -> None:
        lines = path.read_text(encoding="utf-8").splitlines()
        self.text = "\n".join(lines) + "\n"
        self.rows = [ln for ln in lines if ln and not ln.startswith("#")]
        self.answer = [ln[len("# answer ") :] for ln in lines if ln.startswith("# answer ")]
        header = "\n".join(ln for ln in lines if ln.startswith("#"))
        expect = _EXPECT.search(header)
        call = _CALL.search(header)
        assert expect and call and "seed" in header, f"{path.name}: header must name the seed and call"
        self.designed = int(expect.group(1))
        self.numberlink = None if expect.group(2) == "?" else int(expect.group(2))
        w, h, seed, unique = call.groups()
        self.call = (int(w), int(h), int(seed), unique)


def _walk(grid: list[str], rows: list[str]) -> dict[str, list[list[int]]]:
    """The construction's paths in order, walked from one endpoint through same-letter cells."""
    h, w = len(grid), len(grid[0])
    paths: dict[str, list[list[int]]] = {}
    ends: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                ends.setdefault(ch, []).append((r, c))
    for ch, (start, goal) in ends.items():
        path, prev = [start], None
        while path[-1] != goal:
            r, c = path[-1]
            step = [
                (y, x)
                for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= y < h and 0 <= x < w and grid[y][x] == ch and (y, x) != prev and (y, x) not in path
            ]
            assert len(step) == 1, f"construction of {ch} branches or breaks at {(r, c)}"
            prev = path[-1]
            path.append(step[0])
        paths[ch] = [list(cell) for cell in path]
    return paths


def _solve(text: str, rules: str, limit: int) -> list:
    puzzle = PLUGIN.parse(text)
    start = time.process_time()
    found = list(PLUGIN.solve(puzzle, limit=limit, rules=rules, cancel=CancelToken(timeout=600)))
    used = time.process_time() - start
    assert used < CPU_BUDGET, f"{rules}: {used:.1f} s CPU"
    return found


def test_the_corpus_spans_the_sizes_and_has_unique_boards() -> None:
    boards = [Corpus(f) for f in FILES]
    assert len(boards) == 12
    sides = [(len(b.rows[0]), len(b.rows)) for b in boards]
    assert min(sides) == (10, 10) and max(sides) == (20, 20)
    assert sum(b.numberlink == 1 for b in boards) >= 4  # a fraction unique, as published puzzles are
    for b in boards:  # few pairs: at least 12 cells per pair, none unique with more than 1 per 9
        pairs = sum(ch != "." for row in b.rows for ch in row) // 2
        assert pairs * (9 if b.numberlink == 1 else 12) <= len(b.rows) * len(b.rows[0])


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_construction_is_a_full_designed_answer(path: Path) -> None:
    board = Corpus(path)
    assert PLUGIN.parse(board.text).row_strings() == board.rows  # the codec reads what we read
    verify(board.rows, board.answer, _walk(board.answer, board.rows), designed=True)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_designed_and_numberlink_answers(path: Path) -> None:
    board = Corpus(path)
    found = _solve(board.text, "designed", 2)
    assert len(found) == board.designed
    for s in found:
        verify(board.rows, s.grid, s.extras["paths"], designed=True)
    if board.designed == 1:
        assert found[0].grid == board.answer
    # Numberlink: prove uniqueness where the header says so, else find and check one answer.
    found = _solve(board.text, "numberlink", 2 if board.numberlink is not None else 1)
    assert len(found) == (board.numberlink or 1)
    for s in found:
        verify(board.rows, s.grid, s.extras["paths"], numberlink=True)
    if board.numberlink == 1:
        assert found[0].grid == board.answer


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_game_rules_answers(path: Path) -> None:
    # Once issue 28.4's open speed problem (kept out of CI); canonical Numberlink answers now
    # decide the unique boards in under a second.
    board = Corpus(path)
    found = _solve(board.text, "strict", 2)
    assert found
    for s in found:
        verify(board.rows, s.grid, s.extras["paths"])
    if board.numberlink == 1:  # unique under Numberlink rules and filling: unique under the game rules
        assert len(found) == 1 and found[0].grid == board.answer


@pytest.mark.parametrize("path", [f for f in FILES if "unique" not in f.name], ids=lambda f: f.stem)
def test_recorded_seed_rebuilds_the_board(path: Path) -> None:
    # Only boards without the uniqueness step: splitting follows the solver's second answer,
    # which may change with the solver.
    board = Corpus(path)
    w, h, seed, unique = board.call
    assert unique is None
    made = handmade_board(w, h, seed)
    assert made.puzzle.row_strings() == board.rows


def test_generator_construction_and_uniqueness() -> None:
    made = handmade_board(11, 9, 7, unique_under="numberlink", cancel=CancelToken(timeout=600))
    rows = made.puzzle.row_strings()
    assert (made.puzzle.cols, made.puzzle.rows) == (11, 9)
    paths = {made.puzzle.at(*p[0]): [list(c) for c in p] for p in made.paths}
    grid = [["."] * 11 for _ in range(9)]
    for ch, cells in paths.items():
        for r, c in cells:
            grid[r][c] = ch
    verify(rows, ["".join(g) for g in grid], paths, designed=True)
    found = list(PLUGIN.solve(made.puzzle, limit=2, rules="numberlink"))
    assert len(found) == 1 and found[0].grid == ["".join(g) for g in grid]


@pytest.mark.parametrize(
    ("args", "words"),
    [((3, 10, 1), "4..100"), ((10, 10, 1), "unknown rule set")],
)
def test_generator_refuses_bad_input(args: tuple[int, int, int], words: str) -> None:
    unique = "fill" if words == "unknown rule set" else None
    with pytest.raises(InputError, match=words):
        handmade_board(*args, unique_under=unique)


def _bench():  # benchmarks/ is not a package: load the script as a module
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "flow_bench.py"
    spec = importlib.util.spec_from_file_location("flow_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_benchmark_reports_every_rule_set_per_size(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    argv = ["--numberlink", "--sizes", "8x6", "--seeds", "2", "--unique", "1", "--timeout", "0.5"]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert "issue 28 12x12" in out
    tail = out.split("== summary", 1)[1]
    summary = [ln.split() for ln in tail.splitlines() if ln.strip().startswith("8x6 ")]
    assert [row[2] for row in summary] == ["designed", "strict", "numberlink"]
    for row in summary:  # verdict count + no-verdict count = boards
        done, total = row[3].split("/")
        assert int(done) + int(row[4]) == int(total) == 2
    assert "WRONG" not in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--numberlink", "--sizes", "10x"], "bad size"),
        (["--numberlink", "--sizes", "2x10"], "4..100"),
        (["--numberlink", "--timeout", "0"], "positive"),
        (["--numberlink", "--seeds", "-1"], "--seeds must be at least 1"),
        (["--numberlink", "--unique", "-1"], "--unique must be 0 or more"),
    ],
)
def test_benchmark_refuses_bad_options(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        _bench().main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert words in err[-1] and "Traceback" not in "".join(err)


@pytest.mark.parametrize("name", ["hm_20x20_s0", "hm_20x20_s1"])
def test_numberlink_finds_a_second_answer_through_the_game_rules(name: str) -> None:
    """Every game-rules answer is a Numberlink answer: the game rules found a second one in 0.02 s
    on these boards where the Numberlink search found none in 15 s (issue 28.4's lead)."""
    board = Corpus(Path(__file__).parent / "data" / "handmade" / f"{name}.txt")
    start = time.process_time()
    found = _solve(board.text, "numberlink", 2)
    assert len(found) == 2 and found[0].grid != found[1].grid
    assert time.process_time() - start < 10  # was over 15 s for s1 (no second answer)
    for s in found:
        verify(board.rows, s.grid, s.extras["paths"], numberlink=True)
