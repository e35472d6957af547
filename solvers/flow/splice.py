"""Splice endpoint-free loops into pipes: turns a near-solution of the SAT model into a solution.

Under the game rules a model of the SAT encoding is a set of pipes plus, possibly, loops that touch
no endpoint. Where a 4-cycle of the board has two opposite sides used by two different components
(a loop and a pipe, or two loops), swapping those two sides for the other two joins the components
into one: a pipe that takes a detour round the whole loop, or one bigger loop. Every cell keeps its
degree, so repeating this until no loop is left gives a valid solution under the game rules (not
under the designed convention: the spliced pipe runs alongside itself). On boards drawn by hand the
SAT solver otherwise spends most of its time cutting such loops one model at a time (thousands on a
50x50 board); splicing finishes in milliseconds.
"""

from __future__ import annotations

import numpy as np

from solvers.flow.graph import FlowGraph


def trace(graph: FlowGraph, used: np.ndarray) -> tuple[np.ndarray, list[list[int]], list[list[int]]]:
    """Components of a degree-valid edge set: the label of each node (colour id on the pipe from
    that colour's endpoints, ``K + i`` on loop i, -1 unused), the pipes as node lists and the loops
    as edge-id lists."""
    n = graph.n_nodes
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for e in np.flatnonzero(used).tolist():
        u, v = graph.edges[e].tolist()
        adj[u].append((v, e))
        adj[v].append((u, e))
    label = np.full(n, -1, dtype=np.int64)
    paths: list[list[int]] = []
    for k, (start, _end) in enumerate(graph.terminals):
        path = [start]
        label[start] = k
        prev, node = -1, start
        while True:
            nxt = [w for w, _ in adj[node] if w != prev]
            if not nxt:
                break
            prev, node = node, nxt[0]
            path.append(node)
            label[node] = k
        paths.append(path)
    loops: list[list[int]] = []
    for node in np.flatnonzero(label < 0).tolist():
        if label[node] >= 0 or not adj[node]:
            continue
        loop: list[int] = []
        prev, cur = -1, node
        while True:
            label[cur] = len(graph.terminals) + len(loops)
            w, e = next((w, e) for w, e in adj[cur] if w != prev)
            loop.append(e)
            prev, cur = cur, w
            if cur == node:
                break
        loops.append(loop)
    return label, paths, loops


def splice_loops(graph: FlowGraph, used: np.ndarray) -> np.ndarray | None:
    """The edge set with every loop spliced into a pipe, or None if some loop has no 4-cycle it
    could be spliced through."""
    used = used.copy()
    squares = np.asarray(graph.squares, dtype=np.int64).reshape(-1, 4)
    while True:
        label, _paths, loops = trace(graph, used)
        if not loops:
            return used
        if len(squares) == 0 or _splice_pass(graph, squares, used, label, len(loops)) == 0:
            return None


def _splice_pass(
    graph: FlowGraph, squares: np.ndarray, used: np.ndarray, label: np.ndarray, n_loops: int
) -> int:
    """Splice through as many 4-cycles as can be done at once (no two sharing an edge, each
    joining two components of which at most one is a pipe); returns how many."""
    n_k = len(graph.terminals)
    edge_label = np.where(used, label[graph.edges[:, 0]], -1)
    parent = list(range(n_k + n_loops))
    has_pipe = [i < n_k for i in range(n_k + n_loops)]

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    touched = np.zeros(len(used), dtype=bool)
    merged = 0
    for a, b in ((0, 2), (1, 3)):
        la, lb = edge_label[squares[:, a]], edge_label[squares[:, b]]
        ok = (la >= 0) & (lb >= 0) & (la != lb) & ((la >= n_k) | (lb >= n_k))
        for sq in squares[ok]:
            if touched[sq].any():
                continue
            ra, rb = find(int(edge_label[sq[a]])), find(int(edge_label[sq[b]]))
            if ra == rb or (has_pipe[ra] and has_pipe[rb]):
                continue
            parent[ra] = rb
            has_pipe[rb] = has_pipe[ra] or has_pipe[rb]
            touched[sq] = True
            used[sq] = ~used[sq]  # the two used sides go, the two free ones come
            merged += 1
    return merged
