"""Create the Qt application object once, headless when there is no display."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication

XCB_CURSOR_HINT = (
    "the Qt window system plugin needs the system library libxcb-cursor0 "
    "(Debian/Ubuntu: sudo apt install libxcb-cursor0; Fedora: sudo dnf install xcb-util-cursor; "
    "Arch: sudo pacman -S xcb-util-cursor)"
)
# Qt's own message for any of these names libxcb-cursor0 only, with a long plugin list, and aborts
X11_LIBRARIES_HINT = (
    "the Qt window system plugin cannot load the system library {library} "
    "(Debian/Ubuntu: sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 "
    "libxcb-render-util0 libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0; Fedora: sudo dnf install "
    "xcb-util-cursor xcb-util-wm xcb-util-keysyms xcb-util-image xcb-util-renderutil libxkbcommon-x11)"
)


def _uses_x11(env: dict[str, str], platform: str) -> bool:
    chosen = env.get("QT_QPA_PLATFORM", "")
    if not platform.startswith("linux") or chosen not in ("", "xcb"):
        return False
    # no X server, or a Wayland session where Qt picks its Wayland plugin
    return bool(env.get("DISPLAY")) and not (env.get("WAYLAND_DISPLAY") and chosen != "xcb")


def missing_xcb_cursor(env: dict[str, str] | None = None, platform: str | None = None) -> bool:
    """On Linux under X11, Qt 6.5+ dies at start (with a long plugin list) without libxcb-cursor.

    Checked before Qt tries, so the user gets one line naming the package instead.
    """
    import ctypes.util

    env = dict(os.environ) if env is None else env
    platform = sys.platform if platform is None else platform
    if not _uses_x11(env, platform):
        return False
    bundled = getattr(sys, "_MEIPASS", None)  # a PyInstaller bundle carries the library itself
    if bundled and any(Path(bundled).glob("libxcb-cursor.so*")):
        return False
    return ctypes.util.find_library("xcb-cursor") is None


def missing_x11_library(plugin: Path | None = None) -> str:
    """The first system library Qt's X11 plugin cannot load ('' when it loads): a trial load of the
    plugin, which Qt would load next anyway."""
    import ctypes

    if plugin is None:
        import PySide6

        plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    if not plugin.exists():
        return ""
    try:
        ctypes.CDLL(str(plugin))
    except OSError as exc:
        found = re.search(r"(lib[\w.+-]+?\.so[.\d]*)", str(exc))
        return found.group(1) if found else str(exc)
    return ""


OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints()"  # once per window shown


def _without_offscreen_noise(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
    """Qt's default output (category, message), without the offscreen platform's line per window:
    a --screenshot run printed it a dozen times."""
    if message == OFFSCREEN_NOISE:
        return
    category = context.category
    sys.stderr.write(f"{category}: {message}\n" if category and category != "default" else f"{message}\n")


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
    if _uses_x11(dict(os.environ), sys.platform) and (library := missing_x11_library()):
        from solvers.common.errors import InputError

        raise InputError(X11_LIBRARIES_HINT.format(library=library))
    if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        qInstallMessageHandler(_without_offscreen_noise)
    app = QApplication(sys.argv[:1])
    app.setApplicationName("Puzzle Workbench")
    app.setOrganizationName("PuzzleWorkbench")
    app.setOrganizationDomain("puzzle-workbench.local")
    # The window's icon and name on Wayland come from the desktop entry --install-desktop writes.
    app.setDesktopFileName("local.puzzle_workbench.PuzzleWorkbench")
    from importlib import resources

    from PySide6.QtGui import QIcon

    app.setWindowIcon(QIcon(str(resources.files("assets") / "desktop" / "icons" / "app.svg")))
    return app
