"""Module commands: ``python -m workbench ninetiles score|enumerate|stats|best ...``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from solvers.common import cli
from solvers.common.cancel import CancelToken
from solvers.common.cli import Parser, add_json, add_timeout
from solvers.common.errors import InputError
from solvers.common.protocol import PluginBase

PROG = "workbench ninetiles"
PAGE = (0, 10**6)  # --limit: towns listed per page
OFFSET = (0, 10**12)
THEME = (1, 26)
STORE_HELP = (
    "the store folder (default: $PUZZLE_WORKBENCH_CACHE/ninetiles, else ~/.cache/puzzle-workbench/ninetiles)"
)


def _build() -> argparse.ArgumentParser:
    parser = Parser(prog=PROG, description="Nine Tiles Panic tools")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="validity, roads and the 26 theme scores of a town code")
    score.add_argument(
        "code", help="an 18-character town code: 9 tile numbers, then 9 facings (see docs/ninetiles.md)"
    )
    add_json(score)
    enum = sub.add_parser("enumerate", help="enumerate and score every town into the store")
    enum.add_argument("--store", type=cli.folder_path, default=None, metavar="DIR", help=STORE_HELP)
    enum.add_argument(
        "--workers",
        type=cli.int_range(1, 256),
        default=None,
        metavar="N",
        help="worker processes (default: CPUs)",
    )
    enum.add_argument(
        "--subset", type=cli.int_range(1, 10**6), default=None, help="test-sized run: only N synonym towns"
    )
    add_json(enum)
    add_timeout(enum)
    stats = sub.add_parser("stats", help="headline figures of the store")
    stats.add_argument("--store", type=cli.folder_path, default=None, metavar="DIR", help=STORE_HELP)
    add_json(stats)
    add_timeout(stats)
    best = sub.add_parser(
        "best",
        help="the best towns for three theme cards",
        description="The towns that score best on three theme cards: most of the three at their maximum, "
        "then the smallest rank distance (see docs/ninetiles.md). Needs the store (run enumerate first).",
    )
    best.add_argument(
        "themes", type=cli.int_range(*THEME), nargs=3, metavar="THEME", help="three theme card numbers, 1-26"
    )
    best.add_argument("--store", type=cli.folder_path, default=None, metavar="DIR", help=STORE_HELP)
    best.add_argument(
        "--limit",
        type=cli.int_range(*PAGE),
        default=20,
        metavar="K",
        help="list at most K vectors and towns (default 20)",
    )
    best.add_argument(
        "--offset",
        type=cli.int_range(*OFFSET),
        default=0,
        metavar="O",
        help="skip the first O optimal towns (page through them; default 0)",
    )
    add_json(best)
    add_timeout(best)
    towns = sub.add_parser("towns", help="towns having a given score vector (paged)")
    towns.add_argument("vector", help="26 comma-separated scores, theme 1..26")
    towns.add_argument("--store", type=cli.folder_path, default=None, metavar="DIR", help=STORE_HELP)
    towns.add_argument("--offset", type=cli.int_range(*OFFSET), default=0, metavar="O", help="skip O towns")
    towns.add_argument(
        "--limit", type=cli.int_range(*PAGE), default=20, metavar="K", help="list K towns (default 20)"
    )
    add_json(towns)
    add_timeout(towns)
    return parser


def score_report(code: str) -> dict:
    from solvers.ninetiles.scoring import score_town
    from solvers.ninetiles.town import Town, trace_roads, validity

    text = code.strip()
    if len(text) != 18 or not (text.isascii() and text.isdigit()):  # '²' passes isdigit()
        raise InputError(f"a town code is 18 digits (9 tiles 0-8, 9 directions 0-7), got {code[:40]!r}")
    town = Town.from_code(text)
    ok, reason = validity(town)
    roads = trace_roads(town)
    return {
        "code": town.code,
        "valid": ok,
        "reason": reason,
        # An invalid town still gets the scores of its tiles as laid (roads traced as far as they
        # match): a setter sees what a fix would be worth; "valid" says it is not a legal town.
        "scores": score_town(town),
        "roads": [{"length": r.length, "objects": r.object_labels()} for r in roads],
    }


def _print_score(report: dict, as_json: bool) -> None:
    from solvers.ninetiles.scoring import THEME_NAMES

    if as_json:
        print(json.dumps(report))
        return
    print(f"town {report['code']}: {'valid' if report['valid'] else 'INVALID - ' + str(report['reason'])}")
    for i, road in enumerate(report["roads"], start=1):
        print(f"  road {i}: length {road['length']}, objects {' '.join(road['objects']) or '-'}")
    if not report["valid"]:
        print("  scores of the tiles as laid (not a legal town):")
    if report["scores"] is not None:
        for n, (name, value) in enumerate(zip(THEME_NAMES, report["scores"], strict=False), start=1):
            print(f"  {n:2d} {name:<20} {value:3d}")


def main(argv: Sequence[str], plugin: PluginBase | None = None) -> int:
    return cli.run(PROG, _build(), _dispatch, argv)


def _vector(text: str) -> list[int]:
    parts = text.replace("[", "").replace("]", "").split(",")
    try:
        vector = [cli.parse_int(x) for x in parts]
    except argparse.ArgumentTypeError as exc:
        raise InputError(f"bad score vector: {exc}") from None
    if len(vector) != 26:
        raise InputError(f"a score vector has 26 values, got {len(vector)}")
    return vector


def _dispatch(args: argparse.Namespace, cancel: CancelToken) -> int:
    if args.command == "score":
        code = args.code
        if not code.strip().isdigit():  # a town file, as 'solve' and 'check' take: its code
            from solvers.ninetiles import PLUGIN

            code = PLUGIN.parse_input(code).code
        _print_score(score_report(code), args.json)
        return 0
    if args.command == "enumerate":
        return _enumerate(args, cancel)
    from solvers.ninetiles.store import open_store

    store = open_store(args.store)
    if args.command == "stats":
        _emit(store.stats(), args.json)
        return 0
    if args.command == "best":
        _emit(store.best(tuple(args.themes), limit=args.limit, offset=args.offset), args.json)
        return 0
    vector = _vector(args.vector)
    vid = store.find_vector(vector)
    total = 0 if vid is None else int(store.count[vid])
    codes = [] if vid is None else [c for c, _ in store.towns_of_vectors([vid], args.offset, args.limit)]
    _emit({"score_vector": vector, "town_count": total, "offset": args.offset, "towns": codes}, args.json)
    return 0


def _emit(data: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(data))
    else:
        print(json.dumps(data, indent=1))


def _enumerate(args: argparse.Namespace, cancel: CancelToken) -> int:
    from solvers.ninetiles.store import default_store_dir
    from solvers.ninetiles.store_build import build, stderr_progress

    folder = args.store or default_store_dir()
    report = build(
        folder,
        workers=args.workers,
        subset=args.subset,
        cancel=cancel,
        progress=stderr_progress(),
        announce=lambda: print(f"ninetiles: building the store in {folder}", file=sys.stderr),
    )
    out = {
        "store": str(folder),
        "synonym_towns": report.synonym_towns,
        "towns": report.towns,
        "score_vectors": report.score_vectors,
        "seconds": round(report.seconds, 1),
        "enumerate_seconds": round(report.enumerate_seconds, 1),
        "merge_seconds": round(report.merge_seconds, 1),
        "towns_per_second": round(report.towns / report.enumerate_seconds)
        if report.enumerate_seconds
        else None,
        "store_bytes": report.store_bytes,
    }
    _emit(out, args.json)
    return 0
