"""The Doves panel answers from a stored tablebase: exact value labelled, perfect AI move, rules kept."""

from __future__ import annotations

import pytest
from test_doves_gui import FakeContext  # tests/doves is on sys.path (rootdir-relative test modules)

from solvers.doves import PlayEntries, tablebase
from solvers.doves.model import START
from solvers.doves.rules import Rules, parse_doves

pytestmark = pytest.mark.gui
NO_REMOVE = Rules(allow_remove=False, doves=parse_doves("M/TH"))


@pytest.fixture
def panel_and_ctx(qtbot, tmp_path, monkeypatch):
    from widgets.panels.doves import create_panels

    monkeypatch.setenv(tablebase.ENV, str(tmp_path))
    tablebase.build(NO_REMOVE)
    ctx = FakeContext(START)
    ctx._entries = PlayEntries(rules=NO_REMOVE)
    ((_, panel),) = create_panels(ctx)
    qtbot.addWidget(panel)
    return panel, ctx


def test_analysis_shows_the_exact_value_from_the_tablebase(panel_and_ctx) -> None:
    panel, ctx = panel_and_ctx
    panel.analyse_button.click()
    text = panel.value_label.text()
    assert "Lose(88)" in text and "from the tablebase" in text
    assert panel.result is not None and panel.result.source == "tablebase"
    assert panel.line_list.count() >= 80


def test_ai_plays_a_perfect_move_and_the_value_follows(panel_and_ctx) -> None:
    panel, ctx = panel_and_ctx
    panel.ai_button.click()
    (action,) = ctx.entries().actions
    table = tablebase.find_table(NO_REMOVE)
    assert table is not None
    _, best = tablebase.perfect_steps(table, START)
    assert action in [s.action for s in best]
    panel.analyse_button.click()
    assert "Green to move: <b>Win(87)</b>" in panel.value_label.text()


def test_rule_switches_keep_the_reduced_game(panel_and_ctx) -> None:
    panel, ctx = panel_and_ctx
    panel.allow_remove.click()
    assert ctx.entries().rules == Rules(allow_remove=True, doves=NO_REMOVE.doves)
    panel.analyse_button.click()  # no table for this rule set: the search answers
    assert panel.result is not None and panel.result.source == "search"
