"""``python -m workbench flow import IMAGE [--to FILE] [--json] [--timeout S]``: a screenshot to a
puzzle file; ``flow import IMAGE... --to-dir DIR``: a folder of screenshots to a level pack."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from solvers.common.cancel import CancelToken
from solvers.common.cli import EXIT_OK, EXIT_RULES
from solvers.common.errors import InputError
from solvers.flow import codec
from solvers.flow.level_pack import pack_folder, write_new
from solvers.flow.screenshot import checked, detect, read_image, to_puzzle


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
    if args.to_dir is not None:
        return _import_batch(args, cancel)
    if len(args.image) > 1:
        raise InputError("import: several images need --to-dir DIR (one level file per image)")
    image = Path(args.image[0])
    img = read_image(image)
    cancel.raise_if_cancelled()
    try:
        found = detect(img)
    except InputError as exc:
        raise InputError(f"{image.name}: {exc}") from None
    cancel.raise_if_cancelled()
    found, reasons = checked(found, cancel=cancel)  # never print a board that cannot be the level
    if reasons:
        raise InputError(f"{image.name}: {reasons[0]}")
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


def _read_level(image: Path) -> str:
    """The level file text of one screenshot, or ``InputError`` naming why it was refused."""
    found, reasons = checked(detect(read_image(image)))
    if reasons:
        raise InputError(reasons[0])
    puzzle, _ = to_puzzle(found)
    return codec.serialize(puzzle)


def _import_batch(args: argparse.Namespace, cancel: CancelToken) -> int:
    """One level file per image in ``--to-dir`` (IMAGE stem + .txt), never over an existing file,
    then a summary: each image read (to which file) or refused (why). Exit 0 when every image was
    read, 1 when some were refused."""
    if args.output is not None:
        raise InputError("import: use either --to FILE or --to-dir DIR")
    folder = pack_folder(args.to_dir)
    rows: list[dict[str, str]] = []
    for name in args.image:
        cancel.raise_if_cancelled()
        image = Path(name)
        target = folder / f"{image.stem}.txt"
        try:
            write_new(target, _read_level(image))
            rows.append({"image": name, "status": "read", "file": str(target)})
        except InputError as exc:
            reason = str(exc).removeprefix(f"{image.name}: ")
            rows.append({"image": name, "status": "refused", "reason": reason})
    read = sum(row["status"] == "read" for row in rows)
    if args.json:
        print(json.dumps({"kind": "flow-import", "read": read, "refused": len(rows) - read, "images": rows}))
    else:
        for row in rows:
            if row["status"] == "read":
                print(f"read     {row['image']} -> {row['file']}")
            else:
                print(f"refused  {row['image']}: {row['reason']}")
        print(f"{read} read, {len(rows) - read} refused, into {folder}")
    return EXIT_OK if read == len(rows) else EXIT_RULES
