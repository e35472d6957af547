"""QA pass 9: on a screen lower than the window's minimum (1920x1080 at 200% is 960x540 logical,
1280x800 at 150% is 853x533) the window opened 560 px high plus its frame, with the status bar
below the screen's edge. The minimum now gives way to the screen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRect

from workbench import window_geometry

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
from PySide6.QtWidgets import QApplication
app = QApplication([])
from workbench import window_geometry
from workbench.main_window import MainWindow
window = MainWindow(remember_layout=True)
window_geometry.place(window)
free = app.primaryScreen().availableGeometry()
# A window manager keeps a window at least its minimum size, even when maximised.
print(window.minimumHeight(), window.height(), free.height(), flush=True)
window.jobs.shutdown(5000)
"""


@pytest.mark.parametrize(("width", "height"), [(960, 540), (853, 533)])
def test_the_window_fits_a_screen_lower_than_its_minimum(tmp_path: Path, width: int, height: int) -> None:
    config = tmp_path / "screens.json"
    screen = {"name": "scaled", "x": 0, "y": 0, "width": width, "height": height, "logicalDpi": 96, "dpr": 1}
    config.write_text(json.dumps({"screens": [screen]}))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", PUZZLE_WORKBENCH_SETTINGS="test")
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    minimum, client, free = (int(v) for v in done.stdout.split()[-3:])
    assert free == height
    assert client <= free and minimum <= free - 40, done.stdout  # was 560 (the minimum) on 540


def test_shrink_minimum_keeps_the_minimum_on_a_large_screen(qtbot) -> None:
    from PySide6.QtWidgets import QMainWindow

    window = QMainWindow()
    qtbot.addWidget(window)
    window.setMinimumSize(800, 560)
    window_geometry.shrink_minimum(window, QRect(0, 0, 1920, 1080))
    assert (window.minimumWidth(), window.minimumHeight()) == (800, 560)
    window_geometry.shrink_minimum(window, QRect(0, 0, 960, 540))
    assert window.minimumHeight() <= 540 - window_geometry.FRAME_ALLOWANCE[1]
    assert window.minimumWidth() == 800
