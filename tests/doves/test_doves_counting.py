"""Position counter: R2's fixed values, the shape count, and a brute-force cross-check."""

from __future__ import annotations

from itertools import combinations, permutations

import pytest

from solvers.doves.counting import count_positions
from solvers.doves.model import Position, symmetric_images
from solvers.doves.rules import surrounded


@pytest.fixture(scope="module")
def counts():
    return count_positions()


def test_r2_values(counts) -> None:
    assert counts.shapes == 5171
    assert [counts.by_doves[k]["positions"] for k in (2, 3, 4)] == [2, 180, 28_620]
    assert counts.total() == sum(counts.total(k) for k in ("neither", "one", "both"))
    assert counts.seconds < 30


def brute_force(doves: tuple[int, ...]) -> dict[str, int]:
    """Orbits of placements of exactly these doves, by enumerating every placement in 4x4."""
    seen: dict[str, set[int]] = {"neither": set(), "one": set(), "both": set()}
    squares = [(r, c) for r in range(4) for c in range(4)]
    for chosen in combinations(squares, len(doves)):
        if not any(r == 0 for r, _ in chosen) or not any(c == 0 for _, c in chosen):
            continue  # one representative per translation
        if not all(any(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for b in chosen) for a in chosen):
            continue
        for order in permutations(chosen):
            cells = dict(zip(doves, order, strict=True))
            key = min(Position.from_cells(image).code for image in symmetric_images(cells))
            red, green = surrounded(Position.from_cells(cells))
            seen["both" if red and green else "one" if red or green else "neither"].add(key)
    return {k: len(v) for k, v in seen.items()}


def test_brute_force_three_and_four_doves(counts) -> None:
    # one fixed choice of non-Boss doves; the counter's rows are C(10, k - 2) times that
    assert sum(brute_force((0, 1, 2)).values()) * 10 == counts.by_doves[3]["positions"]
    four = brute_force((0, 1, 4, 9))
    assert four["neither"] * 45 == counts.by_doves[4]["neither"]
    assert four["one"] == four["both"] == 0


@pytest.mark.slow
def test_brute_force_five_doves(counts) -> None:
    five = brute_force((0, 1, 2, 7, 10))
    for key in ("neither", "one", "both"):
        assert five[key] * 120 == counts.by_doves[5][key]


def test_blog_convention_reproduces_both_published_figures() -> None:
    from solvers.doves.counting import count_blog

    blog = count_blog()
    assert blog.total == 509_462_034_903
    assert blog.neither + blog.both == 318_195_819_783  # "neither" + "both", not "neither or own Boss"
    assert (blog.neither, blog.both) == (285_940_124_703, 32_255_695_080)


def test_blog_weighting_differs_from_orbits_only_by_comparing_images_before_translation(counts) -> None:
    import numpy as np

    from solvers.doves.counting import (
        SQUARES,
        SYM,
        _blog_representative,
        _symmetry_factor,
        _translate,
        _untranslated_images,
        canonical_shapes,
    )

    shapes = canonical_shapes().tolist()
    over = 0
    for mask in shapes:
        cells = [b for b in range(SQUARES) if mask >> b & 1]
        images = np.array([sum(1 << int(SYM[g, b]) for b in cells) for g in range(8)], dtype=np.int64)
        orbit = len(set(_translate(images).tolist()))
        stab, _ = _symmetry_factor(mask)
        assert orbit * stab == 8  # the project's weight: images compared after translation
        assert _untranslated_images(_blog_representative(mask)) >= orbit
        over += _untranslated_images(_blog_representative(mask)) > orbit
    assert 0 < over < len(shapes)  # the shapes symmetric only up to a shift are over-counted


def test_cli_count_convention(capsys) -> None:
    import json

    from solvers.doves import PLUGIN

    assert PLUGIN.cli(["count", "--convention", "blog", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 509_462_034_903 and out["neither_or_both"] == 318_195_819_783
    assert PLUGIN.cli(["count", "--convention", "nonsense"]) == 2
    assert "--convention" in capsys.readouterr().err
