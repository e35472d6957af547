"""The backward retrograde analysis on disk, as tasks per partition: restartable, and the same
tasks run on a Dask cluster (``cluster.solve_backward_distributed``) or here, one after another.

Files under the store folder (every worker must see it):

* ``values.npy`` (int16) and ``counters.npy`` (uint8): one entry per class, memory-mapped; a task
  writes only its own partition's range.
* ``init/p{p}.json``: partition p's init is done (wins, losses, counted actions); its WIN(1) classes
  are the level-1 frontier ``level/d1_p{p}.npy``, its LOSE(2) ones ``init/losses_p{p}.npy``.
* ``level/d{d}_p{p}.npy``: the classes of partition p decided at distance d (the frontier).
* ``updates/d{d}_p{p}.*``: what partition p's frontier sends (``backward.frontier_updates``),
  sorted by class; the JSON marker holds where each destination partition's slice starts (the
  driver hands each apply task its slices).
* ``journal/d{d}_q{q}.npz``: the old values and counters of the classes an apply task is about to
  change, so a task killed half-way is undone before it is run again.
* ``state.json``: variant, rules, method and the frontier sizes of the levels done.
* ``sums/p{p}.json``: the sha256 of partition p's range of values and counters, written by the
  task that last changed them (before its marker); every small array has its ``.sha256`` beside it.

Nothing is trusted on a rerun (``storefiles``): sizes are checked before a table is mapped (an
``r+`` map would silently extend a truncated file), every partition's checksums before the run
goes on, every small array's checksum when it is read; a damaged store is refused in one line.

A level is two rounds: every partition's frontier makes its updates (reads no values), then every
partition applies the updates addressed to it (reads and writes only its own range) and writes its
frontier of the next level. A file appears only once complete (written under a temporary name, then
renamed), so a task whose output exists is done; a task run twice (its worker died) gives the same
result. Values are byte-identical to ``solve_backward`` in memory and to the forward passes.
"""

from __future__ import annotations

import json
import os
import time
import zipfile
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.doves.retro import storefiles
from solvers.doves.retro.backward import (
    CHUNK,
    BackwardStats,
    apply_updates,
    frontier_updates,
    init_partition,
)
from solvers.doves.retro.layout import Layout
from solvers.doves.retro.solve import RetroResult, summarise
from solvers.doves.retro.unmove import MAX_PREDS, layout_tables
from solvers.doves.rules import Rules

STATE = "state.json"
# run(task, argument tuples, phase name) -> the tasks' results, in order
Runner = Callable[[Callable[..., Any], Sequence[tuple[Any, ...]], str], list[Any]]


def letters(kinds: tuple[int, ...]) -> str:
    return "".join("AYMTH"[k - 1] for k in kinds)


@lru_cache(maxsize=4)
def worker_layout(red: str, green: str) -> Layout:
    """One layout (and its shape tables) per variant and process, shared by its tasks."""
    return Layout.from_letters(red, green)


def _save(path: Path, data: np.ndarray) -> None:
    """Write an array and, first, its checksum beside it (so an array never lacks its sum)."""
    save_text(_sum_path(path), storefiles.digest(data))
    tmp = path.with_name(path.stem + ".tmp.npy")
    np.save(tmp, data)
    os.replace(tmp, path)


def _sum_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _load(path: Path, what: str, mmap: bool = False) -> np.ndarray:
    """A small array written by ``_save``, checked against its size and (unless mapped for
    slices, which the driver checks once per level with ``_check_sum``) its checksum."""
    dtype = storefiles.npy_layout(path, what)[1]
    if mmap:
        return storefiles.open_array(path, what, dtype, mode="r")
    data = storefiles.open_array(path, what, dtype, mode="load")
    _check_sum(path, what, data)
    return data


def _check_sum(path: Path, what: str, data: np.ndarray | None = None) -> None:
    if data is None:
        data = storefiles.open_array(path, what, storefiles.npy_layout(path, what)[1], mode="r")
    try:
        expected = _sum_path(path).read_text().strip()
    except (OSError, UnicodeDecodeError):
        raise InputError(f"{path}: the {what} has no checksum: remove the store to start again") from None
    if storefiles.digest(data) != expected:
        raise InputError(
            f"{path}: damaged {what} (it does not match its checksum): remove the store to start again"
        )


def _unlink(path: Path) -> None:
    path.unlink(missing_ok=True)
    _sum_path(path).unlink(missing_ok=True)


def save_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def save_json(path: Path, data: object) -> None:
    """Write ``data`` as JSON under a temporary name, then rename: a reader never sees half."""
    save_text(path, json.dumps(data))


def _arrays(root: Path, size: int) -> tuple[np.memmap, np.memmap]:
    """The two tables, mapped for writing only after their sizes are checked (an ``r+`` map of
    a short file would extend it with zeros)."""
    values = storefiles.open_array(root / "values.npy", "values", np.int16, size, "r+")
    counters = storefiles.open_array(root / "counters.npy", "counters", np.uint8, size, "r+")
    assert isinstance(values, np.memmap) and isinstance(counters, np.memmap)
    return values, counters


def _record_sums(root: Path, p: int, values: np.ndarray, counters: np.ndarray) -> None:
    """Partition ``p``'s checksums, written after its range is flushed and before its marker."""
    save_json(
        root / "sums" / f"p{p}.json",
        {"values": storefiles.digest(values), "counters": storefiles.digest(counters)},
    )


def _state(root: Path, key: dict[str, Any]) -> dict[str, Any]:
    """The store's state.json, checked field by field (it is read back after hours or days)."""
    path = root / STATE
    state = storefiles.read_json(path)
    if {k: state.get(k) for k in key} != key:
        raise InputError(
            f"{root}: holds a run of {str(state.get('variant'))[:40]} ({str(state.get('rules'))[:80]}, "
            f"{str(state.get('method', 'forward'))[:20]}), not this one"
        )
    levels, done = state.get("levels"), state.get("done")
    if not isinstance(levels, list) or any(
        type(n) is not int or not 0 <= n <= key["classes"] for n in levels
    ):
        raise InputError(f"{path}: damaged state (levels is not a list of class counts): remove the store")
    if sum(levels) > key["classes"] or type(done) is not bool or (done and len(levels) < 3):
        raise InputError(f"{path}: damaged state (levels and done disagree): remove the store to start again")
    return state


def open_store(root: Path, layout: Layout, rules: Rules) -> dict[str, Any]:
    """Create the store's folders and tables, or check that ``root`` holds this variant's backward
    run, intact; returns its state."""
    if (root / "graph").exists():
        raise InputError(f"{root}: holds a forward run (a graph folder): use another folder")
    storefiles.check_writable(root)
    key = {"variant": layout.name, "rules": rules.describe(), "classes": layout.size, "method": "backward"}
    path = root / STATE
    if path.exists() or path.is_symlink():
        state = _state(root, key)
    else:
        state = {**key, "levels": [], "done": False}
    try:
        for sub in ("init", "level", "updates", "journal", "sums"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        for name, dtype in (("values", np.int16), ("counters", np.uint8)):
            target = root / f"{name}.npy"
            if not (target.exists() or target.is_symlink()):
                tmp = root / f"{name}.tmp.npy"
                np.lib.format.open_memmap(tmp, mode="w+", dtype=dtype, shape=(layout.size,)).flush()
                os.replace(tmp, target)
    except OSError as exc:
        raise InputError(f"{root}: cannot set up the store ({exc.strerror or exc})") from None
    values, counters = _arrays(root, layout.size)
    _verify_partitions(root, layout, state, values, counters)
    save_json(path, state)
    return state


def _verify_partitions(
    root: Path, layout: Layout, state: dict[str, Any], values: np.ndarray, counters: np.ndarray
) -> None:
    """Every partition whose init is done must match the checksums its last task recorded, except
    one whose apply of the current level stopped half-way (its journal undoes it, and the task
    records new sums)."""
    d = len(state["levels"]) + 1
    for p in range(len(layout.parts)):
        if not (root / "init" / f"p{p}.json").exists():
            continue  # the init has not run: it writes the whole range
        journal = root / "journal" / f"d{d}_q{p}.npz"
        if journal.exists() and not (root / "level" / f"d{d + 1}_p{p}.npy").exists():
            continue
        sums = root / "sums" / f"p{p}.json"
        if not (sums.exists() or sums.is_symlink()):
            raise InputError(
                f"{root}: partition {p} has no checksums (an older or damaged store): start again "
                "in an empty folder"
            )
        recorded = storefiles.read_json(sums, "checksum file")
        lo, hi = layout.partition_range(p)
        for name, table in (("values", values), ("counters", counters)):
            if storefiles.digest(table[lo:hi]) != recorded.get(name):
                raise InputError(
                    f"{root / (name + '.npy')}: damaged (partition {p} does not match its checksum): "
                    "start again in an empty folder"
                )


# ---- tasks (module level: a Dask worker imports them) ---------------------------------------------
def init_task(
    root: str, red: str, green: str, allow_remove: bool, both: str, p: int, cancel: CancelToken | None = None
) -> dict[str, int]:
    """Init of partition ``p`` (``backward.init_partition``); returns its counts."""
    base = Path(root)
    marker = base / "init" / f"p{p}.json"
    if marker.exists():
        return storefiles.read_json(marker, "init marker")
    layout = worker_layout(red, green)
    values, counters = _arrays(base, layout.size)
    lo, hi = layout.partition_range(p)
    rules = Rules(allow_remove, both)
    won, lost, edges = init_partition(
        layout,
        p,
        rules,
        layout_tables(layout),
        np.asarray(values[lo:hi]),
        np.asarray(counters[lo:hi]),
        cancel,
    )
    values.flush()
    counters.flush()
    _save(base / "level" / f"d1_p{p}.npy", won)
    _save(base / "init" / f"losses_p{p}.npy", lost)
    _record_sums(base, p, values[lo:hi], counters[lo:hi])
    counts = {"wins": len(won), "losses": len(lost), "edges": edges}
    save_json(marker, counts)
    return counts


def updates_task(
    root: str, red: str, green: str, allow_remove: bool, d: int, p: int, cancel: CancelToken | None = None
) -> dict[str, Any]:
    """Partition ``p``'s level-d frontier makes its updates, sorted by class; returns the marker
    (``starts``: where each destination partition's updates begin; the predecessor counts)."""
    base = Path(root)
    marker = base / "updates" / f"d{d}_p{p}.json"
    if marker.exists():
        return storefiles.read_json(marker, "updates marker")
    layout = worker_layout(red, green)
    frontier = _load(base / "level" / f"d{d}_p{p}.npy", "frontier")
    tabs = layout_tables(layout)
    dest_buf = np.empty(CHUNK * MAX_PREDS, dtype=np.int64)
    mult_buf = np.empty(CHUNK * MAX_PREDS, dtype=np.uint8)
    stats = np.zeros(4, dtype=np.int64)
    dests: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
    mults: list[np.ndarray] = [np.zeros(0, dtype=np.uint8)]
    for start in range(0, len(frontier), CHUNK):
        if cancel is not None:
            cancel.raise_if_cancelled()
        n = frontier_updates(
            frontier[start : start + CHUNK], d, allow_remove, tabs, dest_buf, mult_buf, stats
        )
        dests.append(dest_buf[:n].copy())
        mults.append(mult_buf[:n].copy())
    dest = np.concatenate(dests)
    order = np.argsort(dest, kind="stable")
    _save(base / "updates" / f"d{d}_p{p}_dest.npy", dest[order])
    _save(base / "updates" / f"d{d}_p{p}_mult.npy", np.concatenate(mults)[order])
    info = {
        "starts": np.searchsorted(dest[order], layout.part_off).tolist(),
        "positions": int(stats[0]),
        "classes": int(stats[1]),
        "errors": int(stats[3]),
    }
    save_json(marker, info)
    return info


def apply_task(
    root: str,
    red: str,
    green: str,
    d: int,
    q: int,
    slices: list[tuple[int, int, int]],
    cancel: CancelToken | None = None,
) -> dict[str, int]:
    """Apply every level-d update addressed to partition ``q`` (``slices``: (source partition,
    start, end) in its sorted updates) and write its level-(d+1) frontier (at d = 1 with the
    init's LOSE(2) classes); returns (decided, undecided visits, errors)."""
    base = Path(root)
    marker = base / "level" / f"d{d + 1}_p{q}.npy"
    journal = base / "journal" / f"d{d}_q{q}.npz"
    if marker.exists():
        return {"decided": storefiles.npy_layout(marker, "frontier")[0][0], "visits": 0, "errors": 0}
    if cancel is not None:  # one numba call below: the only point to stop at
        cancel.raise_if_cancelled()
    layout = worker_layout(red, green)
    values, counters = _arrays(base, layout.size)
    lo, hi = layout.partition_range(q)
    dests, mults = [], []
    for p, a, b in slices:
        dests.append(_load(base / "updates" / f"d{d}_p{p}_dest.npy", "updates", mmap=True)[a:b])
        mults.append(_load(base / "updates" / f"d{d}_p{p}_mult.npy", "updates", mmap=True)[a:b])
    dest = np.concatenate(dests) if dests else np.zeros(0, dtype=np.int64)
    mult = np.concatenate(mults) if mults else np.zeros(0, dtype=np.uint8)
    if dest.dtype != np.int64 or mult.dtype != np.uint8 or len(dest) != len(mult):
        raise InputError(f"{base}: damaged updates of level {d} (wrong types): remove the store")
    if len(dest) and (int(dest.min()) < lo or int(dest.max()) >= hi):  # numba would write anywhere
        raise InputError(f"{base}: damaged updates of level {d} (a class outside partition {q})")
    vals = np.asarray(values[lo:hi])
    cnts = np.asarray(counters[lo:hi])
    if journal.exists():  # an earlier try stopped half-way: undo it first
        _undo(journal, lo, hi, vals, cnts)
    touched = dest - lo  # with repeats: restoring an old entry twice is harmless, deduplicating is not free
    tmp = journal.with_name(journal.stem + ".tmp.npz")
    np.savez(tmp, index=dest, values=vals[touched], counters=cnts[touched])
    os.replace(tmp, journal)
    out = np.empty(len(dest), dtype=np.int64)
    stats = np.zeros(4, dtype=np.int64)
    m = apply_updates(dest, mult, d, lo, vals, cnts, out, stats)
    values.flush()
    counters.flush()
    decided = out[:m]
    if d == 1:
        decided = np.concatenate([_load(base / "init" / f"losses_p{q}.npy", "init losses"), decided])
    _record_sums(base, q, values[lo:hi], counters[lo:hi])
    _save(marker, decided)
    journal.unlink()
    return {"decided": len(decided), "visits": int(stats[2]), "errors": int(stats[3])}


def _undo(journal: Path, lo: int, hi: int, vals: np.ndarray, cnts: np.ndarray) -> None:
    """Restore the old entries an earlier try of this apply saved before it stopped."""
    try:
        with np.load(journal, allow_pickle=False) as old:
            index, old_values, old_counters = old["index"], old["values"], old["counters"]
    except (ValueError, OSError, KeyError, zipfile.BadZipFile, EOFError):
        raise InputError(f"{journal}: damaged journal: remove the store to start again") from None
    if not len(index) == len(old_values) == len(old_counters) or (
        len(index) and (int(index.min()) < lo or int(index.max()) >= hi)
    ):
        raise InputError(f"{journal}: damaged journal: remove the store to start again")
    vals[index - lo] = old_values
    cnts[index - lo] = old_counters


# ---- the driver -----------------------------------------------------------------------------------
def run_here(cancel: CancelToken | None = None, progress: Callable[[str], None] | None = None) -> Runner:
    """A runner that runs the tasks in this process, one after another (cancel reaches into them)."""

    def run(task: Callable[..., Any], args: Sequence[tuple[Any, ...]], phase: str) -> list[Any]:
        results = []
        for n, arg in enumerate(args, 1):
            if cancel is not None:
                cancel.raise_if_cancelled()
            results.append(task(*arg, cancel=cancel))
            if progress and len(args) > 1 and n % max(1, len(args) // 4) == 0:
                progress(f"{phase}: {n}/{len(args)} partitions")
        return results

    return run


def solve_backward_stored(
    layout: Layout,
    rules: Rules,
    root: str | Path,
    run: Runner,
    progress: Callable[[str], None] | None = None,
) -> tuple[RetroResult, BackwardStats]:
    """Backward analysis with its tables in ``root``, the tasks run by ``run``; resumes a stopped
    run from the files it left."""
    base = Path(root)
    base.mkdir(parents=True, exist_ok=True)
    state = open_store(base, layout, rules)
    red, green = letters(layout.red), letters(layout.green)
    parts = range(len(layout.parts))
    stats = BackwardStats()
    clock = time.perf_counter()
    init = run(
        init_task,
        [(str(base), red, green, rules.allow_remove, rules.both_surrounded, p) for p in parts],
        "init",
    )
    edges = sum(c["edges"] for c in init)
    stats.seconds["init"] = time.perf_counter() - clock
    if progress:
        wins = sum(c["wins"] for c in init)
        progress(f"init: {layout.size:,} classes, {edges:,} actions counted, {wins:,} immediate wins")
    clock = time.perf_counter()
    decided: list[int] = list(state["levels"])
    d = len(decided) + 1
    if not state["done"] and len(decided) > 2 and decided[-1] == 0:  # the last level decided nothing
        state["done"] = True
        save_json(base / STATE, state)
    while not state["done"]:
        size = sum(storefiles.npy_layout(base / "level" / f"d{d}_p{p}.npy", "frontier")[0][0] for p in parts)
        decided.append(size)
        if progress and d > 1:
            progress(f"level {d}: {size:,} decided")
        if size == 0 and d > 2:
            state.update(levels=decided, done=True)
            save_json(base / STATE, state)
            break
        sent = run(
            updates_task,
            [(str(base), red, green, rules.allow_remove, d, p) for p in parts],
            f"level {d} updates",
        )
        for p, info in enumerate(sent):  # checked once here, mapped in slices by every apply task
            if info["starts"][-1]:
                for part in ("dest", "mult"):
                    _check_sum(base / "updates" / f"d{d}_p{p}_{part}.npy", "updates")
        slices = [
            [
                (p, info["starts"][q], info["starts"][q + 1])
                for p, info in enumerate(sent)
                if info["starts"][q + 1] > info["starts"][q]
            ]
            for q in parts
        ]
        applied = run(
            apply_task, [(str(base), red, green, d, q, slices[q]) for q in parts], f"level {d} apply"
        )
        errors = sum(s["errors"] for s in sent) + sum(a["errors"] for a in applied)
        if errors:
            raise AssertionError(f"level {d}: {errors} predecessor updates did not fit (a predecessor bug)")
        stats.expanded += size
        stats.predecessor_positions += sum(s["positions"] for s in sent)
        stats.predecessor_classes += sum(s["classes"] for s in sent)
        stats.undecided_visits += sum(a["visits"] for a in applied)
        state["levels"] = decided
        save_json(base / STATE, state)
        for p in parts:  # level d is done: its frontier and updates are no longer needed
            for name in (
                f"level/d{d}_p{p}.npy",
                f"updates/d{d}_p{p}_dest.npy",
                f"updates/d{d}_p{p}_mult.npy",
                f"updates/d{d}_p{p}.json",
            ):
                _unlink(base / name)
        d += 1
    stats.seconds["backward"] = time.perf_counter() - clock
    values, _ = _arrays(base, layout.size)
    seconds = {"init": stats.seconds["init"], "backward": stats.seconds["backward"]}
    return summarise(layout, rules, np.asarray(values), edges, decided, seconds), stats
