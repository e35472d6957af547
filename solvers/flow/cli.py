"""Module commands: ``python -m workbench flow solve|generate|convert ...``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.common.protocol import CountResult, read_text
from solvers.flow import codec
from solvers.flow.generate import generate
from solvers.flow.model import FlowPuzzle
from solvers.flow.solve import RULE_CHOICES, solve


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line on stderr, exit 2 (no usage dump)
        raise InputError(f"flow: {message}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m workbench flow", description="Flow Free module commands")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="solve a puzzle file (rules: auto = designed, else strict)")
    s.add_argument("input")
    s.add_argument("--rules", choices=RULE_CHOICES, default="auto")
    s.add_argument("--limit", type=int, default=2, help="stop after N solutions (0 = all)")
    s.add_argument("--timeout", type=float, default=None, help="give up after this many seconds")
    s.add_argument("--json", action="store_true")
    g = sub.add_parser("generate", help="random puzzle with a unique solution (designed rules)")
    g.add_argument("width", type=int)
    g.add_argument("height", type=int)
    g.add_argument("--colors", "--colours", dest="colours", type=int, default=None)
    g.add_argument("--seed", type=int, default=None)
    g.add_argument("--spaced", action="store_true", help="write the spaced form")
    g.add_argument("--json", action="store_true")
    c = sub.add_parser("convert", help="rewrite a puzzle in another text form")
    c.add_argument("input")
    c.add_argument("--to", choices=("plain", "spaced", "labels", "mnemonic"), default="plain")
    return p


def _load(arg: str) -> FlowPuzzle:
    path = Path(arg)
    if path.is_file():
        return codec.parse(read_text(path))
    if "\n" in arg:
        return codec.parse(arg)
    raise InputError(f"no such file: {arg}")


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        if args.command == "solve":
            return _solve(args)
        if args.command == "generate":
            return _generate(args)
        return _convert(args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _solve(args: argparse.Namespace) -> int:
    puzzle = _load(args.input)
    info: dict[str, object] = {}
    cancel = CancelToken(timeout=args.timeout)
    start = time.perf_counter()
    solutions = []
    stopped = False
    try:
        for solution in solve(puzzle, limit=args.limit, cancel=cancel, info=info, rules=args.rules):
            solutions.append(solution)
    except Cancelled:
        stopped = True
    seconds = time.perf_counter() - start
    complete = not stopped and (args.limit in (0, None) or len(solutions) < args.limit)
    result = CountResult(len(solutions), complete)
    if args.json:
        out = {
            "kind": "flow",
            "rules": info.get("rules"),
            "solutions": [s.to_json() for s in solutions],
            "count": result.count,
            "complete": result.complete,
            "unique": result.unique,
            "seconds": round(seconds, 4),
        }
        print(json.dumps(out))
    else:
        for solution in solutions:
            print(f"# {solution.label}")
            print("\n".join(solution.grid))
        print(f"{result.status()} ({info.get('rules')} rules, {seconds:.3f} s)")
    return 0


def _generate(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    made = generate(args.width, args.height, args.colours, seed=args.seed)
    text = codec.serialize_spaced(made.puzzle) if args.spaced else codec.serialize(made.puzzle)
    if args.colours is not None and len(made.paths) != args.colours:
        print(
            f"note: no unique puzzle with {args.colours} colours found; this one has {len(made.paths)}",
            file=sys.stderr,
        )
    if args.json:
        out = {
            "kind": "flow",
            "puzzle": made.puzzle.row_strings(),
            "colours": len(made.paths),
            "rules": "designed",
            "unique": True,
            "seed": made.seed,
            "attempts": made.attempts,
            "seconds": round(time.perf_counter() - start, 4),
        }
        print(json.dumps(out))
    else:
        sys.stdout.write(text)
    return 0


def _convert(args: argparse.Namespace) -> int:
    puzzle = _load(args.input)
    if args.to == "spaced":
        sys.stdout.write(codec.serialize_spaced(puzzle))
    elif args.to == "labels":
        sys.stdout.write(codec.serialize(codec.to_label_form(puzzle)))
    elif args.to == "mnemonic":
        sys.stdout.write(codec.serialize(codec.to_mnemonic_form(puzzle)))
    else:
        sys.stdout.write(codec.serialize(puzzle))
    return 0
