"""The Steps tab's list and step text at the sizes people use (pytest-qt)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication

from solvers.common.protocol import EditResult
from solvers.toichika.url_codec import decode_url

pytestmark = pytest.mark.gui
URL = "https://puzz.link/p?toichika/10/8/d8imtbnr9a4lp40rud1rmsbbv7kuvi492f261816171a171a4i"


def _steps_tab(main_window, qtbot, size: tuple[int, int]):
    from widgets.panels.toichika import ToichikaPanel

    main_window.resize(*size)
    view = main_window.show_kind("toichika")
    puzzle = decode_url(URL)
    view.doc.apply(EditResult(puzzle=puzzle, entries=view.plugin.empty_entries(puzzle), label="Open"))
    panel = view.panel("Steps")
    assert isinstance(panel, ToichikaPanel)
    view.side.setCurrentIndex(view.side.indexOf(panel.parentWidget().parentWidget()))
    qtbot.waitUntil(
        lambda: (
            panel.explanation is not None and panel.explanation.puzzle == view.doc.puzzle and not view.busy()
        ),
        timeout=30000,
    )
    qtbot.wait(50)
    return panel


def _top(widget, panel) -> int:
    return widget.mapTo(panel, QPoint(0, 0)).y()


@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)], ids=["1024x768", "1280x800"])
def test_the_step_list_takes_the_room_of_an_empty_step_text(main_window, qtbot, size) -> None:
    """QA (defect 8): with no step shown the list showed about two steps while the empty box of
    the step text left 80-90 px blank under it, before "Back to the board". The text now sits
    inside the list's frame, under its rows, only while there is one; the list's edges (and every
    button below) stay where they are."""
    panel = _steps_tab(main_window, qtbot, size)
    steps, back = panel.replay.steps, panel.replay.clear_button
    QApplication.processEvents()
    bottom = _top(steps, panel) + steps.height()
    assert _top(back, panel) - bottom <= 12, f"{_top(back, panel) - bottom} px blank under the step list"
    rows_alone = steps.viewport().height()
    assert rows_alone >= steps.height() - 2 * steps.frameWidth() - 2  # the rows fill the list

    panel.replay.go(3)
    QApplication.processEvents()
    assert _top(steps, panel) + steps.height() == bottom  # nothing moved
    well = panel.detail_well
    assert "R1C3" in panel.detail.text() and well.isVisibleTo(panel)
    viewport = steps.viewport().geometry()
    assert viewport.bottom() < well.geometry().top()  # the rows end above the text: nothing covered
    assert well.geometry().bottom() <= steps.height()  # the text inside the list's frame
    assert steps.viewport().height() >= 2 * steps.fontMetrics().lineSpacing() * 3  # two steps still

    panel.replay.clear()
    QApplication.processEvents()
    assert steps.viewport().height() == rows_alone  # the rows have the room back
