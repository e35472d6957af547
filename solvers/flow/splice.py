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

from solvers.common.kernels import njit
from solvers.flow.detour import SMALL
from solvers.flow.graph import FlowGraph


def trace(graph: FlowGraph, used: np.ndarray) -> tuple[np.ndarray, list[list[int]], list[list[int]]]:
    """Components of a degree-valid edge set: the label of each node (colour id on the pipe from
    that colour's endpoints, ``K + i`` on loop i, -1 unused), the pipes as node lists and the loops
    as edge-id lists. Each walk leaves a node by its first used edge (lowest id) that does not lead
    back; raises ValueError if a walk cannot go on (an edge set that is not degree-valid)."""
    chosen = np.flatnonzero(used)
    ends = graph.edges[chosen]
    # Each node's used edges in edge-id order (both ends of an edge, edge by edge; stable sort).
    src = ends.ravel()
    dst = ends[:, ::-1].ravel()
    eid = np.repeat(chosen, 2)
    order = np.argsort(src, kind="stable")
    start = np.searchsorted(src[order], np.arange(graph.n_nodes + 1))
    terminals = np.asarray(graph.terminals, dtype=np.int64).reshape(-1, 2)
    label, path_nodes, path_ends, loop_edges, loop_ends, ok = _walk(
        start, dst[order].astype(np.int64), eid[order].astype(np.int64), terminals
    )
    if not ok:
        raise ValueError("the edge set is not degree-valid: a walk stops at a cell of degree 1")
    return label, _pieces(path_nodes, path_ends), _pieces(loop_edges, loop_ends)


def _pieces(flat: np.ndarray, ends: np.ndarray) -> list[list[int]]:
    """``flat`` cut at the end offsets ``ends``."""
    items, bounds = flat.tolist(), ends.tolist()
    return [items[a:b] for a, b in zip([0, *bounds], bounds, strict=False)]


@njit(cache=True, nogil=True, python_below=SMALL)
def _walk(
    start: np.ndarray, nbr: np.ndarray, eid: np.ndarray, terminals: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:
    """The walks of ``trace`` over adjacency lists (node v's used edges: ``nbr``/``eid`` from
    ``start[v]`` to ``start[v + 1]``): labels, the pipes' nodes and end offsets, the loops' edges
    and end offsets, and False if a loop walk got stuck."""
    n = start.shape[0] - 1
    k_count = terminals.shape[0]
    label = np.full(n, -1, dtype=np.int64)
    path_nodes = np.empty(n + k_count, dtype=np.int64)
    path_ends = np.empty(k_count, dtype=np.int64)
    size = 0
    for k in range(k_count):
        node = terminals[k, 0]
        prev = -1
        label[node] = k
        path_nodes[size] = node
        size += 1
        for _ in range(n):  # a path visits each node once: n steps bound a bad input's walk
            nxt = -1
            for j in range(start[node], start[node + 1]):
                if nbr[j] != prev:
                    nxt = nbr[j]
                    break
            if nxt < 0:
                break
            prev, node = node, nxt
            label[node] = k
            path_nodes[size] = node
            size += 1
            if size == path_nodes.shape[0]:
                break
        path_ends[k] = size
    free = np.flatnonzero(label < 0)
    loop_edges = np.empty(eid.shape[0], dtype=np.int64)
    loop_ends = np.empty(n, dtype=np.int64)
    count = 0
    size = 0
    for node in free:
        if label[node] >= 0 or start[node] == start[node + 1]:
            continue
        prev, cur = -1, int(node)
        while True:
            label[cur] = k_count + count
            j = start[cur]
            while j < start[cur + 1] and nbr[j] == prev:
                j += 1
            if j == start[cur + 1] or size == loop_edges.shape[0]:
                return label, path_nodes[:0], path_ends, loop_edges[:0], loop_ends[:0], False
            loop_edges[size] = eid[j]
            size += 1
            prev, cur = cur, int(nbr[j])
            if cur == node:
                break
        loop_ends[count] = size
        count += 1
    return label, path_nodes, path_ends, loop_edges[:size], loop_ends[:count], True


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
