"""Test configuration. Headless Qt must be selected before anything imports Qt."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PUZZLE_WORKBENCH_SETTINGS", "test")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "reference"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="run exhaustive slow tests")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow exhaustive run: use --runslow or the benchmark")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def shared_reference() -> Path:
    """../shared/reference (tests only; the product never reads it)."""
    if not SHARED.is_dir():
        pytest.skip("../shared/reference not available")
    return SHARED


@pytest.fixture(scope="session")
def ram_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One folder in RAM (/dev/shm) per test session (so per xdist worker), removed at its end;
    a folder under pytest's own temporary root where there is no writable /dev/shm."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path_factory.mktemp("ram")
        return
    root = Path(tempfile.mkdtemp(prefix="pwb-tests-", dir=shm))
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def ram_tmp_path(ram_root: Path, request: pytest.FixtureRequest) -> Path:
    """A fresh folder in RAM, for product code that flushes many small files per step (the Doves
    retro stores msync their tables after every partition task: on disk each stored run of BM-bth
    was I/O-bound, 6 s CPU and 18-45 s wall, against 3.5 s and 6 s in RAM). The code path is the
    same; only the medium differs, and no test can check durability across a power cut anyway."""
    return Path(tempfile.mkdtemp(prefix=request.node.name[:40].replace("/", "_") + "-", dir=ram_root))


@pytest.fixture
def main_window(qtbot):
    """A shown main window that never asks questions (unsaved edits are discarded); jobs stopped after."""
    from workbench import settings
    from workbench.main_window import MainWindow

    # Each test starts with the default colour scheme: the settings file lives as long as the
    # worker, and a test that left "dark" behind made a later dark-mode test see no change.
    settings.settings().remove("scheme")
    win = MainWindow()
    win.confirm = lambda view: "discard"
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.jobs.shutdown(5000)
