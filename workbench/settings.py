"""QSettings in one place; tests get a throw-away ini file instead of the user's settings."""

from __future__ import annotations

import os
import tempfile

from PySide6.QtCore import QSettings

_TEST_FILE: str | None = None


def settings() -> QSettings:
    global _TEST_FILE
    if os.environ.get("PUZZLE_WORKBENCH_SETTINGS") == "test":
        if _TEST_FILE is None:
            _TEST_FILE = os.path.join(tempfile.mkdtemp(prefix="pwb-settings-"), "settings.ini")
        return QSettings(_TEST_FILE, QSettings.Format.IniFormat)
    return QSettings("PuzzleWorkbench", "Puzzle Workbench")


def recent_files() -> list[str]:
    value = settings().value("recent", [])
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return []


def add_recent(path: str, limit: int = 10) -> list[str]:
    files = [path] + [p for p in recent_files() if p != path]
    files = files[:limit]
    settings().setValue("recent", files)
    return files


def last_folder(purpose: str) -> str:
    """The folder last used for ``purpose`` ("open", "save", "export") if it still exists, else ''."""
    folder = str(settings().value(f"folders/{purpose}", "") or "")
    return folder if folder and os.path.isdir(folder) else ""


def set_last_folder(purpose: str, chosen_file: str) -> None:
    settings().setValue(f"folders/{purpose}", os.path.dirname(os.path.abspath(chosen_file)))
