"""QA pass 9: at 200 % scaling (QT_SCALE_FACTOR=2) the solution thumbnails and the tool palette's
colour dots were ratio-1 pictures that Qt stretched, so they looked blurred beside the sharp text.
They are now drawn with the screen's pixel ratio, at the same logical size."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from widgets.hidpi import sharp_pixmap

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
from PySide6.QtWidgets import QApplication
app = QApplication([])
from solvers.common import registry
from widgets.solution_browser import THUMB, SolutionModel
from widgets.tool_palette import swatch
from solvers.common.palette import LIGHT

plugin = registry.get("flow")
puzzle = plugin.parse(plugin.sample_paths()[0].read_text())
solution = next(iter(plugin.solve(puzzle, limit=1)))
model = SolutionModel(lambda s: plugin.draw(puzzle, s))
thumb = model._thumbnail(solution)
dot = max(s.width() for s in swatch(LIGHT, "color:0").availableSizes())
print(app.devicePixelRatio(), THUMB, thumb.devicePixelRatio(), thumb.width(),
      thumb.deviceIndependentSize().width(), dot, flush=True)
"""


def test_thumbnails_and_tool_dots_are_sharp_at_200_percent() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR="2", PUZZLE_WORKBENCH_SETTINGS="test")
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    app_ratio, thumb, ratio, pixels, logical, dot = (float(v) for v in done.stdout.split()[-6:])
    assert app_ratio == 2.0
    assert ratio == 2.0 and pixels == 2 * thumb  # was ratio 1, 96 px stretched to 192
    assert logical == thumb  # the view's item size is unchanged
    assert dot == 28  # the 14 px dot has 28 device pixels (it was 14, stretched)


def test_sharp_pixmap_keeps_its_logical_size(qtbot) -> None:
    pixmap = sharp_pixmap(14, 10, 1.5)
    assert (pixmap.width(), pixmap.height()) == (21, 15)
    assert pixmap.deviceIndependentSize().toSize().toTuple() == (14, 10)
