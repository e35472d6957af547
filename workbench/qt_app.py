"""Create the Qt application object once, headless when there is no display."""

from __future__ import annotations

import os
import sys

from PySide6.QtWidgets import QApplication

XCB_CURSOR_HINT = (
    "the Qt window system plugin needs the system library libxcb-cursor0 "
    "(Debian/Ubuntu: sudo apt install libxcb-cursor0; Fedora: sudo dnf install xcb-util-cursor; "
    "Arch: sudo pacman -S xcb-util-cursor)"
)


def missing_xcb_cursor(env: dict[str, str] | None = None, platform: str | None = None) -> bool:
    """On Linux under X11, Qt 6.5+ dies at start (with a long plugin list) without libxcb-cursor.

    Checked before Qt tries, so the user gets one line naming the package instead.
    """
    import ctypes.util

    env = dict(os.environ) if env is None else env
    platform = sys.platform if platform is None else platform
    chosen = env.get("QT_QPA_PLATFORM", "")
    if not platform.startswith("linux") or chosen not in ("", "xcb"):
        return False
    if not env.get("DISPLAY") or (env.get("WAYLAND_DISPLAY") and chosen != "xcb"):
        return False  # no X server, or a Wayland session where Qt picks its Wayland plugin
    return ctypes.util.find_library("xcb-cursor") is None


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
    if missing_xcb_cursor():
        from solvers.common.errors import InputError

        raise InputError(XCB_CURSOR_HINT)
    app = QApplication(sys.argv[:1])
    app.setApplicationName("Puzzle Workbench")
    app.setOrganizationName("PuzzleWorkbench")
    app.setOrganizationDomain("puzzle-workbench.local")
    return app
