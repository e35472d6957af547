"""Where the application keeps its files for the user: cache, logs, desktop data (no Qt here).

Linux follows the XDG base-directory rules (``$XDG_CACHE_HOME``, ``$XDG_STATE_HOME``,
``$XDG_DATA_HOME`` with their documented defaults), the same rule the Nine Tiles store and the Doves
tablebases already use. Windows and macOS get their platform's folder for logs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_DIR = "puzzle-workbench"  # the folder name under the XDG bases (the stores use it too)


def _xdg(variable: str, default: str) -> Path:
    value = os.environ.get(variable, "")
    # The specification says a relative path is invalid and must be ignored.
    return Path(value) if value and os.path.isabs(value) else Path.home() / default


def cache_dir() -> Path:
    """``$PUZZLE_WORKBENCH_CACHE``, else ``$XDG_CACHE_HOME/puzzle-workbench`` (as the Nine Tiles store)."""
    env = os.environ.get("PUZZLE_WORKBENCH_CACHE")
    if env:
        return Path(env).expanduser()
    return _xdg("XDG_CACHE_HOME", ".cache") / APP_DIR


def numba_cache_dir() -> Path:
    """Compiled numba kernels: a frozen bundle's own folder may be read-only, the user's cache is not."""
    return cache_dir() / "numba"


def log_dir() -> Path:
    """``$XDG_STATE_HOME/puzzle-workbench/logs`` on Linux (logs are state, not cache, per XDG)."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "PuzzleWorkbench" / "logs"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Logs" / "PuzzleWorkbench"
    return _xdg("XDG_STATE_HOME", ".local/state") / APP_DIR / "logs"


def data_home() -> Path:
    """``$XDG_DATA_HOME`` (default ``~/.local/share``): where desktop entries, icons and MIME types go."""
    return _xdg("XDG_DATA_HOME", ".local/share")


def set_numba_cache_default() -> None:
    """Point numba's cache at the user cache unless the user chose a folder (call before numba loads)."""
    os.environ.setdefault("NUMBA_CACHE_DIR", str(numba_cache_dir()))
