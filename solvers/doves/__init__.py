"""Tokyo Doves: rules engine (numba bitboards), exact Win(n)/Lose(n) analysis, AI, position counter."""

from solvers.doves.plugin import PLUGIN, DovesPlugin, PlayEntries

__all__ = ["PLUGIN", "DovesPlugin", "PlayEntries"]
