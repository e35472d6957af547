"""Paste URL with nothing on the clipboard says so (QA pass 11: Flow's panel said "Cannot paste:
empty board: no rows found"); the document stays as it was."""

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
