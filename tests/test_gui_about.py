"""Help > About: versions of the parts underneath, the data folders and the licences (issue 32)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from workbench import __version__

pytestmark = pytest.mark.gui


def _help_menu(window):
    return next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "Help")


def test_about_from_the_help_menu_names_versions_folders_and_licences(
    main_window, qtbot, monkeypatch, tmp_path
):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("PUZZLE_WORKBENCH_TABLEBASES", str(tmp_path / "tb"))
    about = next(a for a in _help_menu(main_window).actions() if a.text().replace("&", "") == "About")
    about.trigger()
    dialog = main_window.help.about_dialog
    assert dialog is not None and dialog.isVisible()
    plain = dialog.text.toPlainText()
    import cv2
    import numba
    import numpy
    import pysat
    import PySide6
    from PySide6.QtCore import qVersion

    assert f"Puzzle Workbench {__version__}" in plain
    for name, version in (
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        ("numpy", numpy.__version__),
        ("numba", numba.__version__),
        ("python-sat", pysat.__version__),
        ("OpenCV", cv2.__version__),
    ):
        assert f"\n{name}\n {version}\n" in plain.replace("\xa0", " "), name  # one table row
    for folder in ("Tokyo Doves tablebases", "Nine Tiles store", "Settings", "Logs"):
        assert folder in plain
    assert str(tmp_path / "tb") in plain and str(tmp_path / "state" / "puzzle-workbench" / "logs") in plain
    assert "LGPL-3.0" in plain and "Apache-2.0" in plain and "BSD-2-Clause" in plain
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    copied = QGuiApplication.clipboard().text()
    assert f"numba: {numba.__version__}" in copied and "Nine Tiles store:" in copied
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
