"""Every text reader stays linear on long runs of blanks (issue 26, item 4).

A pattern such as ``\\s*:\\s*(.*?)\\s*$`` backtracks quadratically: one line ``# fill: t`` followed by
100k tabs and ``x`` held the GIL for 53 s. Here each reader gets runs of 100k+ spaces or tabs in every
position of its formats (before and after a directive name, before a value, between tokens, trailing,
before garbage) and must read or refuse each text in well under a second of CPU time. CPU time, not
wall-clock: a busy machine must not make it flake, and the bound is far above the linear cost
(milliseconds) and far below the quadratic one (tens of seconds).

Doves is left out here: its reader is another change's work (its own tests cover it).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from solvers.common.errors import InputError, ParseError
from solvers.common.registry import get as get_plugin

RUN = 100_000
CPU_BOUND = 1.0  # seconds of CPU per read; a linear read of these texts takes a few milliseconds


def _blank_runs(text: str) -> Iterator[str]:
    """``text`` with one long blank run put in each kind of place, one place at a time, and with
    every inner blank turned into a long run at once."""
    lines = text.split("\n")
    for blank in (" ", "\t"):
        run = blank * RUN
        for i, line in enumerate(lines):
            if not line:
                continue
            variants = [
                run + line,  # leading
                line + run,  # trailing
                line + run + "x",  # trailing, then garbage (the case)
                line + run + "x" + run,
            ]
            for k, ch in enumerate(line):
                if ch in " \t:=,#/" and k < 40:
                    variants.append(line[: k + 1] + run + line[k + 1 :])  # after a separator
                    variants.append(line[:k] + run + line[k:])  # before it
            if " " in line:
                variants.append(line.replace(" ", run[: RUN // max(1, line.count(" "))] or blank))
            for variant in variants:
                yield "\n".join([*lines[:i], variant, *lines[i + 1 :]])


def _crafted(lines: list[str]) -> Iterator[str]:
    """Single lines built around a directive or keyword, with runs in every gap."""
    for blank in (" ", "\t"):
        run = blank * RUN
        for line in lines:
            parts = line.split(" ")
            for k in range(len(parts) + 1):
                yield " ".join(parts[:k]) + run + " ".join(parts[k:])
                yield " ".join(parts[:k]) + run + "x" + run + " ".join(parts[k:])


def _read_quickly(read: Callable[[str], object], text: str) -> None:
    """Read or refuse ``text`` (one clear error) within the CPU bound."""
    started = time.process_time()
    try:
        read(text)
    except (ParseError, InputError):
        pass
    spent = time.process_time() - started
    assert spent < CPU_BOUND, f"{spent:.2f} s CPU reading {text[:60]!r}... ({len(text):,} characters)"


def _flow_texts() -> list[str]:
    plugin = get_plugin("flow")
    board = plugin.serialize(plugin.default_puzzle())
    return [
        board,
        "shape: hex\nwarp rows: 1 2\nwarp columns: 1\nwalls: 1,1-1,2 2,1-2,2\n" + board,
        "# type: square\n# fill: true\n# size: 5x5\n# a comment line\n" + board,
        "# type: hex\n# fill: false\n# size: 3x3\nR . B\n. . .\nR . B\n",
        board + "# paths (row,column from 0, in drawing order)\nR 0,0 1,0 2,0\n",
        "rules: numberlink\n 1  - 64\n -  -  -\n 1  - 64\n",
        "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3",
        "https://puzz.link/p?arukone/e/3/3/1g-34-1bg-1b1g-34",
        "pzprv3\nnumlin\n2\n3\n1 . 1 \n2 . 2 \n1 1 \n0 -1 \n0 0 0 \n",
        "pzprv3\narukone\n2\n2\ndontpassallcell\nA B \nA B \n0 \n0 \n1 1 \n",
    ]


def _sample_texts(plugin_id: str) -> list[str]:
    plugin = get_plugin(plugin_id)
    return [path.read_text(encoding="utf-8") for path in plugin.sample_paths()]


def _toichika_texts() -> list[str]:
    from solvers.toichika import pzprv3_codec, url_codec

    plugin = get_plugin("toichika")
    puzzle = plugin.default_puzzle()
    return [
        *_sample_texts("toichika"),
        url_codec.encode_url(puzzle),
        pzprv3_codec.write_pzprv3(puzzle),
        plugin.serialize_document(puzzle, (1,) + (0,) * (puzzle.rows * puzzle.cols - 1)),
    ]


_TEXTS: dict[str, Callable[[], list[str]]] = {
    "flow": _flow_texts,
    "toichika": _toichika_texts,
    "ninetiles": lambda: _sample_texts("ninetiles"),
    "xcetero": lambda: [*_sample_texts("xcetero"), ".1.\n...\n...\ndue 2\nmoves 5 9\n", ".1./.../... due=2"],
    "example": lambda: _sample_texts("example"),
}


_CRAFTED: dict[str, list[str]] = {
    "flow": [
        "# fill: t",
        "# type: hex",
        "# size: 5 x 5",
        "# crop: 1 2 3 4",
        "shape: hex",
        "warp rows: 1 1",
        "walls: 1,1-1,2",
        "# paths (row,column from 0, in drawing order)",
    ],
    "toichika": [
        "toichika",
        "answer",
        "pzprv3 toichika 6 6",
        "https://puzz.link/p?toichika/6/6/uiburcbvbdd5o15164e",
        "p?toichika_edit/6/6/uiburcbvbdd5o15164e",
    ],
    "ninetiles": ["206745813361230035", "# a comment"],
    "xcetero": ["due 2", "due= 2", "moves 5 9", "rep 2", "rep= 3", ".1. ... ..."],
    "example": [". 1 2", "1 . ."],
}


def _readers(plugin_id: str) -> list[Callable[[str], object]]:
    plugin = get_plugin(plugin_id)
    return [plugin.parse, plugin.parse_document]


@pytest.mark.parametrize("plugin_id", sorted(_TEXTS))
def test_blank_runs_in_every_position_read_in_linear_time(plugin_id: str) -> None:
    readers = _readers(plugin_id)
    for text in _TEXTS[plugin_id]():
        for mutated in _blank_runs(text):
            for read in readers:
                _read_quickly(read, mutated)


@pytest.mark.parametrize("plugin_id", sorted(_CRAFTED))
def test_crafted_lines_with_blank_runs_read_in_linear_time(plugin_id: str) -> None:
    readers = _readers(plugin_id)
    board = get_plugin(plugin_id).serialize(get_plugin(plugin_id).default_puzzle())
    for line in _crafted(_CRAFTED[plugin_id]):
        for text in (line, line + "\n" + board, board + line):
            for read in readers:
                _read_quickly(read, text)
