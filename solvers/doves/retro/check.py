"""Cross-check of a solved variant against the Win(n) proof search (``search.py``) on random classes.

For a class of retrograde value WIN(n) / LOSE(n) with n within the search depth, iterative deepening
(win(1), lose(2), win(3), ...) must stop at exactly n with the same verdict; a deeper value or a draw
must stay Unknown to that depth. The search plays the same reduced game (``hand``) and rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from solvers.common.cancel import CancelToken
from solvers.doves import engine as rules_engine
from solvers.doves import search
from solvers.doves.model import Position
from solvers.doves.retro.engine import TERMINAL
from solvers.doves.retro.layout import Layout
from solvers.doves.rules import Rules

BLOCK = 1 << 24  # classes tested at a time when sampling (a 16 MB mask)


def search_value(position: Position, hand: int, depth: int, tt: np.ndarray, buf: rules_engine.Buffers) -> int:
    """Iterative deepening to ``depth`` under the position's rules, with the doves of ``hand`` (the
    layout's): n > 0 Win(n), -n Lose(n), 0 Unknown (retro's encoding)."""
    rules = position.rules
    stats = np.zeros(2, dtype=np.int64)
    for d in range(1, depth + 1):
        question = search.WIN if d % 2 else search.LOSE
        if search.prove(
            np.uint64(position.code),
            position.to_move,
            d,
            question,
            rules.allow_remove,
            rules.judge,
            tt,
            stats,
            buf.pos,
            buf.acts,
            buf.codes,
            buf.outs,
            buf.libs,
            buf.order,
            hand,
        ):
            return d if d % 2 else -d
    return 0


@dataclass
class CheckResult:
    checked: int = 0
    decided: int = 0  # of them, with a retro value within the search depth
    mismatches: list[tuple[str, int, int, int]] = field(default_factory=list)  # board, side, retro, search


def _sample_where(
    values: np.ndarray, test: Callable[[np.ndarray], np.ndarray], count: int, rng: random.Random
) -> list[int]:
    """``count`` random indices where ``test`` holds, as ``rng.sample`` of the list of them would
    pick, without the list: blocks are counted, then only the blocks holding a pick are listed.
    (BATH-bamth: its 1.26 G live indices took 10 GB as one array, 2.6 GB for BATH-bath as a
    Python list.)"""
    starts = range(0, len(values), BLOCK)
    counts = [int(np.count_nonzero(test(values[a : a + BLOCK]))) for a in starts]
    firsts = np.concatenate(([0], np.cumsum(counts, dtype=np.int64)))
    ranks = rng.sample(range(int(firsts[-1])), min(int(firsts[-1]), count))
    picks = [0] * len(ranks)
    blocks = np.searchsorted(firsts, ranks, side="right") - 1
    for b in sorted(set(blocks.tolist())):
        where = np.flatnonzero(test(values[starts[b] : starts[b] + BLOCK]))
        for n in np.flatnonzero(blocks == b):
            picks[n] = starts[b] + int(where[ranks[n] - firsts[b]])
    return picks


def cross_check(
    layout: Layout,
    rules: Rules,
    values: np.ndarray,
    samples: int,
    depth: int = 7,
    seed: int = 0,
    cancel: CancelToken | None = None,
) -> CheckResult:
    """Compare ``samples`` random non-terminal classes (and every decided one if there are fewer)."""
    rng = random.Random(seed)

    def decided(block: np.ndarray) -> np.ndarray:
        return (block != TERMINAL) & (block != 0) & (np.abs(block) <= depth)

    # half of the sample from classes decided within the depth: draws and long wins dominate small
    # variants, and the search can only confirm them as Unknown
    picks = _sample_where(values, decided, samples // 2, rng)
    picks += _sample_where(values, lambda block: block != TERMINAL, samples - len(picks), rng)
    tt = np.zeros((1 << 18, 6), dtype=np.int64)
    buf = rules_engine.Buffers()
    out = CheckResult()
    for index in picks:
        if cancel is not None:
            cancel.raise_if_cancelled()
        position = layout.position(index).with_rules(rules)  # the layout's classes carry no rules
        retro = int(values[index])
        expected = retro if abs(retro) <= depth else 0
        got = search_value(position, layout.mask, depth, tt, buf)
        out.checked += 1
        out.decided += expected != 0
        if got != expected:
            out.mismatches.append((position.board_string(), position.to_move, retro, got))
    return out
