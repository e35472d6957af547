"""Module commands: ``python -m workbench toichika <command> ...``.

url INPUT [--json]             print the puzz.link URL
convert INPUT --to url|pzprv3|text [--json]
                               text and pzprv3 keep the saved answers (text also the pencil marks)
uniqueness INPUT [--json]      unique / none / several, with two solutions and the differing cells
hint INPUT [--json]            next step from the player's answers (INPUT may be a pzprv3 file)
generate W H [--grade G] [--seed N] [--symmetric] [--to url|pzprv3|text] [--timeout S] [--json]
                               a random unique puzzle whose explanation needs exactly grade G
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from typing import Any

from solvers.common import cli
from solvers.common.cancel import CancelToken
from solvers.common.cli import Parser, add_json, add_timeout, int_range
from solvers.common.errors import InputError
from solvers.common.protocol import PluginBase
from solvers.common.words import cell_name
from solvers.toichika.generate import MAX_SIDE, MIN_SIDE, generate, grade_level, grade_names
from solvers.toichika.model import Toichika
from solvers.toichika.pzprv3_codec import write_pzprv3
from solvers.toichika.text_format import write_document, write_text
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
    gen = sub.add_parser("generate", help="a random unique puzzle at a chosen grade")
    side = int_range(MIN_SIDE, MAX_SIDE)
    gen.add_argument("width", type=side, metavar="W", help=f"columns ({MIN_SIDE}..{MAX_SIDE})")
    gen.add_argument("height", type=side, metavar="H", help=f"rows ({MIN_SIDE}..{MAX_SIDE})")
    gen.add_argument("--grade", type=_grade, default="medium", help=", ".join(grade_names()))
    gen.add_argument("--seed", type=_seed, default=None, help=f"reproduce a puzzle (0..{SEED_MAX})")
    gen.add_argument("--symmetric", action="store_true", help="givens in a 180-degree symmetric layout")
    gen.add_argument("--singles", action="store_true", help="allow 1-cell countries")
    gen.add_argument("--to", choices=("url", "pzprv3", "text"), default="text")
    add_json(gen)
    add_timeout(gen)
    return parser


SEED_MAX = 2**63 - 1
_seed_range = int_range(0, SEED_MAX)
_DIGITS = re.compile(r"[+-]?[0-9]+")


def _seed(text: str) -> int:
    """A seed in 0..SEED_MAX; a whole number outside it is called out of range, not "not a number"."""
    body = text.strip()
    if _DIGITS.fullmatch(body):
        digits = body.lstrip("+-").lstrip("0")
        # Compare lengths first: a 5,000-digit seed must not reach int() (Python's digit limit).
        if (
            (body.startswith("-") and digits)
            or len(digits) > len(str(SEED_MAX))
            or int(digits or "0") > SEED_MAX
        ):
            got = body if len(body) <= 40 else f"a {len(digits)}-digit number"
            raise argparse.ArgumentTypeError(f"out of range: a seed is 0..{SEED_MAX}, got {got}")
        return int(digits or "0")
    return _seed_range(text)  # not a whole number: the shared message


def _grade(text: str) -> str:
    try:
        grade_level(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def main(argv: Sequence[str], plugin: PluginBase) -> int:
    return cli.run(PROG, _parser(), lambda args, cancel: _dispatch(plugin, args, cancel), argv)


def _dispatch(plugin: PluginBase, args: argparse.Namespace, cancel: CancelToken) -> int:
    if args.command == "generate":
        return _generate(args, cancel)
    puzzle, entries = cli.read_input(plugin, args.input)
    if args.command == "url":
        url = encode_url(puzzle)
        # --json gives an object, as the other sub-commands (uniqueness, hint, generate) do.
        print(json.dumps({"kind": "toichika", "url": url}) if args.json else url)
    elif args.command == "convert":
        # The whole document: both file formats keep a saved game's answers (the text format also
        # its pencil marks); a URL holds only the puzzle.
        out = {
            "url": encode_url(puzzle) + "\n",
            "pzprv3": write_pzprv3(puzzle, entries),
            "text": write_document(puzzle, entries),
        }[args.to]
        if args.json:
            print(json.dumps({"kind": "toichika", "format": args.to, "text": out}, ensure_ascii=False))
        else:
            sys.stdout.write(out)
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
            # Text for people is 1-based (R1C1, as in the explanations); JSON keeps 0-based data.
            print("differing cells: " + " ".join(cell_name(r, c) for r, c in out["differing_cells"]))
    return 0


def _generate(args: argparse.Namespace, cancel: CancelToken) -> int:
    made = generate(
        args.width,
        args.height,
        args.grade,
        seed=args.seed,
        symmetric=args.symmetric,
        singles=args.singles,
        cancel=cancel,
    )
    text = {
        "url": encode_url(made.puzzle) + "\n",
        "pzprv3": write_pzprv3(made.puzzle, None),
        "text": write_text(made.puzzle),
    }[args.to]
    if args.json:
        out = {
            "kind": "toichika",
            "width": args.width,
            "height": args.height,
            "grade": made.grade,
            "seed": made.seed,
            "url": encode_url(made.puzzle),
            "puzzle": text,
            "countries": len(made.puzzle.regions),
            "givens": made.givens,
            "given_ratio": round(made.given_ratio, 4),
            "unique": True,
            "attempts": made.attempts,
            "seconds": round(made.seconds, 4),
        }
        print(json.dumps(out, ensure_ascii=False))
    else:
        sys.stdout.write(text)
    return 0


__all__ = ["main"]
