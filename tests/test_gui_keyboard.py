"""The board's keyboard cursor in the real main window (pytest-qt)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui


def test_the_cursor_shows_when_the_board_gets_the_keys(main_window, qtbot) -> None:
    """QA: the cursor appeared only with the first key, which already acted on R1C1 unseen: after
    opening a file, Enter removed the endpoint there. It now shows once the board has the keys."""
    view = main_window.show_kind("flow")
    assert main_window.files.open_sample("flow", view.plugin.sample_paths()[0])
    view.board.cursor_cell = None
    main_window.activateWindow()
    view.board.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(view.board.hasFocus, timeout=2000)
    assert view.board.cursor_cell == (0, 0)
    before = view.doc.puzzle
    qtbot.keyClick(view.board, Qt.Key.Key_Right)  # the first key moves the cursor it shows
    assert view.board.cursor_cell == (0, 1) and view.doc.puzzle == before


def _mnemonic(text: str) -> str:
    at = text.replace("&&", "").find("&")
    return text.replace("&&", "")[at + 1].lower() if at >= 0 else ""


@pytest.mark.parametrize("kind", ["flow", "toichika", "ninetiles", "doves", "xcetero", "example"])
def test_menu_letters_are_unique_in_every_menu(main_window, kind: str) -> None:
    """QA (keyboard only): File had Open &Sample, &Save and Import &Screenshot on one letter, so
    Alt+F, S reached only the first; Puzzle had Show &Puzzle Only and &Play Mode."""
    main_window.show_kind(kind)
    for menu_action in main_window.menuBar().actions():
        menu = menu_action.menu()
        letters = [_mnemonic(a.text()) for a in menu.actions() if a.isVisible() and not a.isSeparator()]
        letters = [ch for ch in letters if ch]
        assert len(letters) == len(set(letters)), (menu_action.text(), letters)
