"""The line under the board: what the board shows, in words (a pure function of the view's state)."""

from __future__ import annotations

from typing import Any

from solvers.common.protocol import GAME, PluginBase, Solution
from solvers.common.words import check_text


def describe_board(
    plugin: PluginBase,
    puzzle: Any,
    entries: Any,
    mode: str,
    solution: Solution | None,
    overlay_text: str,
    row: int | None = None,
) -> str:
    """The editor's puzzle, a solution or preview, a panel's own view, or the player's progress.

    ``row`` is the shown solution's place in the solution list (0-based), if it is from there."""
    if overlay_text:  # a panel shows something else on the board (a step, a preview)
        return overlay_text
    if solution is not None:
        # A caption may have several lines (Nine Tiles: code, then scores): one line here.
        name = " · ".join(part.strip() for part in solution.label.splitlines() if part.strip())
        name = name or "solution"
        if isinstance(solution.data, type(puzzle)):  # a whole board (preview, best town)
            return f"Showing {name} — {plugin.describe(solution.data)}"
        if row is not None and not name.lower().startswith("solution"):
            # A label that only qualifies the answer (Flow's is its rule set): "Showing Numberlink
            # rules" read as if the board showed the rules.
            return f"Showing solution {row + 1} ({name}; F7 shows the puzzle) — {plugin.describe(puzzle)}"
        return f"Showing {name} (F7 shows the puzzle) — {plugin.describe(puzzle)}"
    if GAME in plugin.meta.capabilities:  # the game's own wording: moves played, rules
        return plugin.describe_document(puzzle, entries)
    text = plugin.describe(puzzle)
    if mode != "play":
        return text
    if entries == plugin.empty_entries(puzzle):
        return f"Play: {text}"
    try:
        return f"Play: {check_text(plugin.check(puzzle, entries))}"
    except Exception:  # a checker bug must not hide the board
        return f"Play: {text}"
