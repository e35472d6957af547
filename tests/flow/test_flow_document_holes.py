"""A lone '#' line is a hole row on a one-column board and the old paths header elsewhere."""

from __future__ import annotations

from solvers.flow import PLUGIN


def test_a_row_that_is_only_a_hole_is_refused_with_its_line() -> None:
    # It would read back as the old paths header; the parser says so instead of misreading it.
    import pytest

    from solvers.common.errors import InputError

    with pytest.raises(InputError):
        PLUGIN.parse("A\nA\n#\nB\n.\nB\n")


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
