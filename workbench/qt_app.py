"""Create the Qt application object once, headless when there is no display."""

from __future__ import annotations

import os
import sys

from PySide6.QtWidgets import QApplication


def ensure_app(headless: bool = False) -> QApplication:
    app = QApplication.instance()
    if app is not None:
        return app  # type: ignore[return-value]
    if headless or (
        sys.platform.startswith("linux")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    ):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    # Pure-Python solver threads hold the GIL for the whole 5 ms default switch interval; every
    # Python slot the GUI runs then waits behind them. 1 ms cut the worst stall ~3x in
    # benchmarks/gui_stall_bench.py.
    sys.setswitchinterval(0.001)
    app = QApplication(sys.argv[:1])
    app.setApplicationName("Puzzle Workbench")
    app.setOrganizationName("PuzzleWorkbench")
    app.setOrganizationDomain("puzzle-workbench.local")
    return app
