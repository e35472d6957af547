"""Solving a variant: graph phase then passes, per partition, in memory or on disk.

``solve`` is the single-process path (no optional dependency); ``cluster.py`` runs the very same
per-partition steps (``build_partition``, ``pass_partition``) as Dask tasks over a ``DiskStore``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.doves import engine as rules_engine
from solvers.doves.counting import SYM
from solvers.doves.model import COLOUR_NAMES, Position
from solvers.doves.retro import engine, storefiles
from solvers.doves.retro.layout import Layout
from solvers.doves.rules import Rules

CHUNK = 4096  # classes per numba call in the graph phase: a cancel or progress point
Progress = Callable[[str], None]


class MemoryStore:
    """Values and per-partition graphs in RAM."""

    def __init__(self, layout: Layout) -> None:
        self.values = np.zeros(layout.size, dtype=np.int16)
        self.graphs: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def has_graph(self, p: int) -> bool:
        return p in self.graphs

    def put_graph(self, p: int, offs: np.ndarray, edges: np.ndarray) -> None:
        self.graphs[p] = (offs, edges)

    def graph(self, p: int) -> tuple[np.ndarray, np.ndarray]:
        return self.graphs[p]

    def flush(self) -> None:
        pass


class DiskStore:
    """Values in one memory-mapped .npy file, each partition's graph in two .npy files.

    A graph file appears only once complete (written under a temporary name, then renamed), so a
    partition whose files exist is done: that is what makes a run restartable."""

    def __init__(self, root: str | Path, layout: Layout) -> None:
        self.root = Path(root)
        if (self.root / "counters.npy").exists():
            raise InputError(f"{self.root}: holds a backward run (counters.npy): use another folder")
        storefiles.check_writable(self.root)
        path = self.root / "values.npy"
        try:
            (self.root / "graph").mkdir(parents=True, exist_ok=True)
            if not (path.exists() or path.is_symlink()):
                tmp = self.root / "values.tmp.npy"
                np.lib.format.open_memmap(tmp, mode="w+", dtype=np.int16, shape=(layout.size,)).flush()
                os.replace(tmp, path)
        except OSError as exc:
            raise InputError(f"{self.root}: cannot set up the store ({exc.strerror or exc})") from None
        # sizes first: an r+ map of a truncated file would silently extend it with zeros
        self.values = storefiles.open_array(path, "values", np.int16, layout.size, "r+")

    def _paths(self, p: int) -> tuple[Path, Path]:
        return self.root / "graph" / f"offs_{p}.npy", self.root / "graph" / f"edges_{p}.npy"

    def has_graph(self, p: int) -> bool:
        return all(path.exists() for path in self._paths(p))

    def put_graph(self, p: int, offs: np.ndarray, edges: np.ndarray) -> None:
        for path, data in zip(self._paths(p), (offs, edges), strict=True):
            tmp = path.with_suffix(".tmp.npy")
            np.save(tmp, data)
            os.replace(tmp, path)

    def graph(self, p: int) -> tuple[np.ndarray, np.ndarray]:
        offs, edges = (
            storefiles.open_array(path, "graph", storefiles.npy_layout(path, "graph")[1], mode="r")
            for path in self._paths(p)
        )
        return offs, edges

    def flush(self) -> None:
        if isinstance(self.values, np.memmap):
            self.values.flush()


Store = MemoryStore | DiskStore


def build_partition(
    layout: Layout, rules: Rules, store: Store, p: int, cancel: CancelToken | None = None
) -> int:
    """Graph phase of partition ``p``: initial values into ``store.values``, CSR into the store."""
    lo, hi = layout.partition_range(p)
    t = layout.tables
    edge_type = np.int32 if layout.size < 2**31 else np.int64
    degree = np.zeros(hi - lo, dtype=np.int64)
    chunks = []
    buf = np.empty(CHUNK * rules_engine.MAX_ACTIONS, dtype=np.int64)
    vals = np.empty(CHUNK, dtype=np.int16)
    for start in range(0, hi - lo, CHUNK):
        if cancel is not None:
            cancel.raise_if_cancelled()
        count = min(CHUNK, hi - lo - start)
        m = engine.build_chunk(
            int(layout.parts[p]),
            start,
            count,
            rules.allow_remove,
            rules.judge,
            int(layout.hands[p]),
            1 - int(layout.orient[p]),
            vals,
            degree[start : start + count],
            buf,
            t.first,
            t.offset,
            t.slots,
            t.squares,
            t.table_off,
            t.listing,
            layout.part_of_set,
            layout.part_off,
            t.mask_to_shape,
            t.square_index,
            t.ng,
            t.perms,
            t.dense,
            SYM,
        )
        store.values[lo + start : lo + start + count] = vals[:count]
        chunks.append(buf[:m].astype(edge_type))
    offs = np.zeros(hi - lo + 1, dtype=np.int64)
    np.cumsum(degree, out=offs[1:])
    edges = np.concatenate(chunks) if chunks else np.zeros(0, dtype=edge_type)
    store.put_graph(p, offs, edges)
    return int(edges.shape[0])


def pass_partition(layout: Layout, store: Store, t: int, p: int) -> int:
    offs, edges = store.graph(p)
    return int(engine.sweep(t, int(layout.part_off[p]), store.values, offs, edges))


@dataclass
class RetroResult:
    variant: str
    rules: str
    classes: int
    partitions: int
    edges: int
    terminal: int
    win: int
    loss: int
    draw: int
    start_value: str
    longest_win: int
    longest_win_board: str
    longest_win_to_move: str
    longest_loss: int
    passes: int
    decided_per_pass: list[int]
    seconds: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def value_name(v: int) -> str:
    if v == engine.TERMINAL:
        return "terminal"
    if v > 0:
        return f"Win({v})"
    if v < 0:
        return f"Lose({-v})"
    return "Draw"


def value_of(layout: Layout, values: np.ndarray, position: Position) -> int:
    return int(values[layout.rank(position)])


def solve(
    layout: Layout,
    rules: Rules,
    store: Store | None = None,
    cancel: CancelToken | None = None,
    progress: Progress | None = None,
) -> tuple[RetroResult, Store]:
    """Single-process retrograde analysis of a variant (partitions in order, in place)."""
    store = MemoryStore(layout) if store is None else store
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    edges = 0
    for p in range(len(layout.parts)):
        if cancel is not None:
            cancel.raise_if_cancelled()
        if not store.has_graph(p):
            build_partition(layout, rules, store, p, cancel)
        edges += int(store.graph(p)[1].shape[0])
    seconds["graph"] = time.perf_counter() - clock
    if progress:
        progress(f"graph: {layout.size:,} classes, {edges:,} edges, {seconds['graph']:.1f} s")
    clock = time.perf_counter()
    decided = run_passes(
        layout,
        store,
        lambda t: sum(pass_partition(layout, store, t, p) for p in range(len(layout.parts))),
        cancel,
        progress,
    )
    seconds["passes"] = time.perf_counter() - clock
    store.flush()
    return summarise(layout, rules, store.values, edges, decided, seconds), store


def run_passes(
    layout: Layout,
    store: Store,
    one_pass: Callable[[int], int],
    cancel: CancelToken | None,
    progress: Progress | None,
    done: list[int] | None = None,
) -> list[int]:
    """Passes 2, 3, ... until one decides nothing (pass 1 is the graph phase's immediate wins)."""
    decided = list(done or [int(np.count_nonzero(store.values == 1))])
    t = len(decided) + 1
    while True:
        if cancel is not None:
            cancel.raise_if_cancelled()
        n = one_pass(t)
        decided.append(n)
        if progress:
            progress(f"pass {t}: {n:,} decided")
        if n == 0 and t > 2:
            return decided
        t += 1


def summarise(
    layout: Layout,
    rules: Rules,
    values: np.ndarray,
    edges: int,
    decided: list[int],
    seconds: dict[str, float],
) -> RetroResult:
    counts = np.zeros(4, dtype=np.int64)
    engine.tally(values, 0, layout.size, counts)
    real = np.where(values == engine.TERMINAL, 0, values)
    longest = int(real.max()) if real.size else 0
    where = int(np.argmax(real)) if longest > 0 else -1
    from solvers.doves.model import START

    return RetroResult(
        variant=layout.name,
        rules=rules.describe(),
        classes=layout.size,
        partitions=len(layout.parts),
        edges=edges,
        terminal=int(counts[0]),
        win=int(counts[1]),
        loss=int(counts[2]),
        draw=int(counts[3]),
        start_value=value_name(value_of(layout, values, START)),
        longest_win=longest,
        longest_win_board=layout.position(where).board_string() if where >= 0 else "",
        longest_win_to_move=COLOUR_NAMES[layout.position(where).to_move] if where >= 0 else "",
        longest_loss=int(-real.min()) if real.size else 0,
        passes=len(decided),
        decided_per_pass=decided,
        seconds={k: round(v, 3) for k, v in seconds.items()},
    )


def save_result(root: str | Path, result: RetroResult) -> None:
    Path(root, "result.json").write_text(json.dumps(result.to_json(), indent=1))
