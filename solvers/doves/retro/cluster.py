"""Distributed driver on Dask distributed (optional extra: ``pip install ".[cluster]"``).

The tasks are the single-process steps, one per partition: ``build_partition`` (graph phase) and
``pass_partition`` (pass t). Tables live on a filesystem every worker sees (``DiskStore``: values in
one memory-mapped .npy, each partition's CSR graph in its own .npy files), so tasks exchange only
small integers. Pass t only writes values of distance t and only reads distances < t, so the
partitions of a pass need no locking, and a task that is run twice (its worker died and Dask
re-ran it elsewhere) gives the same values.

Restart: ``state.json`` in the store records the finished passes; a graph whose files exist is
finished. Running the driver again on the same directory resumes where it stopped (after a killed
driver, a cancel, or a lost cluster). A dead worker inside a run is handled by Dask itself (its
nanny restarts it and the scheduler re-runs the lost tasks).

The backward analysis (``solve_backward_distributed``) runs the tasks of ``backward_store``: per
level, every partition's frontier makes its updates, then every partition applies those addressed
to it; its files make it restartable in the same way.

Nothing here is imported by the app or the single-process path.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.doves.retro import storefiles
from solvers.doves.retro.backward import BackwardStats
from solvers.doves.retro.backward_store import (
    STATE,
    Runner,
    letters,
    save_json,
    solve_backward_stored,
    worker_layout,
)
from solvers.doves.retro.layout import Layout
from solvers.doves.retro.solve import (
    DiskStore,
    Progress,
    RetroResult,
    build_partition,
    pass_partition,
    summarise,
)
from solvers.doves.rules import Rules


def available() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def graph_task(
    root: str, red: str, green: str, allow_remove: bool, both: str, p: int
) -> tuple[int, int, float]:
    """(edges, 1 if built now else 0, seconds) after building one partition's graph into the store."""
    start = time.perf_counter()
    layout = worker_layout(red, green)
    store = DiskStore(root, layout)
    built = 0
    if not store.has_graph(p):
        build_partition(layout, Rules(allow_remove, both), store, p)
        store.flush()
        built = 1
    edges = int(store.graph(p)[1].shape[0])
    return edges, built, time.perf_counter() - start


def pass_task(root: str, red: str, green: str, t: int, p: int) -> tuple[int, int, float]:
    """(partition, classes decided, seconds) of pass ``t`` over one partition."""
    start = time.perf_counter()
    layout = worker_layout(red, green)
    store = DiskStore(root, layout)
    decided = pass_partition(layout, store, t, p)
    store.flush()
    return p, decided, time.perf_counter() - start


def _load_state(root: Path, key: dict[str, Any]) -> dict[str, Any]:
    path = root / STATE
    if not (path.exists() or path.is_symlink()):
        return {**key, "passes": []}
    state = storefiles.read_json(path)
    if {k: state.get(k) for k in key} != key or state.get("method", "forward") != "forward":
        raise InputError(
            f"{root}: holds tables of another variant or rule set ({str(state.get('variant'))[:40]})"
        )
    passes = state.get("passes")
    if not isinstance(passes, list) or any(type(n) is not int or n < 0 for n in passes):
        raise InputError(f"{path}: damaged state (passes is not a list of class counts): remove the store")
    return state


@contextmanager
def _client(workers: int, address: str | None, client: Any) -> Iterator[Any]:
    """The given client, or one of the scheduler at ``address``, or of a LocalCluster of
    ``workers`` processes (closed afterwards)."""
    if client is not None:
        yield client
        return
    from distributed import Client, LocalCluster

    if address is not None:
        with Client(address) as remote:
            yield remote
        return
    local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        with Client(local) as own:
            yield own
    finally:
        local.close()


def dask_runner(
    client: Any, cancel: CancelToken | None = None, progress: Callable[[str], None] | None = None
) -> Runner:
    """Runs one task per argument tuple on the cluster; polls the cancel token every 0.1 s and
    reports each finished batch. The results come back in the order of the arguments."""
    from distributed import as_completed

    def run(task: Callable[..., Any], args: Sequence[tuple[Any, ...]], phase: str) -> list[Any]:
        futures = [client.submit(task, *arg, pure=False) for arg in args]
        done = 0
        pending = as_completed(futures)
        while done < len(futures):
            if cancel is not None and cancel.cancelled:
                client.cancel(futures)
                cancel.raise_if_cancelled()
            batch = pending.next_batch(block=False)
            if not batch:
                time.sleep(0.1)
                continue
            for future in batch:
                future.result()  # re-raises a task's error here
            done += len(batch)
            if progress:
                progress(f"{phase}: {done}/{len(futures)} partitions")
        return [future.result() for future in futures]

    return run


def solve_distributed(
    layout: Layout,
    rules: Rules,
    root: str | Path,
    workers: int = 2,
    address: str | None = None,
    cancel: CancelToken | None = None,
    progress: Progress | None = None,
    client: Any = None,
) -> RetroResult:
    """Solve ``layout`` with Dask: a LocalCluster of ``workers`` processes, or the scheduler at
    ``address``, or an existing ``client``. Resumes from the tables already in ``root``."""
    if not available():
        raise InputError('the distributed driver needs Dask: pip install ".[cluster]"')
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    key = {"variant": layout.name, "rules": rules.describe(), "classes": layout.size}
    state = _load_state(root, key)
    DiskStore(root, layout)  # create the values file once, before any worker opens it
    red, green = letters(layout.red), letters(layout.green)
    seconds: dict[str, float] = {}
    with _client(workers, address, client) as dask:
        run = dask_runner(dask, cancel, progress)
        clock = time.perf_counter()
        parts = range(len(layout.parts))
        graphs = run(
            graph_task,
            [(str(root), red, green, rules.allow_remove, rules.both_surrounded, p) for p in parts],
            "graph",
        )
        edges = sum(e for e, _, _ in graphs)
        if any(b for _, b, _ in graphs) and state["passes"]:
            # a graph rebuilt after passes began reset its partition: redo the passes from t = 2
            # (values already decided stay; each pass decides exactly the remaining distance-t ones)
            state["passes"] = []
        seconds["graph"] = time.perf_counter() - clock
        seconds["graph_task_sum"] = sum(s for _, _, s in graphs)
        clock = time.perf_counter()
        store = DiskStore(root, layout)
        decided: list[int] = list(state["passes"]) or [int((store.values == 1).sum())]
        t = len(decided) + 1
        while not (len(decided) > 2 and decided[-1] == 0):
            decided.append(
                sum(
                    n
                    for _, n, _ in run(pass_task, [(str(root), red, green, t, p) for p in parts], f"pass {t}")
                )
            )
            state["passes"] = decided
            save_json(root / STATE, state)
            if progress:
                progress(f"pass {t}: {decided[-1]:,} decided")
            t += 1
        seconds["passes"] = time.perf_counter() - clock
    store = DiskStore(root, layout)
    return summarise(layout, rules, store.values, edges, decided, seconds)


def solve_backward_distributed(
    layout: Layout,
    rules: Rules,
    root: str | Path,
    workers: int = 2,
    address: str | None = None,
    cancel: CancelToken | None = None,
    progress: Progress | None = None,
    client: Any = None,
) -> tuple[RetroResult, BackwardStats]:
    """The backward analysis (``backward_store``) with its tasks on Dask; clusters as in
    ``solve_distributed``. Resumes from the files already in ``root``."""
    if not available():
        raise InputError('the distributed driver needs Dask: pip install ".[cluster]"')
    with _client(workers, address, client) as dask:
        return solve_backward_stored(layout, rules, root, dask_runner(dask, cancel, progress), progress)
