"""Issue 15, GUI side: every open path shows a dialog instead of raising, new content is untitled
(no file is ever overwritten by unrelated content), ``--screenshot`` never waits on a dialog,
and saving cleans up after killed saves."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from solvers.common import registry
from workbench import files, settings

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[1]


def _run_gui(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PUZZLE_WORKBENCH_SETTINGS="test")
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("workbench:")]


@pytest.fixture
def window(main_window):
    return main_window


@pytest.fixture
def no_save_dialog(monkeypatch):
    """Record Save As dialogs and cancel them."""
    asked: list[str] = []

    def fake(*args, **kwargs):
        asked.append(str(args[1:3]))
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake))
    return asked


# ---- item 10: command line -------------------------------------------------------------------
def test_bad_size_is_one_clean_line(tmp_path: Path) -> None:
    result = _run_gui("--size", "abc", "--screenshot", str(tmp_path / "x.png"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert _error_lines(result.stderr) == [
        "workbench: --size: expected WIDTHxHEIGHT such as 1280x800, got 'abc'"
    ]
    assert not (tmp_path / "x.png").exists()


def test_inline_open_screenshot_exits_and_garbage_names_the_reason(tmp_path: Path) -> None:
    out = tmp_path / "x.png"
    start = time.monotonic()
    result = _run_gui("--kind", "xcetero", "--open", "132/.4./5.6 due 2", "--screenshot", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_bytes().startswith(b"\x89PNG")
    assert time.monotonic() - start < 90  # it used to wait for ever on "unsaved changes"

    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\x00\xff\xfe junk")
    result = _run_gui("--open", str(garbage), "--screenshot", str(tmp_path / "y.png"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    (line,) = _error_lines(result.stderr)
    assert "garbage.bin" in line and "not a text file" in line  # the reason, not just "cannot open"


# ---- item 10: in the window ------------------------------------------------------------------
def test_devices_fifos_and_folders_are_refused_with_a_dialog(window, qtbot, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.latin"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), fifo, tmp_path):
        start = time.monotonic()
        with qtbot.waitSignal(window.error_shown, timeout=10000) as blocker:
            assert not window.files.open_path(path, "example")
        assert time.monotonic() - start < 10.0  # refused, not read for ever (slack for load)
        assert "not a regular file" in blocker.args[0]
    assert window.current().doc.path is None


def test_parser_bugs_show_a_dialog_on_every_open_path(window, qtbot, tmp_path: Path, monkeypatch) -> None:
    plugin = registry.get("example")

    def broken(text: str):
        raise ValueError("invalid literal for int() with base 10: '²'")

    # on the class: patching the shared instance would leave a bound method in its __dict__
    monkeypatch.setattr(type(plugin), "parse_document", lambda self, text: broken(text))
    path = tmp_path / "a.latin"
    path.write_text("12\n21\n")
    window.show_kind("example")
    for open_it in (
        lambda: window.files.open_path(path, "example"),
        lambda: window.files.open_recent("example", str(path)),
        lambda: window.files.open_sample("example", path),
        lambda: window.files.open_text("12\n21\n", "example"),
    ):
        with qtbot.waitSignal(window.error_shown, timeout=2000) as blocker:
            assert open_it() is False
        assert "ValueError" in blocker.args[0] and "²" in blocker.args[0]


def test_open_recent_with_an_unknown_kind_does_not_raise(window, qtbot, tmp_path: Path) -> None:
    path = tmp_path / "r.latin"
    path.write_text("12\n21\n")
    settings.add_recent(f"no-such-kind|{path}")
    settings.add_recent(f"no-such-kind|{tmp_path / 'gone.xyz'}")
    window.files.fill_recent()
    actions = {a.toolTip(): a for a in window.recent_menu.actions()}
    actions[str(path)].trigger()  # known extension: opened by its extension
    assert window.current().doc.path == path
    with qtbot.waitSignal(window.error_shown, timeout=2000):
        actions[str(tmp_path / "gone.xyz")].trigger()


def test_inline_input_opened_at_start_is_untitled_and_unmodified(window) -> None:
    assert window.files.open_text("12\n21\n", "example", fresh=True)
    doc = window.current().doc
    assert doc.path is None and not doc.dirty and not doc.undo_stack.count()


# ---- item 11: new content is untitled --------------------------------------------------------
def _open_copy(window, tmp_path: Path, kind: str, sample: Path) -> tuple[Path, bytes]:
    path = tmp_path / f"keep_me{sample.suffix}"
    path.write_bytes(sample.read_bytes())
    assert window.files.open_path(path, kind)
    return path, path.read_bytes()


def test_generated_puzzle_never_overwrites_the_opened_file(window, qtbot, tmp_path, no_save_dialog) -> None:
    plugin = registry.get("flow")
    path, original = _open_copy(window, tmp_path, "flow", plugin.sample_paths()[0])
    view = window.current()
    panel = view.panel("Flow")
    panel.generator.width_box.setValue(5)
    panel.generator.height_box.setValue(5)
    before = view.doc.puzzle
    panel.generator.generate_button.click()
    qtbot.waitUntil(lambda: view.doc.puzzle != before, timeout=20000)
    assert view.doc.path is None and view.doc.dirty
    assert not window.files.save()  # Ctrl+S: asks for a name (cancelled here) instead of replacing the file
    assert len(no_save_dialog) == 1
    assert path.read_bytes() == original
    assert "untitled" in window.windowTitle()


def test_pasted_puzzle_and_best_town_are_untitled(window, tmp_path, no_save_dialog) -> None:
    path, original = _open_copy(window, tmp_path, "example", registry.get("example").sample_paths()[0])
    assert window.files.open_text("12\n21\n")
    doc = window.current().doc
    assert doc.path is None and doc.dirty
    assert not window.files.save() and len(no_save_dialog) == 1
    assert path.read_bytes() == original
    doc.undo_stack.undo()  # the paste is one undo step; the document stays untitled
    assert doc.puzzle == registry.get("example").parse(original.decode())
    assert doc.path is None


def test_samples_and_new_puzzles_are_untitled_and_clean(window, tmp_path) -> None:
    _open_copy(window, tmp_path, "example", registry.get("example").sample_paths()[0])
    sample = registry.get("flow").sample_paths()[0]
    assert window.files.open_sample("flow", sample)
    doc = window.current().doc
    assert doc.path is None and not doc.dirty
    window.show_kind("example")
    window.files._ask_size = lambda title, size: (4, 4)
    window.files.new_puzzle()
    doc = window.current().doc
    assert doc.path is None and not doc.dirty and doc.puzzle.n == 4


# ---- item 13: stale temporary files ----------------------------------------------------------
def test_save_removes_stale_temp_files_of_our_naming_only(tmp_path: Path) -> None:
    old = time.time() - 3600
    stale = [tmp_path / ".a.latin.pwb-tmp-ab_cd123.latin", tmp_path / ".b.png.pwb-tmp-zzzzzzzz.png"]
    fresh = tmp_path / ".c.latin.pwb-tmp-12345678.latin"  # a save in progress elsewhere
    foreign = [
        tmp_path / ".notes.txt",
        tmp_path / ".a.latin.pwb-tmp-ab_cd123.png",  # suffix does not match its target
        tmp_path / ".a.latin.pwb-tmp-TOOLONG99.latin",
        tmp_path / "a.latin.abcdefgh.latin",
    ]
    for path in [*stale, fresh, *foreign]:
        path.write_text("x")
    for path in [*stale, *foreign]:
        os.utime(path, (old, old))
    target = tmp_path / "saved.latin"
    files.atomic_write(target, "12\n21\n")
    assert target.read_text() == "12\n21\n"
    assert not any(p.exists() for p in stale)
    assert fresh.exists() and all(p.exists() for p in foreign)
    leftovers = sorted(p.name for p in tmp_path.iterdir() if files.is_our_temp_name(p.name))
    assert leftovers == [fresh.name]  # the save itself left nothing behind


def test_a_killed_save_leaves_a_temp_file_that_the_next_save_removes(tmp_path: Path) -> None:
    target = tmp_path / "puzzle.latin"
    code = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from workbench.files import atomic_output\n"
        "with atomic_output(Path(sys.argv[1])) as tmp:\n"
        "    tmp.write_text('half')\n"
        "    os._exit(9)\n"  # killed mid-save: no cleanup runs
    )
    subprocess.run([sys.executable, "-c", code, str(target)], cwd=ROOT, timeout=60)
    (leftover,) = [p for p in tmp_path.iterdir() if files.is_our_temp_name(p.name)]
    assert not target.exists()
    files.atomic_write(target, "1\n")
    assert leftover.exists()  # too recent: it could be a save in progress
    old = time.time() - 120
    os.utime(leftover, (old, old))
    files.atomic_write(target, "1\n")
    assert not leftover.exists() and target.read_text() == "1\n"


def test_a_screenshot_of_a_level_pack_opens_its_first_level_without_asking(tmp_path: Path) -> None:
    # File > Open asks which level of a pack to show; a screenshot run must never wait on that.
    pack = tmp_path / "pack.txt"
    pack.write_text("3,0,1,3;0,1,2;3,4,5;6,7,8\n4:2,0,2,2;0,1,2,3;4,5,6,7\n", encoding="utf-8")
    out = tmp_path / "x.png"
    result = _run_gui("--kind", "flow", "--screenshot", str(out), str(pack))
    assert result.returncode == 0, result.stderr
    assert out.read_bytes().startswith(b"\x89PNG")
