"""Repaint cost of the largest board: a 100x80 Toichika grid with ~5000 countries.

Run: python3 benchmarks/board_paint_bench.py  (prints full renders and cached repaints, in ms)
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication  # noqa: E402

from solvers.common import registry  # noqa: E402
from widgets.board_view import BoardArea, BoardView  # noqa: E402


def main() -> None:
    app = QApplication.instance() or QApplication([])
    plugin = registry.get("toichika")
    rng = random.Random(2)
    puzzle = plugin.new_puzzle(80, 100)
    puzzle = puzzle.with_walls(
        tuple(rng.random() < 0.5 for _ in puzzle.vwalls), tuple(rng.random() < 0.5 for _ in puzzle.hwalls)
    )
    for _ in range(2000):
        puzzle = puzzle.with_given(rng.randrange(80), rng.randrange(100), rng.choice([1, 2, 3, 4]))
    start = time.perf_counter()
    dl = plugin.draw(puzzle, None, plugin.empty_entries(puzzle))
    print(f"plugin.draw: {(time.perf_counter() - start) * 1000:.0f} ms, {len(dl.items)} items")
    board = BoardView(lambda: dl)
    area = BoardArea(board)
    area.resize(1000, 800)
    area.show()
    app.processEvents()
    for label, drop_cache in (("full render", True), ("cached repaint", False)):
        times = []
        for _ in range(5):
            if drop_cache:
                board._cache = None
            start = time.perf_counter()
            board.repaint()
            times.append((time.perf_counter() - start) * 1000)
        print(f"{label}: best {min(times):.1f} ms, worst {max(times):.1f} ms")


if __name__ == "__main__":
    main()
