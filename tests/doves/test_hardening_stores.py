"""Damaged retro stores (issue 26): a rerun of ``doves retro ... --method backward --store DIR``
checks sizes and checksums before it trusts a file, and refuses a damaged store in one line (no
traceback, no other counts with exit 0, no file silently extended)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from solvers.common.cancel import Cancelled, CancelToken
from solvers.doves.cli import main
from solvers.doves.plugin import DovesPlugin
from solvers.doves.retro import backward_store, storefiles
from solvers.doves.retro.layout import Layout
from solvers.doves.retro.solve import DiskStore
from solvers.doves.rules import Rules

ARGS = ["retro", "M", "HT", "--method", "backward", "--json"]  # BM-bth with Remove: 20 levels


def retro(store: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    code = main([*ARGS, "--store", str(store), *extra], DovesPlugin())
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def finished(ram_root: Path) -> tuple[Path, dict[str, object]]:
    root = ram_root / "hardening-stores" / "s"  # in RAM: the run flushes its tables per task
    code = main([*ARGS, "--store", str(root)], DovesPlugin())
    assert code == 0
    result = json.loads((root / "result.json").read_text())
    return root, result


@pytest.fixture
def store(finished, tmp_path) -> Path:
    copy = tmp_path / "s"
    shutil.copytree(finished[0], copy)
    return copy


def refused(store: Path, capsys: pytest.CaptureFixture[str], needle: str) -> None:
    code, out, err = retro(store, capsys)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err
    assert needle in lines[0] and "Traceback" not in err


def test_a_finished_store_answers_again(finished, store, capsys) -> None:
    code, out, _ = retro(store, capsys)
    data = json.loads(out)
    assert code == 0 and (data["win"], data["loss"], data["draw"]) == (1_261, 189, 28_254)
    assert data == {
        **finished[1],
        "seconds": data["seconds"],
        "method": "backward",
        "backward": data["backward"],
    }


def test_a_truncated_values_table_is_refused_and_not_extended(store, capsys) -> None:
    path = store / "values.npy"
    size = path.stat().st_size
    os.truncate(path, size // 2)
    refused(store, capsys, f"truncated or damaged values ({size // 2:,} bytes, expected {size:,})")
    assert path.stat().st_size == size // 2  # numpy's r+ map would have extended it with zeros
    os.truncate(path, size - 1)
    refused(store, capsys, "truncated or damaged values")


@pytest.mark.parametrize("name", ["values", "counters"])
def test_a_changed_entry_is_caught_by_the_partition_checksums(store, capsys, name) -> None:
    table = np.load(store / f"{name}.npy", mmap_mode="r+")
    table[1234] ^= 2  # same size, plausible value
    table.flush()
    del table
    refused(store, capsys, "does not match its checksum")


@pytest.mark.parametrize(
    "text,needle",
    [
        ("not json {", "damaged state file (not JSON)"),
        ("[1, 2, 3]", "not a JSON object"),
        ("", "damaged state file (not JSON)"),
        ("\xff\xfe", "damaged state file (not JSON)"),
    ],
    ids=["garbage", "list", "empty", "binary"],
)
def test_a_damaged_state_file_is_one_line(store, capsys, text, needle) -> None:
    (store / "state.json").write_text(text, encoding="latin-1")
    refused(store, capsys, needle)


@pytest.mark.parametrize(
    "levels,needle",
    [
        ("abc", "levels is not a list"),
        ([1, "x"], "levels is not a list"),
        ([-1, 2, 3], "levels is not a list"),
        ([10**12], "levels is not a list"),
        ([20000, 20000], "levels and done disagree"),
        (None, "levels is not a list"),
    ],
)
def test_garbage_levels_are_one_line(store, capsys, levels, needle) -> None:
    state = json.loads((store / "state.json").read_text())
    state["levels"] = levels
    state["done"] = False
    (store / "state.json").write_text(json.dumps(state))
    refused(store, capsys, needle)


def test_done_false_at_the_end_finishes_with_the_same_counts(finished, store, capsys) -> None:
    state = json.loads((store / "state.json").read_text())
    state["done"] = False
    (store / "state.json").write_text(json.dumps(state))
    code, out, err = retro(store, capsys)
    assert code == 0, err
    assert json.loads(out)["decided_per_pass"] == finished[1]["decided_per_pass"]
    assert json.loads((store / "state.json").read_text())["done"] is True


def test_done_false_half_way_without_the_frontier_is_one_line(store, capsys) -> None:
    state = json.loads((store / "state.json").read_text())
    state.update(levels=state["levels"][:5], done=False)
    (store / "state.json").write_text(json.dumps(state))
    refused(store, capsys, "cannot read the frontier")


@pytest.mark.parametrize(
    "content,needle",
    [
        (b"\x93NUMPY\x01\x00" + b"garbage" * 20, "not a numpy array file"),
        (b"PK\x03\x04 whatever", "not a numpy array file"),  # numpy's own message: 'pickled data'
        (None, "not a regular file"),  # a directory named values.npy
    ],
    ids=["bad-header", "foreign", "directory"],
)
def test_garbage_values_file_is_one_line(store, capsys, content, needle) -> None:
    path = store / "values.npy"
    path.unlink()
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    refused(store, capsys, needle)


def test_a_pickled_values_file_is_refused(store, capsys) -> None:
    path = store / "values.npy"
    np.save(path, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    refused(store, capsys, "not a flat array of numbers")


def test_a_changed_frontier_is_caught_by_its_checksum(tmp_path, capsys) -> None:
    """A run stopped at level 8; one class of a stored frontier is changed (same size)."""
    token = CancelToken()

    def progress(message: str) -> None:
        if message.startswith("level 8"):
            token.cancel()

    layout = Layout.from_letters("M", "HT")
    with pytest.raises(Cancelled):
        backward_store.solve_backward_stored(
            layout, Rules(), tmp_path, backward_store.run_here(token, progress), progress
        )
    frontier = max((tmp_path / "level").glob("d*_p*.npy"), key=lambda p: p.stat().st_size)
    data = np.load(frontier)
    assert len(data)
    data[0] = (data[0] + 1) % layout.size
    np.save(frontier, data)
    refused(tmp_path, capsys, "damaged frontier (it does not match its checksum)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("name", ["state.json", "values.npy", "counters.npy", "sums/p0.json"])
def test_a_fifo_in_the_store_is_refused_without_blocking(store, capsys, name) -> None:
    path = store / name
    path.unlink()
    os.mkfifo(path)  # a plain open would wait for a writer until the timeout
    refused(store, capsys, "not a regular file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_symlink_to_a_fifo_is_refused(store, capsys, tmp_path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (store / "state.json").unlink()
    (store / "state.json").symlink_to(fifo)
    refused(store, capsys, "not a regular file")


def test_a_read_only_store_is_one_line(store, capsys, monkeypatch) -> None:
    """As root, permission bits do not stop writes: the probe that really creates a file is made
    to fail as a read-only folder would make it fail (and, as another user, the bits are used)."""
    if os.geteuid() == 0:

        def read_only(*args: object, **kwargs: object) -> object:
            raise PermissionError(13, "Permission denied")

        monkeypatch.setattr(storefiles.tempfile, "NamedTemporaryFile", read_only)
    else:
        store.chmod(0o555)
    try:
        refused(store, capsys, "cannot write in this folder (Permission denied)")
    finally:
        store.chmod(0o755)


def test_the_write_probe_really_writes(tmp_path) -> None:
    """Under a regular file nothing can be created, even as root: the probe sees it."""
    (tmp_path / "file").write_text("x")
    with pytest.raises(Exception, match="cannot write in this folder"):
        storefiles.check_writable(tmp_path / "file" / "store")
    storefiles.check_writable(tmp_path / "ok")
    assert list((tmp_path / "ok").iterdir()) == []  # the probe leaves nothing behind


def test_forward_store_checks_its_table_size(tmp_path) -> None:
    layout = Layout.from_letters("A", "A")
    DiskStore(tmp_path / "f", layout)
    path = tmp_path / "f" / "values.npy"
    size = path.stat().st_size
    os.truncate(path, size - 2)
    with pytest.raises(Exception, match="truncated or damaged values"):
        DiskStore(tmp_path / "f", layout)
    assert path.stat().st_size == size - 2
