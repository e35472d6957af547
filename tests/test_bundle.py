"""The PyInstaller bundle (issue 32): built for real in a temporary folder, then run with a clean
environment (no Python, no virtualenv on PATH). Slow (several minutes): ``pytest --runslow``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workbench import __version__

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("flow", "toichika", "ninetiles", "doves", "xcetero", "example")


def test_archive_holds_the_folder_under_its_name(tmp_path) -> None:
    sys.path.insert(0, str(ROOT / "packaging"))
    try:
        import build  # packaging/build.py
    finally:
        sys.path.remove(str(ROOT / "packaging"))
    import tarfile

    bundle = tmp_path / "puzzle-workbench"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "puzzle-workbench").write_text("#!/bin/sh\n")
    archive = build.make_archive(bundle, tmp_path / build.archive_name("1.2.3"))
    assert archive.name.startswith("puzzle-workbench-1.2.3-") and archive.name.endswith(".tar.gz")
    with tarfile.open(archive) as tar:
        assert "puzzle-workbench/puzzle-workbench" in tar.getnames()
    assert not list(tmp_path.glob("*.part"))


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    """A fresh build; ``PUZZLE_WORKBENCH_BUNDLE=dist/puzzle-workbench/puzzle-workbench`` tests one
    built already instead."""
    given = os.environ.get("PUZZLE_WORKBENCH_BUNDLE")
    if given:
        return Path(given).resolve()
    pytest.importorskip("PyInstaller")
    folder = tmp_path_factory.mktemp("bundle")
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "packaging" / "build.py"),
            "--dist",
            str(folder / "dist"),
            "--work",
            str(folder / "build"),
        ],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert list((folder / "dist").glob("puzzle-workbench-*.tar.gz"))
    return folder / "dist" / "puzzle-workbench" / "puzzle-workbench"


def _clean_env(home: Path) -> dict[str, str]:
    home.mkdir(exist_ok=True)
    return {"HOME": str(home), "PATH": "/usr/bin:/bin"}  # like `env -i`: no Python, no virtualenv


def _run(bundle: Path, home: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bundle), *args], capture_output=True, text=True, env=_clean_env(home), cwd=home, timeout=timeout
    )


@pytest.mark.slow
def test_bundle_version(bundle: Path, tmp_path) -> None:
    result = _run(bundle, tmp_path / "home", "--version")
    assert result.returncode == 0 and result.stdout.strip() == f"puzzle-workbench {__version__}", (
        result.stderr
    )


@pytest.mark.slow
@pytest.mark.parametrize("kind", MODULES)
def test_bundle_screenshot_of_every_module(bundle: Path, tmp_path, kind: str) -> None:
    out = tmp_path / f"{kind}.png"
    result = _run(bundle, tmp_path / "home", "--kind", kind, "--screenshot", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_bytes().startswith(b"\x89PNG") and out.stat().st_size > 10_000
    assert "Cannot open file" not in result.stderr  # an asset (icon, sample) missing from the bundle


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind, sample",
    [("flow", "flow/samples/02-7x7.txt"), ("toichika", "toichika/samples/a_6x6_first_steps.toichika")],
)
def test_bundle_solves_on_the_command_line(bundle: Path, tmp_path, kind: str, sample: str) -> None:
    result = _run(bundle, tmp_path / "home", "solve", kind, str(ROOT / "assets" / sample), "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["count"] == 1 and answer["unique"] is True and answer["complete"] is True


@pytest.mark.slow
def test_bundle_keeps_numba_kernels_in_the_user_cache(bundle: Path, tmp_path) -> None:
    result = _run(bundle, tmp_path / "home", "doves", "perft", "--depth", "2", "--json")
    assert result.returncode == 0, result.stderr
    assert list((tmp_path / "home" / ".cache" / "puzzle-workbench" / "numba").rglob("*.nbi"))
    assert not list(bundle.parent.rglob("*.nbi"))  # nothing written into the bundle


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind, sample",
    [("flow", "flow/samples/05-10x10.txt"), ("toichika", "toichika/samples/b_10x8_long_distance.toichika")],
)
def test_bundle_solves_in_its_worker_processes(bundle: Path, tmp_path, kind: str, sample: str) -> None:
    """The GUI's Solve runs in worker processes: the bundle must start itself as one."""
    out = tmp_path / "solved.png"
    command = [
        str(bundle),
        "--kind",
        kind,
        "--open",
        str(ROOT / "assets" / sample),
        "--screenshot",
        str(out),
        "--solve",
    ]
    env = _clean_env(tmp_path / "home")
    proc = subprocess.Popen(
        command, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    workers: set[int] = set()
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        workers |= _job_workers_of(proc.pid)
        time.sleep(0.05)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 0, stderr
    assert "failed to start" not in stderr and "threads from now on" not in stderr
    assert workers, "no worker process was started"
    assert out.read_bytes().startswith(b"\x89PNG")


def _job_workers_of(parent: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"--job-worker" in command:
            found.add(int(entry.name))
    return found


@pytest.mark.slow
def test_bundle_installs_its_desktop_entry(bundle: Path, tmp_path) -> None:
    env = {**_clean_env(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "share")}
    result = subprocess.run(
        [str(bundle), "--install-desktop"], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    entry = (
        tmp_path / "share" / "applications" / "local.puzzle_workbench.PuzzleWorkbench.desktop"
    ).read_text()
    assert f"Exec={bundle} %F" in entry or f'Exec="{bundle}" %F' in entry
    assert os.access(bundle, os.X_OK)
