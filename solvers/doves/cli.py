"""Module commands: ``python -m workbench doves {count,analyse,perft,puzzles,retro,tablebase,ai} ...``."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from solvers.common import cli
from solvers.common.cancel import CancelToken
from solvers.common.cli import Parser, add_json, add_timeout
from solvers.common.errors import InputError
from solvers.common.protocol import PluginBase
from solvers.doves import engine
from solvers.doves.analysis import LEVELS, final_value
from solvers.doves.counting import count_positions
from solvers.doves.game import PlayEntries, shown_position
from solvers.doves.model import COLOUR_NAMES, Position, dove_name, parse_side
from solvers.doves.play import arrangement_problems
from solvers.doves.rules import JUDGES, Rules

PROG = "workbench doves"
# perft at depth 6 takes minutes (648 M sequences from the start); 7 is the most --timeout can tame.
PERFT_DEPTHS = (1, 7)
ANALYSE_DEPTHS = (1, 40)
PUZZLE_PLIES = (1, 15)
SEARCH_DEPTH = 9  # the search a tablebase query falls back to (the plug-in's default depth)


def _parser() -> argparse.ArgumentParser:
    p = Parser(prog=PROG, description="Tokyo Doves tools")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("count", help="exact number of positions (2..12 doves, up to symmetry)")
    c.add_argument(
        "--convention",
        choices=("project", "blog"),
        default="project",
        help="project: orbits of placed positions (default); blog: the 2022 blog's weighting, which "
        "compares symmetric images before translation (509,462,034,903; see docs/doves.md)",
    )
    add_json(c)
    add_timeout(c)
    for name in ("analyse", "analyze"):
        a = sub.add_parser(name, help="exact Win(n)/Lose(n) by iterative deepening")
        a.add_argument("board", help="board string such as 'bB;T YA' or a .doves file")
        a.add_argument("--to-move", default=None, help="red (default) or green")
        a.add_argument(
            "--depth",
            type=cli.int_range(*ANALYSE_DEPTHS),
            default=9,
            help="maximum depth in plies (default 9)",
        )
        add_json(a)
        add_timeout(a)
    f = sub.add_parser("perft", help="number of legal action sequences of each length")
    f.add_argument("board", nargs="?", default="b;B")
    f.add_argument("--to-move", default=None)
    f.add_argument("--depth", type=cli.int_range(*PERFT_DEPTHS), default=4)
    add_json(f)
    add_timeout(f)
    z = sub.add_parser("puzzles", help="find 'win in n' puzzles (unique first action) in random games")
    z.add_argument(
        "--win", type=cli.int_range(*PUZZLE_PLIES), default=5, help="plies of the forced win (odd, default 5)"
    )
    z.add_argument("--count", type=cli.int_range(1, 1000), default=5)
    z.add_argument("--seed", type=cli.int_range(0, 2**63 - 1), default=0)
    z.add_argument(
        "--any-first-move", action="store_true", help="keep puzzles with several winning first actions"
    )
    add_json(z)
    add_timeout(z)
    r = sub.add_parser("retro", help="solve a reduced game exactly (retrograde analysis)")
    r.add_argument("red", help="red's doves besides the Boss, e.g. 'AT' (letters A Y M T H)")
    r.add_argument("green", nargs="?", default=None, help="green's doves (default: the same as red)")
    r.add_argument("--query", default=None, metavar="BOARD", help="also print the value of this position")
    r.add_argument(
        "--check",
        type=cli.int_range(0, 100_000),
        default=0,
        metavar="N",
        help="cross-check N random classes with the Win(n) search",
    )
    r.add_argument("--check-depth", type=cli.int_range(1, 15), default=7)
    r.add_argument(
        "--store",
        type=cli.folder_path,
        default=None,
        metavar="DIR",
        help="keep the tables on disk in DIR (memory-mapped; a rerun resumes)",
    )
    r.add_argument(
        "--workers",
        type=cli.int_range(0, 1024),
        default=0,
        metavar="N",
        help="run on a local Dask cluster of N workers (needs the [cluster] extra and --store)",
    )
    r.add_argument("--scheduler", default=None, metavar="ADDRESS", help="run on this Dask scheduler")
    r.add_argument(
        "--max-classes",
        type=cli.int_range(1, 10**13),
        default=50_000_000,
        help="refuse larger variants (default 50,000,000 classes)",
    )
    r.add_argument(
        "--method",
        choices=("forward", "backward"),
        default="forward",
        help="forward: stored move graph and passes (default); backward: predecessor generation "
        "(un-move/un-put/un-remove) with a counter per class, no stored graph (in memory, or in "
        "--store, also with --workers/--scheduler)",
    )
    add_json(r)
    add_timeout(r)
    _tablebase_parser(sub)
    m = sub.add_parser("ai", help="the AI's action for a position")
    m.add_argument("board")
    m.add_argument("--to-move", default=None)
    # The levels are 1..N without gaps: the range names them in a wrong value's message too.
    levels = cli.int_range(min(LEVELS), max(LEVELS))
    m.add_argument("--level", type=levels, default=3, choices=sorted(LEVELS))
    add_json(m)
    add_timeout(m)
    for name in ("analyse", "analyze", "perft", "ai", "retro"):
        sp = sub.choices[name]
        document = name != "retro"  # these read a board or a .doves file, whose rules: line counts
        sp.add_argument(
            "--no-remove",
            action="store_true",
            help="play without the optional Remove action"
            + (" (overrides the file's rules: line)" if document else ""),
        )
        sp.add_argument(
            "--both",
            default=None if document else "mover_loses",
            choices=sorted(JUDGES),
            help="result when both Bosses are surrounded at once (default: the file's rules: line, "
            "else the mover loses)"
            if document
            else "result when both Bosses are surrounded at once (default: the mover loses)",
        )
        if document:
            sp.add_argument(
                "--rules",
                default=None,
                metavar="OPTIONS",
                help="rule options as in a file's rules: line, e.g. 'remove=yes doves=AT/AY'; those "
                "given override the file's",
            )
    return p


def _document_rules(position: Position, args: argparse.Namespace) -> Position:
    """The board argument under its rules: the file's ``rules:`` line (defaults for a bare board),
    with each option given on the command line overriding the file's value of that option only."""
    rules = position.rules
    if args.rules is not None:
        given = Rules.from_text(args.rules)
        keys = {word.partition("=")[0].lower() for word in args.rules.split()}
        rules = replace(
            rules,
            allow_remove=given.allow_remove if "remove" in keys else rules.allow_remove,
            both_surrounded=given.both_surrounded if "both" in keys else rules.both_surrounded,
            doves=given.doves if "doves" in keys else rules.doves,
        )
    if args.no_remove:
        rules = replace(rules, allow_remove=False)
    if args.both is not None:
        rules = replace(rules, both_surrounded=args.both)
    return position.with_rules(rules)


def _tablebase_parser(sub: argparse._SubParsersAction) -> None:
    t = sub.add_parser("tablebase", help="build and query tablebases of reduced games")
    tsub = t.add_subparsers(dest="action", required=True)
    b = tsub.add_parser("build", help="solve a reduced game and store its table in the tablebase folder")
    b.add_argument("red", help="red's doves besides the Boss, e.g. 'AT' (letters A Y M T H)")
    b.add_argument("green", nargs="?", default=None, help="green's doves (default: the same as red)")
    b.add_argument(
        "--max-classes",
        type=cli.int_range(1, 10**13),
        default=50_000_000,
        help="refuse larger variants (default 50,000,000 classes)",
    )
    b.add_argument(
        "--method",
        choices=("backward", "forward"),
        default="backward",
        help="backward: predecessor generation, no stored graph (default: faster, less memory); "
        "forward: stored move graph and passes; both write the same table",
    )
    q = tsub.add_parser("query", help="exact value and perfect actions of a position from its table")
    q.add_argument("board", help="board string or .doves file (its rules: line names the variant)")
    q.add_argument("--to-move", default=None, help="red (default) or green")
    ls = tsub.add_parser("list", help="the stored tables")
    for sp in (b, q):
        sp.add_argument(
            "--rules",
            default=None,
            metavar="OPTIONS",
            help="rule options as in a file's rules: line, e.g. 'remove=no both=draw doves=AT/AY'",
        )
    for sp in (b, q, ls):
        sp.add_argument(
            "--dir",
            type=cli.folder_path,
            default=None,
            metavar="DIR",
            help="tablebase folder (default: the user data folder)",
        )
        add_json(sp)
        add_timeout(sp)


def _game_position(
    plugin: PluginBase,
    board: str,
    to_move: str | None,
    rules: Callable[[Position], Position] = lambda setup: setup,
) -> tuple[Position, str]:
    """Where the board argument stands, and the words naming it (``shown_position``): a ``.doves``
    file's set-up under ``rules`` (the file's own, or the options overriding them), with its
    ``moves:`` replayed. The one reading of a board for analyse, perft, ai, tablebase query and
    retro --query.

    ``--to-move`` sets the side of a set-up without moves; after moves the record decides the
    side, so it may only repeat it (the other side is one error line, not a silent override)."""
    setup, entries = cli.read_input(plugin, board)
    setup = rules(setup)
    actions = entries.actions if isinstance(entries, PlayEntries) else ()
    side = parse_side(to_move) if to_move is not None else None
    if side is not None and not actions:
        setup = setup.with_to_move(side)
    position, where = shown_position(setup, actions)
    if side is not None and side != position.to_move:
        raise InputError(
            f"--to-move {COLOUR_NAMES[side]} contradicts the file's moves: {where} "
            "(the moves decide the side to move; leave out --to-move)"
        )
    return position, where


def main(argv: Sequence[str], plugin: PluginBase) -> int:
    return cli.run(PROG, _parser(), lambda args, cancel: _dispatch(plugin, args, cancel), argv)


def _emit(data: dict[str, object], as_json: bool) -> None:
    if as_json:
        print(json.dumps(data))
    else:
        for key, value in data.items():
            print(f"{key}: {value}")


def _dispatch(plugin: PluginBase, args: argparse.Namespace, cancel: CancelToken) -> int:
    if args.command == "count":
        if args.convention == "blog":
            from solvers.doves.counting import count_blog

            _emit(count_blog().to_json(), args.json)
        else:
            _emit(count_positions().to_json(), args.json)
        return 0
    if args.command == "retro":
        return _retro(plugin, args, cancel)
    if args.command == "tablebase":
        return _tablebase(plugin, args, cancel)
    if args.command == "puzzles":
        from solvers.doves.analysis import find_puzzles

        found = [
            {"board": p.board_string(), "to_move": "red", "value": str(a.value), "solution": a.ssn}
            for p, a in find_puzzles(
                args.win, args.count, seed=args.seed, unique=not args.any_first_move, cancel=cancel
            )
        ]
        if args.json:
            print(json.dumps({"puzzles": found}))
        else:
            for item in found:
                print(f"{item['board']!r:24} {item['value']:8} {' '.join(item['solution'])}")
        return 0
    position, where = _game_position(plugin, args.board, args.to_move, lambda p: _document_rules(p, args))
    rules = position.rules
    outside = [d for d in position.cells() if not rules.hand >> d & 1]
    if outside:
        names = ", ".join(dove_name(d) for d in outside)
        raise InputError(f"the board holds {names}, outside the game doves={rules.doves_text()}")
    problems = arrangement_problems(position)
    if problems:
        raise InputError(problems[0].message)
    if args.command in ("analyse", "analyze"):
        result = final_value(position, max_depth=args.depth, cancel=cancel)
        if result is None:
            raise InputError("no analysis result")
        _emit(
            {
                "value": str(result.value),
                "best": result.ssn,
                "nodes": result.nodes,
                "seconds": round(result.seconds, 3),
                "depth": result.depth,
                "to_move": COLOUR_NAMES[position.to_move],
                "position": where,
            },
            args.json,
        )
        return 0
    if args.command == "perft":
        buf = engine.Buffers()
        counts = {}
        start = time.perf_counter()
        for d in range(1, args.depth + 1):
            cancel.raise_if_cancelled()  # one numba call per depth: the watchdog covers the deepest
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
                    rules.hand,
                )
            )
        _emit(
            {"perft": counts, "seconds": round(time.perf_counter() - start, 3), "position": where}, args.json
        )
        return 0
    from solvers.doves.analysis import choose_action
    from solvers.doves.rules import to_ssn

    action = choose_action(position, args.level, cancel=cancel)
    _emit(
        {"action": to_ssn(position, action) if action else None, "level": args.level, "position": where},
        args.json,
    )
    return 0


def _retro_backward(
    layout: Any, rules: Rules, args: argparse.Namespace, cancel: CancelToken, progress: Any
) -> tuple[Any, np.ndarray, Any]:
    """The backward solver in memory, or on disk in ``--store`` (here, or on Dask with
    ``--workers``/``--scheduler``): (result, values, stats)."""
    from solvers.doves.retro import backward_store

    if args.workers or args.scheduler:
        from solvers.doves.retro.cluster import solve_backward_distributed

        result, stats = solve_backward_distributed(
            layout, rules, args.store, max(1, args.workers), args.scheduler, cancel=cancel, progress=progress
        )
    elif args.store:
        run = backward_store.run_here(cancel, progress)
        result, stats = backward_store.solve_backward_stored(layout, rules, args.store, run, progress)
    else:
        from solvers.doves.retro.backward import solve_backward

        result, memory, stats = solve_backward(layout, rules, cancel=cancel, progress=progress)
        return result, memory.values, stats
    from solvers.doves.retro.storefiles import open_array

    return result, open_array(Path(args.store) / "values.npy", "values", np.int16, layout.size), stats


def _retro(plugin: PluginBase, args: argparse.Namespace, cancel: CancelToken) -> int:
    from solvers.doves.retro.layout import Layout, parse_kinds, variant_size
    from solvers.doves.retro.solve import DiskStore, save_result, solve, value_name

    red = parse_kinds(args.red, "red doves")
    green = red if args.green is None else parse_kinds(args.green, "green doves")
    size = variant_size(red, green)
    if size > args.max_classes:
        raise InputError(f"the variant has {size:,} classes, more than --max-classes {args.max_classes:,}")
    layout = Layout(red, green)
    rules = Rules(allow_remove=not args.no_remove, both_surrounded=args.both)
    query = _game_position(plugin, args.query, None)[0] if args.query is not None else None
    qindex = layout.rank(query) if query is not None else -1  # a foreign dove fails before the work
    if (args.workers or args.scheduler) and args.store is None:
        raise InputError("--workers/--scheduler need --store DIR (a directory every worker can reach)")
    if args.store is not None:
        cli.make_folder(args.store)
    progress = None if args.json else print
    extra: dict[str, object] = {}
    if args.method == "backward":
        result, values, stats = _retro_backward(layout, rules, args, cancel, progress)
        extra = {k: v for k, v in stats.to_json().items() if k != "seconds"}
    elif args.workers or args.scheduler:
        from solvers.doves.retro.cluster import solve_distributed

        result = solve_distributed(
            layout, rules, args.store, max(1, args.workers), args.scheduler, cancel=cancel, progress=progress
        )
        values = DiskStore(args.store, layout).values
    else:
        store = DiskStore(args.store, layout) if args.store else None
        result, used = solve(layout, rules, store, cancel=cancel, progress=progress)
        values = used.values
    if args.store:
        save_result(args.store, result)
    data = result.to_json()
    data["method"] = args.method
    if extra:
        data["backward"] = extra
    if args.check:
        from solvers.doves.retro.check import cross_check

        checked = cross_check(layout, rules, values, args.check, args.check_depth, cancel=cancel)
        data["check"] = {
            "checked": checked.checked,
            "decided_within_depth": checked.decided,
            "depth": args.check_depth,
            "mismatches": [list(m) for m in checked.mismatches[:20]],
        }
    if query is not None:
        data["query"] = {
            "board": query.board_string(),
            "to_move": COLOUR_NAMES[query.to_move],
            "value": value_name(int(values[qindex])),
        }
    _emit(data, args.json)
    return 1 if args.check and data["check"]["mismatches"] else 0  # type: ignore[index]


def _tablebase(plugin: PluginBase, args: argparse.Namespace, cancel: CancelToken) -> int:
    import sys
    from dataclasses import replace
    from pathlib import Path

    from solvers.doves import tablebase
    from solvers.doves.retro.layout import parse_kinds
    from solvers.doves.retro.solve import value_name

    folder = Path(args.dir) if args.dir else None
    if args.action == "list":
        entries: list[dict[str, str | int]] = []
        for path in tablebase.list_tables(folder):
            try:  # one damaged file is listed as such; the others stay usable
                opened = tablebase.read_table(path)
                entries.append(
                    {
                        "path": str(path),
                        "rules": opened.rules.to_text(),
                        "classes": int(opened.values.shape[0]),
                    }
                )
            except InputError as exc:
                entries.append({"path": str(path), "problem": str(exc)})
        if args.json:
            print(json.dumps({"tables": entries}))
        else:
            print(f"folder: {folder or tablebase.default_dir()}")
            for entry in entries:
                name = Path(str(entry["path"])).name
                if "problem" in entry:
                    print(f"{name}: UNUSABLE ({entry['problem']})")
                else:
                    rules = Rules.from_text(str(entry["rules"]))
                    print(f"{name}: {rules.describe()}, {int(entry['classes']):,} classes")
        return 0
    given = Rules.from_text(args.rules) if args.rules is not None else None
    if args.action == "build":
        red = parse_kinds(args.red, "red doves")
        green = red if args.green is None else parse_kinds(args.green, "green doves")
        rules = replace(given or Rules(), doves=(red, green))
        cli.make_folder(folder or tablebase.default_dir())  # before the solve, not after it

        def progress(text: str) -> None:
            print(text, file=sys.stderr, flush=True)

        _, summary = tablebase.build(rules, folder, cancel, progress, args.max_classes, args.method)
        keys = ["variant", "rules", "classes", "start_value", "win", "loss", "draw", "longest_win"]
        keys += ["passes", "method", "build_seconds", "classes_per_second", "bytes", "path"]
        _emit({k: summary[k] for k in keys}, args.json)
        return 0
    # --rules names the whole variant, in place of the file's
    position, where = _game_position(
        plugin, args.board, args.to_move, lambda p: p if given is None else p.with_rules(given)
    )
    rules = position.rules
    problems = arrangement_problems(position)
    if problems:
        raise InputError(problems[0].message)
    if rules.doves is None:
        raise InputError(
            "no table covers the full game: name the reduced game with --rules 'doves=RED/GREEN' "
            "or a 'rules: doves=...' line in the file"
        )
    table = tablebase.find_table(rules, folder)
    if table is None:
        raise InputError(
            f"no table for {tablebase.variant_name(rules.doves)} ({rules.describe()}) in "
            f"{folder or tablebase.default_dir()}: build it with 'workbench doves tablebase build'"
        )
    layout = table.layout()
    here = tablebase.value_of(table, position, layout)
    if here is None:
        raise InputError(
            f"{position.board_string()!r} has doves outside the variant {tablebase.variant_name(rules.doves)}"
        )
    from solvers.doves.rules import to_ssn

    try:
        _, best = tablebase.perfect_steps(table, position, layout)
    except tablebase.TableDisagrees as exc:  # a damaged or forged table: say so, and search instead
        result = final_value(position, max_depth=SEARCH_DEPTH, cancel=cancel)
        if result is None:
            raise InputError(str(exc)) from None
        _emit(
            {
                "warning": f"{exc}; searched instead",
                "board": position.board_string(),
                "to_move": COLOUR_NAMES[position.to_move],
                "position": where,
                "value": str(result.value),
                "perfect": result.ssn[:1],
                "source": "search",
                "depth": result.depth,
            },
            args.json,
        )
        return 0
    _emit(
        {
            "board": position.board_string(),
            "to_move": COLOUR_NAMES[position.to_move],
            "position": where,
            "value": value_name(here) if here != tablebase.TERMINAL else "game over",
            "perfect": [to_ssn(position, s.action) for s in best],
            "table": str(table.path),
        },
        args.json,
    )
    return 0
