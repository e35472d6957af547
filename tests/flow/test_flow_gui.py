"""The Flow panel inside the real main window (pytest-qt)."""

from __future__ import annotations

import pytest

from solvers.common.protocol import EditEvent, EditResult
from solvers.flow import FlowPaths

pytestmark = pytest.mark.gui


@pytest.fixture
def view(main_window):
    win = main_window
    view = win.show_kind("flow")
    yield view


def _panel(view):
    from widgets.panels.flow import FlowPanel

    widget = view.panel("Flow")
    assert isinstance(widget, FlowPanel)
    return widget


def test_hints_solve_the_sample_and_undo(view, qtbot) -> None:
    panel = _panel(view)
    puzzle = view.doc.puzzle
    colours = len(puzzle.colours)
    assert panel.progress_label.text().startswith(f"0 of {colours} pipes joined")
    panel.hint()
    qtbot.waitUntil(lambda: len([p for _, p in view.doc.entries.items if p]) == 1, timeout=60000)
    for _ in range(colours - 1):
        panel.hint()
    assert view.plugin.check(puzzle, view.doc.entries).ok
    assert "Solved" in panel.progress_label.text()
    view.doc.undo_stack.undo()
    assert not view.plugin.check(puzzle, view.doc.entries).ok
    panel.clear_pipes()
    assert view.doc.entries == FlowPaths()


def test_play_mode_drag_through_the_shell(view) -> None:
    view.doc.apply(EditResult(puzzle=view.plugin.parse("R.R\nG.G\n"), entries=FlowPaths(), label="t"))
    view.set_mode("play")
    for kind, cell in [("press", (0, 0)), ("drag", (0, 1)), ("drag", (0, 2)), ("release", (0, 2))]:
        view.input.on_edit_event(EditEvent(kind, tool="pipe", mode="play", cell=cell, button="left"))
    assert view.doc.entries.get("R") == ((0, 0), (0, 1), (0, 2))
    assert "1 of 2 pipes joined" in _panel(view).progress_label.text()


def test_generator_button(view, qtbot) -> None:
    panel = _panel(view)
    panel.generator.width_box.setValue(6)
    panel.generator.height_box.setValue(4)
    panel.generator.colours_box.setValue(4)
    panel.generator.new_random()
    qtbot.waitUntil(lambda: view.doc.puzzle.cols == 6 and view.doc.puzzle.rows == 4, timeout=20000)
    assert len(view.doc.puzzle.colours) == 4
    assert view.plugin.count(view.doc.puzzle).status() == "unique"
    assert (panel.generator.width_box.value(), panel.generator.height_box.value()) == (6, 4)


def test_generator_size_follows_the_board(view) -> None:
    """The generator's boxes said 7x7 beside an opened 14x9 board; a size typed in stays while the
    board keeps its size, and a size past the boxes' range is clamped."""
    panel = _panel(view)
    view.doc.replace(view.plugin.new_puzzle(9, 14), "open")
    assert (panel.generator.width_box.value(), panel.generator.height_box.value()) == (14, 9)
    panel.generator.width_box.setValue(20)
    view.doc.apply(EditResult(puzzle=view.plugin.parse("R.R\n...\nG.G\n"), entries=FlowPaths(), label="t"))
    assert (panel.generator.width_box.value(), panel.generator.height_box.value()) == (3, 3)
    panel.generator.width_box.setValue(20)
    view.doc.apply(EditResult(puzzle=view.plugin.parse("R.G\n...\nG.R\n"), entries=FlowPaths(), label="t"))
    assert panel.generator.width_box.value() == 20  # same size: the typed width stays
    view.doc.replace(view.plugin.new_puzzle(60, 70), "open")
    assert (panel.generator.width_box.value(), panel.generator.height_box.value()) == (50, 50)


def test_cancelled_hint_job_does_not_block(view, qtbot) -> None:
    panel = _panel(view)
    panel.hint()
    job = panel._hint_job
    job.cancel()
    qtbot.waitUntil(lambda: job.done, timeout=60000)
    panel.hint()  # a cancelled job calls no callback; the next click must still work
    qtbot.waitUntil(lambda: any(p for _, p in view.doc.entries.items), timeout=60000)
    assert panel.hint_button.isEnabled()


def test_strict_uniqueness_button(view, qtbot) -> None:
    panel = _panel(view)
    # The U-turn board: no designed solution, exactly one strict one.
    view.doc.apply(EditResult(puzzle=view.plugin.parse("A..\nA..\n"), entries=FlowPaths(), label="t"))
    panel.strict_count()
    qtbot.waitUntil(lambda: "Counting" not in panel.strict_label.text(), timeout=60000)
    assert "Unique (game rules)" in panel.strict_label.text()
    view.doc.apply(
        EditResult(puzzle=view.plugin.parse("A....\n.....\n....A\n"), entries=FlowPaths(), label="t")
    )
    assert panel.strict_label.text() == ""
    panel.strict_count()
    qtbot.waitUntil(lambda: "Counting" not in panel.strict_label.text(), timeout=60000)
    assert "2+ solutions under the game rules" in panel.strict_label.text()


def test_drawing_a_pipe_in_play_mode_keeps_the_solutions(view, qtbot) -> None:
    """The puzzle is unchanged by a pipe, so its solutions and verdict still hold (issue 29.7)."""
    view.doc.apply(EditResult(puzzle=view.plugin.parse("R.R\nG.G\n"), entries=FlowPaths(), label="t"))
    with qtbot.waitSignal(view.solve_finished, timeout=20000):
        view.solve(2)
    assert view.browser.count() == 1
    verdict = view.browser.status.text()
    view.set_mode("play")
    for kind, cell in [("press", (0, 0)), ("drag", (0, 1)), ("release", (0, 1))]:
        view.input.on_edit_event(EditEvent(kind, tool="pipe", mode="play", cell=cell, button="left"))
    assert view.doc.entries.get("R") == ((0, 0), (0, 1))
    assert view.browser.count() == 1
    assert view.browser.status.text() == verdict
    # An edit of the puzzle itself still retires them.
    view.doc.apply(EditResult(puzzle=view.plugin.parse("R.R\nGG.\n"), entries=FlowPaths(), label="t2"))
    assert view.browser.count() == 0
    assert "again" in view.browser.status.text()


def test_clear_pipes_leaves_the_keyboard_on_the_board(view, qtbot) -> None:
    """Clear pipes disabled itself and Qt moved the focus into the generator's Width box (29.20)."""
    from PySide6.QtCore import Qt

    view.doc.apply(EditResult(puzzle=view.plugin.parse("R.R\nG.G\n"), entries=FlowPaths(), label="t"))
    view.set_mode("play")
    for kind, cell in [("press", (0, 0)), ("drag", (0, 1)), ("release", (0, 1))]:
        view.input.on_edit_event(EditEvent(kind, tool="pipe", mode="play", cell=cell, button="left"))
    panel = _panel(view)
    view.side.setCurrentIndex(view.side.indexOf(panel.parentWidget().parentWidget()))
    view.board.setFocus()
    qtbot.waitUntil(view.board.hasFocus, timeout=2000)
    assert panel.clear_button.isEnabled()
    qtbot.mouseClick(panel.clear_button, Qt.MouseButton.LeftButton)
    assert view.doc.entries == FlowPaths() and not panel.clear_button.isEnabled()
    assert view.board.hasFocus()
    assert not panel.generator.width_box.hasFocus()


def test_open_sample_offers_the_variant_boards_and_holes_are_drawn_as_holes(main_window, qtbot) -> None:
    """Open Sample had no variant boards, and an interior hole looked like an empty cell (29.18)."""
    from solvers.common.display import Rect
    from solvers.flow.model import HOLE

    main_window.files.fill_samples()
    flow_menu = next(a.menu() for a in main_window.samples_menu.actions() if a.text() == "Flow Free")
    variants = next(a.menu() for a in flow_menu.actions() if a.menu() and a.text().startswith("Variants"))
    names = [a.text() for a in variants.actions()]
    assert {"variant_walls", "variant_holes", "variant_bridges", "variant_warps", "variant_hex"} <= set(names)
    next(a for a in variants.actions() if a.text() == "variant_holes").trigger()
    view = main_window.current()
    puzzle = view.doc.puzzle
    holes = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if puzzle.at(r, c) == HOLE]
    assert holes and view.doc.path is None  # a sample opens as a template
    shaded = [it for it in view.board.display_list().items if isinstance(it, Rect) and it.fill == "muted"]
    assert len(shaded) == len(holes)
    assert "warps" in view.plugin.help_rules() and "holes" in view.plugin.help_rules()


def test_copy_and_paste_a_puzz_link_url(view, qtbot) -> None:
    """Issue 28: Paste URL and Copy URL in the GUI; bad URLs get one line in the status bar."""
    from PySide6.QtGui import QGuiApplication

    panel = _panel(view)
    url = "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"  # pzprjs's own sample
    QGuiApplication.clipboard().setText(url)
    panel.paste_url_button.click()
    puzzle = view.doc.puzzle
    assert (puzzle.cols, puzzle.rows, puzzle.rules) == (5, 5, "numberlink") and view.doc.path is None
    QGuiApplication.clipboard().setText("")
    panel.copy_url_button.click()
    assert QGuiApplication.clipboard().text() == url
    with qtbot.waitSignal(view.solve_finished, timeout=60_000):
        view.solve(2)
    assert view.browser.status.text().startswith("Unique (Numberlink rules)")
    messages: list[str] = []
    view.status_message.connect(messages.append)
    panel.paste_url("https://puzz.link/p?numlin/5/5/1j2")  # truncated body
    assert view.doc.puzzle is puzzle and messages and messages[-1].startswith("Cannot paste:")
    panel.paste_url(url)  # a good paste replaces that word (it stayed, describing the new board)
    assert messages[-1].startswith("Pasted: 5x5, 3 pairs, Numberlink rules"), messages[-1]
    view.doc.apply(EditResult(puzzle=view.plugin.parse("R.R\nG#G\n"), entries=FlowPaths(), label="hole"))
    panel.copy_url_button.click()
    assert messages[-1].startswith("No puzz.link URL for this board:")


def test_a_solved_numberlink_board_is_not_called_full(view, qtbot) -> None:
    """Under Numberlink rules a solved board may keep empty cells: the Play box said "Solved! Every
    pair is joined and the board is full." with a cell left empty."""
    panel = _panel(view)
    puzzle = view.plugin.parse("rules: numberlink\n1.1\n...\n2.2\n")
    entries = FlowPaths().with_path("1", ((0, 0), (0, 1), (0, 2)), active="")
    entries = entries.with_path("2", ((2, 0), (2, 1), (2, 2)), active="")
    view.doc.apply(EditResult(puzzle=puzzle, entries=entries, label="t"))
    assert view.plugin.check(puzzle, entries).ok  # the middle row stays empty, as the rules allow
    text = panel.progress_label.text()
    assert "Solved" in text and "full" not in text


def test_the_rules_box_shows_and_sets_the_puzzles_rule_set(view, qtbot) -> None:
    """Issue 28: the rule set belongs to the puzzle, but the GUI had no way to see or choose it: a
    board drawn with numbers could never become a Numberlink puzzle without editing the file."""
    panel = _panel(view)
    panel.paste_url("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3")
    assert panel.rules_box.currentData() == "numberlink"
    view.doc.apply(EditResult(puzzle=view.plugin.parse("12\n12\n"), entries=FlowPaths(), label="t"))
    assert panel.rules_box.currentData() == "flow"
    texts = [it.text for it in view.board.display_list().items if type(it).__name__ == "Text"]
    assert texts == []  # a Flow board with digit letters keeps plain dots
    index = panel.rules_box.findData("numberlink")
    panel.rules_box.setCurrentIndex(index)
    panel.rules_box.activated.emit(index)  # as a user's pick in the list
    assert view.doc.puzzle.rules == "numberlink"
    assert view.doc.undo_stack.undoText() == "Numberlink rules"
    assert "rules: numberlink" in view.plugin.serialize(view.doc.puzzle)
    texts = [it.text for it in view.board.display_list().items if type(it).__name__ == "Text"]
    assert sorted(texts) == ["1", "1", "2", "2"]  # now it looks like Numberlink
    with qtbot.waitSignal(view.solve_finished, timeout=60_000):
        view.solve(2)
    assert view.browser.status.text().startswith("Unique (Numberlink rules)")
    view.doc.undo_stack.undo()
    assert view.doc.puzzle.rules == "flow" and panel.rules_box.currentData() == "flow"


def test_the_line_under_the_board_names_the_shown_solution(view, qtbot) -> None:
    """A Flow solution's label is its rule set, and the line read "Showing Numberlink rules (F7
    shows the puzzle)" (or "Showing designed"), as if the board showed the rules."""
    view.doc.apply(
        EditResult(
            puzzle=view.plugin.parse("rules: numberlink\n1.1\n...\n2.2\n"), entries=FlowPaths(), label="t"
        )
    )
    with qtbot.waitSignal(view.solve_finished, timeout=60_000):
        view.solve(2)
    assert view.browser.count() == 2
    assert view.info.text().startswith("Showing solution 1 (Numberlink rules; F7 shows the puzzle) — 3x3")
    view.browser.select(1)
    assert view.info.text().startswith("Showing solution 2 (Numberlink rules; F7 shows the puzzle)")


NUMLIN = "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"


def test_typing_1_then_2_places_12_as_one_undo_step_and_it_saves(view, qtbot, tmp_path) -> None:
    """A Numberlink fan could not draw number 10+: each key placed one digit, replacing the last."""
    _panel(view).paste_url(NUMLIN)
    view.set_mode("edit")
    view.board.setFocus()
    view.board.cursor_cell = (0, 1)
    steps = view.doc.undo_stack.index()
    qtbot.keyClicks(view.board, "12")
    assert view.doc.puzzle.at(0, 1) == "12"
    assert view.doc.undo_stack.index() == steps + 1
    assert view.doc.undo_stack.undoText() == "Place 12 at R1C2"
    messages: list[str] = []
    view.status_message.connect(messages.append)
    qtbot.keyClicks(view.board, "34")  # a fourth digit: refused with a line in the status bar
    assert view.doc.puzzle.at(0, 1) == "123" and "largest" in messages[-1]
    view.board.cursor_cell = (0, 2)
    qtbot.keyClicks(view.board, "123")  # its partner
    saved = view.doc.save(tmp_path / "twelve.flow")
    again = view.plugin.parse(saved.read_text())
    assert again == view.doc.puzzle and again.at(0, 1) == "123" == again.at(0, 2)
    assert again.rules == "numberlink"
    view.doc.undo_stack.undo()
    assert view.doc.puzzle.at(0, 1) == "123" and view.doc.puzzle.at(0, 2) == "."
    view.doc.undo_stack.undo()
    assert view.doc.puzzle.at(0, 1) == "."  # 1, 2, 3 typed on one cell: one undo step
    assert view.doc.undo_stack.index() == steps
    qtbot.keyClicks(view.board, "0")
    assert view.doc.puzzle.at(0, 2) == "." and "Numbers start at 1" in messages[-1]


def test_the_palette_places_numbers_past_nine_on_a_numberlink_board(view, qtbot) -> None:
    """The red swatch placed R on a Numberlink board; now the buttons show the number they place."""
    from PySide6.QtCore import Qt

    rows = ["rules: numberlink"] + [f"{n} . . {n}" for n in range(1, 10)]
    view.doc.apply(
        EditResult(puzzle=view.plugin.parse("\n".join(rows) + "\n"), entries=FlowPaths(), label="t")
    )
    view.set_mode("edit")
    palette = view.tools
    texts = [b.text() for b in palette.group.buttons()]
    assert "Next number: 10" in texts and not any(t.id.startswith("c") for t in palette.tools)
    button = palette.group.buttons()[texts.index("Next number: 10")]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert palette.current == "next"
    for cell in [(0, 1), (1, 1), (2, 1)]:
        qtbot.mouseClick(view.board, Qt.MouseButton.LeftButton, pos=view.board.cell_center(*cell).toPoint())
    assert [view.doc.puzzle.at(r, 1) for r in range(3)] == ["10", "10", "11"]
    texts = [b.text() for b in palette.group.buttons()]
    assert "Next number: 11" in texts  # 11 still needs its partner
    # Each number in use has a button that shows it and places it.
    assert {t.glyph for t in palette.tools if t.glyph} == {str(n) for n in range(1, 12)}
    assert palette.select("label:10")
    qtbot.mouseClick(view.board, Qt.MouseButton.LeftButton, pos=view.board.cell_center(3, 1).toPoint())
    assert view.doc.puzzle.at(3, 1) == "10"
    assert "number 10 has 3 endpoints" in _panel(view).progress_label.text()


WORD_ARUKONE = "https://puzz.link/p?arukone/4/4/1234n1234"  # letters A B C D over A B C D


def test_an_arukone_url_shows_its_letters_and_the_check_box_hides_them(view, qtbot, tmp_path) -> None:
    """An arukone URL without the e flag opened under Flow rules with plain coloured dots, so a
    word-Arukone lost its letters on screen. Now the puzzle says its dots show labels (saved with
    it), and "Show labels on the dots" turns that off and on as one undoable step."""
    panel = _panel(view)
    panel.paste_url(WORD_ARUKONE)
    assert view.doc.puzzle.rules == "flow" and view.doc.puzzle.labels

    def texts() -> list[str]:
        return sorted(it.text for it in view.board.display_list().items if type(it).__name__ == "Text")

    assert texts() == sorted("ABCD" * 2)
    assert panel.labels_box.isChecked() and panel.labels_box.isEnabled()
    panel.labels_box.click()
    assert not view.doc.puzzle.labels and texts() == []
    assert view.doc.undo_stack.undoText() == "hide labels"
    panel.labels_box.click()
    assert view.doc.puzzle.labels and texts() == sorted("ABCD" * 2)
    path = tmp_path / "word.flow.txt"
    path.write_text(view.plugin.serialize(view.doc.puzzle), encoding="utf-8")
    assert view.plugin.parse(path.read_text(encoding="utf-8")).labels
    view.doc.undo_stack.undo()
    assert not view.doc.puzzle.labels and not panel.labels_box.isChecked()
    # Numberlink puzzles always show their labels: the box says so and cannot turn them off.
    panel.paste_url(NUMLIN)
    assert panel.labels_box.isChecked() and not panel.labels_box.isEnabled()


def test_the_look_box_redraws_the_board_and_keeps_the_solutions(view, qtbot, tmp_path) -> None:
    """Issue 28: a Numberlink puzzle should look like Numberlink (numbers, thin lines) with the
    colours still available; the look is the user's choice, saved with the puzzle, and changing
    it must not throw away the solutions found."""
    panel = _panel(view)
    panel.paste_url(NUMLIN)
    assert panel.look_box.currentData() == "auto"
    with qtbot.waitSignal(view.solve_finished, timeout=60_000):
        view.solve(2)
    assert view.browser.count() == 1
    icons = view.browser.model._icons
    qtbot.waitUntil(lambda: view.browser.model._icons.get(0) is not None, timeout=10_000)
    first = icons[0]

    def strokes() -> set[str]:
        return {it.stroke for it in view.board.display_list().items if type(it).__name__ == "Circle"}

    assert all(s.startswith("color:") for s in strokes())  # coloured rings (auto: Numberlink)
    assert not panel.labels_box.isEnabled()  # printed numbers cannot be hidden
    index = panel.look_box.findData("ink")
    panel.look_box.setCurrentIndex(index)
    panel.look_box.activated.emit(index)  # as a user's pick in the list
    assert view.doc.puzzle.look == "ink" and strokes() == {"ink"}
    assert view.doc.undo_stack.undoText() == "look: black lines"
    assert view.browser.count() == 1 and view.shown_solution() is not None  # the answer stays
    # The thumbnail is drawn again in the new look.
    qtbot.waitUntil(lambda: view.browser.model._icons.get(0) not in (None, first), timeout=10_000)
    index = panel.look_box.findData("pipes")
    panel.look_box.setCurrentIndex(index)
    panel.look_box.activated.emit(index)
    assert all(
        it.fill.startswith("color:")
        for it in view.board.display_list().items
        if type(it).__name__ == "Circle"
    )
    assert panel.labels_box.isEnabled() is False  # a Numberlink puzzle still shows its numbers
    path = tmp_path / "numlin.flow.txt"
    path.write_text(view.plugin.serialize_document(view.doc.puzzle, view.doc.entries), encoding="utf-8")
    assert view.plugin.parse_document(path.read_text(encoding="utf-8"))[0].look == "pipes"
    view.doc.undo_stack.undo()
    view.doc.undo_stack.undo()
    assert view.doc.puzzle.look == "auto" and panel.look_box.currentData() == "auto"
    assert view.browser.count() == 1
    # An edit of the givens still drops them.
    view.doc.apply(EditResult(puzzle=view.doc.puzzle.with_cell(2, 2, "4"), label="t"))
    assert view.browser.count() == 0


def test_a_collection_or_another_tools_file_is_never_saved_over(
    main_window, qtbot, tmp_path, monkeypatch
) -> None:
    """Opening a file of many puzzles (the 'W H' collections) showed the first under the file's
    name, and Ctrl+S wrote that one puzzle over the file: the other puzzles were gone. Such files,
    and other tools' forms (pzprv3, puz.link URLs), now open untitled, and Save asks for a name."""
    from PySide6.QtWidgets import QFileDialog, QInputDialog

    collection = tmp_path / "pack.txt"
    text = "# two puzzles\n\n3 2\nA.A\nB.B\n\n2 1\nCC\n"
    collection.write_text(text, encoding="utf-8")
    monkeypatch.setattr(
        QInputDialog, "getItem", staticmethod(lambda _p, _t, _l, items, *_a: (items[0], True))
    )
    assert main_window.files.open_path(collection, "flow")
    view = main_window.current()
    assert view.doc.path is None and view.doc.origin == collection
    assert view.doc.title() == "untitled, from pack.txt"
    assert main_window.windowTitle().startswith("untitled, from pack.txt[*] — Flow Free")
    assert "puzzle 1 of 2 in the file" in view.info.text()
    asked: list[str] = []

    def save_as(*args, **kwargs):
        asked.append(args[2])
        return str(tmp_path / "first.flow"), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as))
    assert main_window.files.save(view)
    assert asked == [str(tmp_path / "pack.flow")]  # offered beside it, under its name
    assert collection.read_text(encoding="utf-8") == text  # the collection is untouched
    assert view.doc.path == tmp_path / "first.flow" and view.doc.origin is None
    assert view.plugin.parse((tmp_path / "first.flow").read_text()).row_strings() == ["A.A", "B.B"]
    # A pzprv3 file keeps its form too; one of our own files is saved in place.
    pzprv3 = tmp_path / "board.pzprv3.txt"
    pzprv3.write_text("pzprv3\nnumlin\n1\n2\n1 1 \n", encoding="utf-8")
    assert main_window.files.open_path(pzprv3, "flow")
    assert view.doc.path is None and view.doc.origin == pzprv3
    ours = tmp_path / "ours.flow"
    ours.write_text("A.A\nB.B\n", encoding="utf-8")
    assert main_window.files.open_path(ours, "flow")
    assert view.doc.path == ours and view.doc.origin is None


def test_a_pack_of_levels_asks_which_one_to_open(main_window, tmp_path, monkeypatch) -> None:
    """A pack of 150 levels opened at level 1, and the others were out of reach in the GUI."""
    from PySide6.QtWidgets import QInputDialog

    pack = tmp_path / "pack.txt"
    lines = ["3,0,1,3;0,1,2;3,4,5;6,7,8", "4:2,0,2,2;0,1,2,3;4,5,6,7", "3,0,3,2,,4_0;0,1,2,5,8;3,6,7"]
    pack.write_text("\n".join(lines) + "\n", encoding="utf-8")
    offered: list[list[str]] = []

    def pick(parent, title, label, items, current, editable):  # noqa: ANN001, ANN202 - Qt's signature
        offered.append(list(items))
        return items[2], True

    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(pick))
    assert main_window.files.open_path(pack, "flow")
    view = main_window.current()
    assert offered and offered[0][0] == "Level 1 (line 1): 3x3, 3 pairs"
    assert offered[0][2] == "Level 3 (line 3): 3x3, 2 pairs, 1 hole"
    assert view.doc.puzzle.at(1, 1) == "#" and view.doc.origin == pack
    assert "level 3 of 3 in the file" in view.info.text()
    kept = view.doc.puzzle
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *a: ("", False)))
    assert not main_window.files.open_path(pack, "flow")  # cancelled: nothing changes
    assert view.doc.puzzle is kept
    # The first level too says where it is, not the command line's "'flow split FILE' writes each"
    # (that note was cut off under the board at 1024x768).
    monkeypatch.setattr(
        QInputDialog, "getItem", staticmethod(lambda parent, t, l, items, *a: (items[0], True))
    )
    assert main_window.files.open_path(pack, "flow")
    assert "level 1 of 3 in the file" in view.info.text() and "flow split" not in view.info.text()


def test_paste_url_with_a_pack_asks_which_puzzle(main_window, view, qtbot) -> None:
    """The panel's Paste URL opened a pasted pack at its first puzzle with the command line's
    "flow split" note; it now asks which puzzle, as Edit > Paste and File > Open do."""
    asked: list[list[str]] = []

    def choose(name: str, lines: list[str]) -> int:
        asked.append(lines)
        return 1

    main_window.files.choose_puzzle = choose
    _panel(view).paste_url("3 3\nR.G\n...\nR.G\n3 3\nB.Y\n...\nB.Y\n")
    assert len(asked) == 1 and len(asked[0]) == 2
    assert view.doc.puzzle.at(0, 0) == "B" and view.doc.path is None
    assert "flow split" not in view.info.text()


def test_a_hint_keeps_a_finished_pipe_of_another_solution(view, qtbot) -> None:
    """QA: the hint redrew red from the first solution found and erased a finished, correct blue
    pipe (another solution's) with only "Hint: drew pipe R." to say."""
    from solvers.flow.hint import first_paths

    puzzle = view.plugin.parse("RB...\n.....\n.....\n.....\nR...B\n")
    first = first_paths(puzzle)
    assert first is not None
    other = next(
        s.extras["paths"]["B"]
        for s in view.plugin.solve(puzzle, limit=0)
        if s.extras["paths"]["B"] != first["B"]
    )
    blue = tuple(tuple(cell) for cell in other)
    view.doc.apply(EditResult(puzzle=puzzle, entries=FlowPaths().with_path("B", blue), label="board"))
    view.set_mode("play")
    said: list[str] = []
    view.status_message.connect(said.append)
    _panel(view).hint()
    qtbot.waitUntil(lambda: bool(view.doc.entries.get("R")), timeout=60000)
    assert view.doc.entries.get("B") == blue
    assert view.plugin.check(puzzle, view.doc.entries).ok
    assert said[-1] == "Hint: drew the red pipe."


def test_a_click_on_a_dot_in_play_mode_is_no_edit(view, qtbot) -> None:
    """QA: a click on a dot (no drag) made an undo step "Draw pipe B", marked the file changed and
    counted "4% of the board filled", with nothing drawn."""
    from PySide6.QtCore import Qt

    assert view.window().files.open_sample("flow", view.plugin.sample_paths()[0])
    view.set_mode("play")
    steps, entries = view.doc.undo_stack.count(), view.doc.entries
    r, c = view.doc.puzzle.endpoints()[view.doc.puzzle.colours[0]][0]
    qtbot.mouseClick(view.board, Qt.MouseButton.LeftButton, pos=view.board.cell_center(r, c).toPoint())
    assert view.doc.entries == entries and view.doc.undo_stack.count() == steps
    assert view.doc.undo_stack.isClean()
    assert "0% of the board filled" in _panel(view).progress_label.text()


def test_the_play_progress_line_wrapping_moves_nothing_below(view, qtbot) -> None:
    """QA: "2 of 15 pipes joined, 20% of the board filled" fit one line at 1024 px, "12 of 15 ..."
    wrapped, and the Hint button and everything below jumped a line while the player drew."""
    view.window().resize(1024, 768)
    panel = _panel(view)
    label = panel.progress_label
    label.setText("2 of 15 pipes joined, 20% of the board filled")
    qtbot.wait(50)
    before = panel.hint_button.mapTo(panel, panel.hint_button.rect().topLeft()).y()
    label.setText("12 of 15 pipes joined, 100% of the board filled, " + "x" * 10)
    qtbot.waitUntil(lambda: label.heightForWidth(label.width()) > label.fontMetrics().lineSpacing() * 1.5)
    qtbot.wait(50)
    assert panel.hint_button.mapTo(panel, panel.hint_button.rect().topLeft()).y() == before
