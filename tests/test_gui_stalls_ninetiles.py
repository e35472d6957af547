"""Nine Tiles: the numba scoring kernels load off the GUI thread; the view works while they do.

Issue 15 measured ~4 s on the GUI thread the first time the view opened (numba import plus kernel
loading; a fresh install compiles them for longer)."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from solvers.common.protocol import EditResult
from solvers.ninetiles.town import Town
from widgets.panels import ninetiles as panels

pytestmark = pytest.mark.gui
EXAMPLE = "206745813361230035"
ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


class HeldWarmup(panels.KernelWarmup):
    """A warm-up that stays "preparing" until the test releases it (the kernels of this test
    process may be loaded already, so readiness is what the test says)."""

    def __init__(self, fail: bool = False) -> None:
        super().__init__()
        self.release = threading.Event()
        self.done = False
        self.fail = fail

    def is_ready(self) -> bool:
        return self.done and super().is_ready()

    def _run(self) -> None:
        self.release.wait(30)
        if self.fail:
            self.error = "RuntimeError: no compiler"
        else:
            from solvers.ninetiles.scoring import score_town

            score_town(Town.from_code(EXAMPLE))
            self.done = True
        self.ready.emit()


def test_panel_module_and_plugin_do_not_import_numba() -> None:
    code = (
        "import sys; import solvers.ninetiles.plugin, widgets.panels.ninetiles; print('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_view_is_usable_while_the_kernels_load(main_window, qtbot, monkeypatch, tmp_path) -> None:
    warm = HeldWarmup()
    monkeypatch.setattr(panels, "_WARMUP", warm)
    view = main_window.show_kind("ninetiles")
    scores = view.panel("Scores")
    view.doc.apply(EditResult(puzzle=Town.from_code(EXAMPLE), label="Example"))
    assert not scores.ready()
    assert "Preparing the score tables" in scores.status.text()
    assert {scores.table.item(t, 2).text() for t in range(26)} == {"…"}
    qtbot.waitUntil(lambda: "Preparing" in main_window.statusBar().currentMessage(), timeout=5000)
    assert scores.roads.count() == 4  # roads are traced without the kernels
    # Edit, undo, hover, point at a road, export and play while it prepares: nothing waits or fails.
    view.doc.apply(EditResult(puzzle=Town.from_code(EXAMPLE).rotated_tile(8, 1), label="turn"))
    assert "mismatched edge" in scores.status.text()
    view.doc.undo_stack.undo()
    assert "Preparing" in scores.status.text()
    scores.roads.setCurrentRow(1)
    assert view._overlay == {"road": 1}
    view.board.hovered.emit((100.0, 100.0))
    assert main_window.exports.export_to(tmp_path / "town.png") and (tmp_path / "town.png").stat().st_size > 0
    assert not scores.ready()
    warm.release.set()
    qtbot.waitUntil(lambda: scores.table.item(0, 2).text() != "…", timeout=60000)
    from solvers.ninetiles.scoring import score_town

    assert [int(scores.table.item(t, 2).text()) for t in range(26)] == score_town(Town.from_code(EXAMPLE))
    assert scores.status.text() == f"Valid town {EXAMPLE}"
    assert "score tables ready" in main_window.statusBar().currentMessage()


def test_a_failed_warmup_is_reported_not_raised(main_window, qtbot, monkeypatch) -> None:
    warm = HeldWarmup(fail=True)
    monkeypatch.setattr(panels, "_WARMUP", warm)
    view = main_window.show_kind("ninetiles")
    scores = view.panel("Scores")
    view.doc.apply(EditResult(puzzle=Town.from_code(EXAMPLE), label="Example"))
    warm.release.set()
    qtbot.waitUntil(lambda: "unavailable" in scores.status.text(), timeout=10000)
    assert "no compiler" in scores.status.text()
    assert {scores.table.item(t, 2).text() for t in range(26)} == {"–"}


def test_best_towns_are_scored_in_the_background_job() -> None:
    from solvers.ninetiles.scoring import score_town

    scored = panels.scored_towns([EXAMPLE])
    assert scored == [(EXAMPLE, Town.from_code(EXAMPLE), score_town(Town.from_code(EXAMPLE)))]


def test_readiness_check_survives_a_half_imported_scoring_module(monkeypatch) -> None:
    """The warm-up thread imports the kernels module while the GUI thread asks whether it is ready:
    a module still being executed has no kernels yet (this raised AttributeError once)."""
    import types

    monkeypatch.setitem(
        sys.modules, "solvers.ninetiles.scoring", types.ModuleType("solvers.ninetiles.scoring")
    )
    assert panels.KernelWarmup().is_ready() is False
