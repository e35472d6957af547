"""Discovers plug-ins: every ``solvers.<name>`` package declaring ``META`` or ``PLUGIN`` is registered.

Discovery (rather than a hand-kept list) means adding a module enrols it in the GUI, the CLI
and the registry-wide tests without touching shared files.

Two steps, so that a command pays only for the module it uses (``solve flow`` must not load numba
for Tokyo Doves): discovery imports each package's ``__init__``, which declares ``META`` (id, name,
extensions, aliases, capabilities) and nothing heavy; the plug-in object, ``PLUGIN``, is loaded on
first use (``get``, ``for_path``, ``plugins``), which imports the package's ``plugin`` module through
the package's lazy ``__getattr__`` (see ``lazy_attributes`` and docs/PLUGINS.md). A package that
defines ``PLUGIN`` directly (no ``META``) still works; it is loaded at discovery.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import solvers
from solvers.common.errors import InputError
from solvers.common.protocol import Meta, PluginBase


@dataclass(frozen=True)
class _Entry:
    package: str  # the name under ``solvers``
    meta: Meta


_lock = threading.Lock()  # guards the two tables (the GUI's warm-up thread loads plug-ins too)
_loaded: dict[str, PluginBase] = {}  # id -> plug-in object
_failed: dict[str, str] = {}  # package -> why its PLUGIN did not load


def _error(exc: BaseException) -> str:
    """One line: the first non-blank line of the error, and of its root cause if it has one (numpy's
    failed import starts with a blank line and names the real reason only in its cause)."""

    def line(error: BaseException) -> str:
        text = next((t.strip() for t in str(error).splitlines() if t.strip()), "")
        return f"{type(error).__name__}: {text}" if text else type(error).__name__

    root = exc
    while root.__cause__ is not None and root.__cause__ is not root:
        root = root.__cause__
    return line(exc) if root is exc else f"{line(exc)} (caused by {line(root)})"


@cache
def _discover() -> tuple[dict[str, _Entry], dict[str, str]]:
    """Every package's metadata in display order, and the packages whose ``__init__`` failed."""
    found: dict[str, _Entry] = {}
    broken: dict[str, str] = {}
    for info in pkgutil.iter_modules(solvers.__path__):
        if not info.ispkg or info.name == "common":
            continue
        # One broken module (syntax error, missing dependency, bad PLUGIN) must not take the
        # others down: it is reported as unavailable with its error instead.
        try:
            module = importlib.import_module(f"solvers.{info.name}")
            meta = vars(module).get("META")
            if meta is None:  # an eager package: its PLUGIN is already there (or it is no plug-in)
                plugin = vars(module).get("PLUGIN")
                if plugin is None:
                    continue
                meta = plugin.meta
                with _lock:
                    _loaded[meta.id] = plugin
            if not isinstance(meta, Meta):
                raise TypeError(f"META is a {type(meta).__name__}, not a Meta")
            found[meta.id] = _Entry(info.name, meta)
        except Exception as exc:  # noqa: BLE001 - any import-time failure makes the module unavailable
            broken[info.name] = _error(exc)
    ordered = dict(sorted(found.items(), key=lambda kv: (kv[1].meta.order, kv[0])))
    return ordered, broken


def _load(entry: _Entry) -> PluginBase | None:
    """The plug-in object of ``entry`` (imported on first use), or None if it failed to load."""
    with _lock:
        plugin = _loaded.get(entry.meta.id)
        if plugin is not None or entry.package in _failed:
            return plugin
    # Imported outside the lock: Python's import lock already makes two threads share one import.
    try:
        plugin = sys.modules[f"solvers.{entry.package}"].PLUGIN  # the package loads it on access
        if not isinstance(plugin, PluginBase):
            raise TypeError(f"PLUGIN is a {type(plugin).__name__}, not a plug-in")
        if plugin.meta != entry.meta:
            raise ValueError(f"PLUGIN.meta ({plugin.meta.id}) is not the package's META")
    except Exception as exc:  # noqa: BLE001 - as at discovery: the module becomes unavailable
        with _lock:
            _failed.setdefault(entry.package, _error(exc))
        return None
    with _lock:
        return _loaded.setdefault(entry.meta.id, plugin)


def metas() -> dict[str, Meta]:
    """Every discovered module's metadata, in display order, without loading any plug-in module
    (a module that then fails to load is still listed here; ``get`` reports it unavailable)."""
    return {kind: entry.meta for kind, entry in _discover()[0].items()}


def plugins() -> dict[str, PluginBase]:
    """Every module that loaded cleanly, in display order (this loads every plug-in module)."""
    loaded = ((kind, _load(entry)) for kind, entry in _discover()[0].items())
    return {kind: plugin for kind, plugin in loaded if plugin is not None}


def unavailable() -> dict[str, str]:
    """Modules whose import failed: package name -> the error (type and first line). Loads every
    plug-in module to find out."""
    plugins()
    broken = _discover()[1]
    with _lock:
        return {**broken, **_failed}


def refresh() -> None:
    """Forget the discovery (tests that break or repair a module call this)."""
    with _lock:
        _discover.cache_clear()
        _loaded.clear()
        _failed.clear()


def resolve(kind: str) -> Meta:
    """The metadata of a module by id or alias, without loading it; InputError if there is none."""
    key = kind.strip().lower()
    table, broken = _discover()
    entry = table.get(key) or next((e for e in table.values() if key in e.meta.aliases), None)
    if entry is not None:
        return entry.meta
    if key in broken:
        raise InputError(f"module '{key}' is unavailable: {broken[key]}")
    raise InputError(f"unknown kind '{kind}' (known: {', '.join(table)})")


def get(kind: str) -> PluginBase:
    """The plug-in of a module by id or alias, loading that one module (and no other)."""
    entry = _discover()[0][resolve(kind).id]
    plugin = _load(entry)
    if plugin is None:
        raise InputError(f"module '{entry.meta.id}' is unavailable: {_failed[entry.package]}")
    return plugin


def for_path(path: str) -> PluginBase | None:
    """Guess the plug-in from a file name's extension (first match in display order)."""
    lower = path.lower()
    for entry in _discover()[0].values():
        if any(lower.endswith(ext) for ext in entry.meta.extensions if ext != ".txt"):
            plugin = _load(entry)
            if plugin is not None:
                return plugin
    return None


def lazy_attributes(package: str, names: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` (PEP 562) for a plug-in package's ``__init__``: ``names`` maps an
    attribute to the submodule defining it (``{"PLUGIN": "plugin"}``), imported on first access,
    so that reading the package's ``META`` costs nothing and ``from solvers.x import PLUGIN`` works."""

    def __getattr__(name: str) -> Any:
        submodule = names.get(name)
        if submodule is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{submodule}"), name)
        setattr(sys.modules[package], name, value)  # later reads are plain attribute reads
        return value

    return __getattr__
