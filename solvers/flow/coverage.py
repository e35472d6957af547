"""A region no pipe can fill: the board has no answer under the rules that fill every cell.

Take away every endpoint; what is left falls into regions. A pipe never passes through another
colour's endpoint, so a pipe that enters a region stays in it between its two ends: it can cover
cells there only if both its endpoints touch that region. A region touched by no such pair stays
empty in every answer, so under the game and designed rules there is none. The SAT search cannot
see this: it fills such a region with loops and cuts them one at a time (a 30x30 board with its
30 pairs in the top two rows got no verdict in 200 s; this answers it in milliseconds).
"""

from __future__ import annotations

import numpy as np

from solvers.flow.graph import FlowGraph, components


def unfillable_region(graph: FlowGraph) -> tuple[int, ...] | None:
    """The node ids of a region that no pair can fill (the smallest such region), or None.
    Boards with bridges are left out: a bridge's two lanes are nodes of their own."""
    if any(lane >= 0 for lane in graph.lanes) or graph.n_nodes == 0:
        return None
    terminal = np.zeros(graph.n_nodes, dtype=bool)
    terminal[list(graph.terminal_colour)] = True
    edges = graph.edges
    inner = ~terminal[edges[:, 0]] & ~terminal[edges[:, 1]]
    label = components(graph.n_nodes, edges[inner])
    # (region, colour) for every endpoint beside a region: both ends of a colour beside a region
    # let that colour's pipe run through it.
    a, b = edges[:, 0], edges[:, 1]
    touch = np.concatenate(
        [
            np.stack([label[b], a], 1)[terminal[a] & ~terminal[b]],
            np.stack([label[a], b], 1)[terminal[b] & ~terminal[a]],
        ]
    )
    colour_of = np.full(graph.n_nodes, -1, dtype=np.int64)
    for node, colour in graph.terminal_colour.items():
        colour_of[node] = colour
    pairs = np.unique(np.stack([touch[:, 0], colour_of[touch[:, 1]], touch[:, 1]], 1), axis=0)
    # A colour fills a region only if two different endpoints of it touch the region.
    region_colour = pairs[:, :2]
    keys, counts = np.unique(region_colour, axis=0, return_counts=True)
    fillable = set(keys[counts >= 2, 0].tolist())
    regions = set(label[~terminal].tolist())
    stranded = sorted(regions - fillable, key=lambda r: int(np.count_nonzero(label == r)))
    if not stranded:
        return None
    return tuple(int(n) for n in np.flatnonzero((label == stranded[0]) & ~terminal))
