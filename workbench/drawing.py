"""The one rule for what a picture of a document shows (board, Export, Copy Image, CLI export).

Qt-free so that the command line uses it without a display.
"""

from __future__ import annotations

from typing import Any

from solvers.common.display import DisplayList
from solvers.common.protocol import PluginBase, Solution


def document_drawing(
    plugin: PluginBase,
    puzzle: Any,
    entries: Any,
    solution: Solution | None = None,
    overlay: Any = None,
    ui: Any = None,
) -> DisplayList:
    """A shown solution replaces the player's entries (marks drawn over another answer would lie);
    otherwise the entries are drawn. ``overlay`` is what a panel asked to show (an analysis arrow,
    a highlighted road); the pointer's hover overlay is for the screen only and never passed here
    by Export or Copy Image. ``ui`` (the document's UI state) is for the screen too."""
    shown = None if solution is not None else entries
    return plugin.draw(puzzle, solution, shown, overlay, ui=ui)
