"""Module commands: ``python -m workbench toichika <command> ...``.

url INPUT                      print the puzz.link URL
convert INPUT --to url|pzprv3|text
uniqueness INPUT [--json]      unique / none / several, with two solutions and the differing cells
hint INPUT [--json]            next step from the player's answers (INPUT may be a pzprv3 file)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from solvers.common.cancel import Cancelled
from solvers.common.errors import InputError
from solvers.common.protocol import read_text
from solvers.toichika.model import Entries, Toichika, grid_rows
from solvers.toichika.pzprv3_codec import write_pzprv3
from solvers.toichika.text_format import write_text
from solvers.toichika.url_codec import encode_url


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line on stderr, exit 2, no usage dump
        raise InputError(message)


def _load(plugin: Any, arg: str) -> tuple[Toichika, Entries | None]:
    from solvers.toichika.plugin import parse_any

    path = Path(arg)
    try:
        is_file = len(arg) < 4096 and path.is_file()
    except OSError:
        is_file = False
    if is_file:
        return parse_any(read_text(path))
    if not plugin.looks_like_inline(arg) and "\n" not in arg:
        raise InputError(f"no such file: {arg}")
    return parse_any(arg)


def run(plugin: Any, argv: list[str]) -> int:
    parser = _Parser(prog="workbench toichika", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    for name in ("url", "convert", "uniqueness", "hint"):
        cmd = sub.add_parser(name)
        cmd.add_argument("input")
        cmd.add_argument("--json", action="store_true")
        if name == "convert":
            cmd.add_argument("--to", choices=("url", "pzprv3", "text"), default="text")
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise InputError("expected a command: url, convert, uniqueness or hint")
        puzzle, entries = _load(plugin, args.input)
        if args.command == "url":
            print(encode_url(puzzle))
        elif args.command == "convert":
            out = {
                "url": encode_url(puzzle) + "\n",
                "pzprv3": write_pzprv3(puzzle, entries),
                "text": write_text(puzzle),
            }
            sys.stdout.write(out[args.to])
        elif args.command == "uniqueness":
            return _uniqueness(plugin, puzzle, args.json)
        else:
            from solvers.toichika.explain import hint

            result = hint(puzzle, entries)
            print(json.dumps(result, ensure_ascii=False) if args.json else result["text"])
        return 0
    except (InputError, Cancelled) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _uniqueness(plugin: Any, puzzle: Toichika, as_json: bool) -> int:
    solutions = list(plugin.solve(puzzle, limit=2))
    status = {0: "no solution", 1: "unique"}.get(len(solutions), "not unique")
    out: dict[str, Any] = {"status": status, "solutions": [s.grid for s in solutions]}
    if len(solutions) == 2:
        out["differing_cells"] = solutions[1].extras["differs_from_first"]
    if as_json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(status)
        for s in solutions:
            print("\n".join(s.grid) + "\n")
        if "differing_cells" in out:
            print("differing cells (row, col): " + " ".join(f"({r},{c})" for r, c in out["differing_cells"]))
    return 0


__all__ = ["run", "grid_rows"]
