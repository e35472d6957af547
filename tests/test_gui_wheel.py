"""The mouse wheel scrolls the side panels; it changes a box only once the user has chosen it
(QA pass 7: scrolling the Flow panel switched the puzzle to Numberlink rules, an edit with its own
undo step, and Doves' Look ahead went from 11 to 17)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from qt_events import send_wheel

pytestmark = pytest.mark.gui


def _wheel(widget: QWidget, notches: int = -3) -> None:
    """A wheel turn over the middle of ``widget`` (negative: towards the user, i.e. down)."""
    send_wheel(widget, notches)


def test_the_wheel_over_an_unchosen_box_changes_nothing(main_window, qtbot) -> None:
    main_window.resize(1024, 768)
    view = main_window.show_kind("flow")
    panel = view.panel("Flow")
    box = panel.rules_box
    rules, steps = view.doc.puzzle.rules, view.doc.undo_stack.count()
    assert not box.hasFocus()
    _wheel(box)
    assert box.currentIndex() == 0 and view.doc.puzzle.rules == rules == "flow"
    assert view.doc.undo_stack.count() == steps and not view.doc.dirty

    from PySide6.QtWidgets import QSpinBox

    for spin in panel.findChildren(QSpinBox):  # the generator's sizes
        value = spin.value()
        _wheel(spin, 2)
        assert spin.value() == value


def test_a_box_the_user_chose_still_takes_the_wheel(main_window, qtbot) -> None:
    from PySide6.QtWidgets import QSpinBox

    view = main_window.show_kind("flow")
    spins = view.panel("Flow").findChildren(QSpinBox)
    assert spins
    spin = spins[0]
    spin.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(spin.hasFocus, timeout=2000)
    before = spin.value()
    _wheel(spin, -1 if before > spin.minimum() else 1)
    assert spin.value() != before
