"""The panels' Paste URL: nothing on the clipboard says so (QA pass 11: Flow's panel said "Cannot
paste: empty board: no rows found") and the document stays as it was; a pzprv3 text keeps its lines."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QGuiApplication

from widgets.panel_api import EMPTY_CLIPBOARD


@pytest.mark.parametrize(
    ("kind", "tab", "button"), [("flow", "Flow", "paste_url_button"), ("toichika", "Steps", "paste_button")]
)
def test_paste_url_with_an_empty_clipboard_says_so(main_window, kind: str, tab: str, button: str) -> None:
    view = main_window.show_kind(kind)
    panel = view.panel(tab)
    before = view.doc.puzzle
    said: list[str] = []
    view.status_message.connect(said.append)
    for text in ("", "  \n\t"):
        QGuiApplication.clipboard().setText(text)
        getattr(panel, button).click()
        assert said[-1] == EMPTY_CLIPBOARD and view.doc.puzzle is before


def test_flow_paste_url_keeps_the_lines_of_a_pzprv3_text(main_window) -> None:
    """Code review: the panel's Paste URL dropped a pzprv3 text's lines drawn (Open and Edit >
    Paste keep them)."""
    view = main_window.show_kind("flow")
    panel = view.panel("Flow")
    body = "pzprv3/numlin/3/2/1 2 /. . /1 2 /0 /0 /0 /1 1 /1 1 /"  # two straight pipes
    for text in (body, "https://puzz.link/p?" + body):
        QGuiApplication.clipboard().setText(text)
        panel.paste_url_button.click()
        paths = view.doc.entries
        assert view.doc.puzzle.rules == "numberlink" and len(paths.items) == 2, (text, paths)
        assert view.plugin.check(view.doc.puzzle, paths).ok
