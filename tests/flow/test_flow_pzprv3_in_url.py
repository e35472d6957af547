"""A pzprv3 text in a URL's query (``p?pzprv3/numlin/...``), as pzprjs and our Toichika reader read
it: Flow refused it ("more than 16 '/'-separated parts"), and once a blank ended a URL (QA pass 11)
it would have said "text after the URL"."""

from __future__ import annotations

import pytest

from solvers.common.errors import ParseError
from solvers.flow import pzpr
from solvers.flow.plugin import PLUGIN

CLUES = "1 . . . . /2 . . 3 . /. . . . . /. 1 . . 2 /. . . . 3 /"
LINES = "1 1 0 0 /0 0 0 0 /0 0 0 0 /0 0 1 1 /0 0 0 0 /0 0 1 0 0 /0 0 1 0 0 /0 0 1 0 0 /0 0 0 0 0 /"


def test_a_pzprv3_query_reads_as_the_file_does_with_its_lines() -> None:
    file_form = f"pzprv3/numlin/5/5/{CLUES}{LINES}"
    for host in ("https://puzz.link/p?", "  http://pzv.jp/p.html?"):
        url = host + file_form
        assert PLUGIN.parse(url) == PLUGIN.parse(file_form)
        assert PLUGIN.parse_document(url) == pzpr.read_pzprv3(file_form)
        assert PLUGIN.parse(url).rules == "numberlink"
    # its lines are read: pzprjs's nmConnDiff drawing is one broken pipe
    assert not PLUGIN.check(*PLUGIN.parse_document("https://puzz.link/p?" + file_form)).ok


def test_an_error_in_it_is_placed_in_the_url_as_given() -> None:
    url = "  https://puzz.link/p?pzprv3/numlin/5/5/" + CLUES.replace("3 . /", "x . /", 1)
    with pytest.raises(ParseError) as err:
        PLUGIN.parse(url)
    assert (err.value.line, err.value.column) == (1, url.index("x") + 1) and "'x'" in err.value.message


def test_other_urls_with_blanks_are_still_refused() -> None:
    with pytest.raises(ParseError, match="text after the URL"):
        PLUGIN.parse("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3 pzprv3/numlin")


def test_escaped_forms_read_and_the_type_is_told_for_routing() -> None:
    """Browsers copy its blanks as %20, chat programs '/' as %2F (code review); the paste routing
    asks ``puzzle_type``, which said 'pzprv3' for it, so a damaged one was 'not a Flow puzzle'."""
    from solvers.common.pzpr_url import puzzle_type

    plain = PLUGIN.parse(f"pzprv3/numlin/5/5/{CLUES}")
    for url in (
        "https://puzz.link/p?pzprv3/numlin/5/5/" + CLUES.replace(" ", "%20"),
        "https://puzz.link/p?pzprv3%2Fnumlin%2F5%2F5%2F" + CLUES.replace("/", "%2F"),
    ):
        assert PLUGIN.parse(url) == plain
    assert puzzle_type("https://puzz.link/p?pzprv3/numlin/5/5/" + CLUES) == "numlin"
    assert puzzle_type("https://puzz.link/p?pzprv3/arukone/5/5/") == "arukone"
    assert puzzle_type("https://puzz.link/p?pzprv3") is None


def test_a_blank_right_after_the_question_mark_is_named_as_such() -> None:
    from solvers.toichika.plugin import PLUGIN as TOICHIKA

    for plugin, url in (
        (PLUGIN, "https://puzz.link/p? numlin/5/5/1j2h3m1h2j3"),
        (TOICHIKA, "https://puzz.link/p? toichika/4/4/n70kt84j"),
    ):
        with pytest.raises(ParseError) as err:
            plugin.parse(url)
        assert "right after '?'" in err.value.message and err.value.column == url.index("?") + 2
