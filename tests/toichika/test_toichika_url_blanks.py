"""A blank ends a URL: what follows is a remark or a second URL, said as such at its column (QA
pass 11 found it in Flow's reader; Toichika's said "invalid character ' '" and "expected
<cols>/<rows>/<body> after the puzzle id")."""

from __future__ import annotations

import pytest

from solvers.common.errors import ParseError
from solvers.toichika.plugin import PLUGIN
from solvers.toichika.url_codec import encode_url

URL = "https://puzz.link/p?toichika/4/4/n70kt84j"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"{URL} (a nice one)", "text after the URL (paste the URL alone)"),
        (f"{URL}\tfrom the forum", "text after the URL (paste the URL alone)"),
        (f"{URL} {URL}", "a second URL starts here: paste one URL at a time"),
        (f"{URL}  pzv.jp/p.html?toichika/4/4/n70kt84j", "a second URL starts here: paste one URL at a time"),
    ],
)
def test_text_after_a_url_is_named_at_its_column(text: str, message: str) -> None:
    with pytest.raises(ParseError) as err:
        PLUGIN.parse(text)
    tail = text[len(URL) :]
    column = len(URL) + len(tail) - len(tail.lstrip()) + 1  # the remark's first character
    assert err.value.message == message and (err.value.line, err.value.column) == (1, column)


def test_blanks_round_a_url_and_pzprv3_spaces_still_read() -> None:
    puzzle = PLUGIN.parse(URL)
    assert encode_url(PLUGIN.parse(f"  {URL}  \n")) == encode_url(puzzle) == URL
    in_url = "https://puzz.link/p?pzprv3/toichika/2/2/2/0 1 /0 1 /- . /. . /"  # its blanks are pzprv3's
    assert PLUGIN.parse(in_url).rows == 2


def test_columns_count_the_blanks_before_the_url() -> None:
    """Code review: the reader got the text stripped, so every column was two short here."""
    for text, bad in ((f"  {URL} (x)", "("), ("  https://puzz.link/p?toichika/4/4/n7?kt84j", "?k")):
        with pytest.raises(ParseError) as err:
            PLUGIN.parse(text)
        assert err.value.column == text.index(bad) + 1, (text, err.value)


def test_a_pzprv3_text_in_a_url_of_a_real_board_reads_and_places_its_errors() -> None:
    """Review: it went through the URL splitter, whose 16-part limit a board of 4+ rows passes
    ('more than 16 '/'-separated parts'), and its errors said 'line 3' of a one-line URL."""
    from pathlib import Path

    from solvers.toichika.pzprv3_codec import write_pzprv3

    sample = (
        Path(__file__).resolve().parents[2] / "assets" / "toichika" / "samples" / "a_6x6_first_steps.toichika"
    )
    puzzle, _ = PLUGIN.parse_document(sample.read_text(encoding="utf-8"))
    body = write_pzprv3(puzzle).strip().replace("\n", "/") + "/"
    for url in ("https://puzz.link/p?" + body, "https://puzz.link/p?" + body.replace(" ", "%20")):
        assert PLUGIN.parse(url) == puzzle
    for text, bad in (
        ("https://puzz.link/p?pzprv3/toichika/\u0662/2/", "\u0662"),  # an Arabic-Indic digit
        ("  https://puzz.link/p?pzprv3/toichika/2/2/2/0 1 /0 x /", "x"),
    ):
        with pytest.raises(ParseError) as err:
            PLUGIN.parse(text)
        assert (err.value.line, err.value.column) == (1, text.index(bad) + 1), err.value
