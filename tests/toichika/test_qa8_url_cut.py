"""QA pass 8: a Toichika URL whose cell section stops before the last cell was read with the rest
empty. pzprjs (and our writer) write a run for the empty cells at the end too, so such a URL was cut
short, e.g. by a chat program's line break, or has the wrong size: the arrows lost with it gave
another puzzle, and ``solve`` answered "at least 2 solutions" with exit 0. It is refused with the
column where the body ends, as Flow's numlin URLs are."""

from __future__ import annotations

import pytest

from solvers.common.errors import ParseError
from solvers.toichika.url_codec import decode_url, encode_url
from workbench.cli import main as workbench_main

SAMPLE = "https://puzz.link/p?toichika/6/6/uiburcbvbdd5o15164e"  # a_6x6_first_steps


def test_the_whole_url_reads_and_round_trips() -> None:
    assert encode_url(decode_url(SAMPLE)) == SAMPLE


@pytest.mark.parametrize("cut", [1, 2, 4, 7])  # 1: only the last run of empty cells
def test_a_url_cut_inside_its_cell_section_is_refused_at_its_end(cut: int) -> None:
    short = SAMPLE[:-cut]
    with pytest.raises(ParseError) as caught:
        decode_url(short)
    assert caught.value.line == 1 and caught.value.column == len(short) + 1
    assert "URL body is truncated: it describes" in caught.value.message
    assert "of the 36 cells of a 6x6 board" in caught.value.message


def test_a_url_with_a_larger_size_is_refused() -> None:
    # 6x7: the border section still fits, the cells stop short of the larger board
    with pytest.raises(ParseError, match="describes .* of the 42 cells of a 6x7 board"):
        decode_url(SAMPLE.replace("/6/6/", "/6/7/"))


def test_solve_says_so_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert workbench_main(["solve", "toichika", SAMPLE[:-4]]) == 2
    err = capsys.readouterr().err
    assert "URL body is truncated" in err and f"column {len(SAMPLE) - 3}:" in err
