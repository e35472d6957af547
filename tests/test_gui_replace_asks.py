"""Generators and panel pastes ask before replacing unsaved work, as Open, Import and Paste do (29.9)."""

from __future__ import annotations

import pytest

from solvers.common.protocol import EditResult

pytestmark = pytest.mark.gui


def _dirty(view, text: str) -> None:
    puzzle = view.plugin.parse(text)
    view.doc.apply(EditResult(puzzle=puzzle, entries=view.plugin.empty_entries(puzzle), label="my edit"))
    assert view.doc.dirty


def _answering(window, answer: str) -> list[str]:
    asked: list[str] = []

    def confirm(view) -> str:
        asked.append(view.plugin.meta.id)
        return answer

    window.confirm = confirm
    return asked


def _generate_flow(view) -> None:
    panel = view.panel("Flow")
    panel.generator.width_box.setValue(5)
    panel.generator.height_box.setValue(5)
    panel.generator.generate_button.click()


def _generate_toichika(view) -> None:
    generator = view.panel("Steps").generator
    generator.gen_width.setValue(4)
    generator.gen_height.setValue(4)
    generator.gen_seed.setValue(7)
    generator.generate_button.click()


def _paste_toichika(view) -> None:
    view.panel("Steps").paste_url("https://puzz.link/p?toichika/4/4/n70kt84j")


CASES = [
    ("flow", "R..R\nG..G\n....\n", _generate_flow),
    ("toichika", "https://puzz.link/p?toichika/6/2/vv00g", _generate_toichika),
    ("toichika", "https://puzz.link/p?toichika/6/2/vv00g", _paste_toichika),
]


@pytest.mark.parametrize(("kind", "mine", "replace"), CASES)
def test_cancel_keeps_the_users_board_and_discard_replaces_it(
    main_window, qtbot, kind, mine, replace
) -> None:
    view = main_window.show_kind(kind)
    _dirty(view, mine)
    kept = view.doc.puzzle
    asked = _answering(main_window, "cancel")
    replace(view)
    assert asked == [kind]
    qtbot.wait(300)
    assert view.doc.puzzle is kept
    asked = _answering(main_window, "discard")
    replace(view)
    assert asked == [kind]
    qtbot.waitUntil(lambda: view.doc.puzzle != kept, timeout=60_000)
    qtbot.waitUntil(lambda: not view.busy(), timeout=60_000)


def test_a_saved_board_is_replaced_without_a_question(main_window, qtbot) -> None:
    view = main_window.show_kind("toichika")
    asked = _answering(main_window, "cancel")
    _paste_toichika(view)
    assert asked == []
    assert view.plugin.serialize(view.doc.puzzle) == view.plugin.serialize(
        view.plugin.parse("https://puzz.link/p?toichika/4/4/n70kt84j")
    )


def _flow_with_unsaved_edits(main_window):
    """Flow with an edited board, and the error dialogs' texts as they come."""
    view = main_window.show_kind("flow")
    _dirty(view, "R..R\nG..G\n....\n")
    errors: list[str] = []
    main_window.error_shown.connect(errors.append)
    return view, view.doc.puzzle, errors


def test_edit_paste_reads_the_clipboard_before_it_asks(main_window, qtbot) -> None:
    # A truncated URL asked "Save your changes?" first and only then said it could not be read.
    from PySide6.QtGui import QGuiApplication

    view, kept, errors = _flow_with_unsaved_edits(main_window)
    asked = _answering(main_window, "discard")
    QGuiApplication.clipboard().setText("https://puzz.link/p?numlin/36/20/1k2zh3")
    main_window.act_paste.trigger()
    assert asked == [] and errors and "truncated" in errors[0]
    assert view.doc.puzzle is kept
    asked = _answering(main_window, "cancel")
    QGuiApplication.clipboard().setText("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3")
    main_window.act_paste.trigger()
    assert asked == ["flow"] and view.doc.puzzle is kept
    asked = _answering(main_window, "discard")
    main_window.act_paste.trigger()
    assert asked == ["flow"] and view.doc.puzzle.rules == "numberlink" and view.doc.puzzle.rows == 5


def test_open_reads_the_file_before_it_asks(main_window, qtbot, tmp_path) -> None:
    """QA pass 7: Open asked "Save your changes?" and only then said the file could not be read
    (an empty file, another module's position). Now a file that cannot open asks nothing; one
    that can asks, and Cancel keeps the board."""
    view, kept, errors = _flow_with_unsaved_edits(main_window)
    asked = _answering(main_window, "discard")
    empty = tmp_path / "empty.flow"
    empty.write_text("", encoding="utf-8")
    assert not main_window.files.open_path(empty, "flow")
    assert asked == [] and errors and "empty.flow" in errors[-1]
    assert view.doc.puzzle is kept and view.doc.dirty
    good = tmp_path / "good.flow"
    good.write_text("R.R\nG.G\n", encoding="utf-8")
    asked = _answering(main_window, "cancel")
    assert not main_window.files.open_path(good, "flow")
    assert asked == ["flow"] and view.doc.puzzle is kept
    asked = _answering(main_window, "discard")
    assert main_window.files.open_path(good, "flow")
    assert asked == ["flow"] and view.doc.path == good and not view.doc.dirty


def test_paste_is_in_the_edit_menu_too(main_window) -> None:
    """A new user looked for Paste under Edit and found only Undo, Redo, Resize and Clear."""
    menus = {a.text().replace("&", ""): a.menu() for a in main_window.menuBar().actions() if a.menu()}
    assert main_window.act_paste in menus["Edit"].actions()
    assert main_window.act_paste in menus["File"].actions()


@pytest.mark.parametrize("kind", ["flow", "toichika", "ninetiles", "doves", "xcetero", "example"])
def test_copy_puzzle_and_paste_puzzle_round_trip(main_window, kind: str) -> None:
    """QA: Edit had Paste Puzzle but no Copy Puzzle. Copy gives what Save writes; Paste reads it
    back into a document that draws the same, in every module."""
    from PySide6.QtGui import QGuiApplication

    menus = {a.text().replace("&", ""): a.menu() for a in main_window.menuBar().actions() if a.menu()}
    assert main_window.act_copy_puzzle in menus["Edit"].actions()
    view = main_window.show_kind(kind)
    before = view.picture(with_solution=False).signature()
    QGuiApplication.clipboard().setText("")
    main_window.act_copy_puzzle.trigger()
    text = QGuiApplication.clipboard().text()
    assert text == view.plugin.serialize_document(view.doc.puzzle, view.doc.entries) and text.strip()
    assert main_window.statusBar().currentMessage() == "Puzzle copied to the clipboard as text"
    view.doc.reset(view.plugin.new_puzzle())
    main_window.act_paste.trigger()
    assert view.picture(with_solution=False).signature() == before
