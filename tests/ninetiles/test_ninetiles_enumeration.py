"""Synonym towns, expansion and the result store (test-sized), checked by independent brute force."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from solvers.common.cancel import Cancelled, CancelToken
from solvers.ninetiles import PLUGIN
from solvers.ninetiles import enumeration as E
from solvers.ninetiles.scoring import score_towns, theme_values
from solvers.ninetiles.store import Store
from solvers.ninetiles.store_build import build
from solvers.ninetiles.town import Town, validity

SUBSET = 24


def _row(code: str) -> np.ndarray:
    return np.array([int(c) for c in code], dtype=np.int8)


def test_synonym_towns_match_the_reference(shared_reference: Path) -> None:
    syn = E.synonym_towns()
    ref = (shared_reference / "nine_tiles_panic" / "data" / "synonym_pattern.txt").read_text().split()
    assert syn.shape == (63660, 18)
    assert {E.synonym_code(r) for r in syn} == set(ref)


def test_total_town_count() -> None:
    assert sum(E.count_towns(r) for r in E.synonym_towns()) == 526_070_976


def test_expansion_reproduces_the_reference_towns_and_scores(shared_reference: Path) -> None:
    data = shared_reference / "nine_tiles_panic" / "data"
    for name in ("224221113000100031", "000113123000121301"):
        expected = {}
        for line in (data / f"town_points_{name}.txt").read_text().split("\n"):
            if line.strip():
                expected[line[:18]] = json.loads(line[18:])
        hi, lo, codes = E.expand(_row(name), emit_codes=True)
        got = dict(zip(E.code_strings(codes), E.unpack(hi, lo).tolist(), strict=True))
        assert got == expected


def test_expanded_towns_are_valid_and_scored_like_the_direct_scorer() -> None:
    rng = np.random.default_rng(3)
    syn = E.synonym_towns()
    for sid in rng.choice(syn.shape[0], 6, replace=False):
        hi, lo, codes = E.expand(syn[sid], emit_codes=True)
        pick = rng.choice(codes.shape[0], min(40, codes.shape[0]), replace=False)
        towns = [Town.from_code(c) for c in E.code_strings(codes[pick])]
        assert all(validity(t)[0] for t in towns)
        assert len(set(E.code_strings(codes))) == codes.shape[0]  # no town twice
        assert (score_towns(towns) == E.unpack(hi[pick], lo[pick])).all()


def test_pack_round_trip() -> None:
    vectors = np.array(
        [[v % 21 if k not in (3, 14) else 0 for k, v in enumerate(range(i, i + 26))] for i in range(50)]
    )
    vectors[:, 14] = -vectors[:, 9]
    assert (E.unpack(*E.pack(vectors)) == vectors).all()


# ---- the store ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("ntstore")
    build(folder, workers=1, subset=SUBSET, shards=3)
    return folder


@pytest.fixture(scope="module")
def brute(small_store: Path) -> tuple[list[str], np.ndarray]:
    """Every town of the subset with its scores, straight from the expansion (no store code)."""
    syn = np.load(small_store / "synonyms.npy")
    codes, vecs = [], []
    for row in syn:
        hi, lo, c = E.expand(row, emit_codes=True)
        codes += E.code_strings(c)
        vecs.append(E.unpack(hi, lo))
    return codes, np.concatenate(vecs)


def test_store_vectors_and_counts(small_store: Path, brute: tuple[list[str], np.ndarray]) -> None:
    store = Store(small_store)
    codes, vecs = brute
    want = Counter(map(tuple, vecs.tolist()))
    got = {tuple(store.vector(v)): int(store.count[v]) for v in range(store.n_vectors)}
    assert got == want
    stats = store.stats()
    assert stats["towns"] == len(codes) and stats["synonym_towns"] == SUBSET
    for t in range(26):
        col = vecs[:, t]
        entry = stats["per_theme"][str(t + 1)]
        assert entry["values"] == sorted(set(col.tolist()))
        assert entry["max"] == col.max() and entry["towns_at_max"] == int((col == col.max()).sum())
    at_max = vecs == vecs.max(axis=0)
    for a, b, c in [(1, 2, 3), (4, 11, 15), (5, 6, 13), (9, 12, 21)]:
        n = int((at_max[:, a - 1] & at_max[:, b - 1] & at_max[:, c - 1]).sum())
        assert stats["perfect_theme_sets"].get(f"{a},{b},{c}", 0) == n
    for t in range(26):
        values, towns = np.unique(vecs[:, t], return_counts=True)
        assert stats["histograms"][str(t + 1)] == {str(v): int(n) for v, n in zip(values, towns, strict=True)}
    shipped = theme_values()  # the full run's values (asset) include every subset value
    for t in range(1, 27):
        assert set(stats["per_theme"][str(t)]["values"]) <= set(shipped[t]["values"])
    most = int(at_max.sum(axis=1).max())
    assert stats["max_themes_at_max"]["count"] == most


def _brute_best(vecs: np.ndarray, themes: tuple[int, int, int]) -> tuple[int, int, np.ndarray]:
    ranks = []
    for t in themes:
        values = sorted(set(vecs[:, t - 1].tolist()), reverse=True)
        ranks.append(np.array([values.index(v) for v in vecs[:, t - 1]]))
    at_max = sum((r == 0).astype(int) for r in ranks)
    dist = sum(r**2 for r in ranks)
    best_at = at_max.max()
    best_dist = dist[at_max == best_at].min()
    return int(best_at), int(best_dist), (at_max == best_at) & (dist == best_dist)


@pytest.mark.parametrize("themes", [(1, 2, 20), (5, 8, 16), (3, 12, 24), (4, 11, 15)])
def test_best_matches_brute_force(small_store: Path, brute: tuple[list[str], np.ndarray], themes) -> None:
    codes, vecs = brute
    result = Store(small_store).best(themes, limit=7)
    best_at, best_dist, mask = _brute_best(vecs, themes)
    assert (result["at_max"], result["distance"]) == (best_at, best_dist)
    assert result["town_count"] == int(mask.sum())
    winners = {codes[i] for i in np.flatnonzero(mask)}
    assert result["towns"] and set(result["towns"]) <= winners
    assert len(result["towns"]) == min(7, len(winners))
    # every reported town re-scored independently has one of the reported vectors
    rescored = score_towns([Town.from_code(c) for c in result["towns"]]).tolist()
    assert all(v in result["score_vectors"] or result["score_vector_count"] > 7 for v in rescored)
    assert rescored[0] == result["score_vectors"][0]
    # paging reaches every optimal town exactly once
    paged = []
    while len(paged) < result["town_count"]:
        page = Store(small_store).best(themes, limit=50, offset=len(paged))["towns"]
        assert page
        paged += page
    assert sorted(paged) == sorted(winners)


def test_paging_towns_of_a_vector(small_store: Path, brute: tuple[list[str], np.ndarray]) -> None:
    codes, vecs = brute
    store = Store(small_store)
    v = int(np.argmax(np.asarray(store.count)))
    vector = store.vector(v)
    assert store.find_vector(vector) == v
    everything = [c for c, _ in store.towns_of_vectors([v], 0, 10**9)]
    assert sorted(everything) == sorted(codes[i] for i in np.flatnonzero((vecs == vector).all(axis=1)))
    pages = [c for off in range(0, len(everything), 5) for c, _ in store.towns_of_vectors([v], off, 5)]
    assert pages == everything


def test_cancel_then_resume(tmp_path: Path) -> None:
    token = CancelToken()
    seen = []

    def progress(info: dict) -> None:
        seen.append(info)
        token.cancel()  # stop after the first shard

    with pytest.raises(Cancelled):
        build(tmp_path, workers=1, subset=12, shards=4, cancel=token, progress=progress)
    assert len(list((tmp_path / "shards").glob("shard_*.npz"))) == 1
    with pytest.raises(Exception, match="incomplete"):
        Store(tmp_path)
    report = build(tmp_path, workers=1, subset=12, shards=4)
    assert report.towns == sum(E.count_towns(r) for r in np.load(tmp_path / "synonyms.npy"))
    assert Store(tmp_path).stats()["towns"] == report.towns


def test_parallel_build_gives_the_same_store(tmp_path: Path, small_store: Path) -> None:
    build(tmp_path, workers=2, subset=SUBSET, shards=3)
    for name in ("vec_hi", "vec_lo", "vec_count", "post_syn", "post_cnt"):
        assert (np.load(tmp_path / f"{name}.npy") == np.load(small_store / f"{name}.npy")).all(), name


def test_store_cli(small_store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert PLUGIN.cli(["stats", "--store", str(small_store), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert set(stats) >= {
        "synonym_towns",
        "towns",
        "score_vectors",
        "per_theme",
        "perfect_theme_sets",
        "max_themes_at_max",
        "closest_to_all_max",
    }
    assert all(len(k.split(",")) == 3 for k in stats["perfect_theme_sets"])
    assert PLUGIN.cli(["best", "1", "2", "20", "--store", str(small_store), "--limit", "3", "--json"]) == 0
    best = json.loads(capsys.readouterr().out)
    assert best["themes"] == [1, 2, 20] and len(best["towns"]) <= 3
    assert all(len(v) == 26 for v in best["score_vectors"])
    assert PLUGIN.cli(["stats", "--store", str(tmp_path / "missing"), "--json"]) != 0
    assert "no ninetiles store" in capsys.readouterr().err
    assert PLUGIN.cli(["best", "1", "1", "2", "--store", str(small_store)]) == 2
    closest = stats["closest_to_all_max"]
    rescored = score_towns([Town.from_code(c) for c in closest["towns"][:5]]).tolist()
    assert all(v == closest["score_vector"] or v in closest["score_vectors"] for v in rescored)


def test_perfect_sets_are_consistent_with_per_theme_maxima(small_store: Path) -> None:
    stats = Store(small_store).stats()
    for key, n in stats["perfect_theme_sets"].items():
        for t in map(int, key.split(",")):
            assert n <= stats["per_theme"][str(t)]["towns_at_max"]
    assert all(a < b < c for a, b, c in (map(int, k.split(",")) for k in stats["perfect_theme_sets"]))
    assert len(list(itertools.combinations(range(26), 3))) == 2600
