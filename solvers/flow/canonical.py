"""Canonical second answers under Numberlink rules, for proving an answer unique.

Under Numberlink rules a pipe may wander through open areas, and the SAT search for a second
answer explores every way round (issue 28's 12x12, 5 pairs: no verdict in 70 s). Most of those
ways can be shortened, and a shortened answer is an answer too. The moves used here:

* **shortcut**: two neighbouring cells of one pipe that are not linked -- the step between them
  replaces the stretch of pipe between them (its cells are left empty);
* **straight gap**: two cells of one pipe 2..``GAP`` steps apart in a row or column with only
  empty cells between them -- the straight line replaces the stretch (which is longer: the line
  is the only path that short);
* **corner**: two cells of one pipe diagonally apart with an empty common neighbour ``m`` -- the
  step through ``m`` replaces the stretch if that is longer, or (same length, through the other
  common neighbour) if ``m`` has the smaller node id.

Each move keeps the answer valid and makes (pipe length, sum of used node ids) smaller, so from
any answer the moves end at an answer where none applies: a *canonical* answer. If an answer S is
known and no move leads *to* S from another answer -- S has no empty region that touches one pipe
at two cells (``applies``) -- then a second answer exists if and only if a canonical one other
than S does. ``clauses`` says "no move applies" to the SAT model (``FlowSat(canonical=True)``),
which cuts the wandering: issue 28's 12x12 is proven unique in 0.3 s, the published 14x14 in
0.5 s (the frontier sweep took 107 s).

The shortcut needs nothing but the graph's edges, so it holds on hex boards and across warps too
(``supported``: any board without bridges, whose lanes make "neighbouring" a matter of direction);
the straight gap and the corner rely on unit steps of a square grid (``step_table``) and are left
out elsewhere. With fewer moves fewer answers are shortened, but the argument stands: every answer
shortens to one where no move of the set applies. On Flow Free's own hex levels (party pack) the
game rules' proof took 27-46 s and more than 60 s without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from solvers.flow.graph import components

if TYPE_CHECKING:
    from solvers.flow.graph import FlowGraph

GAP = 4  # longest straight gap said as clauses (longer ones added nothing measurable)
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # right, down, left, up


def supported(graph: FlowGraph) -> bool:
    """Whether canonical answers apply: any board without bridges (square, hex, holes, walls,
    warps); the square-only moves come on top where ``step_table`` exists."""
    return graph.n_edges > 0 and not any(lane >= 0 for lane in graph.lanes)


def step_table(graph: FlowGraph) -> np.ndarray | None:
    """(N, 4) edge id of each node's step right, down, left and up (-1: none), or None if the
    graph is not a square grid (hex, warps, bridges)."""
    if graph.triangles or any(lane >= 0 for lane in graph.lanes) or graph.n_edges == 0:
        return None
    cells = np.asarray(graph.cells, dtype=np.int64).reshape(-1, 2)
    delta = cells[graph.edges[:, 1]] - cells[graph.edges[:, 0]]
    table = np.full((graph.n_nodes, 4), -1, dtype=np.int64)
    for d, (dr, dc) in enumerate(STEPS):
        forward = (delta[:, 0] == dr) & (delta[:, 1] == dc)
        backward = (delta[:, 0] == -dr) & (delta[:, 1] == -dc)
        table[graph.edges[forward, 0], d] = np.flatnonzero(forward)
        table[graph.edges[backward, 1], d] = np.flatnonzero(backward)
    if int((table >= 0).sum()) != 2 * graph.n_edges:
        return None  # an edge that is no unit step (a warp)
    return table


def clauses(graph: FlowGraph, var: np.ndarray, occupied: np.ndarray) -> list[np.ndarray]:
    """Clauses (arrays of literal rows) that no straight-gap or corner move applies.
    ``var[k, v]``: colour k at node v (0: not allowed); ``occupied[v]``: a literal true if v is
    used (endpoints excluded: they never count as empty). The shortcut move is the designed
    rule's "neighbours of one colour are linked", which ``FlowSat`` adds itself."""
    if not supported(graph):
        raise ValueError("canonical answers need a board without bridges")
    table = step_table(graph)
    if table is None:
        return []  # hex or warps: the shortcut alone (the designed rule, added by FlowSat)
    edges = graph.edges
    terminal = np.zeros(graph.n_nodes, dtype=bool)
    terminal[list(graph.terminal_colour)] = True
    out: list[np.ndarray] = []
    nodes = np.arange(graph.n_nodes)
    for d in (0, 1):  # straight gaps, right and down
        line = [nodes]  # line[i]: the node i steps on (where every step so far exists)
        ok = np.ones(graph.n_nodes, dtype=bool)
        for length in range(1, GAP + 1):
            step = table[line[-1], d]
            ok &= step >= 0
            line.append(np.where(step >= 0, _other(edges, step, line[-1]), line[-1]))
            if length >= 2:
                inner = np.stack(line[1:length], axis=1)
                good = ok & ~terminal[inner].any(axis=1)
                out.extend(_pair_rows(var, line[0][good], line[length][good], occupied[inner[good]]))
    for side in (0, 2):  # corners: x, then y one down and one right (side 0) or left (side 2)
        a_step, b_step = table[:, side], table[:, 1]
        has = (a_step >= 0) & (b_step >= 0)
        x = nodes[has]
        a = _other(edges, a_step[has], x)
        b = _other(edges, b_step[has], x)
        ay, by = table[a, 1], table[b, side]
        has2 = (ay >= 0) & (by >= 0)
        x, a, b, ay, by = x[has2], a[has2], b[has2], ay[has2], by[has2]
        y = _other(edges, ay, a)
        xa, xb = a_step[x], b_step[x]
        for m, far, x_far, far_y in ((a, b, xb, by), (b, a, xa, ay)):
            empty_ok = ~terminal[m]
            first = empty_ok & (m < far)  # m first: the pipe never passes the other corner
            out.extend(_pair_rows(var, x[first], y[first], occupied[m[first]][:, None]))
            later = empty_ok & (m > far)  # the stretch is the step through the other corner
            for extra in (x_far, far_y):
                tail = np.stack([occupied[m[later]], extra[later] + 1], axis=1)
                out.extend(_pair_rows(var, x[later], y[later], tail))
    return out


def applies(graph: FlowGraph, colour: np.ndarray) -> bool:
    """True if no move leads to this answer (``colour``: colour id per node, -1 empty) from another:
    no connected region of empty cells touches one pipe at two cells."""
    empty = colour < 0
    if not empty.any():
        return True
    edges = graph.edges
    both = empty[edges[:, 0]] & empty[edges[:, 1]]
    label = components(graph.n_nodes, edges[both])
    touch = empty[edges[:, 0]] != empty[edges[:, 1]]
    region = np.where(empty[edges[touch, 0]], label[edges[touch, 0]], label[edges[touch, 1]])
    cell = np.where(empty[edges[touch, 0]], edges[touch, 1], edges[touch, 0])
    pairs = np.unique(np.stack([region, cell], axis=1), axis=0)
    per_pipe = np.stack([pairs[:, 0], colour[pairs[:, 1]]], axis=1)
    _, counts = np.unique(per_pipe, axis=0, return_counts=True)
    return bool((counts <= 1).all())


def runs_alongside_itself(graph: FlowGraph, used: np.ndarray, colour: np.ndarray) -> bool:
    """True if two neighbouring cells of one pipe are not linked: a shortcut applies, so a canonical
    answer other than this one exists (the shortcut's, shortened further)."""
    u, v = graph.edges[:, 0], graph.edges[:, 1]
    return bool(((colour[u] == colour[v]) & (colour[u] >= 0) & ~used).any())


def _other(edges: np.ndarray, edge: np.ndarray, node: np.ndarray) -> np.ndarray:
    """The far end of each edge from each node."""
    u, v = edges[edge, 0], edges[edge, 1]
    return np.where(u == node, v, u)


def _pair_rows(var: np.ndarray, x: np.ndarray, y: np.ndarray, tail: np.ndarray) -> list[np.ndarray]:
    """Rows ``-colour(x, k), -colour(y, k), *tail`` for every colour allowed at both x and y."""
    vx, vy = var[:, x], var[:, y]
    k, i = np.nonzero((vx > 0) & (vy > 0))
    if len(i) == 0:
        return []
    return [np.concatenate([-vx[k, i][:, None], -vy[k, i][:, None], tail[i]], axis=1)]
