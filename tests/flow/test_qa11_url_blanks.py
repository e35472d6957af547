"""QA pass 11: a blank inside a puzz.link URL's query ends the URL. What follows is a remark or a
second URL pasted on the same line; it was read as more cells ("unexpected characters ' (a hard
one)' after the last cell of a 5x5 board (is the size right?)") or as more parts ("URL: expected
<cols>/<rows>/<body> after the puzzle type" at the width)."""

from __future__ import annotations

import pytest

from solvers.common.errors import ParseError
from solvers.flow import PLUGIN
from workbench.cli import main

URL = "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"


@pytest.mark.parametrize(
    "text, column, words",
    [
        (f"{URL} (a hard one)", 44, "text after the URL (paste the URL alone)"),
        (f"{URL}  great puzzle", 45, "text after the URL (paste the URL alone)"),
        (f"{URL} {URL}", 44, "a second URL starts here: paste one URL at a time"),
        (f"{URL}\t{URL}", 44, "a second URL starts here: paste one URL at a time"),
        (f"{URL} numlin/5/5/1j2h3m1h2j3", 44, "a second URL starts here: paste one URL at a time"),
        ("numlin%2F5%2F5%2F1j2h3m1h2j3 hi", 30, "text after the URL (paste the URL alone)"),
    ],
)
def test_a_blank_ends_the_url(text: str, column: int, words: str, capsys) -> None:
    with pytest.raises(ParseError) as info:
        PLUGIN.parse(text)
    assert (info.value.line, info.value.column, info.value.message) == (1, column, words)
    assert main(["solve", "flow", text]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"workbench: line 1, column {column}: {words}"]


def test_blanks_around_the_url_and_text_before_its_query_still_read() -> None:
    for text in (f"  {URL}  ", f"{URL}\n", f"see {URL}"):
        assert PLUGIN.parse(text) == PLUGIN.parse(URL)
