"""Module commands: ``python -m workbench xcetero analyse|value ...``."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

from solvers.common.errors import InputError
from solvers.xcetero import retro

if TYPE_CHECKING:
    from solvers.xcetero.plugin import XceteroPlugin

USAGE = """usage: python -m workbench xcetero analyse [--json] [--return]
       python -m workbench xcetero value STATE [--json]

analyse   retrograde analysis of every state reachable from the empty board (--return: the variant
          where the lifted piece may go back to its own square)
value     exact value of one position for the side to move, with the best line; STATE is a .xo file
          or an inline state such as ".../.../... 1" or "132/.4./5.6 due 2" (see docs/xcetero.md)"""


def _fail(message: str) -> int:
    print(f"xcetero: {message}", file=sys.stderr)
    return 2


def run(plugin: XceteroPlugin, argv: list[str]) -> int:
    args = list(argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if args else 2
    command, rest = args[0], args[1:]
    flags = {a for a in rest if a.startswith("--")}
    words = [a for a in rest if not a.startswith("--")]
    if command in ("analyse", "analyze"):
        unknown = flags - {"--json", "--return"}
        if unknown or words:
            return _fail(f"analyse: unexpected argument {sorted(unknown)[0] if unknown else words[0]!r}")
        result = retro.summary(retro.analyse("--return" in flags))
        if "--json" in flags:
            print(json.dumps(result, ensure_ascii=False))
        else:
            for key, val in result.items():
                print(f"{key:>17}: {val}")
        return 0
    if command == "value":
        unknown = flags - {"--json"}
        if unknown:
            return _fail(f"value: unknown option {sorted(unknown)[0]!r}")
        if len(words) != 1:
            return _fail('value needs one STATE argument, e.g. value ".../.../... 1"')
        try:
            position = plugin.parse_input(words[0])
            solution = next(plugin.solve(position))
        except InputError as exc:
            return _fail(str(exc))
        extras = solution.extras
        if "--json" in flags:
            print(json.dumps({"grid": solution.grid, **extras}, ensure_ascii=False))
        else:
            print("\n".join(solution.grid))
            print(f"{extras['side']} to move (piece {extras['due']}): {extras['value']}")
            print("moves: " + ", ".join(f"{sq}: {v}" for sq, v in extras["moves"].items()))
            print(f"best line: {extras['pv_text'] or '(game over)'}")
        return 0
    return _fail(f"unknown command {command!r} (analyse, value)")
