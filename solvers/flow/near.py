"""Windows of the board for a search near a known answer (large-neighbourhood search).

A second answer of a designed puzzle under the game rules (or Numberlink rules) often differs
from the known one S in a small patch only: a pipe that takes a U-turn into its neighbour's lane,
two lanes threaded the other way. The complete search for it wanders the whole board (the
generated 40x20 spirals: no answer in 300 s), and the canonical proof must first refute everything
else. With every edge outside a window kept as S has it, the same model decides within a few
thousand conflicts whether the window holds another answer (22 of 23 such spirals: "2+" within
0.6 s of windows). ``windows`` gives the windows, small ones first; ``sat.rival_near`` searches
them.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from solvers.flow.graph import FlowGraph

# Window sides in cells, smallest first; each side moves by half of itself, so every patch of
# half that side plus one lies wholly inside some window (8: any 5x5 patch). A window costs about
# as much however small (the assumptions fix every other edge: 5 ms a window on a 30x30, with a
# median of 3 conflicts), so fewer, larger windows pay: on 8 published puzzles and the 23 spirals,
# sides (4, 6, 8) found 26 rivals in 14.8 s CPU in all, (6, 8) 26 in 7.1 s, (8,) 26 in 4.0 s,
# (10,) 27 in 5.0 s under the game rules but 26 in 7.6 s under Numberlink rules, where (8,) took
# 4.1 s for 27.
WINDOW_SIDES = (8,)


def windows(graph: FlowGraph) -> Iterator[np.ndarray]:
    """Masks of the edges with a cell inside each window (square, by row and column), small
    windows first; on a board no larger than a window, one mask with every edge."""
    cells = np.asarray(graph.cells, dtype=np.int64).reshape(-1, 2)
    if len(cells) == 0:
        return
    rows, cols = int(cells[:, 0].max()) + 1, int(cells[:, 1].max()) + 1
    u, v = graph.edges[:, 0], graph.edges[:, 1]
    for side in WINDOW_SIDES:
        step = side // 2
        for top in _starts(rows, side, step):
            for left in _starts(cols, side, step):
                inside = (
                    (cells[:, 0] >= top)
                    & (cells[:, 0] < top + side)
                    & (cells[:, 1] >= left)
                    & (cells[:, 1] < left + side)
                )
                yield inside[u] | inside[v]
        if side >= max(rows, cols):
            return  # this side covers the board already


def _starts(length: int, side: int, step: int) -> list[int]:
    """Window starts along one axis: every ``step`` cells, the last one flush with the end."""
    if side >= length:
        return [0]
    starts = list(range(0, length - side + 1, step))
    if starts[-1] != length - side:
        starts.append(length - side)
    return starts
