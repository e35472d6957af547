"""X-ceter-O: tic-tac-toe with numbered pieces that enter and then jump in a fixed cycle.

Qt-free module: rules engine (``rules``), state notation (``notation``), numpy state numbering
(``states``), retrograde analysis of every state (``retro``), single-position queries (``engine``),
display list (``drawing``), plug-in (``plugin``) and module CLI (``cli``).
"""

from solvers.common.protocol import GAME, PLAY, SOLVE, Meta
from solvers.common.registry import lazy_attributes

META = Meta(
    order=50,
    id="xcetero",
    name="X-ceter-O",
    description="Tic-tac-toe with six numbered pieces that enter and then jump in a fixed order; "
    "solved by retrograde analysis.",
    extensions=(".xo",),
    aliases=("x-ceter-o", "xceter"),
    capabilities=frozenset({GAME, SOLVE, PLAY}),
)

# Everything else loads on first use: the registry reads META alone (docs/PLUGINS.md).
# (No TYPE_CHECKING re-import of the plug-in module: it imports this package: a circle.)
__getattr__ = lazy_attributes(__name__, {"PLUGIN": "plugin", "XceteroPlugin": "plugin"})

__all__ = ["META", "PLUGIN", "XceteroPlugin"]
