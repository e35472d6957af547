"""Exact solution counts for square-grid Flow boards: a frontier ("broken profile") dynamic programme.

An independent alternative to the SAT search (``sat.py``) for the rule sets where pipes may wander:
``strict`` (the game rules: every cell covered) and ``numberlink`` (cells may stay empty). No loop
cuts, no enumeration: the count of solutions, saturated at ``limit``, comes out of one sweep, so
proving "unique" costs the same as finding the answer. Designed rules are not covered.

The board is swept cell by cell in row-major order along its longer side (the board is transposed
when it has more columns than rows), so the frontier is ``W + 1`` edge slots for a width ``W``
(the shorter side): the down edge of every column (below the cells already swept in the current
row, above them further right) plus the right edge of the last swept cell. Each slot holds

* 0: no pipe crosses the slot;
* a colour: the loose end of a pipe that starts at an endpoint of that colour;
* a pair id: one end of a pipe piece that touches no endpoint yet and whose other end is also on
  the frontier (ids renumbered by first occurrence, so equal states meet in the hash table).

A cell joins its incoming left and upper slots and opens its right and down edges: endpoints have
degree 1, holes 0, other cells 2 (strict) or 0 or 2 (numberlink). Two ends of one piece meeting make
a loop (forbidden); two colours meeting must be the same colour (that colour is then joined; its
endpoints are both swept, so it cannot come back); a piece meeting a colour or another piece takes
its label over at its far end. Two colours whose ends interleave along the frontier (k j k j) would
have to cross below it and are dropped. A solution is a run that ends with an empty frontier.

Counts saturate at ``limit``; every state keeps up to ``limit`` back pointers (one per distinct
partial solution), so the solutions themselves are rebuilt by walking back from the final state.
States are packed into 64-bit words (5-8 bits per slot); each layer has its own open-addressing hash
table, filled by a numba kernel per cell. A layer over ``max_states`` states gives up (``None``), so
a caller can fall back to the SAT search. Figures (docs in the report of issue 28): state counts grow
steeply with the width and, under Numberlink rules, with open areas.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solvers.common.cancel import CancelToken
from solvers.common.kernels import njit
from solvers.flow.graph import FlowGraph, grid_graph
from solvers.flow.model import BRIDGE, FlowPuzzle

RULES = ("strict", "numberlink")
MAX_STATES = 10_000_000  # states per layer before giving up (about 400 MB of working arrays)
# Back pointers kept for rebuilding solutions, summed over all layers (4 + 1 bytes each per witness
# plus 1 byte per state); beyond this the count is still exact but ``solutions`` stays empty.
MAX_STORED = 150_000_000
MAX_LIMIT = 16

HOLE_CELL, PLAIN_CELL = -2, -1  # ``kind`` of a cell; an endpoint's kind is its colour id (>= 0)


class NotApplicable(ValueError):
    """The board is not a plain square grid (bridges, warps, hex) or the rule set is not covered."""


@dataclass
class FrontierResult:
    count: int  # number of solutions, saturated at ``limit``
    complete: bool  # count < limit: the count is exact and ``solutions`` holds every solution
    solutions: list[np.ndarray]  # bool (E,) per solution, edges in the FlowGraph's numbering
    width: int  # frontier width swept (the shorter side of the board)
    transposed: bool  # swept column by column (the board has more columns than rows)
    peak_states: int  # largest layer
    layer_states: list[int] = field(default_factory=list)  # states after each cell, row-major
    rebuilt: bool = True  # False if the back pointers outgrew ``MAX_STORED`` (count still exact)


@dataclass(frozen=True)
class _Layout:
    rows: int  # in sweep orientation
    width: int
    kind: np.ndarray  # (rows * width,) HOLE_CELL, PLAIN_CELL or the endpoint's colour
    edge_right: np.ndarray  # (rows * width,) FlowGraph edge id to the right (sweep orientation), -1
    edge_down: np.ndarray  # (rows * width,) ... downwards, -1
    colours: int
    transposed: bool


def layout(graph: FlowGraph) -> _Layout:
    """The sweep's view of a graph; ``NotApplicable`` unless it is a square grid minus holes/walls."""
    if any(lane >= 0 for lane in graph.lanes):
        raise NotApplicable("the frontier counter does not handle bridges")
    if graph.n_nodes == 0:
        raise NotApplicable("the board has no cells")
    cells = graph.cells
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    node_at = {cell: i for i, cell in enumerate(cells)}
    if len(node_at) != len(cells):
        raise NotApplicable("the frontier counter needs one node per cell")
    edge_of: dict[tuple[int, int], int] = {}
    for e, (u, v) in enumerate(graph.edges.tolist()):
        (r1, c1), (r2, c2) = cells[u], cells[v]
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            raise NotApplicable("the frontier counter handles square grids without warps only (not hex)")
        edge_of[(min(u, v), max(u, v))] = e
    transposed = cols > rows
    h, w = (cols, rows) if transposed else (rows, cols)

    def node(i: int, j: int) -> int:  # sweep (row i, column j) -> node id, -1 for a hole
        return node_at.get((j, i) if transposed else (i, j), -1)

    kind = np.full(h * w, HOLE_CELL, dtype=np.int64)
    right = np.full(h * w, -1, dtype=np.int64)
    down = np.full(h * w, -1, dtype=np.int64)
    for i in range(h):
        for j in range(w):
            u = node(i, j)
            if u < 0:
                continue
            kind[i * w + j] = graph.terminal_colour.get(u, PLAIN_CELL)
            for target, (ii, jj) in ((right, (i, j + 1)), (down, (i + 1, j))):
                v = node(ii, jj) if ii < h and jj < w else -1
                if v >= 0:
                    target[i * w + j] = edge_of.get((min(u, v), max(u, v)), -1)
    return _Layout(h, w, kind, right, down, len(graph.colours), transposed)


def count_solutions(
    board: FlowGraph | FlowPuzzle,
    rules: str,
    limit: int = 2,
    cancel: CancelToken | None = None,
    max_states: int = MAX_STATES,
    max_stored: int = MAX_STORED,
) -> FrontierResult | None:
    """Solutions of a square-grid board (holes and walls allowed) under ``strict`` or ``numberlink``
    rules, counted up to ``limit``, with up to ``limit`` of them as edge sets. None if a layer
    would exceed ``max_states`` states; ``Cancelled`` from the token between cells;
    ``NotApplicable`` for bridges, warps, hex boards and other rule sets."""
    if rules not in RULES:
        raise NotApplicable(f"the frontier counter covers {' and '.join(RULES)} rules, not {rules!r}")
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be 1..{MAX_LIMIT}, got {limit}")
    if isinstance(board, FlowPuzzle):
        if board.hex or board.warp_rows or board.warp_cols or BRIDGE in board.cells:
            raise NotApplicable("the frontier counter handles plain square grids (holes and walls) only")
        graph = grid_graph(board)
    else:
        graph = board
    lay = layout(graph)
    return _sweep(graph, lay, rules == "numberlink", limit, cancel, max_states, max_stored)


def _packing(width: int, colours: int) -> tuple[int, int, int, int]:
    """(bits per slot, slots per word, words, largest pair id) for ``width + 1`` slots."""
    pairs = (width + 1) // 2
    for bits in (5, 6, 7, 8, 16):
        if 1 + pairs + colours <= 1 << bits:
            per_word = 64 // bits
            return bits, per_word, -(-(width + 1) // per_word), pairs
    raise NotApplicable(f"too many colours for the frontier counter ({colours})")


def _sweep(
    graph: FlowGraph,
    lay: _Layout,
    numberlink: bool,
    limit: int,
    cancel: CancelToken | None,
    max_states: int,
    max_stored: int,
) -> FrontierResult | None:
    bits, per_word, words, pairs = _packing(lay.width, lay.colours)
    w = lay.width
    keys = np.zeros((1, words), dtype=np.uint64)  # the empty frontier
    counts = np.ones(1, dtype=np.uint8)
    back: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # per cell: parents, witnesses, edges
    stored = 0
    rebuilt = True
    layer_states: list[int] = []
    geo = np.zeros(10, dtype=np.int64)
    geo[[W, BITS, PER_WORD, PAIRS, NUMBERLINK, LIMIT]] = (w, bits, per_word, pairs, numberlink, limit)
    work = np.zeros((5, max(w + 1, pairs + 2, lay.colours + 1)), dtype=np.int64)
    kbuf = np.zeros(words, dtype=np.uint64)
    for cell in range(lay.rows * w):
        if cancel is not None:
            cancel.raise_if_cancelled()
        n = len(counts)
        cap = min(2 * n + 2, max_states + 1)
        out_keys = np.empty((cap, words), dtype=np.uint64)
        out_counts = np.zeros(cap, dtype=np.uint8)
        parents = np.empty((cap, limit), dtype=np.int32)
        witness = np.empty((cap, limit), dtype=np.uint8)
        edges = np.empty(cap, dtype=np.uint8)
        # Open addressing at most half full.
        table = np.full(1 << max(4, int(2 * cap - 1).bit_length()), -1, dtype=np.int32)
        geo[[COL, KIND, CAN_RIGHT, CAN_DOWN]] = (
            cell % w,
            lay.kind[cell],
            lay.edge_right[cell] >= 0,
            lay.edge_down[cell] >= 0,
        )
        m = _cell_step(keys, counts, geo, work, kbuf, out_keys, out_counts, parents, witness, edges, table)
        if m < 0 or m > max_states:
            return None
        layer_states.append(m)
        keys, counts = out_keys[:m], out_counts[:m]
        if rebuilt:
            stored += m * (limit + 1)
            if stored > max_stored:
                rebuilt = False
                back.clear()
            else:
                back.append((parents[:m].copy(), witness[:m].copy(), edges[:m].copy()))
        if m == 0:
            break
    final = 0
    if len(counts) == 1 and not keys.any():
        final = int(counts[0])
    solutions: list[np.ndarray] = []
    if rebuilt and final:
        solutions = [_rebuild(graph, lay, back, i) for i in range(final)]
    return FrontierResult(
        count=final,
        complete=final < limit,
        solutions=solutions,
        width=w,
        transposed=lay.transposed,
        peak_states=max(layer_states, default=1),
        layer_states=layer_states,
        rebuilt=rebuilt,
    )


def _rebuild(
    graph: FlowGraph, lay: _Layout, back: list[tuple[np.ndarray, np.ndarray, np.ndarray]], which: int
) -> np.ndarray:
    """Edge set of the final state's ``which``-th witness, walking the back pointers."""
    used = np.zeros(graph.n_edges, dtype=bool)
    state, wit = 0, which
    for cell in range(len(back) - 1, -1, -1):
        parents, witness, edges = back[cell]
        bits = int(edges[state])
        if bits & 1:
            used[lay.edge_right[cell]] = True
        if bits & 2:
            used[lay.edge_down[cell]] = True
        state, wit = int(parents[state, wit]), int(witness[state, wit])
    return used


# ---- the kernel ---------------------------------------------------------------------------------
# ``geo``: what the kernel knows of the sweep and of the current cell.
W, COL, BITS, PER_WORD, PAIRS, KIND, CAN_RIGHT, CAN_DOWN, NUMBERLINK, LIMIT = range(10)
# Rows of ``work``: the decoded state, the state being built, pair renumbering, colour end counts,
# the bracket stack.
BUF, SCRATCH, RELABEL, ENDS, STACK = range(5)


@njit(cache=True, nogil=True)
def _hash(kbuf: np.ndarray) -> np.uint64:
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(kbuf.shape[0]):
        h ^= kbuf[i]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(cache=True, nogil=True)
def _crossing(state: np.ndarray, ends: np.ndarray, stack: np.ndarray, w: int, col: int) -> bool:
    """Colours with both ends on the frontier must nest like brackets along it (k j k j would have
    to cross below it). Spatial order of the slots: down edges 0..col, the right edge (slot w),
    down edges col+1..w-1."""
    for i in range(w + 1):
        if state[i] < 0:
            ends[-state[i]] += 1
    top = 0
    for p in range(w + 1):
        i = p if p <= col else (w if p == col + 1 else p - 1)
        v = state[i]
        if v < 0 and ends[-v] == 2:
            if top > 0 and stack[top - 1] == v:
                top -= 1
            else:
                stack[top] = v
                top += 1
    for i in range(w + 1):
        if state[i] < 0:
            ends[-state[i]] = 0
    return top > 0


@njit(cache=True, nogil=True)
def _emit(
    work: np.ndarray,
    kbuf: np.ndarray,
    geo: np.ndarray,
    out_keys: np.ndarray,
    out_counts: np.ndarray,
    parents: np.ndarray,
    witness: np.ndarray,
    edges: np.ndarray,
    table: np.ndarray,
    m: int,
    parent: int,
    parent_count: int,
) -> int:
    """Add the state in ``work[SCRATCH]`` (after the cell) to the layer with ``parent``'s witnesses;
    the layer's new size, or -1 when it is full."""
    w, col, bits, per_word, pairs = geo[W], geo[COL], geo[BITS], geo[PER_WORD], geo[PAIRS]
    state = work[SCRATCH]
    if _crossing(state, work[ENDS], work[STACK], w, col):
        return m
    # Renumber pair ids by first occurrence in slot order and pack.
    relabel = work[RELABEL]
    for i in range(pairs + 2):
        relabel[i] = 0
    nxt = 0
    for i in range(kbuf.shape[0]):
        kbuf[i] = np.uint64(0)
    for i in range(w + 1):
        v = state[i]
        code = 0
        if v > 0:
            if relabel[v] == 0:
                nxt += 1
                relabel[v] = nxt
            code = relabel[v]
        elif v < 0:
            code = pairs - v  # colour k (held as -(k + 1)) -> pairs + 1 + k
        kbuf[i // per_word] |= np.uint64(code) << np.uint64((i % per_word) * bits)
    mask = table.shape[0] - 1
    slot = np.int64(_hash(kbuf) & np.uint64(mask))
    while True:
        idx = np.int64(table[slot])
        if idx < 0:
            if m >= out_keys.shape[0]:
                return -1
            table[slot] = m
            for i in range(kbuf.shape[0]):
                out_keys[m, i] = kbuf[i]
            out_counts[m] = 0
            edges[m] = (1 if state[w] != 0 else 0) | (2 if state[col] != 0 else 0)
            idx = m
            m += 1
            break
        same = True
        for i in range(kbuf.shape[0]):
            if out_keys[idx, i] != kbuf[i]:
                same = False
                break
        if same:
            break
        slot = (slot + 1) & mask
    c = np.int64(out_counts[idx])
    limit = geo[LIMIT]
    for i in range(parent_count):
        if c >= limit:
            break
        parents[idx, c] = parent
        witness[idx, c] = i
        c += 1
    out_counts[idx] = c
    return m


@njit(cache=True, nogil=True)
def _replace(state: np.ndarray, w: int, old: int, new: int) -> None:
    for i in range(w + 1):
        if state[i] == old:
            state[i] = new


@njit(cache=True, nogil=True)
def _cell_step(
    keys: np.ndarray,
    counts: np.ndarray,
    geo: np.ndarray,
    work: np.ndarray,
    kbuf: np.ndarray,
    out_keys: np.ndarray,
    out_counts: np.ndarray,
    parents: np.ndarray,
    witness: np.ndarray,
    edges: np.ndarray,
    table: np.ndarray,
) -> int:
    """One cell for every state of the layer; the next layer's size, or -1 if it overflowed."""
    w, col, bits, per_word, pairs = geo[W], geo[COL], geo[BITS], geo[PER_WORD], geo[PAIRS]
    kind, can_right, can_down, numberlink = geo[KIND], geo[CAN_RIGHT], geo[CAN_DOWN], geo[NUMBERLINK]
    fresh = pairs + 1  # id of a new pair piece (ids on the frontier are 1..pairs)
    slot_mask = np.uint64((1 << bits) - 1)
    buf, state = work[BUF], work[SCRATCH]
    m = 0
    for s in range(keys.shape[0]):
        cnt = np.int64(counts[s])
        for i in range(w + 1):
            v = np.int64((keys[s, i // per_word] >> np.uint64((i % per_word) * bits)) & slot_mask)
            buf[i] = v if v <= pairs else pairs - v  # colour code pairs + 1 + k -> -(k + 1)
        left, up = buf[w], buf[col]
        d_in = (1 if left != 0 else 0) + (1 if up != 0 else 0)
        if kind == HOLE_CELL:
            if d_in == 0:
                state[:] = buf
                m = _emit(work, kbuf, geo, out_keys, out_counts, parents, witness, edges, table, m, s, cnt)
        elif d_in == 0 and (kind >= 0 or not numberlink or can_right and can_down):
            # An endpoint starts its pipe right or down; a plain cell starts a piece both ways.
            for way in range(3):
                if kind >= 0 and way == 2 or kind < 0 and way < 2:
                    continue
                if (way != 1 and not can_right) or (way != 0 and not can_down):
                    continue
                label = -(kind + 1) if kind >= 0 else fresh
                state[:] = buf
                state[w] = label if way != 1 else 0
                state[col] = label if way != 0 else 0
                m = _emit(work, kbuf, geo, out_keys, out_counts, parents, witness, edges, table, m, s, cnt)
                if m < 0:
                    return -1
            if kind < 0 and numberlink:  # or the cell stays empty
                state[:] = buf
                m = _emit(work, kbuf, geo, out_keys, out_counts, parents, witness, edges, table, m, s, cnt)
        elif d_in == 0:  # a plain cell under Numberlink rules with one way out at most: empty
            state[:] = buf
            m = _emit(work, kbuf, geo, out_keys, out_counts, parents, witness, edges, table, m, s, cnt)
        elif d_in == 1 and kind < 0:  # a pipe passes through: right or down
            x = left if left != 0 else up
            for way in range(2):
                if (way == 0 and not can_right) or (way == 1 and not can_down):
                    continue
                state[:] = buf
                state[w] = x if way == 0 else 0
                state[col] = x if way == 1 else 0
                m = _emit(work, kbuf, geo, out_keys, out_counts, parents, witness, edges, table, m, s, cnt)
                if m < 0:
                    return -1
        else:  # two ends meet here, or a pipe ends at this endpoint
            a = left
            b = up if kind < 0 else -(kind + 1)
            if d_in == 2 and kind >= 0:
                continue  # an endpoint has degree 1
            if kind >= 0 and a == 0:
                a = up
            state[:] = buf
            state[w] = 0
            state[col] = 0
            if a > 0 and b > 0:
                if a == b:
                    continue  # both ends of one piece: a loop
                _replace(state, w, b, a)
            elif a > 0:
                _replace(state, w, a, b)
            elif b > 0:
                _replace(state, w, b, a)
            elif a != b:
                continue  # two colours meet
            m = _emit(work, kbuf, geo, out_keys, out_counts, parents, witness, edges, table, m, s, cnt)
        if m < 0:
            return -1
    return m
