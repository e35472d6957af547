"""Atomic file output: write to a temporary file in the target folder, then rename over the target.

A crash or a full disk never leaves a half-written puzzle or picture behind. A process killed
mid-save can still leave its hidden temporary file; the next save to that folder removes such
leftovers (only names of our exact pattern, and only when they are old enough not to belong to a
save in progress).
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from solvers.common.errors import InputError

TEMP_MARK = ".pwb-tmp-"  # ".<target name>.pwb-tmp-<8 random chars><suffix>"
STALE_SECONDS = 60.0  # older temporary files are leftovers of a killed save, not a save in progress
# tempfile's random part: 8 characters of [a-z0-9_].
_TEMP_NAME = re.compile(r"^\.(?P<target>.+)" + re.escape(TEMP_MARK) + r"[a-z0-9_]{8}(?P<suffix>\.[^.]+)$")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _temp_suffix(path: Path) -> str:
    # Keep the target's extension: image writers pick the format from it.
    return path.suffix or ".tmp"


def is_our_temp_name(name: str) -> bool:
    """True for a name ``atomic_output`` creates (and nothing a user would plausibly name a file)."""
    match = _TEMP_NAME.match(name)
    return match is not None and _temp_suffix(Path(match["target"])) == match["suffix"]


def remove_stale_temps(folder: Path, older_than: float = STALE_SECONDS) -> list[Path]:
    """Delete leftovers of killed saves in ``folder``; returns what was removed. Never raises."""
    removed: list[Path] = []
    cutoff = time.time() - older_than
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not is_our_temp_name(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and info.st_mtime < cutoff:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue  # gone already, or not ours to delete: the save itself matters more
    return removed


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); harmless where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def atomic_output(path: Path) -> Iterator[Path]:
    """Yield a temporary path to write; on success it replaces ``path`` (keeping its permissions)."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{folder}: folder does not exist")
    remove_stale_temps(folder)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}{TEMP_MARK}", suffix=_temp_suffix(path), dir=folder)
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from exc
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        if tmp.stat().st_size == 0 and path.suffix.lower() in (".png", ".svg", ".pdf"):
            raise InputError(f"{path}: nothing was written")
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask()
        os.chmod(tmp, mode)
        os.replace(tmp, path)
        _fsync_folder(folder)
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from exc
    finally:
        if tmp.exists():
            tmp.unlink()


def atomic_write(path: Path, text: str) -> None:
    with atomic_output(path) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
