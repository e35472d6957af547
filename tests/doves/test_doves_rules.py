"""Rules engine against rules.md examples, the simple reference implementation and perft fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from doves_reference import actions as ref_actions
from doves_reference import perft as ref_perft
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.doves import engine
from solvers.doves.model import START, Position, parse_board, parse_side
from solvers.doves.plugin import arrangement_problems
from solvers.doves.rules import Action, from_ssn, legal_steps, liberties, play, surrounded, to_ssn

FIXTURES = json.loads((Path(__file__).parent / "perft_doves.json").read_text())["positions"]


def engine_perft(position: Position, depth: int) -> int:
    b = engine.Buffers()
    return int(
        engine.perft(
            np.uint64(position.code),
            position.to_move,
            depth,
            True,
            0,
            0,
            b.pos,
            b.acts,
            b.codes,
            b.outs,
            b.libs,
        )
    )


@pytest.mark.parametrize("case", FIXTURES, ids=[f"{c['board']}/{c['to_move']}" for c in FIXTURES])
def test_engine_perft_matches_fixtures(case: dict) -> None:
    position = parse_board(case["board"], parse_side(case["to_move"]))
    for depth, expected in enumerate(case["perft"], 1):
        assert engine_perft(position, depth) == expected, depth


@pytest.mark.parametrize("case", FIXTURES, ids=[f"{c['board']}/{c['to_move']}" for c in FIXTURES])
def test_simple_implementation_reproduces_fixtures_shallow(case: dict) -> None:
    position = parse_board(case["board"], parse_side(case["to_move"]))
    for depth, expected in enumerate(case["perft"][:2], 1):
        assert ref_perft(position.squares, position.to_move, depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize("case", FIXTURES, ids=[f"{c['board']}/{c['to_move']}" for c in FIXTURES])
def test_simple_implementation_reproduces_fixtures_full(case: dict) -> None:
    position = parse_board(case["board"], parse_side(case["to_move"]))
    assert [
        ref_perft(position.squares, position.to_move, d) for d in range(1, len(case["perft"]) + 1)
    ] == case["perft"]


def test_start_position() -> None:
    assert START.code == 864_761_497_199_312_896
    assert START.board_string() == "b;B"
    ssn = sorted(to_ssn(START, a.action) for a in legal_steps(START))
    assert len(ssn) == 29
    assert "+AS1" in ssn and "BW1" in ssn
    assert "+AN1W1" not in ssn  # orthogonally beside the green boss: no put there


def test_surround_examples() -> None:
    assert surrounded(parse_board("bBh;Aa m;  M; H Y")) == (True, True)
    assert surrounded(parse_board("b h;AaBm;  M; H Y")) == (True, False)
    assert surrounded(parse_board("b h;Aa m; BM ; H Y")) == (False, False)


def test_liberty_example() -> None:
    libs = liberties(parse_board("bT; B; aHM;  m"))
    assert (libs[0], libs[8], libs[1]) == (2, 1, 1)  # red boss 2, red T 1, green boss 1


def test_move_completes_surround() -> None:
    position = parse_board(" bHh;AB M;m aY; T t")
    step = play(position, from_ssn(position, "AN1W1"))  # A one square up
    assert step.outcome == engine.MOVER_WINS
    assert surrounded(step.position) == (False, True)


def test_both_surrounded_judge_is_configurable() -> None:
    from solvers.doves.rules import Rules

    # Y steps down: the group becomes 4 tall, the new top wall closes both bosses at once
    position = parse_board("bBa;yAm;  MY")
    assert arrangement_problems(position) == []
    action = from_ssn(position, "YS3E2")
    assert play(position, action).outcome == engine.MOVER_LOSES
    assert surrounded(play(position, action).position) == (True, True)
    assert play(position.with_rules(Rules(both_surrounded="mover_wins")), action).outcome == engine.MOVER_WINS
    assert play(position.with_rules(Rules(both_surrounded="draw")), action).outcome == engine.DRAW
    assert arrangement_problems(parse_board("bBh;Aa m;  M; H Y"))[0].code == "bossSurrounded"


def test_remove_rule_can_be_switched_off() -> None:
    from solvers.doves.rules import Rules

    position = parse_board("bB;T YA")
    kinds = {s.action.kind for s in legal_steps(position)}
    assert "remove" in kinds
    no_remove = position.with_rules(Rules(allow_remove=False))
    steps = legal_steps(no_remove)
    assert "remove" not in {s.action.kind for s in steps}
    assert all(s.position.rules == no_remove.rules for s in steps)  # a successor keeps the rules


def _ref_set(position: Position) -> set:
    return {(a, child, res) for a, child, res in ref_actions(position.squares, position.to_move)}


def _engine_set(position: Position) -> set:
    return {
        (
            (s.action.kind, s.action.dove, s.action.target),
            s.position.squares,
            -1 if s.outcome == engine.MOVER_LOSES else s.outcome,
        )
        for s in legal_steps(position)
    }


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=30))
def test_random_play_stays_legal_and_matches_reference(choices: list[int]) -> None:
    """Random legal play: every position is a legal arrangement and both implementations agree."""
    position = START
    for choice in choices:
        assert _engine_set(position) == _ref_set(position)
        steps = legal_steps(position)
        step = steps[choice % len(steps)]
        assert SSN_ROUND_TRIP(position, step.action)
        if step.outcome != engine.ONGOING:
            break
        position = step.position
        assert arrangement_problems(position) == []


def SSN_ROUND_TRIP(position: Position, action: Action) -> bool:
    return from_ssn(position, to_ssn(position, action)) == action


def test_t_slides_stop_at_first_dove_and_h_jumps() -> None:
    position = parse_board("T  b;A  B")
    targets = {s.action.target for s in legal_steps(position) if s.action.dove == 8}
    # (0, 3) is b, downwards A blocks at once, and (0, 2) would strand A (isolation applies to all)
    assert targets == {(0, 1)}
    jumper = parse_board("bBH; A")
    jumps = {s.action.target for s in legal_steps(jumper) if s.action.dove == 10 and s.action.kind == "move"}
    assert (2, 1) in jumps  # over the A, landing beside it
    assert (1, 4) not in jumps  # would make the group 5 wide
    assert (2, 3) not in jumps  # would be isolated


def test_plain_liberties_agree_with_the_engine_kernel_on_random_positions() -> None:
    """The GUI's plain-Python liberties (no numba on the GUI thread) against the search's kernel."""
    import random

    rng = random.Random(7)
    checked = 0
    while checked < 3000:
        k = rng.randint(2, 12)
        cells = rng.sample([(r, c) for r in range(4) for c in range(4)], k)
        if not all(any(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for b in cells if b != a) for a in cells):
            continue
        doves = [0, 1, *rng.sample(range(2, 12), k - 2)]
        position = Position.from_cells(dict(zip(doves, cells, strict=True)), rng.randrange(2))
        pos = np.zeros(12, dtype=np.int64)
        engine.decode(np.uint64(position.code), pos)
        occ = engine.occupancy(pos)
        minr, maxr, minc, maxc = engine.bounds(occ)
        kernel = {
            i: int(engine.liberties(int(pos[i]), occ, minr, maxr, minc, maxc))
            for i in range(12)
            if pos[i] >= 0
        }
        assert liberties(position) == kernel, position.board_string()
        checked += 1


def _hand_tiles(dl) -> set[int]:
    """Doves drawn as tiles in the hand rows of a Doves display list."""
    from solvers.common.display import Rect
    from solvers.doves.drawing import TILE, TILE_FILL, hand_dove_at

    geom = dl.grid
    found = set()
    for item in dl.items:
        if isinstance(item, Rect) and item.fill in TILE_FILL.values():
            dove = hand_dove_at(int((item.y - geom.y0) // TILE), int((item.x - geom.x0) // TILE))
            if dove is not None:
                found.add(dove)
    return found


def test_a_reduced_game_draws_only_its_own_doves_in_hand() -> None:
    from solvers.doves import PLUGIN
    from solvers.doves.game import PlayEntries
    from solvers.doves.rules import Rules

    assert _hand_tiles(PLUGIN.draw(START, None, PlayEntries())) == set(range(2, 12))
    reduced = START.with_rules(Rules.from_text("doves=AT/AY"))
    # red A = dove 2, red T = 8; green A = 3, green Y = 5 (dove = 2 * kind + colour)
    assert _hand_tiles(PLUGIN.draw(reduced, None, PlayEntries())) == {2, 8, 3, 5}
