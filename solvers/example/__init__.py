"""Latin square: the documented template plug-in (small, complete, exercises every shell feature).

Fill an n x n grid with 1..n so that every row and column holds each number once. Givens are
digits, ``.`` is empty. An empty 4x4 board has exactly 576 solutions (a known count the tests use).
"""

from solvers.example.plugin import PLUGIN, LatinSquare

__all__ = ["PLUGIN", "LatinSquare"]
