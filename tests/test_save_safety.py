"""Saving never raises past its caller and never loses anything: a NUL byte in the name or text that
is not valid Unicode is one clear message with the old file intact, and a save through a symbolic
link writes the file the link points to (the link stays a link), as editors do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.common.errors import InputError
from workbench import files

ROOT = Path(__file__).resolve().parents[1]


def _no_temp_files(folder: Path) -> bool:
    return not any(files.is_our_temp_name(p.name) for p in folder.iterdir())


# ---- the atomic-write helper -------------------------------------------------------------------
@pytest.mark.parametrize("name", ["a\0b.latin", "sub\0dir/a.latin"])
def test_a_nul_byte_in_the_name_is_a_clear_error(tmp_path: Path, name: str) -> None:
    with pytest.raises(InputError, match="NUL") as caught:
        files.atomic_write(tmp_path / name, "12\n21\n")
    assert "\n" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_a_name_the_file_system_cannot_store_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a valid file name"):
        files.atomic_write(tmp_path / "a\ud800.latin", "12\n21\n")
    assert list(tmp_path.iterdir()) == []


def test_text_with_a_lone_surrogate_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    target = tmp_path / "a.latin"
    target.write_text("old\n")
    with pytest.raises(InputError, match=r"line 2, column 3.*U\+D800") as caught:
        files.atomic_write(target, "12\n21\ud800x\n")
    assert "\n" not in str(caught.value)
    assert target.read_text() == "old\n"
    assert _no_temp_files(tmp_path)


def test_a_save_through_a_symlink_writes_its_target(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "puzzle.latin"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.latin"
    link.symlink_to(Path("real") / "puzzle.latin")  # relative, as ln -s makes them
    chain = tmp_path / "chain.latin"
    chain.symlink_to(link)
    files.atomic_write(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / "puzzle.latin")
    assert target.read_text() == "new\n" and (target.stat().st_mode & 0o777) == 0o640
    files.atomic_write(chain, "newer\n")
    assert chain.is_symlink() and link.is_symlink() and target.read_text() == "newer\n"
    assert _no_temp_files(tmp_path) and _no_temp_files(tmp_path / "real")


def test_a_dangling_symlink_creates_its_target_and_a_loop_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "link.latin"
    link.symlink_to(tmp_path / "new.latin")
    files.atomic_write(link, "1\n")
    assert link.is_symlink() and (tmp_path / "new.latin").read_text() == "1\n"
    loop = tmp_path / "loop.latin"
    loop.symlink_to(loop)
    with pytest.raises(InputError, match="loop.latin: cannot follow"):
        files.atomic_write(loop, "1\n")
    assert loop.is_symlink()


# ---- the window: Save and Save As ---------------------------------------------------------------
@pytest.mark.gui
def test_the_window_reports_bad_saves_and_keeps_the_document(
    main_window, qtbot, tmp_path, monkeypatch
) -> None:
    from PySide6.QtWidgets import QFileDialog

    from solvers.common import registry

    window = main_window
    sample = tmp_path / "puzzle.latin"
    sample.write_text("12\n21\n")
    assert window.files.open_path(sample, "example")
    doc = window.current().doc
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(tmp_path / "x\0y.latin"), ""))
    )
    with qtbot.waitSignal(window.error_shown, timeout=5000) as blocker:
        assert window.files.save_as() is False
    assert "NUL" in blocker.args[0] and doc.path == sample

    plugin = registry.get("example")
    monkeypatch.setattr(type(plugin), "serialize_document", lambda self, puzzle, entries: "12\n2\ud8001\n")
    with qtbot.waitSignal(window.error_shown, timeout=5000) as blocker:
        assert window.files.save() is False
    assert "U+D800" in blocker.args[0]
    assert sample.read_text() == "12\n21\n"
    monkeypatch.undo()

    link = tmp_path / "link.latin"
    link.symlink_to(sample.name)
    assert window.files.open_path(link, "example")
    assert window.files.save() is True
    assert link.is_symlink() and sample.read_text() == "12\n21\n"


# ---- the command line: export writes through the same helper -----------------------------------
def test_cli_export_writes_through_a_symlink(tmp_path: Path) -> None:
    sample = next((ROOT / "assets" / "example" / "samples").iterdir())
    target = tmp_path / "real.svg"
    target.write_text("old")
    link = tmp_path / "out.svg"
    link.symlink_to(target.name)
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "export", "example", str(sample), str(link)],
        cwd=ROOT,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and target.read_text().lstrip().startswith("<?xml")


# ---- files in a form the plug-in does not write ---------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "text", "back"),
    [
        ("flow", "A.A\nB.B\n", True),
        ("flow", "rules: numberlink\n1.1\n2.2\n", True),
        ("flow", "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3", False),
        ("flow", "pzprv3\nnumlin\n1\n2\n1 1 \n", False),
        ("flow", "pzprv3/numlin/1/2/1 1 /", False),
        ("flow", "# fill: false\n1.1\n2.2\n", False),
        ("flow", "3 2\nA.A\nB.B\n", False),
        ("flow", "4 3\n1 . . 2 \n. . . . \n1 . . 2 \n", False),  # spaced rows under a 'W H' line
        ("flow", "2 1\n2 1\n", True),  # our spaced board, whose first row is two numbers
        ("toichika", "https://puzz.link/p?toichika/6/6/uiburcbvbdd5o15164e", False),
    ],
)
def test_save_writes_back_only_the_plugins_own_forms(kind: str, text: str, back: bool) -> None:
    """Ctrl+S after opening another tool's file (or a collection of puzzles) must not turn it into
    ours: the document opens untitled instead (``Document.load``)."""
    from solvers.common import registry

    plugin = registry.get(kind)
    plugin.parse_document(text)  # it is read
    assert plugin.writes_back(text) is back
    if back:
        assert plugin.writes_back(plugin.serialize_document(*plugin.parse_document(text)))
