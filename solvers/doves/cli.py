"""Module commands: ``python -m workbench doves {count,analyse,perft,ai} ...``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

import numpy as np

from solvers.common.cancel import Cancelled
from solvers.common.errors import InputError
from solvers.doves import engine
from solvers.doves.analysis import LEVELS, final_value
from solvers.doves.counting import count_positions
from solvers.doves.model import COLOUR_NAMES, Position, parse_side
from solvers.doves.rules import JUDGES, Rules

if TYPE_CHECKING:
    from solvers.doves.plugin import DovesPlugin


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="workbench doves", description="Tokyo Doves tools")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("count", help="exact number of positions (2..12 doves, up to symmetry)")
    c.add_argument("--json", action="store_true")
    for name in ("analyse", "analyze"):
        a = sub.add_parser(name, help="exact Win(n)/Lose(n) by iterative deepening")
        a.add_argument("board", help="board string such as 'bB;T YA' or a .doves file")
        a.add_argument("--to-move", default=None, help="red (default) or green")
        a.add_argument("--depth", type=int, default=9, help="maximum depth in plies (default 9)")
        a.add_argument("--json", action="store_true")
    f = sub.add_parser("perft", help="number of legal action sequences of each length")
    f.add_argument("board", nargs="?", default="b;B")
    f.add_argument("--to-move", default=None)
    f.add_argument("--depth", type=int, default=4)
    f.add_argument("--json", action="store_true")
    z = sub.add_parser("puzzles", help="find 'win in n' puzzles (unique first action) in random games")
    z.add_argument("--win", type=int, default=5, help="plies of the forced win (odd, default 5)")
    z.add_argument("--count", type=int, default=5)
    z.add_argument("--seed", type=int, default=0)
    z.add_argument(
        "--any-first-move", action="store_true", help="keep puzzles with several winning first actions"
    )
    z.add_argument("--json", action="store_true")
    m = sub.add_parser("ai", help="the AI's action for a position")
    m.add_argument("board")
    m.add_argument("--to-move", default=None)
    m.add_argument("--level", type=int, default=3, choices=sorted(LEVELS))
    m.add_argument("--json", action="store_true")
    for sp in (*[sub.choices[n] for n in ("analyse", "analyze", "perft", "ai")],):
        sp.add_argument("--no-remove", action="store_true", help="play without the optional Remove action")
        sp.add_argument(
            "--both",
            default="mover_loses",
            choices=sorted(JUDGES),
            help="result when both Bosses are surrounded at once (default: the mover loses)",
        )
    return p


def _position(plugin: DovesPlugin, board: str, to_move: str | None) -> Position:
    position = plugin.parse_input(board)
    if to_move is not None:
        position = position.with_to_move(parse_side(to_move))
    return position


def run(plugin: DovesPlugin, argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        return _dispatch(plugin, args)
    except InputError as exc:
        print(f"doves: {exc}", file=sys.stderr)
        return 2
    except Cancelled:
        print("doves: cancelled", file=sys.stderr)
        return 1


def _emit(data: dict[str, object], as_json: bool) -> None:
    if as_json:
        print(json.dumps(data))
    else:
        for key, value in data.items():
            print(f"{key}: {value}")


def _dispatch(plugin: DovesPlugin, args: argparse.Namespace) -> int:
    from solvers.doves.plugin import arrangement_problems

    if args.command == "count":
        _emit(count_positions().to_json(), args.json)
        return 0
    if args.command == "puzzles":
        from solvers.doves.analysis import find_puzzles

        if not 1 <= args.count <= 1000:
            raise InputError("--count must be between 1 and 1000")
        found = [
            {"board": p.board_string(), "to_move": "red", "value": str(a.value), "solution": a.ssn}
            for p, a in find_puzzles(args.win, args.count, seed=args.seed, unique=not args.any_first_move)
        ]
        if args.json:
            print(json.dumps({"puzzles": found}))
        else:
            for item in found:
                print(f"{item['board']!r:24} {item['value']:8} {' '.join(item['solution'])}")
        return 0
    position = _position(plugin, args.board, args.to_move)
    rules = Rules(allow_remove=not args.no_remove, both_surrounded=args.both)
    problems = arrangement_problems(position)
    if problems:
        raise InputError(problems[0].message)
    if args.command in ("analyse", "analyze"):
        if not 1 <= args.depth <= 40:
            raise InputError("--depth must be between 1 and 40")
        result = final_value(position, max_depth=args.depth, rules=rules)
        assert result is not None
        _emit(
            {
                "value": str(result.value),
                "best": result.ssn,
                "nodes": result.nodes,
                "seconds": round(result.seconds, 3),
                "depth": result.depth,
                "to_move": COLOUR_NAMES[position.to_move],
            },
            args.json,
        )
        return 0
    if args.command == "perft":
        buf = engine.Buffers()
        counts = {}
        start = time.perf_counter()
        for d in range(1, args.depth + 1):
            counts[str(d)] = int(
                engine.perft(
                    np.uint64(position.code),
                    position.to_move,
                    d,
                    rules.allow_remove,
                    rules.judge,
                    0,
                    buf.pos,
                    buf.acts,
                    buf.codes,
                    buf.outs,
                    buf.libs,
                )
            )
        _emit({"perft": counts, "seconds": round(time.perf_counter() - start, 3)}, args.json)
        return 0
    from solvers.doves.analysis import choose_action
    from solvers.doves.rules import to_ssn

    action = choose_action(position, args.level, rules=rules)
    _emit({"action": to_ssn(position, action) if action else None, "level": args.level}, args.json)
    return 0
