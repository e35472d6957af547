"""Solutions thumbnails of boards of every shape (pytest-qt)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette

pytestmark = pytest.mark.gui


def _caption_band(view, qtbot) -> tuple[int, int]:
    """The selected first thumbnail's highlighted caption block: (top below the item's top, height)."""
    browser = view.browser
    qtbot.waitUntil(lambda: browser.count() > 0 and not view.busy(), timeout=30000)
    browser.select(0)
    qtbot.waitUntil(lambda: 0 in browser.model._icons, timeout=10000)
    qtbot.wait(50)
    index = browser.model.index(0)
    rect = browser.view.visualRect(index)
    image = browser.view.viewport().grab().toImage()
    highlight = browser.view.palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.Highlight).rgb()
    x = rect.left() + 3  # the caption block's left end: clear of the centred text and picture
    rows = [y for y in range(rect.top(), rect.bottom() + 1) if image.pixel(x, y) == highlight]
    assert rows, "no selected caption found"
    return rows[0] - rect.top(), len(rows)


@pytest.mark.parametrize("sample", ["07-20x12.txt", "03-9x9.txt"])
def test_a_thumbnail_caption_has_the_same_band_for_every_board_shape(main_window, qtbot, sample) -> None:
    """QA (defect 9): a 20x12 board's thumbnail was squeezed to the top of its cell and its selected
    caption "1. designed" sat in a blue block about 100x50 px; square boards were fine. Every
    thumbnail now has a square picture and one caption line under it."""
    main_window.resize(1024, 768)
    view = main_window.show_kind("flow")
    path = next(p for p in view.plugin.sample_paths() if p.name == sample)
    assert main_window.files.open_path(str(path), "flow")
    view.side.setCurrentIndex(0)
    view.solve()
    top, height = _caption_band(view, qtbot)
    line = view.browser.view.fontMetrics().lineSpacing()
    assert height <= line + 8, f"the caption block is {height} px high (one line is {line} px)"
    assert top >= 96, f"the caption starts {top} px below the item's top, inside the picture's room"
