"""Nine Tiles Panic (Oink Games): town model, exact 26-theme scoring, town enumeration."""

from solvers.common.protocol import SOLVE, Meta
from solvers.common.registry import lazy_attributes

META = Meta(
    order=30,
    id="ninetiles",
    name="Nine Tiles Panic",
    description="Build a 3x3 town of the nine double-sided tiles; scores all 26 theme cards live.",
    extensions=(".town",),
    aliases=("ntp", "nine-tiles", "town"),
    capabilities=frozenset({SOLVE}),
)

# Everything else loads on first use: the registry reads META alone (docs/PLUGINS.md).
# (No TYPE_CHECKING re-import of the plug-in module: it imports this package: a circle.)
__getattr__ = lazy_attributes(__name__, {"PLUGIN": "plugin", "NineTilesPlugin": "plugin", "Town": "town"})

__all__ = ["META", "PLUGIN", "NineTilesPlugin", "Town"]
