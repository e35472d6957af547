"""Atomic file output: write to a temporary file in the target folder, then rename over the target.

A crash or a full disk never leaves a half-written puzzle or picture behind. Saving through a
symbolic link writes the file it points to and keeps the link, as editors do; a name or a text that
cannot be written is one clear ``InputError`` before anything is touched. A process killed
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


def _target_of(path: Path) -> Path:
    """The file a save to ``path`` writes: ``path``, or the file a symbolic link there points to
    (replacing the link itself would cut it from its target). Refuses names no file can have."""
    name = str(path)
    if "\0" in name:
        raise InputError(f"{name!r}: a file name cannot contain a NUL character")
    try:
        os.fsencode(name)
    except UnicodeEncodeError:
        raise InputError(f"{name!r}: not a valid file name (it holds an unpaired surrogate)") from None
    if not os.path.islink(path):
        return path
    try:
        return Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:  # a dangling link: create the file it names
        return Path(os.path.realpath(path))
    except OSError as exc:  # a loop of links, a folder on the way that cannot be read
        raise InputError(f"{path}: cannot follow this symbolic link ({exc.strerror or exc})") from None


@contextmanager
def atomic_output(path: Path) -> Iterator[Path]:
    """Yield a temporary path to write; on success it replaces ``path`` (keeping its permissions),
    or the file ``path`` points to if it is a symbolic link."""
    path = _target_of(Path(path))
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{folder}: folder does not exist")
    if path.is_dir():
        raise InputError(f"{path}: is a folder; give a file name")
    if path.is_file() and not path.stat().st_mode & stat.S_IWUSR:
        # os.replace needs only the folder writable, so a read-only file was silently replaced
        # (QA pass 10); its mode says it is not to be written over.
        raise InputError(f"{path}: the file is read-only; choose another name or make it writable")
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
    data = _utf8(path, text)  # before anything is written: a refused text leaves the file as it was
    with atomic_output(path) as tmp:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())


def _utf8(path: Path, text: str) -> bytes:
    """``text`` as UTF-8, or an ``InputError`` saying where the character that has none is (an
    unpaired surrogate, which pasted or decoded text can hold)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        before = text[: exc.start]
        line = before.count("\n") + 1
        column = exc.start - (before.rfind("\n") + 1) + 1
        code = ord(text[exc.start])
        raise InputError(
            f"{path}: not saved: line {line}, column {column} holds U+{code:04X}, "
            "an unpaired surrogate that no file can store"
        ) from None
