"""The retrograde analysis against an independent plain fixpoint solver, plus structural checks."""

from __future__ import annotations

import numpy as np
import pytest
from xcetero_reference import UNKNOWN, explore, fixpoint, symmetry_classes

from solvers.xcetero import engine, retro
from solvers.xcetero.rules import Position
from solvers.xcetero.states import OFF, state_space


@pytest.fixture(scope="module", params=[False, True], ids=["published", "may-return"])
def both(request: pytest.FixtureRequest) -> tuple[retro.Analysis, list[tuple[str, int]], np.ndarray]:
    states, children = explore(request.param)
    return retro.analyse(request.param), states, fixpoint(children)


def _indices(analysis: retro.Analysis, states: list[tuple[str, int]]) -> np.ndarray:
    pos = np.full((len(states), 6), OFF, dtype=np.int64)
    for i, (board, _) in enumerate(states):
        for square, ch in enumerate(board):
            if ch != "0":
                pos[i, int(ch) - 1] = square
    return analysis.space.index(pos, np.array([d for _, d in states]))


def test_state_space_size() -> None:
    space = state_space()
    # 1 + 9 + 72 + 504 + 3024 + 15120 placement states, 9P6 * 6 movement states (rules.md section 3)
    assert space.placement == 18730
    assert space.size == 18730 + 60480 * 6
    numbers = space.index(space.pos, space.due)
    assert np.array_equal(numbers, np.arange(space.size))


def test_values_match_the_fixpoint_solver(both) -> None:
    analysis, states, reference = both
    idx = _indices(analysis, states)
    assert np.unique(idx).size == len(states)
    # the same reachable set
    assert int(analysis.reachable.sum()) == len(states)
    assert analysis.reachable[idx].all()
    out = analysis.outcome[idx].astype(np.int64)
    dist = analysis.distance[idx].astype(np.int64)
    mine = np.where(out == retro.WIN, dist, np.where(out == retro.LOSS, -dist - 1, UNKNOWN))
    assert np.array_equal(mine, reference)


def test_summary_counts_match_the_fixpoint_solver(both) -> None:
    analysis, states, reference = both
    facts = retro.summary(analysis)
    terminal = reference == -1
    # a finished state is LOSS 0 and has no moves; the empty board is the only other state without
    # a predecessor but it has moves, so "finished" = LOSS 0
    live = ~terminal
    assert facts["reachable"] == len(states)
    assert facts["finished"] == int(terminal.sum())
    assert facts["live"] == int(live.sum())
    assert facts["win"] == int((live & (reference >= 0) & (reference != UNKNOWN)).sum())
    assert facts["loss"] == int((live & (reference < 0)).sum())
    assert facts["draw"] == int((reference == UNKNOWN).sum())
    assert facts["win"] + facts["loss"] + facts["draw"] == facts["live"]
    assert facts["symmetry_classes"] == symmetry_classes(states)
    wins = reference[live & (reference != UNKNOWN) & (reference >= 0)]
    losses = -reference[live & (reference < 0)] - 1
    assert facts["longest_win"] == (int(wins.max()) if wins.size else 0)
    assert facts["longest_loss"] == (int(losses.max()) if losses.size else 0)


def test_headline_results() -> None:
    facts = retro.summary(retro.analyse())
    # values computed twice independently (see the fixpoint comparison above); pinned here
    assert facts["reachable"] == 347050 and facts["finished"] == 33408
    assert facts["initial"] == "Win(13)"
    edges = {"1", "3", "5", "7"}
    assert {sq for sq, v in facts["first_moves"].items() if v == "Win(13)"} == edges
    assert all(v == "Draw" for sq, v in facts["first_moves"].items() if sq not in edges)
    variant = retro.summary(retro.analyse(True))
    assert variant["initial"] == "Draw" and variant["loss"] == 0


@pytest.mark.parametrize("may_return", [False, True])
def test_every_value_is_backed_by_its_moves(may_return: bool) -> None:
    a = retro.analyse(may_return)
    succ = a.succ
    has = succ >= 0
    child_out = np.where(has, a.outcome[np.maximum(succ, 0)], 0)
    child_dist = np.where(has, a.distance[np.maximum(succ, 0)], -1).astype(np.int64)
    out, dist = a.outcome, a.distance.astype(np.int64)
    # finished states are exactly the LOSS 0 states and have no moves
    assert np.array_equal(a.finished, (out == retro.LOSS) & (dist == 0))
    assert not has[a.finished].any()
    # every live state has a move
    assert has[~a.finished].any(axis=1).all()
    win = out == retro.WIN
    to_loss = has & (child_out == retro.LOSS)
    # WIN n: some move reaches LOSS n-1 and none a shorter loss
    assert (to_loss & (child_dist == dist[:, None] - 1)).any(axis=1)[win].all()
    assert not (to_loss & (child_dist < dist[:, None] - 1))[win].any()
    # LOSS n (n > 0): every move reaches a WIN of at most n-1, one exactly n-1
    loss = (out == retro.LOSS) & ~a.finished
    to_win = has & (child_out == retro.WIN)
    assert (to_win | ~has)[loss].all()
    assert (to_win & (child_dist == dist[:, None] - 1)).any(axis=1)[loss].all()
    assert not (to_win & (child_dist > dist[:, None] - 1))[loss].any()
    # DRAW: no move to an opponent's loss, at least one move to another draw
    draw = (out == retro.DRAW) & ~a.finished
    assert not to_loss[draw].any()
    assert (has & (child_out == retro.DRAW)).any(axis=1)[draw].all()
    # distances: wins odd, losses even
    assert (dist[win] % 2 == 1).all() and (dist[out == retro.LOSS] % 2 == 0).all()


def test_values_are_symmetric() -> None:
    a = retro.analyse()
    space = a.space
    for perm in (np.array([6, 3, 0, 7, 4, 1, 8, 5, 2]), np.array([2, 1, 0, 5, 4, 3, 8, 7, 6])):
        image = space.index(np.append(perm, OFF)[space.pos], space.due)
        assert np.array_equal(a.outcome[image], a.outcome)
        assert np.array_equal(a.distance[image], a.distance)
        assert np.array_equal(a.reachable[image], a.reachable)
        assert np.array_equal(a.canonical[image], a.canonical)
    assert (a.canonical <= np.arange(space.size)).all()


def test_principal_variations_realise_the_values() -> None:
    a = retro.analyse()
    rng = np.random.default_rng(7)
    live = np.flatnonzero(a.reachable & ~a.finished)
    for state in rng.choice(live, 300, replace=False):
        squares, due = a.space.squares_of(int(state))
        start = Position(squares, due)
        value = engine.value(start)
        line = engine.principal_variation(start)
        end = start
        seen = [end.key()]
        for square in line:
            end = end.play(square)  # raises if a move is illegal
            seen.append(end.key())
        if value.outcome == retro.DRAW:
            assert end.winner() is None and seen.count(end.key()) == 2
        else:
            assert len(line) == value.distance
            expected = start.mover() if value.outcome == retro.WIN else start.last_mover()
            assert end.winner() == expected


def test_analysis_stops_on_cancel_and_caches_nothing() -> None:
    """Cancel is polled often (gaps between polls stay far below a freeze) and a cancelled run
    caches nothing. The token cancels itself at a chosen poll, so the test does not depend on how
    fast this machine runs the passes (a warm run can finish before any timer fires)."""
    import time

    from solvers.common.cancel import Cancelled, CancelToken

    class CancelAtPoll(CancelToken):
        def __init__(self, at: int) -> None:
            super().__init__()
            self.at = at
            self.polls: list[float] = []

        def raise_if_cancelled(self) -> None:
            self.polls.append(time.process_time())  # CPU time between polls: work, not load
            if len(self.polls) == self.at:
                self.cancel()
            super().raise_if_cancelled()

    retro.analyse(False)  # warm the state numbering (built once per process)
    retro.clear_cache()
    counter = CancelAtPoll(at=0)  # never fires: counts the polls of a whole run
    retro.analyse(True, counter)
    assert len(counter.polls) >= 4
    gaps = [b - a for a, b in zip(counter.polls, counter.polls[1:], strict=False)]
    assert max(gaps) < 0.6  # polled between passes of <= ~0.15 s (a freeze bound, not a timing)
    retro.clear_cache()
    token = CancelAtPoll(at=len(counter.polls) // 2)
    with pytest.raises(Cancelled):
        retro.analyse(True, token)
    assert not retro.is_cached(True)  # nothing half-built was cached
    assert retro.summary(retro.analyse(True))["reachable"] > 0


def test_cli_analyse_timeout_stops_without_the_watchdog(monkeypatch, capsys) -> None:
    import os
    import time

    from solvers.xcetero import PLUGIN

    retro.clear_cache()
    forced: list[int] = []
    monkeypatch.setattr(os, "_exit", forced.append)
    start = time.process_time()
    assert PLUGIN.cli(["analyse", "--timeout", "0.1"]) == 3
    assert time.process_time() - start < 2.0 and forced == []
    assert "timed out after 0.1 s" in capsys.readouterr().err


def test_the_help_says_what_the_analysis_finds() -> None:
    """The rules help once said "neither side can force a win" beside a panel showing Win(13)."""
    from solvers.common.words import cell_name
    from solvers.xcetero.plugin import PLUGIN

    facts = retro.summary(retro.analyse())
    text = PLUGIN.help_rules()
    assert facts["initial"] == "Win(13)" and "O, who moves first, wins in 13 plies" in text
    first = facts["first_moves"]
    assert isinstance(first, dict)
    winning = [cell_name(*divmod(int(sq), 3)) for sq, v in sorted(first.items()) if v == facts["initial"]]
    assert f"({', '.join(winning[:-1])} or {winning[-1]})" in text
    assert all(v == "Draw" for sq, v in first.items() if v != facts["initial"]) and "only draws" in text
