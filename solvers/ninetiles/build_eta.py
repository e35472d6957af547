"""The store build's progress line: how far the shards are, and an honest estimate of the time left.

QA (2026-12) saw "ETA 1m15s" at 30 s of a build that took about 3.5 min. The old estimate divided
the towns left by the average rate since the pool started. Measured in a full 2-worker build here
(252 s), its error in the time left was 1.5x (too long) at 10 s, 0.82x (too short) at 56 s, then
1.2x: it

* left out the merge and statistics after the shards (18 s here, 43 s of 329 s in the benchmark:
  0.04 and 0.076 of the shards' summed worker seconds);
* lagged behind a slowdown (turbo ending, other load: the rate here fell from 2.4 to 1.95 M towns/s
  mid-build), being an average over the whole run, and counted the pool's start-up as work time;
* was printed to the second after a few seconds of data.

Per town the shards cost the same (2.2-2.7 M towns/s in one process at shards 0, 20, ..., 199, whose
sizes range from 0.17 to 6.3 M towns), so towns stay the unit of work. Now the estimate adds the
merge, takes the slower of the rate since the first finished shard (start-up excluded) and the rate
over the last minute, waits for a few shards, and is rounded up and said as "about".
"""

from __future__ import annotations

import math
import time
from typing import Any

# Merge + statistics over the shards' summed worker seconds (measured 0.04, 0.076): worker seconds,
# not wall time, because the merge runs in one process however many workers the shards had.
MERGE_RATIO = 0.08
SHARD_SHARE = 0.9  # of the progress bar; the merge gets the rest (it reports no progress itself)
RECENT_SECONDS = 60.0  # the recent rate is taken over the shards finished in this window...
RECENT_SHARDS = 4  # ...but over at least this many (they finish in bunches of one per worker)
FIRST_SHARDS = 3  # no estimate before this many shards have finished in this run


class BuildEta:
    """Progress of a store build's shard phase and the estimated time left for the whole build."""

    def __init__(self, expected: int, done: int, n_shards: int, finished: int) -> None:
        self.expected = expected
        self.done = done  # towns in finished shards, an interrupted build's included
        self.n_shards = n_shards
        self.finished = finished
        self._marks: list[tuple[float, int]] = []  # (time, towns done) as each shard of this run ends
        self._worker_seconds = 0.0
        self._worker_towns = 0

    def shard_done(self, towns: int, worker_seconds: float, now: float | None = None) -> None:
        self.done += towns
        self.finished += 1
        self._worker_seconds += worker_seconds
        self._worker_towns += towns
        self._marks.append((time.perf_counter() if now is None else now, self.done))

    def rate(self) -> float:
        """Towns per second, the slower of since the first shard and lately; 0 = not known yet."""
        if len(self._marks) < FIRST_SHARDS:
            return 0.0
        (t0, d0), (t1, d1) = self._marks[0], self._marks[-1]
        if t1 <= t0:
            return 0.0
        recent = len(self._marks) - 1 - RECENT_SHARDS
        while recent > 0 and self._marks[recent - 1][0] >= t1 - RECENT_SECONDS:
            recent -= 1
        rates = [(d1 - d0) / (t1 - t0)]
        tr, dr = self._marks[max(recent, 0)]
        if t1 > tr:
            rates.append((d1 - dr) / (t1 - tr))
        return min(rates)

    def merge_seconds(self) -> float:
        """The merge and statistics, from the shards' cost per town in one process; nan = unknown."""
        if self._worker_towns == 0:
            return math.nan
        return MERGE_RATIO * self.expected * self._worker_seconds / self._worker_towns

    def seconds_left(self) -> float:
        rate = self.rate()
        if rate <= 0:
            return math.nan
        return (self.expected - self.done) / rate + self.merge_seconds()

    def info(self) -> dict[str, Any]:
        """The progress report after a finished shard (``fraction``, ``text``, ``towns``, ``eta``)."""
        rate, eta = self.rate(), self.seconds_left()
        head = f"shard {self.finished}/{self.n_shards}: {self.done:,} of {self.expected:,} towns"
        if eta != eta:  # nan: too few shards yet
            text = f"{head}; estimating the time left…"
        else:
            text = f"{head}, {rate:,.0f} towns/s, about {rounded_up(eta)} left (merge included)"
        return {
            "fraction": SHARD_SHARE * self.done / self.expected if self.expected else SHARD_SHARE,
            "towns": self.done,
            "rate": rate,
            "eta": eta,
            "text": text,
        }

    def merge_info(self) -> dict[str, Any]:
        merge = self.merge_seconds()
        during = f" (about {rounded_up(merge)})" if merge == merge else ""
        return {"fraction": SHARD_SHARE, "text": f"merging shards and computing statistics{during}"}


def rounded_up(seconds: float) -> str:
    """A duration rounded up to what an estimate can promise: '40 s', '3.5 min', '12 min'."""
    if seconds != seconds:  # nan
        return "?"
    if seconds < 60:
        return f"{max(10, math.ceil(seconds / 10) * 10)} s"
    minutes = seconds / 60
    if minutes < 10:
        half = math.ceil(minutes * 2) / 2
        return f"{half:g} min"
    return f"{math.ceil(minutes)} min"
