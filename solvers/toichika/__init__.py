"""Toichika (遠い誓い, Nikoli): one arrow per country; arrows pair up facing each other.

Formats: puzz.link / pzv.jp URLs, pzprjs pzprv3 files and a readable ASCII drawing (``.toichika``).
Exact solving with python-sat; a step-by-step explainer with named techniques.
"""

from solvers.common.protocol import EXPLAIN, ISOLATED, PLAY, SOLVE, Meta
from solvers.common.registry import lazy_attributes

META = Meta(
    order=20,
    id="toichika",
    name="Toichika",
    description="Place one arrow per country; arrows pair up facing each other across non-adjacent countries.",
    extensions=(".toichika", ".txt"),
    aliases=("toichika", "遠い誓い", "tooichikai"),
    capabilities=frozenset({SOLVE, PLAY, EXPLAIN, ISOLATED}),
)

# Everything else loads on first use: the registry reads META alone (docs/PLUGINS.md).
# (No TYPE_CHECKING re-import of the plug-in module: it imports this package: a circle.)
__getattr__ = lazy_attributes(__name__, {"PLUGIN": "plugin", "ToichikaPlugin": "plugin", "Toichika": "model"})

__all__ = ["META", "PLUGIN", "Toichika", "ToichikaPlugin"]
