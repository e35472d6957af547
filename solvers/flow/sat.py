"""Exact Flow solver: an incremental SAT model over the board graph (python-sat, CaDiCaL).

Variables: one per edge (the pipe uses it) and one per (cell, colour). Endpoints have degree 1,
other cells degree 2; a used edge forces equal colours; every cell has at least one colour
(exclusivity follows from the endpoints and is left out because it only slows the solver down).
A colour never goes where it cannot reach without crossing another colour's endpoint. A set of
used edges that satisfies this is a set of paths plus possibly loops that touch no endpoint; such
loops are cut lazily: for the cells S of a loop, some used edge must leave S (every cell lies on a
pipe between endpoints outside S), which forbids every loop inside S at once. Solutions are
enumerated by blocking the edge set of each one found.

Rule sets: ``strict`` = the game rules. ``designed`` adds "a pipe never touches itself" (two
neighbouring cells of one colour are linked), plus its consequence on square grids that no 2x2
block holds three used edges (a U-turn would leave two same-coloured neighbours unlinked).
``numberlink`` = the game rules without coverage: a cell other than an endpoint has degree 0
(empty, no colour) or 2, and only a used cell needs a colour. A loop is then never needed, so a
model's loops are simply dropped (what is left is a solution) and cut: if an edge among the loop's
cells is used, some edge must leave them (those cells lie on pipes between endpoints outside).

Under strict rules the freedom of wandering pipes makes the plain search hopeless on boards drawn
by hand, so ``solutions`` runs it in *stages*, each a fresh solver that starts with the solutions
already found blocked and has colour variables only where its restriction allows the colour: first
corridors round a quick disjoint routing of all pipes (``route.py``: colour k may take cell v only
if v is at most ``CORRIDORS[i]`` steps further from k's route than from the nearest route); while
no answer is known, corridor 1 round other, randomised routings, each for a short while, then
corridor 3 round the quick routing with corridor 1 held block by block and let go only where an
unsat core points (core-guided widening); then the wider corridors, the detour levels
(``detour.py``: k's detour to v at most ``LEVELS[i]`` over the cheapest colour's), and last no
restriction at all, so the search stays complete. The stage that gives the first answer is left
there for corridors 0 and 1 round that answer (the same cells threaded another way, then small
changes). Loops in a strict model are spliced into a pipe beside them when a 4-cycle allows it
(``splice.py``), which turns the model into a solution at once; the loop is cut as well, so
enumeration stays exact. From the core-guided widening on, while no answer is known, simulated
annealing over square flips (``anneal.py``) takes turns with the stages, a fixed number of flips
per solver conflict; an answer it reaches is checked, blocked in the stage and handled like the
stage's own first answer.

CaDiCaL in python-sat holds the GIL inside ``solve_limited`` and has no ``interrupt()``, so the
search runs in slices of a conflict budget (the solver keeps its state between slices) and the
cancel token is polled between them: cancelling stops within one slice and other Python threads
(the GUI) get the GIL back at every slice boundary. Slices and the strict stages' caps count
conflicts, never seconds, so the game rules' search takes the same path in every run.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from functools import partial
from itertools import chain, combinations
from typing import NamedTuple, TypeVar

import numpy as np
from pysat.solvers import Solver

try:
    import pysolvers  # python-sat's extension module (for the fast clause loader)
except ImportError:  # pragma: no cover - other python-sat builds
    pysolvers = None

from solvers.common.cancel import CancelToken
from solvers.flow.anneal import Annealer, can_anneal
from solvers.flow.canonical import applies, runs_alongside_itself
from solvers.flow.canonical import clauses as canonical_clauses
from solvers.flow.canonical import supported as canonical_supported
from solvers.flow.detour import UNREACHABLE, slack
from solvers.flow.graph import FlowGraph, per_graph
from solvers.flow.near import windows
from solvers.flow.numberlink import neighbour
from solvers.flow.route import corridor_slack, route
from solvers.flow.splice import splice_loops, trace

_T = TypeVar("_T")

# On the main thread python-sat's CaDiCaL installs its own SIGINT handler for each solve call and
# turns Ctrl+C into this error (the CLI's handler never hears of it).
_SOLVER_ERROR: type[Exception] | tuple[()] = getattr(pysolvers, "error", ())
RULES = ("designed", "strict", "numberlink")
# The solver per rule set. python-sat's CaDiCaL 1.9.5 holds the GIL for the whole of a call with a
# conflict budget (measured: a 180-conflict slice took 181 ms of non-conflict work, the GUI thread
# frozen throughout), and it cannot be interrupted, so its slices must be budgeted. Glucose
# releases the GIL inside every call: under designed rules it is as fast (reference set 0.144 s
# against 0.146 s, generated 50x50 1.35-1.64 s against 1.51-1.52 s) and the GUI's longest stall
# during a 50x50 solve fell from 176 to 61 ms. Under strict rules CaDiCaL stays: Glucose took
# 8.8 s against 6.8 s on the strict reference uniqueness runs (worst board 4.2 s against 1.8 s).
SOLVERS = {"designed": "glucose4", "strict": "cadical195", "numberlink": "glucose4"}
# Inprocessing (probing, elimination, vivification between restarts) costs CaDiCaL seconds on
# 50x50 boards, in single uninterruptible stretches, and buys nothing on these instances:
# measured 1.6 s instead of 5 s CPU on a generated 50x50 board, the same on the reference set.
# Under designed rules, keeping all learned clauses (no "reduce") halves the time again on 50x50
# boards; under strict rules it costs 1.5x on the hardest reference boards, so only designed.
# Strict searches once gained 2x from inprocessing on the main thread; since the corridor stages
# they do not (5.9 s CPU without it, 7.1 s with it, on nine 30-50 boards drawn by hand; strict
# reference uniqueness 16.4 s against 18.2 s), so CLI and GUI jobs search the same way.
SOLVER_OPTIONS = {"inprocessing": 0}
# Numberlink: Glucose, as it hands the GIL back; CaDiCaL and MapleChrono were no faster on the
# open hand-made boards where this model is slow (12x12, 30 s each, no answer from any of them).
RULE_OPTIONS: dict[str, dict[str, int]] = {"designed": {"reduce": 0}, "strict": {}, "numberlink": {}}
# Conflicts per solve slice: the first slices are short (most searches end in them), later ones
# SLICE_CONFLICTS (60x60 and 50x50 strict: median 30 ms, 99th percentile 48-64 ms; the clock-sized
# slices they replace aimed at 30 ms). Per-call overhead is small: 5,000-conflict slices were
# 5-15 % faster on hard 50x50 and 60x60 corridors, with cancel twice as slow.
FIRST_SLICE = 200
SLICE_CONFLICTS = 2_000
# Clauses per call into the solver while encoding: each call holds the GIL (20,000 took 25-35 ms
# of CPU on a 50x50 board, 0.1 s and more of GUI stall on a loaded machine).
ADD_CHUNK = 5_000
# Strict-rule corridors: allowed distance of a colour from its route over the nearest route's.
CORRIDORS = (1, 2, 3, 4)
# Strict rules: corridors round the plain routing tried first, each for at most so many solver
# conflicts (a corridor that holds an answer mostly gives it soon: corridor 1 on 25 tuning 60x60
# boards within 28,000 conflicts, about 1.2 s; but it took over 10 s on a 50x50 board, corridor 2
# 11 s on a 40x40). Caps count conflicts, not seconds: the same board then takes the same path in
# every run, however busy the machine.
FIRST_TRIES = ((1, 40_000), (2, 10_000))
# Then, with no answer yet: corridor 1 round a randomised routing (``route.route(seed=...)``) that
# settled, one after another, each for at most RESTART_CAP conflicts, at most RESTARTS of them or
# until all stages so far have spent RESTART_CONFLICTS. Boards drawn by hand whose answers all lie
# outside the plain routing's narrow corridors mostly have one inside another routing's corridor 1,
# found within 3,000-10,000 conflicts (0.1-0.5 s), where the wider corridors take seconds to
# minutes to prove empty. Tuning boards needed up to 31 restarts, mostly under 10; each costs
# 0.1-0.3 s at 60x60 (routing 0.01-0.1 s, setting up 0.09 s) where corridor 1 is empty, which a
# board without any answer pays in full.
RESTARTS = 16
# Only routings without a shared cell are tried, drawn from at most ROUTINGS seeds: on 14 tail
# boards (20 routings each) corridor 1 held an answer for 41 of 213 settled routings and for none
# of 67 with a shared cell, whose stage cost 0.1-0.3 s to set up and run.
ROUTINGS = 32
# ... and the seeds stop after UNSETTLED_RUN routings in a row that kept a shared cell: where pipes
# must cross (no answer) none settles, and 32 of them cost a 4x10 board 1.4 s instead of 0.5 s.
UNSETTLED_RUN = 8
# Once an answer is known: corridors 0 and 1 round it, each for at most AROUND_CAP conflicts.
# Corridor 0 keeps every cell's colour and lets the pipes run another way through their cells: on
# 60x60 boards whose second answer took over 10 s it gave one 0.1-0.15 s after the first.
AROUND_ANSWER = (0, 1)
AROUND_CAP = 10_000
# A restart that holds an answer gives it within 2,500-5,100 conflicts (40 tuning 60x60 boards,
# seeds 40000-40039: 18 answers from restarts); 10,000 spent twice that on each empty one.
RESTART_CAP = 6_000
RESTART_CONFLICTS = 150_000
# Then, still without an answer: corridor WIDEN_BOUND round the plain routing, with corridor 1 held
# in every WIDEN_BLOCK x WIDEN_BLOCK block of cells by one selector literal each; whenever the
# search fails under the selectors, a block the unsat core names is let go (core-guided
# widening, for at most WIDEN_CAP conflicts). On the tail boards corridor 1 round every routing is
# empty, fast, because of one or two spots; letting go only there (0-5 blocks of 100) answered 8 of
# 13 tuning boards without a verdict in 10 s on their own, in 0.4-3.9 s, where corridor 3 as a
# whole stalls. Blocks of 4 or 10 cells a side did no better.
WIDEN_BOUND = 3
WIDEN_BLOCK = 6
WIDEN_CAP = 150_000
# Only where corridor 1 round the plain routing was proven empty (where its first try ended at its
# cap, the widening would only search corridor 1 again: 150,000 conflicts lost on 60x60 s13024).
# One block is let go per core (cores are not minimal): on 13 tail boards the same 8 answered as
# when every block of the core was let go, after 273,000 conflicts in all against 375,000.
LET_GO_PER_CORE = 1
# Strict-rule levels: allowed extra detour of a colour over the cheapest one. On bipartite boards
# detours are even; on hexes and odd warps they may be odd (a level admits every value up to it).
LEVELS = (0, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256)
# Annealing beside the stages after the restarts: flips per solver conflict (a flip costs about
# 0.1 us, a conflict 10-45 us at 40x40-70x35: annealing gets a quarter to a third of the time),
# and the conflicts allowed for the degree-valid edge set it starts from (milliseconds at 60x60).
ANNEAL_PER_CONFLICT = 200
DEGREE_CONFLICTS = 100_000
# The routing lottery (``_Lottery``): beside the long stages, while no answer is known, corridor 1
# round further randomised routings (seeds after ROUTINGS), by turns: LOTTERY_SHARE conflicts of
# the lottery per conflict of the stage, each ticket for at most LOTTERY_CAPS[i] conflicts (cycled:
# most tickets that hold an answer give it within 2,000-5,000 conflicts, a few after 20,000), a
# ticket's routing and set-up charged as LOTTERY_SETUP_PER_CELL conflicts per cell (at least
# LOTTERY_SETUP_MIN), and at most LOTTERY_CONFLICTS and LOTTERY_TICKETS in all (a board without an
# answer pays at most that for it).
LOTTERY_SHARE = 2.0
LOTTERY_CAPS = (RESTART_CAP, RESTART_CAP, RESTART_CAP, 4 * RESTART_CAP)
LOTTERY_SETUP_PER_CELL = 1.5
LOTTERY_SETUP_MIN = 2_000  # small boards: a ticket's Python work outweighs its few conflicts
LOTTERY_CONFLICTS = 2_000_000
LOTTERY_TICKETS = 200


@dataclass
class SatStats:
    variables: int = 0
    clauses: int = 0
    solve_calls: int = 0
    cycle_cuts: int = 0
    splices: int = 0  # solutions made by splicing a model's loops into its pipes
    conflicts: int = 0
    level: int = -1  # strict rules: extra detour the current level allows (-1: unrestricted)
    widenings: int = 0  # levels given up as holding no (further) solution
    let_go: int = 0  # blocks let go by core-guided widening (``FlowSat.held_blocks``)
    annealed: int = 0  # answers found by annealing (strict rules, ``anneal.py``)
    tickets: int = 0  # routings the lottery tried (``_Lottery``)
    lottery: int = 0  # answers found by the lottery
    # Numberlink rules: the designed head start ended with exactly one answer, so the puzzle is
    # proven unique under the designed convention (said to the user if the proof under Numberlink
    # rules is cut short: published 20x20s need 35-100 s for it).
    designed_unique: bool = False


@dataclass
class Peek:
    """Whether the game rules' search for its first answer runs the designed search by turns
    (``_first_answer``). A caller that runs the plain designed search itself starts with it off and
    turns it on once that search has ended with none: the peek's looser model, where pipes may
    touch themselves at their ends, can still have an answer (the 48x35). Turned on late, the peek
    joins the running search; restarting that would lose its progress."""

    on: bool = True


@dataclass
class EdgeSolution:
    """One solution: the used edges and, per colour, its path as node ids from one end to the other."""

    used: np.ndarray  # bool (E,)
    paths: list[list[int]]
    node_colour: np.ndarray  # int (N,), colour id per node


@dataclass
class FlowSat:
    graph: FlowGraph
    rules: str = "designed"
    cancel: CancelToken | None = None
    max_slack: int | None = None  # forbid colours whose detour to a cell exceeds the cheapest by more
    stats: SatStats = field(default_factory=SatStats)
    slack_table: np.ndarray | None = None  # ``slack(graph)`` if the caller has it (levels share it)
    # Edge sets (``used.tobytes()``) of the solutions yielded so far; levels share it, so that a
    # solution made again by splicing a later model is not yielded twice.
    seen: set[bytes] = field(default_factory=set)
    # Numberlink rules only: search canonical answers (``canonical.py``), for proving one unique.
    canonical: bool = False
    # Core-guided widening: if > 0 (and ``max_slack`` > 1), the slack is held at 1 in every block
    # of ``held_blocks`` x ``held_blocks`` cells by a selector literal, until an unsat core of the
    # search names the block; ``max_slack`` applies once every block is let go. The model's answers
    # are those of ``max_slack`` all the same: a search ends only when they are all found.
    held_blocks: int = 0
    # Designed rules only: a pipe may run alongside itself at its ends (an endpoint next to a cell
    # of its own pipe that it is not linked to), as some published answers do; every answer is
    # still a game-rules answer.
    touch_at_ends: bool = False

    def __post_init__(self) -> None:
        if self.rules not in RULES:
            raise ValueError(f"unknown rule set {self.rules!r} (use {' or '.join(RULES)})")
        if self.canonical and self.rules != "numberlink":
            raise ValueError("canonical answers are a Numberlink search")
        self.fill = self.rules in ("designed", "strict")  # every cell covered
        # A pipe never runs alongside itself (designed rules; a canonical answer has no shortcut).
        self.no_touch = self.rules == "designed" or self.canonical
        self.solver_name = SOLVERS[self.rules]
        self.solver = Solver(name=self.solver_name)
        if self.solver_name.startswith("cadical") and hasattr(self.solver, "configure"):
            options = {**SOLVER_OPTIONS, **RULE_OPTIONS[self.rules]}
            self.solver.configure(options)
        self._budget = FIRST_SLICE
        self._held: list[int] = []  # selector literals still assumed (core-guided widening)
        self._add_many = _clause_adder(self.solver, self.solver_name)
        try:
            self._encode()
        except BaseException:
            self.solver.delete()
            raise

    def close(self) -> None:
        self.solver.delete()

    # ---- encoding -------------------------------------------------------------------------------
    def _add(self, clauses: np.ndarray | list[list[int]]) -> None:
        # Chunks: poll cancel while encoding big boards, and hand the GIL back between them.
        for start in range(0, len(clauses), ADD_CHUNK):
            if self.cancel is not None:
                self.cancel.raise_if_cancelled()
            chunk = clauses[start : start + ADD_CHUNK]
            self._add_many(chunk.tolist() if isinstance(chunk, np.ndarray) else chunk)
        self.stats.clauses += len(clauses)

    def _encode(self) -> None:
        g = self.graph
        n_e, n_k, n_v = g.n_edges, len(g.colours), g.n_nodes
        if n_k == 0:
            self._trivially_unsat = True  # no colour can cover the cells
            return
        self._trivially_unsat = False
        self._terminal = np.zeros(n_v, dtype=bool)  # the endpoints
        self._terminal[list(g.terminal_colour)] = True
        # Colour variables only where a colour may go (narrow stages leave a few per cell).
        self._slack = self.slack_table if self.slack_table is not None else slack(g)
        allowed = self._slack < UNREACHABLE
        if self.max_slack is not None:
            allowed &= self._slack <= self.max_slack
        bare = _bare_cells(allowed)
        if bare[list(g.terminal_colour)].any() or (self.fill and bare.any()):
            self._trivially_unsat = True  # an endpoint (or, filling the board, a cell) left bare
            return
        var = np.zeros((n_k, n_v), dtype=np.int64)
        var[allowed] = np.arange(n_e + 1, n_e + 1 + int(allowed.sum()))
        self.stats.variables = n_e + int(allowed.sum())
        # Every cell at least one colour (an endpoint exactly its own: no other colour reaches it);
        # under Numberlink rules only a cell that a used edge touches.
        per_cell = _per_cell(var)
        if not self.fill:
            self._add(
                [
                    [-(e + 1), *per_cell[v]]
                    for v in range(n_v)
                    if v not in g.terminal_colour
                    for e in g.incident[v]
                ]
            )
            self._add([per_cell[v] for v in g.terminal_colour])
            # An empty cell has no colour (no free variables for the search to wander in).
            self._add(
                [
                    [-x, *(e + 1 for e in g.incident[v])]
                    for v in range(n_v)
                    if v not in g.terminal_colour
                    for x in per_cell[v]
                ]
            )
        else:
            self._add(per_cell)
        # A used edge joins cells of equal colour; a colour allowed at one end only keeps it off.
        e_idx = np.arange(n_e, dtype=np.int64)[:, None]
        evar = np.broadcast_to(e_idx + 1, (n_e, n_k))
        xu, xv = var[:, g.edges[:, 0]].T, var[:, g.edges[:, 1]].T
        both = (xu > 0) & (xv > 0)
        self._add(np.stack([-evar[both], -xu[both], xv[both]], axis=-1))
        self._add(np.stack([-evar[both], xu[both], -xv[both]], axis=-1))
        only_u, only_v = (xu > 0) & (xv == 0), (xv > 0) & (xu == 0)
        self._add(np.stack([-evar[only_u], -xu[only_u]], axis=-1))
        self._add(np.stack([-evar[only_v], -xv[only_v]], axis=-1))
        if self.no_touch:
            # Neighbours of one colour are linked: the pipe never runs alongside itself.
            inner = both
            if self.touch_at_ends:
                inner = both & ~self._terminal[g.edges].any(axis=1)[:, None]
            self._add(np.stack([-xu[inner], -xv[inner], evar[inner]], axis=-1))
        # Degrees: endpoints 1, other cells 2 (Numberlink: 0 or 2).
        self._add(_degree_clauses(g, self.fill))
        # 2x2 blocks: four used edges are a loop (always wrong); under designed rules even three are.
        sq = np.asarray(g.squares, dtype=np.int64).reshape(-1, 4) + 1
        if self.no_touch:
            at_end = np.zeros(len(sq), dtype=bool)
            if self.touch_at_ends:  # a block with an endpoint among its cells
                at_end = self._terminal[g.edges[sq - 1]].reshape(len(sq), 8).any(axis=1)
            self._add(-np.concatenate([sq[~at_end][:, [i, (i + 1) % 4, (i + 2) % 4]] for i in range(4)]))
            self._add(-sq[at_end])  # a U-turn round an end may be an answer; a loop never is
        else:  # strict and Numberlink rules: no loop of 4 or 6 cells
            self._add(-sq)
            # No 6-cell loop either (two neighbouring squares minus their shared edge): the
            # commonest loops in strict searches, cut eagerly instead of one at a time.
            self._add(-_domino_cycles(sq - 1) - 1)
        # Triangles (hex boards): three used edges are a loop; under designed rules even two are
        # (the pipe would pass two neighbours of its own colour without linking them).
        tri = np.asarray(g.triangles, dtype=np.int64).reshape(-1, 3) + 1
        if self.no_touch:
            self._add(-np.concatenate([tri[:, [i, (i + 1) % 3]] for i in range(3)]))
        else:
            self._add(-tri)
        if self.canonical:
            self._add_canonical(var)
        if self.held_blocks > 0 and self.max_slack is not None and self.max_slack > 1:
            self._hold_blocks(var)

    def _hold_blocks(self, var: np.ndarray) -> None:
        """One selector per block of cells: while assumed, slack over 1 is off in the block."""
        cells = np.asarray(self.graph.cells, dtype=np.int64).reshape(-1, 2) // self.held_blocks
        _, block = np.unique(cells, axis=0, return_inverse=True)
        block = block.ravel()
        selector = self.stats.variables + 1 + np.arange(int(block.max()) + 1)
        self.stats.variables += len(selector)
        colour, cell = np.nonzero((var > 0) & (self._slack > 1))
        self._add(np.stack([-selector[block[cell]], -var[colour, cell]], axis=1))
        self._held = selector[np.unique(block[cell])].tolist()

    def _add_canonical(self, var: np.ndarray) -> None:
        """'No move of ``canonical.py`` applies', with one 'cell is used' variable per cell."""
        g = self.graph
        occupied = np.arange(self.stats.variables + 1, self.stats.variables + 1 + g.n_nodes)
        self.stats.variables += g.n_nodes
        ends = g.edges.ravel()
        owner = occupied[ends]
        self._add(np.stack([-(np.repeat(np.arange(g.n_edges), 2) + 1), owner], axis=1))  # edge -> used
        self._add([[-int(occupied[v]), *(e + 1 for e in inc)] for v, inc in enumerate(g.incident)])
        for rows in canonical_clauses(g, var, occupied):
            self._add(rows)

    # ---- solving --------------------------------------------------------------------------------
    def _slices(self) -> Iterator[bool | None]:
        """Run the search in slices: None after each slice that ended undecided, then the answer."""
        while True:
            if self.cancel is not None:
                self.cancel.raise_if_cancelled()
            self.solver.conf_budget(self._budget)
            try:
                status = self.solver.solve_limited(assumptions=self._held, expect_interrupt=True)
            except _SOLVER_ERROR as exc:
                if "interrupt" in str(exc):
                    raise KeyboardInterrupt from exc  # Ctrl+C, as everywhere else
                raise
            self.stats.solve_calls += 1
            self.stats.conflicts = int(self.solver.accum_stats().get("conflicts", 0))
            if status is False and self._held:
                named = set(self.solver.get_core() or ())
                if named:  # a block held that the failure needs is let go; search again
                    freed = set(sorted(named)[:LET_GO_PER_CORE])
                    self._held = [s for s in self._held if s not in freed]
                    self.stats.let_go += len(freed)
                    yield None
                    continue
            if status is not None:
                yield status
                return
            # Budget exhausted. Slices grow by a fixed rule, never by the clock: where a slice ends
            # changes the solver's path, so a clock-sized slice made the same board take 1.3 s in
            # one run and over 30 s in another.
            self._budget = min(2 * self._budget, SLICE_CONFLICTS)
            yield None

    def _loop_clauses(self, loops: list[list[int]]) -> list[list[int]]:
        """Cut-set clauses: some used edge leaves the cells of each loop (Numberlink rules: if an
        edge among those cells is used; the cells may all stay empty)."""
        edges = self.graph.edges
        out: list[list[int]] = []
        for loop in loops:
            inside = np.zeros(self.graph.n_nodes, dtype=bool)
            inside[edges[loop].ravel()] = True
            leaving = (np.flatnonzero(inside[edges[:, 0]] != inside[edges[:, 1]]) + 1).tolist()
            if not self.fill:
                within = np.flatnonzero(inside[edges[:, 0]] & inside[edges[:, 1]]) + 1
                out.extend([-int(e), *leaving] for e in within)
            else:
                out.append(leaving)
        return out

    def solutions(self) -> Iterator[EdgeSolution]:
        """All solutions (distinct edge sets), each blocked after it is yielded."""
        return (s for s in self.steps() if s is not None)

    def steps(self) -> Generator[EdgeSolution | None, None, None]:
        """``solutions``, with a None after every search slice that found nothing (so that a
        caller can interleave two searches)."""
        if self._trivially_unsat:
            return
        n_e = self.graph.n_edges
        while True:
            status = None
            for status in self._slices():
                if status is None:
                    yield None
            if not status:
                return
            model = self.solver.get_model()
            used = np.asarray(model[:n_e]) > 0
            solution, loops = _decode(self.graph, used)
            if loops:
                self.stats.cycle_cuts += len(loops)
                self._add(self._loop_clauses(loops))
                if not self.fill:
                    # Without its loops the model is a solution (cells may stay empty).
                    kept = used.copy()
                    kept[[e for loop in loops for e in loop]] = False
                    if kept.tobytes() not in self.seen:
                        self.seen.add(kept.tobytes())
                        solution, _ = _decode(self.graph, kept)
                        assert solution is not None
                        yield solution
                        self.block(kept)
                elif self.rules == "strict":
                    spliced = splice_loops(self.graph, used)
                    if spliced is not None and spliced.tobytes() not in self.seen:
                        self.seen.add(spliced.tobytes())
                        self.stats.splices += 1
                        solution, _ = _decode(self.graph, spliced)
                        assert solution is not None
                        yield solution
                        self.block(spliced)
                        continue
                # A step per model with loops too: rounds of loop cuts without one took 3.7 s
                # on a generated 50x50, past the stage's conflict cap and the peek's start.
                yield None
                continue
            assert solution is not None
            self.seen.add(used.tobytes())
            yield solution
            self.block(used)

    def block(self, used: np.ndarray) -> None:
        """Forbid exactly this edge set from now on."""
        self._add([[-(int(e) + 1) for e in np.flatnonzero(used)]])

    def keep(self, used: np.ndarray, edges: np.ndarray) -> None:
        """Fix the ``edges`` (a mask) as ``used`` has them."""
        chosen = np.flatnonzero(edges)
        self._add(np.where(used[chosen], chosen + 1, -(chosen + 1))[:, None])

    def within(self, used: np.ndarray, free: np.ndarray, conflicts: int) -> EdgeSolution | None:
        """An answer not seen before whose edges outside ``free`` (a mask) are as ``used`` has
        them (assumed for this call only), if one is found within about ``conflicts``; None says
        nothing. A model with loops has them cut and is searched again (under Numberlink rules
        what is left without them is an answer)."""
        fixed = np.flatnonzero(~free)
        assumptions = np.where(used[fixed], fixed + 1, -(fixed + 1)).tolist()
        spent = 0
        while spent < conflicts and not self._trivially_unsat:
            if self.cancel is not None:
                self.cancel.raise_if_cancelled()
            before = self.stats.conflicts
            self.solver.conf_budget(conflicts - spent)
            status = self.solver.solve_limited(assumptions=assumptions)
            self.stats.solve_calls += 1
            self.stats.conflicts = int(self.solver.accum_stats().get("conflicts", 0))
            spent += max(1, self.stats.conflicts - before)
            if not status:
                return None
            model = np.asarray(self.solver.get_model()[: self.graph.n_edges]) > 0
            solution, loops = _decode(self.graph, model)
            if loops:
                self.stats.cycle_cuts += len(loops)
                self._add(self._loop_clauses(loops))
                if self.fill:
                    continue
                model[[e for loop in loops for e in loop]] = False
                solution, _ = _decode(self.graph, model)
            if solution is not None and model.tobytes() not in self.seen:
                self.seen.add(model.tobytes())
                self.block(model)
                return solution
            self.block(model)
        return None


def solutions(
    graph: FlowGraph, rules: str, cancel: CancelToken | None = None, stats: SatStats | None = None
) -> Iterator[EdgeSolution]:
    """All solutions under a rule set; under strict rules stage by stage (see the module notes).
    ``stats`` (if given) follows the current search: its ``level`` is the allowed slack of the
    current stage (-1 = unrestricted)."""
    return (s for s in steps(graph, rules, cancel, stats) if s is not None)


def steps(
    graph: FlowGraph,
    rules: str,
    cancel: CancelToken | None = None,
    stats: SatStats | None = None,
    peek: Peek | None = None,
) -> Generator[EdgeSolution | None, None, None]:
    """``solutions`` with a None after every search slice that found nothing. ``peek`` off: the
    game rules do not try the designed search for their first answer until it is turned on."""
    stats = stats if stats is not None else SatStats()
    peek = peek if peek is not None else Peek()
    if rules == "numberlink":
        yield from _numberlink_steps(graph, cancel, stats)
    elif rules == "strict" and canonical_supported(graph):
        lottery = _Lottery(graph, cancel, stats)
        search = _staged_steps(graph, rules, cancel, stats, lottery)
        yield from _with_canonical_proof(graph, search, cancel, peek, lottery)
    else:
        yield from _staged_steps(graph, rules, cancel, stats)


def _with_canonical_proof(
    graph: FlowGraph,
    search: Generator[EdgeSolution | None, None, None],
    cancel: CancelToken | None,
    peek: Peek,
    lottery: _Lottery | None = None,
) -> Generator[EdgeSolution | None, None, None]:
    """The game rules' ``search``; if ``PROOF_DELAY`` seconds after its first answer S it has not
    given a second one, a search for a second Numberlink answer joins it by turns. Every
    game-rules answer is a Numberlink answer, and S fills the board (so no move of
    ``canonical.py`` leads to it): if no canonical Numberlink answer besides S
    exists, S is the only answer under either rule set, and the search ends. A canonical answer
    that fills the board is a second game-rules answer; one that leaves cells empty says nothing
    about the game rules, and the game rules' search goes on alone. Published puzzles are unique
    under Numberlink rules by design, which the canonical search proves quickly (published 13x13:
    1 s, where the game rules' own search needed 8 s)."""
    given: set[bytes] = set()

    def new(step: EdgeSolution | None) -> bool:
        if step is None or step.used.tobytes() in given:
            return False
        given.add(step.used.tobytes())
        return True

    peeking: Generator[EdgeSolution | None, None, None] | None = None
    try:
        started = time.process_time()
        first, peeking = yield from _first_answer(graph, search, cancel, peek)
        designed = peeking is not None
        if first is None:
            return
        if lottery is not None:  # it looks for a first answer, which is known now
            lottery.close()
            lottery.on = False
        given.add(first.used.tobytes())
        # A first answer that runs alongside itself has a canonical rival (its shortcut), so the
        # proof could never succeed: random-path boards' answers mostly do, designed ones never.
        proving = not runs_alongside_itself(graph, first.used, first.node_colour)
        # An answer from the designed peek marks a designed puzzle: the proof joins at once.
        delay = 0.0 if designed else max(PROOF_DELAY, PROOF_SHARE * (time.process_time() - started))
        started = time.process_time()
        while proving and time.process_time() - started < delay:
            ended, own = _next_step(search)  # boards drawn by hand: "2+" comes at once
            if ended:
                return
            proving = not new(own)
            yield None if proving else own
        scale = _helper_scale(graph, designed)
        if proving and not (yield from _proof_by_turns(graph, first, search, cancel, new, scale)):
            return  # no Numberlink answer but S: unique under the game rules too
        # An answer of the peek that runs alongside itself (at its ends): the peek's next answers
        # are game-rules answers too, and often come at once (the 48x35: "2+" at 2.2 s).
        rest = _alternate(search, peeking) if peeking is not None and not proving else search
        for solution in rest:
            if solution is None or new(solution):
                yield solution
    finally:
        if peeking is not None:
            peeking.close()
        search.close()


def _proof_by_turns(
    graph: FlowGraph,
    first: EdgeSolution,
    search: Iterator[EdgeSolution | None],
    cancel: CancelToken | None,
    new: Callable[[EdgeSolution | None], bool],
    scale: float | None,
) -> Generator[EdgeSolution | None, None, bool]:
    """The canonical search for a rival of ``first`` by turns with the game rules' ``search``
    (its share of the CPU time: ``_alternate``). Returns False if it proved ``first`` the only
    answer, True once a second game-rules answer is given, or a rival leaves cells empty where a
    move may lead to it (then ``search`` alone goes on). A rival that leaves cells empty and that
    no move leads to (``applies``) is no game-rules answer's end: the proof goes on past it, and
    if every canonical rival is such, ``first`` is the only game-rules answer (a published 15x15
    with such a rival: "unique (game rules)" in 2 s, none in 10 s before)."""
    proof = _canonical_search(graph, first, cancel, set())
    near = rival_near(graph, first, "strict", cancel)  # equal time with the proof while it lasts
    try:
        turns = _alternate((("proof", s) for s in proof), _own_steps(search), scale)
        for side, step in _fair(turns, (("own", s) for s in near), _windows_head(graph)):
            if side == "proof" and step is not None:
                filled = _game_answer(graph, step, first, cancel)
                if filled is not None:
                    if new(filled):
                        yield filled
                    return True
                if applies(graph, step.node_colour):
                    yield None
                    continue
                return True
            if side == "own ended":
                return True  # the search ended: its answers are all there is
            if side == "own" and new(step):
                yield step
                return True
            yield None
        return False
    finally:
        near.close()
        proof.close()


def rival_near(
    graph: FlowGraph,
    known: EdgeSolution | None,
    rules: str,
    cancel: CancelToken | None,
    seen: set[bytes] | None = None,
) -> Generator[EdgeSolution | None, None, None]:
    """An answer other than ``known`` and those in ``seen`` (game rules: "strict"; or
    "numberlink") that differs from ``known`` within one window of ``near.windows`` (everything
    else kept), then the end; a None after each window without one. Ending without one says
    nothing; without ``known`` it ends at once."""
    if known is None:
        return
    seen = seen if seen is not None else set()
    seen.add(known.used.tobytes())
    sat = FlowSat(graph, rules, cancel, seen=seen)
    try:
        sat.block(known.used)
        for free in windows(graph):
            rival = sat.within(known.used, free, WINDOW_CONFLICTS)
            if rival is not None:
                yield rival
                return
            yield None
    finally:
        sat.close()


def _windows_head(graph: FlowGraph) -> float:
    """CPU seconds the windows near an answer run before the proof starts (``WINDOWS_HEAD_PER_CELL``)."""
    return WINDOWS_HEAD_PER_CELL * graph.n_nodes


def _own_steps(search: Iterator[EdgeSolution | None]) -> Iterator[tuple[str, EdgeSolution | None]]:
    """The steps of the game rules' ``search`` marked "own", then ("own ended", None). Closing
    this leaves ``search`` open (the caller goes on with it; ``yield from`` would close it)."""
    for step in search:
        yield "own", step
    yield "own ended", None


def _helper_scale(graph: FlowGraph, designed: bool) -> float | None:
    """``_alternate``'s scale for the canonical proof's helper: a falling share on a designed
    puzzle (``HELPER_SECONDS_PER_CELL``), else None (equal turns)."""
    return HELPER_SECONDS_PER_CELL * graph.n_nodes if designed else None


# CPU seconds of the game rules' own search after its first answer before the canonical proof
# joins (at least; ``PROOF_SHARE`` times as long as the first answer took, if longer): on
# random-path boards "2+" comes in milliseconds, while setting the proof up takes 0.5 s at 30x30
# (its clauses: every pair of nearby cells per colour), about as long as the first answer took.
PROOF_DELAY = 0.3
PROOF_SHARE = 1.0
# The canonical proof takes turns with a helper search that may find a second answer sooner (the
# game rules' own search). On a designed puzzle (its first answer came from the designed search,
# which under Numberlink rules also proved it the only designed answer) a second answer is rare,
# and the helper's share falls as the proof runs on: it may have sqrt(t * s) seconds when the
# proof has had t, with s = ``HELPER_SECONDS_PER_CELL`` times the cells (equal shares up to t = s;
# hand-made 30x30 boards that are designed-unique find their "2+" by then). A fixed share after
# equal turns made a cliff: a board needing a little more lost 5x. Elsewhere the two share the
# time equally throughout. Published 15x15 puzzles under the game rules: "unique" in 3.0-9.3 s
# before, 1.2-7.1 s now.
HELPER_SECONDS_PER_CELL = 0.001
# The designed search takes turns with the game rules' for their first answer from ``PEEK_AFTER``
# CPU seconds on, for ``DESIGNED_PEEK`` seconds after its setup: a designed answer is a game-rules
# answer, and on published puzzles it comes at once (13x13: 0.01 s, where the corridor stages took
# 4 s; the 48x35, whose pipes touch themselves at one end: 0.9-1.1 s after a 1.1 s setup), but
# setting it up costs up to 0.5 s on random-path boards, which answer in less than ``PEEK_AFTER``.
PEEK_AFTER = 0.3
# ... or sooner on small models: after as long as setting the designed model up takes (about 7 us
# per (colour, cell) pair; published 15x15s: 10 ms), so that a board answering later loses at
# most about as much again as it waited.
PEEK_AFTER_PER_PAIR = 7e-6
DESIGNED_PEEK = 2.0
# CPU seconds of the game rules' search for a first answer before canonical answers join it, where
# the designed search has none: a published puzzle whose answer leaves cells empty has no
# game-rules answer, which canonical answers prove (15x15: 1.4-6 s, 20x20: 5 s; the game rules'
# own search: none in 60 s). Random-path boards mostly answer sooner and would pay for the model
# (30x30 s16015: 1.2 -> 3.2 s when they joined at 0.3 s, 2.0 s at 1 s), so only on boards with
# at most ``CANONICAL_SIZE`` (colour, cell) pairs (published 20x20s: 10,000; random-path 30x30s:
# 28,000-41,000), where the model costs little to set up.
CANONICAL_AFTER = 1.0
CANONICAL_SIZE = 20_000
# Slices of the canonical search per slice of the game rules' own one: by then the own search has
# had a second without an answer, where random-path boards of this size answer in 0.2 s.
CANONICAL_TURNS = 2
# From ``PEEK_AFTER`` on boards with at most this many (colour, cell) pairs: the designed model
# is then set up in under 0.2 s (published 42x25: 46,000). Random-path 50x50 boards have 150,000
# and more, and peeking cost them 0.5 s each for no answer (median 0.6 -> 2.4 s).
PEEK_SIZE = 70_000
# Up to ``LATE_PEEK_SIZE`` pairs from ``LATE_PEEK_AFTER`` on: generated 50x50s (72,500-112,500
# pairs) get their first game-rules answer only so (none in 10 s before; 2.5-7.6 s now), and
# random-path 40x40-45x45 boards mostly answer before it.
LATE_PEEK_SIZE = 120_000
LATE_PEEK_AFTER = 1.5


def _first_answer(
    graph: FlowGraph, search: Iterator[EdgeSolution | None], cancel: CancelToken | None, peek: Peek
) -> Generator[
    EdgeSolution | None, None, tuple[EdgeSolution | None, Generator[EdgeSolution | None, None, None] | None]
]:
    """Steps of the game rules' ``search`` until the first answer, which it returns (None if there
    is none) with the designed search if that gave it (still open; the caller closes it): after
    ``PEEK_AFTER`` seconds (and once ``peek`` is on) the designed search takes turns with it for
    ``DESIGNED_PEEK`` seconds and may give that answer first (``search`` gives it again later).
    The plain designed model goes first (unless the caller runs it: ``peek`` off at the start);
    once it has proved it has no answer, the looser one where pipes may touch themselves at their
    ends. Where the designed search has no answer, canonical answers join later
    (``_filling_canonical``) and may prove there is none."""
    pairs = len(graph.colours) * graph.n_nodes  # the size of the models
    small = pairs <= LATE_PEEK_SIZE
    peek_after = min(PEEK_AFTER, PEEK_AFTER_PER_PAIR * pairs) if pairs <= PEEK_SIZE else LATE_PEEK_AFTER
    designed: Generator[EdgeSolution | None, None, None] | None = None
    # The peek's models still to run, by their ``touch_at_ends``: the looser one is 2-30x slower on
    # generated 50x50s (first answer 1.8-31 s against 0.6-2.2 s), so it runs only where the
    # plain one has none (the 48x35, whose answer runs alongside itself at one end).
    peek_models: list[bool] = ([False, True] if peek.on else [True]) if small else []
    # Once the designed search has proved it has no answer (with the peek off: the caller's), from
    # ``CANONICAL_AFTER`` on canonical answers take turns too: they can prove there is no answer.
    modest = pairs <= CANONICAL_SIZE
    canonical_after = CANONICAL_AFTER if modest and not peek.on else math.inf
    canonical: Generator[EdgeSolution | None, None, bool] | None = None
    peeked_for = -1.0  # the designed search's CPU time after its first slice (which sets it up)
    searched_for = 0.0  # the game rules' search's CPU time since that peek began
    started = time.process_time()
    try:
        while True:
            spent = time.process_time() - started
            if peek_models and designed is None and peek.on and spent > peek_after:
                designed = _designed_steps(graph, cancel, SatStats(), set(), peek_models.pop(0))
                peeked_for, searched_for = -1.0, 0.0
            # The designed search may have as much CPU time after its setup as the game rules'
            # search since the peek began: one slice of each by turns left it a quarter of the time
            # on generated 50x50s, whose game-rules slices take up to seconds there.
            while designed is not None:
                mark = time.process_time()
                ended, peeked = _next_step(designed)
                peeked_for = 0.0 if peeked_for < 0 else peeked_for + time.process_time() - mark
                if peeked is not None:
                    yield peeked
                    peeking, designed = designed, None
                    return peeked, peeking
                if ended and modest:
                    canonical_after = CANONICAL_AFTER
                if ended or peeked_for > DESIGNED_PEEK:
                    designed.close()
                    designed = None
                    if not ended:
                        peek_models.clear()  # out of time: the looser model would be slower still
                elif peeked_for >= searched_for:
                    break
                else:
                    yield None
            if canonical_after <= spent:
                canonical_after = math.inf
                canonical = _filling_canonical(graph, cancel) if canonical_supported(graph) else None
            for _ in range(CANONICAL_TURNS):
                if canonical is None:
                    break
                try:
                    filled = next(canonical)
                except StopIteration as stop:
                    canonical = None
                    if stop.value:
                        return None, None  # no canonical answer that a game-rules one shortens to
                else:
                    yield filled
                    if filled is not None:
                        return filled, None
            mark = time.process_time()
            ended, solution = _next_step(search)
            searched_for += time.process_time() - mark
            if ended:
                return None, None
            yield solution
            if solution is not None:
                return solution, None
    finally:
        if designed is not None:
            designed.close()
        if canonical is not None:
            canonical.close()


def _filling_canonical(
    graph: FlowGraph, cancel: CancelToken | None
) -> Generator[EdgeSolution | None, None, bool]:
    """Canonical Numberlink answers, for the game rules' first answer: yields None after each
    slice and, last, an answer that fills the board (a game-rules answer; having no shortcut, a
    designed one too, so none comes once the designed search has ended). Every game-rules answer
    shortens to a canonical one; a canonical answer that leaves cells empty and that no move leads
    to (``applies``) is no game-rules answer's end. So if the search ends with only such answers,
    there is no game-rules answer: returns True. Returns False when it cannot tell (an answer that
    a move may lead to from another one)."""
    search = _canonical_search(graph, None, cancel, set())
    try:
        for step in search:
            if step is not None:
                filled = _game_answer(graph, step, None, cancel)
                if filled is not None:
                    yield filled
                    return False
                if not applies(graph, step.node_colour):
                    return False
            yield None
        return True
    finally:
        search.close()


# A Numberlink answer that leaves cells empty is often one detour away from a game-rules answer
# (a pipe beside an empty stretch takes a U-turn through it). A small strict search that may
# change only the edges within these many steps of the empty cells looks for one.
# Conflicts per window of ``rival_near`` (the 40x20 spirals: 0.3-3 ms per window).
WINDOW_CONFLICTS = 3_000
# The windows run alone first, for up to this many CPU seconds per cell (20x20: 0.4 s, where a
# whole sweep takes 0.05-0.2 s; 50x50: 2.5 s), then take equal time with the proof: setting the
# canonical model up takes seconds on a 50x50, and the generated 50x50s' rivals came within 0.4-3 s
# of windows, where the fair share alone gave none within 10 s (7 of 11 puzzles).
WINDOWS_HEAD_PER_CELL = 0.001
FILL_RADII = (2, 4)
FILL_CONFLICTS = 2_000  # per radius


def _game_answer(
    graph: FlowGraph, answer: EdgeSolution, avoid: EdgeSolution | None, cancel: CancelToken | None
) -> EdgeSolution | None:
    """A Numberlink ``answer`` as a game-rules answer: itself if it fills the board, else one that
    ``_filled_near`` finds (None if neither)."""
    if bool((answer.node_colour >= 0).all()):
        return answer
    return _filled_near(graph, answer, avoid, cancel)


def _filled_near(
    graph: FlowGraph, rival: EdgeSolution, avoid: EdgeSolution | None, cancel: CancelToken | None
) -> EdgeSolution | None:
    """A game-rules answer other than ``avoid`` that keeps ``rival``'s edges away from its empty
    cells, if a small search finds one (published 24x16: "2+ under the game rules" at once, where
    the game rules' own search found none in 60 s). None says nothing."""
    u, v = graph.edges[:, 0], graph.edges[:, 1]
    near = rival.node_colour < 0
    for radius in range(1, max(FILL_RADII) + 1):
        near = near.copy()
        near[u[near[v]]] = True
        near[v[near[u]]] = True
        if radius not in FILL_RADII:
            continue
        seen = {avoid.used.tobytes()} if avoid is not None else set()
        sat = FlowSat(graph, "strict", cancel, seen=seen)
        try:
            sat.keep(rival.used, ~(near[u] | near[v]))
            if avoid is not None:
                sat.block(avoid.used)
            for step in sat.steps():
                if step is not None:
                    return step
                if sat.stats.conflicts > FILL_CONFLICTS:
                    break
        finally:
            sat.close()
    return None


def _designed_steps(
    graph: FlowGraph,
    cancel: CancelToken | None,
    stats: SatStats,
    seen: set[bytes],
    touch_at_ends: bool = True,
) -> Generator[EdgeSolution | None, None, None]:
    """Designed answers, by default also where a pipe runs alongside itself at its ends, as some
    published answers do (Janko's 48x35: once, where an end meets its own pipe): game-rules and
    Numberlink answers that the designed model finds fast (48x35: 2 s; the game rules' and
    Numberlink searches found none in 60 s)."""
    sat = FlowSat(graph, "designed", cancel, seen=seen, touch_at_ends=touch_at_ends)
    try:
        for step in sat.steps():
            stats.conflicts = sat.stats.conflicts
            yield step
    finally:
        sat.close()


def _next_step(search: Iterator[_T]) -> tuple[bool, _T | None]:
    """(True, None) if the search has ended, else (False, its next step)."""
    for step in search:
        return False, step
    return True, None


def _staged_steps(
    graph: FlowGraph, rules: str, cancel: CancelToken | None, stats: SatStats, lottery: _Lottery | None = None
) -> Generator[EdgeSolution | None, None, None]:
    """Designed or strict solutions, stage by stage (see the module notes); under strict rules
    with the ``lottery`` (a new one if None) beside the long stages."""
    lottery = lottery if lottery is not None else _Lottery(graph, cancel, stats)
    try:
        yield from _run_stages(graph, rules, cancel, stats, lottery)
    finally:
        lottery.close()  # a ticket cut short keeps its solver


def _run_stages(
    graph: FlowGraph, rules: str, cancel: CancelToken | None, stats: SatStats, lottery: _Lottery
) -> Generator[EdgeSolution | None, None, None]:
    found: list[EdgeSolution] = []
    runs: list[_Run] = []  # the stages run so far
    seen: set[bytes] = set()
    earlier = SatStats()  # totals of the finished stages
    annealing = _Annealing(graph)
    for stage in _stages(graph, rules, found, runs):
        if stage is None:  # a routing passed over: a step, so that other searches get their turn
            if cancel is not None:
                cancel.raise_if_cancelled()
            yield None
            continue
        stats.level = -1 if stage.bound is None else stage.bound
        stats.widenings = len(runs)
        sat = FlowSat(
            graph,
            rules,
            cancel,
            max_slack=stage.bound,
            slack_table=stage.table,
            seen=seen,
            held_blocks=stage.blocks,
        )
        ended = False
        try:
            for known in found:
                sat.block(known.used)
            annealing.stage_started()
            lottery.stage_started()
            for step in sat.steps():
                if step is None and stage.annealed and not found:
                    step = annealing.turn(sat.stats.conflicts)
                    if step is not None:
                        stats.annealed += 1
                    elif rules == "strict":
                        step = lottery.turn(sat.stats.conflicts)
                    if step is not None:  # an answer the stage's search must not give again
                        seen.add(step.used.tobytes())
                        sat.block(step.used)
                if step is not None:
                    found.append(step)
                _add_up(stats, earlier, sat.stats)
                yield step
                if stage.cap is not None and sat.stats.conflicts > stage.cap:
                    break  # a stage that only might help; the later ones keep the search complete
                if step is not None and len(found) == 1 and not stage.whole:
                    break  # the stages round the first answer come next (later ones are wider)
            else:
                ended = True
            runs.append(_Run(stage, sat.stats.conflicts, ended))
            _add_up(stats, earlier, sat.stats)
            earlier = SatStats(
                solve_calls=stats.solve_calls,
                cycle_cuts=stats.cycle_cuts,
                conflicts=stats.conflicts,
                splices=stats.splices,
                let_go=stats.let_go,
            )
        finally:
            sat.close()


class _Lottery:
    """Corridor 1 round randomised routings (seeds after ``ROUTINGS``) beside a long stage, by
    turns (``LOTTERY_SHARE``). The restarts before the long stages draw 16 such tickets; where a
    board is unlucky, the wide corridors after them can take minutes to decide, while one ticket
    in 10-40 holds an answer (60x60 s33045: no answer in 60 s; with the seeds shifted by 40 or 80,
    1.5-2.3 s). Every answer is a real one; the stages keep the search complete. ``on`` is turned
    off once another search has given the first answer."""

    def __init__(self, graph: FlowGraph, cancel: CancelToken | None, stats: SatStats) -> None:
        self.graph = graph
        self.cancel = cancel
        self.stats = stats
        self.seed = ROUTINGS
        self.unsettled = 0
        self.spent = 0.0  # conflicts (and set-up, in conflicts) of the tickets so far
        self.owed = 0.0  # conflicts the lottery may still spend now
        self.counted = 0  # the current stage's conflicts already shared out
        self.sat: FlowSat | None = None
        self.ticket: Iterator[EdgeSolution | None] = iter(())
        self.cap = 0
        self.table: np.ndarray | None = None
        self.on = True  # off once an answer is known elsewhere

    def close(self) -> None:
        if self.sat is not None:
            self.sat.close()
            self.sat = None

    def stage_started(self) -> None:
        self.counted = 0

    def turn(self, conflicts: int) -> EdgeSolution | None:
        """Run tickets for the stage's conflicts since the last turn; an answer if one is found."""
        self.owed += (conflicts - self.counted) * LOTTERY_SHARE
        self.counted = conflicts
        while self.on and self.owed > 0 and self.spent < LOTTERY_CONFLICTS:
            if self.sat is None and not self._draw():
                return None
            assert self.sat is not None
            before = self.sat.stats.conflicts
            step = next(self.ticket, False)
            used = self.sat.stats.conflicts - before
            self.owed -= used
            self.spent += used
            if step is None and self.sat.stats.conflicts <= self.cap:
                continue
            self.close()  # answered, proven empty or at its cap: the next ticket
            if isinstance(step, EdgeSolution):
                self.stats.lottery += 1
                return step
        return None

    def _draw(self) -> bool:
        """Set the next settled routing's corridor 1 up; False once the lottery is over."""
        if self.table is None:
            self.table = slack(self.graph)
        while (
            self.unsettled < UNSETTLED_RUN
            and self.spent < LOTTERY_CONFLICTS
            and self.stats.tickets < LOTTERY_TICKETS
        ):
            self.seed += 1
            routed, settled = route(self.graph, seed=self.seed)
            setup = max(LOTTERY_SETUP_MIN, LOTTERY_SETUP_PER_CELL * self.graph.n_nodes)
            self.owed -= setup
            self.spent += setup
            if not settled:
                self.unsettled += 1
                continue
            self.unsettled = 0
            corridor = _corridor(self.graph, self.table, routed)
            self.sat = FlowSat(self.graph, "strict", self.cancel, max_slack=1, slack_table=corridor)
            self.ticket = self.sat.steps()
            self.cap = LOTTERY_CAPS[self.stats.tickets % len(LOTTERY_CAPS)]
            self.stats.tickets += 1
            return True
        return False


class _Annealing:
    """Annealing (``anneal.py``) beside the strict stages that run once the restarts found no
    answer: after each slice of such a stage, ``ANNEAL_PER_CONFLICT`` flips per solver conflict of
    the slice (a fixed ratio, not the clock: a board takes the same path in every run). It starts
    from a degree-valid edge set of the whole board, found by a small SAT model without colours."""

    def __init__(self, graph: FlowGraph) -> None:
        self.graph = graph
        self.annealer: Annealer | None = None
        self.possible = can_anneal(graph)
        self.counted = 0  # the current stage's conflicts already paid for

    def stage_started(self) -> None:
        self.counted = 0

    def turn(self, conflicts: int) -> EdgeSolution | None:
        """Anneal for the conflicts of the last slice; an answer if one is reached."""
        flips = (conflicts - self.counted) * ANNEAL_PER_CONFLICT
        self.counted = conflicts
        if not self.possible or flips <= 0:
            return None
        if self.annealer is None:
            used = _degree_valid(self.graph)
            if used is None:
                self.possible = False
                return None
            self.annealer = Annealer(self.graph, used)
        answer = self.annealer.run(flips)
        if answer is None:
            return None
        solution = edge_solution(self.graph, answer)
        if solution is None or not _joins_its_ends(self.graph, solution):
            raise AssertionError("annealing reached energy 0 without an answer")
        self.possible = False  # one answer: the stages round it come next
        return solution


def _degree_valid(graph: FlowGraph) -> np.ndarray | None:
    """A used-edge mask with every endpoint of degree 1 and every other cell 2 (no colours, no
    4-cycles), or None if the solver finds none within ``DEGREE_CONFLICTS``."""
    solver = Solver(name=SOLVERS["strict"])
    try:
        _clause_adder(solver, SOLVERS["strict"])(_degree_clauses(graph, True))
        squares = np.asarray(graph.squares, dtype=np.int64).reshape(-1, 4) + 1
        solver.append_formula((-squares).tolist())
        solver.conf_budget(DEGREE_CONFLICTS)
        if not solver.solve_limited():
            return None
        return np.asarray(solver.get_model()[: graph.n_edges]) > 0
    finally:
        solver.delete()


def _joins_its_ends(graph: FlowGraph, solution: EdgeSolution) -> bool:
    """Every colour's pipe runs from one of its endpoints to the other."""
    return all(
        len(path) > 1 and {path[0], path[-1]} == set(ends)
        for path, ends in zip(solution.paths, graph.terminals, strict=True)
    )


# Numberlink rules: the designed search runs first for this much CPU time. Its answers are
# Numberlink answers too, and on puzzles whose answer fills the board it finds them at once, where
# the looser Numberlink model can take minutes to route long pipes across open areas.
DESIGNED_HEAD = 1.0
# ... and, where it has no answer at all, the same with pipes that may touch themselves at their
# ends for this long (after its setup; the 48x35 needs 0.9-1.1 s, so 1 s made it a coin toss).
ENDS_HEAD = 2.0
STRICT_HEAD = 1.0  # CPU seconds of the game-rules stage before the complete Numberlink search


def _numberlink_steps(
    graph: FlowGraph, cancel: CancelToken | None, stats: SatStats
) -> Generator[EdgeSolution | None, None, None]:
    """Numberlink solutions: designed ones first (for ``DESIGNED_HEAD`` seconds), then game-rules
    ones (``STRICT_HEAD``), then the complete Numberlink search with those blocked. After each
    answer a neighbour answer (a shortcut of a pipe that runs alongside itself, or a detour through
    empty cells) is tried: where one exists it proves "2+" without a search. While exactly one
    answer is known and no move of ``canonical.py`` leads to it, the search for a second one looks
    at canonical answers only, which decides "unique" or "2+" where the complete search wanders
    (the game rules' search then takes turns with it for as long as it runs)."""
    seen: set[bytes] = set()
    found: list[EdgeSolution] = []
    canonical_tried = False

    def with_neighbour(solution: EdgeSolution) -> Iterator[EdgeSolution]:
        found.append(solution)
        yield solution
        other = neighbour(graph, solution)
        if other is not None and other.tobytes() not in seen:
            seen.add(other.tobytes())
            decoded, _ = _decode(graph, other)
            assert decoded is not None
            found.append(decoded)
            yield decoded

    def canonical_due() -> bool:
        return (
            not canonical_tried
            and len(found) == 1
            and canonical_supported(graph)
            and applies(graph, found[0].node_colour)
        )

    def canonical_stage(
        known: EdgeSolution | None,
        helper: Iterator[EdgeSolution | None],
        scale: float | None = None,
    ) -> Generator[EdgeSolution | None, None, bool]:
        """The canonical search for an answer other than ``known`` (``helper`` taking turns, its
        share of the CPU time as ``_alternate`` says); True if it ended without one: ``known``
        is unique, or (no ``known``) there is no answer, or its one answer is unique (without
        ``known`` the search goes on after a first answer that a proof can rest on: the model
        and what it learnt are kept, where a new search would start again)."""
        nonlocal canonical_tried
        canonical_tried = canonical_tried or known is not None
        search = _canonical_search(graph, known, cancel, seen)
        # A rival near the answer, with equal time while it lasts (none without an answer).
        near = rival_near(graph, known, "numberlink", cancel, seen)
        try:
            turns = _alternate((("own", s) for s in search), (("helper", s) for s in helper), scale)
            sides = _fair(turns, (("helper", s) for s in near), _windows_head(graph))
            for side, solution in sides:
                if solution is None:
                    yield None
                    continue
                yield from with_neighbour(solution)
                if side == "helper" or not canonical_due():
                    return False
                canonical_tried = True  # it blocked its answer: the rest proves it unique or not
            return True
        finally:
            near.close()
            search.close()

    # Answers that fill the board first: designed ones, then the game rules' (every game-rules
    # answer is a Numberlink answer; on a hand-made 20x20 board the game rules found a second one
    # in 0.02 s where the Numberlink search found none in 15 s). Each stage has a CPU budget; the
    # complete Numberlink search then runs with everything found blocked, so verdicts stay proven.
    designed_ended = False  # every designed answer is found
    cut_short: Generator[EdgeSolution | None, None, None] | None = None  # see below
    pending: Generator[EdgeSolution | None, None, None] | None = None  # ... and what goes on with it
    for touch_at_ends in (False, True):
        if touch_at_ends and (found or pending is not None):
            break
        # No designed answer: pipes that touch themselves at their ends (the 48x35). Only then:
        # on boards drawn by hand the looser model made the head start slower (40x40: 5.8 s -> no
        # verdict in 10 s); and not while the plain model goes on (``pending``): it is faster.
        designed = _designed_steps(graph, cancel, stats, seen, touch_at_ends)
        designed_ended = False
        try:
            # (the time counts from the first slice: setting the looser model up takes 1 s on the
            # 48x35, the designed one on a generated 50x50 up to 1 s, and counting that left some
            # of them without any answer under Numberlink rules, where designed rules found it in 2 s)
            started = math.inf
            answers = 0
            for solution in designed:
                started = min(started, time.process_time())
                if solution is not None:
                    answers += 1
                    yield from with_neighbour(solution)
                elif time.process_time() - started > (ENDS_HEAD if touch_at_ends else DESIGNED_HEAD):
                    if not (touch_at_ends or answers) and canonical_supported(graph):
                        # No answer within the head start: the plain model goes on by turns with
                        # the searches below (hand-made 50x40 boards need 1.3-1.8 s after its
                        # setup; cut off at 1 s, some got no answer at all in 10 s).
                        cut_short = designed
                        pending = _designed_rest(graph, cut_short, cancel, stats, seen)
                    break
                else:
                    yield None
            else:
                designed_ended = True
                stats.designed_unique = answers == 1 and not touch_at_ends
        finally:
            if designed is not cut_short:  # (that one is closed below)
                designed.close()
    try:
        game = _new_answers(_staged_steps(graph, "strict", cancel, SatStats()), seen)  # corridor stages
        try:
            if canonical_due():
                # The canonical search and the game rules' take turns throughout: the game rules
                # often find a second answer of a hand-made board at once (30x30: in 3 s, where the
                # canonical search found none in 10 s); the canonical search decides.
                # Designed-unique: a second answer is rare, the game rules' share falls over time.
                if (yield from canonical_stage(found[0], game, _helper_scale(graph, designed_ended))):
                    return
            elif not found and canonical_supported(graph):
                # No answer yet: an answer exists if and only if a canonical one does (any answer
                # shortens to one), and the canonical model finds one far sooner (a published 20x20
                # whose answer leaves cells empty: 2.8 s, none in 60 s by the complete search).
                helper: Iterator[EdgeSolution | None] = _budgeted(game, STRICT_HEAD)
                if pending is not None:  # the designed search first, the game rules' on a falling share
                    helper = chain(_alternate(pending, helper, _helper_scale(graph, True)), helper)
                if (yield from canonical_stage(None, helper)):
                    return
            else:
                started = time.process_time()
                for solution in game:
                    if solution is None:
                        if time.process_time() - started > STRICT_HEAD:
                            break
                        yield None
                    else:
                        yield from with_neighbour(solution)
        finally:
            game.close()
        # A designed search still open goes on beside the proof: it ends soon after its answer.
        if canonical_due() and (yield from canonical_stage(found[0], pending or iter(()))):
            return
    finally:
        if pending is not None:
            pending.close()  # (the looser model, if it runs)
        if cut_short is not None:
            cut_short.close()
    while True:
        if canonical_due() and (yield from canonical_stage(found[0], iter(()))):
            return
        sat = FlowSat(graph, "numberlink", cancel, seen=seen)
        try:
            for answer in found:
                sat.block(answer.used)
            for solution in sat.steps():
                stats.variables, stats.clauses = sat.stats.variables, sat.stats.clauses
                stats.cycle_cuts, stats.conflicts = sat.stats.cycle_cuts, sat.stats.conflicts
                if solution is None:
                    yield None
                    continue
                for answer in with_neighbour(solution):
                    if answer is not solution:
                        sat.block(answer.used)
                    yield answer
                if canonical_due():
                    break  # the first answer of the complete search: decide with canonical ones
            else:
                return
        finally:
            sat.close()


def _designed_rest(
    graph: FlowGraph,
    plain: Generator[EdgeSolution | None, None, None],
    cancel: CancelToken | None,
    stats: SatStats,
    seen: set[bytes],
) -> Generator[EdgeSolution | None, None, None]:
    """The rest of the plain designed search ``plain``, which its head start cut short without an
    answer; if it ends without one, the looser model's answers (pipes touching themselves at their
    ends), which the head start left out while the plain model could still answer."""
    answers = 0
    for step in plain:  # (the caller closes ``plain``)
        answers += step is not None
        yield step
    stats.designed_unique = answers == 1
    if not answers:
        yield from _designed_steps(graph, cancel, stats, seen, True)


def _canonical_search(
    graph: FlowGraph, known: EdgeSolution | None, cancel: CancelToken | None, seen: set[bytes]
) -> Generator[EdgeSolution | None, None, None]:
    """Canonical answers other than ``known`` (at most one is wanted: it proves "2+"); ending
    without one proves ``known`` unique (``canonical.py``), or, without ``known``, that there is no
    answer at all."""
    sat = FlowSat(graph, "numberlink", cancel, seen=seen, canonical=True)
    try:
        if known is not None:
            sat.block(known.used)
        yield from sat.steps()
    finally:
        sat.close()


def _new_answers(
    search: Iterator[EdgeSolution | None], seen: set[bytes]
) -> Generator[EdgeSolution | None, None, None]:
    """The answers of ``search`` not seen before (each is added to ``seen``), Nones kept."""
    for solution in search:
        if solution is None:
            yield None
        elif solution.used.tobytes() not in seen:
            seen.add(solution.used.tobytes())
            yield solution


def _budgeted(
    search: Iterator[EdgeSolution | None], seconds: float
) -> Generator[EdgeSolution | None, None, None]:
    """The steps of ``search`` until they have taken ``seconds`` of CPU time in all."""
    spent = 0.0
    while spent < seconds:
        started = time.process_time()
        ended, step = _next_step(search)
        spent += time.process_time() - started
        if ended:
            return
        yield step


def _fair(main: Iterator[_T], helper: Iterator[_T], head: float = 0.0) -> Iterator[_T]:
    """Steps of two searches until ``main`` ends (``helper`` may end first), sharing the CPU time
    equally: after each step of ``main``, ``helper`` steps while it has had no more time. First
    ``helper`` alone for ``head`` CPU seconds (its steps are short; ``main``'s first may be long)."""
    spent = 0.0
    while spent < head:
        ended, step, seconds = _timed_step(helper)
        spent += seconds
        if ended:
            break
        yield step  # type: ignore[misc]  # a step of the helper (not None only where _T allows)
    yield from _alternate(main, helper, fair=True)


def _timed_step(search: Iterator[_T]) -> tuple[bool, _T | None, float]:
    """``_next_step`` and the CPU seconds it took."""
    mark = time.process_time()
    ended, step = _next_step(search)
    return ended, step, time.process_time() - mark


def _alternate(
    main: Iterator[_T], helper: Iterator[_T], scale: float | None = None, *, fair: bool = False
) -> Iterator[_T]:
    """Steps of two searches by turns until ``main`` ends (``helper`` may end first). With a
    ``scale`` s, ``helper`` takes a step only while its CPU time is at most sqrt(s * t), where t
    is ``main``'s; ``fair``: as many steps as keep its time at most t."""
    helping = True
    main_cpu = helper_cpu = 0.0
    while True:
        ended, step, seconds = _timed_step(main)
        main_cpu += seconds
        if ended:
            return
        yield step  # type: ignore[misc]
        while helping and (fair or scale is None or helper_cpu <= math.sqrt(scale * main_cpu)):
            if fair and helper_cpu > main_cpu:
                break
            ended, extra, seconds = _timed_step(helper)
            helper_cpu += seconds
            if ended:
                helping = False
                break
            yield extra  # type: ignore[misc]
            if not fair:
                break


class _Stage(NamedTuple):
    table: np.ndarray  # (K, N) slack of each colour at each cell
    bound: int | None  # the slack allowed (None: any reachable cell)
    cap: int | None = None  # solver conflicts after which the stage is left (None: until it ends)
    whole: bool = False  # not left at the search's first answer (no later stage holds its answers)
    blocks: int = 0  # core-guided widening from corridor 1 (``FlowSat.held_blocks``); 0: none
    annealed: bool = False  # annealing (``anneal.py``) takes turns with it while no answer is known


class _Run(NamedTuple):
    stage: _Stage
    conflicts: int  # spent in it
    ended: bool  # ran to its end (not left at its cap or first answer): its answers are all found


def _stages(
    graph: FlowGraph, rules: str, found: list[EdgeSolution], runs: list[_Run]
) -> Iterator[_Stage | None]:
    """The search stages: one unrestricted stage under designed rules. Under strict rules first
    the narrow corridors round a quick routing of the pipes, each for a short while
    (``FIRST_TRIES``); while no answer is known, corridor 1 round other (randomised) routings,
    each for at most ``RESTART_CAP`` conflicts, and core-guided widening round the quick routing
    (``WIDEN_BOUND``); then the corridors round the quick routing to their end (unless an earlier
    try at that corridor or a wider one got there: its answers are all found and blocked), the
    detour levels, and no restriction, which keeps the search complete. Whichever stage gives the first
    answer is left there, and corridors 0 and 1 round that answer come next (a second answer is
    mostly the first one threaded another way through the same cells, or a small change of it);
    the sequence then goes on (each later stage is wider). ``found`` (the answers so far) and
    ``runs`` (the stages run so far) are read as the search goes. Caps count solver conflicts, not
    seconds, so that a board takes the same path in every run. A None after each routing passed
    over: computing eight of them took 3.7 s on a generated 50x50, which the designed peek waited
    for."""
    table = slack(graph)
    if rules != "strict" or _bare_cells(table < UNREACHABLE).any():
        # (A cell no colour can reach, e.g. an endpoint walled in: the complete stage says "no
        # solution" at once, where the narrow stages took 6 s on a 50x50 board, each failing at once.)
        yield _Stage(table, None, whole=True)
        return
    around_tried = False

    def around_answer() -> Iterator[_Stage]:
        # Once an answer is known, before any other stage: a second answer is mostly the first
        # one threaded another way through the same cells (a pipe may run alongside itself under
        # the game rules), then a small change of it.
        nonlocal around_tried
        if found and not around_tried:
            around_tried = True
            around = _corridor(graph, table, found[0].node_colour)
            for bound in AROUND_ANSWER:
                yield _Stage(around, bound, AROUND_CAP)

    corridor = _corridor(graph, table, route(graph)[0])
    top = _top(corridor)
    tried: dict[int, _Stage] = {}
    for bound, cap in FIRST_TRIES:
        if not found and bound < top:
            tried[bound] = _Stage(corridor, bound, cap)
            yield tried[bound]
    restarts = unsettled = 0
    for seed in range(1, ROUTINGS + 1):
        if found or restarts == RESTARTS or sum(run.conflicts for run in runs) > RESTART_CONFLICTS:
            break
        routed, settled = route(graph, seed=seed)
        unsettled = 0 if settled else unsettled + 1
        if unsettled == UNSETTLED_RUN:
            break
        if settled:  # one with a shared cell is passed over (no answer in its corridor 1 seen)
            restarts += 1
            yield _Stage(_corridor(graph, table, routed), 1, RESTART_CAP)
        else:
            yield None
    if not found and WIDEN_BOUND < top and _explored(runs, tried, 1):
        tried[WIDEN_BOUND] = _Stage(corridor, WIDEN_BOUND, WIDEN_CAP, blocks=WIDEN_BLOCK, annealed=True)
        yield tried[WIDEN_BOUND]
    for bound in CORRIDORS:
        yield from around_answer()
        if bound < top and not _explored(runs, tried, bound):
            yield _Stage(corridor, bound, annealed=True)
    top = _top(table)
    for bound in LEVELS:
        yield from around_answer()
        if bound < top:
            yield _Stage(table, bound, annealed=True)
    yield from around_answer()
    yield _Stage(table, None, whole=True, annealed=True)


def _explored(runs: list[_Run], tried: dict[int, _Stage], bound: int) -> bool:
    """Whether a stage round the plain routing at ``bound`` or wider ran to its end (so every
    answer of corridor ``bound`` is found and blocked)."""
    return any(run.ended and run.stage is stage for run in runs for b, stage in tried.items() if b >= bound)


def _bare_cells(allowed: np.ndarray) -> np.ndarray:
    """(N,) True where no colour may go (``allowed``: (K, N)); on a board that must be filled, any
    such cell means no answer."""
    return np.asarray(~allowed.any(axis=0))


def _corridor(graph: FlowGraph, table: np.ndarray, routed: np.ndarray) -> np.ndarray:
    """Slack table of the corridors round ``routed`` (colour per cell, -1 = none)."""
    return np.where(table >= UNREACHABLE, UNREACHABLE, corridor_slack(graph, routed))


def _top(table: np.ndarray) -> int:
    finite = table[table < UNREACHABLE]
    return int(finite.max()) if finite.size else 0


def _add_up(total: SatStats, earlier: SatStats, current: SatStats) -> None:
    total.variables, total.clauses = current.variables, current.clauses
    total.solve_calls = earlier.solve_calls + current.solve_calls
    total.cycle_cuts = earlier.cycle_cuts + current.cycle_cuts
    total.conflicts = earlier.conflicts + current.conflicts
    total.splices = earlier.splices + current.splices
    total.let_go = earlier.let_go + current.let_go


def _domino_cycles(squares: np.ndarray) -> np.ndarray:
    """(M, 6) edge ids of the 6-cycles around two squares (rows of 4 edge ids) sharing an edge."""
    if len(squares) == 0:
        return np.zeros((0, 6), dtype=np.int64)
    edge = squares.ravel()
    owner = np.repeat(np.arange(len(squares)), 4)
    order = np.argsort(edge, kind="stable")
    edge, owner = edge[order], owner[order]
    shared = np.flatnonzero(edge[1:] == edge[:-1])
    a, b, e = squares[owner[shared]], squares[owner[shared + 1]], edge[shared][:, None]
    both = np.concatenate([a, b], axis=1)
    return both[both != e].reshape(-1, 6)


# python-sat internals per solver: the wrapper's handle attribute and the extension's add function.
_RAW_ADDERS = {"cadical195": ("cadical", "cadical195_add_cl"), "glucose4": ("glucose", "glucose41_add_cl")}


def _clause_adder(solver: Solver, name: str) -> Callable[[list[list[int]]], None]:
    """Fastest way to load many clauses. Encoding dominates the run time on normal boards (the
    search itself is a few milliseconds), and python-sat adds clauses one Python call at a time
    through two wrapper layers; calling the extension function directly from ``map`` is about
    2.5x faster. Falls back to the public ``append_formula`` if the internals differ."""
    attribute, function = _RAW_ADDERS.get(name, ("", ""))
    handle = getattr(getattr(solver, "solver", None), attribute, None)
    raw = getattr(pysolvers, function, None) if pysolvers is not None else None
    if handle is None or raw is None:
        return solver.append_formula
    add = partial(raw, handle)

    def add_many(rows: list[list[int]]) -> None:
        deque(map(add, rows), maxlen=0)

    return add_many


def _per_cell(var: np.ndarray) -> list[list[int]]:
    """The colour variables of each cell (``var[k, v]``, 0 = not allowed), per cell in colour order."""
    cell, colour = np.nonzero(var.T)
    flat = var.T[cell, colour].tolist()
    bounds = np.searchsorted(cell, np.arange(var.shape[1] + 1)).tolist()
    return [flat[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


@per_graph
def _degree_clauses(graph: FlowGraph, fill: bool) -> list[list[int]]:
    """Endpoints have degree 1, other cells 2 (``fill``) or 0 or 2; literals are edge ids + 1.
    Built once per graph (shared by every stage and restart: read only)."""
    clauses: list[list[int]] = []
    for node, inc in enumerate(graph.incident):
        lits = [e + 1 for e in inc]
        if node in graph.terminal_colour:
            clauses.extend(_exactly(lits, 1))
        elif not fill:
            clauses.extend(_none_or_two(lits))
        else:
            clauses.extend(_exactly(lits, 2))
    return clauses


def _exactly(lits: list[int], k: int) -> list[list[int]]:
    """Clauses for 'exactly k of lits' (at most 4 literals here, so plain subsets are best)."""
    n = len(lits)
    if k > n:
        return [[]]
    clauses = [[-x for x in sub] for sub in combinations(lits, k + 1)]  # at most k
    clauses += [list(sub) for sub in combinations(lits, n - k + 1)]  # at least k
    return clauses


def _none_or_two(lits: list[int]) -> list[list[int]]:
    """Clauses for "0 or 2 of lits" (a cell that may stay empty): at most two, never just one."""
    clauses = [[-x for x in sub] for sub in combinations(lits, 3)]
    clauses += [[-x, *(y for y in lits if y != x)] for x in lits]
    return clauses


def _decode(graph: FlowGraph, used: np.ndarray) -> tuple[EdgeSolution | None, list[list[int]]]:
    """Paths between endpoints, or the loops (edge ids) that touch no endpoint."""
    label, paths, loops = trace(graph, used)
    if loops:
        return None, loops
    return EdgeSolution(used=used, paths=paths, node_colour=label), []


def edge_solution(graph: FlowGraph, used: np.ndarray) -> EdgeSolution | None:
    """The solution made of these used edges, or None if they hold a loop."""
    return _decode(graph, used)[0]
