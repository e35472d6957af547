"""The Toichika panel's generator inside the real main window (pytest-qt)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from solvers.toichika.explain import explain
from solvers.toichika.generate import generate
from solvers.toichika.sat_solver import iter_solutions

pytestmark = pytest.mark.gui


def test_generate_button_opens_a_unique_puzzle_untitled(main_window, qtbot) -> None:
    from widgets.panels.toichika import ToichikaPanel

    view = main_window.show_kind("toichika")
    panel = view.panel("Steps")
    assert isinstance(panel, ToichikaPanel)
    before = view.doc.puzzle
    panel.gen_width.setValue(6)
    panel.gen_height.setValue(5)
    panel.gen_grade.setCurrentText("medium")
    panel.gen_seed.setValue(7)
    qtbot.mouseClick(panel.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.doc.puzzle != before, timeout=30000)
    puzzle = view.doc.puzzle
    assert (puzzle.cols, puzzle.rows) == (6, 5)
    assert view.doc.path is None  # untitled: Save must ask for a name
    assert len(list(iter_solutions(puzzle, limit=2))) == 1
    assert explain(puzzle).grade() == "medium"
    assert puzzle == generate(6, 5, "medium", seed=7).puzzle  # the seed box reproduces it


def test_generate_job_cancels_and_leaves_the_document_alone(main_window, qtbot) -> None:
    import time

    view = main_window.show_kind("toichika")
    panel = view.panel("Steps")
    before = view.doc.puzzle
    panel.gen_width.setValue(30)
    panel.gen_height.setValue(30)
    panel.gen_grade.setCurrentText("expert")
    qtbot.mouseClick(panel.generate_button, Qt.MouseButton.LeftButton)
    job = panel._generate_job
    qtbot.wait(300)
    assert not job.done  # a 30x30 expert puzzle takes longer than this
    start = time.monotonic()
    job.cancel()
    qtbot.waitUntil(lambda: job.done, timeout=5000)
    assert time.monotonic() - start < 3.0
    qtbot.wait(100)
    assert view.doc.puzzle == before
