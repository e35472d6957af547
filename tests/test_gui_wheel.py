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
    import gc

    gc.collect()  # the filter is Python code: it must outlive a collection
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


def test_no_box_takes_focus_from_a_wheel_turn(main_window, qtbot) -> None:
    """Qt gives a combo box focus from the wheel itself (its default focus policy) before the
    turn arrives, so "has focus" could not tell a chosen box from one scrolled past: in a real X
    session the Rules box still switched to Numberlink. Every box shown takes focus by click or Tab
    only. (A synthetic event to a widget does not go through that focus step; the policy is what
    can be checked here.)"""
    from PySide6.QtWidgets import QAbstractSpinBox, QComboBox

    main_window.resize(1024, 768)
    main_window.show()
    qtbot.waitExposed(main_window)
    shown = []
    for kind in ("flow", "toichika", "doves", "ninetiles"):
        view = main_window.show_kind(kind)
        for tab in range(view.side.count()):  # every side panel, shown (boxes are set up when shown)
            view.side.setCurrentIndex(tab)
            qtbot.wait(10)
            boxes = [*view.findChildren(QComboBox), *view.findChildren(QAbstractSpinBox)]
            shown += [box for box in boxes if box.isVisible()]
    assert len(shown) > 10
    assert [box for box in shown if box.focusPolicy() == Qt.FocusPolicy.WheelFocus] == []
