"""Start-up discipline of the GUI (issue 27): the first window loads only the module it shows.

The sidebar needs the modules' metadata alone; the code of the first kind loads for its document,
every other module (and numba, which Tokyo Doves' kernels use) after the window has painted, with
the warm-up and the worker processes. The module check runs in a fresh interpreter: this test
process has imported everything already. No timings here (the machine is shared); the figures are
in benchmarks/gui_startup_bench.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from interactive_start import close_started_window
from PySide6.QtCore import Qt

import solvers
from solvers.common import registry

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[1]
PLUGIN_IDS = ("doves", "example", "flow", "ninetiles", "toichika", "xcetero")

# Shows the main window offscreen and, when it reports its first paint, prints the modules loaded
# by then, and again once Tokyo Doves' view has been opened; ends before the background start-up.
PROBE = """
import json, os, sys
from workbench.qt_app import ensure_app
from workbench.main_window import MainWindow

app = ensure_app(headless=True)
window = MainWindow()
kinds = [window.sidebar.item(row).data(0x0100) for row in range(window.sidebar.count())]

def report():
    shown, current = sorted(sys.modules), window.current().plugin.meta.id
    window.show_kind("doves")
    doves = sorted(sys.modules)
    print(json.dumps({"kinds": kinds, "current": current,
                      "shown": shown, "doves": doves}), flush=True)
    os._exit(0)

window.first_shown.connect(report)
window.show()
app.exec()
"""


def _first_window() -> dict:
    run = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,  # this checkout's modules
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "PUZZLE_WORKBENCH_SETTINGS": "test"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def _plugins(modules: list[str]) -> set[str]:
    return {kind for kind in PLUGIN_IDS if f"solvers.{kind}.plugin" in modules}


def test_the_first_window_loads_only_the_module_it_shows() -> None:
    report = _first_window()
    assert report["kinds"] == list(registry.metas())  # every module is listed, from its META
    assert report["current"] == "flow"
    shown = report["shown"]
    assert _plugins(shown) == {"flow"}
    assert "numba" not in shown and "solvers.doves.engine" not in shown
    assert not [
        m for m in shown if m.startswith("widgets.panels.") and not m.startswith("widgets.panels.flow")
    ]
    # Opening Tokyo Doves loads its module (the probe sees a plug-in load), still without numba:
    # its board and panel ask plain-Python questions; analysis and the AI load the kernels.
    doves = report["doves"]
    assert _plugins(doves) == {"flow", "doves"} and "widgets.panels.doves" in doves
    assert "numba" not in doves


def test_after_the_first_paint_every_module_loads_and_lists_its_importers(qtbot, monkeypatch) -> None:
    from workbench import main_window as main_window_module
    from workbench.main_window import MainWindow

    started: list[list[str]] = []
    monkeypatch.setattr(
        main_window_module.warmup, "start", lambda plugins: started.append([p.meta.id for p in plugins])
    )
    monkeypatch.setattr(main_window_module.process_jobs, "start_spares", lambda: None)
    window = MainWindow()
    window.confirm = lambda view: "discard"
    qtbot.addWidget(window)
    assert started == []  # nothing starts before the window shows
    with qtbot.waitSignal(window.first_shown, timeout=10000):
        window.show()
    qtbot.waitUntil(lambda: bool(started), timeout=10000)
    assert started == [list(registry.plugins())]
    expected = [
        f"{p.meta.id}:{i.label.replace('&', '')}" for p in registry.plugins().values() for i in p.importers()
    ]
    assert sorted(window.import_actions) == sorted(expected) and expected
    in_menu = [a for a in window.file_menu.actions() if a in window.import_actions.values()]
    assert [str(a.data()) for a in in_menu] == [key.split(":")[0] for key in expected]  # display order
    window._start_background()  # once more: nothing is listed twice
    assert len([a for a in window.file_menu.actions() if a in window.import_actions.values()]) == len(
        expected
    )


@pytest.fixture
def lazily_broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A module whose metadata reads but whose plug-in code fails to import."""
    pkg = tmp_path / "zzguibroken"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from solvers.common.protocol import Meta\n"
        "from solvers.common.registry import lazy_attributes\n"
        "META = Meta(id='zzguibroken', name='Broken kind', description='test', order=5)\n"
        "__getattr__ = lazy_attributes(__name__, {'PLUGIN': 'plugin'})\n"
    )
    (pkg / "plugin.py").write_text("import solvers.no_such_dependency_xyz\n")
    monkeypatch.setattr(solvers, "__path__", [*solvers.__path__, str(tmp_path)])
    registry.refresh()
    yield
    monkeypatch.undo()
    for name in list(sys.modules):
        if name.startswith("solvers.zzguibroken"):
            del sys.modules[name]
    registry.refresh()


def test_a_listed_module_that_fails_to_load_is_greyed_out(lazily_broken, qtbot, monkeypatch) -> None:
    from workbench import main_window as main_window_module
    from workbench.main_window import MainWindow

    monkeypatch.setattr(main_window_module.warmup, "start", lambda plugins: None)
    window = MainWindow()  # the broken module is first in the sidebar: the next one shows
    window.confirm = lambda view: "discard"
    qtbot.addWidget(window)
    item = window.sidebar.item(0)
    assert item.text() == "Broken kind" and window.current().plugin.meta.id == "flow"
    assert not item.flags() & Qt.ItemFlag.ItemIsEnabled
    assert "no_such_dependency_xyz" in item.toolTip()
    window.show_kind("toichika")
    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEnabled)  # as if clicked before it was greyed
    with qtbot.waitSignal(window.error_shown, timeout=5000) as shown:
        window.sidebar.setCurrentRow(0)
    assert "module 'zzguibroken' is unavailable" in shown.args[0]
    assert window.current().plugin.meta.id == "toichika"
    assert window.sidebar.currentItem().data(Qt.ItemDataRole.UserRole) == "toichika"


def test_a_view_opened_before_the_first_paint_shows_the_warm_up(qtbot, monkeypatch) -> None:
    """``--kind doves`` opens its view before the window shows, so before the warm-up starts: the
    "Preparing" job follows once it does, as for a view opened later."""
    import threading

    from workbench import main_window as main_window_module
    from workbench import warmup
    from workbench.main_window import MainWindow

    release = threading.Event()
    plugin = registry.get("doves")
    monkeypatch.setattr(type(plugin), "warm_up", lambda self: release.wait(30) and None)
    monkeypatch.setattr(warmup, "_done", {})  # as in a fresh process
    monkeypatch.setattr(warmup, "_panels_imported", set(registry.metas()))
    monkeypatch.setattr(warmup, "_compile_elsewhere", lambda kinds: None)
    monkeypatch.setattr(main_window_module.process_jobs, "start_spares", lambda: None)
    window = MainWindow()
    window.confirm = lambda view: "discard"
    qtbot.addWidget(window)
    view = window.show_kind("doves")
    assert not view.busy()  # nothing is warming up yet
    with qtbot.waitSignal(window.first_shown, timeout=10000):
        window.show()
    qtbot.waitUntil(view.busy, timeout=10000)
    assert "Preparing Tokyo Doves" in view.progress.title.text()
    release.set()
    qtbot.waitUntil(lambda: not view.busy(), timeout=10000)
    assert warmup.is_ready("doves")


def test_the_benchmark_hook_ends_the_gui_after_its_first_paint(tmp_path: Path) -> None:
    """benchmarks/gui_startup_bench.py times ``python -m workbench`` up to this line."""
    run = subprocess.run(
        [sys.executable, "-m", "workbench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "PUZZLE_WORKBENCH_QUIT_AFTER_SHOW": "1",
            "XDG_CONFIG_HOME": str(tmp_path),  # the interactive path reads settings and logs
            "XDG_STATE_HOME": str(tmp_path),
        },
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("first window shown, cpu ")
    assert float(run.stdout.split()[-1]) > 0


def test_a_pack_given_at_start_asks_for_its_level_over_the_shown_window(
    qapp, qtbot, monkeypatch, tmp_path
) -> None:
    """The "which level?" dialog stood alone on the desktop before the main window appeared: the
    command line's files opened before the window was shown."""
    import argparse

    from PySide6.QtWidgets import QApplication

    from workbench import app
    from workbench.main_window import MainWindow

    pack = tmp_path / "pack.txt"
    pack.write_text("3,0,1,3;0,1,2;3,4,5;6,7,8\n4:2,0,2,2;0,1,2,3;4,5,6,7\n", encoding="utf-8")
    asked: list[bool] = []

    def choose(window: MainWindow, name: str, lines: list[str]) -> int:
        asked.append(window.isVisible())
        return 1

    monkeypatch.setattr("workbench.file_actions.choose_puzzle", choose)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)  # return at once instead of running
    monkeypatch.setattr("workbench.window_geometry.place", lambda window: False)
    args = argparse.Namespace(
        files=[str(pack)], kind="flow", open_input=None, screenshot=None, size="1280x800", solve=False
    )
    before = set(QApplication.topLevelWidgets())  # windows of earlier tests in this process
    assert app.run_gui(args) == 0
    (window,) = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w not in before]
    try:
        qtbot.waitUntil(lambda: bool(asked), timeout=10_000)
        assert asked == [True]
        assert window.current().doc.puzzle.cols == 4  # the second level, as chosen
    finally:
        close_started_window(window)
