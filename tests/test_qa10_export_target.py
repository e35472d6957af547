"""QA pass 10: where an export may not go. A read-only file was silently replaced (``os.replace``
needs only the folder writable), and a folder as the output was called an "unknown export format"."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from solvers.common import registry
from workbench.cli import main

SAMPLE = registry.get("flow").sample_paths()[0]


def test_read_only_file_is_not_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "kept.png"
    out.write_bytes(b"keep me")
    out.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    try:
        assert main(["export", "flow", str(SAMPLE), str(out)]) == 2
        assert out.read_bytes() == b"keep me"
        assert "read-only" in capsys.readouterr().err
        assert [p.name for p in tmp_path.iterdir()] == ["kept.png"]  # no temporary file left
    finally:
        out.chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_writable_file_is_still_replaced(tmp_path: Path) -> None:
    out = tmp_path / "old.svg"
    out.write_text("old")
    assert main(["export", "flow", str(SAMPLE), str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<?xml")


def test_folder_as_output_is_named_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "pictures.png"
    folder.mkdir()
    assert main(["export", "flow", str(SAMPLE), str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert main(["export", "flow", str(SAMPLE), str(folder)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert folder.is_dir()
