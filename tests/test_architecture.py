"""Architecture rules that must hold for every module."""

from __future__ import annotations

import ast
import copy
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solvers.common import registry
from solvers.common.errors import InputError
from solvers.common.protocol import PLAY, EditEvent, PluginBase, Tool

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


# ---- plug-in objects hold no state; UI state belongs to one document -----------------------------
def _plugin_attribute_stores(path: Path, root: Path = ROOT) -> list[str]:
    """``x.plugin.attr = ...`` / ``plugin.attr = ...`` (plain or augmented) in one file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AugAssign | ast.AnnAssign)
            else []
        )
        for target in targets:
            if not isinstance(target, ast.Attribute):
                continue
            owner = target.value
            name = (
                owner.attr
                if isinstance(owner, ast.Attribute)
                else owner.id
                if isinstance(owner, ast.Name)
                else ""
            )
            if name == "plugin":
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_the_shell_and_panels_never_set_attributes_on_a_plugin() -> None:
    """Panels and the shell keep view choices in the document's UI state and pass them to jobs as
    options: a plug-in object is shared by every document and read by worker threads."""
    offenders = [
        hit
        for folder in ("widgets", "workbench")
        for p in (ROOT / folder).rglob("*.py")
        for hit in _plugin_attribute_stores(p)
    ]
    assert offenders == []


def test_the_plugin_attribute_scan_finds_a_store(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(ctx):\n    ctx.plugin.card_themes = (1, 2, 3)\n    plugin.rules += 1\n", encoding="utf-8"
    )
    assert _plugin_attribute_stores(sample, tmp_path) == ["sample.py:2", "sample.py:3"]


def _session_events(plugin: PluginBase, puzzle: Any) -> Iterator[EditEvent]:
    """A scripted editing session: clicks, drags, right clicks, keys and wheel steps with every tool."""
    grid = plugin.draw(puzzle).grid
    spots = []
    if grid is not None:
        spots = [
            ((r, c), (grid.x0 + (c + 0.5) * grid.cell, grid.y0 + (r + 0.5) * grid.cell))
            for r in range(min(grid.rows, 3))
            for c in range(min(grid.cols, 3))
        ]
    modes = ["edit"] + (["play"] if PLAY in plugin.meta.capabilities else [])
    for mode in modes:
        for tool in plugin.tools(puzzle) or [Tool("", "none")]:
            if tool.mode not in (mode, "both"):
                continue
            for (cell, pos), (cell2, pos2) in zip(spots, spots[1:], strict=False):
                yield EditEvent("press", tool.id, mode, cell, pos, "left")  # type: ignore[arg-type]
                yield EditEvent("drag", tool.id, mode, cell2, pos2, "left")  # type: ignore[arg-type]
                yield EditEvent("release", tool.id, mode, cell2, pos2, "left")  # type: ignore[arg-type]
                yield EditEvent("press", tool.id, mode, cell, pos, "right")  # type: ignore[arg-type]
                yield EditEvent("release", tool.id, mode, cell, pos, "right")  # type: ignore[arg-type]
            for key in ("Space", "Delete", "1", "R", "S", "Escape"):
                yield EditEvent("key", tool.id, mode, spots[0][0] if spots else None, key=key)  # type: ignore[arg-type]
            if spots:
                yield EditEvent("wheel", tool.id, mode, spots[0][0], spots[0][1], delta=1)  # type: ignore[arg-type]


def _run_session(plugin: PluginBase, ui: Any, frozen: dict[str, Any] | None = None) -> None:
    """Edit, draw, hover and drag-preview through the shell's calls, applying every change; with
    ``frozen``, check after every event that the plug-in's attributes still equal it."""
    puzzle = plugin.default_puzzle()
    entries = plugin.empty_entries(puzzle)
    for event in _session_events(plugin, puzzle):
        try:
            result = plugin.edit(puzzle, entries, event, ui=ui)
        except InputError:
            continue
        if result is not None:
            puzzle = puzzle if result.puzzle is None else result.puzzle
            entries = entries if result.entries is None else result.entries
        if event.kind == "drag":
            plugin.drag_preview(puzzle, event.pos, ui=ui)
        plugin.draw(puzzle, None, entries, None, ui=ui)
        plugin.hover(puzzle, None, event.pos, ui=ui)
        if frozen is not None:
            assert vars(plugin) == frozen, f"{plugin.meta.id}: the plug-in object changed on {event}"


def _plugins() -> list[PluginBase]:
    return list(registry.plugins().values())


@pytest.mark.parametrize("plugin", _plugins(), ids=lambda p: p.meta.id)
def test_plugin_objects_do_not_change_in_an_editing_session(plugin: PluginBase) -> None:
    """A plug-in object is shared by every document and worker thread: it keeps no state (drag
    sources, strokes, rule options live in the document)."""
    before = copy.deepcopy(vars(plugin))
    _run_session(plugin, plugin.new_ui(plugin.default_puzzle()), before)
    _run_session(plugin, None, before)  # callers without a document (export, tests) pass no UI state


@pytest.mark.parametrize("plugin", _plugins(), ids=lambda p: p.meta.id)
def test_two_documents_do_not_share_ui_state(qapp, plugin: PluginBase) -> None:
    from workbench.document import Document

    first, second = Document(plugin), Document(plugin)
    if first.ui is None:
        assert second.ui is None
        return
    assert first.ui is not second.ui
    untouched = copy.deepcopy(second.ui)
    _run_session(plugin, first.ui)
    assert second.ui == untouched, "an edit in one document changed another document's UI state"
    first.reset(plugin.default_puzzle())
    assert first.ui == plugin.new_ui(first.puzzle), "new content starts with fresh UI state"


def test_a_drag_in_one_document_is_not_previewed_in_another(qapp) -> None:
    """Nine Tiles: a tile picked up in one town is not the one a second town's drag shows."""
    from workbench.document import Document

    plugin = registry.get("ninetiles")
    first, second = Document(plugin), Document(plugin)
    grid = plugin.draw(first.puzzle).grid
    assert grid is not None
    pos = (grid.x0 + grid.cell / 2, grid.y0 + grid.cell / 2)
    press = EditEvent("press", "arrange", "edit", (0, 0), pos, "left")
    assert plugin.edit(first.puzzle, first.entries, press, ui=first.ui) is None
    assert plugin.drag_preview(first.puzzle, pos, ui=first.ui) is not None
    assert plugin.drag_preview(second.puzzle, pos, ui=second.ui) is None


@pytest.mark.parametrize("plugin", registry.plugins().values(), ids=list(registry.plugins()))
def test_every_ui_method_takes_ui_as_a_plain_parameter(plugin: PluginBase) -> None:
    """The shell passes ``ui=`` to these methods of every plug-in; it never inspects signatures."""
    for name in ("edit", "hover", "drag_preview", "draw", "solve_options"):
        parameters = inspect.signature(getattr(plugin, name)).parameters
        assert "ui" in parameters and parameters["ui"].default is None, (plugin.meta.id, name)


def _project_modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for top in ("solvers", "workbench", "widgets"):
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _known(name: str, modules: dict[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """Module -> project modules it imports anywhere: at the top, inside a function, under
    TYPE_CHECKING (every kind of import edge counts)."""
    modules = _project_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found: set[str | None] = set()
            if isinstance(node, ast.Import):
                found = {_known(alias.name, modules) for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    found.add(full if full in modules else _known(node.module, modules))
            graph[name] |= {target for target in found if target and target != name}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(sorted(group))
    return circles


def test_no_import_circle_of_any_kind() -> None:
    assert import_circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_circles(graph) == [["a", "b", "c"]]


# ---- rooms of a size one can read ---------------------------------------------------------------
MAX_CLASS_LINES = 300


def long_classes(root: Path, folders: tuple[str, ...], limit: int = MAX_CLASS_LINES) -> list[str]:
    """Classes longer than ``limit`` lines, from the ``class`` line to its last line (docstring,
    comments and blank lines inside count: they are read too)."""
    found = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
                if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                    lines = node.end_lineno - node.lineno + 1
                    if lines > limit:
                        found.append(f"{path.relative_to(root)}:{node.name} ({lines} lines)")
    return found


def test_no_class_in_the_shell_or_widgets_is_over_300_lines() -> None:
    """A class that long does several jobs (issue 30.2): give each job its own class."""
    assert long_classes(ROOT, ("workbench", "widgets")) == []


def test_the_class_length_check_finds_a_long_class(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    body = "".join(f"    x{k} = {k}\n" for k in range(300))
    (tmp_path / "pkg" / "big.py").write_text(
        f"class Big:\n{body}\n\nclass Small:\n    pass\n", encoding="utf-8"
    )
    assert long_classes(tmp_path, ("pkg",)) == ["pkg/big.py:Big (301 lines)"]


# ---- layers hold for what runs, not only for what is imported -------------------------------------
def test_worker_processes_refuse_shell_code() -> None:
    from solvers.common import process_jobs
    from workbench import files

    with pytest.raises(ValueError, match=r"workbench\.files\.atomic_write: worker processes run solver"):
        process_jobs.remote(files.atomic_write, "x", "y")
    with pytest.raises(ValueError, match="never the shell's"):
        process_jobs.remote_stream(files.atomic_write, "x", "y")


def test_the_shell_sends_workers_only_code_from_below_it(qapp, monkeypatch, tmp_path: Path) -> None:
    """The module warm-up and File > Export run in worker processes: what they send there is
    solver or drawing code (a worker that imported the shell would run its module-level code)."""
    from solvers.common import process_jobs
    from solvers.common.cancel import CancelToken
    from workbench import warmup
    from workbench.export import ExportOptions, export_job

    sent: list[str] = []

    def record(fn: Any, *_args: Any) -> None:
        sent.append(f"{fn.__module__}.{fn.__qualname__}")

    monkeypatch.setattr(process_jobs, "run_remote", record)
    monkeypatch.setattr(process_jobs, "in_processes", lambda: True)
    warmup._compile_elsewhere(["flow"])
    plugin = registry.get("flow")
    picture = plugin.draw(plugin.default_puzzle())
    with pytest.raises(InputError, match="nothing was written"):  # the recorder paints nothing
        export_job(picture, tmp_path / "board.png", ExportOptions())(CancelToken(), lambda _info: None)
    assert sent == ["solvers.common.by_kind.warm_up_kinds", "widgets.render.paint_file"]
