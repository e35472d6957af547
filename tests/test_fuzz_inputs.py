"""Registry-wide fuzzing of every input path: parse, parse_document, round trips, check, draw, edit.

Inputs are generated (module alphabets plus hostile characters) or mutations of the bundled samples
and of each module's other formats: cut at a random point, bytes flipped, unicode digits (``²٣１``)
and huge numbers inserted, binary junk, CRLF, blank. The only exception any of it may raise is
``InputError`` (``ParseError`` is one). The CI run tries ``FAST`` examples per test and module
(about a minute in all); ``--runslow`` runs ``SLOW`` examples.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.common import registry
from solvers.common.errors import InputError
from solvers.common.limits import MAX_INPUT_BYTES
from solvers.common.protocol import EditEvent, PluginBase, read_text

PLUGINS = list(registry.plugins().values())
IDS = [p.meta.id for p in PLUGINS]
FAST = int(os.environ.get("FUZZ_EXAMPLES", "120"))
SLOW = 3000
TRIED: Counter[str] = Counter()  # inputs tried per module: each fuzz test checks it tried enough

# Other formats a module reads besides its sample files (URLs, codes, inline strings).
EXTRA_SEEDS: dict[str, list[str]] = {
    "toichika": [
        "https://puzz.link/p?toichika/4/4/jg2d0.j3a",
        "http://pzv.jp/p.html?toichika_edit/3/3/0g04",
        "pzprv3\ntoichika\n2\n2\n2\n0 0 \n1 1 \n1 . \n. . \n. . \n. . \n",
        "p?toichika/v:/2/2/001",
    ],
    "ninetiles": ["206745813361230035", "2F1 0B2 6F1\n7B3 4F0 5F0\n8F1 1B3 3F1", "........." * 2],
    "xcetero": [".../.../... 1", "1.2/.3./... 4", "132/.4./5.6 due 2 return rep=3", "123456... due=4"],
    "doves": ["b;B", "bB;T YA / green", "to move: red\n.b\nB.\nmoves: B^"],
    "flow": [
        "- - A\nA - -\n",
        "R.G\n...\nR.G\n# paths (row,column from 0, in drawing order)\nR 0,0 1,0 2,0\n",
        "shape: hex\nwalls: 1,1-1,2 2,2-3,2\nA.B.\n....\n.A.B\n",
        "warp rows: 2\nwarp columns: 1 3\nwalls: 1,2-2,2\nA...\n+.#.\nA..B\n..B.\n",
        "# type: hex\n# size: 3x2\n# fill: true\nab.\n.ab\n",
        "# spaced labels\nred . . blue\n. . + .\n. # . .\nblue . . red\n",
    ],
    "example": ["12\n21\n", "1.\n.1\n"],
}

HOSTILE = [
    "²",
    "٣",
    "１",
    "⁹",
    "-",
    "--1",
    "\x00",
    "\ufeff",
    "\r\n",
    "\r",
    "\n",
    " ",
    "\t",
    "#",
    "/",
    ";",
    "?",
]
HUGE = ["9" * 5000, "1" + "0" * 40, "-" + "9" * 4400, "²" * 30]


def _seeds(plugin: PluginBase) -> list[str]:
    seeds = [read_text(p) for p in plugin.sample_paths()]
    seeds += EXTRA_SEEDS.get(plugin.meta.id, [])
    puzzle = plugin.default_puzzle()
    seeds.append(plugin.serialize(puzzle))
    seeds.append(plugin.serialize_document(puzzle, plugin.empty_entries(puzzle)))
    return seeds


SEEDS = {p.meta.id: _seeds(p) for p in PLUGINS}


@st.composite
def _mutated(draw: st.DrawFn, seeds: list[str]) -> str:
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(
            st.sampled_from(["cut", "flip", "insert", "huge", "junk", "delete", "line", "crlf", "empty"])
        )
        at = draw(st.integers(0, len(text)))
        if op == "cut":
            text = text[:at]
        elif op == "flip" and text:
            at = min(at, len(text) - 1)
            text = text[:at] + chr(ord(text[at]) ^ (1 << draw(st.integers(0, 7)))) + text[at + 1 :]
        elif op == "insert":
            text = text[:at] + draw(st.sampled_from(HOSTILE)) + text[at:]
        elif op == "huge":
            text = text[:at] + draw(st.sampled_from(HUGE)) + text[at:]
        elif op == "junk":
            junk = draw(st.binary(min_size=1, max_size=24)).decode("latin-1")
            text = text[:at] + junk + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
        elif op == "line":  # duplicate or drop a whole line
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines[k : k + 1] = [] if draw(st.booleans()) else [lines[k], lines[k]]
            text = "\n".join(lines)
        elif op == "crlf":
            text = text.replace("\n", "\r\n")
        elif op == "empty":
            text = draw(st.sampled_from(["", "\n", " \n\n", "\ufeff"]))
    return text


def _inputs(plugin: PluginBase) -> st.SearchStrategy[str]:
    seeds = SEEDS[plugin.meta.id]
    alphabet = sorted(set("".join(seeds)) | set("".join(HOSTILE)) | set("0123456789"))
    generated = st.text(alphabet=st.sampled_from(alphabet), max_size=200)
    return st.one_of(_mutated(seeds), generated)


def _exercise_puzzle(plugin: PluginBase, puzzle: Any, entries: Any, edited: bool = False) -> None:
    """Everything the shell does with a freshly read puzzle must work (or raise InputError).

    An ``edited`` puzzle may be one the parser refuses (Flow: a colour with one endpoint while
    the setter is still placing them); it must still save, and the saved document must reopen.
    """
    text = plugin.serialize(puzzle)
    if edited:
        try:
            plugin.parse(text)
        except InputError:
            TRIED[f"{plugin.meta.id} edit: unfinished puzzle"] += 1
            # An unfinished puzzle is no puzzle to solve, but a saved document must reopen as it was.
            doc = plugin.serialize_document(puzzle, entries)
            assert plugin.parse_document(doc)[0] == puzzle, "a saved unfinished document does not reopen"
            plugin.check(puzzle, entries)
            plugin.draw(puzzle, entries=entries)
            return
    again = plugin.parse(text)
    assert again == puzzle, "parse(serialize(p)) != p"
    assert plugin.serialize(again) == text
    doc = plugin.serialize_document(puzzle, entries)
    puzzle2, entries2 = plugin.parse_document(doc)
    assert puzzle2 == puzzle, "document round trip changed the puzzle"
    assert plugin.serialize_document(puzzle2, entries2) == doc, "document round trip changed the entries"
    plugin.check(puzzle, entries)
    plugin.describe(puzzle)
    plugin.size_of(puzzle)
    plugin.draw(puzzle, entries=entries)


def _fuzz_once(plugin: PluginBase, text: str) -> None:
    TRIED[plugin.meta.id] += 1
    plugin.looks_like_inline(text)
    try:
        puzzle = plugin.parse(text)
    except InputError as exc:
        assert str(exc), "an InputError must say what is wrong"
        assert len(str(exc)) < 400, "messages stay one short line even for huge input"
    else:
        _exercise_puzzle(plugin, puzzle, plugin.empty_entries(puzzle))
    try:
        puzzle, entries = plugin.parse_document(text)
    except InputError:
        return
    if entries is None:
        entries = plugin.empty_entries(puzzle)
    _exercise_puzzle(plugin, puzzle, entries, edited=True)  # a document may hold an unfinished puzzle


def _settings(n: int):  # noqa: ANN202 - hypothesis decorator
    return settings(
        max_examples=n,
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )


@pytest.mark.parametrize("plugin", PLUGINS, ids=IDS)
def test_fuzz_parsers(plugin: PluginBase) -> None:
    @_settings(FAST)
    @given(text=_inputs(plugin))
    def run(text: str) -> None:
        _fuzz_once(plugin, text)

    before = TRIED[plugin.meta.id]
    run()
    # The run really tried inputs (a broken strategy would pass while testing nothing).
    assert TRIED[plugin.meta.id] - before >= FAST // 2, dict(TRIED)


@pytest.mark.slow
@pytest.mark.parametrize("plugin", PLUGINS, ids=IDS)
def test_fuzz_parsers_exhaustive(plugin: PluginBase) -> None:
    @_settings(SLOW)
    @given(text=_inputs(plugin))
    def run(text: str) -> None:
        _fuzz_once(plugin, text)

    run()


# ---- editing ------------------------------------------------------------------------------------
KEYS = ["Up", "Down", "Left", "Right", "Delete", "Backspace", "Space", "Escape", "Return", "Tab", "Home"]
KEYS += list("0123456789AaBbRrFfGgQq?^v<>.+-") + ["²", "٣", "１", ""]
MODIFIERS = ["shift", "ctrl", "alt"]


@st.composite
def _event(draw: st.DrawFn, plugin: PluginBase, puzzle: Any) -> EditEvent:
    tools = plugin.tools(puzzle)
    dl = plugin.draw(puzzle)
    tool = draw(st.sampled_from([t.id for t in tools] + ["", "no-such-tool"]))
    x = draw(st.floats(-20, dl.width + 20, allow_nan=False))
    y = draw(st.floats(-20, dl.height + 20, allow_nan=False))
    cell = dl.grid.cell_at(x, y) if dl.grid is not None else None
    if draw(st.integers(0, 9)) == 0:  # what a stale view might send after a resize
        cell = (draw(st.integers(-2, 60)), draw(st.integers(-2, 60)))
    return EditEvent(
        kind=draw(st.sampled_from(["press", "drag", "release", "key", "wheel"])),
        tool=tool,
        mode=draw(st.sampled_from(["edit", "play"])),
        cell=cell,
        pos=(x, y),
        button=draw(st.sampled_from(["left", "right", "middle", ""])),
        key=draw(st.sampled_from(KEYS)),
        modifiers=frozenset(draw(st.lists(st.sampled_from(MODIFIERS), max_size=2))),
        delta=draw(st.integers(-3, 3)),
    )


def _edit_session(shared: PluginBase, data: st.DataObject) -> None:
    plugin = type(shared)()  # editors keep drag state: a fresh one per session keeps replays exact
    samples = plugin.samples() or [("new", plugin.new_puzzle())]
    _, puzzle = data.draw(st.sampled_from(samples))
    entries = plugin.empty_entries(puzzle)
    for _ in range(data.draw(st.integers(1, 25))):
        TRIED[f"{plugin.meta.id} edit"] += 1
        event = data.draw(_event(plugin, puzzle))
        try:
            result = plugin.edit(puzzle, entries, event)
        except InputError:
            continue
        if result is None:
            continue
        if result.puzzle is not None:
            puzzle = result.puzzle
            entries = plugin.adapt_entries(puzzle, entries) if result.entries is None else result.entries
        elif result.entries is not None:
            entries = result.entries
        _exercise_puzzle(plugin, puzzle, entries, edited=True)


@pytest.mark.parametrize("plugin", PLUGINS, ids=IDS)
def test_fuzz_editing(plugin: PluginBase) -> None:
    @_settings(FAST // 3)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        _edit_session(plugin, data)

    before = TRIED[f"{plugin.meta.id} edit"]
    run()
    assert TRIED[f"{plugin.meta.id} edit"] - before >= FAST // 3, dict(TRIED)


@pytest.mark.slow
@pytest.mark.parametrize("plugin", PLUGINS, ids=IDS)
def test_fuzz_editing_exhaustive(plugin: PluginBase) -> None:
    @_settings(SLOW // 3)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        _edit_session(plugin, data)

    run()


# ---- big inputs: the cap keeps every parser fast and small -------------------------------------
def _big_inputs(plugin: PluginBase) -> list[str]:
    sample = SEEDS[plugin.meta.id][0]
    n = MAX_INPUT_BYTES
    return [
        "A" * n,  # one enormous line
        "\n" * n,  # a million blank lines
        ("." * 7 + "\n") * (n // 8),  # many short rows
        ". " * (n // 2),  # an enormous spaced row
        ";" * n,  # separators only
        "9" * n,  # one enormous number
        (sample * (n // max(len(sample), 1) + 1))[:n],  # the sample over and over
    ]


@pytest.mark.parametrize("plugin", PLUGINS, ids=IDS)
def test_inputs_at_the_cap_are_refused_quickly(plugin: PluginBase) -> None:
    for text in _big_inputs(plugin):
        start = time.process_time()  # CPU time: the cost of parsing, whatever else the machine does
        try:
            plugin.parse_document(text)
        except InputError:
            pass
        took = time.process_time() - start
        assert took < 2.0, f"{plugin.meta.id}: {took:.1f} CPU s on {text[:20]!r}..."
