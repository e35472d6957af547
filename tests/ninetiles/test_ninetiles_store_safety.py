"""The Nine Tiles store never deletes what it did not write, and a damaged store is a clean error."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from solvers.common.errors import InputError
from solvers.ninetiles import PLUGIN
from solvers.ninetiles.store import FORMAT, MANIFEST, Store
from solvers.ninetiles.store_build import build

SUBSET = 6  # a tiny build (about a second) that still holds legal towns


def _tiny(folder: Path) -> None:
    build(folder, workers=1, subset=SUBSET, shards=2)


def _foreign(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "notes.txt").write_text("mine\n")
    (folder / "photos").mkdir()
    (folder / "photos" / "a.jpg").write_bytes(b"\xff\xd8")


def _foreign_survives(folder: Path) -> None:
    assert (folder / "notes.txt").read_text() == "mine\n"
    assert (folder / "photos" / "a.jpg").read_bytes() == b"\xff\xd8"


@pytest.fixture(scope="module")
def tiny_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("store")
    _tiny(folder)
    return folder


def test_a_folder_of_other_files_is_refused_untouched(tmp_path: Path) -> None:
    _foreign(tmp_path)
    with pytest.raises(InputError, match="no ninetiles store"):
        _tiny(tmp_path)
    _foreign_survives(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "photos"]


def test_a_meta_json_of_another_format_is_refused_untouched(tmp_path: Path) -> None:
    _foreign(tmp_path)
    (tmp_path / "meta.json").write_text('{"format": "somebody else v3", "complete": true}')
    with pytest.raises(InputError, match="no ninetiles store"):
        _tiny(tmp_path)
    _foreign_survives(tmp_path)
    assert json.loads((tmp_path / "meta.json").read_text())["format"] == "somebody else v3"


def test_rebuilding_a_finished_store_keeps_foreign_files(tmp_path: Path) -> None:
    _tiny(tmp_path)
    _foreign(tmp_path)
    (tmp_path / "shards").mkdir()
    (tmp_path / "shards" / "keep.txt").write_text("also mine")
    _tiny(tmp_path)  # complete: rebuilt from scratch
    _foreign_survives(tmp_path)
    assert (tmp_path / "shards" / "keep.txt").read_text() == "also mine"
    assert Store(tmp_path).stats()["synonym_towns"] == SUBSET
    written = json.loads((tmp_path / MANIFEST).read_text())
    assert written["format"] == FORMAT and "notes.txt" not in written["files"]


def test_a_different_subset_rebuilds_but_keeps_foreign_files(tmp_path: Path) -> None:
    _tiny(tmp_path)
    _foreign(tmp_path)
    build(tmp_path, workers=1, subset=SUBSET + 2, shards=2)
    _foreign_survives(tmp_path)
    assert Store(tmp_path).stats()["synonym_towns"] == SUBSET + 2


def test_subsets_without_towns_and_bad_paths_fail_before_creating_anything(tmp_path: Path) -> None:
    for subset in (1, 2):
        with pytest.raises(InputError, match="no legal town"):
            build(tmp_path / f"s{subset}", workers=1, subset=subset)
        assert not (tmp_path / f"s{subset}").exists()
    with pytest.raises(InputError, match="between 1 and"):
        build(tmp_path / "neg", workers=1, subset=-1)
    assert not (tmp_path / "neg").exists()
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    with pytest.raises(InputError, match="not a folder"):
        build(a_file, workers=1, subset=SUBSET)
    with pytest.raises(InputError, match="cannot use this folder"):
        build(a_file / "below", workers=1, subset=SUBSET)
    assert a_file.read_text() == "x"


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda f: (f / "meta.json").write_text("[1]"), "not a ninetiles store"),
        (lambda f: (f / "meta.json").write_text("{garbage"), "not a ninetiles store"),
        (lambda f: (f / "vec_hi.npy").unlink(), "vec_hi.npy is missing"),
        (lambda f: (f / "post_ptr.npy").write_bytes(b"\x93NUMPY garbage"), "damaged: post_ptr.npy"),
        (lambda f: (f / "vec_cols.npy").write_bytes(b""), "damaged: vec_cols.npy"),
        (lambda f: np.save(f / "vec_count.npy", np.zeros(3, dtype=np.int64)), "do not fit together"),
        (lambda f: np.save(f / "vec_dist.npy", np.zeros(3, dtype=np.float64)), "wrong type"),
        (lambda f: np.save(f / "post_syn.npy", np.array([object()])), "damaged: post_syn.npy"),
    ],
)
def test_a_damaged_store_is_a_clean_error(
    tiny_store: Path, tmp_path: Path, damage, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "copy"
    folder.mkdir()
    for f in tiny_store.iterdir():
        if f.is_file():
            (folder / f.name).write_bytes(f.read_bytes())
    Store(folder)  # intact copy opens
    damage(folder)
    with pytest.raises(InputError, match=message):
        Store(folder)
    assert PLUGIN.cli(["stats", "--store", str(folder)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def _flip_a_score(folder: Path, themes: tuple[int, ...] = (1, 2, 3)) -> None:
    """What QA did: three bytes of the score columns changed, the file otherwise whole."""
    cols = np.load(folder / "vec_cols.npy")
    for t in themes:
        cols[t - 1, 0] = 9
    np.save(folder / "vec_cols.npy", cols)


def _copy(store: Path, folder: Path) -> Path:
    folder.mkdir()
    for f in store.iterdir():
        if f.is_file():
            (folder / f.name).write_bytes(f.read_bytes())
    return folder


def test_a_changed_score_is_caught_by_the_checksum(tiny_store: Path, tmp_path: Path, capsys) -> None:
    """QA: three changed bytes of vec_cols.npy gave "best 1 2 3: scores 4,4,5" with exit 0; the
    town reported scores 1,0,2. The build records SHA-256 sums; opening checks them."""
    folder = _copy(tiny_store, tmp_path / "copy")
    assert set(json.loads((folder / "meta.json").read_text())["sha256"]) >= {"vec_cols.npy", "synonyms.npy"}
    _flip_a_score(folder)
    assert PLUGIN.cli(["best", "1", "2", "3", "--store", str(folder), "--limit", "1"]) == 2
    assert "vec_cols.npy does not match its checksum" in capsys.readouterr().err


def test_without_sums_a_changed_score_is_caught_by_scoring_its_towns_again(
    tiny_store: Path, tmp_path: Path
) -> None:
    """A store built before the sums existed: each answer's towns are scored again."""
    folder = _copy(tiny_store, tmp_path / "old")
    meta = json.loads((folder / "meta.json").read_text())
    del meta["sha256"]
    (folder / "meta.json").write_text(json.dumps(meta))
    store = Store(folder)
    best = store.best((1, 2, 3), limit=1)
    assert best["towns"] and store.vector(0)  # intact: answers as before
    _flip_a_score(folder)
    with pytest.raises(InputError, match="differs from its packed form"):
        Store(folder).best((1, 2, 3), limit=1)


def test_damaged_stats_json_is_recomputed(tiny_store: Path, tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    folder.mkdir()
    for f in tiny_store.iterdir():
        if f.is_file():
            (folder / f.name).write_bytes(f.read_bytes())
    (folder / "stats.json").write_text('{"per_theme": 5}')
    store = Store(folder)
    assert store.stats()["towns"] == Store(tiny_store).stats()["towns"]
    assert len(store.values()) == 26


def test_cli_store_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    for argv in (
        ["enumerate", "--store", str(a_file), "--subset", "3"],
        ["enumerate", "--store", str(tmp_path / "neg"), "--subset", "-1"],
        ["enumerate", "--store", str(tmp_path / "one"), "--subset", "1"],
        ["stats", "--store", str(a_file)],
    ):
        assert PLUGIN.cli(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, (argv, err)
    assert not (tmp_path / "neg").exists() and not (tmp_path / "one").exists()


def test_a_user_file_named_like_a_shard_survives_rebuilds(tmp_path: Path) -> None:
    # shards/ is ours only for the names the build wrote (listed in the manifest): a user's
    # shard_mine.npz matches a "shard_*.npz" glob but is not one of them.
    _tiny(tmp_path)
    (tmp_path / "shards").mkdir(exist_ok=True)
    mine = tmp_path / "shards" / "shard_mine.npz"
    mine.write_bytes(b"mine")
    _tiny(tmp_path)  # finished: cleared and rebuilt, merged (shards deleted) at the end
    build(tmp_path, workers=1, subset=SUBSET + 1, shards=2)  # a different subset: cleared again
    assert mine.read_bytes() == b"mine"
    # A damaged manifest naming the user's files does not make them ours.
    (tmp_path / "notes.txt").write_text("mine\n")
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    manifest["shards"] = ["shard_mine.npz", "../notes.txt", "../meta.json"]
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))
    build(tmp_path, workers=1, subset=SUBSET + 2, shards=2)
    assert mine.read_bytes() == b"mine" and (tmp_path / "notes.txt").read_text() == "mine\n"
    assert sorted(p.name for p in (tmp_path / "shards").iterdir()) == ["shard_mine.npz"]
    assert Store(tmp_path).stats()["synonym_towns"] == SUBSET + 2
    assert json.loads((tmp_path / MANIFEST).read_text())["shards"] == []
