"""Module commands: ``python -m workbench xcetero analyse|value ...``.

analyse   retrograde analysis of every state reachable from the empty board (--return: the variant
          where the lifted piece may go back to its own square)
value     exact value of one position for the side to move, with the best line; STATE is a .xo file
          or an inline state such as ".../.../... 1" or "132/.4./5.6 due 2" (see docs/xcetero.md)
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from solvers.common import cli
from solvers.common.cancel import CancelToken
from solvers.common.cli import Parser, add_json, add_timeout
from solvers.common.errors import InputError
from solvers.common.protocol import PluginBase
from solvers.xcetero import retro

PROG = "workbench xcetero"


def _parser() -> argparse.ArgumentParser:
    p = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    for name in ("analyse", "analyze"):
        a = sub.add_parser(name, help="retrograde analysis of every reachable state")
        a.add_argument(
            "--return", dest="may_return", action="store_true", help="the lifted piece may go back"
        )
        add_json(a)
        add_timeout(a)
    v = sub.add_parser("value", help="exact value and best line of one position")
    v.add_argument("state", help='a .xo file or an inline state such as ".../.../... 1"')
    add_json(v)
    add_timeout(v)
    return p


def main(argv: Sequence[str], plugin: PluginBase) -> int:
    return cli.run(PROG, _parser(), lambda args, cancel: _dispatch(plugin, args, cancel), argv)


def _dispatch(plugin: PluginBase, args: argparse.Namespace, cancel: CancelToken) -> int:
    if args.command in ("analyse", "analyze"):
        # The analysis polls the token between its numpy passes: --timeout and Ctrl+C stop it.
        result = retro.summary(retro.analyse(args.may_return, cancel))
        if args.json:
            print(json.dumps(result, ensure_ascii=False))
        else:
            for key, val in result.items():
                print(f"{key:>17}: {val}")
        return 0
    # a saved game is valued where it stands: after its moves line
    position, where = plugin.solve_position(*cli.read_input(plugin, args.state))
    solution = next(iter(plugin.solve(position, cancel=cancel)), None)
    cancel.raise_if_cancelled()
    if solution is None:
        raise InputError("no value for this position")
    extras = solution.extras
    if args.json:
        print(json.dumps({"grid": solution.grid, **extras, "position": where}, ensure_ascii=False))
    else:
        print(f"position: {where}")
        print("\n".join(solution.grid))
        print(f"{extras['side']} to move (piece {extras['due']}): {extras['value']}")
        print("moves: " + ", ".join(f"{sq}: {v}" for sq, v in extras["moves"].items()))
        print(f"best line: {extras['pv_text'] or '(game over)'}")
    return 0
