"""X-ceter-O: tic-tac-toe with numbered pieces that enter and then jump in a fixed cycle.

Qt-free module: rules engine (``rules``), state notation (``notation``), numpy state numbering
(``states``), retrograde analysis of every state (``retro``), single-position queries (``engine``),
display list (``drawing``), plug-in (``plugin``) and module CLI (``cli``).
"""

from solvers.xcetero.plugin import PLUGIN, XceteroPlugin

__all__ = ["PLUGIN", "XceteroPlugin"]
