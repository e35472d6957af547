"""Flow variants in the GUI: Esc cancels a long variant generation and a long variant solve; the
window keeps painting meanwhile and the document is left as it was."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt, QTimer

pytestmark = pytest.mark.gui


class _Ticks:
    """The longest gap between 10 ms timer ticks: how long the event loop was blocked."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.worst = 0.0
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, now - self.last)
        self.last = now


def _hex_board(n: int) -> str:
    rows = [["."] * n for _ in range(n)]
    for ch, (r1, c1), (r2, c2) in (("A", (0, 0), (n - 1, n - 1)), ("B", (0, n - 1), (n - 1, 0))):
        rows[r1][c1] = rows[r2][c2] = ch
    rows[n // 2][3] = rows[n // 2 - 1][n - 4] = "C"  # open board, few colours: a long search
    return "shape: hex\n" + "\n".join("".join(row) for row in rows) + "\n"


def test_esc_cancels_variant_generation(main_window, qtbot, monkeypatch) -> None:
    # The generator is made slow on purpose: a real 30x30 hex generation can finish before Esc
    # on a warm, quiet run. The real generator's cancel is tested in the solver tests.
    import widgets.panels.flow_generator as flow_panel
    from solvers.common.cancel import CancelToken

    real = flow_panel.generate_variant

    def slow(cols: int, rows: int, kind: str, cancel: CancelToken | None = None, **kw: object) -> object:
        if cols == 30:
            while True:
                assert cancel is not None
                cancel.raise_if_cancelled()
                time.sleep(0.01)
        return real(cols, rows, kind, cancel=cancel, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(flow_panel, "generate_variant", slow)
    monkeypatch.setenv("PUZZLE_WORKBENCH_JOBS", "thread")  # the patch must reach the job body
    view = main_window.show_kind("flow")
    panel = view.panel("Flow")
    before, undo = view.doc.puzzle, view.doc.undo_stack.count()
    panel.generator.width_box.setValue(30)
    panel.generator.height_box.setValue(30)
    panel.generator.colours_box.setValue(0)
    panel.generator.kind_box.setCurrentText("hex")
    ticks = _Ticks()
    qtbot.mouseClick(panel.generator.generate_button, Qt.MouseButton.LeftButton)
    job = panel.generator.job
    assert job is not None and not job.done
    qtbot.wait(50)
    qtbot.keyClick(main_window, Qt.Key.Key_Escape)
    pressed = time.perf_counter()
    qtbot.waitUntil(lambda: job.done, timeout=5000)
    # Generous bounds: they catch a frozen window or an ignored Esc, not slowness under CI load.
    assert time.perf_counter() - pressed < 5.0
    assert job.cancel_token.cancelled
    qtbot.wait(100)  # a late result must not arrive either
    ticks.timer.stop()
    assert ticks.worst < 5.0  # the event loop keeps running while the job does
    assert view.doc.puzzle == before and view.doc.undo_stack.count() == undo
    # The generator still works after a cancel.
    panel.generator.width_box.setValue(5)
    panel.generator.height_box.setValue(5)
    qtbot.mouseClick(panel.generator.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.doc.puzzle.hex and view.doc.puzzle.rows == 5, timeout=20000)


def test_esc_cancels_variant_solve(main_window, qtbot) -> None:
    from solvers.flow import codec

    view = main_window.show_kind("flow")
    view.doc.replace(codec.parse(_hex_board(30)), "hex board")
    before, undo = view.doc.puzzle, view.doc.undo_stack.count()
    view.board.repaint()  # the first paint of 900 hexagons is no part of the solve's stall
    qtbot.wait(50)
    ticks = _Ticks()
    job = view.solve(2)
    assert job is not None
    qtbot.wait(400)
    assert not job.done  # the search is long (over 8 s when left alone)
    qtbot.keyClick(main_window, Qt.Key.Key_Escape)
    pressed = time.perf_counter()
    qtbot.waitUntil(lambda: job.done, timeout=5000)
    assert time.perf_counter() - pressed < 5.0
    ticks.timer.stop()
    assert ticks.worst < 5.0  # a freeze, not slowness (measured 0.15-0.4 s, under load)
    assert view.doc.puzzle == before and view.doc.undo_stack.count() == undo
    assert not view.busy()
