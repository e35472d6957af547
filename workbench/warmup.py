"""Module warm-up off the GUI thread: every plug-in's ``warm_up`` (numba kernels its editing and
drawing call) runs once per process on one background thread, started with the main window.

A view that opens before its module is warm shows a "Preparing" job until it is, so the first
click never waits on a compiler while the window is frozen. LLVM keeps the GIL for long stretches
while numba compiles, so on a fresh install the warm-up runs in a worker process first (which writes
numba's cache); the thread here then only loads the compiled kernels. Once that has worked, a stamp
beside numba's cache (Python and numba versions, every solver source's size and time) lets later
launches skip the worker round: ready ~0.6 s after the window instead of ~1.5 s.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import importlib
import os
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

from solvers.common import process_jobs
from solvers.common.by_kind import warm_up_kinds
from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.common.protocol import PluginBase
from workbench.files import atomic_write

_lock = threading.Lock()
_done: dict[str, threading.Event] = {}
_errors: dict[str, str] = {}
_thread: threading.Thread | None = None
_panels_imported: set[str] = set()
_first_use: bool | None = None  # None until ``start`` has looked for the stamp


def needs_warm_up(plugin: PluginBase) -> bool:
    return type(plugin).warm_up is not PluginBase.warm_up


def start(plugins: Iterable[PluginBase]) -> None:
    """Warm every plug-in that declares ``warm_up`` and is not warm yet, then import every module's
    side-panel code (idempotent)."""
    global _thread, _first_use
    plugins = list(plugins)
    with _lock:
        todo = [(p, threading.Event()) for p in plugins if needs_warm_up(p) and p.meta.id not in _done]
        for plugin, event in todo:
            _done[plugin.meta.id] = event
        panels = [p.meta.id for p in plugins if p.meta.id not in _panels_imported]
        _panels_imported.update(panels)
        if not todo and not panels:
            return
        # here, not on the thread: a view opened at once words its "Preparing" job by it (~5 ms)
        stamp = cache_stamp(sorted(plugin.meta.id for plugin, _event in todo)) if todo else ""
        if todo:
            _first_use = not _stamp_matches(stamp)
        to_write = stamp if todo and _first_use else ""  # "": numba's cache is warm already
        _thread = threading.Thread(
            target=_run, args=(todo, panels, _errors, to_write), name="module-warm-up", daemon=True
        )
        _thread.start()


def _run(
    todo: list[tuple[PluginBase, threading.Event]], panels: list[str], errors: dict[str, str], stamp: str
) -> None:
    """``stamp``: the cache stamp to write once warm, "" when an earlier launch wrote it."""
    # A view's first show imported its panel module and what that imports (Toichika: ~35 ms of
    # the 110 ms first show of a 100x80 board); imported here first (a cold numba
    # compile below can take a minute), the first show finds them loaded.
    for kind in panels:
        try:
            _import_panel(kind)
        except Exception:  # no panel, or a broken one: the view reports it when it opens
            pass
    if stamp:
        _compile_elsewhere(sorted(plugin.meta.id for plugin, _event in todo))
    failed = False
    for plugin, event in todo:
        try:
            plugin.warm_up()
        except Exception as exc:  # the module then loads on first use, as without a warm-up
            errors[plugin.meta.id] = f"{type(exc).__name__}: {exc}"
            failed = True
        finally:
            event.set()
    if stamp and not failed:
        _write_stamp(stamp)
    # The panels, numba and the kernels loaded here live for ever: out of the collector's reach,
    # as the main window does with what it loads (full collections stall the GUI).
    gc.freeze()


def _compile_elsewhere(kinds: list[str]) -> None:
    """Run the warm-up once in a worker process first: on a fresh install numba compiles there
    (LLVM keeps the GIL for long stretches: Doves' first view stalled 228 ms) and writes its
    cache, from which the warm-up here then only loads. Without workers, it compiles here."""
    if process_jobs.in_processes():
        with contextlib.suppress(Exception):  # the local warm-up still runs and reports problems
            process_jobs.remote(warm_up_kinds, kinds)(CancelToken(), lambda _info: None)


def cache_stamp(kinds: list[str]) -> str:
    """What numba's cache was warmed for: the interpreter, numba, the cache folder, the modules and
    every solver source (path, size, modification time; numba itself keys its cache on these)."""
    import importlib.metadata  # here: ~50 ms at import, and the stamp is made after the first paint

    try:
        numba_version = importlib.metadata.version("numba")  # importing numba here would take 0.3 s
    except importlib.metadata.PackageNotFoundError:
        numba_version = "none"
    root = Path(__file__).resolve().parents[1] / "solvers"
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        with contextlib.suppress(OSError):
            info = path.stat()
            digest.update(f"{path.relative_to(root)} {info.st_size} {info.st_mtime_ns}\n".encode())
    head = [sys.version, numba_version, os.environ.get("NUMBA_CACHE_DIR", ""), ",".join(kinds)]
    return "\n".join([*head, digest.hexdigest()])


def _stamp_path() -> Path:
    """Beside numba's cache, so a cleared cache clears the stamp too."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    base = Path(folder) if folder else Path(__file__).resolve().parents[1] / "solvers" / "__pycache__"
    return base / "workbench-warm-stamp.txt"


def _stamp_matches(stamp: str) -> bool:
    try:
        return _stamp_path().read_text(encoding="utf-8") == stamp
    except (OSError, UnicodeDecodeError):
        return False


def _write_stamp(stamp: str) -> None:
    """Best effort: an unwritable cache folder only means the worker round runs every launch."""
    path = _stamp_path()
    with contextlib.suppress(OSError, InputError):
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, stamp)


def first_use() -> bool:
    """False when this launch found the stamp of an earlier warm-up (numba then only loads from
    its cache); for the "Preparing" job's wording."""
    return _first_use is not False


def _import_panel(kind: str) -> None:
    importlib.import_module(f"widgets.panels.{kind}")


def is_ready(kind: str) -> bool:
    """True when ``kind`` needs no warm-up, or its warm-up has finished (well or not)."""
    event = _done.get(kind)
    return event is None or event.is_set()


def wait(kind: str, timeout: float | None = None) -> bool:
    event = _done.get(kind)
    return event is None or event.wait(timeout)


def error(kind: str) -> str:
    return _errors.get(kind, "")
