"""Player-facing words instead of internal codes (QA pass 6, defect 11: Nine Tiles, Toichika).

- Nine Tiles Panic, Solve: the thumbnail captions and the line under the board read "T1: 0  T2: 0
  T3: 1", and nothing said that T1 is the theme card of theme 1 chosen on the Best towns tab. They
  now name the cards, one a line: "Capture: 0", "Surrounded: 0", "Dog Roundup: 1".
- Toichika, Steps tab: "77 steps, 0 trials, grade: medium (partner search x11)". It now reads
  "77 steps, none by trial and error (...). Grade: medium (the hardest technique used is partner
  search, 11 times)."
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton

pytestmark = pytest.mark.gui


def _toolbar_button(win, text: str) -> QToolButton:
    return next(b for b in win.findChildren(QToolButton) if b.text() == text and b.isVisible())


def test_nine_tiles_solve_captions_name_the_theme_cards(main_window, qtbot) -> None:
    from solvers.ninetiles.town import Town

    main_window.resize(1024, 768)
    view = main_window.show_kind("ninetiles")
    view.doc.reset(Town.from_code("206745..3361230..5"))  # a partial town: Solve completes it
    best = view.panel("Best towns")
    for combo, theme in zip(best.combos, (1, 2, 3), strict=True):  # the default cards
        combo.setCurrentIndex(theme - 1)
    with qtbot.waitSignal(view.solve_finished, timeout=60_000):
        qtbot.mouseClick(_toolbar_button(main_window, "Solve"), Qt.MouseButton.LeftButton)
    caption = " · ".join(view.browser.model.solutions[0].label.split("\n")[1:])
    # before: "T1: 0  T2: 0  T3: 1"
    assert re.fullmatch(r"Capture: \d+ · Surrounded: \d+ · Dog Roundup: \d+", caption), caption
    assert view.shown_solution() is not None and caption in view.info.text()  # the line under the board
    assert not re.search(r"\bT\d+:", view.info.text())


def test_toichika_grade_is_said_in_plain_words(main_window, qtbot) -> None:
    main_window.resize(1024, 768)
    view = main_window.show_kind("toichika")  # the first sample, 6x6
    panel = view.panel("Steps")
    qtbot.waitUntil(lambda: " steps, " in panel.grade.text(), timeout=30000)  # explained in the background
    text = panel.grade.text()
    assert text.startswith("77 steps, none by trial and error (solved, ")  # before: "0 trials"
    assert text.endswith("Grade: medium (the hardest technique used is partner search, 11 times).")
    assert not re.search(r" x\d", text)  # before: "(partner search x11)"
