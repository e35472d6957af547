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
from collections.abc import Sequence
from typing import Any

from solvers.common import cli
from solvers.common.cancel import CancelToken
from solvers.common.cli import Parser, add_json, add_timeout
from solvers.common.protocol import PluginBase
from solvers.toichika.model import Toichika
from solvers.toichika.pzprv3_codec import write_pzprv3
from solvers.toichika.text_format import write_text
from solvers.toichika.url_codec import encode_url

PROG = "workbench toichika"


def _parser() -> argparse.ArgumentParser:
    parser = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("url", "convert", "uniqueness", "hint"):
        cmd = sub.add_parser(name)
        cmd.add_argument("input")
        add_json(cmd)
        if name == "convert":
            cmd.add_argument("--to", choices=("url", "pzprv3", "text"), default="text")
        if name in ("uniqueness", "hint"):
            add_timeout(cmd)
    return parser


def main(argv: Sequence[str], plugin: PluginBase) -> int:
    return cli.run(PROG, _parser(), lambda args, cancel: _dispatch(plugin, args, cancel), argv)


def _dispatch(plugin: PluginBase, args: argparse.Namespace, cancel: CancelToken) -> int:
    puzzle, entries = cli.read_input(plugin, args.input)
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
        return _uniqueness(plugin, puzzle, args.json, cancel)
    else:
        from solvers.toichika.explain import hint

        result = hint(puzzle, entries)
        print(json.dumps(result, ensure_ascii=False) if args.json else result["text"])
    return 0


def _uniqueness(plugin: PluginBase, puzzle: Toichika, as_json: bool, cancel: CancelToken) -> int:
    solutions = list(plugin.solve(puzzle, limit=2, cancel=cancel))
    cancel.raise_if_cancelled()  # a cut-short search proves nothing
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


__all__ = ["main"]
