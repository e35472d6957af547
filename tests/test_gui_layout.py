"""Every module and every side tab fits at 1280x800 and 1024x768: nothing clipped, no sideways scrolling.

Screenshots of every case are saved for review under the folder printed at the start
(``$WORKBENCH_LAYOUT_SHOTS`` or <tmp>/workbench-layout-shots).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
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
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


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


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("kind", list(MODE_SAMPLES))
def test_switching_edit_and_play_leaves_the_board_in_place(main_window, qtbot, kind: str, size) -> None:
    """QA: the Edit and Play tool rows differ in height, so switching modes moved and rescaled the
    board by 13-69 px (Flow 13-25, Doves 46-69, X-ceter-O 23 at 1024x768). The rows keep the
    height of the taller mode's tools."""
    main_window.resize(*size)
    main_window.files.choose_puzzle = lambda name, lines: 0  # a pack's first puzzle, never a dialog
    view = main_window.show_kind(kind)
    if MODE_SAMPLES[kind]:
        sample = next(p for p in view.plugin.sample_paths() if p.name == MODE_SAMPLES[kind])
        assert main_window.files.open_path(str(sample), kind)
    view.cancel_jobs(quietly=True)
    seen = []
    for mode in ("edit", "play", "edit", "play"):
        view.set_mode(mode)
        QApplication.processEvents()
        qtbot.wait(30)
        seen.append((mode, _board_on_screen(view, main_window), view.board_area.geometry().getRect()))
    assert main_window.size().toTuple() == size
    assert len({(board, area) for _, board, area in seen}) == 1, seen
