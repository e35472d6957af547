"""Damaged and forged tablebases (issue 26): a table is used only with its checksum, its values in
range, and each answer agreeing with its successors' values; otherwise the search answers."""

from __future__ import annotations

import hashlib
import json
import struct
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
    assert tablebase.lookup(START, NO_REMOVE, tmp_path, problems) is None
    assert "no checksum" in problems[0]
    # building again writes a table with its checksum, which is used
    tablebase.build(NO_REMOVE, tmp_path)
    found = tablebase.lookup(START, NO_REMOVE, tmp_path)
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
    assert tablebase.lookup(START, NO_REMOVE, tmp_path, problems) is None
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
    assert tablebase.lookup(START, NO_REMOVE, tmp_path, problems) is None
    assert tablebase.best_action(START, NO_REMOVE, tmp_path) is None
    assert len(problems) == 1 and "Win(5) needs a successor at Lose(4); the fastest is none" in problems[0]
    # the plug-in (and so the GUI's analysis) says so and searches instead
    monkeypatch.setenv(tablebase.ENV, str(tmp_path))
    info: dict[str, object] = {}
    (solution,) = DovesPlugin().solve(START, rules=NO_REMOVE, info=info)
    assert solution.extras["source"] == "search" and "disagrees" in str(info["tablebase_problem"])
    assert choose_action(START, 1, rules=NO_REMOVE) in [s.action for s in legal_steps(START, NO_REMOVE)]


def test_a_forged_value_deeper_in_the_line_is_caught(good, tmp_path) -> None:
    """The line shown is checked position by position: a forged successor on it stops the lookup."""
    table = tablebase.read_table(good)
    layout = table.layout()
    _, best = tablebase.perfect_steps(table, START, layout)
    header, values = parts(good)
    values[layout.rank(best[0].position)] = 85  # Win(87) -> Win(85): now the shortest loss for Red
    forge(tmp_path / good.name, header, values)
    problems: list[str] = []
    assert tablebase.lookup(START, NO_REMOVE, tmp_path, problems) is None
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
