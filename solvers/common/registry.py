"""Discovers plug-ins: every ``solvers.<name>`` package exposing ``PLUGIN`` is registered.

Discovery (rather than a hand-kept list) means adding a module enrols it in the GUI, the CLI
and the registry-wide tests without touching shared files.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import solvers
from solvers.common.errors import InputError
from solvers.common.protocol import PluginBase

# Display order in the GUI; modules not listed come after, alphabetically.
ORDER = ("flow", "toichika", "ninetiles", "doves", "xcetero", "example")


@cache
def _discover() -> tuple[dict[str, PluginBase], dict[str, str]]:
    found: dict[str, PluginBase] = {}
    broken: dict[str, str] = {}
    for info in pkgutil.iter_modules(solvers.__path__):
        if not info.ispkg or info.name == "common":
            continue
        # One broken module (syntax error, missing dependency, bad PLUGIN) must not take the
        # others down: it is reported as unavailable with its error instead.
        try:
            module = importlib.import_module(f"solvers.{info.name}")
            plugin = getattr(module, "PLUGIN", None)
            if plugin is not None:
                found[plugin.meta.id] = plugin
        except Exception as exc:  # noqa: BLE001 - any import-time failure makes the module unavailable
            broken[info.name] = f"{type(exc).__name__}: {exc}".splitlines()[0]
    rank = {name: i for i, name in enumerate(ORDER)}
    ordered = dict(sorted(found.items(), key=lambda kv: (rank.get(kv[0], len(ORDER)), kv[0])))
    return ordered, broken


def plugins() -> dict[str, PluginBase]:
    """Every module that imported cleanly, in display order."""
    return _discover()[0]


def unavailable() -> dict[str, str]:
    """Modules whose import failed: package name -> the error (type and first line)."""
    return dict(_discover()[1])


def refresh() -> None:
    """Forget the discovery (tests that break or repair a module call this)."""
    _discover.cache_clear()


def get(kind: str) -> PluginBase:
    key = kind.strip().lower()
    table = plugins()
    if key in table:
        return table[key]
    for plugin in table.values():
        if key in plugin.meta.aliases:
            return plugin
    broken = unavailable()
    if key in broken:
        raise InputError(f"module '{key}' is unavailable: {broken[key]}")
    raise InputError(f"unknown kind '{kind}' (known: {', '.join(table)})")


def for_path(path: str) -> PluginBase | None:
    """Guess the plug-in from a file name's extension (first match in display order)."""
    lower = path.lower()
    for plugin in plugins().values():
        if any(lower.endswith(ext) for ext in plugin.meta.extensions if ext != ".txt"):
            return plugin
    return None
