"""File > Import Screenshot in the real main window (pytest-qt); the confirm dialog itself is
tested in test_screenshot_review_gui.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from solvers.flow.model import FlowPuzzle
from solvers.flow.screenshot_synth import Scene, Style, encode, level_scene, render

pytestmark = pytest.mark.gui
READ_TIMEOUT = 60_000  # ms: the picture is read in a worker process, slow to start on a busy machine


def _action(window):
    actions = [a for a in window.menuBar().actions() if a.text() == "&File"][0].menu().actions()
    matches = [a for a in actions if a.text() == "&Import Screenshot…"]
    assert len(matches) == 1
    return matches[0]


def _choose(monkeypatch, path: Path) -> list[str]:
    asked: list[str] = []

    def fake(parent, caption, folder, filters, *rest):
        asked.append(filters)
        return str(path), filters.split(";;")[0]

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(fake))
    return asked


def _confirm(main_window, qtbot, answer: str) -> str:
    """Wait for the confirm dialog to show the reading, answer it; the dialog's line."""
    dialog = main_window.files.review.dialog
    qtbot.waitUntil(lambda: dialog.review is not None, timeout=READ_TIMEOUT)
    text = dialog.summary.text()
    (dialog.use_button if answer == "use" else dialog.edit_button).click()
    return text


def test_menu_import_opens_an_untitled_document(main_window, qtbot, tmp_path, monkeypatch) -> None:
    scene = level_scene(7, 9, 8)  # a real level: the importer checks that it solves
    shot = tmp_path / "phone.png"
    shot.write_bytes(encode(render(scene, Style(width=1080, height=1920)), ".png"))
    asked = _choose(monkeypatch, shot)
    main_window.show_kind("xcetero")  # the import switches to Flow by itself
    _action(main_window).trigger()
    _confirm(main_window, qtbot, "use")
    view = main_window.current()
    assert view.plugin.meta.id == "flow"
    assert "*.png" in asked[0] and "*.jpg" in asked[0]
    assert view.doc.puzzle == scene.puzzle
    assert view.doc.puzzle.endpoints() == scene.puzzle.endpoints()
    assert view.doc.path is None and view.doc.dirty  # untitled: Save asks for a name
    assert main_window.files.last_notice is None  # nothing to report
    assert "Imported phone.png: 7x9" in main_window.statusBar().currentMessage()
    view.doc.undo_stack.undo()  # one undoable step
    assert view.doc.puzzle != scene.puzzle


def test_menu_import_of_a_hex_screenshot(main_window, qtbot, tmp_path, monkeypatch) -> None:
    """A Flow Free: Hexes picture opens as a hex board, the dialog's line says so."""
    from solvers.flow.screenshot_synth import HexStyle, hex_level_scene, render_hex

    scene = hex_level_scene(5, 5, seed=2)
    shot = tmp_path / "hexes.jpg"
    shot.write_bytes(encode(render_hex(scene, HexStyle(flat=False))[0], ".jpg", 90))
    _choose(monkeypatch, shot)
    _action(main_window).trigger()
    assert _confirm(main_window, qtbot, "use").startswith("Read: 5x5 hex,")
    view = main_window.current()
    assert view.doc.puzzle == scene.puzzle and view.doc.puzzle.hex


def test_walls_and_odd_colours_are_shown_for_editing(main_window, qtbot, tmp_path, monkeypatch) -> None:
    puzzle = FlowPuzzle.from_rows(["R...B", ".....", "..R..", ".....", "Y.R.Y"])
    shot = tmp_path / "odd.jpg"
    scene = Scene(puzzle, walls=(((1, 1), (1, 2)),))
    shot.write_bytes(encode(render(scene, Style(width=720, height=1280)), ".jpg", 75))
    _choose(monkeypatch, shot)
    _action(main_window).trigger()
    text = _confirm(main_window, qtbot, "edit")
    assert "'R' (red) has 3 dots (R1C1, R3C3, R5C3) (and 1 more)" in text
    shown = main_window.current().doc.puzzle  # shown as read, walls included, for the user to correct
    assert shown.cells == puzzle.cells and shown.walls == {((1, 1), (1, 2))}


@pytest.mark.parametrize("content", [b"R.R\n", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, b""])
def test_a_non_image_gives_a_dialog(main_window, qtbot, tmp_path, monkeypatch, content) -> None:
    bad = tmp_path / "not-a-picture.png"
    bad.write_bytes(content)
    _choose(monkeypatch, bad)
    before = main_window.show_kind("flow").doc.puzzle
    with qtbot.waitSignal(main_window.error_shown, timeout=READ_TIMEOUT) as blocker:
        _action(main_window).trigger()
    assert "not-a-picture.png" in blocker.args[0]
    assert main_window.last_error is not None and main_window.last_error.isVisible()
    assert main_window.last_error.windowTitle() == "Cannot import"
    assert main_window.current().doc.puzzle == before
    main_window.last_error.close()


def test_cancelled_file_dialog_changes_nothing(main_window, monkeypatch) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a: ("", "")))
    view = main_window.show_kind("flow")
    before = view.doc.puzzle
    _action(main_window).trigger()
    assert view.doc.puzzle == before and not view.doc.dirty
