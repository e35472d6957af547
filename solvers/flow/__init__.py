"""Flow Free: join pairs of coloured endpoints with non-crossing pipes that fill the grid.

Exact SAT solver (python-sat, CaDiCaL) with designed/strict rule sets, uniqueness and enumeration;
plain and spaced text formats; play mode; optional generator of unique puzzles.
"""

from solvers.flow.model import FlowPaths, FlowPuzzle
from solvers.flow.plugin import PLUGIN, FlowPlugin

__all__ = ["PLUGIN", "FlowPaths", "FlowPlugin", "FlowPuzzle"]
