"""A frozen bundle (PyInstaller) starts its job workers and answers --version (issue 32).

In a bundle ``sys.executable`` is the application, which takes no ``python -c``: the worker is the
application started with ``process_jobs.WORKER_FLAG``. Here a small launcher script stands in for
the bundle's executable (the real bundle is built by the --runslow test in test_bundle.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import process_bodies as bodies
import pytest

from solvers.common import process_jobs
from solvers.common.cancel import CancelToken

ROOT = Path(__file__).resolve().parents[1]


def test_version_names_the_package_version() -> None:
    from workbench import __version__

    out = subprocess.run(
        [sys.executable, "-m", "workbench", "--version"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert out.returncode == 0 and out.stdout.strip() == f"puzzle-workbench {__version__}"
    assert out.stderr == ""


def test_worker_command_uses_the_flag_only_when_frozen(monkeypatch) -> None:
    assert process_jobs.worker_command(7)[1] == "-c"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert process_jobs.worker_command(7) == [sys.executable, process_jobs.WORKER_FLAG, "7"]
    assert not process_jobs.worker_main(["--job-worker", "x"])  # not a worker's command line
    assert not process_jobs.worker_main(["solve", "flow"])


@pytest.mark.skipif(not process_jobs.in_processes(), reason="worker processes are POSIX-only")
def test_a_frozen_application_serves_jobs_through_its_entry_point(monkeypatch, tmp_path) -> None:
    launcher = tmp_path / "puzzle-workbench"
    path = os.pathsep.join((str(ROOT), str(ROOT / "tests")))
    launcher.write_text(f'#!/bin/sh\nPYTHONPATH="{path}" exec "{sys.executable}" -m workbench "$@"\n')
    launcher.chmod(0o755)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(launcher))
    fresh = process_jobs.WorkerPool()
    monkeypatch.setattr(process_jobs, "_POOL", fresh)
    try:
        value, pid = remote_add(2, 3)
        assert value == 50 and pid != os.getpid()
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert b"workbench" in command and process_jobs.WORKER_FLAG.encode() in command
    finally:
        fresh.close()


def remote_add(a: int, b: int) -> tuple[int, int]:
    return process_jobs.remote(bodies.add, a, b, scale=10)(CancelToken(), lambda _info: None)


def test_a_bundle_carrying_libxcb_cursor_is_not_refused(monkeypatch, tmp_path) -> None:
    """The bundle ships libxcb-cursor from the build machine; ctypes' find_library looks only at the
    system's libraries, so without this the bundle refused to start where the system lacks it."""
    import ctypes.util

    from workbench.qt_app import missing_xcb_cursor

    monkeypatch.setattr(ctypes.util, "find_library", lambda name: None)
    x11 = {"DISPLAY": ":0"}
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert missing_xcb_cursor(x11, "linux")  # the bundle does not carry it
    (tmp_path / "libxcb-cursor.so.0").write_bytes(b"")
    assert not missing_xcb_cursor(x11, "linux")
