"""Capabilities a plug-in may declare in ``Meta.capabilities`` (re-exported by ``protocol``).

Their own module so that the solve loop (``solve_stream``), which ``protocol`` imports, can read
them too without an import circle."""

from __future__ import annotations

SOLVE = "solve"  # solve()/count() exist
EXPLAIN = "explain"  # explain() gives deduction steps
PLAY = "play"  # entries + play-mode editing
GAME = "game"  # a two-player game: solve() = analysis of the position
# solve() keeps the GIL busy, in long C calls that hold it (python-sat) or as a pure-Python search
# (which makes the GUI thread wait up to a switch interval for every slot it runs): the GUI runs it
# in a worker process, so its puzzles, options, solutions and info must pickle.
ISOLATED = "isolated"

__all__ = ["EXPLAIN", "GAME", "ISOLATED", "PLAY", "SOLVE"]
