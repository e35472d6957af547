"""Every module and every side tab fits at 1280x800 and 1024x768: nothing clipped, no sideways scrolling.

Screenshots of every case are saved for review under the folder printed at the start
(``$WORKBENCH_LAYOUT_SHOTS`` or <tmp>/workbench-layout-shots).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QApplication,
    QPlainTextEdit,
    QScrollArea,
    QTabBar,
    QToolBar,
    QToolButton,
    QWidget,
)

from solvers.common import registry
from widgets.board_view import BoardArea

pytestmark = pytest.mark.gui

SIZES = [(1280, 800), (1024, 768)]
SHOTS = Path(os.environ.get("WORKBENCH_LAYOUT_SHOTS", Path(tempfile.gettempdir()) / "workbench-layout-shots"))
# Module panels owned by other work in progress (issue 16): known to fail here, reported, not hidden.
KNOWN_PANEL_FAILURES: dict[tuple[str, str], str] = {}


def _name(widget: QWidget) -> str:
    text = widget.text() if isinstance(widget, QAbstractButton) else ""
    label = widget.accessibleName() or widget.objectName() or text
    return f"{type(widget).__name__}({label!r})" if label else type(widget).__name__


def _in_scroll_content(widget: QWidget) -> bool:
    """Inside a scroll area's content, vertical overflow is fine (it scrolls); sideways is not."""
    from widgets.wheel_guard import scroll_area_around

    return scroll_area_around(widget) is not None


def layout_problems(root: QWidget) -> list[str]:
    problems: list[str] = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisibleTo(root) or widget.window() is not root.window():
            continue
        # The board zooms and a text editor scrolls long lines: both scroll sideways by design.
        if isinstance(widget, QAbstractScrollArea) and not isinstance(widget, (BoardArea, QPlainTextEdit)):
            if widget.horizontalScrollBar().isVisible():
                problems.append(f"horizontal scrollbar in {_name(widget)}")
            if isinstance(widget, QScrollArea) and widget.widget() is not None:
                content, view = widget.widget(), widget.viewport()
                if content.width() > view.width() + 1:
                    problems.append(
                        f"{_name(content)} wider than its scroll area ({content.width()} > {view.width()})"
                    )
        if isinstance(widget, QToolBar):
            extension = widget.findChild(QToolButton, "qt_toolbar_ext_button")
            if extension is not None and extension.isVisible():
                problems.append("toolbar overflows (actions hidden behind »)")
        if isinstance(widget, QTabBar):
            arrows = [b for b in widget.findChildren(QToolButton) if b.isVisible()]
            if arrows:
                problems.append(f"tabs of {_name(widget.parentWidget())} hidden behind scroll arrows")
            continue
        if isinstance(widget, QAbstractButton) and isinstance(widget.parentWidget(), QTabBar):
            continue
        if isinstance(widget, QAbstractButton) and widget.parentWidget() is not None:
            if widget.width() + 1 < widget.minimumSizeHint().width():
                problems.append(
                    f"{_name(widget)} squeezed: {widget.width()} < {widget.minimumSizeHint().width()} px"
                )
        parent = widget.parentWidget()
        if parent is None or parent.inherits("QStackedWidget") or widget.inherits("QScrollBar"):
            continue
        geo = widget.geometry()
        if geo.width() <= 0 or geo.height() <= 0 or isinstance(parent, QAbstractScrollArea):
            continue
        if parent.objectName() == "qt_scrollarea_viewport":
            continue  # content of a scroll area: checked above
        if geo.left() < -1 or geo.right() > parent.width() + 1:
            problems.append(f"{_name(widget)} clipped sideways in {_name(parent)}")
        elif (geo.top() < -1 or geo.bottom() > parent.height() + 1) and not _in_scroll_content(widget):
            problems.append(f"{_name(widget)} clipped at the bottom of {_name(parent)}")
    return sorted(set(problems))


@pytest.fixture(scope="module", autouse=True)
def _announce_folder() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    print(f"\nlayout screenshots: {SHOTS}")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("kind", list(registry.plugins()))
def test_every_tab_fits(main_window, qtbot, kind: str, size: tuple[int, int]) -> None:
    window = main_window
    window.resize(*size)
    view = window.show_kind(kind)
    view.cancel_jobs()
    failures: dict[str, list[str]] = {}
    for index in range(view.side.count()):
        title = view.side.tabText(index)
        view.side.setCurrentIndex(index)
        QApplication.processEvents()
        qtbot.wait(30)
        assert window.size().toTuple() == size, f"the window had to grow to {window.size().toTuple()}"
        window.grab().save(str(SHOTS / f"{kind}-{title.replace(' ', '_')}-{size[0]}x{size[1]}.png"))
        panel = view.side.widget(index)
        shell_problems = [p for p in layout_problems(window) if not _inside(panel, p, window)]
        panel_problems = layout_problems(panel) if panel is not None else []
        if shell_problems:
            failures.setdefault("shell", []).extend(shell_problems)
        if panel_problems:
            failures.setdefault(title, []).extend(panel_problems)
    shell = failures.pop("shell", [])
    assert not shell, f"{kind} at {size}: shell layout problems: {sorted(set(shell))}"
    unexpected = {t: p for t, p in failures.items() if (kind, t) not in KNOWN_PANEL_FAILURES}
    assert not unexpected, f"{kind} at {size}: panel layout problems: {unexpected}"
    if failures:
        reasons = "; ".join(KNOWN_PANEL_FAILURES[(kind, t)] for t in failures)
        pytest.xfail(f"{reasons}: {failures}")


def _inside(panel: QWidget | None, problem: str, window: QWidget) -> bool:
    """Problems of the panel's own children are counted once, as panel problems."""
    if panel is None:
        return False
    return any(problem in p for p in layout_problems(panel))


def test_the_window_cannot_be_made_smaller_than_a_usable_board(main_window) -> None:
    """QA: at its own minimum (763x399) Flow's board was cut with the info line drawn over it and
    Doves' tool rows and hand were hidden."""
    from workbench.main_window import MINIMUM_SIZE

    main_window.resize(300, 200)
    assert (main_window.width(), main_window.height()) >= MINIMUM_SIZE
    assert main_window.width() >= 800 and main_window.height() >= 560


def _board_on_screen(view, window: QWidget) -> tuple[int, int, int, int]:
    """Where the board's drawing is in the window: x, y, width, height (pixels)."""
    board = view.board
    picture = board.display_list()
    board._layout(picture)  # the scale and origin for the board's current size
    top_left = board.mapTo(window, board.to_widget(0, 0).toPoint())
    bottom_right = board.mapTo(window, board.to_widget(picture.width, picture.height).toPoint())
    return top_left.x(), top_left.y(), bottom_right.x() - top_left.x(), bottom_right.y() - top_left.y()


# A sample with many tools in one mode: Flow's 13 colours, Doves' set-up pieces.
MODE_SAMPLES = {
    "flow": "06-14x14.txt",
    "doves": "01-start.doves",
    "xcetero": "",
    "toichika": "",
    "example": "",
}


MODE_SIZES = [(800, 560), (1024, 768), (1280, 800)]
ROW = 30  # one tool row with the spacing below it (buttons are 21-26 px high)


def _open(main_window, kind: str, size: tuple[int, int]):
    main_window.resize(*size)
    main_window.files.choose_puzzle = lambda name, lines: 0  # a pack's first puzzle, never a dialog
    view = main_window.show_kind(kind)
    if MODE_SAMPLES.get(kind):
        sample = next(p for p in view.plugin.sample_paths() if p.name == MODE_SAMPLES[kind])
        assert main_window.files.open_path(str(sample), kind)
    view.cancel_jobs(quietly=True)
    return view


def _settle(qtbot) -> None:
    QApplication.processEvents()
    qtbot.wait(30)


def _used(view) -> int:
    """How far down the palette its shown buttons reach (the rest of its height is empty)."""
    palette = view.tools
    shown = [b for b in palette.findChildren(QAbstractButton) if b.isVisibleTo(palette)]
    return max((b.geometry().bottom() + 1 for b in shown), default=0)


@pytest.mark.parametrize("size", MODE_SIZES, ids=[f"{w}x{h}" for w, h in MODE_SIZES])
@pytest.mark.parametrize("kind", list(MODE_SAMPLES))
def test_switching_edit_and_play_moves_the_board_one_tool_row_at_most(
    main_window, qtbot, kind: str, size
) -> None:
    """QA: the Edit and Play tool rows differ in height, so switching modes moved and rescaled the
    board by 13-69 px (Flow 13-25, Doves 46-69, X-ceter-O 23 at 1024x768). The rows keep the height
    of the taller mode's tools, but one row more than the shown tools need at most (below): where
    the modes differ by one row the board stays in place, elsewhere it moves by one row."""
    view = _open(main_window, kind, size)
    seen = []
    for mode in ("edit", "play", "edit", "play"):
        view.set_mode(mode)
        _settle(qtbot)
        seen.append((_board_on_screen(view, main_window), view.board_area.geometry().getRect(), _used(view)))
    assert main_window.size().toTuple() == size
    assert seen[0] == seen[2] and seen[1] == seen[3], seen  # back and forth: the same two places
    (edit, _, edit_used), (play, _, play_used) = seen[0], seen[1]
    if edit_used <= play_used + ROW:
        assert edit == play, seen
    assert abs(edit[1] - play[1]) <= ROW and abs(edit[3] - play[3]) <= ROW, seen


@pytest.mark.parametrize("size", MODE_SIZES, ids=[f"{w}x{h}" for w, h in MODE_SIZES])
@pytest.mark.parametrize("kind", ["flow", "doves", "xcetero"])
def test_play_mode_leaves_one_empty_tool_row_above_the_board_at_most(
    main_window, qtbot, kind: str, size
) -> None:
    """QA (defect 5): Play mode kept the whole height of the Edit tool rows: an empty band of 189 px
    above Doves' board at 800x560 (69 px at 1024x768), 75 px in Flow at 800x560."""
    view = _open(main_window, kind, size)
    view.set_mode("edit")
    _settle(qtbot)
    view.set_mode("play")
    _settle(qtbot)
    band = view.tools.height() - _used(view)
    assert 0 <= band <= ROW, f"{band} px empty above the board in Play mode"


@pytest.mark.parametrize("size", MODE_SIZES, ids=[f"{w}x{h}" for w, h in MODE_SIZES])
@pytest.mark.parametrize("kind", list(registry.plugins()))
def test_every_tool_can_be_chosen_at_every_window_size(main_window, qtbot, kind: str, size) -> None:
    """QA (defect 4): at 800x560 Doves' set-up tools wrapped into 9 rows, "Switch side to move" was
    cut off below the palette and the board shrank to 147x216 px. The rows now take a share of the
    board column (two rows at least); the tools that do not fit are in the "More" menu."""
    view = _open(main_window, kind, size)
    for mode in ("edit", "play"):
        view.set_mode(mode)
        _settle(qtbot)
        palette = view.tools
        more = getattr(palette, "more", None)  # the menu of the tools that do not fit
        menu = (
            {a.text().split("\t")[0]: a for a in palette.menu.actions()} if more and more.isVisible() else {}
        )
        for i, tool in enumerate(palette.tools):
            button = palette.group.button(i)
            if button.isVisibleTo(palette):
                assert button.geometry().bottom() < palette.height(), f"{tool.label} cut off"
                qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
            else:
                assert tool.label in menu, f"{tool.label}: neither shown nor in the menu"
                menu[tool.label].trigger()
                assert palette.more.isChecked() and palette.more.toolTip().startswith(tool.tip or tool.label)
                shows = (
                    not palette.more.icon().isNull()
                    if tool.color
                    else tool.label.split(" (")[0] in palette.more.text()
                )
                assert shows, f"the More button does not show the chosen {tool.label}"
            assert palette.current == tool.id and view.board.tool == tool.id
        if more and more.isVisible():
            assert more.geometry().bottom() < palette.height()
        assert palette.height() <= max(2 * ROW, main_window.height() // 8), palette.height()


def test_doves_board_keeps_a_usable_size_at_the_minimum_window(main_window, qtbot) -> None:
    """QA (defect 4): Doves at 800x560 in Edit mode drew its board 147x216 px (doves of 20 px, the
    caption 5 px high) under 9 rows of tools."""
    view = _open(main_window, "doves", (800, 560))
    view.set_mode("edit")
    _settle(qtbot)
    _x, _y, width, height = _board_on_screen(view, main_window)
    assert width >= 220 and height >= 320, (width, height)
    assert view.tools.height() <= 2 * ROW
