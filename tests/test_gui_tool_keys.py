"""Arrow keys in the tool rows move to the neighbouring tool: Left/Right along the order, Up/Down
to the button above or below (nearest by its centre). QA pass 9: Down on Flow's first colour went
to "Warp", the last button of the second row."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from solvers.common import registry


def _shown(palette) -> list:
    return [b for b in palette.group.buttons() if b.isVisibleTo(palette)]


def _press(qtbot, palette, button, key) -> str:
    button.setFocus()
    qtbot.keyClick(button, key)
    QApplication.processEvents()
    return palette.current


@pytest.mark.parametrize("kind", list(registry.plugins()))
def test_arrows_move_to_the_neighbouring_tool(main_window, qtbot, kind: str) -> None:
    main_window.resize(1024, 768)
    view = main_window.show_kind(kind)
    view.cancel_jobs(quietly=True)
    main_window.activateWindow()  # focus is only given in the active window
    qtbot.waitUntil(lambda: QApplication.activeWindow() is main_window, timeout=2000)
    for mode in ("edit", "play"):
        view.set_mode(mode)
        QApplication.processEvents()
        palette = view.tools
        shown = _shown(palette)
        if len(shown) < 2:
            continue
        ids = {b: palette.tools[palette.group.id(b)].id for b in shown}
        for b in shown:
            here = b.geometry()
            right = [o for o in shown if o.geometry().top() == here.top() and o.x() > b.x()]
            below = [o for o in shown if o.geometry().top() > here.bottom()]
            if right:
                nxt = min(right, key=lambda o: o.x())
                assert _press(qtbot, palette, b, Qt.Key.Key_Right) == ids[nxt], (kind, mode, ids[b])
                assert _press(qtbot, palette, nxt, Qt.Key.Key_Left) == ids[b], (kind, mode, ids[nxt])
            if below:
                top = min(o.geometry().top() for o in below)
                row = [o for o in below if o.geometry().top() == top]
                centre = here.center().x()
                want = min(row, key=lambda o: (abs(o.geometry().center().x() - centre), o.x()))
                assert _press(qtbot, palette, b, Qt.Key.Key_Down) == ids[want], (kind, mode, ids[b])
                assert palette.group.checkedButton() is want and want.hasFocus()
