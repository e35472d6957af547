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
