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
have to cross below it and are dropped, but only while no piece is on the frontier (a piece can
bridge k's ends over j). A solution is a run that ends with an empty frontier.

Counts saturate at ``limit``; every state keeps up to ``limit`` back pointers (one per distinct
partial solution), so the solutions themselves are rebuilt by walking back from the final state.
States are packed into 64-bit words (5-8 bits per slot); each layer has its own open-addressing hash
table, filled by a numba kernel per cell (the first call compiles the kernels: about 12 s of CPU
without numba's cache, 0.8 s with it). A layer over ``max_states`` states gives up (``None``), so a
caller can fall back to the SAT search; the token is polled between cells.

Reach, measured with ``benchmarks/flow_frontier_bench.py`` (CPU seconds, limit 2, shared 2-core
machine): the states grow about 3-4 times per unit of width, and more where the board is open.
Hand-made-style boards (``handmade.py``, 3-5 pairs, seeds 0-9) at width 10: 0.05-0.4 s under the
game rules (largest layer 13k-49k states), 0.3-1.3 s under Numberlink rules (38k-137k); issue 28's
12x12 (5 pairs): unique in 2.3 s (139k) and 7.2 s (387k); hand-made 12x12: 4-14 s (0.36-1.5 M)
under the game rules; under Numberlink rules 19-31 s for half of them (0.9-2.3 M), the others
(2.5-4.1 M) count in 37-49 s and then outgrow the back-pointer budget, so the rows are swept again
for the solutions (as long again). 13x13: mostly not within 60 s; 15x15 and 20x20: a layer passes
5 million states within the first 2-7 rows (20-30 s). So it decides boards up to a width of about
12. (These figures predate the sound crossing test of 2026-11-26, which keeps more states:
issue 28's 12x12 under the game rules 3-5 s; see docs/flow.md.)
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass, field

import numpy as np

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.kernels import njit
from solvers.flow.graph import FlowGraph, grid_graph
from solvers.flow.model import BRIDGE, FlowPuzzle

RULES = ("strict", "numberlink")
# States per layer before giving up. A layer of n states takes about 100-160 n bytes while it is
# built (its hash table at most half full, 32 bytes a row, plus the layer before), so 5 million is
# about 0.8 GB.
MAX_STATES = 5_000_000
# Bytes kept for rebuilding solutions: the back pointers of all layers (limit x 5 + 1 per state),
# or beyond that the layers at the start of each row (8 per key word + 1 per state; the rows are
# swept again to rebuild, about doubling the time); beyond both the count is still exact but
# ``solutions`` stays empty.
MAX_STORED = 800_000_000
MAX_LIMIT = 8  # witnesses per state: 3 bits each in the table's meta word

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
    # False if neither the back pointers nor the layers at the row starts fitted in ``max_stored``
    # bytes, or the token fired while the rows were swept again: the count is still exact, but
    # ``solutions`` stays empty.
    rebuilt: bool = True


@dataclass(frozen=True)
class _Layout:
    rows: int  # in sweep orientation
    width: int
    kind: np.ndarray  # (rows * width,) HOLE_CELL, PLAIN_CELL or the endpoint's colour
    edge_right: np.ndarray  # (rows * width,) FlowGraph edge id to the right (sweep orientation), -1
    edge_down: np.ndarray  # (rows * width,) ... downwards, -1
    colours: int
    transposed: bool


def layout(graph: FlowGraph, orientation: int = 0) -> _Layout:
    """The sweep's view of a graph; ``NotApplicable`` unless it is a square grid minus holes/walls.
    ``orientation`` (0..3, see ``orientations``) picks the end the sweep starts from and, on a
    square board, whether it goes row by row or column by column."""
    rows, cols = grid_size(graph)
    cells = graph.cells
    node_at = {cell: i for i, cell in enumerate(cells)}
    edge_of = {(min(u, v), max(u, v)): e for e, (u, v) in enumerate(graph.edges.tolist())}
    transposed = cols > rows or (cols == rows and orientation & 2 == 2)
    h, w = (cols, rows) if transposed else (rows, cols)
    backwards = orientation & 1 == 1

    def node(i: int, j: int) -> int:  # sweep (row i, column j) -> node id, -1 for a hole
        if backwards:
            i = h - 1 - i
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


def grid_size(graph: FlowGraph) -> tuple[int, int]:
    """(rows, cols) of a square grid minus holes and walls; ``NotApplicable`` for anything else."""
    if any(lane >= 0 for lane in graph.lanes):
        raise NotApplicable("the frontier counter does not handle bridges")
    if graph.n_nodes == 0:
        raise NotApplicable("the board has no cells")
    cells = np.asarray(graph.cells, dtype=np.int64).reshape(-1, 2)
    if len(np.unique(cells, axis=0)) != len(cells):
        raise NotApplicable("the frontier counter needs one node per cell")
    step = np.abs(cells[graph.edges[:, 0]] - cells[graph.edges[:, 1]]).sum(axis=1)
    if (step != 1).any():
        raise NotApplicable("the frontier counter handles square grids without warps only (not hex)")
    rows, cols = cells.max(axis=0) + 1
    return int(rows), int(cols)


def _graph_of(board: FlowGraph | FlowPuzzle) -> FlowGraph:
    if isinstance(board, FlowPuzzle):
        if board.hex or board.warp_rows or board.warp_cols or BRIDGE in board.cells:
            raise NotApplicable("the frontier counter handles plain square grids (holes and walls) only")
        return grid_graph(board)
    return board


def _checked_graph(board: FlowGraph | FlowPuzzle, rules: str, limit: int) -> FlowGraph:
    if rules not in RULES:
        raise NotApplicable(f"the frontier counter covers {' and '.join(RULES)} rules, not {rules!r}")
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be 1..{MAX_LIMIT}, got {limit}")
    return _graph_of(board)


def sweep_width(board: FlowGraph | FlowPuzzle) -> int:
    """The frontier width a sweep of this board would have (its shorter side); the state count, and
    with it time and memory, grows steeply with it (see the module notes). ``NotApplicable`` as
    ``count_solutions``."""
    return min(grid_size(_graph_of(board)))  # the sweep runs along the longer side


def count_solutions(
    board: FlowGraph | FlowPuzzle,
    rules: str,
    limit: int = 2,
    cancel: CancelToken | None = None,
    max_states: int = MAX_STATES,
    max_stored: int = MAX_STORED,
    orientation: int = 0,
) -> FrontierResult | None:
    """Solutions of a square-grid board (holes and walls allowed) under ``strict`` or ``numberlink``
    rules, counted up to ``limit``, with up to ``limit`` of them as edge sets. None if a layer
    would exceed ``max_states`` states; ``Cancelled`` from the token between cells (after the count,
    while rebuilding solutions by sweeping rows again, the result comes back without solutions);
    ``NotApplicable`` for bridges, warps, hex boards and other rule sets. ``orientation``: the
    direction of the sweep (``orientations``); the count is the same, the state count may not be."""
    graph = _checked_graph(board, rules, limit)
    lay = layout(graph, orientation)
    return _sweep(graph, lay, rules == "numberlink", limit, cancel, max_states, max_stored)


# The racing count: every direction is swept while its largest layer stays the smallest of all;
# once all have passed ``PROBE_STATES``, the one that got furthest is favoured ``FAVOUR``-fold.
PROBE_STATES = 60_000
FAVOUR = 4


def count_racing(
    board: FlowGraph | FlowPuzzle,
    rules: str,
    limit: int = 2,
    cancel: CancelToken | None = None,
    max_states: int = MAX_STATES,
    max_stored: int = MAX_STORED,
) -> FrontierResult | None:
    """``count_solutions`` swept in every direction at once; the first to finish answers (the
    counts agree). The state count can differ 50-fold between directions, and no early sign picks
    the cheap one reliably (the published 13x13's four directions grow alike for a third of the
    board, then one peaks at 0.2 M states and two pass 1.5 M). So the directions take turns, a cell
    at a time: the next cell goes to the direction whose largest layer so far is smallest (a layer
    costs time in proportion to its size); once every direction has passed ``PROBE_STATES``, the
    one that got furthest may grow ``FAVOUR`` times larger before the others get a turn. A
    direction whose layer passes ``max_states`` drops out; None if all do, or once the favourite
    does (the others then failed too in every recorded case). Each direction keeps at most half of
    ``max_stored`` for the solutions. Measured against the cheapest direction and the old
    furthest-after-a-probe schedule: docs/flow.md and ``benchmarks/flow_racing_bench.py``."""
    graph = _checked_graph(board, rules, limit)
    directions = orientations(graph)
    sweeps = {
        o: _sweep_steps(
            graph,
            layout(graph, o),
            rules == "numberlink",
            limit,
            cancel,
            max_states,
            max_stored // 2,
        )
        for o in range(directions)
    }
    peak = dict.fromkeys(sweeps, 0)
    cells = dict.fromkeys(sweeps, 0)
    spent = dict.fromkeys(sweeps, 0.0)
    favourite = -1

    def turn(o: int) -> tuple[float, float, int]:
        return (peak[o] / (FAVOUR if o == favourite else 1), spent[o], o)

    try:
        while sweeps:
            if favourite < 0 and all(peak[o] > PROBE_STATES for o in sweeps):
                favourite = max(sweeps, key=lambda o: (cells[o], -o))
            o = min(sweeps, key=turn)
            started = time.thread_time()
            try:
                states = next(sweeps[o])
            except StopIteration as end:
                del sweeps[o]
                if end.value is not None:
                    result: FrontierResult = end.value
                    return result
                if o == favourite:
                    return None  # the likeliest direction passed the cap: the rest would follow
                continue
            spent[o] += time.thread_time() - started
            cells[o] += 1
            peak[o] = max(peak[o], states)
        return None
    finally:
        for steps in sweeps.values():
            steps.close()


def orientations(board: FlowGraph | FlowPuzzle) -> int:
    """How many sweep directions a board has (``orientation`` 0..n-1): from either end of the
    longer side, and on a square board row by row or column by column. The state count depends on
    the direction (``count_racing``)."""
    lay = layout(_graph_of(board))
    return 4 if lay.rows == lay.width else 2


def _packing(width: int, colours: int) -> tuple[int, int, int, int]:
    """(bits per slot, slots per word, words, largest pair id) for ``width + 1`` slots."""
    pairs = (width + 1) // 2
    for bits in (5, 6, 7, 8, 16):
        if 1 + pairs + colours <= 1 << bits:
            per_word = 64 // bits
            return bits, per_word, -(-(width + 1) // per_word), pairs
    raise NotApplicable(f"too many colours for the frontier counter ({colours})")


Back = tuple[np.ndarray, np.ndarray, np.ndarray]  # one cell's parents, witnesses, edges per state


class _Sweeper:
    """The kernel's buffers for one board; ``step`` sweeps one cell."""

    def __init__(self, lay: _Layout, numberlink: bool, limit: int, max_states: int) -> None:
        bits, per_word, self.words, pairs = _packing(lay.width, lay.colours)
        self.lay, self.limit = lay, limit
        self.geo = np.zeros(11, dtype=np.int64)
        self.geo[[W, BITS, PER_WORD, PAIRS, NUMBERLINK, LIMIT, MAX]] = (
            lay.width,
            bits,
            per_word,
            pairs,
            numberlink,
            limit,
            max_states,
        )
        self.work = np.zeros((9, max(lay.width + 1, pairs + 2, lay.colours + 1)), dtype=np.int64)
        self.kbuf = np.zeros(self.words, dtype=np.uint64)

    def start(self) -> tuple[np.ndarray, np.ndarray]:
        """The layer before the first cell: the empty frontier, once."""
        return np.zeros((1, self.words), dtype=np.uint64), np.ones(1, dtype=np.uint8)

    def step(
        self, keys: np.ndarray, counts: np.ndarray, cell: int
    ) -> tuple[np.ndarray, np.ndarray, Back] | None:
        """The layer after ``cell`` and its back pointers; None past the state limit."""
        lay = self.lay
        self.geo[[COL, KIND, CAN_RIGHT, CAN_DOWN]] = (
            cell % lay.width,
            lay.kind[cell],
            lay.edge_right[cell] >= 0,
            lay.edge_down[cell] >= 0,
        )
        # The next layer's table: at most half full (the kernel doubles it when needed).
        rows = 1 << max(6, (3 * len(counts)).bit_length())
        table = np.zeros((rows, self.words + 1 + (self.limit + 1) // 2), np.uint64)
        m, table = _cell_step(keys, counts, self.geo, self.work, self.kbuf, table)
        if m < 0:
            return None
        keys, counts, parents, witness, edges = _compact(table, m, self.words, self.limit)
        return keys, counts, (parents, witness, edges)


def _sweep(
    graph: FlowGraph,
    lay: _Layout,
    numberlink: bool,
    limit: int,
    cancel: CancelToken | None,
    max_states: int,
    max_stored: int,
) -> FrontierResult | None:
    steps = _sweep_steps(graph, lay, numberlink, limit, cancel, max_states, max_stored)
    while True:
        try:
            next(steps)
        except StopIteration as end:
            result: FrontierResult | None = end.value
            return result


def _sweep_steps(
    graph: FlowGraph,
    lay: _Layout,
    numberlink: bool,
    limit: int,
    cancel: CancelToken | None,
    max_states: int,
    max_stored: int,
) -> Generator[int, None, FrontierResult | None]:
    """The sweep, one cell at a time: yields the state count of each layer, returns the result."""
    sweeper = _Sweeper(lay, numberlink, limit, max_states)
    w = lay.width
    keys, counts = sweeper.start()
    # What solutions are rebuilt from: the back pointers of every cell while they fit in
    # ``max_stored`` bytes, else the layer at the start of every row (each row is swept again).
    back: list[Back] | None = []
    starts: list[tuple[np.ndarray, np.ndarray]] | None = []
    stored = starts_stored = 0
    layer_states: list[int] = []
    for cell in range(lay.rows * w):
        if cancel is not None:
            cancel.raise_if_cancelled()
        if cell % w == 0 and starts is not None:
            starts.append((keys, counts))
            starts_stored += keys.nbytes + counts.nbytes
            if starts_stored > max_stored:
                starts = None
        done = sweeper.step(keys, counts, cell)
        if done is None:
            return None
        keys, counts, pointers = done
        layer_states.append(len(counts))
        yield len(counts)
        if back is not None:
            stored += sum(a.nbytes for a in pointers)
            if stored <= max_stored:
                back.append(pointers)
            else:
                back = None
        if len(counts) == 0:
            break
    final = 0
    if len(counts) == 1 and not keys.any():
        final = int(counts[0])
    solutions: list[np.ndarray] = []
    rebuilt = back is not None or starts is not None
    if final and back is not None:
        solutions = [_rebuild(graph, lay, back, i) for i in range(final)]
    elif final and starts is not None:
        try:
            solutions = _rebuild_by_rows(graph, sweeper, starts, final, cancel)
        except Cancelled:
            rebuilt = False  # the count is proven: keep it rather than lose it to the re-sweep
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


def _rebuild(graph: FlowGraph, lay: _Layout, back: list[Back], which: int) -> np.ndarray:
    """Edge set of the final state's ``which``-th witness, walking the back pointers."""
    used = np.zeros(graph.n_edges, dtype=bool)
    _walk(used, lay, back, 0, 0, which)
    return used


def _walk(
    used: np.ndarray, lay: _Layout, back: list[Back], first: int, state: int, wit: int
) -> tuple[int, int]:
    """Walk the back pointers of cells ``first + len(back) - 1`` down to ``first`` from (state,
    witness), marking the edges each cell used; the (state, witness) before them."""
    for i in range(len(back) - 1, -1, -1):
        parents, witness, edges = back[i]
        bits = int(edges[state])
        if bits & 1:
            used[lay.edge_right[first + i]] = True
        if bits & 2:
            used[lay.edge_down[first + i]] = True
        state, wit = int(parents[state, wit]), int(witness[state, wit])
    return state, wit


def _rebuild_by_rows(
    graph: FlowGraph,
    sweeper: _Sweeper,
    starts: list[tuple[np.ndarray, np.ndarray]],
    final: int,
    cancel: CancelToken | None,
) -> list[np.ndarray]:
    """The final state's witnesses, sweeping each row again from its first layer (bottom row first)
    to get that row's back pointers. The sweep is deterministic, so the layers and their order are
    the same as the first time."""
    lay, w = sweeper.lay, sweeper.lay.width
    used = [np.zeros(graph.n_edges, dtype=bool) for _ in range(final)]
    at = [(0, i) for i in range(final)]  # (state, witness) per solution in the current layer
    for row in range(len(starts) - 1, -1, -1):
        keys, counts = starts[row]
        back: list[Back] = []
        for cell in range(row * w, row * w + w):
            if cancel is not None:
                cancel.raise_if_cancelled()
            done = sweeper.step(keys, counts, cell)
            assert done is not None  # it fitted the first time
            keys, counts, pointers = done
            back.append(pointers)
        at = [_walk(used[i], lay, back, row * w, *at[i]) for i in range(final)]
    return used


# ---- the kernel ---------------------------------------------------------------------------------
# ``geo``: what the kernel knows of the sweep and of the current cell.
W, COL, BITS, PER_WORD, PAIRS, KIND, CAN_RIGHT, CAN_DOWN, NUMBERLINK, LIMIT, MAX = range(11)
# Rows of ``work``: the decoded state, the state being built, pair renumbering, colour end counts,
# and the crossing test's bracket stack, word, piece numbers, piece colouring and colours.
BUF, SCRATCH, RELABEL, ENDS, STACK, LETTERS, PIECE_OF, CHOICE, DOUBLES = range(9)
# A row of a layer's hash table: the key's words, then ``meta`` (count in bits 0-3, the cell's
# right/down edges in bits 4-5, from bit 8 on 3 bits per witness: which witness of its parent it
# extends; 0 = empty slot), then the parents' indices, two int32 per word. All in one row, so that
# a lookup touches one place in memory.
COUNT_MASK, EDGE_SHIFT, WITNESS_SHIFT = 15, 4, 8


@njit(cache=True, nogil=True)
def _hash(key: np.ndarray) -> np.uint64:
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(key.shape[0]):
        h ^= key[i]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


# Piece colourings tried by the crossing test before it keeps a state unexamined (sound either way).
MAX_COLOURINGS = 256


@njit(cache=True, nogil=True)
def _crossing(state: np.ndarray, work: np.ndarray, w: int, col: int) -> bool:
    """True if no completion below the frontier can join the colours whose two ends are both on it.

    Below the frontier every connection is an arc between two frontier slots, and arcs never cross.
    Each arc joins two ends of one pipe: of a colour, or of a piece (a pipe bit through the swept
    part with both ends on the frontier) that will become part of some colour's pipe. A colour with
    both ends on the frontier has no endpoint left below, so every end of it (and of the pieces on
    its pipe) is matched by an arc; ends of colours with an endpoint still below may instead run to
    that endpoint, so they (and pieces on their pipes) can be left out. So a completion needs a
    colouring of the pieces (a frontier colour, or "left out") under which the word of those ends
    along the frontier pairs up without crossing: cancelling equal neighbours empties it. With no
    piece that is the plain bracket test (k j k j must cross); pieces are tried in every colouring
    up to ``MAX_COLOURINGS`` (a piece can bridge k's ends over j: a published 12x12 swept upside
    down came out "no solution" when states with pieces were dropped unexamined). Spatial order of
    the slots: down edges 0..col, the right edge (slot w), down edges col+1..w-1."""
    ends, stack, letters, piece_of, choice, doubles = (
        work[ENDS],
        work[STACK],
        work[LETTERS],
        work[PIECE_OF],
        work[CHOICE],
        work[DOUBLES],
    )
    for i in range(w + 1):
        if state[i] < 0:
            ends[-state[i]] += 1
    n, pieces, n_doubles = 0, 0, 0
    for p in range(w + 1):
        i = p if p <= col else (w if p == col + 1 else p - 1)
        v = state[i]
        if v < 0 and ends[-v] >= 2:
            letters[n] = v
            n += 1
            if ends[-v] == 2:
                ends[-v] = 3  # listed once among the doubles
                doubles[n_doubles] = v
                n_doubles += 1
        elif v > 0:
            letters[n] = v
            n += 1
            if piece_of[v] == 0:
                pieces += 1
                piece_of[v] = pieces
    for i in range(w + 1):
        v = state[i]
        if v < 0:
            ends[-v] = 0
    crossing = True
    if n_doubles > 0:
        if (n_doubles + 1) ** pieces > MAX_COLOURINGS:  # at most 8 ** 8: no overflow
            crossing = False
        else:
            for k in range(pieces):
                choice[k] = 0
            while True:
                if _pairs_up(letters, n, piece_of, choice, doubles, stack):
                    crossing = False
                    break
                k = 0  # next colouring (an odometer over the pieces)
                while k < pieces and choice[k] == n_doubles:
                    choice[k] = 0
                    k += 1
                if k == pieces:
                    break
                choice[k] += 1
    else:
        crossing = False
    for i in range(w + 1):
        if state[i] > 0:
            piece_of[state[i]] = 0
    return crossing


@njit(cache=True, nogil=True)
def _pairs_up(
    letters: np.ndarray,
    n: int,
    piece_of: np.ndarray,
    choice: np.ndarray,
    doubles: np.ndarray,
    stack: np.ndarray,
) -> bool:
    """Whether the word (pieces coloured by ``choice``: 0 left out, j the j-th double colour)
    empties by cancelling equal neighbours."""
    top = 0
    for t in range(n):
        v = letters[t]
        if v > 0:
            c = choice[piece_of[v] - 1]
            if c == 0:
                continue
            v = doubles[c - 1]
        if top > 0 and stack[top - 1] == v:
            top -= 1
        else:
            stack[top] = v
            top += 1
    return top == 0


@njit(cache=True, nogil=True)
def _grow(table: np.ndarray, words: int) -> np.ndarray:
    """The same entries in a table twice the size."""
    bigger = np.zeros((2 * table.shape[0], table.shape[1]), dtype=np.uint64)
    mask = bigger.shape[0] - 1
    for i in range(table.shape[0]):
        if table[i, words] == 0:
            continue
        slot = np.int64(_hash(table[i, :words]) & np.uint64(mask))
        while bigger[slot, words] != 0:
            slot = (slot + 1) & mask
        bigger[slot, :] = table[i, :]
    return bigger


@njit(cache=True, nogil=True)
def _compact(
    table: np.ndarray, m: int, words: int, limit: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A layer's table as dense arrays: keys, counts, parents, witnesses, edges."""
    keys = np.empty((m, words), dtype=np.uint64)
    counts = np.empty(m, dtype=np.uint8)
    parents = np.empty((m, limit), dtype=np.int32)
    witness = np.empty((m, limit), dtype=np.uint8)
    edges = np.empty(m, dtype=np.uint8)
    j = 0
    for i in range(table.shape[0]):
        meta = table[i, words]
        if meta == 0:
            continue
        keys[j, :] = table[i, :words]
        c = np.int64(meta & np.uint64(COUNT_MASK))
        counts[j] = c
        edges[j] = (meta >> np.uint64(EDGE_SHIFT)) & np.uint64(3)
        for k in range(c):
            word = table[i, words + 1 + k // 2]
            parents[j, k] = np.int64((word >> np.uint64(32 * (k % 2))) & np.uint64(0xFFFFFFFF))
            witness[j, k] = (meta >> np.uint64(WITNESS_SHIFT + 3 * k)) & np.uint64(7)
        j += 1
    return keys, counts, parents, witness, edges


@njit(cache=True, nogil=True)
def _emit(
    work: np.ndarray,
    kbuf: np.ndarray,
    geo: np.ndarray,
    table: np.ndarray,
    m: int,
    parent: int,
    count: int,
    check: bool,
) -> int:
    """Add the state in ``work[SCRATCH]`` (after the cell) to the layer with ``parent``'s ``count``
    witnesses; the layer's new size, or -1 past the state limit. ``check``: a colour end appeared
    (a pipe left an endpoint or a piece took a colour), so colours may now cross; moves that keep
    the labels' order along the frontier need no check."""
    w, col, bits, pairs = geo[W], geo[COL], geo[BITS], geo[PAIRS]
    state = work[SCRATCH]
    if check and _crossing(state, work, w, col):
        return m
    # Renumber pair ids by first occurrence in slot order and pack.
    relabel = work[RELABEL]
    for i in range(pairs + 2):
        relabel[i] = 0
    nxt = 0
    words = kbuf.shape[0]
    for i in range(words):
        kbuf[i] = np.uint64(0)
    word, shift = 0, 0  # where slot i goes (no division: this is the hot loop)
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
        kbuf[word] |= np.uint64(code) << np.uint64(shift)
        shift += bits
        if shift + bits > 64:
            word, shift = word + 1, 0
    mask = table.shape[0] - 1
    slot = np.int64(_hash(kbuf) & np.uint64(mask))
    while True:
        meta = table[slot, words]
        if meta == 0:
            if m >= geo[MAX]:
                return -1
            table[slot, :words] = kbuf
            edge_bits = (1 if state[w] != 0 else 0) | (2 if state[col] != 0 else 0)
            meta = np.uint64(edge_bits << EDGE_SHIFT)
            m += 1
            break
        same = True
        for i in range(words):
            if table[slot, i] != kbuf[i]:
                same = False
                break
        if same:
            break
        slot = (slot + 1) & mask
    c = np.int64(meta & np.uint64(COUNT_MASK))
    limit = geo[LIMIT]
    for i in range(count):
        if c >= limit:
            break
        table[slot, words + 1 + c // 2] |= np.uint64(parent) << np.uint64(32 * (c % 2))
        meta |= np.uint64(i) << np.uint64(WITNESS_SHIFT + 3 * c)
        c += 1
    table[slot, words] = (meta & ~np.uint64(COUNT_MASK)) | np.uint64(c)
    return m


@njit(cache=True, nogil=True)
def _add(
    work: np.ndarray,
    kbuf: np.ndarray,
    geo: np.ndarray,
    table: np.ndarray,
    m: int,
    parent: int,
    count: int,
    check: bool,
) -> tuple[int, np.ndarray]:
    """``_emit``, then double the table if it is over half full."""
    m = _emit(work, kbuf, geo, table, m, parent, count, check)
    if 2 * m > table.shape[0]:
        table = _grow(table, kbuf.shape[0])
    return m, table


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
    table: np.ndarray,
) -> tuple[int, np.ndarray]:
    """One cell for every state of the layer: the next layer's size (-1 past the state limit) and
    its table."""
    w, col, bits, pairs = geo[W], geo[COL], geo[BITS], geo[PAIRS]
    kind, can_right, can_down, numberlink = geo[KIND], geo[CAN_RIGHT], geo[CAN_DOWN], geo[NUMBERLINK]
    fresh = pairs + 1  # id of a new pair piece (ids on the frontier are 1..pairs)
    slot_mask = np.uint64((1 << bits) - 1)
    buf, state = work[BUF], work[SCRATCH]
    m = 0
    for s in range(keys.shape[0]):
        cnt = int(counts[s])
        word, shift = 0, 0
        for i in range(w + 1):
            v = np.int64((keys[s, word] >> np.uint64(shift)) & slot_mask)
            buf[i] = v if v <= pairs else pairs - v  # colour code pairs + 1 + k -> -(k + 1)
            shift += bits
            if shift + bits > 64:
                word, shift = word + 1, 0
        left, up = buf[w], buf[col]
        d_in = (1 if left != 0 else 0) + (1 if up != 0 else 0)
        if kind == HOLE_CELL:
            if d_in == 0:
                state[:] = buf
                m, table = _add(work, kbuf, geo, table, m, s, cnt, False)
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
                m, table = _add(work, kbuf, geo, table, m, s, cnt, kind >= 0)
                if m < 0:
                    return m, table
            if kind < 0 and numberlink:  # or the cell stays empty
                state[:] = buf
                m, table = _add(work, kbuf, geo, table, m, s, cnt, False)
        elif d_in == 0:  # a plain cell under Numberlink rules with one way out at most: empty
            state[:] = buf
            m, table = _add(work, kbuf, geo, table, m, s, cnt, False)
        elif d_in == 1 and kind < 0:  # a pipe passes through: right or down
            x = left if left != 0 else up
            for way in range(2):
                if (way == 0 and not can_right) or (way == 1 and not can_down):
                    continue
                state[:] = buf
                state[w] = x if way == 0 else 0
                state[col] = x if way == 1 else 0
                m, table = _add(work, kbuf, geo, table, m, s, cnt, False)
                if m < 0:
                    return m, table
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
            m, table = _add(work, kbuf, geo, table, m, s, cnt, (a > 0) != (b > 0))
        if m < 0:
            return m, table
    return m, table
