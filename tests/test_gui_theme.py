"""Dark mode for the whole window: lists, panels, tool swatches and the board follow one choice."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from workbench import settings

pytestmark = pytest.mark.gui


def _lightness(widget, role=QPalette.ColorRole.Base) -> int:
    return widget.palette().color(role).lightness()


def test_dark_scheme_colours_the_whole_window(main_window, qtbot) -> None:
    view = main_window.show_kind("flow")
    swatch_before = view.tools.group.button(0).icon().pixmap(16, 16).toImage()
    main_window.scheme_actions["dark"].trigger()
    QApplication.processEvents()
    assert main_window.palette_name == "dark" and view.board.palette_.name == "dark"
    assert _lightness(view.browser.view) < 80  # the solution list is not white any more
    assert _lightness(main_window, QPalette.ColorRole.Window) < 80
    assert _lightness(view.source_panel.editor) < 80
    assert view.tools.group.button(0).icon().pixmap(16, 16).toImage() != swatch_before
    assert settings.settings().value("scheme") == "dark"
    main_window.scheme_actions["light"].trigger()
    QApplication.processEvents()
    assert main_window.palette_name == "light"
    assert _lightness(view.browser.view) > 200


def test_follow_system_uses_the_platform_scheme(main_window, monkeypatch) -> None:
    import widgets.theme as theme

    monkeypatch.setattr(theme, "system_is_dark", lambda app: True)
    main_window.set_scheme("system")
    assert main_window.palette_name == "dark"
    monkeypatch.setattr(theme, "system_is_dark", lambda app: False)
    main_window._system_scheme_changed()
    assert main_window.palette_name == "light"
    assert main_window.scheme_actions["system"].isChecked()


def test_japanese_names_only_with_glyphs(qapp, monkeypatch) -> None:
    from PySide6.QtGui import QFontDatabase

    import widgets.fonts as fonts

    assert fonts.has_glyphs("adjacency ban")
    assert fonts.optional_text("") == ""
    fonts.has_glyphs.cache_clear()
    name = "孤立禁"
    installed = any(
        QFontDatabase.writingSystems(family)
        and QFontDatabase.WritingSystem.Japanese in QFontDatabase.writingSystems(family)
        for family in QFontDatabase.families()
    )
    assert fonts.optional_text(name) == (name if installed else "")
    # A character no font has (a private-use code point) is never drawn as a box.
    fonts.has_glyphs.cache_clear()
    assert fonts.optional_text("\U000f0000") == ""


def test_missing_libxcb_cursor_is_one_line_naming_the_package(monkeypatch) -> None:
    import ctypes.util

    from workbench.qt_app import XCB_CURSOR_HINT, missing_xcb_cursor

    monkeypatch.setattr(ctypes.util, "find_library", lambda name: None)
    x11 = {"DISPLAY": ":0"}
    assert missing_xcb_cursor(x11, "linux")
    assert not missing_xcb_cursor({**x11, "QT_QPA_PLATFORM": "offscreen"}, "linux")
    assert not missing_xcb_cursor({**x11, "WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert not missing_xcb_cursor({}, "linux") and not missing_xcb_cursor(x11, "darwin")
    assert "\n" not in XCB_CURSOR_HINT and "libxcb-cursor0" in XCB_CURSOR_HINT
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: "libxcb-cursor.so.0")
    assert not missing_xcb_cursor(x11, "linux")


def test_a_missing_x11_library_is_named(monkeypatch, tmp_path) -> None:
    """Qt's own message names libxcb-cursor0 for any missing xcb library (seen here: libxcb-icccm4
    and libxcb-keysyms1 were missing, xcb-cursor was installed)."""
    import ctypes

    from workbench.qt_app import X11_LIBRARIES_HINT, missing_x11_library

    plugin = tmp_path / "libqxcb.so"
    assert missing_x11_library(plugin) == ""  # no such plugin: nothing to say
    plugin.write_bytes(b"")

    def cannot_load(path: str) -> None:
        raise OSError("libxcb-icccm.so.4: cannot open shared object file: No such file or directory")

    monkeypatch.setattr(ctypes, "CDLL", cannot_load)
    assert missing_x11_library(plugin) == "libxcb-icccm.so.4"
    hint = X11_LIBRARIES_HINT.format(library="libxcb-icccm.so.4")
    assert "\n" not in hint and "libxcb-icccm4" in hint and "libxcb-keysyms1" in hint
    monkeypatch.undo()
    assert isinstance(missing_x11_library(), str)  # the real plug-in: whatever this machine has


def test_the_gui_start_prints_the_package_line(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    code = (
        "import ctypes.util, sys; ctypes.util.find_library = lambda name: None; "
        "from workbench.cli import main; sys.exit(main([]))"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "DISPLAY": ":99",
        "PUZZLE_WORKBENCH_SETTINGS": "test",
        "HOME": str(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "libxcb-cursor0" in lines[0], result.stderr


def test_dark_radio_buttons_and_check_boxes_stand_out(main_window, qtbot) -> None:
    """The Edit/Play radio buttons were nearly invisible in dark mode (issue 29.19)."""
    main_window.set_scheme("dark")
    try:
        view = main_window.show_kind("flow")
        qtbot.wait(50)
        for radio in (view.edit_radio, view.play_radio):
            image = radio.grab().toImage()
            window = radio.palette().color(QPalette.ColorRole.Window).lightness()
            # The indicator's rim: the brightest pixel left of the label text.
            rim = max(
                image.pixelColor(x, y).lightness()
                for x in range(min(16, image.width()))
                for y in range(image.height())
            )
            assert rim - window > 80, (radio.text(), rim, window)
    finally:
        main_window.set_scheme("light")
    assert QApplication.instance().styleSheet() == ""
