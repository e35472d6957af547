"""Perfect index: a bijection between position classes and 0..size-1, agreeing with counting.py."""

from __future__ import annotations

import random
from math import comb

import numpy as np
import pytest

from solvers.common.errors import InputError
from solvers.doves.counting import count_positions
from solvers.doves.model import Position, symmetric_images
from solvers.doves.retro import indexing
from solvers.doves.retro.layout import Layout


def canonical(position: Position) -> int:
    """Class key of a position up to symmetry and side to move (model.py's own implementation)."""
    return position.canonical_key()


@pytest.mark.parametrize("red,green", [("A", "A"), ("Y", "H"), ("M", "T")])
def test_small_variants_exhaustively(red: str, green: str) -> None:
    layout = Layout.from_letters(red, green)
    keys = set()
    for p in range(len(layout.parts)):
        lo, hi = layout.partition_range(p)
        codes = layout.codes(p)
        assert len(codes) == hi - lo
        swapped = np.array([indexing.swap_colours(np.uint64(c)) for c in codes], dtype=np.uint64)
        zeros = np.zeros(len(codes), dtype=np.int64)
        # the class as played: Red to move, or (swapped partition) Green to move with colours swapped
        real = (swapped, zeros + 1) if layout.orient[p] else (codes, zeros)
        mirror = (codes, zeros) if layout.orient[p] else (swapped, zeros + 1)
        assert (layout.rank_many(*real) == np.arange(lo, hi)).all()
        other = layout.rank_many(*mirror)
        if red == green:  # same doves on both sides: colour-swapped with the other side to move, same class
            assert (other == np.arange(lo, hi)).all()
        else:  # the mirrored situation is a class of the other orientation, or has foreign doves
            half = layout.part_off[len(layout.parts) // 2]
            assert ((other == -1) | ((other >= half) != bool(layout.orient[p]))).all()
        keys.update((int(layout.orient[p]), canonical(Position.from_code(int(c)))) for c in codes)
    assert len(keys) == layout.size  # distinct classes: the index is onto *and* one-to-one


def test_partition_sizes_match_the_closed_form_count() -> None:
    tables = indexing.shape_tables(8)
    by = count_positions().by_doves
    for k in range(2, 13):
        assert tables.partition_size(k) * comb(10, k - 2) == by[k]["positions"]
    layout = Layout.from_letters("AT", "AY")
    assert layout.size == layout.expected_size(by) == 596_980
    assert len(layout.parts) == 16 + 16  # subsets of {A, T, a, y}, each with either side to move


def random_position(rng: random.Random, k: int, pool: list[int]) -> Position:
    """Random placement of both Bosses and k - 2 doves of ``pool`` (nobody isolated, within 4x4)."""
    while True:
        cells = rng.sample([(r, c) for r in range(4) for c in range(4)], k)
        if all(any(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for b in cells if b != a) for a in cells):
            doves = [0, 1, *rng.sample(pool, k - 2)]
            return Position.from_cells(dict(zip(doves, cells, strict=True)), rng.randrange(2))


def check_random(kinds: str, count: int, seed: int) -> None:
    layout = Layout.from_letters(kinds)
    pool = [d for d in range(2, 12) if "BAYMTH"[d >> 1] in kinds]
    rng = random.Random(seed)
    positions = [random_position(rng, rng.randint(2, len(pool) + 2), pool) for _ in range(count)]
    index = {}
    for pos in positions:
        r = layout.rank(pos)
        back = layout.unrank(r)
        assert back.to_move == 0 and canonical(back) == canonical(pos)
        for image in symmetric_images(pos.cells()):
            assert layout.rank(Position.from_cells(image, pos.to_move)) == r
        assert index.setdefault(canonical(pos), r) == r
    assert len(set(index.values())) == len(index)  # different classes, different indices


def test_random_positions_up_to_eight_doves() -> None:
    check_random("AYM", 400, seed=1)


@pytest.mark.slow
def test_random_positions_full_game() -> None:
    check_random("AYMTH", 5000, seed=2)


def test_rank_errors_name_the_problem() -> None:
    layout = Layout.from_letters("A", "A")
    with pytest.raises(InputError, match="outside the variant"):
        layout.rank(Position.from_cells({0: (0, 0), 1: (0, 1), 8: (1, 0)}))
    with pytest.raises(InputError, match="outside"):
        layout.unrank(layout.size)
    with pytest.raises(InputError, match="red doves"):
        Layout.from_letters("AZ")


def test_shape_tables_are_built_once_when_threads_ask_at_once(monkeypatch) -> None:
    """Analysis jobs, the AI and tablebase lookups may ask together: one builds, the rest share."""
    import threading

    from solvers.doves.retro import indexing

    monkeypatch.setattr(indexing, "_CACHE", {})
    builds: list[int] = []
    real = indexing._build_shape_tables

    def counted(kmax: int):
        builds.append(kmax)
        return real(kmax)

    monkeypatch.setattr(indexing, "_build_shape_tables", counted)
    got: list[object] = []
    start = threading.Barrier(4)

    def ask() -> None:
        start.wait()
        got.append(indexing.shape_tables(4))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert builds == [4] and len(got) == 4 and all(g is got[0] for g in got)
