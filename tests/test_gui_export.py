"""Exports: legible default size, captions that fit, one rule for what a picture shows."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from solvers.common import registry
from solvers.common.display import DisplayList, GridGeometry, Rect, Text
from solvers.common.palette import LIGHT
from widgets.render import MIN_LONG_SIDE, ExportOptions, output_size, render_image
from workbench.drawing import document_drawing

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("kind", list(registry.plugins()))
def test_default_export_is_legible(kind: str) -> None:
    plugin = registry.get(kind)
    puzzle = plugin.default_puzzle()
    dl = document_drawing(plugin, puzzle, plugin.empty_entries(puzzle))
    w, h = output_size(dl, ExportOptions())
    assert max(w, h) >= MIN_LONG_SIDE
    if dl.grid is not None:
        assert ExportOptions().scale_for(dl) * dl.grid.cell >= 40  # never smaller cells than before


def test_an_explicit_cell_size_is_kept() -> None:
    dl = DisplayList(120, 120, grid=GridGeometry(0, 0, 40, 3, 3))
    assert output_size(dl, ExportOptions(cell_size=40, margin=0)) == (120, 120)


def _ink_columns(image: QImage) -> list[int]:
    background = QColor(LIGHT.resolve("background")).rgb()
    return [
        x
        for x in range(image.width())
        if any(image.pixel(x, y) != background for y in range(0, image.height(), 2))
    ]


def test_a_caption_wider_than_the_drawing_wraps_instead_of_being_clipped(qapp) -> None:
    caption = "WIN 5: O3 8→7 X4 0→1 O5 3→8 X6 6→0 O1 4→6 and a few more words to be sure"
    dl = DisplayList(160, 200, grid=GridGeometry(0, 0, 40, 4, 4))
    dl.add(Rect(0, 0, 160, 160, fill=None, stroke="ink"))
    dl.add(Text(80, 180, caption, size=12))
    image = render_image(dl, ExportOptions(cell_size=40, margin=16))
    columns = _ink_columns(image)
    margin = 16 - 2
    assert columns and min(columns) >= margin and max(columns) <= image.width() - 1 - margin
    # and the caption really is there: ink below the board on more than one text line
    background = QColor(LIGHT.resolve("background")).rgb()
    rows = [
        y
        for y in range(176, image.height())
        if any(image.pixel(x, y) != background for x in range(image.width()))
    ]
    assert rows and max(rows) - min(rows) > 20


def test_export_and_copy_draw_the_shown_solution_without_hover(main_window, qtbot, tmp_path) -> None:
    view = main_window.show_kind("example")
    with qtbot.waitSignal(view.solve_finished, timeout=20000):
        view.solve(2)
    shown = view.shown_solution()
    assert shown is not None
    expected = document_drawing(view.plugin, view.doc.puzzle, view.doc.entries, shown)
    assert view.picture().signature() == expected.signature()
    assert (
        view.picture(with_solution=False).signature()
        == document_drawing(view.plugin, view.doc.puzzle, view.doc.entries).signature()
    )
    out = tmp_path / "shown.png"
    assert main_window.exports.export_to(out)
    assert QImage(str(out)).width() >= MIN_LONG_SIDE
    svg = tmp_path / "shown.svg"
    assert main_window.exports.export_to(svg)
    title = f"<title>{view.doc.base_name()} ({view.plugin.meta.name})</title>"
    assert view.doc.base_name() and title in svg.read_text(encoding="utf-8")


def test_export_dialog_returns_one_options_value(qtbot) -> None:
    from widgets.export_dialog import ExportDialog

    dialog = ExportDialog(False, "dark")
    qtbot.addWidget(dialog)
    assert dialog.options() == ExportOptions(palette="dark")
    dialog.cell_size.setValue(25)
    assert dialog.options().cell_size == 25


def test_menu_export_writes_the_png_in_a_job_and_reports_errors(main_window, qtbot, tmp_path) -> None:
    # The menu's path: checked at once, painted and written by a background job (a worker process).
    main_window.show_kind("example")
    out = tmp_path / "board.png"
    job = main_window.exports.export_in_background(out)
    assert job is not None
    qtbot.waitUntil(lambda: job.done, timeout=30_000)
    qtbot.waitUntil(lambda: "Exported" in main_window.statusBar().currentMessage(), timeout=5_000)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "board.svg"
    svg_job = main_window.exports.export_in_background(svg)
    assert svg_job is not None
    qtbot.waitUntil(lambda: svg_job.done, timeout=30_000)
    assert b"<svg" in svg.read_bytes()
    with qtbot.waitSignal(main_window.error_shown, timeout=5_000) as blocker:
        assert main_window.exports.export_in_background(tmp_path / "missing" / "board.png") is None
    assert "does not exist" in blocker.args[0]
    with qtbot.waitSignal(main_window.error_shown, timeout=5_000):
        assert main_window.exports.export_in_background(tmp_path / "board.bmp") is None


@pytest.mark.parametrize("kind", ["toichika", "flow"])
def test_the_menu_export_from_a_worker_matches_the_in_process_export(
    main_window, qtbot, tmp_path, kind
) -> None:
    from solvers.common import process_jobs

    view = main_window.show_kind(kind)
    plugin = view.plugin
    view.doc.reset(plugin.parse_document(plugin.sample_paths()[-1].read_text(encoding="utf-8"))[0])
    for ext in ("png", "svg"):
        here, there = tmp_path / f"here.{ext}", tmp_path / f"there.{ext}"
        assert main_window.exports.export_to(here)
        job = main_window.exports.export_in_background(there)
        assert job is not None
        qtbot.waitUntil(lambda job=job: job.done, timeout=60_000)
        assert there.is_file(), main_window.statusBar().currentMessage()
        if ext == "png":
            assert QImage(str(here)) == QImage(str(there))  # pixel for pixel, fonts included
        else:
            assert here.read_text(encoding="utf-8") == there.read_text(encoding="utf-8")
    assert process_jobs.in_processes() == (os.name == "posix")


def test_export_dialog_offers_the_last_choices_and_folder(main_window, qtbot, tmp_path, monkeypatch) -> None:
    """It reset to PNG/light each time and started in the working folder (issue 29.17)."""
    from PySide6.QtWidgets import QDialog, QFileDialog

    from widgets.export_dialog import ExportDialog
    from workbench import settings
    from workbench.export_actions import STATE_KEY

    settings.settings().remove(STATE_KEY)
    settings.settings().remove("folders")
    main_window.show_kind("example")
    seen: list[dict] = []
    suggested: list[str] = []

    def fake_exec(dialog: ExportDialog) -> int:
        seen.append(dialog.state())
        dialog.format.setCurrentIndex(1)  # SVG
        dialog.palette_choice.setCurrentText("dark")
        dialog.margin.setValue(7)
        return QDialog.DialogCode.Accepted

    def fake_save(_parent, _title, start, _filter):
        suggested.append(start)
        return str(tmp_path / Path(start).name), ""

    monkeypatch.setattr(ExportDialog, "exec", fake_exec)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake_save))
    for _ in range(2):
        main_window.exports.export_dialog()
        qtbot.waitUntil(lambda: not main_window.current().busy(), timeout=30_000)
    assert seen[0]["format"] == "png"
    assert (seen[1]["format"], seen[1]["palette"], seen[1]["margin"]) == ("svg", "dark", 7)
    assert Path(suggested[0]).parent == Path.home()  # nothing remembered: never the working folder
    assert Path(suggested[1]).parent == tmp_path
    # A garbled setting falls back to the defaults.
    settings.settings().setValue(STATE_KEY, "{not json")
    dialog = ExportDialog(False, "light")
    qtbot.addWidget(dialog)
    from workbench.export_actions import _remembered

    dialog.restore(_remembered())
    assert dialog.extension() == "png"
    dialog.restore({"format": "tiff", "margin": 1e9, "palette": 3, "transparent": "yes"})
    assert dialog.options() == ExportOptions(palette="light")


def test_open_and_save_start_in_the_last_folder(main_window, tmp_path, monkeypatch) -> None:
    """Open and Save started in the working folder every time (issue 29.17)."""
    from PySide6.QtWidgets import QFileDialog

    from workbench import settings

    settings.settings().remove("folders")
    folder = tmp_path / "puzzles"
    folder.mkdir()
    starts: list[str] = []
    target = folder / "mine.latin"

    def fake_save(_parent, _title, start, _filter):
        starts.append(start)
        return str(target), ""

    def fake_open(_parent, _title, start, _filters, _current=""):
        starts.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake_save))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(fake_open))
    view = main_window.show_kind("example")
    assert main_window.files.save_as(view) and target.exists()
    # Nothing remembered yet: the home folder (QA: the working folder was the app's source)
    assert Path(starts[0]).parent == Path.home()
    main_window.files.open_dialog()
    assert starts[1] == str(folder)  # no Open yet: the folder of the file just saved
    view.doc.path = None
    assert main_window.files.save_as(view)
    assert Path(starts[2]).parent == folder  # the last folder saved to
    assert settings.last_folder("save") == str(folder)


def test_save_as_of_a_sample_starts_in_the_users_folder(main_window, tmp_path, monkeypatch) -> None:
    """QA: Save As of an opened sample started in the working folder (the app's source folder)."""
    from PySide6.QtWidgets import QFileDialog

    from workbench import settings

    settings.settings().remove("folders")
    starts: list[str] = []

    def fake_save(_parent, _title, start, _filter):
        starts.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake_save))
    view = main_window.show_kind("flow")
    sample = view.plugin.sample_paths()[0]
    assert main_window.files.open_sample("flow", sample)
    main_window.files.save_as(view)
    assert Path(starts[0]).parent == Path.home()
    assert Path(starts[0]).stem == sample.stem  # QA: it offered "untitled.flow"
    settings.set_last_folder("export", str(tmp_path / "x.png"))
    main_window.files.save_as(view)
    assert Path(starts[1]).parent == tmp_path  # the folder last used for anything
    view.doc.replace_untitled(view.doc.puzzle, "Paste puzzle")
    main_window.files.save_as(view)
    assert Path(starts[2]).stem == "untitled"  # pasted content is not the sample any more


def test_the_margin_names_its_unit(qtbot) -> None:
    """QA: "Margin 16.00" had no unit beside "Cell size ... px/pt per cell"; then "px/pt" was
    jargon. The unit is pixels of 1/96 inch in every format (it once changed to points for SVG
    and PDF, and then the three files of one export printed at three sizes)."""
    from widgets.export_dialog import ExportDialog

    dialog = ExportDialog(True, "light")
    qtbot.addWidget(dialog)
    assert dialog.extension() == "png"
    for index, ext in ((1, "svg"), (2, "pdf"), (0, "png")):
        dialog.format.setCurrentIndex(index)
        assert dialog.extension() == ext  # one unit in every format: the files agree in size
        assert dialog.margin.text().endswith(" px") and dialog.cell_size.suffix() == " px per cell"
