"""The Toichika panel inside the real main window (pytest-qt)."""

from __future__ import annotations

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


def _ready(panel, puzzle) -> bool:
    return panel.explanation is not None and panel.explanation.puzzle == puzzle and panel.badge_state != ""


def test_badge_steps_and_replay(view, qtbot) -> None:
    panel = _panel(view)
    qtbot.waitUntil(lambda: _ready(panel, view.doc.puzzle) and "unique" in panel.badge.text(), timeout=20000)
    ex = panel.explanation
    assert panel.steps.count() == len(ex.steps) + 1 and "grade" in panel.grade.text()
    panel.go(0)
    assert view._overlay["state"] == ex.states[0]
    panel.forward_button.click()
    assert panel.steps.currentRow() == 1
    overlay = view._overlay
    assert overlay["state"] == ex.states[1] and overlay["changed"] and overlay["used"]
    assert ex.steps[0].text in panel.detail.text()
    view.board.display_list()  # the board draws the replayed state
    panel.last_button.click()
    assert view._overlay["state"] == ex.final
    panel.back_button.click()
    assert panel.steps.currentRow() == len(ex.steps) - 1
    panel.clear_replay()
    assert view._overlay is None


def test_badge_restarts_on_edit_and_shows_differing_cells(view, qtbot) -> None:
    panel = _panel(view)
    qtbot.waitUntil(lambda: panel.badge_state == "unique", timeout=20000)
    panel.paste_url(LOOSE)
    assert encode_url(view.doc.puzzle) == LOOSE
    qtbot.waitUntil(lambda: panel.badge_state == "several" and _ready(panel, view.doc.puzzle), timeout=20000)
    assert panel.differing and "differ" in panel.badge.text()
    panel.paste_url("not a url at all")  # a clear status message, the puzzle stays
    assert encode_url(view.doc.puzzle) == LOOSE


def test_hint_in_play_mode_and_copy_url(view, qtbot) -> None:
    from PySide6.QtGui import QGuiApplication

    panel = _panel(view)
    view.set_mode("play")
    assert panel.hint_button.isEnabled()
    entries = list(view.doc.entries)
    entries[3] = RIGHT  # wrong: (0,3) must point left
    view.doc.apply(EditResult(entries=tuple(entries), label="Enter"))
    panel.hint_button.click()
    qtbot.waitUntil(lambda: view._overlay is not None and "errors" in view._overlay, timeout=20000)
    assert view._overlay["errors"] == [(0, 3)]
    panel.copy_button.click()
    assert QGuiApplication.clipboard().text() == URL
