"""Board zoom and pan, and the cached board rendering that keeps repaints of large boards cheap."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPoint, Qt
from qt_events import send_wheel

pytestmark = pytest.mark.gui


def _ctrl_wheel(board, steps: int) -> None:
    send_wheel(board, steps, Qt.KeyboardModifier.ControlModifier)


def test_ctrl_wheel_zooms_and_fit_restores(main_window, qtbot) -> None:
    view = main_window.show_kind("flow")
    area, board = view.board_area, view.board
    fitted = board.size()
    _ctrl_wheel(board, 2)
    assert area.zoom > 1.5
    assert board.width() > fitted.width() and area.horizontalScrollBar().maximum() > 0
    main_window.act_fit.trigger()
    assert area.zoom == 1.0 and board.size() == fitted
    assert view.doc.undo_stack.count() == 0  # zooming is not an edit


def test_zoom_keys_and_clicks_hit_the_right_cell_when_zoomed(main_window, qtbot) -> None:
    view = main_window.show_kind("example")
    view.doc.replace(view.plugin.new_puzzle(4), "blank")
    main_window.act_zoom_in.trigger()
    main_window.act_zoom_in.trigger()
    assert main_window.act_zoom_in.shortcuts()[0].toString() == "Ctrl+="
    assert view.board_area.zoom == pytest.approx(1.5625)
    view.board_area.ensureVisible(*view.board.cell_center(3, 3).toPoint().toTuple())
    qtbot.wait(10)
    view.tools.select("2")
    qtbot.mouseClick(view.board, Qt.MouseButton.LeftButton, pos=view.board.cell_center(3, 3).toPoint())
    assert view.doc.puzzle.at(3, 3) == 2
    main_window.act_zoom_out.trigger()
    assert view.board_area.zoom == pytest.approx(1.25)


def test_middle_drag_pans_a_zoomed_board(main_window, qtbot) -> None:
    view = main_window.show_kind("flow")
    view.board_area.set_zoom(3)
    bar = view.board_area.horizontalScrollBar()
    bar.setValue(bar.maximum() // 2)
    before = bar.value()
    start = view.board.mapFromGlobal(view.board_area.viewport().mapToGlobal(QPoint(200, 200)))
    qtbot.mousePress(view.board, Qt.MouseButton.MiddleButton, pos=start)
    qtbot.mouseMove(view.board, start + QPoint(60, 0))
    qtbot.mouseRelease(view.board, Qt.MouseButton.MiddleButton, pos=start + QPoint(60, 0))
    assert bar.value() < before
    assert view.doc.undo_stack.count() == 0


def test_repaints_without_a_change_reuse_the_rendered_board(main_window, qtbot) -> None:
    view = main_window.show_kind("toichika")
    rng = random.Random(1)
    puzzle = view.plugin.new_puzzle(80, 100)
    puzzle = puzzle.with_walls(
        tuple(rng.random() < 0.5 for _ in puzzle.vwalls), tuple(rng.random() < 0.5 for _ in puzzle.hwalls)
    )
    view.doc.reset(puzzle)
    board = view.board
    board.repaint()
    renders = board.renders
    for cell in ((0, 0), (0, 1), (1, 1)):  # cursor moves and focus changes repaint, not re-render
        board.cursor_cell = cell
        board.repaint()
    assert board.renders == renders
    view.doc.replace(puzzle.with_given(0, 0, 1), "one given")
    board.repaint()
    assert board.renders == renders + 1
    # The 100 ms target is measured by benchmarks/board_paint_bench.py; a loaded CI machine gets slack.
    assert board.last_render_seconds < 5.0
