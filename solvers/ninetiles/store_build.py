"""Building a ninetiles store: enumerate every town in shards (in parallel, resumable), merge the
shards into the sorted score-vector index, and compute the statistics (layout: ``store.py``).

Only files named in the store's manifest are ever deleted, so a folder shared with the user's own
files never loses one.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.ninetiles import enumeration as E
from solvers.ninetiles.build_eta import BuildEta
from solvers.ninetiles.store import (
    ARRAY_NAMES,
    FORMAT,
    MANIFEST,
    SHARD_NAME,
    STORE_FILES,
    Store,
    file_digests,
    read_json,
    shard_names,
    write_json,
)

DEFAULT_SHARDS = 200


def shard_rows(syn: np.ndarray, first_id: int) -> dict[str, np.ndarray]:
    """Distinct (vector, synonym) pairs with town counts for consecutive synonym towns."""
    his, los, sids, cnts = [], [], [], []
    for k, row in enumerate(syn):
        hi, lo, _ = E.expand(row)
        order = np.lexsort((lo, hi))
        hi, lo = hi[order], lo[order]
        new = np.ones(hi.shape[0], dtype=bool)
        new[1:] = (hi[1:] != hi[:-1]) | (lo[1:] != lo[:-1])
        starts = np.flatnonzero(new)
        his.append(hi[starts])
        los.append(lo[starts])
        cnts.append(np.diff(np.append(starts, hi.shape[0])).astype(np.uint32))
        sids.append(np.full(starts.shape[0], first_id + k, dtype=np.uint16))
    return {
        "hi": np.concatenate(his),
        "lo": np.concatenate(los),
        "syn": np.concatenate(sids),
        "cnt": np.concatenate(cnts),
        "towns": np.array([int(sum(c.sum() for c in cnts))], dtype=np.int64),
    }


def _init_worker(parent: int) -> None:
    """Pool workers leave Ctrl+C to the parent, which cancels and shuts them down cleanly, and end
    with the parent if it is killed (they would otherwise wait for work for ever)."""
    import signal

    from solvers.common.process_jobs import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)


def _run_shard(store: str, index: int, lo_id: int, hi_id: int) -> tuple[int, int, float]:
    """Worker: expand and score synonym towns [lo_id, hi_id), write shards/shard_<index>.npz."""
    start = time.perf_counter()
    syn = np.load(Path(store) / "synonyms.npy", mmap_mode="r")
    result = shard_rows(np.asarray(syn[lo_id:hi_id]), lo_id)
    folder = Path(store) / "shards"
    done, partial = shard_names(index)
    tmp = folder / partial
    arrays: dict[str, Any] = result  # Any: numpy's stub would match a key against allow_pickle
    np.savez(tmp, **arrays)
    tmp.replace(folder / done)
    return index, int(result["towns"][0]), time.perf_counter() - start


@dataclass
class BuildReport:
    synonym_towns: int
    towns: int
    score_vectors: int
    seconds: float
    enumerate_seconds: float
    merge_seconds: float
    store_bytes: int


def select_synonyms(subset: int | None) -> np.ndarray:
    """All synonym towns, or an evenly spread test-sized subset of ``subset`` of them."""
    syn = E.synonym_towns()
    if subset is None or subset >= syn.shape[0]:
        return syn
    if subset <= 0:
        raise InputError(f"--subset must be between 1 and {syn.shape[0]} synonym towns")
    idx = np.linspace(0, syn.shape[0] - 1, subset).round().astype(np.int64)
    return syn[np.unique(idx)]


def _count_towns(syn: np.ndarray, cancel: CancelToken | None) -> int:
    """Towns the synonym towns expand to (about 3 s for all of them, so it polls ``cancel``)."""
    total = 0
    for i, row in enumerate(syn):
        if cancel is not None and i % 1024 == 0:
            cancel.raise_if_cancelled()
        total += int(E.count_towns(row))
    return total


def build(
    store: Path,
    *,
    workers: int | None = None,
    subset: int | None = None,
    shards: int | None = None,
    cancel: CancelToken | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    announce: Callable[[], None] | None = None,
) -> BuildReport:
    """Enumerate, score and index every town into ``store`` (resumes an interrupted build)."""
    t0 = time.perf_counter()
    syn = select_synonyms(subset)
    expected = _count_towns(syn, cancel)
    if expected == 0:
        raise InputError(f"--subset {subset} selects no legal town; use a larger subset (at least 3)")
    _prepare_folder(store, subset)
    if announce is not None:
        announce()
    _record(store, "meta.json", "meta.tmp", "synonyms.npy", "shards")
    (store / "shards").mkdir(exist_ok=True)
    np.save(store / "synonyms.npy", syn)
    meta_path = store / "meta.json"
    write_json(
        meta_path, {"format": FORMAT, "complete": False, "subset": subset, "synonym_towns": int(syn.shape[0])}
    )
    n_shards = shards or min(DEFAULT_SHARDS, max(1, syn.shape[0] // 50))
    bounds = np.linspace(0, syn.shape[0], n_shards + 1).round().astype(np.int64)
    todo = [i for i in range(n_shards) if not (store / "shards" / shard_names(i)[0]).exists()]
    _record_shards(store, todo)
    done_towns = expected - sum(sum(E.count_towns(r) for r in syn[bounds[i] : bounds[i + 1]]) for i in todo)
    workers = max(1, workers or os.cpu_count() or 1)
    started = time.perf_counter()
    eta = BuildEta(expected, done_towns, n_shards, n_shards - len(todo))
    if todo:
        if workers == 1:
            for i in todo:
                if cancel is not None:
                    cancel.raise_if_cancelled()
                _, n, seconds = _run_shard(str(store), i, int(bounds[i]), int(bounds[i + 1]))
                eta.shard_done(n, seconds)
                if progress is not None:
                    progress(eta.info())
        else:
            import multiprocessing

            ctx = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(
                max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(os.getpid(),)
            ) as pool:
                pending: set[Future] = set()
                queue = list(todo)
                try:
                    while queue or pending:
                        while queue and len(pending) < 2 * workers:
                            i = queue.pop(0)
                            pending.add(
                                pool.submit(_run_shard, str(store), i, int(bounds[i]), int(bounds[i + 1]))
                            )
                        done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                        for fut in done:
                            _, n, seconds = fut.result()
                            eta.shard_done(n, seconds)
                            if progress is not None:
                                progress(eta.info())
                        if cancel is not None and cancel.cancelled:
                            raise Cancelled()
                except BaseException:
                    for fut in pending:
                        fut.cancel()
                    pool.shutdown(wait=True, cancel_futures=True)
                    raise
    enum_seconds = time.perf_counter() - started
    if cancel is not None:
        cancel.raise_if_cancelled()
    if progress is not None:
        progress(eta.merge_info())
    t_merge = time.perf_counter()
    _record(store, *(f"{name}.npy" for name in ARRAY_NAMES), "stats.json", "stats.tmp")
    n_vectors = _merge(store, n_shards, expected)
    merge_seconds = time.perf_counter() - t_merge
    total = time.perf_counter() - t0
    size = sum(f.stat().st_size for f in store.rglob("*") if f.is_file())
    meta = {
        "format": FORMAT,
        "complete": True,
        "subset": subset,
        "synonym_towns": int(syn.shape[0]),
        "towns": expected,
        "score_vectors": n_vectors,
        "build_seconds": round(total, 1),
        "enumerate_seconds": round(enum_seconds, 1),
        "merge_seconds": round(merge_seconds, 1),
        "workers": workers,
        "store_bytes": size,
        "sha256": file_digests(store),  # checked when the store is opened (``store.verify``)
    }
    write_json(meta_path, meta)
    return BuildReport(int(syn.shape[0]), expected, n_vectors, total, enum_seconds, merge_seconds, size)


def _merge(store: Path, n_shards: int, expected: int) -> int:
    parts = [np.load(store / "shards" / shard_names(i)[0]) for i in range(n_shards)]
    hi = np.concatenate([p["hi"] for p in parts])
    lo = np.concatenate([p["lo"] for p in parts])
    syn = np.concatenate([p["syn"] for p in parts])
    cnt = np.concatenate([p["cnt"] for p in parts])
    del parts
    order = np.lexsort((syn, lo, hi))
    hi, lo, syn, cnt = hi[order], lo[order], syn[order], cnt[order]
    del order
    new = np.ones(hi.shape[0], dtype=bool)
    new[1:] = (hi[1:] != hi[:-1]) | (lo[1:] != lo[:-1])
    starts = np.flatnonzero(new)
    del new
    ptr = np.append(starts, hi.shape[0]).astype(np.int64)
    counts = np.add.reduceat(cnt.astype(np.int64), starts) if starts.size else np.zeros(0, np.int64)
    if int(counts.sum()) != expected:
        raise RuntimeError(f"store merge lost towns: {int(counts.sum())} != {expected}")
    vhi, vlo = hi[starts], lo[starts]
    cols = np.ascontiguousarray(E.unpack(vhi, vlo).T)
    ranks = _rank_columns(cols)
    dist = (ranks.astype(np.int32) ** 2).sum(axis=0, dtype=np.int32)
    for name, arr in (  # the order of ARRAY_NAMES
        ("vec_hi", vhi),
        ("vec_lo", vlo),
        ("vec_cols", cols),
        ("vec_count", counts),
        ("vec_dist", dist),
        ("post_ptr", ptr),
        ("post_syn", syn),
        ("post_cnt", cnt),
    ):
        np.save(store / f"{name}.npy", arr)
    _delete_shards(store)
    store_obj = Store(store, require_complete=False)
    write_json(store / "stats.json", store_obj.compute_stats())
    return int(vhi.shape[0])


def _rank_columns(cols: np.ndarray) -> np.ndarray:
    """int8[26, V]: rank - 1 of each score among its theme's possible scores (0 = best)."""
    ranks = np.zeros(cols.shape, dtype=np.int8)
    for t in range(cols.shape[0]):
        values = np.unique(cols[t])[::-1]  # descending
        lookup = {int(v): i for i, v in enumerate(values)}
        table = np.zeros(256, dtype=np.int8)
        for v, i in lookup.items():
            table[v & 0xFF] = i
        ranks[t] = table[cols[t].astype(np.uint8)]
    return ranks


def _prepare_folder(store: Path, subset: int | None) -> None:
    """Make ``store`` ready for a build, or refuse; deletes only what an earlier build wrote."""
    if store.exists() and not store.is_dir():
        raise InputError(f"--store {store}: not a folder")
    try:
        store.mkdir(parents=True, exist_ok=True)
        entries = list(store.iterdir())
    except OSError as exc:
        raise InputError(f"--store {store}: cannot use this folder ({exc.strerror or exc})") from None
    if not entries:
        return
    old = read_json(store / "meta.json")
    manifest = read_json(store / MANIFEST)
    ours = (old is not None and old.get("format") == FORMAT) or (
        manifest is not None and manifest.get("format") == FORMAT
    )
    if not ours:
        raise InputError(
            f"--store {store}: the folder holds other files and no ninetiles store; choose an empty or new folder"
        )
    if old is None or old.get("subset") != subset or old.get("complete") or old.get("format") != FORMAT:
        _clear(store)  # a different or finished build: start afresh (resume only an unfinished twin)


def _written(store: Path) -> list[str]:
    manifest = read_json(store / MANIFEST)
    names = manifest.get("files") if manifest is not None else None
    if not isinstance(names, list):
        return list(STORE_FILES)
    return [n for n in names if isinstance(n, str) and n in STORE_FILES]


def _written_shards(store: Path) -> list[str]:
    """The names the build wrote (or is writing) in ``shards/``, from the manifest; only names of
    the build's exact form count, so a damaged manifest cannot aim the clean-up at a user's file."""
    manifest = read_json(store / MANIFEST)
    names = manifest.get("shards") if manifest is not None else None
    if names is None:  # a manifest from before shards were listed: the build's exact names
        try:
            names = [entry.name for entry in (store / "shards").iterdir()]
        except OSError:
            names = []
    if not isinstance(names, list):
        return []
    return sorted({n for n in names if isinstance(n, str) and SHARD_NAME.fullmatch(n)})


def _record(store: Path, *names: str, shards: list[str] | None = None) -> None:
    """Add ``names`` to the manifest before writing them (a kill in between leaves no orphan);
    ``shards`` replaces the list of names in ``shards/``."""
    files = sorted({*_written(store), *names, MANIFEST})
    listed = _written_shards(store) if shards is None else shards
    write_json(store / MANIFEST, {"format": FORMAT, "files": files, "shards": listed})


def _record_shards(store: Path, indices: list[int]) -> None:
    """List the files of shards ``indices`` (finished and temporary names) before they are written."""
    names = {name for i in indices for name in shard_names(i)}
    _record(store, shards=sorted({*_written_shards(store), *names}))


def _delete_shards(store: Path) -> None:
    """Delete the shard files the manifest lists, then ``shards/`` if nothing else is left in it."""
    folder = store / "shards"
    for name in _written_shards(store):
        path = folder / name
        if path.is_file() or path.is_symlink():
            path.unlink(missing_ok=True)
    try:
        folder.rmdir()  # only if nothing of the user's is left inside
    except OSError:
        pass
    _record(store, shards=[])


def _clear(store: Path) -> None:
    for name in _written(store):
        if name == MANIFEST:
            continue
        path = store / name
        if name == "shards":
            if path.is_dir() and not path.is_symlink():
                _delete_shards(store)
        elif path.is_file() or path.is_symlink():
            path.unlink(missing_ok=True)
    write_json(store / MANIFEST, {"format": FORMAT, "files": [MANIFEST], "shards": []})


def stderr_progress(every: float = 1.0) -> Callable[[dict[str, Any]], None]:
    last = [0.0]

    def report(info: dict[str, Any]) -> None:
        now = time.monotonic()
        if now - last[0] >= every or info.get("fraction", 0) >= 1.0:
            last[0] = now
            print(f"ninetiles: {info.get('text', '')}", file=sys.stderr, flush=True)

    return report
