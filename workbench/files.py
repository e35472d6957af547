"""Atomic file output: write to a temporary file in the target folder, then rename over the target.

A crash or a full disk never leaves a half-written puzzle or picture behind.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from solvers.common.errors import InputError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_output(path: Path) -> Iterator[Path]:
    """Yield a temporary path to write; on success it replaces ``path`` (keeping its permissions)."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{folder}: folder does not exist")
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix or ".tmp", dir=folder)
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
