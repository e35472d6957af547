"""The store build's time-left estimate (QA: "ETA 1m15s" at 30 s of a 3.5-minute build)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from solvers.ninetiles.build_eta import MERGE_RATIO, SHARD_SHARE, BuildEta, rounded_up
from solvers.ninetiles.store_build import build

EXPECTED = 500_000_000
SHARD = 2_500_000  # towns per shard


def _run(eta: BuildEta, start: float, rate: float, shards: int) -> float:
    """``shards`` shards finishing one after another at ``rate`` towns/s (one worker second per
    2.5 M towns), from time ``start``; returns the time of the last."""
    t = start
    for _ in range(shards):
        t += SHARD / rate
        eta.shard_done(SHARD, 1.0, now=t)
    return t


def test_no_estimate_from_the_first_shards() -> None:
    eta = BuildEta(EXPECTED, 0, 200, 0)
    _run(eta, 0.0, 2e6, 2)
    info = eta.info()
    assert math.isnan(info["eta"]) and "estimating the time left" in info["text"]


def test_the_pool_start_up_is_not_counted_as_work() -> None:
    eta = BuildEta(EXPECTED, 0, 200, 0)
    _run(eta, 20.0, 2e6, 10)  # 20 s of spawning workers and loading kernels before the first shard
    assert eta.rate() == pytest.approx(2e6)


def test_the_estimate_includes_the_merge() -> None:
    eta = BuildEta(EXPECTED, 0, 200, 0)
    _run(eta, 0.0, 2e6, 40)
    merge = MERGE_RATIO * EXPECTED * 1.0 / SHARD  # one worker second per shard
    assert eta.merge_seconds() == pytest.approx(merge)
    assert eta.seconds_left() == pytest.approx((EXPECTED - 40 * SHARD) / 2e6 + merge)
    assert "merge included" in eta.info()["text"]
    assert eta.merge_info()["text"] == f"merging shards and computing statistics (about {rounded_up(merge)})"


def test_a_slowdown_counts_at_once_a_speed_up_only_when_it_lasts() -> None:
    """The slower of the whole run's rate and the last minute's: a machine that slows down after
    a fast start (turbo ending, other load) no longer keeps the fast start's estimate."""
    eta = BuildEta(EXPECTED, 0, 200, 0)
    t = _run(eta, 0.0, 4e6, 48)  # 30 s fast
    _run(eta, t, 2e6, 48)  # 60 s at half the speed
    assert eta.rate() == pytest.approx(2e6, rel=0.05)
    fast_again = BuildEta(EXPECTED, 0, 200, 0)
    t = _run(fast_again, 0.0, 2e6, 48)
    _run(fast_again, t, 4e6, 8)
    assert fast_again.rate() == pytest.approx(2e6 * 56 / 52, rel=0.05)  # the run's average


def test_a_resumed_build_counts_only_this_runs_shards_for_the_rate() -> None:
    eta = BuildEta(EXPECTED, 100 * SHARD, 200, 100)
    _run(eta, 5.0, 2e6, 10)
    assert eta.rate() == pytest.approx(2e6)
    assert eta.info()["text"].startswith(f"shard 110/200: {110 * SHARD:,} of {EXPECTED:,} towns")
    assert eta.info()["fraction"] == pytest.approx(SHARD_SHARE * 110 / 200)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (3, "10 s"),
        (41, "50 s"),
        (60, "1 min"),
        (75, "1.5 min"),
        (91, "2 min"),
        (599, "10 min"),
        (725, "13 min"),
    ],
)
def test_times_are_rounded_up(seconds: float, text: str) -> None:
    assert rounded_up(seconds) == text
    assert rounded_up(math.nan) == "?"


def test_a_build_reports_growing_fractions_and_the_merge_last(tmp_path: Path) -> None:
    reports: list[dict[str, Any]] = []
    build(tmp_path / "store", workers=1, subset=40, shards=6, progress=reports.append)
    fractions = [r["fraction"] for r in reports]
    assert fractions == sorted(fractions) and fractions[-1] == SHARD_SHARE
    assert all(r["text"].startswith(f"shard {k}/6: ") for k, r in enumerate(reports[:-1], start=1))
    assert "left (merge included)" in reports[-2]["text"]
    assert reports[-1]["text"].startswith("merging shards and computing statistics (about ")
