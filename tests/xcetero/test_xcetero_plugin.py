"""X-ceter-O plug-in: the status line of a game document."""

from __future__ import annotations


def test_the_status_line_describes_the_position_after_the_played_moves() -> None:
    from solvers.common import registry
    from solvers.xcetero.plugin import Game

    plugin = registry.get("xcetero")
    start = plugin.default_puzzle()
    assert plugin.describe_document(start, Game()) == plugin.describe(start)
    assert plugin.describe_document(start, Game((0,))) == f"After 1 move: {plugin.describe(start.play(0))}"
    assert plugin.describe_document(start, Game((0, 0))) == "After 2 moves: move 2: piece 2 cannot go to R1C1"
