"""Module commands: ``python -m workbench flow solve|generate|convert|import|split ...``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from solvers.common import cli
from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.cli import EXIT_OK, EXIT_RULES, Parser, add_json, add_timeout
from solvers.common.errors import InputError
from solvers.common.outcome import SearchOutcome
from solvers.common.protocol import PluginBase, read_text
from solvers.flow import codec, collection_files, pzpr, sized
from solvers.flow.generate import generate
from solvers.flow.level_pack import pack_folder, write_new
from solvers.flow.model import AUTO_LOOK, NUMBERLINK, FlowPuzzle
from solvers.flow.solve import RULE_CHOICES, solve

PROG = "workbench flow"
MAX_SIDE = 100  # the generator's own bound, checked here so the message names the option


def _parser() -> argparse.ArgumentParser:
    p = Parser(prog=PROG, description="Flow Free module commands")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="solve a puzzle file or puzz.link URL")
    s.add_argument("input")
    s.add_argument(
        "--rules",
        choices=RULE_CHOICES,
        default="auto",
        help="auto (default) = the puzzle's own: Numberlink rules for a Numberlink puzzle, else "
        "designed, then strict if designed has no solution; numberlink = cells may stay empty",
    )
    s.add_argument(
        "--limit", type=cli.int_range(0, 10**9), default=2, help="stop after N solutions (0 = all)"
    )
    add_timeout(s)
    add_json(s)
    g = sub.add_parser("generate", help="random puzzle with a unique solution (designed rules)")
    g.add_argument("width", type=cli.int_range(2, MAX_SIDE))
    g.add_argument("height", type=cli.int_range(2, MAX_SIDE))
    g.add_argument("--colors", "--colours", dest="colours", type=cli.int_range(1, 62), default=None)
    g.add_argument("--seed", type=cli.int_range(0, 2**63 - 1), default=None)
    g.add_argument("--spaced", action="store_true", help="write the spaced form")
    add_timeout(g)
    add_json(g)
    c = sub.add_parser("convert", help="rewrite a puzzle in another text form, a puzz.link URL or pzprv3")
    c.add_argument("input")
    c.add_argument(
        "--to",
        choices=("plain", "spaced", "labels", "mnemonic", "url", "pzprv3", "wh"),
        default="plain",
        help="wh: a 'W H' line, then the rows (the form of a Numberlink solver's collections)",
    )
    i = sub.add_parser("import", help="read a puzzle from a screenshot of the Flow Free app")
    i.add_argument("image", nargs="+")
    i.add_argument("--to", dest="output", default=None, help="write the puzzle to this file")
    i.add_argument("--to-dir", dest="to_dir", default=None, help="one level file per image here")
    add_timeout(i)
    add_json(i)
    sp = sub.add_parser(
        "split",
        help="write each puzzle of a collection ('W H' form, Flow Free level pack) to a file of its own",
    )
    sp.add_argument("collection")
    sp.add_argument(
        "--to-dir", dest="to_dir", required=True, help="an existing folder: FILE-1.txt, FILE-2.txt, ..."
    )
    add_json(sp)
    return p


def main(argv: Sequence[str], plugin: PluginBase) -> int:
    def dispatch(args: argparse.Namespace, cancel: CancelToken) -> int:
        if args.command == "solve":
            return _solve(plugin, args, cancel)
        if args.command == "generate":
            return _generate(args, cancel)
        if args.command == "import":
            from solvers.flow.screenshot_cli import import_command  # OpenCV loads only when needed

            return import_command(args, cancel)
        if args.command == "split":
            return _split(args, cancel)
        return _convert(plugin, args)

    return cli.run(PROG, _parser(), dispatch, argv)


def _load(plugin: PluginBase, arg: str) -> FlowPuzzle:
    puzzle, _ = cli.read_input(plugin, arg)
    return puzzle


def _solve(plugin: PluginBase, args: argparse.Namespace, cancel: CancelToken) -> int:
    puzzle = _load(plugin, args.input)
    for note in puzzle.notes:
        print(f"note: {note}", file=sys.stderr)
    info: dict[str, object] = {}
    start = time.perf_counter()
    solutions = []
    stopped = False
    try:
        for solution in solve(puzzle, limit=args.limit, cancel=cancel, info=info, rules=args.rules):
            solutions.append(solution)
    except Cancelled:
        stopped = True
    seconds = time.perf_counter() - start
    result = SearchOutcome.after(len(solutions), args.limit, cancel, cancelled=stopped)
    if args.json:
        out = {
            "kind": "flow",
            "rules": info.get("rules"),
            "solutions": [s.to_json() for s in solutions],
            "count": result.count,
            "complete": result.complete,
            "unique": result.unique,
            "stop": result.stop,
            "verdict": result.describe(info.get("verdict")),
            "seconds": round(seconds, 4),
        }
        for key in ("proven", "hint"):
            if key in info:
                out[key] = info[key]
        print(json.dumps(out))
    else:
        for solution in solutions:
            print(f"# {solution.label}")
            print("\n".join(solution.grid))
        proven = f"; proven: {info['proven']}" if "proven" in info else ""  # a proof cut short
        print(f"{result.describe(info.get('verdict'))}{proven} ({seconds:.3f} s)")
        if "hint" in info:
            print(f"note: {info['hint']}", file=sys.stderr)
    return 0


def _generate(args: argparse.Namespace, cancel: CancelToken) -> int:
    start = time.perf_counter()
    made = generate(args.width, args.height, args.colours, seed=args.seed, cancel=cancel)
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


def _convert(plugin: PluginBase, args: argparse.Namespace) -> int:
    puzzle, entries = cli.read_input(plugin, args.input)  # a drawn answer goes on to pzprv3
    for note in puzzle.notes:  # what the reader read past ("the file holds 12 puzzles; ...")
        print(f"note: {note}", file=sys.stderr)
    for lost in _lost_in(puzzle, args.to):
        form = "'W H'" if args.to == "wh" else args.to
        print(f"note: the {form} form has no place for {lost}; it is left out", file=sys.stderr)
    if args.to == "spaced":
        sys.stdout.write(codec.serialize_spaced(puzzle))
    elif args.to == "labels":
        sys.stdout.write(codec.serialize(codec.to_label_form(puzzle)))
    elif args.to == "mnemonic":
        sys.stdout.write(codec.serialize(codec.to_mnemonic_form(puzzle)))
    elif args.to == "url":
        print(pzpr.encode_url(puzzle))
    elif args.to == "pzprv3":
        sys.stdout.write(pzpr.write_pzprv3(puzzle, entries))
    elif args.to == "wh":
        sys.stdout.write(sized.serialize(puzzle))
    else:
        sys.stdout.write(codec.serialize(puzzle))
    return 0


def _lost_in(puzzle: FlowPuzzle, form: str) -> list[str]:
    """What of the puzzle the other tools' forms cannot hold: read back, it is solved otherwise
    (a Numberlink puzzle under Flow rules), so the user is told."""
    if form not in ("wh", "url", "pzprv3"):
        return []  # our own forms keep the header lines
    lost = []
    if form == "wh" and puzzle.rules == NUMBERLINK:  # URLs and pzprv3 say it (numlin, 'e')
        lost.append("Numberlink rules (read back, it is solved under Flow rules: every cell filled)")
    if form == "wh" and puzzle.labels:
        lost.append("'labels: shown'")
    if puzzle.look != AUTO_LOOK:
        lost.append(f"the look '{puzzle.look}'")
    return lost


def _split(args: argparse.Namespace, cancel: CancelToken) -> int:
    """Each puzzle of a collection to ``--to-dir``/STEM-K.txt (K from 1), never over an existing
    file; then a line per puzzle: written (where) or refused (why). Exit 0 when every puzzle was
    written, 1 when some were refused."""
    folder = pack_folder(args.to_dir)
    source = Path(args.collection)
    puzzles = [(line, found) for _, line, found in collection_files.read_all(read_text(source))]
    width = len(str(len(puzzles)))
    rows: list[dict[str, object]] = []
    for k, (line, found) in enumerate(puzzles, start=1):
        cancel.raise_if_cancelled()
        target = folder / f"{source.stem}-{k:0{width}d}.txt"
        try:
            if isinstance(found, InputError):
                raise found
            write_new(target, codec.serialize(found))
            rows.append({"puzzle": k, "line": line, "status": "written", "file": str(target)})
        except InputError as exc:
            rows.append({"puzzle": k, "line": line, "status": "refused", "reason": str(exc)})
    written = sum(row["status"] == "written" for row in rows)
    if args.json:
        out = {"kind": "flow-split", "written": written, "refused": len(rows) - written, "puzzles": rows}
        print(json.dumps(out))
    else:
        for row in rows:
            if row["status"] == "written":
                print(f"written  puzzle {row['puzzle']} (line {row['line']}) -> {row['file']}")
            else:  # the reason names the line
                print(f"refused  puzzle {row['puzzle']}: {row['reason']}")
        print(f"{written} written, {len(rows) - written} refused, into {folder}")
    return EXIT_OK if written == len(rows) else EXIT_RULES
