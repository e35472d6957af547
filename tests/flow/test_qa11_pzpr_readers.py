"""QA pass 11: puzz.link URLs and pzprv3 files that pzprjs itself reads, read here too.

* ``pzprxs.vercel.app/p?numlin/...`` copied without its scheme was taken for a file name
  ("no such file"; pasted in the window: "unknown character '/'"), while ``puzz.link/p?...`` and
  ``www.pzv.jp/p.html?...`` were read.
* pzprjs's own Arukone check cases write ``allowempty`` where its current files say
  ``dontpassallcell``; pzprjs reads every word but ``passallcell`` as "cells may stay empty". Such a
  file was refused ("expected passallcell or dontpassallcell, got 'allowempty'").
"""

from __future__ import annotations

import json

from solvers.common.pzpr_url import puzzle_type
from solvers.flow import PLUGIN
from solvers.flow.model import FLOW_RULES, NUMBERLINK
from workbench.cli import main

BODY = "numlin/5/5/1j2h3m1h2j3"

# pzprjs test/script/arukone.js, its 'brNoLine' case (MIT licence, see public_numlin/README.md).
ALLOWEMPTY = (
    "pzprv3/arukone/5/5/allowempty/A . . . . /. . . B . /. C . C . /. A . . . /. . . . B /"
    "0 0 0 0 /0 0 0 0 /0 0 0 0 /0 0 0 0 /0 0 0 0 /0 0 0 0 0 /0 0 0 0 0 /0 0 0 0 0 /0 0 0 0 0 /"
)


def test_vercel_host_without_scheme_is_a_url(capsys) -> None:
    for text in (
        f"pzprxs.vercel.app/p?{BODY}",
        f"PZPRXS.vercel.app/p?{BODY}",
        f"pzprxs.vercel.app/p.html?{BODY}",
    ):
        puzzle = PLUGIN.parse(text)
        assert (puzzle.rows, puzzle.cols, puzzle.rules) == (5, 5, NUMBERLINK)
        assert puzzle_type(text) == "numlin"
    assert main(["solve", "flow", f"pzprxs.vercel.app/p?{BODY}", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "unique (Numberlink rules)"


def test_vercel_host_damaged_url_gets_the_url_reader_error(capsys) -> None:
    assert main(["solve", "flow", "pzprxs.vercel.app/p?numlin/5/5/1j2h3m1h2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "truncated" in err[0] and "no such file" not in err[0]


def test_arukone_allowempty_reads_as_dontpassallcell(capsys) -> None:
    puzzle = PLUGIN.parse(ALLOWEMPTY)
    assert puzzle.rules == NUMBERLINK
    lines = ALLOWEMPTY.replace("/", "\n")
    assert PLUGIN.parse(lines.replace("allowempty", "dontpassallcell")) == puzzle
    assert PLUGIN.parse(lines.replace("allowempty", "passallcell")).rules == FLOW_RULES
    assert main(["solve", "flow", ALLOWEMPTY, "--json"]) == 0  # cells may stay empty: A has detours
    assert json.loads(capsys.readouterr().out)["verdict"] == "2+ solutions (Numberlink rules)"


def test_arukone_unknown_mode_is_still_refused(capsys) -> None:
    bad = ALLOWEMPTY.replace("allowempty", "sometimes")
    assert main(["solve", "flow", bad]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'sometimes'" in err[0] and "column 20" in err[0]
