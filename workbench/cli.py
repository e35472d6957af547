"""Command line: the same plug-ins as the GUI, headless.

``python -m workbench`` with no command starts the GUI. Bad input never shows a traceback: one line
on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

from solvers.common import cli, registry
from solvers.common.cancel import CancelToken
from solvers.common.cli import Parser, UsageError, add_json, add_timeout
from solvers.common.errors import InputError
from solvers.common.palette import PALETTES
from solvers.common.protocol import EXPLAIN, GAME, SOLVE, PluginBase
from solvers.common.solve_stream import stream_solutions
from solvers.common.words import check_status, check_text
from workbench.drawing import document_drawing

COMMANDS = ("solve", "check", "export", "explain", "kinds")
PROG = "workbench"
MAX_LIMIT = 10**9


class _ShellParser(Parser):
    """The shell's parser: an option it does not know may be a module command's (``solve flow URL
    --rules numberlink`` instead of ``flow solve URL --rules numberlink``); the error says where."""

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            message = f"unrecognized arguments: {' '.join(extras)}"
            if hasattr(parsed, "kind"):  # a command on one module's puzzle
                kind = parsed.kind if parsed.kind in registry.plugins() else "KIND"
                message += f" (module commands take more options: {PROG} {kind} --help)"
            self.error(message)
        return parsed


def _build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of the shell's commands. The ``export`` options' ranges and defaults live with the
    Qt renderer, so they are added only when ``command`` is ``export``: no other command (nor the
    overall ``--help``) loads Qt."""
    parser = _ShellParser(prog=PROG, description="Puzzle Workbench command line")
    sub = parser.add_subparsers(dest="command", required=True)

    solve = sub.add_parser("solve", help="solve a puzzle (or analyse a game position)")
    solve.add_argument("kind")
    solve.add_argument("input", help="file path, or the puzzle itself (URL, code) where the format allows")
    solve.add_argument(
        "--limit",
        type=cli.int_range(0, MAX_LIMIT),
        default=2,
        help="stop after N solutions (0 = all; default 2)",
    )
    add_json(solve)
    solve.add_argument("--export", metavar="OUT", help="also export the first solution (.png/.svg/.pdf)")
    add_timeout(solve)

    check = sub.add_parser("check", help="check a puzzle (with its entries) against the rules")
    check.add_argument("kind")
    check.add_argument("input")
    add_json(check)

    export = sub.add_parser("export", help="export a diagram to PNG, SVG or PDF")
    export.add_argument("kind")
    export.add_argument("input")
    export.add_argument("out")
    export.add_argument("--solved", action="store_true", help="draw the first solution")
    if command == "export":
        _add_export_options(export)
    add_timeout(export)

    explain = sub.add_parser("explain", help="step-by-step deductions (modules that have them)")
    explain.add_argument("kind")
    explain.add_argument("input")
    explain.add_argument(
        "--export-step",
        nargs=2,
        metavar=("N", "OUT"),
        help="instead of listing the steps, export the board as shown after step N (0 = start) "
        "to OUT (.png/.svg/.pdf)",
    )
    add_json(explain)
    add_timeout(explain)

    kinds = sub.add_parser("kinds", help="list the puzzle and game modules")
    add_json(kinds)
    return parser


def _add_export_options(export: argparse.ArgumentParser) -> None:
    from widgets.render import CELL_SIZE_RANGE, MARGIN_RANGE, ExportOptions

    defaults = ExportOptions()  # the one place export defaults live
    export.add_argument(
        "--cell-size",
        type=cli.float_range(*CELL_SIZE_RANGE),
        default=defaults.cell_size,
        help="pixels (1/96 inch, in every format) per cell; default: legible, at least 600 on the long side",
    )
    export.add_argument(
        "--margin", type=cli.float_range(*MARGIN_RANGE), default=defaults.margin, help="pixels"
    )
    export.add_argument("--transparent", action="store_true", default=defaults.transparent)
    export.add_argument("--palette", choices=sorted(PALETTES), default=defaults.palette)


def _load(plugin: PluginBase, arg: str) -> tuple[Any, Any]:
    try:
        return cli.read_input(plugin, arg)
    except InputError as exc:  # another module's file says which kind reads it (as Open does)
        from solvers.common.limits import read_user_text
        from workbench.pasted_text import with_other_readers

        path = _existing_file(arg)
        if path is None:
            raise exc from None
        try:
            text = read_user_text(path)
        except (OSError, ValueError):
            raise exc from None
        raise InputError(with_other_readers(str(exc), text, plugin, cli=True)) from None


def _existing_file(given: str) -> Path | None:
    """``given`` as a file that exists, or None for text, a URL or standard input (the reader's own
    test, ``parse_document_input``)."""
    try:
        return Path(given) if len(given) < 4096 and "\n" not in given and Path(given).is_file() else None
    except (OSError, ValueError):  # a NUL byte or a name too long for the system
        return None


def cmd_solve(args: argparse.Namespace, cancel: CancelToken) -> int:
    plugin = registry.get(args.kind)
    if SOLVE not in plugin.meta.capabilities:
        raise InputError(f"{plugin.meta.name} has no solver")
    puzzle, entries = _load(plugin, args.input)
    puzzle, where = plugin.solve_position(puzzle, entries)  # a saved game: where it stands
    options = plugin.solve_options(entries)
    start = time.perf_counter()
    if where and not args.json:
        print(f"Position: {where}")
    solutions: list[Any] = []  # JSON: all of them (one object); text: the first, for --export
    numbers = itertools.count(1)

    def emit(solution: Any) -> None:
        # Text is printed as it comes: '--limit 0' on an empty Nine Tiles town lists 526 M towns,
        # and collecting them first printed nothing for minutes.
        if args.json or not solutions:
            solutions.append(solution)
        if not args.json:
            _print_solution(solution, next(numbers))

    solved = stream_solutions(plugin, puzzle, args.limit, options, cancel, lambda _info: None, emit)
    result = solved.outcome
    info = solved.info  # the solver's own info is printed as it is
    seconds = time.perf_counter() - start
    if args.export and solutions and not cancel.cancelled:
        _export(plugin, puzzle, solutions[0], args.export, _input_name(args.input))
    if args.json:
        out: dict[str, Any] = {
            "kind": plugin.meta.id,
            "solutions": [s.to_json() for s in solutions],
            "count": result.count,
            "complete": result.complete,
            # a game position has a value ("verdict"), not a count of solutions to be unique
            "unique": None if GAME in plugin.meta.capabilities else result.unique,
            "stop": result.stop,
            "seconds": round(seconds, 6),
        }
        if where:
            out["position"] = where
        for key, value in info.items():
            out.setdefault(key, value)
        if solved.verdict is not None:
            out.setdefault("verdict", solved.verdict)
        print(json.dumps(out, ensure_ascii=False))
    else:
        extra = "".join(f", {k}: {v}" for k, v in info.items() if isinstance(v, (str, int, float)))
        print(f"{solved.describe()} ({seconds:.3f} s{extra})")
    return 0


def _print_solution(solution: Any, i: int) -> None:
    name = solution.label if solution.label.startswith("Solution") else f"Solution {i}"
    label = f" ({solution.label})" if solution.label and solution.label != name else ""
    print(f"{name}{label}:")
    print("\n".join(solution.grid))
    print(flush=True)


def cmd_check(args: argparse.Namespace, cancel: CancelToken) -> int:
    plugin = registry.get(args.kind)
    puzzle, entries = _load(plugin, args.input)
    result = plugin.check(puzzle, entries)
    status = check_status(result)
    # What the reader left out or read past (e.g. lines a file draws that no pipe holds): the
    # verdict is about what was read.
    notes = [str(note) for note in getattr(puzzle, "notes", ())]
    if args.json:
        print(
            json.dumps(
                {
                    "kind": plugin.meta.id,
                    "status": status,
                    "complete": result.complete,
                    "ok": result.ok,
                    "violations": [
                        {"code": v.code, "message": v.message, "cells": [list(c) for c in v.cells]}
                        for v in result.violations
                    ],
                    "notes": notes,
                }
            )
        )
    else:
        print(check_text(result))
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
    # One rule for every module, like a linter: 1 = a rule is broken (unfinished is not broken),
    # 2 = unreadable input.
    return 1 if status == "broken" else 0


def _export(plugin: PluginBase, puzzle: Any, solution: Any, out: str, name: str, **options: Any) -> Path:
    from workbench.export import ExportOptions, export, titled
    from workbench.qt_app import ensure_app

    ensure_app(headless=True)
    picture = titled(document_drawing(plugin, puzzle, None, solution), name, plugin.meta.name)
    return export(picture, out, ExportOptions(**options))


def cmd_export(args: argparse.Namespace, cancel: CancelToken) -> int:
    plugin = registry.get(args.kind)
    puzzle, entries = _load(plugin, args.input)
    solution = None
    if args.solved:
        if SOLVE not in plugin.meta.capabilities:
            raise InputError(f"{plugin.meta.name} has no solver")
        solve_options = plugin.solve_options(entries)
        puzzle, _ = plugin.solve_position(puzzle, entries)  # the solution drawn on what it answers
        solution = next(iter(plugin.solve(puzzle, limit=1, cancel=cancel, **solve_options)), None)
        cancel.raise_if_cancelled()
        if solution is None:
            raise InputError("no solution to draw (the puzzle has none)")
    from workbench.export import ExportOptions, export, titled
    from workbench.qt_app import ensure_app

    ensure_app(headless=True)
    options = ExportOptions(args.cell_size, args.margin, args.transparent, args.palette)
    picture = titled(
        document_drawing(plugin, puzzle, entries, solution), _input_name(args.input), plugin.meta.name
    )
    path = export(picture, args.out, options)
    print(path)
    return 0


def _input_name(given: str) -> str:
    """The exported file's title: the input file's name; none for text, a URL or standard input."""
    path = _existing_file(given)
    return path.stem if path is not None else ""


def cmd_explain(args: argparse.Namespace, cancel: CancelToken) -> int:
    plugin = registry.get(args.kind)
    if EXPLAIN not in plugin.meta.capabilities:
        raise InputError(f"{plugin.meta.name} has no step-by-step explanation")
    puzzle, _ = _load(plugin, args.input)
    if args.export_step:
        return _export_step(plugin, puzzle, args, cancel)
    report = plugin.explain(puzzle, cancel)
    cancel.raise_if_cancelled()
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        for i, step in enumerate(report.get("steps", []), start=1):
            print(f"{i:3d}. [{step.get('rule', '')}] {step.get('text', '')}")
        for key in ("grade", "trials", "solved"):
            if key in report:
                print(f"{key}: {report[key]}")
    return 0


def _export_step(plugin: PluginBase, puzzle: Any, args: argparse.Namespace, cancel: CancelToken) -> int:
    draw_step = getattr(plugin, "draw_explanation_step", None)
    if draw_step is None:
        raise InputError(f"--export-step: {plugin.meta.name} cannot draw explanation steps")
    text, out = args.export_step
    try:
        step = cli.parse_int(text)
    except argparse.ArgumentTypeError as exc:
        raise InputError(f"--export-step N: {exc}") from None
    if step < 0:
        raise InputError(f"--export-step: N must be 0 or more, got {step}")
    dl = draw_step(puzzle, step, cancel)
    cancel.raise_if_cancelled()
    from workbench.export import export, titled
    from workbench.qt_app import ensure_app

    ensure_app(headless=True)
    # The file's title as File > Export gives it, with the step: "a_6x6 (Toichika), step 3".
    picture = titled(dl, _input_name(args.input), plugin.meta.name)
    path = export(dataclasses.replace(picture, title=f"{picture.title}, step {step}"), out)
    print(json.dumps({"step": step, "exported": str(path)}) if args.json else path)
    return 0


def cmd_kinds(args: argparse.Namespace, cancel: CancelToken) -> int:
    rows = [
        {
            "id": p.meta.id,
            "name": p.meta.name,
            "aliases": list(p.meta.aliases),
            "capabilities": sorted(p.meta.capabilities),
            "extensions": list(p.meta.extensions),
            "description": p.meta.description,
        }
        for p in registry.plugins().values()
    ]
    rows += [{"id": name, "unavailable": reason} for name, reason in registry.unavailable().items()]
    if args.json:
        print(json.dumps(rows))
    else:
        for row in rows:
            if "unavailable" in row:
                print(f"{row['id']:<10} unavailable: {row['unavailable']}")
            else:
                print(f"{row['id']:<10} {row['name']:<18} {row['description']}")
    return 0


HANDLERS = {
    "solve": cmd_solve,
    "check": cmd_check,
    "export": cmd_export,
    "explain": cmd_explain,
    "kinds": cmd_kinds,
}


def _dispatch(args: argparse.Namespace, cancel: CancelToken) -> int:
    return HANDLERS[args.command](args, cancel)


def _gui(argv: list[str]) -> int:
    parser = Parser(prog=PROG, description="Start Puzzle Workbench")
    parser.add_argument("files", nargs="*", help="puzzle files to open")
    parser.add_argument("--kind", help="module to show first")
    parser.add_argument("--open", dest="open_input", help="file or inline puzzle to open (with --kind)")
    parser.add_argument("--screenshot", metavar="OUT.png", help="save a screenshot of the window and exit")
    parser.add_argument("--size", default="1280x800", help="window size for --screenshot (WxH)")
    parser.add_argument("--solve", action="store_true", help="with --screenshot: solve first")
    try:
        args = parser.parse_args(argv)
    except InputError as exc:
        return cli.fail(PROG, exc)
    from workbench.app import run_gui

    return run_gui(args)


def _print_help() -> int:
    _build_parser().print_help()
    print("\nModule commands: python -m workbench KIND ... (see python -m workbench KIND --help)")
    print("GUI: python -m workbench [FILES] [--kind KIND] [--open INPUT] [--screenshot OUT.png]")
    print("Also: --version; --install-desktop / --uninstall-desktop (menu entry, icons, file types)")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in COMMANDS:
            return cli.run(PROG, _build_parser(argv[0]), _dispatch, argv)
        if argv and argv[0] in ("-h", "--help", "help"):
            return _print_help()
        if argv[:1] in (["--install-desktop"], ["--uninstall-desktop"]) and len(argv) == 1:
            from workbench import desktop

            return desktop.main("install" if argv[0] == "--install-desktop" else "uninstall")
        if argv[:1] == ["--version"]:
            from workbench import __version__

            print(f"puzzle-workbench {__version__}")
            return 0
        if argv and not argv[0].startswith("-"):
            try:
                plugin = registry.get(argv[0])
            except InputError:
                if Path(argv[0]).exists():
                    return _gui(argv)
                raise UsageError(
                    f"unknown command or kind '{argv[0]}' "
                    f"(commands: {', '.join(COMMANDS)}; kinds: {', '.join(registry.metas())})"
                ) from None
            return plugin.cli(argv[1:])
        return _gui(argv)
    except InputError as exc:
        return cli.fail(PROG, exc)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return cli.EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
