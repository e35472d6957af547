"""A screenshot of this program's own window, read back by the screenshot importer.

A user who solves a board here and shares a screenshot of the window (toolbars, the solution list,
its thumbnail) should get the board back. Before: the whole window was refused as "more than one
board" (the solution list's frame is a line box of half the board's size), and at 1024x768 the
20x12 sample's answer, drawn with 8 px pipes, was read as a 40x24 grid (the pipes passed for grid
lines)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QBuffer, QIODevice

from solvers.common.protocol import read_text
from solvers.flow import PLUGIN
from solvers.flow.screenshot import check, decode, detect

pytestmark = pytest.mark.gui
SOLVE_TIMEOUT = 60_000  # ms: the solve runs in a worker process, slow to start on a busy machine


def _read_window(window):  # noqa: ANN202 - a Detection
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert window.grab().toImage().save(buffer, "PNG")
    return detect(decode(bytes(buffer.data()), "window.png"))


def _pairs(endpoints) -> set[frozenset]:
    return {frozenset(cells) for cells in endpoints.values()}


@pytest.mark.parametrize(
    ("scheme", "sample", "size"),
    [("light", "03-9x9", (1280, 800)), ("dark", "07-20x12", (1024, 768))],
)
def test_the_solved_window_reads_back_as_its_board(main_window, qtbot, scheme, sample, size) -> None:
    path = next(p for p in PLUGIN.sample_paths() if p.stem == sample)
    puzzle = PLUGIN.parse(read_text(path))
    main_window.set_scheme(scheme)
    main_window.show_kind("flow")
    assert main_window.files.open_path(str(path), "flow")
    main_window.resize(*size)
    view = main_window.current()
    view.solve(2)
    qtbot.waitUntil(lambda: not view.busy() and view.browser.model.rowCount() > 0, timeout=SOLVE_TIMEOUT)
    found = _read_window(main_window)
    assert (found.rows, found.cols) == (puzzle.rows, puzzle.cols)
    assert _pairs(found.endpoints) == _pairs(puzzle.endpoints())
    assert not found.walls and not found.holes
    assert check(found) == []


@pytest.mark.parametrize(("sample", "size"), [("06-14x14", (1024, 768)), ("03-9x9", (1024, 768))])
def test_the_keyboard_cursor_is_no_dot_and_no_pipe(main_window, qtbot, sample, size) -> None:
    """QA: the board's keyboard cursor (a dashed box in the accent colour just inside R1C1) read as
    part of the purple dot there (14x14: "the dot at R1C1 is much larger than the others",
    refused) and as pipes across that cell's edges (9x9: "pipes drawn across 2 cell edges were
    ignored" on a board without pipes)."""
    path = next(p for p in PLUGIN.sample_paths() if p.stem == sample)
    puzzle = PLUGIN.parse(read_text(path))
    main_window.show_kind("flow")
    assert main_window.files.open_path(str(path), "flow")
    main_window.resize(*size)
    view = main_window.current()
    main_window.activateWindow()
    view.board.setFocus()
    qtbot.waitUntil(lambda: view.board.hasFocus() and view.board.cursor_cell == (0, 0))
    found = _read_window(main_window)
    assert (found.rows, found.cols) == (puzzle.rows, puzzle.cols)
    assert _pairs(found.endpoints) == _pairs(puzzle.endpoints())
    assert found.warnings == ()
    assert check(found) == []
