"""One status rule: the line under the board describes what the board shows; job messages end with the job."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt

from solvers.common.cancel import CancelToken
from solvers.common.protocol import EditResult, Solution
from widgets.solution_browser import thumbnail_caption

pytestmark = pytest.mark.gui


def _wait_for_cancel(cancel: CancelToken, *_args: object) -> None:
    while not cancel.cancelled:
        time.sleep(0.01)
    cancel.raise_if_cancelled()


def test_cancel_job_is_enabled_only_while_a_job_runs(main_window, qtbot) -> None:
    view = main_window.show_kind("example")
    assert not main_window.act_cancel.isEnabled()
    view.doc.replace(view.plugin.new_puzzle(9), "blank 9x9")
    view.solve(0)
    assert main_window.act_cancel.isEnabled()
    with qtbot.waitSignal(view.solve_finished, timeout=5000):
        main_window.act_cancel.trigger()
    assert not main_window.act_cancel.isEnabled()


def test_solve_brings_the_solutions_tab_forward(main_window, qtbot) -> None:
    view = main_window.show_kind("example")
    view.side.setCurrentWidget(view.source_panel)
    with qtbot.waitSignal(view.solve_finished, timeout=20000):
        main_window.act_solve.trigger()
    assert view.side.currentWidget() is view.browser


def test_info_line_follows_the_shown_solution(main_window, qtbot) -> None:
    view = main_window.show_kind("example")
    editor_text = view.info.text()
    with qtbot.waitSignal(view.solve_finished, timeout=20000):
        view.solve(2)
    assert view.shown_solution() is not None
    assert view.info.text().startswith("Showing") and view.info.text() != editor_text
    main_window.act_hide.trigger()
    assert view.info.text() == editor_text


def test_an_invalid_puzzle_says_cannot_solve_and_the_message_ends_with_the_next_edit(
    main_window, qtbot
) -> None:
    view = main_window.show_kind("flow")
    valid = view.plugin.parse("R.R\n...\nG.G\n")
    view.doc.reset(valid.with_cell(0, 2, "."))  # one endpoint of R: no parser would accept it
    with qtbot.waitSignal(view.solve_finished, timeout=20000):
        view.solve(2)
    message = main_window.statusBar().currentMessage()
    assert message.startswith("Cannot solve:") and "Solver failed" not in message
    view.doc.replace(valid, "fix")
    assert main_window.statusBar().currentMessage() == ""


def test_a_cancelled_panel_job_takes_back_its_working_text(main_window, qtbot, monkeypatch) -> None:
    view = main_window.show_kind("flow")
    panel = view.panel("Flow")
    # On the class: an instance attribute would outlive the patch (the plug-in object must not
    # change: tests/test_architecture.py checks its vars()).
    monkeypatch.setattr(
        type(view.plugin), "count_rules", lambda _self, puzzle, rules, limit, cancel: _wait_for_cancel(cancel)
    )
    monkeypatch.setenv("PUZZLE_WORKBENCH_JOBS", "thread")  # the patch must reach the job body
    qtbot.mouseClick(panel.strict_button, Qt.MouseButton.LeftButton)
    assert "Counting" in panel.strict_label.text()
    qtbot.keyClick(main_window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: "Counting" not in panel.strict_label.text(), timeout=5000)
    assert "cancelled" in panel.strict_label.text()


def test_thumbnail_captions_number_once() -> None:
    assert thumbnail_caption(0, Solution([], label="Solution 1")) == "Solution 1"
    assert thumbnail_caption(2, Solution([])) == "Solution 3"
    assert thumbnail_caption(1, Solution([], label="Win in 7")) == "2. Win in 7"


def test_selected_thumbnail_is_not_washed_out(main_window, qtbot) -> None:
    from PySide6.QtGui import QIcon

    view = main_window.show_kind("example")
    with qtbot.waitSignal(view.solve_finished, timeout=20000):
        view.solve(2)
    model = view.browser.model
    qtbot.waitUntil(lambda: 0 in model._icons, timeout=5000)
    icon = model._icons[0]
    normal = icon.pixmap(64, 64, QIcon.Mode.Normal).toImage()
    selected = icon.pixmap(64, 64, QIcon.Mode.Selected).toImage()
    assert normal == selected


def test_play_line_says_broken_in_words_without_rule_codes(main_window, qtbot) -> None:
    view = main_window.show_kind("toichika")
    view.doc.reset(view.plugin.new_puzzle(2, 2))
    view.set_mode("play")
    view.board.setFocus()
    for cell in ((0, 0), (0, 1)):  # two arrows in the one country of a blank 2x2 grid
        view.board.cursor_cell = cell
        qtbot.keyClick(view.board, "1")
    text = view.info.text()
    assert text.startswith("Play: broken:") and "bkNumGe2" not in text
    main_window.act_check.trigger()
    message = main_window.statusBar().currentMessage()
    assert message.startswith("Check: broken:") and "bkNumGe2" not in message and "R1C1" in message


@pytest.mark.parametrize("kind", ["flow", "example"])
def test_a_verdict_without_solutions_ends_with_the_puzzle(main_window, qtbot, kind: str) -> None:
    """'No solution' must not survive opening another board (issue 29.6)."""
    view = main_window.show_kind(kind)
    unsolvable = {"flow": "AB\nBA\n", "example": "11.\n...\n...\n"}[kind]
    assert main_window.files.open_text(unsolvable, kind)
    with qtbot.waitSignal(view.solve_finished, timeout=20000):
        view.solve(2)
    assert view.browser.count() == 0
    assert "no solution" in view.browser.status.text().lower()
    assert main_window.files.open_text(view.plugin.serialize(view.plugin.default_puzzle()), kind, fresh=True)
    assert "no solution" not in view.browser.status.text().lower()
    assert view.browser.status.text().startswith("Press Solve (F5)")  # a new document: the first prompt


def test_another_modules_message_ends_when_switching(main_window) -> None:
    """'Nine Tiles score tables ready.' stayed in the status bar over Flow (issue 29.10)."""
    tiles = main_window.show_kind("ninetiles")
    tiles.status_message.emit("Nine Tiles score tables ready.")
    assert main_window.statusBar().currentMessage() == "Nine Tiles score tables ready."
    main_window.show_kind("flow")
    assert main_window.statusBar().currentMessage() == ""


def test_a_new_board_starts_in_edit_mode_with_the_first_prompt(main_window, qtbot) -> None:
    """A new blank Flow board stayed in Play mode saying 'Position changed; press Solve again' (29.10)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QSpinBox

    view = main_window.show_kind("flow")
    prompt = view.browser.status.text()
    with qtbot.waitSignal(view.solve_finished, timeout=20000):
        view.solve(2)
    view.set_mode("play")

    def fill() -> None:
        dialog = main_window.files.size_dialog
        dialog.findChild(QSpinBox, "width").setValue(6)
        dialog.findChild(QSpinBox, "height").setValue(6)
        dialog.accept()

    QTimer.singleShot(0, fill)
    main_window.act_new.trigger()
    assert (view.doc.puzzle.cols, view.doc.puzzle.rows) == (6, 6)
    assert view.mode() == "edit" and view.edit_radio.isChecked()
    assert view.browser.status.text() == prompt
    # An edit of a solved board says the puzzle changed (a game's says the position changed).
    view.doc.apply(EditResult(puzzle=view.plugin.parse("R.R\nG.G\n"), label="t"))
    with qtbot.waitSignal(view.solve_finished, timeout=20000):
        view.solve(2)
    view.doc.apply(EditResult(puzzle=view.plugin.parse("R.R\nGG.\n"), label="t2"))
    assert view.browser.status.text() == "Puzzle changed; press Solve (F5) again."


def test_a_lost_worker_is_not_called_a_bug(main_window) -> None:
    """A worker killed from outside read 'Solver failed (a bug; please report it)' (issue 29.23)."""
    from workbench.jobs import JobOutcome

    view = main_window.show_kind("flow")
    view._solve_done(
        JobOutcome("failed", error="the solver's worker process was ended by SIGKILL", lost=True)
    )
    text = view.browser.status.text()
    assert text.startswith("Solving stopped: the solver's worker process was ended by SIGKILL")
    assert "bug" not in text and "F5" in text


def test_a_long_info_line_ends_in_an_ellipsis_and_keeps_the_whole_text_in_its_tooltip(
    main_window, qtbot
) -> None:
    """A plain label cut the line off mid-word at the window's edge ('... Numberlink rules (c')."""
    main_window.resize(1024, 768)
    view = main_window.show_kind("flow")
    long_text = "Showing Numberlink rules (F7 shows the puzzle) — " + "12x12, 5 colours, " * 12
    view.info.setText(long_text)
    view.info.setToolTip(long_text)
    qtbot.waitUntil(lambda: view.info.width() > 0)
    shown = view.info.shown_text()
    assert shown.endswith("…") and shown[:-1] == long_text[: len(shown) - 1]
    assert view.info.fontMetrics().horizontalAdvance(shown) <= view.info.contentsRect().width()
    assert view.info.toolTip() == long_text
    assert main_window.width() <= 1024  # the label never widens the window
    view.info.setText("7x7")
    assert view.info.shown_text() == "7x7"


def test_a_cancelled_strict_count_says_what_it_had_found(main_window, qtbot, monkeypatch) -> None:
    # Found trying the app: after Esc on a long count the panel said only "Strict count cancelled."
    # although it had an answer; a count cut short returns what it has (an interrupted outcome).
    import threading

    from solvers.common.outcome import SearchOutcome

    running = threading.Event()

    def one_then_wait(
        _self: object, puzzle: object, rules: str, limit: int, cancel: CancelToken
    ) -> SearchOutcome:
        running.set()
        while not cancel.cancelled:
            time.sleep(0.01)
        return SearchOutcome.after(1, limit, cancel)

    view = main_window.show_kind("flow")
    panel = view.panel("Flow")
    monkeypatch.setattr(type(view.plugin), "count_rules", one_then_wait)
    monkeypatch.setenv("PUZZLE_WORKBENCH_JOBS", "thread")  # the patch must reach the job body
    qtbot.mouseClick(panel.strict_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(running.is_set, timeout=5000)  # Esc while it counts, not before it starts
    qtbot.keyClick(main_window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: "Counting" not in panel.strict_label.text(), timeout=5000)
    assert panel.strict_label.text() == "Strict count cancelled: at least 1 solution under the game rules."
