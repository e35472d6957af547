"""Latin square: the documented template plug-in (small, complete, exercises every shell feature).

Fill an n x n grid with 1..n so that every row and column holds each number once. Givens are
digits, ``.`` is empty. An empty 4x4 board has exactly 576 solutions (a known count the tests use).
"""

from solvers.common.protocol import ISOLATED, PLAY, SOLVE, Meta
from solvers.common.registry import lazy_attributes

META = Meta(
    order=90,
    id="example",
    name="Latin square",
    description="Template module: fill the grid so each row and column holds 1..n once.",
    extensions=(".latin", ".txt"),
    aliases=("latin",),
    # A pure-Python search: in a thread of the GUI process it would take the GIL from the
    # window between every repaint (a 9x9 "all" run stalled it 200-300 ms at a time).
    capabilities=frozenset({SOLVE, PLAY, ISOLATED}),
)

# Everything else loads on first use: the registry reads META alone (docs/PLUGINS.md).
# (No TYPE_CHECKING re-import of the plug-in module: it imports this package: a circle.)
__getattr__ = lazy_attributes(__name__, {"PLUGIN": "plugin", "LatinSquare": "plugin"})

__all__ = ["META", "PLUGIN", "LatinSquare"]
