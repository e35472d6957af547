"""Nine Tiles Panic (Oink Games): town model, exact 26-theme scoring, town enumeration."""

from solvers.ninetiles.plugin import PLUGIN, NineTilesPlugin
from solvers.ninetiles.town import Town

__all__ = ["PLUGIN", "NineTilesPlugin", "Town"]
