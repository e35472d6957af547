"""Esc during a Numberlink uniqueness proof: the results line keeps what was proven by then
("Proven so far: unique (designed)") and counts only what arrived."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui

HM10 = Path(__file__).parent / "data" / "handmade" / "hm_10x10_s0_unique.txt"


def test_esc_during_the_proof_keeps_what_is_proven(main_window, qtbot, monkeypatch) -> None:
    from stalled import stalled

    from solvers.flow import codec, sat

    # Published 20x20s take 35-100 s for this proof; here it is stalled on purpose, so Esc comes
    # while it runs. The board is designed-unique (test_flow_numberlink checks it by the sweep).
    monkeypatch.setattr(sat, "_canonical_search", stalled)
    monkeypatch.setenv("PUZZLE_WORKBENCH_JOBS", "thread")  # the patch must reach the job body
    view = main_window.show_kind("flow")
    puzzle = dataclasses.replace(codec.parse(HM10.read_text()), rules="numberlink")
    view.doc.replace(puzzle, "numberlink board")
    job = view.solve(2)
    assert job is not None
    texts: list[str] = []
    job.signals.progress.connect(lambda info: texts.append(str(info.get("text", ""))))
    outcomes: list[object] = []
    job.signals.finished.connect(outcomes.append)
    qtbot.waitUntil(lambda: any("unique (designed)" in t for t in texts), timeout=20000)
    assert not job.done
    qtbot.keyClick(main_window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: bool(outcomes) and "cancelled" in view.browser.status.text(), timeout=5000)
    line = view.browser.status.text()
    assert line.startswith("At least 1 solution (cancelled) after "), line
    assert line.endswith(" s. Proven so far: unique (designed)."), line
    assert view.browser.count() == 1  # the one answer stays listed
    # The same words from the progress alone, for a worker killed on Esc (no result comes back).
    assert outcomes and outcomes[0].proven == "unique (designed)"
