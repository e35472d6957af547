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
    assert panel.generator.title() == "Generate a puzzle"  # a heading: no "…" as on a command
    before = view.doc.puzzle
    panel.generator.gen_width.setValue(6)
    panel.generator.gen_height.setValue(5)
    panel.generator.gen_grade.setCurrentText("medium")
    panel.generator.gen_seed.setValue(7)
    qtbot.mouseClick(panel.generator.generate_button, Qt.MouseButton.LeftButton)
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
    panel.generator.gen_width.setValue(30)
    panel.generator.gen_height.setValue(30)
    panel.generator.gen_grade.setCurrentText("expert")
    qtbot.mouseClick(panel.generator.generate_button, Qt.MouseButton.LeftButton)
    job = panel.generator.job
    qtbot.wait(300)
    assert not job.done  # a 30x30 expert puzzle takes longer than this
    start = time.monotonic()
    job.cancel()
    qtbot.waitUntil(lambda: job.done, timeout=20000)
    assert time.monotonic() - start < 15.0  # latency bound a loaded machine still meets
    qtbot.wait(100)
    assert view.doc.puzzle == before


def _generate_action(main_window):
    found = [a for a in main_window.puzzle_menu.actions() if a.text().replace("&", "") == "Generate…"]
    return found[0] if found else None


def test_puzzle_menu_generate_dialog_opens_a_unique_puzzle_untitled(main_window, qtbot, tmp_path) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    main_window.show_kind("flow")
    assert _generate_action(main_window) is None  # only a kind whose panel offers it
    view = main_window.show_kind("toichika")
    action = _generate_action(main_window)
    assert action is not None and action.isEnabled()
    before = view.doc.puzzle
    action.trigger()
    dialog = view.panel("Steps").generator.generate_dialog
    qtbot.waitExposed(dialog)
    dialog.grab().save(str(tmp_path / "generate_dialog.png"))
    dialog.width_box.setValue(6)
    dialog.height_box.setValue(5)
    dialog.grade_box.setCurrentText("medium")
    dialog.seed_box.setValue(7)
    dialog.symmetric_box.setChecked(True)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: view.doc.puzzle != before, timeout=30000)
    puzzle = view.doc.puzzle
    assert (puzzle.cols, puzzle.rows) == (6, 5)
    assert view.doc.path is None  # untitled
    assert len(list(iter_solutions(puzzle, limit=2))) == 1
    assert explain(puzzle).grade() == "medium"
    assert puzzle == generate(6, 5, "medium", seed=7, symmetric=True).puzzle
    g, n = puzzle.givens, puzzle.size
    assert all(bool(g[i]) == bool(g[n - 1 - i]) for i in range(n))


def test_generate_dialog_cancel_button_starts_nothing(main_window, qtbot) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    view = main_window.show_kind("toichika")
    panel = view.panel("Steps")
    _generate_action(main_window).trigger()
    dialog = panel.generator.generate_dialog
    qtbot.waitExposed(dialog)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and panel.generator.job is None


def test_generate_from_the_menu_cancels_with_esc(main_window, qtbot) -> None:
    import time

    from PySide6.QtWidgets import QDialogButtonBox

    view = main_window.show_kind("toichika")
    panel = view.panel("Steps")
    before = view.doc.puzzle
    _generate_action(main_window).trigger()
    dialog = panel.generator.generate_dialog
    dialog.width_box.setValue(30)
    dialog.height_box.setValue(30)
    dialog.grade_box.setCurrentText("extreme")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    job = panel.generator.job
    qtbot.wait(300)
    assert not job.done
    start = time.monotonic()
    main_window.act_cancel.trigger()  # Esc: Puzzle > Cancel Job
    qtbot.waitUntil(lambda: job.done, timeout=20000)
    assert time.monotonic() - start < 15.0  # latency bound a loaded machine still meets
    qtbot.wait(100)
    assert view.doc.puzzle == before


def test_generating_keeps_the_generate_button_in_place_and_the_dialog_title_whole(main_window, qtbot) -> None:
    """The progress row pushed the Generate button out of view; the dialog's title was cut (29.16)."""
    from widgets.panels.toichika import ToichikaPanel
    from widgets.panels.toichika_generator import GenerateDialog

    main_window.resize(1024, 768)
    view = main_window.show_kind("toichika")
    panel = view.panel("Steps")
    assert isinstance(panel, ToichikaPanel)
    view.side.setCurrentIndex(view.side.indexOf(panel.parentWidget().parentWidget()))
    qtbot.waitUntil(lambda: not view.busy(), timeout=30_000)
    before = panel.generator.generate_button.mapTo(view, panel.generator.generate_button.rect().topLeft())
    view.progress.start("Generating a 8x8 medium puzzle")
    qtbot.wait(50)
    after = panel.generator.generate_button.mapTo(view, panel.generator.generate_button.rect().topLeft())
    view.progress.stop()
    assert after == before
    dialog = GenerateDialog(panel.generator)
    qtbot.addWidget(dialog)
    assert dialog.minimumWidth() >= dialog.fontMetrics().horizontalAdvance("Generate Toichika") + 150


def test_a_board_too_small_to_generate_is_said_before_any_question(main_window, qtbot) -> None:
    """QA: 2x2, 3x2 and 3x3 were offered; the app asked Save/Discard first, then failed after
    2,000 boards. Now it says so at once and asks nothing; the dialog's width is selected."""
    from PySide6.QtWidgets import QApplication

    from solvers.toichika.generate import too_small

    view = main_window.show_kind("toichika")
    panel = view.panel("Steps")
    asked: list[bool] = []
    view.confirm_replace = lambda: asked.append(True) or True
    said: list[str] = []
    view.status_message.connect(said.append)
    panel.generator.gen_width.setValue(3)
    panel.generator.gen_height.setValue(3)
    panel.generator.generate()
    assert not asked and panel.generator.job is None
    assert said[-1] == "Cannot generate: " + too_small(3, 3) and "too small" in said[-1]
    assert too_small(2, 5) == "" and too_small(4, 3) == ""
    dialog = panel.generator.open_generate_dialog()
    qtbot.keyClicks(dialog.width_box, "12")  # the caret sat before "3 cells": "12" made "13"
    assert dialog.width_box.value() == 12
    dialog.reject()
    QApplication.processEvents()


def test_the_panel_gives_up_after_its_time_cap_and_says_why(main_window, qtbot, monkeypatch) -> None:
    """QA: 8x8 expert and extreme ran for minutes with a bar that went backwards."""
    import widgets.panels.toichika_generator as generator_module

    monkeypatch.setattr(generator_module, "GUI_SECONDS", 0.3)
    view = main_window.show_kind("toichika")
    panel = view.panel("Steps")
    said: list[str] = []
    view.status_message.connect(said.append)
    before = view.doc.puzzle
    panel.generator.gen_width.setValue(8)
    panel.generator.gen_height.setValue(8)
    panel.generator.gen_grade.setCurrentText("extreme")
    panel.generator.generate()
    qtbot.waitUntil(
        lambda: any("no extreme 8x8 puzzle found in 0.3 s" in text for text in said), timeout=30000
    )
    assert view.doc.puzzle == before
