"""Solution list captions show whole at 1280x800 and 1024x768 (they read "1. Num…link …" for a Flow
solution under Numberlink rules: a 114-pixel cell wrapped the caption onto a second line that had
no room). Every module's real captions go into every solution list of its view (the shell's
Solutions tab, Nine Tiles' Best towns) and each caption line must fit the text area the item
delegate draws it in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionViewItem

from solvers.common import registry
from solvers.common.protocol import SOLVE, Solution, document_solve_options
from solvers.flow.solve import RULE_WORDS
from widgets.solution_browser import SolutionBrowser

pytestmark = pytest.mark.gui

SIZES = [(1280, 800), (1024, 768)]
ROOT = Path(__file__).resolve().parents[1]
_SOLVED: dict[str, list[Solution]] = {}


def solutions(kind: str, view: Any) -> list[Solution]:
    """The module's own answers for its start-up puzzle, and for Flow one per rule set (the label
    names it) and enough of them for three-digit row numbers."""
    if kind not in _SOLVED:
        plugin = view.plugin
        options = document_solve_options(plugin, view.doc.entries, view.doc.ui)
        found = list(plugin.solve(view.doc.puzzle, limit=2, **options))
        if kind == "flow":
            text = (ROOT / "assets" / "flow" / "samples" / "02-7x7.txt").read_text()
            numberlink = plugin.parse("rules: numberlink\n" + text)
            found += list(plugin.solve(numberlink, limit=1))
            assert found[-1].label == RULE_WORDS["numberlink"]
            found += [
                Solution(found[0].grid, label=words, data=found[0].data) for words in RULE_WORDS.values()
            ]
            found *= 30
        assert found, f"{kind}: no solution to caption"
        _SOLVED[kind] = found
    return _SOLVED[kind]


def cut_captions(browser: SolutionBrowser) -> list[str]:
    """Captions (or lines of them) that the list draws cut: wider or taller than their text area,
    or an item reaching past the list's right edge."""
    view = browser.view
    metrics = view.fontMetrics()
    style = view.style()
    margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1)
    problems = []
    for row in range(browser.model.rowCount()):
        index = browser.model.index(row)
        option = QStyleOptionViewItem()
        view.initViewItemOption(option)
        option.rect = view.visualRect(index)
        view.itemDelegate().initStyleOption(option, index)
        area = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view)
        lines = option.text.split("\u2028")  # the delegate's form of "\n"
        wide = [line for line in lines if metrics.horizontalAdvance(line) > area.width() - margin]
        if wide or len(lines) * metrics.lineSpacing() > area.height():
            problems.append(f"{option.text!r} in {area.width()}x{area.height()} px")
        if option.rect.left() < 0 or option.rect.right() >= view.viewport().width():
            problems.append(f"{option.text!r} past the list's edge")
    return problems


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("kind", [k for k, p in registry.plugins().items() if SOLVE in p.meta.capabilities])
def test_solution_captions_are_not_cut(main_window, qtbot, kind: str, size: tuple[int, int]) -> None:
    window = main_window
    window.resize(*size)
    view = window.show_kind(kind)
    view.cancel_jobs()
    shown = [b for b in view.findChildren(SolutionBrowser) if view.side.isAncestorOf(b)]
    if view.solve_panel is not None and not shown:
        pytest.skip(f"{kind}: its panel shows the analysis; it has no solution list")
    if kind == "ninetiles":
        assert len(shown) == 2  # Solve's list and the Best towns list
    batch = solutions(kind, view)
    checked = 0
    for browser in shown:
        tab = next(i for i in range(view.side.count()) if _holds(view.side.widget(i), browser))
        view.side.setCurrentIndex(tab)
        browser.clear()
        browser.add(batch)
        QApplication.processEvents()
        qtbot.wait(30)
        assert browser.view.isVisible()
        problems = cut_captions(browser)
        assert not problems, f"{kind} at {size}, tab {view.side.tabText(tab)!r}: {problems[:5]}"
        checked += browser.model.rowCount()
        browser.clear()
    assert checked


def _holds(page: Any, browser: SolutionBrowser) -> bool:
    return page is browser or page.isAncestorOf(browser)


def test_f7_leaves_no_row_current_and_gives_the_board_the_keys(main_window, qtbot) -> None:
    """QA: after F7 the thumbnail stayed highlighted, a click on it did nothing (the row was still
    current), and keys went on to the solutions list."""
    from PySide6.QtWidgets import QApplication

    view = main_window.show_kind("flow")
    assert main_window.files.open_sample("flow", view.plugin.sample_paths()[0])
    with qtbot.waitSignal(view.solve_finished, timeout=60_000):
        view.solve(2)
    assert view.shown_solution() is not None
    view.browser.view.setFocus()
    main_window.act_hide.trigger()
    assert view.shown_solution() is None and not view.browser.view.currentIndex().isValid()
    assert QApplication.focusWidget() is view.board
    view.browser.select(0)  # the same row shows its solution again
    assert view.shown_solution() is not None
