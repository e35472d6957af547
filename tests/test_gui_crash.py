"""An unhandled exception in the GUI: a dialog with a copyable report, the log, a copy of the puzzle."""

from __future__ import annotations

from pathlib import Path

import pytest
from interactive_start import close_started_window
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication

from workbench import crash

pytestmark = [pytest.mark.gui, pytest.mark.qt_no_exception_capture]


@pytest.fixture
def handler(main_window, tmp_path):
    log_file = crash.setup_log(tmp_path / "logs")
    assert log_file == tmp_path / "logs" / crash.LOG_NAME
    handler = crash.CrashHandler(main_window)
    handler.install()
    yield handler
    handler.uninstall()
    if handler.dialog is not None:
        handler.dialog.close()
    for h in list(crash.log().handlers):
        crash.log().removeHandler(h)
        h.close()


def _crash_in_a_slot(qtbot, handler, message: str = "boom in a slot") -> None:
    def broken_slot() -> None:
        raise ZeroDivisionError(message)

    QTimer.singleShot(0, broken_slot)  # raised inside Qt's event loop, like a real slot
    qtbot.waitUntil(lambda: handler.dialog is not None and handler.dialog.isVisible(), timeout=5000)


def test_exception_in_a_slot_shows_the_report_and_keeps_the_document(main_window, qtbot, handler, tmp_path):
    view = main_window.show_kind("toichika")
    main_window.files.open_path(Path("assets/toichika/samples/a_6x6_first_steps.toichika"))
    main_window.act_check.trigger()  # a last action the report names
    before = view.plugin.serialize_document(view.doc.puzzle, view.doc.entries)
    _crash_in_a_slot(qtbot, handler)
    dialog = handler.dialog
    report = dialog.report.toPlainText()
    assert "ZeroDivisionError: boom in a slot" in dialog.summary.text()
    assert "Error: ZeroDivisionError: boom in a slot" in report
    assert "Module: Toichika (toichika)" in report
    assert "Check" in report and "open a_6x6_first_steps.toichika" in report  # last actions
    assert "numba:" in report and "PySide6:" in report  # versions
    assert "in broken_slot" in report and "raise ZeroDivisionError(message)" in report  # traceback
    log_file = tmp_path / "logs" / crash.LOG_NAME
    assert str(log_file) in dialog.log_label.text()
    assert "ZeroDivisionError: boom in a slot" in log_file.read_text(encoding="utf-8")
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == report
    # The window goes on with the same document; a copy saves beside it without renaming it.
    assert main_window.current() is view and main_window.isVisible()
    assert dialog.suggested_copy().name == "a_6x6_first_steps-copy.toichika"
    copy = dialog.save_copy(tmp_path / "rescued.toichika")
    assert copy.read_text(encoding="utf-8") == before
    assert view.doc.path is not None and view.doc.path.name == "a_6x6_first_steps.toichika"


def test_save_copy_button_asks_for_a_name_and_writes_it(main_window, qtbot, handler, tmp_path, monkeypatch):
    main_window.show_kind("flow")
    _crash_in_a_slot(qtbot, handler)
    target = tmp_path / "copy.flow"
    monkeypatch.setattr(
        "workbench.crash_dialog.QFileDialog.getSaveFileName", lambda *a, **k: (str(target), "")
    )
    qtbot.mouseClick(handler.dialog.save_button, Qt.MouseButton.LeftButton)
    view = main_window.current()
    assert target.read_text(encoding="utf-8") == view.plugin.serialize_document(
        view.doc.puzzle, view.doc.entries
    )
    assert "Saved a copy" in handler.dialog.log_label.text()


def test_a_burst_of_errors_shows_one_dialog(main_window, qtbot, handler) -> None:
    _crash_in_a_slot(qtbot, handler, "first")
    first = handler.dialog
    _crash_in_a_slot(qtbot, handler, "second")
    qtbot.waitUntil(lambda: "second" in first.report.toPlainText(), timeout=5000)
    assert handler.dialog is first and handler.count == 2


def test_exception_in_a_thread_reaches_the_dialog(main_window, qtbot, handler) -> None:
    import threading

    def broken() -> None:
        raise RuntimeError("boom in a thread")

    thread = threading.Thread(target=broken)
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: handler.dialog is not None and handler.dialog.isVisible(), timeout=5000)
    assert "RuntimeError: boom in a thread" in handler.dialog.report.toPlainText()


def test_log_rotates(tmp_path) -> None:
    path = crash.setup_log(tmp_path)
    try:
        for i in range(3 * crash.LOG_BYTES // 1000):
            crash.log().info("line %d %s", i, "x" * 1000)
        assert path is not None and path.stat().st_size <= crash.LOG_BYTES
        assert (tmp_path / f"{crash.LOG_NAME}.1").exists()
        assert not (tmp_path / f"{crash.LOG_NAME}.{crash.LOG_BACKUPS + 1}").exists()
    finally:
        for h in list(crash.log().handlers):
            crash.log().removeHandler(h)
            h.close()


def test_unwritable_log_folder_is_one_line_not_a_failure(tmp_path, capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert crash.setup_log(blocker / "logs") is None
    assert "no log file in" in capsys.readouterr().err


def test_an_interactive_start_writes_the_log_and_installs_the_handler(qapp, monkeypatch, tmp_path) -> None:
    import argparse
    import sys

    from PySide6.QtWidgets import QApplication

    from workbench import app
    from workbench.main_window import MainWindow

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)  # return at once instead of running
    hook = sys.excepthook
    args = argparse.Namespace(
        files=[], kind=None, open_input=None, screenshot=None, size="1280x800", solve=False
    )
    assert app.run_gui(args) == 0
    window = next(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.crash_handler)
    try:
        assert sys.excepthook == window.crash_handler.handle
        log_file = tmp_path / "state" / "puzzle-workbench" / "logs" / crash.LOG_NAME
        assert crash.log_path() == log_file and "start" in log_file.read_text(encoding="utf-8")
    finally:
        close_started_window(window)
    assert sys.excepthook == hook
