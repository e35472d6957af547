"""Flow Free: join pairs of coloured endpoints with non-crossing pipes that fill the grid.

Exact SAT solver (python-sat, CaDiCaL) with designed/strict rule sets, uniqueness and enumeration;
plain and spaced text formats; play mode; optional generator of unique puzzles.
"""

from solvers.common.protocol import ISOLATED, PLAY, SOLVE, Meta
from solvers.common.registry import lazy_attributes

META = Meta(
    order=10,
    id="flow",
    name="Flow Free",
    description="Join each pair of coloured dots with a pipe so that the pipes fill the whole grid.",
    extensions=(".flow", ".txt"),
    aliases=("flowfree", "numberlink"),
    capabilities=frozenset({SOLVE, PLAY, ISOLATED}),
)

# Everything else loads on first use: the registry reads META alone (docs/PLUGINS.md).
# (No TYPE_CHECKING re-import of the plug-in module: it imports this package: a circle.)
__getattr__ = lazy_attributes(
    __name__, {"PLUGIN": "plugin", "FlowPlugin": "plugin", "FlowPaths": "model", "FlowPuzzle": "model"}
)

__all__ = ["META", "PLUGIN", "FlowPaths", "FlowPlugin", "FlowPuzzle"]
