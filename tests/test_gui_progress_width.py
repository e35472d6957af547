"""A job's progress text never widens the main window (QA: the Nine Tiles store build's progress
line raised the window's minimum width to 1060 px on a 1024-px screen, for good, in every module)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QWidget

from solvers.common import registry

pytestmark = pytest.mark.gui

SCREEN = (1024, 768)
# The QA line, padded to 300 characters with more of the same.
LONG = (
    "shard 20/200: 29,272,992 of 526,070,976 towns, 1,371,203 towns/s, ETA about 6m03s "
    + "(resumed build; merging the shards and computing the statistics follows) " * 4
)[:300]
LONG_TITLE = "A job title nobody meant to be this long " * 5


def _fits(window: QWidget) -> None:
    """The window keeps the screen's width and the progress row's Cancel is whole and inside it."""
    QApplication.processEvents()
    assert window.minimumSizeHint().width() <= SCREEN[0]
    assert window.minimumWidth() <= SCREEN[0]
    assert window.width() == SCREEN[0], f"the window grew to {window.width()} px"
    for view in window.findChildren(QWidget):
        button = getattr(getattr(view, "progress", None), "cancel_button", None)
        if button is None or not button.isVisibleTo(window):
            continue
        left = button.mapTo(window, QPoint(0, 0)).x()
        assert left >= 0 and left + button.width() <= window.width(), "Cancel is off the window"
        assert button.width() >= button.minimumSizeHint().width(), "Cancel is squeezed ('Canc')"


def _until_cancelled(cancel: Any) -> None:
    while not cancel.cancelled:
        time.sleep(0.02)
    cancel.raise_if_cancelled()


def _progress_text(view: Any) -> str:
    return view.progress.detail.text()


def test_nine_tiles_store_build_progress_keeps_the_window_on_a_1024_screen(
    main_window, qtbot, monkeypatch, tmp_path: Path
) -> None:
    """The real path: Best towns > Find > Yes; the store build reports a 300-character line."""
    from solvers.ninetiles import store_build

    def fake_build(folder: Path, *, cancel: Any, progress: Any, **_kw: Any) -> None:
        progress({"fraction": 0.056, "text": LONG})
        _until_cancelled(cancel)  # like the build: runs until Cancel

    monkeypatch.setattr(store_build, "build", fake_build)
    window = main_window
    window.resize(*SCREEN)
    view = window.show_kind("ninetiles")
    view.cancel_jobs()
    qtbot.waitUntil(lambda: not view.busy(), timeout=120000)  # the kernels' warm-up job
    panel = view.panel("Best towns")
    view.side.setCurrentIndex([view.side.tabText(i) for i in range(view.side.count())].index("Best towns"))
    panel.store_dir = tmp_path / "store"
    panel.ask_build = lambda *_args: True
    panel.find_best()
    qtbot.waitUntil(lambda: LONG in _progress_text(view), timeout=10000)
    qtbot.wait(250)  # a few ticks of the elapsed-time timer
    _fits(window)
    assert view.progress.detail.toolTip().endswith(LONG)  # the whole line stays readable
    window.grab().save(str(tmp_path / "progress.png"))

    view.cancel_jobs()
    qtbot.waitUntil(lambda: panel.find_button.isEnabled(), timeout=10000)
    _fits(window)
    for kind in registry.plugins():  # the stacked views share one minimum width
        window.show_kind(kind)
        _fits(window)


@pytest.mark.parametrize("kind", list(registry.plugins()))
def test_no_module_job_can_widen_the_window(main_window, qtbot, kind: str) -> None:
    """Every module's jobs report through the same row: a long title and text fit there too."""
    window = main_window
    window.resize(*SCREEN)
    view = window.show_kind(kind)
    view.cancel_jobs()
    qtbot.waitUntil(lambda: not view.busy(), timeout=120000)

    def work(cancel: Any, progress: Any) -> None:
        progress({"fraction": 0.5, "found": 12345678, "text": LONG})
        _until_cancelled(cancel)

    view.run_job(LONG_TITLE, work, lambda _result: None)
    qtbot.waitUntil(lambda: LONG in _progress_text(view), timeout=10000)
    _fits(window)
    view.cancel_jobs()
    qtbot.waitUntil(lambda: not view.busy(), timeout=10000)
    _fits(window)
