"""A module whose import fails is reported as unavailable; every other module keeps working."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import solvers
from solvers.common import registry
from solvers.common.errors import InputError

ROOT = Path(__file__).resolve().parents[1]


def _broken_package(folder: Path) -> None:
    pkg = folder / "zzbroken"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("import solvers.no_such_dependency_xyz\nPLUGIN = None\n")


@pytest.fixture
def broken_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    _broken_package(tmp_path)
    monkeypatch.setattr(solvers, "__path__", [*solvers.__path__, str(tmp_path)])
    registry.refresh()
    yield
    monkeypatch.undo()
    sys.modules.pop("solvers.zzbroken", None)
    registry.refresh()


def test_broken_module_is_reported_and_others_work(broken_module) -> None:
    broken = registry.unavailable()
    assert list(broken) == ["zzbroken"]
    assert "ModuleNotFoundError" in broken["zzbroken"] and "no_such_dependency_xyz" in broken["zzbroken"]
    assert {"flow", "toichika", "example"} <= set(registry.plugins())
    assert registry.get("latin").meta.id == "example"
    with pytest.raises(InputError, match="module 'zzbroken' is unavailable: ModuleNotFoundError"):
        registry.get("zzbroken")


def test_healthy_tree_has_no_unavailable_module() -> None:
    registry.refresh()
    assert registry.unavailable() == {}


def test_cli_survives_a_broken_module(tmp_path: Path) -> None:
    _broken_package(tmp_path)
    code = (
        "import sys, solvers; solvers.__path__.append(sys.argv[1]);"
        "from workbench.cli import main; sys.exit(main(['solve', 'example', sys.argv[2], '--json']))"
    )
    sample = str(ROOT / "assets" / "example" / "samples" / "latin_5x5.latin")
    run = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), sample],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert '"unique": true' in run.stdout
    assert "Traceback" not in run.stderr


def test_kinds_lists_the_unavailable_module(broken_module, capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    assert main(["kinds", "--json"]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)}
    assert "ModuleNotFoundError" in rows["zzbroken"]["unavailable"]
    assert rows["flow"]["name"] == "Flow Free"


def test_an_error_starting_with_a_blank_line_still_names_its_reason(tmp_path, monkeypatch) -> None:
    """A bundle whose numpy could not load listed 'unavailable: ImportError: ' and nothing more:
    numpy's message starts with a blank line and its real reason is the cause."""
    pkg = tmp_path / "zzblank"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "try:\n    raise ImportError('libblas.so: not page-aligned')\n"
        "except ImportError as exc:\n    raise ImportError('\\n\\nIMPORTANT: PLEASE READ THIS\\n') from exc\n"
    )
    monkeypatch.setattr(solvers, "__path__", [*solvers.__path__, str(tmp_path)])
    registry.refresh()
    try:
        reason = registry.unavailable()["zzblank"]
    finally:
        monkeypatch.undo()
        sys.modules.pop("solvers.zzblank", None)
        registry.refresh()
    assert (
        reason
        == "ImportError: IMPORTANT: PLEASE READ THIS (caused by ImportError: libblas.so: not page-aligned)"
    )
