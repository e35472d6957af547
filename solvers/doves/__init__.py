"""Tokyo Doves: rules engine (numba bitboards), exact Win(n)/Lose(n) analysis, AI, position counter."""

from solvers.common.protocol import GAME, PLAY, SOLVE, Meta
from solvers.common.registry import lazy_attributes

META = Meta(
    order=40,
    id="doves",
    name="Tokyo Doves",
    description="Two-player tile game on a floating 4x4 field: surround the enemy Boss dove. "
    "Exact Win(n)/Lose(n) analysis, AI, position counter.",
    extensions=(".doves",),
    aliases=("tokyodoves", "tokyo-doves"),
    capabilities=frozenset({SOLVE, PLAY, GAME}),
)

# Everything else loads on first use: the registry reads META alone (docs/PLUGINS.md).
# (No TYPE_CHECKING re-import of the plug-in module: it imports this package: a circle.)
__getattr__ = lazy_attributes(
    __name__, {"PLUGIN": "plugin", "DovesPlugin": "plugin", "PlayEntries": "plugin"}
)

__all__ = ["META", "PLUGIN", "DovesPlugin", "PlayEntries"]
