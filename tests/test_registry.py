"""Registry-wide tests: every plug-in enrols here automatically (pzprjs style)."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.common import registry
from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError, ParseError
from solvers.common.protocol import SOLVE

PLUGINS = list(registry.plugins().values())
IDS = [p.meta.id for p in PLUGINS]


def test_registry_lists_modules() -> None:
    assert "example" in registry.plugins()
    assert registry.get("latin") is registry.get("example")
    with pytest.raises(InputError, match="unknown kind"):
        registry.get("nonesuch")


@pytest.mark.parametrize("plugin", PLUGINS, ids=IDS)
def test_samples_round_trip(plugin) -> None:
    paths = plugin.sample_paths()
    assert paths, f"{plugin.meta.id} ships no sample in assets/{plugin.meta.id}/samples"
    for name, puzzle in plugin.samples():
        text = plugin.serialize(puzzle)
        again = plugin.parse(text)
        assert plugin.serialize(again) == text, name
        assert again == puzzle, name


@pytest.mark.parametrize("plugin", PLUGINS, ids=IDS)
def test_display_lists_are_deterministic(plugin) -> None:
    puzzle = plugin.default_puzzle()
    first = plugin.draw(puzzle)
    second = plugin.draw(plugin.parse(plugin.serialize(puzzle)))
    assert first.signature() == second.signature()
    assert first.width > 0 and first.height > 0 and first.items


@pytest.mark.parametrize("plugin", PLUGINS, ids=IDS)
def test_sample_solutions_pass_the_checker(plugin) -> None:
    if SOLVE not in plugin.meta.capabilities:
        pytest.skip("no solver")
    for name, puzzle in plugin.samples():
        solutions = list(plugin.solve(puzzle, limit=2, cancel=CancelToken(timeout=60)))
        assert solutions, name
        for solution in solutions:
            result = plugin.check_solution(puzzle, solution)
            assert result.ok, (name, result.summary())
            plugin.draw(puzzle, solution)


@pytest.mark.parametrize("plugin", PLUGINS, ids=IDS)
def test_garbage_input_gives_parse_errors(plugin) -> None:
    for junk in ("", "\n\n", "@@@@", "\x00\x01", "9" * 300):
        with pytest.raises(InputError) as info:
            plugin.parse(junk)
        assert str(info.value), f"empty message for {junk!r}"


def test_limit_is_honoured() -> None:
    plugin = registry.get("example")
    empty = plugin.new_puzzle(4)
    assert len(list(plugin.solve(empty, limit=5))) == 5
    count = plugin.count(empty, limit=0)
    assert (count.count, count.complete) == (576, True)  # known number of 4x4 Latin squares
    assert plugin.count(empty, limit=2).status() == "at least 2 solutions (stopped at the limit)"
    unique = plugin.default_puzzle()
    assert plugin.count(unique).status() == "unique"


def test_cancel_stops_promptly() -> None:
    plugin = registry.get("example")
    token = CancelToken()
    threading.Timer(0.05, token.cancel).start()
    start = time.process_time()  # CPU time: the search stopped, however busy the machine
    with pytest.raises(Cancelled):
        for _ in plugin.solve(plugin.new_puzzle(9), limit=0, cancel=token):
            pass
    assert time.process_time() - start < 1.0


def test_parse_errors_name_the_location() -> None:
    plugin = registry.get("example")
    with pytest.raises(ParseError) as info:
        plugin.parse("12\n1x\n")
    assert (info.value.line, info.value.column) == (2, 2)
    assert "line 2, column 2" in str(info.value)


@pytest.mark.parametrize("plugin", PLUGINS, ids=IDS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    text=st.text(alphabet=st.sampled_from(list(".-#ABCRGYabc0123456789?^v<>| \n\r\t/:;_=&")), max_size=120)
)
def test_parser_never_crashes(plugin, text: str) -> None:
    """Random text either parses (and then round-trips) or raises a clean InputError."""
    try:
        puzzle = plugin.parse(text)
    except InputError:
        return
    assert plugin.parse(plugin.serialize(puzzle)) == puzzle


def test_cancel_survives_a_failing_hook() -> None:
    token = CancelToken()
    called = []

    def broken() -> None:
        raise NotImplementedError("no interrupt in this SAT back end")

    token.on_cancel(broken)
    token.on_cancel(lambda: called.append(True))
    token.cancel()
    assert token.cancelled and called == [True]
