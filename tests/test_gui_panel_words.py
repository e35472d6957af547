"""The Tokyo Doves and Nine Tiles Panic panels speak a player's words (pytest-qt).

QA found words only a developer understands in both panels: "plies", "SSN", "nodes", "depth",
"(tablebase)", "store", "score vectors", "road-shape towns", "the smaller border edge id". Every
text a panel shows (labels, buttons, group titles, tooltips, list entries, spin box words, table
headers) and the lines it writes after a job are read here for them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QGroupBox,
    QLabel,
    QMessageBox,
    QScrollArea,
    QSpinBox,
    QTableWidget,
    QWidget,
)

pytestmark = pytest.mark.gui

JARGON = re.compile(
    r"\bpl(y|ies)\b|\bSSN\b|\bnodes?\b|\bdepth\b|\bretrograde\b|\bDTM\b|\bstore\b|\(tablebase\)"
    r"|\bvectors?\b|\bsynonym|road-shape|\bedge id\b|\benumeration\b|\bclass(es)?\b",
    re.IGNORECASE,
)


def widget_words(root: QWidget) -> list[str]:
    """Every text ``root`` and its children show or explain."""
    words: list[str] = []
    for widget in [root, *root.findChildren(QWidget)]:
        words += [widget.toolTip(), widget.accessibleName()]
        if isinstance(widget, QLabel | QAbstractButton):
            words.append(widget.text())
        if isinstance(widget, QGroupBox):
            words.append(widget.title())
        if isinstance(widget, QComboBox):
            words += [widget.itemText(i) for i in range(widget.count())]
        if isinstance(widget, QSpinBox):
            words += [widget.prefix(), widget.suffix()]
        if isinstance(widget, QAbstractSpinBox):
            words.append(widget.text())
        if isinstance(widget, QTableWidget):
            headers = (widget.horizontalHeaderItem(c) for c in range(widget.columnCount()))
            words += [h.text() for h in headers if h is not None]
    return [w for w in words if w]


def panels(view) -> list[QWidget]:
    found: list[QWidget] = []
    for index in range(view.side.count()):
        area = view.side.widget(index)
        panel = area.widget() if isinstance(area, QScrollArea) else None
        if panel is not None:
            found.append(panel)
    return found


def jargon(words: list[str]) -> list[str]:
    """The texts with a developer's word, outside a terminal command given to type."""
    return [w for w in words if JARGON.search(re.sub(r"python -m workbench [^\n]*", "", w))]


def test_the_doves_panel_speaks_a_players_words(main_window, qtbot) -> None:
    from solvers.doves.analysis import analysis_verdict
    from solvers.doves.model import START
    from solvers.doves.values import Analysis, Value
    from widgets.panels.doves import PANEL_TITLE, _value_text

    view = main_window.show_kind("doves")
    panel = view.panel(PANEL_TITLE)
    panel.auto_analyse.setChecked(False)
    words = [w for p in panels(view) for w in widget_words(p)]
    searched = Analysis(Value("unknown", 0, 11), [], [], 4_812_345, 16.2, 11)
    exact = Analysis(Value("lose", 88), [], [], 0, 0.003, 88, source="tablebase")
    words += [_value_text("Red", searched), _value_text("Green", exact), analysis_verdict(START, searched)]
    panel.analysed, panel.result, panel.budgeted = START, searched, False
    panel.generation = 7
    panel._finished(7)  # an Unknown says how far it looked
    words.append(panel.value_label.text())
    assert len(words) > 40
    assert jargon(words) == []
    assert "looked 11 moves ahead, 4,812,345 positions" in words[-4]
    assert "exact, from the stored table" in words[-3]
    assert words[-2] == "Red to move: Unknown after looking 11 moves ahead"
    assert words[-1].endswith("(no forced win within 11 moves)")
    assert any("Win(n): the side to move can force a win within n moves" in w for w in words)


def test_the_nine_tiles_panels_speak_a_players_words(main_window, qtbot, monkeypatch, tmp_path: Path) -> None:
    view = main_window.show_kind("ninetiles")
    words = [w for p in panels(view) for w in widget_words(p)]
    best, statistics = view.panel("Best towns"), view.panel("Statistics")
    asked: list[str] = []

    def question(_parent, title, text, *_args):
        asked.extend([title, text])
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    for panel, start in ((best, best.find_best), (statistics, statistics.load)):
        panel.store_dir = tmp_path / "nothing"
        start()  # the table of all towns is missing: the panel asks, then says how to build it
        words.append(panel.summary.text())
    assert len(asked) == 4
    statistics.show_stats(
        {
            "towns": 526_070_976,
            "synonym_towns": 63_660,
            "score_vectors": 6_702_635,
            "perfect_theme_sets": {"4,6,23": 5_965_824},
            "max_themes_at_max": {"count": 7, "themes": [4, 9, 11, 14, 22, 25, 26]},
            "closest_to_all_max": {"towns": ["583201764425441001"], "distance": 199},
            "histograms": {str(t): {"0": 1} for t in range(1, 27)},
        }
    )
    words += [*asked, statistics.summary.text(), *widget_words(statistics)]
    assert jargon(words) == []
    assert "63,660 different road layouts" in statistics.summary.text()
    assert "6,702,635 different combinations of the 26 theme scores" in statistics.summary.text()
