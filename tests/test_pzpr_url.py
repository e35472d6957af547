"""The puzzle type a puzz.link URL or pzprv3 text names, and which module claims it."""

from __future__ import annotations

import pytest

from solvers.common.pzpr_url import puzzle_type
from solvers.flow import PLUGIN as FLOW
from solvers.toichika import PLUGIN as TOICHIKA


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("https://puzz.link/p?numlin/5/5/1j2h3", "numlin"),
        ("  p?arukone_edit/e/5/5/x  ", "arukone"),
        ("numlin_play/5/5/1", "numlin"),
        ("http://pzv.jp/p.html?type=x&toichika/4/4/abc", "toichika"),
        ("puzz.link/p?toichika/4/4", "toichika"),
        ("pzprv3\nnumlin\n5\n5\n", "numlin"),
        ("pzprv3.1\r\ntoichika\r\n2\r\n", "toichika"),
        ("pzprv3/arukone/5/5/1 . /", "arukone"),
        ("ABC\nA.C", None),
        ("hello", None),
        ("", None),
        ("pzprv3", None),  # a board row of six letters
        ("https://puzz.link/p?１２/5/5", None),  # not a type name
        ("pzprv3\n\n", None),
        ("https://puzz.link/p?numlin%2F5%2F5%2F1j2h3", "numlin"),  # escaped by a chat program
        ("https://puzz.link/p?num\nlin/5/5/1j2h3\nm1h2j3", "numlin"),  # wrapped by a mail program
        ("https://puzz.link/p?numlin/5/5\nhello world", "numlin"),  # not wrapped: the first line
    ],
)
def test_puzzle_type(text: str, kind: str | None) -> None:
    assert puzzle_type(text) == kind


def test_each_module_claims_its_own_types_only() -> None:
    numlin, toichika = "https://puzz.link/p?numlin/5/5/1j", "pzprv3\ntoichika\n2\n2\n"
    assert FLOW.claims(numlin) and not FLOW.claims(toichika)
    assert TOICHIKA.claims(toichika) and not TOICHIKA.claims(numlin)
    assert not FLOW.claims("https://puzz.link/p?nurikabe/5/5/1j")


def test_flow_claims_exactly_the_types_its_reader_knows() -> None:
    from solvers.flow import pzpr  # the plug-in names them without importing the reader

    assert frozenset(pzpr.KINDS) == FLOW.pzpr_types
