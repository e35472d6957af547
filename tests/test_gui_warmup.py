"""Module warm-up: kernels the GUI thread uses load on a background thread, and a view opened
before its module is warm shows a "Preparing" job instead of freezing on the first click."""

from __future__ import annotations

import threading

import pytest

from solvers.common import registry
from workbench import warmup

pytestmark = pytest.mark.gui


def test_doves_warm_up_loads_the_move_generator_off_the_gui_thread() -> None:
    from solvers.doves import engine

    plugin = registry.get("doves")
    assert warmup.needs_warm_up(plugin) and not warmup.needs_warm_up(registry.get("example"))
    seen: list[str] = []
    thread = threading.Thread(target=lambda: (plugin.warm_up(), seen.append(threading.current_thread().name)))
    thread.start()
    thread.join(120)
    assert seen and engine.generate.compiled().signatures  # compiled (or loaded from the cache) for real


def test_a_view_opened_before_its_module_is_warm_shows_a_preparing_job(
    main_window, qtbot, monkeypatch
) -> None:
    release = threading.Event()
    plugin = registry.get("doves")
    monkeypatch.setattr(type(plugin), "warm_up", lambda self: release.wait(30) and None)
    monkeypatch.setattr(warmup, "_done", {})  # as in a fresh process
    warmup.start([plugin])
    assert not warmup.is_ready("doves")
    view = main_window.show_kind("doves")
    assert view.busy() and "Preparing Tokyo Doves" in view.progress.title.text()
    release.set()
    qtbot.waitUntil(lambda: not view.busy(), timeout=10000)
    assert warmup.is_ready("doves") and warmup.error("doves") == ""


def test_a_failing_warm_up_is_reported_and_the_view_still_works(main_window, qtbot, monkeypatch) -> None:
    release = threading.Event()
    plugin = registry.get("doves")

    def broken(self) -> None:
        release.wait(30)
        raise RuntimeError("no compiler")

    monkeypatch.setattr(type(plugin), "warm_up", broken)
    monkeypatch.setattr(warmup, "_done", {})
    monkeypatch.setattr(warmup, "_errors", {})
    warmup.start([plugin])
    view = main_window.show_kind("doves")
    assert view.busy()
    with qtbot.waitSignal(
        view.status_message, timeout=10000, check_params_cb=lambda t: "preparing failed" in t
    ) as blocker:
        release.set()
    assert blocker.args == ["Tokyo Doves: preparing failed (RuntimeError: no compiler)"]
    qtbot.waitUntil(lambda: not view.busy(), timeout=10000)
    main_window.current().set_mode("play")  # the module still works: it loads on first use
    assert view.doc.puzzle is not None and view.mode() == "play"


def test_the_warm_up_thread_imports_every_panel_module(monkeypatch) -> None:
    imported: list[tuple[str, str]] = []
    monkeypatch.setattr(warmup, "_panels_imported", set())
    monkeypatch.setattr(warmup, "_done", {p.meta.id: threading.Event() for p in registry.plugins().values()})
    monkeypatch.setattr(
        warmup,
        "_import_panel",
        lambda kind: imported.append((f"widgets.panels.{kind}", threading.current_thread().name)),
    )
    warmup.start(registry.plugins().values())
    assert warmup._thread is not None
    warmup._thread.join(30)
    assert {name for name, _thread in imported} == {f"widgets.panels.{kind}" for kind in registry.plugins()}
    assert {thread for _name, thread in imported} == {"module-warm-up"}
    warmup.start(registry.plugins().values())  # once per process
    assert len(imported) == len(registry.plugins())


def _fresh_warm_up(monkeypatch, tmp_path, plugin) -> list[list[str]]:
    """Warm ``plugin`` as a fresh process would, with the stamp in ``tmp_path``; returns the worker
    rounds that ran."""
    rounds: list[list[str]] = []
    # A warm-up thread of an earlier test (a window opened on a cold numba cache, as on a clean
    # clone) may still be compiling: once done it writes its stamp through ``_stamp_path``, which
    # would be this test's file by then (the clean-clone CI failed so: a stamp after a failure).
    if warmup._thread is not None:
        warmup._thread.join(300)
    monkeypatch.setattr(warmup, "_done", {})
    monkeypatch.setattr(warmup, "_errors", {})
    monkeypatch.setattr(warmup, "_panels_imported", set(registry.plugins()))
    monkeypatch.setattr(warmup, "_first_use", None)
    monkeypatch.setattr(warmup, "_stamp_path", lambda: tmp_path / "stamp.txt")
    monkeypatch.setattr(warmup, "_compile_elsewhere", rounds.append)
    warmup.start([plugin])
    # known when start returns: a view opened at launch words its job by it at once
    assert warmup._first_use is not None
    assert warmup._thread is not None
    warmup._thread.join(60)
    return rounds


def test_a_warm_cache_skips_the_worker_round_until_a_source_changes(monkeypatch, tmp_path) -> None:
    plugin = registry.get("doves")
    monkeypatch.setattr(type(plugin), "warm_up", lambda self: None)
    assert _fresh_warm_up(monkeypatch, tmp_path, plugin) == [["doves"]]  # fresh install: compile there
    assert warmup.first_use() and (tmp_path / "stamp.txt").exists()
    assert _fresh_warm_up(monkeypatch, tmp_path, plugin) == []  # next launch: load from the cache
    assert not warmup.first_use()
    (tmp_path / "stamp.txt").write_text(warmup.cache_stamp(["doves"]).replace("\n", "\nchanged ", 1))
    assert _fresh_warm_up(monkeypatch, tmp_path, plugin) == [["doves"]]  # e.g. a solver was edited


def test_a_failed_warm_up_writes_no_stamp(monkeypatch, tmp_path) -> None:
    plugin = registry.get("doves")

    def broken(self) -> None:
        raise RuntimeError("no compiler")

    monkeypatch.setattr(type(plugin), "warm_up", broken)
    assert _fresh_warm_up(monkeypatch, tmp_path, plugin) == [["doves"]]
    assert warmup.error("doves") and not (tmp_path / "stamp.txt").exists()


def test_the_stamp_names_every_solver_source() -> None:
    stamp = warmup.cache_stamp(["doves", "ninetiles"])
    assert stamp == warmup.cache_stamp(["doves", "ninetiles"])  # deterministic
    assert "doves,ninetiles" in stamp and stamp != warmup.cache_stamp(["doves"])
