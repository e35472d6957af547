"""Distributed driver on a local Dask cluster of 2 workers: identical tables, a worker killed
mid-run, a cancelled run resumed. Skipped when the optional extra is not installed."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.doves.retro import cluster
from solvers.doves.retro.layout import Layout
from solvers.doves.retro.solve import solve
from solvers.doves.rules import Rules


def test_driver_without_dask_says_how_to_install(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(cluster, "available", lambda: False)
    with pytest.raises(InputError, match=r"\.\[cluster\]"):
        cluster.solve_distributed(Layout.from_letters("A"), Rules(), tmp_path)


@pytest.mark.parametrize(
    "red,green,cancel_at",
    [("T", "AY", "pass 2:"), pytest.param("M", "HT", "pass 4:", marks=pytest.mark.slow)],
)
def test_two_workers_one_killed_then_cancel_and_resume(
    tmp_path, red: str, green: str, cancel_at: str
) -> None:
    distributed = pytest.importorskip("distributed")
    layout = Layout.from_letters(red, green)
    expected, memory = solve(layout, Rules())
    local = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(local)
    try:
        pids = sorted(client.run(os.getpid).values())
        assert len(pids) == 2
        killed: list[int] = []
        cancel = CancelToken()

        def progress(message: str) -> None:
            if message.startswith("graph") and not killed:
                os.kill(pids[0], signal.SIGKILL)  # a worker we started dies mid-phase
                killed.append(pids[0])
            if message.startswith(cancel_at) and "decided" in message:
                cancel.cancel()

        with pytest.raises(Cancelled):
            cluster.solve_distributed(
                layout, Rules(), tmp_path, client=client, cancel=cancel, progress=progress
            )
        assert killed
        state = (tmp_path / cluster.STATE).read_text()
        assert '"passes": [' in state
        result = cluster.solve_distributed(layout, Rules(), tmp_path, client=client)
    finally:
        client.close()
        local.close()
    assert np.array_equal(np.load(tmp_path / "values.npy"), memory.values)
    assert result.decided_per_pass == expected.decided_per_pass
    assert (result.win, result.loss, result.draw) == (expected.win, expected.loss, expected.draw)
    with pytest.raises(InputError, match="another variant"):
        cluster.solve_distributed(Layout.from_letters("A"), Rules(), tmp_path, client=object())


def test_backward_on_two_workers_one_killed_then_cancel_and_resume(tmp_path) -> None:
    """The backward tasks on Dask: a worker dies in the init, the run is cancelled at a level and
    resumed; the tables are those of the in-memory backward solver, byte for byte."""
    distributed = pytest.importorskip("distributed")
    from solvers.doves.retro.backward import solve_backward

    rules = Rules(allow_remove=False)
    layout = Layout.from_letters("M", "HT")
    expected, memory, _ = solve_backward(layout, rules)
    local = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(local)
    try:
        pids = sorted(client.run(os.getpid).values())
        killed: list[int] = []
        cancel = CancelToken()

        def progress(message: str) -> None:
            if message.startswith("init:") and not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
            if message.startswith("level 20:"):
                cancel.cancel()

        with pytest.raises(Cancelled):
            cluster.solve_backward_distributed(
                layout, rules, tmp_path, client=client, cancel=cancel, progress=progress
            )
        assert killed
        result, _stats = cluster.solve_backward_distributed(layout, rules, tmp_path, client=client)
    finally:
        client.close()
        local.close()
    assert np.load(tmp_path / "values.npy").tobytes() == memory.values.tobytes()
    assert result.decided_per_pass == expected.decided_per_pass and result.start_value == "Lose(88)"
