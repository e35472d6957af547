"""QA pass 9, a returning user's Open Recent: a file deleted or moved since stayed in the list and
failed with the same dialog every time; the entries had no number to pick them by keyboard, showed
the module's id ("flow") and took an '&' in a file name for a mnemonic."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench import settings

pytestmark = pytest.mark.gui


@pytest.fixture(autouse=True)
def _no_recent():
    settings.settings().remove("recent")
    yield
    settings.settings().remove("recent")


def _entries(window) -> dict[str, object]:
    window.files.fill_recent()
    return {a.toolTip(): a for a in window.recent_menu.actions()}


def test_a_recent_file_that_is_gone_leaves_the_list(main_window, qtbot, tmp_path: Path) -> None:
    kept, gone = tmp_path / "kept.latin", tmp_path / "gone.latin"
    for path in (kept, gone):
        path.write_text("12\n21\n")
        assert main_window.files.open_path(path, "example")
    gone.unlink()  # deleted (or moved) between two sessions
    with qtbot.waitSignal(main_window.error_shown, timeout=2000) as said:
        _entries(main_window)[str(gone)].trigger()
    assert "removed from Open Recent" in said.args[0]
    assert settings.recent_files() == [f"example|{kept}"]
    assert list(_entries(main_window)) == [str(kept)]


def test_recent_entries_are_numbered_and_named_by_module(main_window, tmp_path: Path) -> None:
    first, second = tmp_path / "Tom&Jerry.latin", tmp_path / "b.latin"
    for path in (first, second):
        path.write_text("12\n21\n")
        assert main_window.files.open_path(path, "example")
    entries = _entries(main_window)
    assert entries[str(second)].text() == "&1  b.latin  (Latin square)"
    assert entries[str(first)].text() == "&2  Tom&&Jerry.latin  (Latin square)"
