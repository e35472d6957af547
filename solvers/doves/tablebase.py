"""Tablebases: a solved reduced game on disk, and exact values and perfect moves read from it.

A table is one file ``<variant>_remove-<yes|no>_both-<judge>.dtb`` in the tablebase folder
(``$PUZZLE_WORKBENCH_TABLEBASES``, else ``$XDG_DATA_HOME/puzzle-workbench/doves-tablebases``, else
``~/.local/share/...``): the magic line ``DOVESTB\\n``, an 8-byte little-endian header length, a JSON
header (format version, the variant's doves per side, the rule options, the class count), zero
padding to a multiple of 16, then one little-endian int16 per class of the perfect index
(``retro/layout.py``): the retrograde engine's value, whose sign is the result for the side to move
and whose magnitude is the distance in plies (odd n = Win(n), -n = Lose(n), 0 = Draw, 32767 = a
finished position). The values are memory-mapped read-only, so opening even a large table is
instant and a worker thread only ever reads an immutable map of its own; nothing is cached in the
module. A file is written under a temporary name and renamed, so a table either exists whole or not.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import struct
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.doves import engine as rules_engine
from solvers.doves.model import COLOUR_NAMES, Position
from solvers.doves.rules import JUDGES, Action, Rules, Step, legal_steps, surrounded, to_ssn
from solvers.doves.values import Analysis, Value

if TYPE_CHECKING:
    from solvers.doves.retro.layout import Layout

MAGIC = b"DOVESTB\n"
VERSION = 1
SUFFIX = ".dtb"
MAX_HEADER = 1 << 16
TERMINAL = 32767
CHUNK = 1 << 23  # values per chunk when a whole table is read (checksum, range check)
DRAW_LINE = 12  # plies of a drawn line shown (a draw has no end to play towards)
ENV = "PUZZLE_WORKBENCH_TABLEBASES"
# Tables whose checksum was verified, by (path, size, mtime): a check reads the whole table once.
_VERIFIED: set[tuple[str, int, int]] = set()
_VERIFIED_LOCK = threading.Lock()


def default_dir() -> Path:
    env = os.environ.get(ENV)
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "puzzle-workbench" / "doves-tablebases"


def variant_name(doves: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
    """'BAT-bay': the Layout name, computed without building the layout's tables."""
    red = "B" + "".join("AYMTH"[k - 1] for k in doves[0])
    green = "b" + "".join("aymth"[k - 1] for k in doves[1])
    return f"{red}-{green}"


def file_name(rules: Rules) -> str:
    if rules.doves is None:
        raise InputError("the full game has no tablebase (it is not solved); give doves=RED/GREEN")
    remove = "yes" if rules.allow_remove else "no"
    return f"{variant_name(rules.doves)}_remove-{remove}_both-{rules.both_surrounded}{SUFFIX}"


def table_path(rules: Rules, folder: Path | None = None) -> Path:
    return (default_dir() if folder is None else folder) / file_name(rules)


# ---- writing ----------------------------------------------------------------------------------------
def write_table(path: Path, rules: Rules, values: np.ndarray, info: dict[str, object] | None = None) -> None:
    """Write ``values`` (the solved int16 array of ``rules``' variant) atomically to ``path``."""
    assert rules.doves is not None
    header = {
        "format": "doves-tablebase",
        "version": VERSION,
        "variant": variant_name(rules.doves),
        "red": list(rules.doves[0]),
        "green": list(rules.doves[1]),
        "remove": rules.allow_remove,
        "both": rules.both_surrounded,
        "classes": int(values.shape[0]),
        # of the value bytes: a flipped bit would otherwise read as a wrong, confident answer
        "sha256": hashlib.sha256(np.ascontiguousarray(values, dtype="<i2").tobytes()).hexdigest(),
        # the largest distances: a load refuses any value beyond them (the range check)
        **dict(zip(("longest_win", "longest_loss"), _longest(values), strict=True)),
        "info": info or {},
    }
    blob = json.dumps(header).encode()
    start = len(MAGIC) + 8 + len(blob)
    pad = -start % 16
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(MAGIC + struct.pack("<Q", len(blob)) + blob + b"\0" * pad)
            f.write(np.ascontiguousarray(values, dtype="<i2").tobytes())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)  # a full disk leaves no half table behind
        raise


def _longest(values: np.ndarray) -> tuple[int, int]:
    """(longest win, longest loss) in plies, read in chunks (a table may not fit in memory twice)."""
    win = loss = 0
    for lo in range(0, values.shape[0], CHUNK):
        part = np.asarray(values[lo : lo + CHUNK])
        wins = part[(part > 0) & (part != TERMINAL)]
        win = max(win, int(wins.max()) if wins.size else 0)
        loss = max(loss, -int(part.min()) if part.size else 0)
    return win, loss


# ---- reading ----------------------------------------------------------------------------------------
@dataclass
class Table:
    path: Path
    rules: Rules
    header: dict[str, object]
    values: np.ndarray  # read-only int16 memory map

    def layout(self) -> Layout:
        """The variant's index (its shape tables take ~1.5 s once per process for 6 doves)."""
        from solvers.doves.retro.layout import Layout

        assert self.rules.doves is not None
        return Layout(*self.rules.doves)  # thread-safe: indexing builds its shared tables once


def _open_regular(path: Path) -> tuple[int, bytes, int]:
    """(size, the first bytes up to the header's end, header length) of a regular file. A FIFO, a
    device or a folder under the table's name is refused without reading it (a FIFO would block)."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputError(f"{path}: cannot read the tablebase ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{path}: not a regular file (a tablebase is a plain file)")
        try:
            head = f.read(len(MAGIC) + 8)
            if len(head) < len(MAGIC) + 8 or head[: len(MAGIC)] != MAGIC:
                raise InputError(f"{path}: not a Tokyo Doves tablebase (wrong magic bytes)")
            (length,) = struct.unpack("<Q", head[len(MAGIC) :])
            if length > MAX_HEADER:
                raise InputError(f"{path}: damaged tablebase (header length {length:,})")
            blob = f.read(length)
        except OSError as exc:
            raise InputError(f"{path}: cannot read the tablebase ({exc.strerror or exc})") from None
    return info.st_size, blob, length


def _kinds(value: object) -> tuple[int, ...]:
    """A side's dove kinds from a header: at most five distinct kinds 1..5 in order, else ValueError
    (checked before anything is counted: 5,000 doves would make variant_size run for minutes)."""
    if not isinstance(value, list) or len(value) > 5:
        raise ValueError("bad variant")
    kinds = tuple(value)
    if any(type(k) is not int or not 1 <= k <= 5 for k in kinds) or list(kinds) != sorted(set(kinds)):
        raise ValueError("bad variant")
    return kinds


def read_table(path: Path) -> Table:
    """Open a table file; a damaged or foreign file raises InputError naming the problem."""
    size, blob, length = _open_regular(path)
    try:
        header = json.loads(blob.decode())
        if not isinstance(header, dict) or header.get("format") != "doves-tablebase":
            raise ValueError("not a tablebase header")
        if header.get("version") != VERSION:
            raise InputError(f"{path}: tablebase format version {header.get('version')!r}, this is {VERSION}")
        red, green = _kinds(header["red"]), _kinds(header["green"])
        if not isinstance(header["remove"], bool) or header["both"] not in JUDGES:
            raise ValueError("bad rules")
        rules = Rules(header["remove"], str(header["both"]), (red, green))
        classes = header["classes"]
        if type(classes) is not int:
            raise ValueError("bad class count")
    except InputError:
        raise
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError):
        raise InputError(f"{path}: damaged tablebase header") from None
    from solvers.doves.retro.layout import variant_size

    if classes != variant_size(red, green):
        raise InputError(
            f"{path}: holds {classes:,} classes, the variant {header.get('variant')} has another count"
        )
    start = len(MAGIC) + 8 + length
    start += -start % 16
    if size != start + 2 * classes:
        raise InputError(
            f"{path}: truncated or damaged tablebase ({size:,} bytes, expected {start + 2 * classes:,})"
        )
    values = np.memmap(path, dtype="<i2", mode="r", offset=start, shape=(classes,))
    _verify(path, header, values)
    return Table(path, rules, header, values)


def _verify(path: Path, header: dict[str, object], values: np.ndarray) -> None:
    """Check the values against the header's checksum (mandatory: without it a flipped bit reads
    as a confident wrong answer) and their range: TERMINAL, Draw, an odd Win(n) or an even
    Lose(n), within the header's longest win and loss (a table written before they were recorded
    is held to the int16 range; the local check of each answer still catches the rest)."""
    expected = header.get("sha256")
    if not isinstance(expected, str):
        raise InputError(
            f"{path}: the tablebase has no checksum (written by an older version): rebuild it with "
            "'workbench doves tablebase build'"
        )
    bounds = []
    for name in ("longest_win", "longest_loss"):
        bound = header.get(name, TERMINAL - 1)
        if type(bound) is not int or not 0 <= bound < TERMINAL:
            raise InputError(f"{path}: damaged tablebase header ({name} is not a distance)")
        bounds.append(bound)
    win, loss = bounds
    info = path.stat()
    key = (str(path.resolve()), info.st_size, info.st_mtime_ns)
    with _VERIFIED_LOCK:
        if key in _VERIFIED:
            return
    digest = hashlib.sha256()
    bad = -1  # the first value out of range; a checksum mismatch is reported before it
    for lo in range(0, values.shape[0], CHUNK):
        part = np.ascontiguousarray(values[lo : lo + CHUNK])
        digest.update(part.data)
        if bad < 0:
            odd = (part & 1) == 1
            good = (part == TERMINAL) | (part == 0) | (odd & (part > 0) & (part <= win))
            good |= ~odd & (part < 0) & (part >= -loss)
            if not good.all():
                bad = lo + int(np.flatnonzero(~good)[0])
    if digest.hexdigest() != expected:
        raise InputError(f"{path}: damaged tablebase (the values do not match their checksum)")
    if bad >= 0:
        raise InputError(
            f"{path}: damaged tablebase (class {bad:,} holds {int(values[bad])}, not a value of this "
            f"table: wins are odd up to {win}, losses even down to -{loss})"
        )
    with _VERIFIED_LOCK:
        _VERIFIED.add(key)


def find_table(rules: Rules, folder: Path | None = None) -> Table | None:
    """The table of ``rules``' variant if one is stored (None for the full game or when missing)."""
    if rules.doves is None:
        return None
    path = table_path(rules, folder)
    if not (path.exists() or path.is_symlink()):
        return None  # a FIFO or a broken link under the name is not "no table": read_table says why
    table = read_table(path)
    if table.rules != rules:
        raise InputError(f"{path}: holds the table of {table.rules.describe()}, not of {rules.describe()}")
    return table


def list_tables(folder: Path | None = None) -> list[Path]:
    folder = default_dir() if folder is None else folder
    return sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []


_NAME = re.compile(r"^B([AYMTH]*)-b([aymth]*)_")


def stored_dove_sets(folder: Path | None = None) -> list[str]:
    """Dove sets ('AT/AY') with a stored table, read from the file names only (no file is opened:
    the panel asks on the GUI thread); whether a table is usable is checked when it is used."""
    found = {f"{m.group(1)}/{m.group(2).upper()}" for p in list_tables(folder) if (m := _NAME.match(p.name))}
    return sorted(found, key=lambda t: (len(t), t))


# ---- building -----------------------------------------------------------------------------------------
def build(
    rules: Rules,
    folder: Path | None = None,
    cancel: CancelToken | None = None,
    progress: object = None,
    max_classes: int = 50_000_000,
    method: str = "backward",
) -> tuple[Path, dict[str, object]]:
    """Solve ``rules``' variant and store its table; returns the path and the build summary.

    ``method`` "backward" (predecessor generation, no stored graph: on AT/ATH 1.4x faster in 2.4x
    less memory) or "forward" (stored move graph and passes); both give byte-identical values."""
    from solvers.doves.retro.backward import solve_backward
    from solvers.doves.retro.layout import Layout, variant_size
    from solvers.doves.retro.solve import solve
    from solvers.doves.retro.storefiles import check_writable

    if rules.doves is None:
        raise InputError("give the variant's doves (the full game is far too large to build)")
    red, green = rules.doves
    size = variant_size(red, green)
    if size > max_classes:
        raise InputError(f"the variant has {size:,} classes, more than --max-classes {max_classes:,}")
    if method not in ("backward", "forward"):
        raise InputError(f"unknown method {method!r}: forward or backward")
    # before the solve, which may take hours: a folder that cannot take the table fails now
    check_writable(default_dir() if folder is None else folder)
    clock = time.perf_counter()
    layout = Layout(red, green)
    if method == "backward":
        result, memory, _ = solve_backward(layout, rules, cancel=cancel, progress=progress)  # type: ignore[arg-type]
        values = memory.values
    elif method == "forward":
        result, store = solve(layout, rules, cancel=cancel, progress=progress)  # type: ignore[arg-type]
        values = store.values
    else:
        raise InputError(f"unknown method {method!r}: forward or backward")
    seconds = time.perf_counter() - clock
    path = table_path(rules, folder)
    summary = result.to_json()
    summary["method"] = method
    summary["build_seconds"] = round(seconds, 3)
    summary["classes_per_second"] = round(layout.size / seconds) if seconds > 0 else 0
    try:
        write_table(path, rules, np.asarray(values), {"start": result.start_value})
    except OSError as exc:
        raise InputError(f"{path}: cannot write the tablebase ({exc.strerror or exc})") from None
    summary["path"] = str(path)
    summary["bytes"] = path.stat().st_size
    return path, summary


# ---- queries ------------------------------------------------------------------------------------------
def value_of(table: Table, position: Position, layout: Layout | None = None) -> int | None:
    """The stored value of ``position`` (retro encoding), None if a dove is outside the variant."""
    layout = table.layout() if layout is None else layout
    index = int(layout.rank_many(np.array([position.code]), np.array([position.to_move]))[0])
    return None if index < 0 else int(table.values[index])


def as_value(v: int) -> Value:
    if v > 0 and v != TERMINAL:
        return Value("win", v, v)
    if v < 0:
        return Value("lose", -v, -v)
    return Value("draw")


def _step_score(step: Step, child: int | None) -> int:
    """A mover's preference for an action: fastest win > draw > slowest loss (larger is better)."""
    if step.outcome == rules_engine.MOVER_WINS:
        return 10**6
    if step.outcome == rules_engine.MOVER_LOSES:
        return -(10**6)
    if step.outcome != rules_engine.ONGOING or child is None or child == 0 or child == TERMINAL:
        return 0
    # child from the opponent's view: -n (it loses in n) = our win in n + 1
    return 10**5 - (1 - child) if child < 0 else -(10**5) + child + 1


class TableDisagrees(InputError):
    """A stored value does not follow from the stored values of the position's successors: the
    table is damaged (or forged with a matching checksum), so its answer is not shown."""


def _disagreement(position: Position, here: int, steps: list[Step], children: list[int | None]) -> str | None:
    """Why ``here`` cannot be the value of ``position`` given its successors' stored values (None
    when it can). The retrograde passes' own rules: Win(1) wins at once; Win(n) has a successor at
    Lose(n - 1) and none at a shorter loss; Lose(n) has only successors at Win(<= n - 1), the
    longest at n - 1 (Lose(2) when nothing avoids losing); a Draw has no successor at Lose and
    one that is not a win. A self-surround (the mover loses) is never a choice."""
    if here == TERMINAL:
        return None if any(surrounded(position)) else "a live position is stored as finished"
    if any(surrounded(position)):
        return f"a finished game is stored as {_name(here)}"
    wins_now = any(s.outcome == rules_engine.MOVER_WINS for s in steps)
    draws_now = any(s.outcome == rules_engine.DRAW for s in steps)
    values: list[int] = []
    for step, child in zip(steps, children, strict=True):
        if step.outcome != rules_engine.ONGOING:
            continue
        if child is None or child == TERMINAL:
            return (
                f"a successor of {_name(here)} is stored as {'finished' if child else 'outside the variant'}"
            )
        values.append(child)
    losses = [-v for v in values if v < 0]
    if here > 0 and here % 2 == 1:
        if here == 1:
            return None if wins_now else "Win(1) without an action that wins at once"
        if wins_now:
            return f"{_name(here)} where an action wins at once"
        if not losses or min(losses) != here - 1:
            return f"{_name(here)} needs a successor at Lose({here - 1}); the fastest is " + (
                f"Lose({min(losses)})" if losses else "none"
            )
        return None
    if here < 0 and here % 2 == 0:
        n = -here
        if wins_now or draws_now or losses or 0 in values:
            return f"{_name(here)} but an action avoids losing"
        longest = max(values, default=1)
        return (
            None
            if longest == n - 1
            else f"{_name(here)} needs a successor at Win({n - 1}), the longest is Win({longest})"
        )
    if here == 0:
        if wins_now or losses:
            return "a Draw with a winning action"
        return None if draws_now or 0 in values else "a Draw where every action loses"
    return f"{here} is not a value"


def _name(v: int) -> str:
    return "finished" if v == TERMINAL else f"Win({v})" if v > 0 else f"Lose({-v})" if v < 0 else "Draw"


def perfect_steps(table: Table, position: Position, layout: Layout | None = None) -> tuple[int, list[Step]]:
    """The position's value and every action that keeps it (empty if the game is over there).

    The value is checked against its successors' first (``_disagreement``): a table that disagrees
    with itself raises TableDisagrees rather than give a wrong answer. The actions are the table's
    game's (its rules), whatever rules ``position`` carries."""
    position = position.with_rules(table.rules)
    layout = table.layout() if layout is None else layout
    steps = legal_steps(position)
    codes = np.array([s.position.code for s in steps] + [position.code], dtype=np.uint64)
    sides = np.array([s.position.to_move for s in steps] + [position.to_move], dtype=np.int64)
    index = layout.rank_many(codes, sides)
    if index[-1] < 0:
        raise InputError(f"{position.board_string()!r} has doves outside the variant {layout.name}")
    here = int(table.values[index[-1]])
    children = [int(table.values[i]) if i >= 0 else None for i in index[:-1]]
    problem = _disagreement(position, here, steps, children)
    if problem is not None:
        raise TableDisagrees(
            f"{table.path}: the table disagrees with itself at {position.board_string()!r} "
            f"({COLOUR_NAMES[position.to_move]} to move): {problem}"
        )
    scores = [_step_score(s, c) for s, c in zip(steps, children, strict=True)]
    if not steps or here == TERMINAL:
        return here, []
    best = max(scores)
    return here, [s for s, sc in zip(steps, scores, strict=True) if sc == best]


def _covering(
    position: Position, folder: Path | None, problems: list[str] | None = None
) -> tuple[Table, Layout] | None:
    """The stored table of the position's rules holding it (and its index layout), if any. A damaged
    or foreign table file covers nothing (the caller searches instead); why goes to ``problems``."""
    try:
        table = find_table(position.rules, folder)
    except InputError as exc:
        if problems is not None:
            problems.append(str(exc))
        return None
    if table is None:
        return None
    layout = table.layout()
    if value_of(table, position, layout) is None:
        return None
    return table, layout


def lookup(
    position: Position, folder: Path | None = None, problems: list[str] | None = None
) -> Analysis | None:
    """The exact value and a perfect line from a stored table, None when no usable table covers
    it (a damaged table file, or one that disagrees with itself along the line, is reported in
    ``problems``, never raised: search answers instead)."""
    clock = time.perf_counter()
    found = _covering(position, folder, problems)
    if found is None:
        return None
    table, layout = found
    try:  # every position of the line is checked against its successors on the way
        here, best = perfect_steps(table, position, layout)
        value = as_value(here)
        line: list[Action] = []
        seen: list[Position] = []
        current = position
        plies = value.plies if value.kind != "draw" else DRAW_LINE
        while best and len(line) < plies:
            step = best[0]
            line.append(step.action)
            seen.append(current)
            if step.outcome != rules_engine.ONGOING:
                break
            current = step.position
            _, best = perfect_steps(table, current, layout)
    except TableDisagrees as exc:
        if problems is not None:
            problems.append(str(exc))
        return None
    ssn = [to_ssn(p, a) for p, a in zip(seen, line, strict=True)]
    return Analysis(value, line, ssn, 0, time.perf_counter() - clock, value.plies, seen, "tablebase")


def best_action(
    position: Position, folder: Path | None = None, problems: list[str] | None = None
) -> Action | None:
    """A perfect action from a stored table (None when no usable table covers the position)."""
    found = _covering(position, folder, problems)
    if found is None:
        return None
    table, layout = found
    try:
        _, best = perfect_steps(table, position, layout)
    except TableDisagrees as exc:
        if problems is not None:
            problems.append(str(exc))
        return None
    return best[0].action if best else None
