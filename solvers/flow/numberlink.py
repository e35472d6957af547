"""Neighbour answers under Numberlink rules (cells may stay empty).

Two facts make a second answer cheap to find when there is one of a simple kind:

* a pipe that runs alongside itself (two of its cells are neighbours but not consecutive) can be
  *shortcut*: the step between those two cells replaces the stretch between them, whose cells are
  left empty;
* a step of a pipe can be replaced by a *detour* through cells that are empty.

Both give another valid answer. Conversely, shortcutting repeatedly ends at an answer whose pipes
never run alongside themselves, so "a second answer exists" is decided by such answers and their
detours; the search uses these neighbours only as early witnesses of "2+", never to skip work.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from solvers.flow.graph import FlowGraph


class EdgeAnswer(Protocol):
    """What ``neighbour`` reads of an answer (``sat.EdgeSolution`` has it; sat imports this module)."""

    used: np.ndarray  # bool per edge
    paths: list[list[int]]  # per colour, node ids from one end to the other


def neighbour(graph: FlowGraph, solution: EdgeAnswer) -> np.ndarray | None:
    """Another answer's edge set (a shortcut or a detour of ``solution``), or None."""
    edge_of = {(int(u), int(v)): e for e, (u, v) in enumerate(graph.edges.tolist())}
    edge_of.update({(v, u): e for (u, v), e in list(edge_of.items())})
    # Shortcut: two non-consecutive cells of one pipe that are neighbours.
    for path in solution.paths:
        where = {node: i for i, node in enumerate(path)}
        for i, node in enumerate(path):
            for e in graph.incident[node]:
                u, v = graph.edges[e].tolist()
                other = v if u == node else u
                j = where.get(other, -1)
                if j >= i + 2:
                    used = solution.used.copy()
                    for a, b in zip(path[i:j], path[i + 1 : j + 1], strict=True):
                        used[edge_of[(a, b)]] = False
                    used[e] = True
                    return used
    # Detour: a step replaced by a path through empty cells (endpoints are never empty).
    degree = np.zeros(graph.n_nodes, dtype=np.int64)
    np.add.at(degree, graph.edges[solution.used].ravel(), 1)
    free = degree == 0
    free[list(graph.terminal_colour)] = False
    for e in np.flatnonzero(solution.used).tolist():
        x, y = graph.edges[e].tolist()
        route = _route(graph, x, y, free)
        if route is not None:
            used = solution.used.copy()
            used[e] = False
            for a, b in zip(route, route[1:], strict=False):
                used[edge_of[(a, b)]] = True
            return used
    return None


def _route(graph: FlowGraph, start: int, goal: int, free: np.ndarray) -> list[int] | None:
    """A path start -> goal whose inner nodes are all free (at least one inner node)."""
    parent: dict[int, int] = {}
    todo: deque[int] = deque()
    for e in graph.incident[start]:
        u, v = graph.edges[e].tolist()
        w = v if u == start else u
        if free[w] and w not in parent:
            parent[w] = start
            todo.append(w)
    while todo:
        node = todo.popleft()
        for e in graph.incident[node]:
            u, v = graph.edges[e].tolist()
            w = v if u == node else u
            if w == goal:
                path = [goal, node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            if free[w] and w not in parent:
                parent[w] = node
                todo.append(w)
    return None
