"""Module commands: ``python -m workbench ninetiles score|enumerate|stats|best ...``."""

from __future__ import annotations

import argparse
import json
import sys

from solvers.common.errors import InputError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise InputError(message)


def _build() -> argparse.ArgumentParser:
    parser = _Parser(prog="workbench ninetiles", description="Nine Tiles Panic tools")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="validity, roads and the 26 theme scores of a town code")
    score.add_argument("code")
    score.add_argument("--json", action="store_true")
    return parser


def score_report(code: str) -> dict:
    from solvers.ninetiles.scoring import score_town
    from solvers.ninetiles.town import Town, trace_roads, validity

    text = code.strip()
    if len(text) != 18 or not text.isdigit():
        raise InputError(f"a town code is 18 digits (9 tiles 0-8, 9 directions 0-7), got {code!r}")
    town = Town.from_code(text)
    ok, reason = validity(town)
    roads = trace_roads(town)
    return {
        "code": town.code,
        "valid": ok,
        "reason": reason,
        "scores": score_town(town) if ok else None,
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
    if report["scores"] is not None:
        for n, (name, value) in enumerate(zip(THEME_NAMES, report["scores"], strict=False), start=1):
            print(f"  {n:2d} {name:<20} {value:3d}")


def main(argv: list[str]) -> int:
    try:
        args = _build().parse_args(argv)
        if args.command == "score":
            _print_score(score_report(args.code), args.json)
            return 0
    except InputError as exc:
        print(f"ninetiles: {exc}", file=sys.stderr)
        return 2
    return 2
