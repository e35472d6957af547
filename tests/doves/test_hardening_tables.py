"""Damaged and forged tablebases (issue 26): a table is used only with its checksum, its values in
range, and each answer agreeing with its successors' values; otherwise the search answers."""

from __future__ import annotations

import hashlib
import json
import os
import struct
import time
from pathlib import Path

import numpy as np
import pytest

from solvers.common.errors import InputError
from solvers.doves import tablebase
from solvers.doves.analysis import choose_action
from solvers.doves.cli import main
from solvers.doves.model import START
from solvers.doves.plugin import DovesPlugin
from solvers.doves.rules import Rules, legal_steps, parse_doves

NO_REMOVE = Rules(allow_remove=False, doves=parse_doves("M/TH"))  # 29,908 classes, the start Lose(88)
DOC = DovesPlugin().serialize_document(START, None).rstrip("\n") + "\nrules: remove=no doves=M/TH\n"


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    path, _ = tablebase.build(NO_REMOVE, tmp_path_factory.mktemp("tables"))
    return path


def parts(path: Path) -> tuple[dict, np.ndarray]:
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[8:16])
    start = 16 + length + (-(16 + length) % 16)
    return json.loads(data[16 : 16 + length]), np.frombuffer(data[start:], dtype="<i2").copy()


def forge(path: Path, header: dict, values: np.ndarray, checksum: bool = True) -> None:
    """Write a table by hand; ``checksum`` recomputes the sha256 of the (changed) values."""
    if checksum:
        header = {**header, "sha256": hashlib.sha256(values.astype("<i2").tobytes()).hexdigest()}
    blob = json.dumps(header).encode()
    pad = -(16 + len(blob)) % 16
    path.write_bytes(tablebase.MAGIC + struct.pack("<Q", len(blob)) + blob + b"\0" * pad + values.tobytes())


def start_index(good: Path) -> int:
    table = tablebase.read_table(good)
    return table.layout().rank(START)


def test_a_table_without_a_checksum_is_refused_with_its_reason(good, tmp_path) -> None:
    header, values = parts(good)
    del header["sha256"]
    values[start_index(good)] ^= 1 << 1  # Lose(88) -> Lose(86): one flipped bit, nothing else to see
    forge(tmp_path / good.name, header, values, checksum=False)
    with pytest.raises(InputError, match="no checksum .* rebuild it"):
        tablebase.find_table(NO_REMOVE, tmp_path)
    problems: list[str] = []
    assert tablebase.lookup(START.with_rules(NO_REMOVE), tmp_path, problems) is None
    assert "no checksum" in problems[0]
    # building again writes a table with its checksum, which is used
    tablebase.build(NO_REMOVE, tmp_path)
    found = tablebase.lookup(START.with_rules(NO_REMOVE), tmp_path)
    assert found is not None and str(found.value) == "Lose(88)"


@pytest.mark.parametrize("bad", [12345, 4, -3, -200, 97])
def test_a_value_out_of_range_is_refused_on_load(good, tmp_path, bad) -> None:
    header, values = parts(good)
    values[start_index(good)] = bad  # with the checksum recomputed: only the range check sees it
    forge(tmp_path / good.name, header, values)
    with pytest.raises(InputError, match=f"holds {bad}, not a value of this table"):
        tablebase.find_table(NO_REMOVE, tmp_path)


def test_an_old_header_without_the_longest_distances_still_catches_win_12345(good, tmp_path) -> None:
    """A table written before the longest win/loss were recorded: only the int16 range is known at
    load, and the local check refuses the answer."""
    header, values = parts(good)
    del header["longest_win"], header["longest_loss"]
    values[start_index(good)] = 12345
    forge(tmp_path / good.name, header, values)
    problems: list[str] = []
    assert tablebase.lookup(START.with_rules(NO_REMOVE), tmp_path, problems) is None
    assert (
        "disagrees with itself" in problems[0]
        and "Win(12345) needs a successor at Lose(12344)" in problems[0]
    )


def test_a_forged_value_with_its_checksum_is_caught_by_the_local_check(good, tmp_path, monkeypatch) -> None:
    header, values = parts(good)
    values[start_index(good)] = 5  # Lose(88) -> Win(5), in range, checksum recomputed
    forge(tmp_path / good.name, header, values)
    assert tablebase.find_table(NO_REMOVE, tmp_path) is not None  # the load cannot tell
    problems: list[str] = []
    assert tablebase.lookup(START.with_rules(NO_REMOVE), tmp_path, problems) is None
    assert tablebase.best_action(START.with_rules(NO_REMOVE), tmp_path) is None
    assert len(problems) == 1 and "Win(5) needs a successor at Lose(4); the fastest is none" in problems[0]
    # the plug-in (and so the GUI's analysis) says so and searches instead
    monkeypatch.setenv(tablebase.ENV, str(tmp_path))
    info: dict[str, object] = {}
    (solution,) = DovesPlugin().solve(START.with_rules(NO_REMOVE), info=info)
    assert solution.extras["source"] == "search" and "disagrees" in str(info["tablebase_problem"])
    assert choose_action(START.with_rules(NO_REMOVE), 1) in [
        s.action for s in legal_steps(START.with_rules(NO_REMOVE))
    ]


def test_a_forged_value_deeper_in_the_line_is_caught(good, tmp_path) -> None:
    """The line shown is checked position by position: a forged successor on it stops the lookup."""
    table = tablebase.read_table(good)
    layout = table.layout()
    _, best = tablebase.perfect_steps(table, START, layout)
    header, values = parts(good)
    values[layout.rank(best[0].position)] = 85  # Win(87) -> Win(85): now the shortest loss for Red
    forge(tmp_path / good.name, header, values)
    problems: list[str] = []
    assert tablebase.lookup(START.with_rules(NO_REMOVE), tmp_path, problems) is None
    assert "disagrees with itself" in problems[0]


def test_cli_query_warns_and_searches(good, tmp_path, capsys) -> None:
    table = tablebase.read_table(good)
    layout = table.layout()
    index = int(np.flatnonzero(np.asarray(table.values) == 5)[0])
    position = layout.position(index)
    header, values = parts(good)
    values[index] = 3  # Win(5) -> Win(3)
    forge(tmp_path / good.name, header, values)
    doc = tmp_path / "p.doves"
    doc.write_text(
        DovesPlugin().serialize_document(position, None).rstrip("\n") + "\nrules: remove=no doves=M/TH\n"
    )
    assert main(["tablebase", "query", str(doc), "--dir", str(tmp_path), "--json"], DovesPlugin()) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["source"] == "search" and answer["value"] == "Win(5)"
    assert "Win(3) needs a successor at Lose(2); the fastest is Lose(4)" in answer["warning"]
    assert main(["tablebase", "query", str(doc), "--dir", str(tmp_path)], DovesPlugin()) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("warning: ") and "searched instead" in out[0] and "value: Win(5)" in out


def test_every_class_of_a_good_table_passes_the_local_check(good) -> None:
    """The local check follows the retrograde passes exactly: no false alarm on a real table."""
    table = tablebase.read_table(good)
    layout = table.layout()
    for index in range(0, layout.size, 7):  # a seventh of the classes: ~0.4 s
        tablebase.perfect_steps(table, layout.position(index), layout)


# ---- FIFOs, absurd headers, read-only folders (item 6 and 7) ---------------------------------------
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifos_in_the_tablebase_folder_are_listed_as_unusable(good, tmp_path, capsys) -> None:
    os.mkfifo(tmp_path / "x.dtb")  # a plain open would wait for a writer forever
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / good.name).symlink_to(tmp_path / "fifo")
    assert main(["tablebase", "list", "--dir", str(tmp_path), "--json"], DovesPlugin()) == 0
    entries = json.loads(capsys.readouterr().out)["tables"]
    assert len(entries) == 2 and all("not a regular file" in e["problem"] for e in entries)
    with pytest.raises(InputError, match="not a regular file"):
        tablebase.find_table(NO_REMOVE, tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_solve_searches_past_a_fifo_under_the_table_name(tmp_path, monkeypatch) -> None:
    os.mkfifo(tmp_path / tablebase.file_name(NO_REMOVE))
    monkeypatch.setenv(tablebase.ENV, str(tmp_path))
    info: dict[str, object] = {}
    position = DovesPlugin().parse("bB;M")
    (solution,) = DovesPlugin().solve(position.with_rules(NO_REMOVE), info=info)
    assert solution.extras["source"] == "search" and "not a regular file" in str(info["tablebase_problem"])


def test_an_absurd_header_is_refused_before_counting(good, tmp_path, monkeypatch) -> None:
    """5,000 doves in a header made variant_size run for minutes and solve exit 3 (timeout)."""
    header, values = parts(good)
    header["red"] = [1, 2, 3, 4, 5] * 1000
    forge(tmp_path / good.name, header, values)
    clock = time.process_time()
    with pytest.raises(InputError, match="damaged tablebase header"):
        tablebase.find_table(NO_REMOVE, tmp_path)
    for red in ([3, 3], [4, 3], [True], [3.0], "M", [0]):
        forge(tmp_path / good.name, {**header, "red": red}, values)
        with pytest.raises(InputError, match="damaged tablebase header"):
            tablebase.find_table(NO_REMOVE, tmp_path)
    assert time.process_time() - clock < 1.0
    monkeypatch.setenv(tablebase.ENV, str(tmp_path))
    info: dict[str, object] = {}
    (solution,) = DovesPlugin().solve(DovesPlugin().parse("bB;M").with_rules(NO_REMOVE), info=info)
    assert solution.extras["source"] == "search" and "damaged tablebase header" in str(
        info["tablebase_problem"]
    )


def test_build_into_a_read_only_folder_fails_before_the_solve(tmp_path, monkeypatch, capsys) -> None:
    """As root the permission bits do not stop writes: the probe (which really creates a file)
    is made to fail as on a read-only folder; as another user the bits do it."""
    from solvers.doves.retro import backward, storefiles

    def no_solve(*args: object, **kwargs: object) -> object:
        raise AssertionError("the solve ran before the folder was checked")

    monkeypatch.setattr(backward, "solve_backward", no_solve)
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() == 0:

        def read_only(*args: object, **kwargs: object) -> object:
            raise PermissionError(13, "Permission denied")

        monkeypatch.setattr(storefiles.tempfile, "NamedTemporaryFile", read_only)
    else:
        folder.chmod(0o555)
    try:
        assert main(["tablebase", "build", "M", "TH", "--dir", str(folder)], DovesPlugin()) == 2
    finally:
        folder.chmod(0o755)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot write in this folder (Permission denied)" in err[0]
    # really as root: a folder under a regular file cannot take a table either
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="cannot write in this folder"):
        tablebase.build(NO_REMOVE, tmp_path / "file" / "tables")
