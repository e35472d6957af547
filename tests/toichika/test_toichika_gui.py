"""The Toichika panel inside the real main window (pytest-qt)."""

from __future__ import annotations

import time

import pytest

from solvers.common.protocol import EditResult
from solvers.toichika.model import RIGHT
from solvers.toichika.url_codec import decode_url, encode_url

pytestmark = pytest.mark.gui
URL = "https://puzz.link/p?toichika/4/4/n70kt84j"
LOOSE = "https://puzz.link/p?toichika/6/2/vv00g"


@pytest.fixture
def view(main_window):
    win = main_window
    view = win.show_kind("toichika")
    puzzle = decode_url(URL)
    view.doc.apply(EditResult(puzzle=puzzle, entries=view.plugin.empty_entries(puzzle), label="Open"))
    yield view


def _panel(view):
    from widgets.panels.toichika import ToichikaPanel

    widget = view.panel("Steps")
    assert isinstance(widget, ToichikaPanel), "no Steps panel"
    return widget


def _shown_text(label) -> str:
    """What a rich-text label displays."""
    from PySide6.QtGui import QTextDocument

    doc = QTextDocument()
    doc.setHtml(label.text())
    return doc.toPlainText().replace("\u2029", "\n")


def _ready(panel, puzzle) -> bool:
    return panel.explanation is not None and panel.explanation.puzzle == puzzle and panel.badge_state != ""


def test_badge_steps_and_replay(view, qtbot) -> None:
    panel = _panel(view)
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle) and "unique" in panel.badge.text(), timeout=20000)
    ex = panel.explanation
    assert panel.replay.steps.count() == len(ex.steps) + 1 and "Grade: " in panel.grade.text()
    panel.replay.go(0)
    assert view._overlay["state"] == ex.states[0]
    panel.replay.forward_button.click()
    assert panel.replay.steps.currentRow() == 1
    overlay = view._overlay
    assert overlay["state"] == ex.states[1] and overlay["changed"] and overlay["used"]
    assert ex.steps[0].text in _shown_text(panel.detail)
    view.board.display_list()  # the board draws the replayed state
    assert view.info.text().startswith("Replaying the explanation: the candidates after step 1 of")
    panel.replay.last_button.click()
    assert view._overlay["state"] == ex.final
    panel.replay.back_button.click()
    assert panel.replay.steps.currentRow() == len(ex.steps) - 1
    panel.replay.clear()
    assert view._overlay is None
    assert not view.info.text().startswith("Replaying")


def test_badge_restarts_on_edit_and_shows_differing_cells(view, qtbot) -> None:
    panel = _panel(view)
    qtbot.waitUntil(lambda: panel.badge_state == "unique", timeout=20000)
    panel.paste_url(LOOSE)
    assert encode_url(view.doc.puzzle) == LOOSE
    qtbot.waitUntil(lambda: panel.badge_state == "several" and _ready(panel, view.doc.puzzle), timeout=20000)
    assert panel.differing and "differ" in panel.badge.text()
    messages: list[str] = []
    view.status_message.connect(messages.append)
    panel.paste_url("not a url at all")  # a clear status message, the puzzle stays
    assert encode_url(view.doc.puzzle) == LOOSE and messages[-1].startswith("Cannot paste:")
    panel.paste_url(LOOSE)  # a good paste replaces that word
    assert messages[-1].startswith("Pasted: ")


def test_hint_in_play_mode_and_copy_url(view, qtbot) -> None:
    from PySide6.QtGui import QGuiApplication

    panel = _panel(view)
    view.set_mode("play")
    assert panel.hints.hint_button.isEnabled()
    back = panel.replay.clear_button
    assert not back.isEnabled()  # QA: enabled with the board already shown
    entries = list(view.doc.entries)
    entries[3] = RIGHT  # wrong: (0,3) must point left
    view.doc.apply(EditResult(entries=tuple(entries), label="Enter"))
    panel.hints.hint_button.click()
    qtbot.waitUntil(lambda: view._overlay is not None and "errors" in view._overlay, timeout=20000)
    assert view._overlay["errors"] == [(0, 3)]
    assert back.isEnabled()  # it takes the hint's marks away
    back.click()
    assert view._overlay is None and not back.isEnabled()
    panel.copy_button.click()
    assert QGuiApplication.clipboard().text() == URL


def test_paste_url_button_reads_the_clipboard(view, qtbot) -> None:
    from PySide6.QtGui import QGuiApplication

    panel = _panel(view)
    QGuiApplication.clipboard().setText(LOOSE)
    panel.paste_button.click()  # clicked(bool) used to reach paste_url as text=False
    assert encode_url(view.doc.puzzle) == LOOSE


def test_step_details_keep_arrow_characters(view, qtbot) -> None:
    panel = _panel(view)
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle), timeout=20000)
    ex = panel.explanation
    row = next(k for k, step in enumerate(ex.steps, start=1) if "←" in step.text)
    panel.replay.go(row)
    assert ex.steps[row - 1].text in _shown_text(panel.detail)  # "v/<: every cell" was cut at "<"
    # the arrows are signs, not the file's codes ("cannot point ^/<" read as jargon, QA pass 7)
    assert not any(code in step.text for step in ex.steps for code in ("^/", "/<", "/>", "/v"))


def test_replay_with_a_solution_shown_draws_only_the_step(view, qtbot) -> None:
    panel = _panel(view)
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle), timeout=20000)
    view.show_solution(next(view.plugin.solve(view.doc.puzzle, limit=1)))
    panel.replay.go(1)
    pure = view.plugin.draw(view.doc.puzzle, overlay=view._overlay)
    assert view.board.display_list().items == pure.items  # no solution arrows among the pencil marks


def test_find_all_outlines_where_the_shown_solution_differs_from_the_first(view, qtbot) -> None:
    panel = _panel(view)
    panel.paste_url("https://puzz.link/p?toichika/8/2/aik00k")  # 32 solutions
    qtbot.waitUntil(lambda: panel.badge_state == "several" and _ready(panel, view.doc.puzzle), timeout=20000)
    solutions = list(view.plugin.solve(view.doc.puzzle, limit=0))
    assert len(solutions) >= 3
    diffs = [sorted(map(tuple, s.extras["differs_from_first"])) for s in solutions[1:]]
    k = next(k for k, d in enumerate(diffs, start=1) if d != diffs[0])  # not the 1-vs-2 cells
    view.show_solution(solutions[k])
    assert sorted(view._overlay["changed"]) == diffs[k - 1]
    view.show_solution(solutions[1])
    assert sorted(view._overlay["changed"]) == diffs[0]


def test_export_the_board_at_a_step(view, qtbot, tmp_path) -> None:
    panel = _panel(view)
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle), timeout=20000)
    assert not panel.replay.export_button.isEnabled()
    panel.replay.go(3)
    assert panel.replay.export_button.isEnabled()
    target = panel.replay.export_step(str(tmp_path / "step3.png"))
    assert target is not None and target.stat().st_size > 500


def test_keyboard_arrows_move_shift_arrows_place_letters_pick_tools(view, qtbot) -> None:
    from PySide6.QtCore import Qt

    board = view.board
    board.setFocus()
    board.cursor_cell = (1, 1)
    before = view.doc.puzzle
    qtbot.keyClick(board, Qt.Key.Key_Right)
    assert board.cursor_cell == (1, 2) and view.doc.puzzle == before
    qtbot.keyClick(board, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    assert view.doc.puzzle.given(1, 2) == 2 and board.cursor_cell == (1, 2)  # DOWN placed, cursor stays
    qtbot.keyClick(board, Qt.Key.Key_E)
    assert view.tools.current == "erase" and view.doc.puzzle.given(1, 2) == 2
    qtbot.keyClick(board, Qt.Key.Key_Q)
    assert view.tools.current == "question"


def test_step_rows_say_the_conclusion_and_the_text_below_says_why(view, qtbot) -> None:
    """QA pass 7: each row held the whole step (4-5 lines at 1024x768, two steps in view). A row is
    now the step's conclusion and its technique; the reason is below the list and in the tooltip."""
    from solvers.toichika.techniques import BY_ID
    from widgets.panels.toichika_replay import step_headline

    panel = _panel(view)
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle), timeout=20000)
    ex = panel.explanation
    for k, step in enumerate(ex.steps, start=1):
        item = panel.replay.steps.item(k)
        assert item.text() == f"{k}. {step_headline(step.text)} — {BY_ID[step.rule].name}"
        assert item.toolTip() == step.text and len(item.text()) < len(step.text) + 40
    first = ex.steps[0].text
    assert ": " in first and panel.replay.steps.item(1).text().startswith(f"1. {first.split(': ')[0]} — ")
    panel.replay.go(1)
    assert first in _shown_text(panel.detail)
    assert step_headline("no break here") == "no break here"


def test_japanese_names_only_where_a_font_draws_them(view, qtbot, monkeypatch) -> None:
    import widgets.panels.toichika_replay as panel_module
    from solvers.toichika.techniques import BY_ID

    panel = _panel(view)
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle), timeout=20000)
    ex = panel.explanation
    ja = BY_ID[ex.steps[0].rule].name_ja
    for drawable in (False, True):  # a machine without, then with, a CJK font
        panel_module._japanese.cache_clear()
        monkeypatch.setattr(panel_module, "optional_text", lambda text, d=drawable: text if d else "")
        panel._explained(view.doc.puzzle, ex)
        panel.replay.go(0)
        panel.replay.go(1)
        assert (ja in _shown_text(panel.detail)) is drawable
        assert ja not in panel.replay.steps.item(1).text()  # the row is short: the text below has it
    panel_module._japanese.cache_clear()


@pytest.mark.parametrize(
    "url",
    [
        "https://puzz.link/p?toichika/6/6/uiburcbvbdd5o15164e",
        "https://puzz.link/p?toichika/10/8/d8imtbnr9a4lp40rud1rmsbbv7kuvi492f261816171a171a4i",
    ],
)
def test_pasting_a_larger_puzzle_during_step_replay(view, qtbot, url: str) -> None:
    """The old step's state was drawn against the new board: IndexError, a segfault offscreen (29.4)."""
    from PySide6.QtGui import QGuiApplication

    panel = _panel(view)
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle), timeout=20000)
    panel.replay.go(len(panel.explanation.steps))
    assert view._overlay is not None
    QGuiApplication.clipboard().setText(url)
    panel.paste_button.click()
    assert view._overlay is None  # the old step's state is gone with its puzzle, at once
    assert panel.replay.steps.count() == 0
    view.board.display_list()
    view.board.repaint()
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle), timeout=20000)
    view.board.display_list()


def test_a_hint_ends_with_the_board_it_described(view, qtbot) -> None:
    """The hint text stayed after edits and after Generate (issue 29.10)."""
    panel = _panel(view)
    view.set_mode("play")
    entries = list(view.doc.entries)
    entries[3] = RIGHT  # wrong: (0,3) must point left
    view.doc.apply(EditResult(entries=tuple(entries), label="Enter"))
    panel.hints.hint_button.click()
    qtbot.waitUntil(lambda: "Check this entry" in _shown_text(panel.detail), timeout=20000)
    assert view._overlay is not None
    entries[3] = 0
    view.doc.apply(EditResult(entries=tuple(entries), label="Erase"))
    assert _shown_text(panel.detail) == ""
    assert view._overlay is None


def _open_10x8(main_window, size):  # noqa: ANN202 - (view, its Toichika panel)
    """The Toichika module at ``size`` with a published 10x8 puzzle opened (many steps)."""
    main_window.resize(*size)
    view = main_window.show_kind("toichika")
    puzzle = decode_url(
        "https://puzz.link/p?toichika/10/8/d8imtbnr9a4lp40rud1rmsbbv7kuvi492f261816171a171a4i"
    )
    view.doc.apply(EditResult(puzzle=puzzle, entries=view.plugin.empty_entries(puzzle), label="Open"))
    return view, _panel(view)


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768)])
def test_every_step_row_shows_its_whole_text(main_window, qtbot, size) -> None:
    """Rows were measured before the scroll bar arrived: some were cut off until a navigation
    re-laid them out (issue 29.21)."""
    view, panel = _open_10x8(main_window, size)
    view.side.setCurrentIndex(view.side.indexOf(panel.parentWidget().parentWidget()))
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle), timeout=30000)
    qtbot.wait(100)
    rows = panel.replay.steps

    def cut() -> list[int]:
        """Rows whose height is not the one the list's delegate asks for at today's width."""
        stale = []
        for i in range(rows.count()):
            index = rows.model().index(i, 0)
            if rows.visualRect(index).height() < rows.sizeHintForIndex(index).height():
                stale.append(i)
        return stale

    assert cut() == []
    for _ in range(12):
        panel.replay.forward_button.click()
    qtbot.wait(50)
    assert cut() == []


def test_opening_a_file_does_not_report_the_old_jobs_as_cancelled(main_window, qtbot) -> None:
    """Started with a file, the status bar said "Explanation cancelled": opening it had stopped the
    empty board's background jobs as if the user had pressed Esc. Esc still says it."""
    said: list[str] = []
    main_window.statusBar().messageChanged.connect(said.append)
    view = main_window.show_kind("toichika")  # as at start: the panel's jobs start on its board
    assert main_window.files.open_path(view.plugin.sample_paths()[0])
    qtbot.waitUntil(lambda: not view.busy(), timeout=20000)
    qtbot.wait(100)
    assert said and not [text for text in said if "cancelled" in text]

    def slow(cancel, _progress) -> None:  # a job that runs until it is cancelled
        while True:
            cancel.raise_if_cancelled()
            time.sleep(0.01)

    view.run_job("Slow work", slow, lambda _result: None)
    main_window.act_cancel.trigger()
    qtbot.waitUntil(lambda: "Slow work cancelled" in said, timeout=5000)


def test_opening_the_puzzle_already_shown_restarts_the_stopped_jobs(main_window, qtbot) -> None:
    """Opening a file stops the document's jobs; where the file holds the puzzle already shown
    (the first sample, opened at start-up while its own jobs ran) they were not started again:
    "Uniqueness: …" and "Explaining…" for good."""
    view = main_window.show_kind("toichika")
    path = view.plugin.sample_paths()[0]
    assert main_window.files.open_path(path, template=True)
    panel = _panel(view)
    panel.restart_jobs()  # its jobs run on the sample now, as after start-up
    assert main_window.files.open_path(path, template=True)  # the same puzzle again, at once
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle), timeout=20000)
    assert panel.badge.text() == "Uniqueness: unique ✓" and "Grade: " in panel.grade.text()


def test_export_step_asks_where_exports_go(main_window, view, qtbot, tmp_path, monkeypatch) -> None:
    """QA: Export step… started in the working folder (the app's source) while File > Export
    started in the export folder; both ask through the shell now, and remember it."""
    from PySide6.QtWidgets import QFileDialog

    from workbench import settings

    settings.set_last_folder("export", str(tmp_path / "earlier.png"))
    starts: list[str] = []

    def fake_save(_parent, _title, start, _filter):
        starts.append(start)
        return str(tmp_path / "mine" / "step.png"), ""

    (tmp_path / "mine").mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake_save))
    panel = _panel(view)
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle), timeout=20000)
    panel.replay.go(2)
    target = panel.replay.export_step()
    assert starts == [str(tmp_path / "toichika-step-2.png")]
    assert target is not None and target.exists()
    assert settings.last_folder("export") == str(tmp_path / "mine")


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768)], ids=["1280x800", "1024x768"])
def test_stepping_through_the_steps_moves_nothing_in_the_panel(main_window, qtbot, size) -> None:
    """QA: a step's text, shown under the step list, grew with the text: at 1024x768 it pushed the
    buttons below down by 14-28 px as the user stepped (and the Generate box out of view); at
    1280x800 the list's bottom edge jumped instead. The text has a box of fixed height, and the
    panel still fits without scrolling (the Generate button stays in view, issue 29.16)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QApplication

    view, panel = _open_10x8(main_window, size)
    area = panel.parentWidget().parentWidget()
    view.side.setCurrentIndex(view.side.indexOf(area))
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle) and not view.busy(), timeout=30000)
    qtbot.wait(50)
    watched = [
        panel.replay.steps,
        panel.detail,
        panel.replay.clear_button,
        panel.hints.hint_button,
        panel.replay.export_button,
        panel.copy_button,
        panel.generator.generate_button,
    ]

    def places() -> list[tuple[int, int]]:
        QApplication.processEvents()  # the layout's pending re-layout
        return [(w.mapTo(main_window, QPoint(0, 0)).y(), w.height()) for w in watched]

    before = places()
    moved = {}
    needed = []  # the height each step's text takes
    for row in range(panel.replay.steps.count()):
        panel.replay.go(row)
        now = places()
        if now != before:
            moved[row] = [(a[0] - b[0], a[1] - b[1]) for a, b in zip(now, before, strict=True)]
        needed.append(panel.detail.heightForWidth(panel.detail.width()))
    assert not moved, f"(dy, dheight) of list, text, buttons at {size}: {moved}"
    assert max(needed) <= panel.detail_well.viewport().height()  # every text whole, unscrolled
    panel.replay.clear()
    assert places() == before
    assert area.verticalScrollBar().maximum() == 0  # the whole panel in view
    generate = panel.generator.generate_button
    assert generate.mapTo(area.viewport(), QPoint(0, generate.height())).y() <= area.viewport().height()
