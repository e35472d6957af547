"""Pencil marks and Apply hint in the real main window (pytest-qt, issue 29.3)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from solvers.common.protocol import EditResult
from solvers.toichika.drawing import CELL, MARGIN
from solvers.toichika.model import DOT, LEFT, MARK_ARROW_HERE, RIGHT, UP, arrows_of, is_marks, marks_entry
from solvers.toichika.rules import check
from solvers.toichika.sat_solver import iter_solutions
from solvers.toichika.url_codec import decode_url

pytestmark = pytest.mark.gui
URL = "https://puzz.link/p?toichika/5/5/err9phae9473c3a"  # first hint: "R1C1 cannot point ^/<"


@pytest.fixture
def view(main_window):
    view = main_window.show_kind("toichika")
    puzzle = decode_url(URL)
    view.doc.apply(EditResult(puzzle=puzzle, entries=view.plugin.empty_entries(puzzle), label="Open"))
    view.set_mode("play")
    yield view


def _panel(view):
    from widgets.panels.toichika import ToichikaPanel

    panel = view.panel("Steps")
    assert isinstance(panel, ToichikaPanel)
    return panel


def _hint_shown(panel, view) -> bool:
    """A new hint for the board as it is (an applied one keeps its text but can't be applied)."""
    fresh = panel.hints.result is not None or "complete and correct" in panel.detail.text()
    return fresh and panel.hints.shown_for == (view.doc.puzzle, view.doc.entries)


def test_hint_then_apply_until_solved(view, qtbot) -> None:
    panel = _panel(view)
    stack = view.doc.undo_stack
    texts = []
    for _ in range(200):
        panel.hints.hint_button.click()
        qtbot.waitUntil(lambda: _hint_shown(panel, view), timeout=20_000)
        if check(view.doc.puzzle, view.doc.entries).ok:
            break
        texts.append(panel.detail.text())
        assert "Hint:" in texts[-1], texts[-1]
        assert len(texts) < 2 or texts[-1] != texts[-2]  # the issue: the same hint for ever
        before, steps = view.doc.entries, stack.count()
        panel.hints.apply_button.click()
        assert view.doc.entries != before and stack.count() == steps + 1  # one undo step
        assert "Applied" in panel.detail.text()  # it still says what was written
    else:
        raise AssertionError("not solved after 200 hints")
    assert "complete and correct" in panel.detail.text()
    (solution,) = list(iter_solutions(view.doc.puzzle, limit=2))
    entries = view.doc.entries
    assert tuple(arrows_of(view.doc.puzzle, entries)) == solution  # the exact solver agrees
    assert len(texts) > 10
    # one Undo takes back exactly the last applied hint
    last = entries
    view.window().act_undo.trigger()
    changed = [i for i in range(len(last)) if view.doc.entries[i] != last[i]]
    assert changed and all(view.doc.entries[i] in (0,) or is_marks(view.doc.entries[i]) for i in changed)


def test_apply_hint_action_works_without_a_hint_shown(view, qtbot, main_window) -> None:
    panel = _panel(view)
    actions = {a.text().replace("&", ""): a for a in main_window.module_actions}
    assert actions["Hint"].shortcut().toString() == "Ctrl+H"
    apply_action = actions["Apply Hint"]
    assert apply_action.shortcut().toString() == "Ctrl+Shift+H"
    start = view.doc.entries
    apply_action.trigger()  # a solve step: the hint is worked out, then written
    qtbot.waitUntil(lambda: view.doc.entries != start, timeout=20_000)
    assert view.doc.entries[0] == marks_entry((1 << UP) | (1 << LEFT))  # R1C1 cannot point ^/<
    assert "R1C1 cannot point" in panel.detail.text()
    apply_action.trigger()
    qtbot.waitUntil(lambda: view.doc.undo_stack.count() >= 3, timeout=20_000)
    # with an edit in between, the shown hint is gone and nothing stale is applied
    entries = list(view.doc.entries)
    entries[24] = DOT
    view.doc.apply(EditResult(entries=tuple(entries), label="Dot"))
    assert panel.hints.result is None and panel.detail.text() == ""


def _click(qtbot, view, r: int, c: int, dx: float, dy: float, shift: bool) -> None:
    from PySide6.QtCore import Qt

    board = view.board
    x, y = MARGIN + (c + 0.5 + dx) * CELL, MARGIN + (r + 0.5 + dy) * CELL
    mods = Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, mods, board.to_widget(x, y).toPoint())


def test_mark_gesture_through_the_board(view, qtbot) -> None:
    from PySide6.QtCore import Qt

    stack = view.doc.undo_stack
    steps = stack.count()
    _click(qtbot, view, 1, 1, 0.38, 0.0, shift=True)  # near the right side
    i = view.doc.puzzle.index(1, 1)
    assert view.doc.entries[i] == marks_entry(1 << RIGHT) and stack.count() == steps + 1
    view.tools.select_by_shortcut("M")  # the Pencil tool: no modifier needed
    assert view.tools.current == "pencil"
    _click(qtbot, view, 1, 1, 0.0, 0.0, shift=False)  # the centre: an arrow goes here
    assert view.doc.entries[i] == marks_entry((1 << RIGHT) | MARK_ARROW_HERE)
    assert stack.count() == steps + 2
    view.board.setFocus()
    view.board.cursor_cell = (1, 1)
    qtbot.keyClick(view.board, Qt.Key.Key_Left, Qt.KeyboardModifier.ControlModifier)
    assert view.doc.entries[i] == marks_entry((1 << RIGHT) | (1 << LEFT) | MARK_ARROW_HERE)
    assert view.board.cursor_cell == (1, 1)  # Ctrl+arrow marks, it does not move the cursor
    view.window().act_undo.trigger()
    view.window().act_undo.trigger()
    assert view.doc.entries[i] == marks_entry(1 << RIGHT)
    view.board.display_list()
    view.board.repaint()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_marks_render_legibly_at_1024x768(main_window, view, qtbot, tmp_path, scheme: str) -> None:
    """A screenshot of the panel and a board with marks; the marks' pixels are the entry colour.
    Set TOICHIKA_SHOTS=folder to keep the PNGs for a look."""
    from PySide6.QtGui import QColor

    from solvers.common.palette import DARK_ROLES, LIGHT_ROLES

    main_window.resize(1024, 768)
    main_window.set_scheme(scheme)
    panel = _panel(view)
    view.side.setCurrentIndex(view.side.indexOf(panel.parentWidget().parentWidget()))
    p = view.doc.puzzle
    entries = list(view.doc.entries)
    entries[0] = marks_entry((1 << UP) | (1 << LEFT))
    entries[1] = marks_entry(MARK_ARROW_HERE | (1 << RIGHT))
    entries[p.index(2, 2)] = DOT
    entries[p.index(4, 0)] = RIGHT
    view.doc.apply(EditResult(entries=tuple(entries), label="Marks"))
    panel.hints.hint_button.click()
    qtbot.waitUntil(lambda: _hint_shown(panel, view), timeout=20_000)
    qtbot.wait(50)
    folder = Path(os.environ.get("TOICHIKA_SHOTS", tmp_path))
    shot = main_window.grab()
    assert shot.width() >= 1000 and shot.save(str(folder / f"toichika_marks_{scheme}.png"))
    board = view.board.grab().toImage()
    colour = QColor((LIGHT_ROLES if scheme == "light" else DARK_ROLES)["entry"])
    # the cross near R1C1's top side: some pixel of the entry colour in that small square
    x, y = MARGIN + 0.5 * CELL, MARGIN + 0.17 * CELL
    found = False
    for dx in range(-6, 7):
        for dy in range(-6, 7):
            pt = view.board.to_widget(x, y).toPoint()
            px = board.pixelColor(
                int((pt.x() + dx) * board.devicePixelRatio()), int((pt.y() + dy) * board.devicePixelRatio())
            )
            if (
                abs(px.red() - colour.red())
                + abs(px.green() - colour.green())
                + abs(px.blue() - colour.blue())
                < 60
            ):
                found = True
    assert found


def test_a_hint_that_arrives_after_an_edit_is_not_shown_or_applied(view, qtbot) -> None:
    """The board changed while the hint job ran: its result describes the old board."""
    from solvers.toichika.explain import hint

    panel = _panel(view)
    old = view.doc.entries
    result = hint(view.doc.puzzle, old)
    panel.hints.asked = (view.doc.puzzle, old)
    panel.hints.apply_when_done = True
    entries = list(old)
    entries[24] = DOT
    view.doc.apply(EditResult(entries=tuple(entries), label="Dot"))
    panel.hints.done(result)
    assert panel.hints.result is None and panel.detail.text() == ""
    assert view.doc.entries == tuple(entries)  # nothing stale was written


def test_apply_hint_is_for_play_mode(view, qtbot) -> None:
    panel = _panel(view)
    view.set_mode("edit")
    start = view.doc.entries
    panel.hints.apply()
    qtbot.wait(100)
    assert view.doc.entries == start and panel.hints.job is None


def test_a_hint_shows_the_japanese_name_only_where_a_font_draws_it(view, qtbot, monkeypatch) -> None:
    """QA (offscreen, no CJK font): the hint's heading read "Hint: adjacency ban · " and six empty
    boxes; the step replay already left such names out."""
    import widgets.panels.toichika_replay as replay_module
    from solvers.toichika.techniques import BY_ID

    panel = _panel(view)
    for drawable in (False, True):  # a machine without, then with, a CJK font
        replay_module._japanese.cache_clear()
        monkeypatch.setattr(replay_module, "optional_text", lambda text, d=drawable: text if d else "")
        panel.hints.result = None
        panel.detail.setText("")
        panel.hints.hint_button.click()
        qtbot.waitUntil(lambda: _hint_shown(panel, view), timeout=20_000)
        rule = panel.hints.result["rule"]
        ja = next(t.name_ja for t in BY_ID.values() if t.name == rule)
        assert f"Hint: {rule}" in panel.detail.text()
        assert (ja in panel.detail.text()) is drawable
    replay_module._japanese.cache_clear()
