"""A level pack: a folder of puzzle files, one per level (``flow import --to-dir``, ``flow split``).
Files are created, never replaced: a file made since, or a second level of the same name, stays."""

from __future__ import annotations

from pathlib import Path

from solvers.common.errors import InputError


def pack_folder(arg: str | None) -> Path:
    """The existing folder ``--to-dir`` names."""
    folder = Path(arg or "")
    if not str(arg or "").strip() or not folder.is_dir():
        raise InputError(f"--to-dir: {arg or '(empty)'} is no existing folder")
    return folder


def write_new(target: Path, text: str) -> None:
    """Create ``target`` with ``text`` (LF line ends); an existing file is an error, not replaced."""
    try:  # "x": create, never replace
        with open(target, "x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except FileExistsError:
        raise InputError(f"{target} exists (not overwritten)") from None
    except OSError as exc:
        raise InputError(f"cannot write {target} ({exc.strerror or exc})") from None
