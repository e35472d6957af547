"""The Doves panel answers from a stored tablebase: exact value labelled, perfect AI move, rules kept."""

from __future__ import annotations

import pytest
from test_doves_gui import FakeContext  # tests/doves is on sys.path (rootdir-relative test modules)

from solvers.doves import tablebase
from solvers.doves.model import START
from solvers.doves.rules import Rules, parse_doves

pytestmark = pytest.mark.gui
NO_REMOVE = Rules(allow_remove=False, doves=parse_doves("M/TH"))


@pytest.fixture
def panel_and_ctx(qtbot, tmp_path, monkeypatch):
    from widgets.panels.doves import create_panels

    monkeypatch.setenv(tablebase.ENV, str(tmp_path))
    tablebase.build(NO_REMOVE)
    ctx = FakeContext(START.with_rules(NO_REMOVE))
    ((_, panel),) = create_panels(ctx)
    qtbot.addWidget(panel)
    return panel, ctx


def test_analysis_shows_the_exact_value_from_the_tablebase(panel_and_ctx) -> None:
    panel, ctx = panel_and_ctx
    panel.analyse_button.click()
    text = panel.value_label.text()
    assert "Lose(88)" in text and "from the stored table" in text
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
    assert ctx.puzzle().rules == Rules(allow_remove=True, doves=NO_REMOVE.doves)
    panel.analyse_button.click()  # no table for this rule set: the search answers
    assert panel.result is not None and panel.result.source == "search"


def _choose(panel, text: str) -> None:
    """Type ``text`` into the dove-set box and commit it, as Enter does."""
    panel.dove_set.setEditText(text)
    panel.dove_set.lineEdit().editingFinished.emit()


def test_the_dove_set_box_lists_stored_tables_and_switches_games(panel_and_ctx) -> None:
    panel, ctx = panel_and_ctx
    items = [panel.dove_set.itemText(i) for i in range(panel.dove_set.count())]
    assert items == ["All (the full game)", "M/TH  (solved)"]
    assert panel.dove_set.currentText() == "M/TH  (solved)"
    panel.dove_set.setCurrentIndex(0)
    panel.dove_set.activated.emit(0)
    assert ctx.puzzle().rules == Rules(allow_remove=False)  # the full game, other options kept
    panel.dove_set.setCurrentIndex(1)
    panel.dove_set.activated.emit(1)
    assert ctx.puzzle().rules == NO_REMOVE
    panel.analyse_button.click()
    assert panel.result is not None and panel.result.source == "tablebase"
    _choose(panel, "ta / ya")  # any case and spacing: shown back in kind order
    assert ctx.puzzle().rules == Rules(allow_remove=False, doves=parse_doves("AT/AY"))
    assert panel.dove_set.currentText() == "AT/AY"


def test_a_bad_or_too_small_dove_set_is_refused_with_the_reason(panel_and_ctx) -> None:
    from solvers.doves.model import parse_board

    panel, ctx = panel_and_ctx
    _choose(panel, "AX/Y")
    assert (
        ctx.puzzle().rules == NO_REMOVE
        and "X" in ctx.messages[-1]
        and "not a dove letter" in ctx.messages[-1]
    )
    assert panel.dove_set.currentText() == "M/TH  (solved)"
    ctx._puzzle = parse_board("bB;A").with_rules(NO_REMOVE)  # a red Anger on the board
    _choose(panel, "T/T")
    assert ctx.puzzle().rules == NO_REMOVE
    assert "outside the game T/T" in ctx.messages[-1] and "(A)" in ctx.messages[-1]
