"""The doves readers stay linear on long runs of blanks (issue 26: a backtracking pattern held the
GIL for 53 s on one 100k-tab line elsewhere). Every field of a .doves file, the board string, SSN,
the side and the rule options get 100k blanks before junk; CPU time is measured (not wall time)."""

from __future__ import annotations

import time

import pytest

from solvers.common.errors import InputError
from solvers.doves.model import START, parse_board, parse_side
from solvers.doves.plugin import DovesPlugin
from solvers.doves.rules import Rules, from_ssn

PLUGIN = DovesPlugin()
RUNS = ["\t" * 100_000, " " * 100_000, "\t \u3000\u00a0" * 25_000]
LINES = [
    "rules:{b}x",
    "rules: remove=no{b}x",
    "rules: doves={b}x",
    "moves:{b}x",
    "moves: BW1{b}x",
    "moves: +A{b}S1",
    "to move:{b}x",
    "to move: red{b}",
    "{b}x",
    "#{b}x",
    "rules{b}:x",
    "x{b}:",
]


@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    PLUGIN.parse_document("b\nB\nmoves: BW1\n")  # the move generator's first call loads numba


@pytest.mark.parametrize("run", RUNS, ids=["tabs", "spaces", "mixed"])
def test_document_lines_with_long_blank_runs_parse_in_linear_time(run: str) -> None:
    for line in LINES:
        text = line.format(b=run)
        for doc in (f"to move: red\nb\nB\n{text}\n", f"{text}\nb\nB\n", f"b\nB\n{text}\n"):
            clock = time.process_time()
            try:
                PLUGIN.parse_document(doc)
            except InputError:
                pass  # refused in one line is fine; only the time matters here
            assert time.process_time() - clock < 0.5, line


@pytest.mark.parametrize("run", RUNS, ids=["tabs", "spaces", "mixed"])
def test_ssn_board_side_and_rules_with_long_blank_runs(run: str) -> None:
    for text in (run + "x", "+A" + run + "x", "B" + run, run + "BW1" + run + "x", "remove=no" + run + "x"):
        clock = time.process_time()
        for read in (
            lambda t: from_ssn(START, t),
            parse_board,
            parse_side,
            Rules.from_text,
        ):
            try:
                read(text)
            except InputError:
                pass
        assert time.process_time() - clock < 0.5, repr(text[:12])
