"""The main window fits the screen it opens on and keeps the user's layout between runs (issue 29.1)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication

from workbench import settings, window_geometry
from workbench.window_geometry import FRAME_ALLOWANCE, fit

pytestmark = pytest.mark.gui


@pytest.fixture(autouse=True)
def _no_saved_layout():
    store = settings.settings()
    store.remove("window")
    store.remove("splitters")
    yield
    store.remove("window")
    store.remove("splitters")


@pytest.mark.parametrize(
    ("screen", "maximise"),
    [
        ((1024, 768), True),  # the right panel and status bar were off-screen
        ((1280, 800), True),  # the status bar sat below the edge (frame + 800)
        ((1280, 1024), True),  # 1280 wide leaves no room for the borders
        ((1440, 900), False),
        ((1920, 1080), False),
        ((2560, 1440), False),
    ],
)
def test_fit_keeps_the_window_and_its_frame_on_screen(screen: tuple[int, int], maximise: bool) -> None:
    available = QRect(0, 24, screen[0], screen[1] - 24)  # a top panel, as desktops have
    placement = fit(available)
    assert placement.maximise is maximise
    rect = placement.rect
    framed = rect.adjusted(-FRAME_ALLOWANCE[0] // 2, -(FRAME_ALLOWANCE[1] - 8), FRAME_ALLOWANCE[0] // 2, 8)
    assert available.contains(framed), (rect, available)
    if not maximise:
        assert (rect.width(), rect.height()) == window_geometry.PREFERRED


def test_place_fits_the_offscreen_screen(qtbot) -> None:
    from workbench.main_window import MainWindow

    window = MainWindow(remember_layout=True)
    qtbot.addWidget(window)
    maximise = window_geometry.place(window)
    free = (window.screen() or QGuiApplication.primaryScreen()).availableGeometry()
    expected = fit(free)
    assert maximise is expected.maximise
    assert window.width() <= free.width() and window.height() <= free.height()
    window.jobs.shutdown(5000)


def test_layout_is_kept_between_runs(qtbot) -> None:
    from workbench.main_window import MainWindow

    first = MainWindow(remember_layout=True)
    first.confirm = lambda view: "discard"
    qtbot.addWidget(first)
    first.setGeometry(QRect(0, 0, 800, 580))  # the offscreen screen is 800x600
    first.show()
    qtbot.waitExposed(first)
    first.splitter.setSizes([200, 700])
    view = first.current()
    view.splitter.setSizes([400, 300])
    main_sizes, view_sizes = first.splitter.sizes(), view.splitter.sizes()
    first.close()

    second = MainWindow(remember_layout=True)
    qtbot.addWidget(second)
    assert window_geometry.place(second) is False
    second.show()
    qtbot.waitExposed(second)
    assert (second.width(), second.height()) == (800, 580)
    assert second.splitter.sizes() == main_sizes
    assert second.current().splitter.sizes() == view_sizes
    second.jobs.shutdown(5000)


def test_a_screenshot_or_test_window_neither_reads_nor_writes_the_layout(qtbot) -> None:
    from workbench.main_window import MainWindow

    window = MainWindow()
    window.confirm = lambda view: "discard"
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.close()
    assert settings.settings().value(window_geometry.GEOMETRY_KEY) is None
