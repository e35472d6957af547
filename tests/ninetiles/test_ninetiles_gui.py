"""The Nine Tiles Panic panels inside the real main window (pytest-qt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from solvers.common.protocol import EditResult
from solvers.ninetiles.scoring import score_town
from solvers.ninetiles.store_build import build
from solvers.ninetiles.themes import THEME_NAMES
from solvers.ninetiles.town import Town

pytestmark = pytest.mark.gui
EXAMPLE = "206745813361230035"


@pytest.fixture
def view(main_window, qtbot):
    win = main_window
    view = win.show_kind("ninetiles")
    view.doc.apply(EditResult(puzzle=Town.from_code(EXAMPLE), label="Example"))
    # The scoring kernels load in the background the first time a view opens.
    qtbot.waitUntil(lambda: view.panel("Scores").ready(), timeout=120000)
    qtbot.wait(50)  # the queued "ready" refresh
    yield view


def _panel(view, title: str):
    widget = view.panel(title)
    assert widget is not None, f"no {title} panel"
    return widget


def test_scores_follow_every_edit(view) -> None:
    panel = _panel(view, "Scores")
    shown = [int(panel.table.item(t, 2).text()) for t in range(26)]
    assert shown == score_town(Town.from_code(EXAMPLE))
    assert panel.table.item(19, 1).text() == "The Food Chain" and panel.table.item(19, 3).text() == "3"
    view.doc.apply(EditResult(puzzle=Town.from_code(EXAMPLE).rotated_tile(8, 1), label="turn"))
    assert "mismatched edge" in panel.status.text()
    assert panel.table.item(0, 2).text() == "–"
    # under the board the problem comes first, the 18-digit town code last (QA pass 7)
    assert view.plugin.describe(view.doc.puzzle).startswith("not a valid town: mismatched edge between")
    assert view.plugin.describe(view.doc.puzzle).endswith(f"(town {view.doc.puzzle.code})")
    view.doc.undo_stack.undo()
    assert view.doc.puzzle == Town.from_code(EXAMPLE)
    assert panel.status.text().startswith("Valid town")
    assert panel.roads.count() == 4
    panel.roads.setCurrentRow(1)
    assert view._overlay == {"road": 1}
    assert "R1C2 → R1C1 → R2C1 → R2C2 → R1C2 → R1C3" in panel.road_detail.text()
    lit = view.board.display_list()
    assert sum(1 for it in lit.items if getattr(it, "color", "") == "highlight") == 6


def test_find_best_towns_builds_a_store_and_opens_a_town(view, qtbot, tmp_path: Path) -> None:
    folder = tmp_path / "store"
    build(folder, workers=1, subset=10)
    panel = _panel(view, "Best towns")
    # QA: "Choose three theme cards." stood there while three cards were chosen
    assert panel.summary.text() == "Find best towns lists the towns that score most on these three cards."
    panel.store_dir = folder
    for combo, theme in zip(panel.combos, (4, 6, 23), strict=True):
        combo.setCurrentIndex(theme - 1)
    panel.limit.setValue(5)
    panel.find_best()
    assert not panel.open_button.isEnabled()  # nothing selected yet (issue 29.14)
    qtbot.waitUntil(lambda: panel.results.count() > 0, timeout=30000)
    summary = panel.summary.text()
    assert "of 3 themes at their maximum" in summary and "squared" in summary  # distance explained
    assert all(THEME_NAMES[t - 1] in summary for t in (4, 6, 23))  # names, not numbers
    assert panel.open_button.isEnabled() == panel.results.view.currentIndex().isValid()
    assert panel.results.count() == min(5, panel._total)
    assert panel._total > 10
    panel.more()
    qtbot.waitUntil(lambda: panel.results.count() == 10, timeout=30000)
    codes = [s.extras["code"] for s in panel.results.model.solutions]
    assert len(set(codes)) == len(codes)
    panel.results.select(0)
    assert view.shown_solution() is not None and panel.open_button.isEnabled()
    code = panel.results.model.solutions[0].extras["code"]
    panel.open_current()
    assert view.doc.puzzle == Town.from_code(code) and view.shown_solution() is None
    scores = [int(_panel(view, "Scores").table.item(t, 2).text()) for t in range(26)]
    assert scores == score_town(Town.from_code(code))
    panel.random_draw()
    assert len(set(panel.themes())) == 3


def test_statistics_panel(view, qtbot, tmp_path: Path) -> None:
    folder = tmp_path / "store"
    build(folder, workers=1, subset=10)
    panel = _panel(view, "Statistics")
    panel.store_dir = folder
    panel.load()
    qtbot.waitUntil(lambda: panel.stats is not None, timeout=30000)
    stats = panel.stats
    assert panel.perfect.rowCount() == len(stats["perfect_theme_sets"]) > 0
    counts = [int(panel.perfect.item(r, 1).text().replace(",", "")) for r in range(panel.perfect.rowCount())]
    assert counts == sorted(counts, reverse=True)
    assert "," in panel.perfect.item(0, 0).text()
    assert all(name in THEME_NAMES for name in panel.perfect.item(0, 0).text().split(", "))
    panel.theme.setCurrentIndex(7)
    assert panel.chart.title.startswith(THEME_NAMES[7]) and "logarithmic" in panel.chart.title
    assert sum(n for _, n in panel.chart.data) == stats["towns"]
    panel.chart.grab()  # paints without error


def test_mouse_on_the_board_turns_flips_and_swaps(view, qtbot) -> None:
    from PySide6.QtCore import Qt

    board = view.board
    start = Town.from_code(EXAMPLE)
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(0, 0).toPoint())
    assert view.doc.puzzle == start.rotated_tile(0, 1)
    qtbot.keyClick(board, Qt.Key.Key_F)  # the clicked tile has the keyboard cursor
    assert view.doc.puzzle == start.rotated_tile(0, 1).flipped_tile(0)
    view.doc.undo_stack.undo()
    view.doc.undo_stack.undo()
    assert view.doc.puzzle == start
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=board.cell_center(0, 0).toPoint())
    qtbot.mouseMove(board, board.cell_center(1, 1).toPoint())
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=board.cell_center(2, 2).toPoint())
    assert view.doc.puzzle == start.swapped(0, 8)
    r, c = board.cursor_cell
    qtbot.keyClick(board, Qt.Key.Key_F)
    assert view.doc.puzzle == start.swapped(0, 8).flipped_tile(3 * r + c)


def test_pointing_at_a_road_on_the_board_highlights_it(view, qtbot) -> None:
    from PySide6.QtTest import QTest

    from tests.ninetiles.test_ninetiles_plugin import _point_on

    panel = _panel(view, "Scores")
    town = Town.from_code(EXAMPLE)
    view.board.repaint()  # lays out the scale and origin
    QTest.mouseMove(view.board, view.board.to_widget(*_point_on(town, 8, 0)).toPoint())
    qtbot.waitUntil(lambda: view.input.hover is not None, timeout=2000)
    road = view.input.hover.overlay["road"]
    assert panel.roads.currentRow() == road
    assert panel.road_detail.text().startswith(f"Road {road + 1}")
    lit = view.board.display_list()
    assert any(getattr(it, "color", "") == "highlight" for it in lit.items)
    QTest.mouseMove(view.board, view.board.to_widget(12.0, 12.0).toPoint())  # grass: nothing
    qtbot.waitUntil(lambda: view.input.hover is None, timeout=2000)
    assert not any(getattr(it, "color", "") == "highlight" for it in view.board.display_list().items)


def test_right_click_menu_flips_a_tile_in_one_undo_step(view, qtbot) -> None:
    from PySide6.QtCore import Qt

    view.board.repaint()
    qtbot.mouseClick(view.board, Qt.MouseButton.RightButton, pos=view.board.cell_center(0, 2).toPoint())
    menu = view.board.menu
    assert menu is not None and menu.isVisible()
    labels = [a.text() for a in menu.actions()]
    assert labels == ["Turn left (R)", "Turn right (E)", "Flip (F)", "Back to tray (Del)"]
    menu.actions()[2].trigger()
    menu.close()
    assert view.doc.puzzle == Town.from_code(EXAMPLE).flipped_tile(2)
    view.doc.undo_stack.undo()
    assert view.doc.puzzle == Town.from_code(EXAMPLE)


def test_missing_store_asks_first_and_names_the_cli_alternative(view, tmp_path: Path) -> None:
    asked: list[tuple[Path, bool]] = []
    for title, button in (("Best towns", "find_button"), ("Statistics", "load_button")):
        panel = _panel(view, title)
        panel.store_dir = tmp_path / "nothing"
        panel.ask_build = lambda _parent, folder, given: asked.append((folder, given)) or False
        (panel.find_best if title == "Best towns" else panel.load)()
        assert panel.job is None and getattr(panel, button).isEnabled()
        assert f'enumerate --store "{tmp_path / "nothing"}"' in panel.summary.text()
    assert asked == [(tmp_path / "nothing", True)] * 2
    assert not (tmp_path / "nothing").exists()  # declining builds nothing


def test_cancelling_the_store_build_restores_the_panel(view, qtbot, tmp_path: Path) -> None:
    panel = _panel(view, "Best towns")
    panel.store_dir = tmp_path / "store"
    panel.ask_build = lambda *_args: True
    panel.find_best()
    assert not panel.find_button.isEnabled() and panel.summary.text() == "Searching…"
    panel.job.cancel()
    qtbot.waitUntil(lambda: panel.find_button.isEnabled(), timeout=60000)
    assert panel.summary.text().startswith("Cancelled")


def test_completions_are_captioned_previewed_in_scores_and_open_on_double_click(view, qtbot) -> None:
    partial = Town.from_code("206745..3361230..5")
    view.doc.apply(EditResult(puzzle=partial, label="partial"))
    best = _panel(view, "Best towns")
    plugin_state = dict(vars(view.plugin))
    for combo, theme in zip(best.combos, (5, 6, 8), strict=True):
        combo.setCurrentIndex(theme - 1)
    # the choice is this document's UI state, not the plug-in object's (workers share that)
    assert view.doc.ui.card_themes == (5, 6, 8)
    assert dict(vars(view.plugin)) == plugin_state and "card_themes" not in vars(type(view.plugin))
    view.solve()
    qtbot.waitUntil(lambda: view.browser.count() >= 2, timeout=20000)
    second = view.browser.model.solutions[1]
    scores = score_town(second.data)
    assert second.label == (
        f"{second.data.code}\nThe Longest Road: {scores[4]}\nCurvy: {scores[5]}\nHungry Aliens: {scores[7]}"
    )
    scores_panel = _panel(view, "Scores")
    view.browser.select(1)
    assert scores_panel.status.text() == f"Previewed town {second.data.code}"
    assert [int(scores_panel.table.item(t, 2).text()) for t in range(26)] == scores
    # One readable line under the board (the caption's lines ran together: "T3: 1: valid town"),
    # and the verdict names the rules once (issue 29.13).
    line = view.info.text()
    assert (
        "\n" not in line
        and f"{second.data.code} · The Longest Road: {scores[4]} · Curvy" in line
        and "— " in line
    )
    qtbot.waitUntil(lambda: "rules" in view.browser.status.text(), timeout=20000)
    assert "(Nine Tiles rules)" in view.browser.status.text()
    assert "tiles rules" not in view.browser.status.text()
    assert scores_panel.open_button.isVisibleTo(scores_panel)
    index = view.browser.model.index(1)
    view.browser.view.doubleClicked.emit(index)
    assert view.doc.puzzle == second.data and view.shown_solution() is None
    assert scores_panel.status.text() == f"Valid town {second.data.code}"
    assert not scores_panel.open_button.isVisibleTo(scores_panel)


def test_histogram_counts_have_separators_and_never_overlap(qtbot) -> None:
    from PySide6.QtGui import QImage, QPainter

    from widgets.panels.ninetiles import HistogramChart

    chart = HistogramChart()
    qtbot.addWidget(chart)
    chart.resize(300, 200)
    chart.set_data("t", {str(v): 61_000_000 + v * 1_600_000 for v in range(17)})
    bars = chart.bars()
    assert all(a[2].right() < b[2].left() for a, b in zip(bars, bars[1:], strict=False))
    painted: list[tuple[str, object]] = []
    original = QPainter.drawText

    def spy(self, *args):  # record where each count label goes
        painted.append((str(args[-1]), self.transform().map(0.0, 0.0)))
        return original(self, *args)

    QPainter.drawText = spy
    try:
        image = QImage(300, 200, QImage.Format.Format_ARGB32)
        chart.render(image)
    finally:
        QPainter.drawText = original
    counts = [text for text, _ in painted if "," in text]
    assert counts and all(text in {f"{n:,}" for _, n, _r in bars} for text in counts)


def test_dragging_a_tile_shows_a_ghost_and_the_target(view, qtbot) -> None:
    from PySide6.QtCore import Qt

    board = view.board
    start = Town.from_code(EXAMPLE)
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=board.cell_center(0, 0).toPoint())
    qtbot.mouseMove(board, board.cell_center(1, 1).toPoint())
    preview = view.input.drag_overlay
    assert preview is not None and preview["target"] == 4
    assert preview["drag"] == start.face_at(0).name
    texts = [item.text for item in view._display_list().items if type(item).__name__ == "Text"]
    assert preview["drag"] in texts  # the ghost carries the tile's name
    qtbot.mouseMove(board, board.cell_center(2, 1).toPoint())
    assert view.input.drag_overlay["target"] == 7  # the target follows the pointer
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=board.cell_center(2, 1).toPoint())
    assert view.input.drag_overlay is None  # gone once the tile is dropped
    assert view.doc.puzzle == start.swapped(0, 7)
    assert view.picture().signature() == view._display_list().signature()  # exports never show it


def test_theme_cards_survive_new_content_and_reach_solve_as_an_option(view, qtbot) -> None:
    """A fresh document (Open/New) starts a fresh UI state: the panel's cards are put back into it,
    so Solve still captions with them; the option is read on the GUI thread, not by the worker."""
    from solvers.common.protocol import document_solve_options

    best = _panel(view, "Best towns")
    for combo, theme in zip(best.combos, (26, 1, 13), strict=True):
        combo.setCurrentIndex(theme - 1)
    view.doc.reset(Town.from_code("206745..3361230..5"))
    assert view.doc.ui.card_themes == (26, 1, 13)
    assert document_solve_options(view.plugin, view.doc.entries, view.doc.ui) == {"card_themes": (26, 1, 13)}
    view.solve()
    qtbot.waitUntil(lambda: view.browser.count() >= 1, timeout=20000)
    first = view.browser.model.solutions[0]
    scores = score_town(first.data)
    assert first.label.split("\n")[1:] == [
        f"Boy Scouts: {scores[25]}",
        f"Capture: {scores[0]}",
        f"Same Length Roads: {scores[12]}",
    ]


def test_a_resumed_build_says_it_goes_on(tmp_path: Path) -> None:
    """QA pass 7: with 21 parts of the table on disk, the question said "not built yet" and the
    progress line started at 0 %; both now say the build goes on from what is there."""
    from widgets.panels.ninetiles import _not_built, _open_store, parts_built

    folder = tmp_path / "store"
    assert parts_built(folder) == 0 and _not_built(folder) == "which is not built yet"
    (folder / "shards").mkdir(parents=True)
    for i in range(21):
        (folder / "shards" / f"shard_{i:05d}.npz").write_bytes(b"")
    (folder / "shards" / "shard_00021.tmp.npz").write_bytes(b"")  # an unfinished part
    assert parts_built(folder) == 21
    assert _not_built(folder) == "which is partly built (21 parts done; building goes on from them)"
    said: list[dict] = []

    class Stop(Exception):
        pass

    def progress(info: dict) -> None:
        said.append(info)
        raise Stop  # the first word is enough: no build here

    with pytest.raises(Stop):
        _open_store(folder, None, progress)
    assert said[0]["text"].startswith("resuming the build of") and "21 parts done" in said[0]["text"]
    assert "fraction" not in said[0]  # no "0 %" for a build a tenth done
