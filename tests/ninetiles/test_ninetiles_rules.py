"""Tile data, town codec, validity, roads and the 26-theme scores against the reference data."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.common.errors import ParseError
from solvers.ninetiles.scoring import (
    DIRECTION_THEMES,
    OBJ_LABELS,
    OBJECT_THEMES,
    capture_flags,
    object_themes,
    score_town,
    score_towns,
)
from solvers.ninetiles.tiles import AGENT, ALIEN, HAMBURGER, distinct_digits, face, faces
from solvers.ninetiles.town import Town, parse_town, problems, trace_roads, validity

EXAMPLE = "206745813361230035"


def _reference_towns(ref: Path) -> tuple[list[Town], np.ndarray]:
    towns, expected = [], []
    for name in ("town_points_224221113000100031.txt", "town_points_000113123000121301.txt"):
        for line in (ref / "nine_tiles_panic" / "data" / name).read_text().split("\n"):
            if line.strip():
                towns.append(Town.from_code(line[:18]))
                expected.append(json.loads(line[18:]))
    return towns, np.array(expected)


@pytest.fixture(scope="module")
def reference_towns(shared_reference: Path) -> tuple[list[Town], np.ndarray]:
    return _reference_towns(shared_reference)


def test_tile_asset_matches_reference(shared_reference: Path) -> None:
    ref = json.loads((shared_reference / "nine_tiles_panic" / "tiles.json").read_text())
    kinds = {"hamburger": HAMBURGER, "agent": AGENT, "alien": ALIEN}
    assert len(faces()) == 18
    for tile in ref["tiles"]:
        for side in tile["sides"]:
            f = face(tile["tile"], side["side"])
            assert f.shape_class == side["road_shape_class"]
            got = sorted((s.a, s.b, s.kind, s.facing) for s in f.segments)
            want = []
            for road in side["roads"]:
                obj = road["object"]
                kind = kinds[obj["kind"]] if obj else 0
                facing = obj.get("faces_edge", -1) if obj else -1
                want.append((road["ends"][0], road["ends"][1], kind, facing))
            assert got == sorted(want), f.name
            for key, value in side["off_road"].items():
                assert getattr(f, key) == value, (f.name, key)


def test_distinct_digits_match_the_reference_table(shared_reference: Path) -> None:
    ref = json.loads((shared_reference / "nine_tiles_panic" / "tiles.json").read_text())
    mapping = ref["repo_synonym_mapping"]
    for tile in range(9):
        listed = set()
        for c, cls in mapping["groups"].items():
            turns = mapping["distinct_rotations"][c]
            for x in cls.get(str(tile), []):
                listed.update({4 * (x // 4) + (x + s) % 4 for s in range(turns)})
        # the reference keeps, per face, exactly the pictorially distinct turns we keep
        assert sorted(listed) == list(distinct_digits(tile)), tile


def test_all_reference_score_vectors(reference_towns: tuple[list[Town], np.ndarray]) -> None:
    towns, expected = reference_towns
    assert len(towns) == 9792
    assert all(validity(t)[0] for t in towns)
    got = score_towns(towns)
    bad = [(towns[k].code, list(got[k]), list(expected[k])) for k in np.nonzero((got != expected).any(1))[0]]
    assert not bad, bad[:3]


def test_example_town_roads_and_scores() -> None:
    town = Town.from_code(EXAMPLE)
    roads = trace_roads(town)
    assert [(r.start, r.end, r.length) for r in roads] == [(0, 1, 1), (4, 11, 6), (8, 35, 5), (13, 25, 2)]
    assert roads[1].positions == (1, 0, 3, 4, 1, 2)
    assert [r.object_labels() for r in roads] == [
        [],
        ["Ag-L", "H", "Al-L"],
        ["H", "Al-L", "Al-L", "H"],
        ["H", "Ag-R"],
    ]
    assert score_town(town) == [
        0,
        0,
        1,
        0,
        6,
        11,
        5,
        12,
        2,
        4,
        0,
        2,
        1,
        1,
        -4,
        1,
        0,
        1,
        2,
        0,
        4,
        1,
        5,
        2,
        1,
        1,
    ]


def test_code_and_readable_round_trips() -> None:
    town = parse_town(EXAMPLE)
    assert town.code == EXAMPLE
    assert town.readable().split("\n")[0] == "2F3 0B2 6F1"
    assert parse_town(town.readable()) == town
    assert parse_town(f"  {EXAMPLE}  # comment\r\n") == town
    partial = parse_town("2.67458133.1230035")
    assert partial.tiles[1] == -1 and not partial.complete
    assert parse_town(partial.code) == partial


@pytest.mark.parametrize(
    "text, where",
    [
        ("20674581336123003", None),
        ("206745813361230038", 18),  # direction digit 8
        ("906745813361230035", 1),  # tile 9
        ("2.6745813361230035", 2),  # tile missing but direction given
        ("2F3 0B2 6F1\n7F2 4X3 5F0\n8F0 1F3 3B1", 5),
    ],
)
def test_malformed_codes_name_the_place(text: str, where: int | None) -> None:
    with pytest.raises(ParseError) as info:
        parse_town(text)
    assert info.value.column == where


def test_validity_reasons() -> None:
    # repeated tile
    ok, reason = validity(Town.from_code("006745813361230035"))
    assert not ok and "tile 0" in reason and "R1C1, R1C2" in reason
    # turning the bottom-right tile breaks the seam with position 5 (and 7)
    broken = Town.from_code(EXAMPLE).rotated_tile(8, 1)
    codes = [(p.code, p.positions) for p in problems(broken)]
    assert ("edgeMismatch", (5, 8)) in codes
    ok, reason = validity(Town.from_code("2.67458133.1230035"))
    assert not ok and reason == "incomplete: R1C2 is empty"


def test_loop_is_detected() -> None:
    # four one-curve faces around the top-left 2x2 block form a ring
    ring = Town().with_position(0, 1, 2).with_position(1, 5, 1).with_position(3, 8, 3).with_position(4, 2, 6)
    found = [p for p in problems(ring) if p.code == "loop"]
    assert found and found[0].positions == (0, 1, 3, 4), problems(ring)
    assert any(r.closed for r in trace_roads(ring))


def test_whole_town_rotation_keeps_validity_and_symmetric_themes(
    reference_towns: tuple[list[Town], np.ndarray],
) -> None:
    towns = reference_towns[0][::7]
    rotated = [t.rotated_town() for t in towns]
    assert all(validity(t)[0] for t in rotated)
    assert [t.rotated_town().rotated_town().rotated_town() for t in rotated] == towns
    a, b = score_towns(towns), score_towns(rotated)
    keep = [k for k in range(26) if k + 1 not in DIRECTION_THEMES]
    assert (a[:, keep] == b[:, keep]).all()


def _road_themes(*roads: list[str]) -> dict[int, int]:
    """Object themes of hand-made roads (1 hamburger, 1 UFO, no netted alien in the town)."""
    objs = np.zeros((len(roads), 18), dtype=np.int8)
    nobj = np.zeros(len(roads), dtype=np.int8)
    for r, road in enumerate(roads):
        nobj[r] = len(road)
        for i, label in enumerate(road):
            objs[r, i] = OBJ_LABELS.index(label)
    out = np.zeros(26, dtype=np.int32)
    object_themes(out, len(roads), objs, nobj, 0, 1, 1)
    return {t: int(out[t - 1]) for t in OBJECT_THEMES}


def test_capture_pass_examples_from_the_rules() -> None:
    assert _road_themes(["Ag-R", "Ag-R", "Al-L", "Al-R"])[1] == 1
    assert _road_themes(["Al-L", "Al-R", "Ag-L", "Ag-L"])[1] == 2  # same road read from the other end
    assert _road_themes(["Al-L", "Al-L", "Ag-L", "Ag-L"])[1] == 1  # only the latest free alien is remembered
    assert _road_themes(["Ag-R", "Ag-L", "Al-R"])[1] == 1  # agents do not block each other
    free = _road_themes(["Al-R", "H", "H", "Al-R", "H"])
    assert (free[1], free[19], free[16], free[8], free[17]) == (0, 2, 2, 2, 2)


def test_pair_and_sequence_themes() -> None:
    assert _road_themes(["Ag-R", "Al-L", "Ag-R", "Al-R", "Ag-L"])[2] == 1
    assert _road_themes(["Ag-R", "Al-L", "Al-R", "Ag-L"])[18] == 1
    assert _road_themes(["Al-R", "Al-R", "Ag-L", "Al-R", "Ag-R"])[18] == 2
    assert _road_themes(["Ag-R", "Al-R", "H", "Al-L", "Ag-L"])[20] == 2
    assert _road_themes(["Ag-R", "Al-R", "Ag-L", "H"])[20] == 0
    assert _road_themes(["Ag-R", "Ag-L"], ["Ag-L", "Al-L", "Ag-R"])[14] == 2


codes = st.text(alphabet="0123456789.-x", min_size=0, max_size=20)


@settings(max_examples=300, deadline=None)
@given(codes)
def test_random_codes_never_crash(text: str) -> None:
    try:
        town = parse_town(text)
    except ParseError:
        return
    ok, _ = validity(town)
    trace_roads(town)
    if ok:
        assert len(score_town(town)) == 26


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(9)), st.lists(st.integers(0, 7), min_size=9, max_size=9))
def test_random_tile_layouts_are_consistent(perm: list[int], dirs: list[int]) -> None:
    town = Town(tuple(perm), tuple(dirs))
    ok, reason = validity(town)
    assert ok == (reason is None)
    roads = trace_roads(town)
    if ok:
        assert sum(r.length for r in roads) == sum(len(town.segments_at(p)) for p in range(9))
        assert all(not r.closed and not r.open_ends for r in roads)
        assert len(score_town(town)) == 26


def test_display_capture_flags_agree_with_theme_1(reference_towns: tuple[list[Town], np.ndarray]) -> None:
    towns, expected = reference_towns
    for town, scores in zip(towns[::5], expected[::5], strict=True):
        caught = sum(sum(capture_flags(r.object_labels())) for r in trace_roads(town))
        netted = sum(town.face_at(p).aliens_off_road_captured for p in range(9))
        assert caught + netted == scores[0], town.code
