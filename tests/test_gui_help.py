"""Help -> How to play and Keyboard and mouse: written by every plug-in, shown by the shell."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from solvers.common import registry
from solvers.common.protocol import PluginBase

pytestmark = pytest.mark.gui

KINDS = list(registry.plugins())


@pytest.mark.parametrize("kind", KINDS)
def test_every_plugin_writes_its_own_rules_and_controls(kind: str) -> None:
    plugin = registry.get(kind)
    assert type(plugin).help_rules is not PluginBase.help_rules  # not the one-line default
    rules = plugin.help_rules()
    assert len(rules) > 100 and rules != plugin.meta.description
    keys = plugin.help_keys()
    assert len(keys) >= 3 and all(key and what for key, what in keys)


@pytest.mark.parametrize("kind", KINDS)
def test_how_to_play_shows_rules_and_a_diagram(main_window, qtbot, kind: str) -> None:
    main_window.show_kind(kind)
    main_window.act_how_to_play.trigger()
    dialog = main_window.help.help_dialog
    assert dialog is not None and dialog.isVisible()
    plain = dialog.text.toPlainText()
    first_sentence = registry.get(kind).help_rules().split(".")[0]
    assert first_sentence[:40] in plain
    pixmap = dialog.diagram.pixmap()
    assert not pixmap.isNull() and max(pixmap.width(), pixmap.height()) >= 200
    # QA: the puzzles showed an unsolved diagram only; the answer beside it shows the goal
    answer = dialog.answer.pixmap()
    if kind in ("flow", "toichika", "example"):
        assert not answer.isNull() and answer.size() == pixmap.size() and answer.toImage() != pixmap.toImage()
        assert dialog.answer.accessibleName() == "Example diagram: solved"
    else:  # a game or a town builder: a position, nothing to solve in it
        assert answer.isNull() and dialog.diagram.accessibleName() == "Example diagram"
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()


def test_keyboard_and_mouse_lists_module_tool_and_shell_keys(main_window, qtbot) -> None:
    main_window.show_kind("toichika")
    main_window.act_keys_help.trigger()
    plain = main_window.help.help_dialog.text.toPlainText()
    assert "Paint tool" in plain  # the module's own words
    assert "Paint country tool" in plain  # a tool shortcut from the tool list
    assert "Ctrl+Z" in plain and "Ctrl+Shift+Z" in plain and "Ctrl+0" in plain
    assert main_window.act_how_to_play.shortcut().toString() == "F1"


@pytest.mark.parametrize("kind", KINDS)
def test_no_key_is_listed_with_two_meanings(main_window, kind: str) -> None:
    """Flow listed Delete three ways: the Erase tool's shortcut, 'remove the endpoint' and 'clear the
    pipe' (issue 29.22). A tool shortcut must not be a key the module's own list already explains."""
    import re

    view = main_window.show_kind(kind)
    plugin = view.plugin
    explained = {
        word.lower()
        for key, _ in plugin.help_keys()
        for word in re.findall(r"[A-Za-z]+|\S", key)
        if len(word) > 1
    }
    shortcuts = [t.shortcut for t in plugin.tools(view.doc.puzzle) if t.shortcut and len(t.shortcut) > 1]
    assert not [s for s in shortcuts if s.lower() in explained]
    # One-letter keys too (QA: X-ceter-O listed "Edit: D" and a "D" tool, Toichika "B P A Q D M E"
    # beside its Tools section): a key is written as a capital or a digit standing alone.
    written = {token for key, _ in plugin.help_keys() for token in re.findall(r"(?<!\S)[A-Z0-9](?!\S)", key)}
    letters = [t.shortcut for t in plugin.tools(view.doc.puzzle) if t.shortcut and len(t.shortcut) == 1]
    assert not [s for s in letters if s.upper() in written]
