"""``python -m workbench flow import IMAGE [--to FILE] [--json] [--timeout S]``: a screenshot to a
puzzle file."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.flow import codec
from solvers.flow.screenshot import detect, read_image, to_puzzle


def _write(path: Path, text: str) -> None:
    """Write atomically (a temporary file in the same folder, renamed over the target)."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"--to: folder {folder} does not exist")
    if path.is_dir():
        raise InputError(f"--to: {path} is a folder")
    name = ""
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(name, path)
    except OSError as exc:
        raise InputError(f"--to: cannot write {path} ({exc.strerror or exc})") from None
    finally:
        if name and os.path.exists(name):
            os.unlink(name)


def import_command(args: argparse.Namespace, cancel: CancelToken | None = None) -> int:
    """``cancel`` is checked between the steps; decoding and detection run in OpenCV without the
    GIL, so a step that overruns ``--timeout`` is ended by the command layer's watchdog."""
    cancel = cancel or CancelToken()
    image = Path(args.image)
    img = read_image(image)
    cancel.raise_if_cancelled()
    try:
        found = detect(img)
    except InputError as exc:
        raise InputError(f"{image.name}: {exc}") from None
    cancel.raise_if_cancelled()
    problems = found.problems()
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InputError(f"{image.name}: {problems[0]}{more}; endpoints must come in pairs")
    puzzle, notes = to_puzzle(found)
    text = codec.serialize(puzzle)
    if args.output is not None:
        if not args.output.strip():
            raise InputError("--to: empty file name")
        target = Path(args.output)
        if target.exists() and target.resolve() == image.resolve():
            raise InputError("--to: refusing to overwrite the screenshot itself")
        _write(target, text)
    if args.json:
        # "puzzle": the file text (our format: walls and holes included), one line per item.
        out = {
            "kind": "flow",
            "puzzle": codec.serialize(puzzle).splitlines(),
            **found.to_json(),
            "notes": notes,
        }
        print(json.dumps(out))
    else:
        if args.output is None:
            sys.stdout.write(text)
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
    return 0
