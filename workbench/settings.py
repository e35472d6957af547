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


def remove_recent(entry: str) -> list[str]:
    """Drop ``entry`` ("kind|path") from the recent files."""
    files = [p for p in recent_files() if p != entry]
    settings().setValue("recent", files)
    return files


def last_folder(purpose: str) -> str:
    """The folder last used for ``purpose`` ("open", "save", "export", "import") if it still
    exists, else the folder of the last file chosen for any purpose (an export goes beside the
    file just saved), else the user's home: the dialogs started in the working folder, which for a
    user who started the app from its source folder was the source (QA)."""
    for key in (f"folders/{purpose}", "folders/any"):
        folder = str(settings().value(key, "") or "")
        if folder and os.path.isdir(folder):
            return folder
    return os.path.expanduser("~")


def set_last_folder(purpose: str, chosen_file: str) -> None:
    folder = os.path.dirname(os.path.abspath(chosen_file))
    settings().setValue(f"folders/{purpose}", folder)
    settings().setValue("folders/any", folder)
