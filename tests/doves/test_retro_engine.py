"""Retrograde engine: the move graph against the rules, exact values against the Win(n) search."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.doves.retro.check import cross_check
from solvers.doves.retro.engine import TERMINAL
from solvers.doves.retro.layout import Layout
from solvers.doves.retro.solve import DiskStore, MemoryStore, build_partition, solve
from solvers.doves.rules import Rules, legal_steps, surrounded


@pytest.fixture(scope="module")
def at_at():
    layout = Layout.from_letters("AT")
    result, store = solve(layout, Rules())
    return layout, result, store


def test_graph_matches_the_rules_on_a_mixed_variant() -> None:
    layout = Layout.from_letters("M", "HT")
    store = MemoryStore(layout)
    checked = 0
    for p in range(len(layout.parts)):
        build_partition(layout, Rules(), store, p)
        offs, edges = store.graph(p)
        lo, hi = layout.partition_range(p)
        for n in range(0, hi - lo, max(1, (hi - lo) // 25)):
            position = layout.position(lo + n)
            if any(surrounded(position)):
                assert store.values[lo + n] == TERMINAL
                continue
            steps = [
                s for s in legal_steps(position) if s.action.kind != "put" or layout.mask >> s.action.dove & 1
            ]
            if any(s.outcome == 1 for s in steps):
                assert store.values[lo + n] == 1
                continue
            children = sorted(layout.rank(s.position) for s in steps if s.outcome == 0)
            assert sorted(edges[offs[n] : offs[n + 1]].tolist()) == children, position.board_string()
            checked += 1
    assert checked > 150


def test_same_doves_k2_solved_and_matches_the_search(at_at) -> None:
    layout, result, store = at_at
    assert (result.classes, result.terminal) == (298_490, 6_876)
    assert (result.win, result.loss, result.draw) == (13_371, 142, 278_101)
    assert result.start_value == "Draw" and result.longest_win == 5
    assert result.win + result.loss + result.draw + result.terminal == result.classes
    # the longest win is a real Win(5) for the search too
    longest = int(np.argmax(np.where(store.values == TERMINAL, 0, store.values)))
    assert layout.position(longest).board_string() == result.longest_win_board
    assert store.values[longest] == 5
    check = cross_check(layout, Rules(), store.values, 300, depth=7, seed=1)
    assert check.checked == 300 and check.decided > 100
    assert check.mismatches == []


@pytest.mark.parametrize(
    "rules", [Rules(allow_remove=False), Rules(both_surrounded="draw"), Rules(both_surrounded="mover_wins")]
)
def test_rule_options_match_the_search(rules: Rules) -> None:
    layout = Layout.from_letters("M", "HT")
    result, store = solve(layout, rules)
    assert result.win > 0 and result.loss > 0
    check = cross_check(layout, rules, store.values, 150, depth=7, seed=2)
    assert check.decided >= 10 and check.mismatches == []


def test_disk_store_is_identical_and_restartable(tmp_path) -> None:
    layout = Layout.from_letters("M", "H")
    memory, mem_store = solve(layout, Rules())
    disk, store = solve(layout, Rules(), DiskStore(tmp_path, layout))
    assert np.array_equal(np.asarray(store.values), mem_store.values)
    assert disk.decided_per_pass == memory.decided_per_pass
    # a lost partition graph (a worker died before its rename) is simply rebuilt
    (tmp_path / "graph" / "edges_3.npy").unlink()
    again, store = solve(layout, Rules(), DiskStore(tmp_path, layout))
    assert np.array_equal(np.asarray(store.values), mem_store.values)


def test_the_check_samples_as_from_the_full_index_list(monkeypatch) -> None:
    """The cross-check picks its classes block by block (no list of every live index: 10 GB on
    BATH-bamth); the picks are those of ``rng.sample`` over the full list, across block edges."""
    import random

    from solvers.doves.retro import check

    monkeypatch.setattr(check, "BLOCK", 1000)
    rng = np.random.default_rng(3)
    values = rng.integers(-9, 10, size=25_000).astype(np.int16)
    values[rng.random(25_000) < 0.3] = check.TERMINAL

    def test(block: np.ndarray) -> np.ndarray:
        return (block != check.TERMINAL) & (block != 0) & (np.abs(block) <= 7)

    every = np.flatnonzero(test(values))
    for count in (0, 1, 50, 4000, len(every) + 5):
        full = [int(every[j]) for j in random.Random(5).sample(range(len(every)), min(len(every), count))]
        assert check._sample_where(values, test, count, random.Random(5)) == full
