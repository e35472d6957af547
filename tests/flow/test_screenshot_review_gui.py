"""File > Import Screenshot's confirm dialog in the real main window (pytest-qt): the picture is
read in the background, shown with the read board over it, and becomes a document only when the
user says so."""

from __future__ import annotations

import struct
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from solvers.common.cancel import Cancelled
from solvers.common.protocol import Importer
from solvers.flow.model import FlowPuzzle
from solvers.flow.screenshot_synth import Scene, Style, encode, render

pytestmark = pytest.mark.gui

REAL = Path(__file__).parent / "data" / "flow_free_pddl"
LVL21 = "GYC.RB ....O. ..C... ..R... G.O... Y.B..."  # the level in lvl21.jpg (test_screenshot_real)
READ_TIMEOUT = 60_000  # ms: a busy machine may be slow to start the worker process


def _import(main_window, qtbot, monkeypatch, path: Path):
    """Choose ``path`` in File > Import Screenshot and wait for the dialog to show the reading."""
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a: (str(path), "")))
    actions = [a for a in main_window.menuBar().actions() if a.text() == "&File"][0].menu().actions()
    [action] = [a for a in actions if a.text() == "&Import Screenshot…"]
    action.trigger()
    dialog = main_window.files.review.dialog
    assert dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.review is not None, timeout=READ_TIMEOUT)
    return dialog


def _dirty_flow_document(main_window):
    """A Flow document with an unsaved edit (the import must not lose it unasked)."""
    view = main_window.show_kind("flow")
    view.doc.replace_untitled(FlowPuzzle.from_rows(["R.B", "...", "R.B"]), "test edit")
    assert view.doc.dirty
    return view


def _shot(tmp_path: Path, rows: list[str], name: str = "shot.png") -> Path:
    path = tmp_path / name
    path.write_bytes(encode(render(Scene(FlowPuzzle.from_rows(rows)), Style(width=720, height=1280)), ".png"))
    return path


def test_a_real_screenshot_is_shown_then_used(main_window, qtbot, monkeypatch) -> None:
    main_window.show_kind("xcetero")  # the import switches to Flow when the board is used
    dialog = _import(main_window, qtbot, monkeypatch, REAL / "lvl21.jpg")
    assert dialog.summary.text() == "Read: 6x6, 6 colours, every colour twice, unique designed solution"
    assert dialog.use_button.isVisible() and dialog.edit_button.isVisible()
    kinds = [m.kind for m in dialog.review.marks]
    assert kinds.count("grid") == 14 and kinds.count("dot") == 12  # 7 + 7 lines, 6 pairs
    assert main_window.current().plugin.meta.id == "xcetero"  # nothing changed before the answer
    qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)
    view = main_window.current()
    assert view.plugin.meta.id == "flow" and not dialog.isVisible()
    assert view.doc.puzzle == FlowPuzzle.from_rows(LVL21.split())
    assert view.doc.path is None and view.doc.dirty  # untitled: Save asks for a name
    assert "Imported lvl21.jpg: 6x6, 6 colours" in main_window.statusBar().currentMessage()
    view.doc.undo_stack.undo()  # one undoable step
    assert view.doc.puzzle != FlowPuzzle.from_rows(LVL21.split())


def test_edit_before_using_opens_edit_mode_with_the_reading(main_window, qtbot, monkeypatch) -> None:
    view = main_window.show_kind("flow")
    view.set_mode("play")
    dialog = _import(main_window, qtbot, monkeypatch, REAL / "lvl1.jpg")
    qtbot.mouseClick(dialog.edit_button, Qt.MouseButton.LeftButton)
    assert view.doc.puzzle == FlowPuzzle.from_rows("R.G.Y ..B.O ..... .G.Y. .RBO.".split())
    assert view.board.mode == "edit"
    assert "read: 5x5, 5 colours" in main_window.statusBar().currentMessage()


def test_a_refused_picture_shows_why_and_offers_no_use(main_window, qtbot, monkeypatch, tmp_path) -> None:
    rows = ["R...B", ".....", "..R..", ".....", "Y.R.Y"]  # red three times, blue once
    dialog = _import(main_window, qtbot, monkeypatch, _shot(tmp_path, rows, "odd.png"))
    text = dialog.summary.text()
    assert text.startswith("Looks wrong: colour 'R' (red) has 3 dots") and "pairs" in text
    assert not dialog.use_button.isVisible() and dialog.edit_button.isVisible()
    alerts = [m for m in dialog.review.marks if m.kind == "dot" and m.alert]
    assert sorted(m.label for m in alerts) == ["B", "R", "R", "R"]  # the dots without a pair
    view = main_window.show_kind("flow")
    qtbot.mouseClick(dialog.edit_button, Qt.MouseButton.LeftButton)
    assert view.doc.puzzle.cells == FlowPuzzle.from_rows(rows).cells  # as read, to be corrected
    assert view.board.mode == "edit"
    message = main_window.statusBar().currentMessage()
    assert "Imported odd.png for editing — looks wrong: colour 'R' (red) has 3 dots" in message


def test_a_picture_without_a_grid_offers_only_cancel(main_window, qtbot, monkeypatch, tmp_path) -> None:
    img = np.zeros((400, 300, 3), np.uint8)
    cv2.circle(img, (150, 200), 40, (0, 0, 255), -1)  # a red dot, no grid lines
    path = tmp_path / "nogrid.png"
    path.write_bytes(cv2.imencode(".png", img)[1].tobytes())
    dialog = _import(main_window, qtbot, monkeypatch, path)
    assert dialog.summary.text() == "Looks wrong: no Flow board found: no grid of lines in the image"
    assert dialog.review.puzzle is None and dialog.review.marks == ()
    assert dialog.picture.image is not None  # the picture is still shown
    assert not dialog.use_button.isVisible() and not dialog.edit_button.isVisible()
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and dialog.choice == "cancel"


def test_cancel_leaves_the_current_document_untouched(main_window, qtbot, monkeypatch) -> None:
    view = _dirty_flow_document(main_window)
    before, steps = view.doc.puzzle, view.doc.undo_stack.count()
    asked: list[str] = []
    main_window.confirm = lambda v: asked.append("asked") or "discard"
    dialog = _import(main_window, qtbot, monkeypatch, REAL / "lvl2.jpg")
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and dialog.choice == "cancel"
    assert view.doc.puzzle is before and view.doc.undo_stack.count() == steps and view.doc.dirty
    assert asked == []  # nothing to discard: the unsaved-changes question never came


def test_use_asks_before_discarding_unsaved_edits(main_window, qtbot, monkeypatch) -> None:
    view = _dirty_flow_document(main_window)
    before = view.doc.puzzle
    main_window.confirm = lambda v: "cancel"  # the user keeps the edits
    dialog = _import(main_window, qtbot, monkeypatch, REAL / "lvl3.jpg")
    qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)
    assert view.doc.puzzle is before and view.doc.dirty


def test_escape_cancels_the_shown_reading(main_window, qtbot, monkeypatch) -> None:
    view = main_window.show_kind("flow")
    before = view.doc.puzzle
    dialog = _import(main_window, qtbot, monkeypatch, REAL / "lvl22.jpg")
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible() and dialog.choice == "cancel"
    assert view.doc.puzzle is before and not view.doc.dirty


def _slow_review(path, cancel):
    """A reading that runs until it is cancelled (the real one may finish before the test's Esc)."""
    while not cancel.cancelled:
        time.sleep(0.01)
    raise Cancelled()


def test_escape_while_reading_stops_the_job(main_window, qtbot, monkeypatch) -> None:
    monkeypatch.setenv("PUZZLE_WORKBENCH_JOBS", "thread")  # the body below runs on a pool thread
    view = main_window.show_kind("flow")
    before = view.doc.puzzle
    importer = Importer("&Import Screenshot…", "*.png", lambda p: (None, []), _slow_review)
    main_window.files.import_file("flow", importer, REAL / "lvl23.jpg")
    run = main_window.files.review
    assert run.dialog.isVisible() and run.dialog.summary.text() == "Reading lvl23.jpg…"
    assert not run.dialog.use_button.isVisible() and not run.dialog.edit_button.isVisible()
    qtbot.wait(100)
    assert not run.job.done
    qtbot.keyClick(run.dialog, Qt.Key.Key_Escape)
    assert run.job.cancel_token.cancelled and not run.dialog.isVisible()
    qtbot.waitUntil(lambda: run.job.done, timeout=READ_TIMEOUT)
    qtbot.wait(50)  # the finished signal is queued: it must not bring the dialog back
    assert not run.dialog.isVisible() and run.dialog.review is None
    assert view.doc.puzzle is before
    assert main_window.statusBar().currentMessage() == "Import of lvl23.jpg cancelled"


def _png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "empty file"),
        (b"\x00\x01binary\xff" * 50, "not-a-picture.png: "),
        (_png_header(300, 300) + b"IDAT" + b"\x00" * 64, "truncated PNG"),
        (_png_header(100_000, 100_000) + b"\x00" * 16 + b"IEND\xaeB`\x82", "image too large"),
    ],
    ids=["empty", "binary", "truncated-png", "huge"],
)
def test_a_bad_file_gives_one_clear_message(
    main_window, qtbot, monkeypatch, tmp_path, content, expected
) -> None:
    bad = tmp_path / "not-a-picture.png"
    bad.write_bytes(content)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a: (str(bad), "")))
    view = main_window.show_kind("flow")
    before = view.doc.puzzle
    with qtbot.waitSignal(main_window.error_shown, timeout=READ_TIMEOUT) as blocker:
        main_window.files.import_dialog("flow", view.plugin.importers()[0])
    text = blocker.args[0]
    assert text.startswith("not-a-picture.png: ") and expected in text
    assert "\n" not in text and "Traceback" not in text
    assert main_window.last_error is not None and main_window.last_error.windowTitle() == "Cannot import"
    assert not main_window.files.review.dialog.isVisible()
    assert view.doc.puzzle is before
    main_window.last_error.close()


def test_the_overlay_draws_every_kind_of_mark_over_the_picture(qtbot) -> None:
    """Grid lines, walls, holes and dots (an alert one too) are painted half see-through over a
    picture scaled to fit; Esc on the dialog alone says "cancel"."""
    from solvers.common.review import ImportReview, Mark
    from widgets.import_review import ImportReviewDialog

    image = np.full((200, 100, 3), 40, np.uint8)  # a tall dark picture
    marks = (
        Mark("grid", (10, 20, 90, 20)),
        Mark("wall", (50, 60, 50, 100)),
        Mark("hole", (10, 150, 40, 40)),
        Mark("dot", (30, 80, 12), "#ff0000", "R"),
        Mark("dot", (70, 80, 12), "#0000ff", "B", alert=True),
    )
    review = ImportReview("x.png", image, None, False, "something looks wrong", ("a note",), marks)
    dialog = ImportReviewDialog(None, "x.png")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.show_review(review)
    assert dialog.notes.isVisible() and "a note" in dialog.notes.text()
    assert not dialog.use_button.isVisible() and not dialog.edit_button.isVisible()
    shot = dialog.picture.grab().toImage()
    rect = dialog.picture.picture_rect()
    scale = rect.width() / 100
    assert abs(rect.height() / 200 - scale) < 0.01  # aspect kept

    def at(x: float, y: float) -> tuple[int, int, int]:
        ratio = shot.width() / dialog.picture.width()  # device pixels per widget pixel
        colour = shot.pixelColor(round((rect.x() + x * scale) * ratio), round((rect.y() + y * scale) * ratio))
        return colour.red(), colour.green(), colour.blue()

    assert at(5, 5) == (40, 40, 40)  # the picture itself, outside every mark
    r, g, b = at(30, 86)  # inside the red dot, under its label
    assert r > 150 and g < 90 and b < 90
    r, g, b = at(70, 86)
    assert b > 150 and r < 90
    r, g, b = at(50, 65)  # the wall: orange
    assert r > 200 and 120 < g < 200 and b < 90
    r, g, b = at(60, 20)  # a grid line: cyan
    assert g > 150 and b > 150 and r < 90
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.choice == "cancel" and not dialog.isVisible()


def test_a_second_import_replaces_the_first(main_window, qtbot, monkeypatch) -> None:
    first = _import(main_window, qtbot, monkeypatch, REAL / "lvl1.jpg")
    qtbot.mouseClick(first.cancel_button, Qt.MouseButton.LeftButton)
    second = _import(main_window, qtbot, monkeypatch, REAL / "lvl2.jpg")
    qtbot.waitUntil(lambda: not shiboken6.isValid(first), timeout=5000)  # freed with its picture
    qtbot.mouseClick(second.use_button, Qt.MouseButton.LeftButton)
    assert main_window.current().doc.puzzle == FlowPuzzle.from_rows("Y.... ..... ..G.. BGR.Y R...B".split())


def _drop(main_window, path: Path) -> None:
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDropEvent

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    main_window.dropEvent(event)


def test_dropping_a_screenshot_starts_its_import(main_window, qtbot) -> None:
    """A picture dropped on the window is read for Flow in the review dialog (whatever module is
    shown), not opened as a puzzle file (which gave "cannot open")."""
    main_window.show_kind("xcetero")
    errors: list[str] = []
    main_window.error_shown.connect(errors.append)
    _drop(main_window, REAL / "lvl21.jpg")
    run = main_window.files.review
    assert run is not None and run.dialog.isVisible()
    qtbot.waitUntil(lambda: run.dialog.review is not None, timeout=READ_TIMEOUT)
    assert run.dialog.summary.text().startswith("Read: 6x6, 6 colours")
    qtbot.mouseClick(run.dialog.use_button, Qt.MouseButton.LeftButton)
    view = main_window.current()
    assert view.plugin.meta.id == "flow" and view.doc.puzzle == FlowPuzzle.from_rows(LVL21.split())
    assert errors == []


@pytest.mark.parametrize("suffix", [".PNG", ".jpeg", ".gif", ".webp", ".bmp"])
def test_every_picture_type_dropped_goes_to_the_import(main_window, qtbot, tmp_path, suffix) -> None:
    image = cv2.imread(str(REAL / "lvl1.jpg"))
    path = tmp_path / f"shot{suffix}"
    ok, data = cv2.imencode(".png" if suffix in (".PNG", ".gif") else suffix, image)
    assert ok
    path.write_bytes(data.tobytes())  # a .gif holding PNG data still names an image for the drop
    _drop(main_window, path)
    run = main_window.files.review
    assert run is not None and run.name == path.name and run.dialog.isVisible()
    qtbot.mouseClick(run.dialog.cancel_button, Qt.MouseButton.LeftButton)


def test_dropping_a_puzzle_file_still_opens_it(main_window, tmp_path) -> None:
    path = tmp_path / "board.flow"
    path.write_text("R.B\n...\nR.B\n")
    _drop(main_window, path)
    assert main_window.files.review is None
    view = main_window.current()
    assert view.plugin.meta.id == "flow" and view.doc.path == path


def test_a_bridge_mark_draws_a_cross_over_its_cell(qtbot) -> None:
    from solvers.common.review import ImportReview, Mark
    from widgets.import_review import ImportReviewDialog

    image = np.full((200, 200, 3), 40, np.uint8)
    review = ImportReview("x.png", image, None, True, "read", (), (Mark("bridge", (50, 50, 100, 100)),))
    dialog = ImportReviewDialog(None, "x.png")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.show_review(review)
    shot = dialog.picture.grab().toImage()
    rect = dialog.picture.picture_rect()
    scale = rect.width() / 200
    ratio = shot.width() / dialog.picture.width()

    def at(x: float, y: float) -> tuple[int, int, int]:
        colour = shot.pixelColor(round((rect.x() + x * scale) * ratio), round((rect.y() + y * scale) * ratio))
        return colour.red(), colour.green(), colour.blue()

    for x, y in ((80, 100), (100, 80), (120, 100), (100, 120)):  # both lanes, orange like a wall
        r, g, b = at(x, y)
        assert r > 200 and 120 < g < 200 and b < 90
    assert at(70, 70) == (40, 40, 40)  # the cell's corner: the picture itself
