"""A Nine Tiles export has the same blank margin on every side (QA: 632x614 with the town at +26+26,
the right margin 44 px: the canvas reserved a tray row's width and trailing gap without a tray)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from solvers.ninetiles.plugin import CELL, FRAME_REACH, MARGIN, PLUGIN, TRAY_CELL
from solvers.ninetiles.town import Town
from workbench.cli import main

EXAMPLE = "206745813361230035"
TOWNS = {
    "complete": EXAMPLE,
    "two in the tray": "2067458.33612300.5",  # one tray row
    "seven in the tray": "2........" + "3........",  # two tray rows, the first one full
    "empty": "." * 18,  # nine in the tray
}


def _margins(path: Path) -> tuple[int, int, int, int]:
    """Blank pixels left, right, top, bottom of everything that differs from the background."""
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    w, h = image.width(), image.height()
    background = image.pixel(0, 0)

    def ink(x: int, y: int) -> bool:
        p = image.pixel(x, y)
        return sum(abs((p >> s & 255) - (background >> s & 255)) for s in (0, 8, 16)) > 30

    rows = [y for y in range(h) if any(ink(x, y) for x in range(0, w, 1))]
    top, bottom = rows[0], rows[-1]
    cols = [x for x in range(w) if any(ink(x, y) for y in range(top, bottom + 1))]
    return cols[0], w - 1 - cols[-1], top, h - 1 - bottom


@pytest.mark.parametrize("palette", ["light", "dark"])
@pytest.mark.parametrize("name", list(TOWNS))
def test_export_margins_are_equal(tmp_path: Path, name: str, palette: str) -> None:
    source, out = tmp_path / "town.town", tmp_path / "town.png"
    source.write_text(TOWNS[name] + "\n", encoding="utf-8")
    assert (
        main(["export", "ninetiles", str(source), str(out), "--cell-size", "60", "--palette", palette]) == 0
    )
    margins = _margins(out)
    assert max(margins) - min(margins) <= 1, f"{name}: margins left/right/top/bottom {margins}"


@pytest.mark.parametrize("name", list(TOWNS))
def test_canvas_is_no_wider_than_its_board_and_tray(name: str) -> None:
    town = Town.from_code(TOWNS[name])
    dl = PLUGIN.draw(town)
    tray = PLUGIN._tray_layout(town)
    pad = MARGIN - FRAME_REACH  # the blank outside the board's frame
    assert dl.width == 2 * MARGIN + 3 * CELL  # a full tray row fits inside the frame's reach
    assert max((x + TRAY_CELL for x, _y in tray.values()), default=0.0) <= dl.width - pad
    bottom = max((y + TRAY_CELL for _x, y in tray.values()), default=MARGIN + 3 * CELL + FRAME_REACH)
    assert dl.height == pytest.approx(bottom + pad)
