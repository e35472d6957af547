"""A lone '#' line is a hole row on a one-column board and the old paths header elsewhere."""

from __future__ import annotations

from solvers.flow import PLUGIN
from solvers.flow.model import FlowPaths


def test_one_column_board_with_holes_reopens_with_and_without_pipes() -> None:
    puzzle = PLUGIN.parse("A\nA\n#\nB\n.\nB\n")
    for entries in (FlowPaths(), FlowPaths.from_dict({"A": [(0, 0), (1, 0)]})):
        text = PLUGIN.serialize_document(puzzle, entries)
        again, kept = PLUGIN.parse_document(text)
        assert again == puzzle, text
        assert (kept or FlowPaths()).items == entries.items


def test_old_documents_with_a_bare_paths_header_still_read() -> None:
    puzzle, paths = PLUGIN.parse_document("A.B\n...\nA.B\n#\nA 0,0 1,0 2,0\n")
    assert puzzle.rows == 3 and paths is not None
    assert dict(paths.items)["A"] == ((0, 0), (1, 0), (2, 0))


def test_colour_tool_on_a_hole_or_bridge_places_the_colour() -> None:
    # Found by the fuzz suite: clicking a colour on a hole asked the hole for its colour index.
    from solvers.common.protocol import EditEvent

    puzzle = PLUGIN.parse("A.#\n.+.\nA..\n")
    for cell in ((0, 2), (1, 1)):
        result = PLUGIN.edit(puzzle, None, EditEvent("press", tool="c1", cell=cell, button="left"))
        assert result is not None and result.puzzle is not None
        assert result.puzzle.at(*cell) not in ("#", "+")
