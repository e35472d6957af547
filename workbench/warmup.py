"""Module warm-up off the GUI thread: every plug-in's ``warm_up`` (numba kernels its editing and
drawing call) runs once per process on one background thread, started with the main window.

A view that opens before its module is warm shows a "Preparing" job until it is, so the first
click never waits on a compiler while the window is frozen. Numba compiles are mostly Python code:
the GUI thread keeps getting the GIL every switch interval meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from solvers.common.protocol import PluginBase

_lock = threading.Lock()
_done: dict[str, threading.Event] = {}
_errors: dict[str, str] = {}
_thread: threading.Thread | None = None


def needs_warm_up(plugin: PluginBase) -> bool:
    return type(plugin).warm_up is not PluginBase.warm_up


def start(plugins: Iterable[PluginBase]) -> None:
    """Warm every plug-in that declares ``warm_up`` and is not warm yet (idempotent)."""
    global _thread
    with _lock:
        todo = [(p, threading.Event()) for p in plugins if needs_warm_up(p) and p.meta.id not in _done]
        for plugin, event in todo:
            _done[plugin.meta.id] = event
        if not todo:
            return
        _thread = threading.Thread(target=_run, args=(todo, _errors), name="module-warm-up", daemon=True)
        _thread.start()


def _run(todo: list[tuple[PluginBase, threading.Event]], errors: dict[str, str]) -> None:
    for plugin, event in todo:
        try:
            plugin.warm_up()
        except Exception as exc:  # the module then loads on first use, as without a warm-up
            errors[plugin.meta.id] = f"{type(exc).__name__}: {exc}"
        finally:
            event.set()


def is_ready(kind: str) -> bool:
    """True when ``kind`` needs no warm-up, or its warm-up has finished (well or not)."""
    event = _done.get(kind)
    return event is None or event.is_set()


def wait(kind: str, timeout: float | None = None) -> bool:
    event = _done.get(kind)
    return event is None or event.wait(timeout)


def error(kind: str) -> str:
    return _errors.get(kind, "")
