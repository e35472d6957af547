"""Start-up discipline of the command line (issue 27): a command loads only what it uses.

No timings here (the machine is shared): each command runs in a fresh interpreter and reports which
modules it had imported when it ended. Qt and numba are the costly ones (numba alone is about half
a second of CPU); a command that draws nothing must not load Qt, and a small Flow solve must not
load numba nor any other module's plug-in. The figures are in benchmarks/cli_startup_bench.py.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solvers.common import kernels, registry
from solvers.common.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assets"
FLOW_5 = str(SAMPLES / "flow" / "samples" / "01-5x5.txt")
FLOW_20 = str(SAMPLES / "flow" / "samples" / "07-20x12.txt")
TOICHIKA = str(SAMPLES / "toichika" / "samples" / "a_6x6_first_steps.toichika")
PLUGIN_IDS = ("doves", "example", "flow", "ninetiles", "toichika", "xcetero")

# Runs ``python -m workbench ARGS`` in this interpreter, then prints the exit code and the modules
# it imported (top-level names, plus the solvers' submodules) as the last line of stdout.
PROBE = """
import json, runpy, sys
sys.argv = ["workbench", *sys.argv[1:]]
try:
    runpy.run_module("workbench", run_name="__main__", alter_sys=True)
    code = 0
except SystemExit as exc:
    code = exc.code
names = sorted({m.split(".")[0] for m in sys.modules} | {m for m in sys.modules if m.startswith("solvers.")})
print("\\n" + json.dumps({"code": code, "modules": names}))
"""


def imported_by(*args: str) -> set[str]:
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=ROOT,  # this checkout's modules, not an installed copy
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["code"] in (0, 1), run.stderr  # ``check`` exits 1 when a rule is broken
    return set(report["modules"])


def plugin_modules(modules: set[str]) -> set[str]:
    """The plug-in packages whose ``plugin`` module was loaded."""
    return {kind for kind in PLUGIN_IDS if f"solvers.{kind}.plugin" in modules}


def test_small_flow_solve_loads_neither_qt_nor_numba_nor_other_modules() -> None:
    modules = imported_by("solve", "flow", FLOW_5)
    assert "PySide6" not in modules
    assert "numba" not in modules
    assert plugin_modules(modules) == {"flow"}


def test_help_loads_no_plugin_and_no_numpy() -> None:
    modules = imported_by("--help")
    assert not {"PySide6", "numba", "numpy"} & modules
    assert plugin_modules(modules) == set()


def test_check_and_module_commands_load_no_qt() -> None:
    modules = imported_by("check", "toichika", TOICHIKA)
    assert not {"PySide6", "numba"} & modules
    assert plugin_modules(modules) == {"toichika"}
    modules = imported_by("flow", "--help")
    assert not {"PySide6", "numba"} & modules
    assert plugin_modules(modules) <= {"flow"}


@pytest.mark.parametrize(
    "args",
    [("flow", "convert", FLOW_5, "--to", "spaced"), ("flow", "solve", FLOW_5, "--rules", "strict")],
    ids=["convert", "strict-solve"],
)
def test_flow_module_commands_load_neither_qt_nor_numba(args: tuple[str, ...]) -> None:
    """A strict solve also routes the pipes first (route.py), in plain Python on a small board."""
    modules = imported_by(*args)
    assert not {"PySide6", "numba"} & modules
    assert plugin_modules(modules) == {"flow"}


def test_kinds_lists_every_module_without_qt() -> None:
    modules = imported_by("kinds")
    assert "PySide6" not in modules
    assert plugin_modules(modules) == set(PLUGIN_IDS)  # it reports the ones that fail to load


def test_the_probe_sees_qt_when_a_command_draws(tmp_path: Path) -> None:
    """The other tests' negative results mean something: export does load Qt."""
    modules = imported_by("export", "flow", FLOW_5, str(tmp_path / "board.png"))
    assert "PySide6" in modules and (tmp_path / "board.png").stat().st_size > 0


# ---- the lazy registry ---------------------------------------------------------------------------


@pytest.fixture
def extra_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Two new plug-in packages in a second folder of ``solvers``: one whose plug-in module fails
    to import, one that works; neither is named in any existing file."""
    import solvers

    for name, body in {
        "zzlazybroken": "import solvers.no_such_dependency_xyz\n",
        "zzlazyok": (
            "from solvers.common.protocol import PluginBase\n"
            "from solvers.zzlazyok import META\n"
            "class Plugin(PluginBase):\n"
            "    meta = META\n"
            "PLUGIN = Plugin()\n"
        ),
    }.items():
        pkg = tmp_path / name
        pkg.mkdir()
        (pkg / "__init__.py").write_text(
            "from solvers.common.protocol import Meta\n"
            "from solvers.common.registry import lazy_attributes\n"
            f"META = Meta(id={name!r}, name={name!r}, description='test', extensions=('.{name}',),"
            f" aliases=('{name}-alias',))\n"
            "__getattr__ = lazy_attributes(__name__, {'PLUGIN': 'plugin'})\n"
        )
        (pkg / "plugin.py").write_text(body)
    monkeypatch.setattr(solvers, "__path__", [*solvers.__path__, str(tmp_path)])
    registry.refresh()
    yield
    monkeypatch.undo()
    for name in list(sys.modules):
        if name.startswith(("solvers.zzlazybroken", "solvers.zzlazyok")):
            del sys.modules[name]
    registry.refresh()


def test_metadata_is_read_without_loading_the_plugin(extra_modules) -> None:
    metas = registry.metas()
    assert list(metas)[-2:] == ["zzlazybroken", "zzlazyok"]  # after the ordered ones, alphabetically
    assert metas["zzlazyok"].extensions == (".zzlazyok",)
    assert registry.resolve("zzlazyok-alias").id == "zzlazyok"
    assert "solvers.zzlazyok.plugin" not in sys.modules
    assert "solvers.zzlazybroken.plugin" not in sys.modules
    plugin = registry.for_path("board.ZZLAZYOK")
    assert plugin is not None and plugin is registry.get("zzlazyok-alias")
    assert "solvers.zzlazybroken.plugin" not in sys.modules


def test_a_plugin_that_fails_to_load_is_unavailable(extra_modules) -> None:
    with pytest.raises(InputError, match="module 'zzlazybroken' is unavailable: ModuleNotFoundError"):
        registry.get("zzlazybroken")
    assert registry.for_path("x.zzlazybroken") is None
    assert "no_such_dependency_xyz" in registry.unavailable()["zzlazybroken"]
    assert "zzlazybroken" not in registry.plugins() and "zzlazyok" in registry.plugins()
    assert registry.get("flow").meta.id == "flow"


def test_package_attributes_still_import() -> None:
    from solvers.flow import META, PLUGIN, FlowPuzzle

    assert PLUGIN.meta is META and PLUGIN is registry.get("flow")
    assert isinstance(PLUGIN.new_puzzle(3), FlowPuzzle)
    import solvers.flow

    with pytest.raises(AttributeError, match="no attribute 'Nonesuch'"):
        solvers.flow.Nonesuch  # noqa: B018 - the lookup is the test


# ---- numba kernels run as plain Python give the same results ------------------------------------


def _random_board(rng: random.Random) -> str:
    rows, cols = rng.randint(2, 12), rng.randint(2, 12)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    grid = [["."] * cols for _ in range(rows)]
    picked = rng.sample(cells, 2 * rng.randint(1, min(8, len(cells) // 2)))
    for k in range(len(picked) // 2):
        for r, c in picked[2 * k : 2 * k + 2]:
            grid[r][c] = "ABCDEFGH"[k]
    return "\n".join("".join(row) for row in grid) + "\n"


def test_flow_kernels_agree_in_python_and_compiled() -> None:
    from solvers.flow import codec, detour, route
    from solvers.flow.graph import grid_graph

    rng = random.Random(27)
    texts = [p.read_text(encoding="utf-8") for p in sorted((SAMPLES / "flow" / "samples").glob("*.txt"))]
    texts += [_random_board(rng) for _ in range(40)]
    for text in texts:
        graph = grid_graph(codec.parse(text))
        results = []
        for mode in ("python", "compiled"):  # both, whatever this process loaded before
            with kernels.forced(mode):
                table = detour.slack(graph)
                routed, clean = route.route(graph)
                results.append((table, routed, clean, route.corridor_slack(graph, routed)))
        (a_table, a_routed, a_clean, a_corr), (b_table, b_routed, b_clean, b_corr) = results
        assert np.array_equal(a_table, b_table), text
        assert np.array_equal(a_routed, b_routed) and a_clean == b_clean, text
        assert np.array_equal(a_corr, b_corr), text


def test_a_big_flow_board_runs_the_compiled_kernels() -> None:
    modules = imported_by("solve", "flow", FLOW_20)
    assert "numba" in modules and "PySide6" not in modules


def test_kernels_call_themselves_and_other_modules_kernels(tmp_path: Path, monkeypatch) -> None:
    """Doves' kernels recurse (perft) and call another module's kernels as its attributes
    (``rules_engine.generate``): both must reach numba as dispatchers, not ``Kernel`` objects."""
    (tmp_path / "zzkern_a.py").write_text(
        "from solvers.common.kernels import njit\n"
        "@njit()\n"
        "def fact(n):\n"
        "    return 1 if n <= 1 else n * fact(n - 1)\n"
    )
    (tmp_path / "zzkern_b.py").write_text(
        "from solvers.common.kernels import njit\n"
        "import zzkern_a as other\n"
        "@njit()\n"
        "def twice_fact(n):\n"
        "    return 2 * other.fact(n)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import zzkern_a
    import zzkern_b

    try:
        assert zzkern_b.twice_fact(5) == 240
        assert isinstance(zzkern_a.fact, kernels.Kernel) and zzkern_a.fact(6) == 720
        assert zzkern_b.twice_fact.compiled().signatures  # it ran compiled
    finally:
        sys.modules.pop("zzkern_a", None)
        sys.modules.pop("zzkern_b", None)
