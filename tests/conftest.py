"""Test configuration. Headless Qt must be selected before anything imports Qt."""

from __future__ import annotations

import os

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


@pytest.fixture
def main_window(qtbot):
    """A shown main window that never asks questions (unsaved edits are discarded); jobs stopped after."""
    from workbench.main_window import MainWindow

    win = MainWindow()
    win.confirm = lambda view: "discard"
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.jobs.shutdown(5000)
