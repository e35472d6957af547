"""Cross-check of a solved variant against the Win(n) proof search (``search.py``) on random classes.

For a class of retrograde value WIN(n) / LOSE(n) with n within the search depth, iterative deepening
(win(1), lose(2), win(3), ...) must stop at exactly n with the same verdict; a deeper value or a draw
must stay Unknown to that depth. The search plays the same reduced game (``hand``) and rules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from solvers.common.cancel import CancelToken
from solvers.doves import engine as rules_engine
from solvers.doves import search
from solvers.doves.model import Position
from solvers.doves.retro.engine import TERMINAL
from solvers.doves.retro.layout import Layout
from solvers.doves.rules import Rules


def search_value(
    position: Position, rules: Rules, hand: int, depth: int, tt: np.ndarray, buf: rules_engine.Buffers
) -> int:
    """Iterative deepening to ``depth``: n > 0 Win(n), -n Lose(n), 0 Unknown (retro's encoding)."""
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
    live = np.flatnonzero(values != TERMINAL)
    decided = np.flatnonzero((values != TERMINAL) & (values != 0) & (np.abs(values) <= depth))
    # half of the sample from classes decided within the depth: draws and long wins dominate small
    # variants, and the search can only confirm them as Unknown
    # sampling positions in a range, not a list of the indices: the same picks, without a Python
    # object per class (BATH-bath: 59 M live classes made the check take 2.6 GB)
    picks = [int(decided[j]) for j in rng.sample(range(len(decided)), min(len(decided), samples // 2))]
    picks += [int(live[j]) for j in rng.sample(range(len(live)), min(len(live), samples - len(picks)))]
    tt = np.zeros((1 << 18, 6), dtype=np.int64)
    buf = rules_engine.Buffers()
    out = CheckResult()
    for index in picks:
        if cancel is not None:
            cancel.raise_if_cancelled()
        position = layout.position(index)
        retro = int(values[index])
        expected = retro if abs(retro) <= depth else 0
        got = search_value(position, rules, layout.mask, depth, tt, buf)
        out.checked += 1
        out.decided += expected != 0
        if got != expected:
            out.mismatches.append((position.board_string(), position.to_move, retro, got))
    return out
