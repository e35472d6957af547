"""Careful reading of a store folder's files (``--store DIR``): every problem is one InputError line.

A store is written by us, but it lives on disk for hours or days, may be copied, truncated, edited
or replaced, and is re-read by a rerun. These helpers check before they trust:

* a file must be a regular file, opened without blocking (a FIFO under a store name would hang a
  plain ``open`` until the timeout);
* a ``.npy`` file's header is read by hand and its size compared with what the header promises
  *before* numpy maps it: ``np.load(mmap_mode="r+")`` silently extends a short file with zeros,
  which turns a truncated table into a plausible, wrong one and keeps the damage;
* ``state.json`` must be a small JSON object;
* a folder is writable only if a file can really be created in it (as root, permission bits do not
  stop writes, and a read-only mount or a full disk is only seen by trying).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, Literal

import numpy as np

from solvers.common.errors import InputError

MAX_STATE = 1 << 20  # bytes of a state.json: a real one is a few hundred
MAX_NPY_HEADER = 1 << 16


def _open(path: Path, what: str) -> tuple[int, os.stat_result]:
    """A read-only descriptor of a regular file (refused without blocking if it is not one)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputError(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise InputError(f"{path}: not a regular file (the store's {what} must be a plain file)")
    return fd, info


def read_json(path: Path, what: str = "state file") -> dict[str, Any]:
    """A store's JSON object (state.json, a task marker); anything else is one clear line."""
    fd, info = _open(path, what)
    with os.fdopen(fd, "rb") as f:
        if info.st_size > MAX_STATE:
            raise InputError(f"{path}: damaged {what} ({info.st_size:,} bytes)")
        try:
            data = json.loads(f.read().decode())
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise InputError(f"{path}: damaged {what} (not JSON): remove the store to start again") from None
        except OSError as exc:
            raise InputError(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: damaged {what} (not a JSON object): remove the store to start again")
    return data


def npy_layout(path: Path, what: str) -> tuple[tuple[int, ...], np.dtype[Any], int]:
    """(shape, dtype, data offset) of a ``.npy`` file whose size matches its header; a foreign,
    pickled, truncated or extended file raises InputError (nothing is mapped or extended)."""
    fd, info = _open(path, what)
    with os.fdopen(fd, "rb") as f:
        try:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(f, max_header_size=MAX_NPY_HEADER)
            elif version in ((2, 0), (3, 0)):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(f, max_header_size=MAX_NPY_HEADER)
            else:
                raise ValueError("unknown version")
            offset = f.tell()
        except (ValueError, OSError, SyntaxError, TypeError):
            raise InputError(
                f"{path}: damaged {what} (not a numpy array file): remove the store to start again"
            ) from None
    if fortran or dtype.hasobject or len(shape) != 1:
        raise InputError(f"{path}: damaged {what} (not a flat array of numbers)")
    expected = offset + shape[0] * dtype.itemsize
    if info.st_size != expected:
        raise InputError(
            f"{path}: truncated or damaged {what} ({info.st_size:,} bytes, expected {expected:,}): "
            "remove the store to start again"
        )
    return shape, dtype, offset


def open_array(
    path: Path, what: str, dtype: Any, size: int | None = None, mode: Literal["r", "r+", "load"] = "r"
) -> np.ndarray:
    """Map (``mode`` "r"/"r+") or, with mode "load", read a checked ``.npy`` file of ``dtype``
    (and ``size`` entries when given)."""
    shape, found, _ = npy_layout(path, what)
    if found != np.dtype(dtype):
        raise InputError(f"{path}: damaged {what} (holds {found}, not {np.dtype(dtype)})")
    if size is not None and shape != (size,):
        raise InputError(f"{path}: its {what} holds {shape[0]:,} entries, the variant has {size:,} classes")
    try:
        if mode == "load":
            return np.load(path, allow_pickle=False)
        return np.load(path, mmap_mode=mode, allow_pickle=False)  # type: ignore[no-any-return]
    except (ValueError, OSError) as exc:
        raise InputError(f"{path}: cannot read the {what} ({exc})") from None


def digest(array: np.ndarray) -> str:
    """sha256 of an array's bytes, in chunks (a memory map is not copied whole)."""
    h = hashlib.sha256()
    step = 1 << 24
    for lo in range(0, array.shape[0], step):
        h.update(np.ascontiguousarray(array[lo : lo + step]).data)
    return h.hexdigest()


def check_writable(folder: Path) -> None:
    """Refuse a folder no file can be created in, before hours of work are spent on its behalf.
    By trying: root ignores permission bits, and a read-only mount or full disk only shows then."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-probe-"):
            pass
    except OSError as exc:
        raise InputError(f"{folder}: cannot write in this folder ({exc.strerror or exc})") from None
