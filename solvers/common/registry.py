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
def plugins() -> dict[str, PluginBase]:
    found: dict[str, PluginBase] = {}
    for info in pkgutil.iter_modules(solvers.__path__):
        if not info.ispkg or info.name == "common":
            continue
        module = importlib.import_module(f"solvers.{info.name}")
        plugin = getattr(module, "PLUGIN", None)
        if plugin is not None:
            found[plugin.meta.id] = plugin
    rank = {name: i for i, name in enumerate(ORDER)}
    return dict(sorted(found.items(), key=lambda kv: (rank.get(kv[0], len(ORDER)), kv[0])))


def get(kind: str) -> PluginBase:
    key = kind.strip().lower()
    table = plugins()
    if key in table:
        return table[key]
    for plugin in table.values():
        if key in plugin.meta.aliases:
            return plugin
    raise InputError(f"unknown kind '{kind}' (known: {', '.join(table)})")


def for_path(path: str) -> PluginBase | None:
    """Guess the plug-in from a file name's extension (first match in display order)."""
    lower = path.lower()
    for plugin in plugins().values():
        if any(lower.endswith(ext) for ext in plugin.meta.extensions if ext != ".txt"):
            return plugin
    return None
