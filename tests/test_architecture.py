"""Architecture rules that must hold for every module."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QT_ROOTS = {"PySide6", "shiboken6", "PyQt5", "PyQt6", "PySide2", "qtpy", "superqt"}


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_solvers_never_import_qt() -> None:
    offenders = [
        str(p.relative_to(ROOT)) for p in (ROOT / "solvers").rglob("*.py") if _imported_roots(p) & QT_ROOTS
    ]
    assert offenders == []


def test_solvers_never_import_shell() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "solvers").rglob("*.py")
        if _imported_roots(p) & {"workbench", "widgets"}
    ]
    assert offenders == []


def test_product_code_does_not_read_shared() -> None:
    offenders = []
    for folder in ("solvers", "workbench", "widgets"):
        for p in (ROOT / folder).rglob("*.py"):
            if "shared/reference" in p.read_text(encoding="utf-8") or "../shared" in p.read_text(
                encoding="utf-8"
            ):
                offenders.append(str(p.relative_to(ROOT)))
    assert offenders == []


def test_widgets_never_import_workbench() -> None:
    """Layers point one way: workbench (the shell) uses widgets; widgets never reach back up."""
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "widgets").rglob("*.py")
        if "workbench" in _imported_roots(p)
    ]
    assert offenders == []
