"""Generator of unique Toichika puzzles at a chosen grade.

1. A random country division: regions grown from the most cramped free cell to a size drawn from a
   hand-made-looking mix (2..8 cells, mostly 3-5; for hard grades mostly 2-3, since small countries
   make harder puzzles); 1-cell leftovers are merged into a neighbour
   (unless ``singles``), and an odd country count is fixed by one more merge (arrows pair up).
2. A hidden solution: the exact SAT model with random phases (so each seed gives another one).
3. Every arrow starts as a given; givens are removed in random order while the explainer's
   techniques up to the target level still solve the board. A board the techniques solve has only
   that one solution (each deduction is sound); an incremental SAT check of uniqueness runs first
   only because it rejects most failing removals 10-20 times faster. For "expert"/"extreme"
   (trial levels) a removal must keep the solution unique (SAT) and the final explanation must
   need exactly that level.
4. The result must need the target level (not solvable one level lower); otherwise another removal
   order, then another board, is tried until the cancel token fires.

Everything random comes from one ``random.Random(seed)``, so a seed reproduces the puzzle.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.toichika.candidates import ALL, BIT, Board, Contradiction, State
from solvers.toichika.explain import GRADES, NAMED_LEVEL, explain, propagate
from solvers.toichika.model import DIRECTIONS, Toichika
from solvers.toichika.sat_solver import model_for, new_solver

MIN_SIDE, MAX_SIDE = 2, 30
# Measured: no 2x2, 2x3, 2x4 or 3x3 puzzle is found at any grade (2,000 boards each); 2x5 and
# larger boards are, at the easy grades.
MIN_CELLS = 10


def too_small(width: int, height: int) -> str:
    """Why no puzzle of this size can be generated, or ""."""
    if width * height < MIN_CELLS:
        return f"a {width}x{height} board is too small: puzzles are made from {MIN_CELLS} cells up (e.g. 2x5, 4x3)"
    return ""


GRADE_LEVEL = {name: level for level, name in GRADES.items()}
# Country sizes and their weights: mostly 3-5 cells, some pairs and a few big ones, as setters draw.
SIZE_WEIGHTS = {2: 14, 3: 24, 4: 24, 5: 16, 6: 10, 7: 7, 8: 5}
# Small countries make harder puzzles: on 10x10 with the mix above, 43 of 45 minimal unique
# puzzles were medium; with these weights about a third reach hard, a quarter very hard.
HARD_WEIGHTS = {2: 6, 3: 3, 4: 1}
VERY_HARD_WEIGHTS = {2: 5, 3: 3, 4: 1, 5: 1}
GRADE_WEIGHTS = {
    3: HARD_WEIGHTS,
    4: VERY_HARD_WEIGHTS,
    5: HARD_WEIGHTS,
    6: HARD_WEIGHTS,
    7: HARD_WEIGHTS,
    8: HARD_WEIGHTS,
    9: HARD_WEIGHTS,
    10: HARD_WEIGHTS,
}
ORDERS_PER_BOARD = 3  # removal orders tried on one hidden solution before drawing a new board
MAX_ATTEMPTS = 2000  # boards drawn before giving up (a 2x2 board has no solution at all)

ProgressFn = Callable[[dict[str, Any]], None]


@dataclass
class Generated:
    puzzle: Toichika
    solution: tuple[int, ...]  # arrow code per cell (0 empty)
    grade: str
    seed: int
    attempts: int  # boards (divisions + solutions) drawn
    seconds: float

    @property
    def givens(self) -> int:
        return sum(1 for g in self.puzzle.givens if g)

    @property
    def given_ratio(self) -> float:
        """Givens per country (1.0 = every country's arrow given)."""
        return self.givens / len(self.puzzle.regions)


def grade_level(grade: str) -> int:
    key = grade.replace("-", " ").replace("_", " ").strip().lower()
    if key not in GRADE_LEVEL:
        raise InputError(f"unknown grade {grade!r}; expected one of: {', '.join(grade_names())}")
    return GRADE_LEVEL[key]


def grade_names() -> list[str]:
    """Grades as command-line words ("very-hard")."""
    return [name.replace(" ", "-") for name in GRADES.values()]


def generate(
    width: int,
    height: int,
    grade: str = "medium",
    *,
    seed: int | None = None,
    symmetric: bool = False,
    singles: bool = False,
    cancel: CancelToken | None = None,
    progress: ProgressFn | None = None,
    max_attempts: int = MAX_ATTEMPTS,
    max_seconds: float | None = None,
) -> Generated:
    """A unique puzzle whose explanation needs exactly ``grade``.

    Runs until found, cancelled (``Cancelled``), or ``max_attempts`` boards or ``max_seconds``
    failed (``InputError``, saying which).
    """
    for name, value in (("width", width), ("height", height)):
        if not MIN_SIDE <= value <= MAX_SIDE:
            raise InputError(f"{name} must be between {MIN_SIDE} and {MAX_SIDE}, got {value}")
    if too_small(width, height):  # said at once: 2,000 boards were tried before
        raise InputError(too_small(width, height))
    level = grade_level(grade)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    cancel = cancel or CancelToken()
    t0 = time.perf_counter()
    attempt = 0
    while attempt < max_attempts:
        if max_seconds is not None and time.perf_counter() - t0 > max_seconds:
            raise InputError(
                f"no {GRADES[level]} {width}x{height} puzzle found in {max_seconds:g} s ({attempt} boards); "
                "try again, or a larger board or an easier grade"
            )
        attempt += 1
        cancel.raise_if_cancelled()
        if progress is not None:
            progress({"text": f"board {attempt}: dividing into countries", "attempt": attempt})
        weights = GRADE_WEIGHTS.get(level, SIZE_WEIGHTS)
        labels = divide(height, width, rng, symmetric=symmetric, singles=singles, weights=weights)
        blank = Toichika.from_labels(labels)
        solution = hidden_solution(blank, rng, symmetric, cancel)
        if solution is None:
            continue
        for _ in range(ORDERS_PER_BOARD):
            puzzle = _remove_givens(blank, solution, level, rng, symmetric, cancel, progress, attempt)
            if puzzle is not None:
                return Generated(puzzle, solution, GRADES[level], seed, attempt, time.perf_counter() - t0)
    raise InputError(
        f"no {GRADES[level]} {width}x{height} puzzle found in {attempt} boards; try another grade or size"
    )


# ---- country division ------------------------------------------------------------------------------


def _mirror(i: int, n: int) -> int:
    return n - 1 - i  # 180° rotation of a row-major index


def divide(
    rows: int,
    cols: int,
    rng: random.Random,
    *,
    symmetric: bool = False,
    singles: bool = False,
    weights: dict[int, int] | None = None,
) -> list[list[int]]:
    """Country labels per cell. Symmetric: the division is invariant under a 180° rotation."""
    n = rows * cols
    label = [-1] * n

    def _near(i: int) -> list[int]:
        r, c = divmod(i, cols)
        out = []
        if r > 0:
            out.append(i - cols)
        if r + 1 < rows:
            out.append(i + cols)
        if c > 0:
            out.append(i - 1)
        if c + 1 < cols:
            out.append(i + 1)
        return out

    near = [_near(i) for i in range(n)]  # built once: the division looks them up ~100k times on 20x20

    def neighbours(i: int) -> list[int]:
        return near[i]

    def free_degree(i: int) -> int:
        return sum(1 for j in near[i] if label[j] < 0)

    weights = weights or SIZE_WEIGHTS
    sizes, chances = list(weights), list(weights.values())
    count = 0
    while True:
        free = [i for i in range(n) if label[i] < 0]
        if not free:
            break
        # Start where the free space is most cramped, so few 1-cell leftovers remain.
        degree = [free_degree(i) for i in free]
        least = min(degree)
        start = rng.choice([i for i, k in zip(free, degree, strict=True) if k == least])
        if symmetric and _mirror(start, n) == start:
            label[start] = count  # the centre cell of an odd board: a country of its own for now
            count += 1
            continue
        target = rng.choices(sizes, chances)[0]
        cells = [start]
        label[start] = count
        if symmetric:
            label[_mirror(start, n)] = count + 1
        while len(cells) < target:
            frontier = sorted({j for i in cells for j in neighbours(i) if label[j] < 0})
            if symmetric:  # a country must not touch its own mirror image's cells
                frontier = [j for j in frontier if label[_mirror(j, n)] < 0 and _mirror(j, n) != j]
            if not frontier:
                break
            j = rng.choice(frontier)
            cells.append(j)
            label[j] = count
            if symmetric:
                label[_mirror(j, n)] = count + 1
        count += 2 if symmetric else 1
    _merge_small(label, neighbours, rng, symmetric, singles, n)
    return [label[r * cols : (r + 1) * cols] for r in range(rows)]


def _merge_small(
    label: list[int],
    neighbours: Callable[[int], list[int]],
    rng: random.Random,
    symmetric: bool,
    singles: bool,
    n: int,
) -> None:
    """Merge 1-cell countries into a neighbour, then make the country count even."""

    def members() -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for i, lab in enumerate(label):
            out.setdefault(lab, []).append(i)
        return out

    def merge(small: int, cells: list[int]) -> None:
        near = sorted({label[j] for i in cells for j in neighbours(i)} - {small})
        if not near:
            return
        groups = members()
        into = min(near, key=lambda lab: (len(groups[lab]), rng.random()))
        for i in cells:
            label[i] = into
        if symmetric:
            # merge the mirror pair the same way, so the division stays symmetric
            mirror_small = label[_mirror(cells[0], n)]
            mirror_into = label[_mirror(groups[into][0], n)]
            if mirror_small != into and mirror_small != mirror_into:
                for i in groups.get(mirror_small, []):
                    label[i] = mirror_into

    if not singles:
        for lab, cells in sorted(members().items()):
            if len(cells) == 1 and label[cells[0]] == lab:
                merge(lab, cells)
    groups = members()
    if len(groups) % 2:
        # Odd count: merge the smallest country (on a symmetric board only the centre one is unpaired).
        if symmetric:
            odd = [lab for lab, cells in groups.items() if _mirror(cells[0], n) in cells]
            lab = odd[0] if odd else min(groups, key=lambda k: len(groups[k]))
        else:
            lab = min(groups, key=lambda k: (len(groups[k]), k))
        cells = groups[lab]
        near = sorted({label[j] for i in cells for j in neighbours(i)} - {lab})
        if near:
            into = min(near, key=lambda k: (len(groups[k]), k))
            for i in cells:
                label[i] = into
    # renumber 0..k-1 in row-major order of first cells (from_labels only compares neighbours)
    seen: dict[int, int] = {}
    for i, lab in enumerate(label):
        label[i] = seen.setdefault(lab, len(seen))


# ---- hidden solution -------------------------------------------------------------------------------


def hidden_solution(
    blank: Toichika, rng: random.Random, symmetric: bool, cancel: CancelToken
) -> tuple[int, ...] | None:
    """A random solution of the walls (no givens), or None if the division has none.

    Random phases steer the SAT solver to a different solution per seed. Symmetric: arrows are asked
    to sit in mirror cells (a(i) = a(mirror i)) so that the given layout can be symmetric.
    """
    if len(blank.regions) % 2:
        return None
    model = model_for(blank, cancel)
    n = blank.size
    extra: list[list[int]] = []
    if symmetric:
        for i in range(n):
            j = _mirror(i, n)
            if i < j:
                extra += [[-model.a(i), model.a(j)], [model.a(i), -model.a(j)]]
    solver = new_solver(model, cancel, extra)
    unregister = cancel.on_cancel(solver.interrupt)
    try:
        phases = []
        for i in range(n):
            phases.append(model.a(i) if rng.random() < 0.3 else -model.a(i))
            for d in DIRECTIONS:
                phases.append(model.x(i, d) if rng.random() < 0.25 else -model.x(i, d))
        solver.set_phases(phases)
        status = solver.solve_limited(expect_interrupt=True)
        if status is None:
            raise Cancelled()
        if not status:
            return None
        true = set(lit for lit in solver.get_model() if 0 < lit <= 4 * n)
        return tuple(next((d for d in DIRECTIONS if model.x(i, d) in true), 0) for i in range(n))
    finally:
        unregister()
        solver.delete()


# ---- removing givens -------------------------------------------------------------------------------


def solved_within(board: Board, givens: list[int], level: int) -> bool:
    """Do the explainer's techniques up to ``level`` (1..NAMED_LEVEL) solve the board without trial?

    No cancel token inside: one run takes ~10-50 ms on 20x20, and polling the token in every
    technique sweep cost a third of the generator's time; the caller polls between runs.
    """
    masks = fixpoint_masks(board, givens, level)
    return masks is not None and _solved(masks)


def fixpoint_masks(
    board: Board, givens: list[int], level: int, start: list[int] | None = None
) -> list[int] | None:
    """The techniques' fixpoint up to ``level`` (None on a contradiction).

    ``start``: known candidates to begin from. The fixpoint of the same givens at a lower level
    gives exactly the cold result (a cold run passes through that state before it uses ``level``);
    any other start (a looser puzzle's fixpoint) is only a fast approximation, for searches whose
    answer is checked again cold.
    """
    masks = [BIT[g] if g in DIRECTIONS else ALL for g in givens]
    if start is not None:
        masks = [m & k for m, k in zip(masks, start, strict=True)]
        if not all(masks):
            return None
    state = State(board, masks)
    try:
        propagate(state, None, max_level=level)
    except Contradiction:
        return None
    return state.masks


class _Uniqueness:
    """One incremental SAT solver: "is there a solution other than the hidden one with these givens?"."""

    def __init__(self, blank: Toichika, solution: tuple[int, ...], cancel: CancelToken) -> None:
        self.model = model_for(blank, cancel)
        block = [-self.model.x(i, d) for i, d in enumerate(solution) if d]
        self.solver = new_solver(self.model, cancel, [block])
        self._unregister = cancel.on_cancel(self.solver.interrupt)

    def unique(self, givens: list[int]) -> bool:
        assumptions = [self.model.x(i, g) for i, g in enumerate(givens) if g in DIRECTIONS]
        status = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        if status is None:
            raise Cancelled()
        return not status

    def close(self) -> None:
        self._unregister()
        self.solver.delete()


def _remove_givens(
    blank: Toichika,
    solution: tuple[int, ...],
    level: int,
    rng: random.Random,
    symmetric: bool,
    cancel: CancelToken,
    progress: ProgressFn | None,
    attempt: int,
) -> Toichika | None:
    n = blank.size
    givens = list(solution)
    orbits: list[list[int]] = []
    for i in range(n):
        j = _mirror(i, n) if symmetric else i
        if givens[i] and i <= j:
            orbits.append([i] if j == i else [i, j])
    if symmetric:
        # An arrow whose mirror cell is empty cannot be in a symmetric layout: drop it if it may go.
        lonely = [i for i in range(n) if givens[i] and not givens[_mirror(i, n)]]
        orbits = [o for o in orbits if all(givens[k] for k in o)] + [[i] for i in lonely]
    rng.shuffle(orbits)
    board = Board(blank, cancel)
    uniq = _Uniqueness(blank, solution, cancel)

    def report(k: int, total: int, what: str) -> None:
        cancel.raise_if_cancelled()
        if progress is not None and k % 4 == 0:
            progress(
                {
                    # No "fraction": how many boards it takes is not known, and a bar filled per
                    # board ran backwards at every new board (QA).
                    "text": f"board {attempt}: {what} ({k}/{total})",
                    "attempt": attempt,
                }
            )

    def without(base: list[int], orbit: list[int]) -> list[int]:
        trial = list(base)
        for i in orbit:
            trial[i] = 0
        return trial

    try:
        if not uniq.unique(givens):
            return None  # symmetric: the arrows alone (not all of them givens yet) are ambiguous
        if 2 <= level <= NAMED_LEVEL:
            start = _first_at_level(board, uniq, givens, orbits, level, report, without)
            if start is None:
                return None
            givens = start
            orbits = [o for o in orbits if all(givens[i] for i in o)]
            rng.shuffle(orbits)
        # Greedy removal: unique (SAT first, ~1 ms; a failing propagation costs ~15 ms) and, up to
        # very hard, solved by the techniques up to the level. Removing givens never lowers the
        # level, so from a start that needs the level the result needs exactly it.
        for k, orbit in enumerate(orbits):
            report(k, len(orbits), "removing givens")
            trial = without(givens, orbit)
            if uniq.unique(trial) and (level > NAMED_LEVEL or solved_within(board, trial, level)):
                givens = trial
        if symmetric and any(bool(givens[i]) != bool(givens[_mirror(i, n)]) for i in range(n)):
            return None  # a lonely arrow had to stay
    finally:
        uniq.close()
    puzzle = Toichika(blank.rows, blank.cols, blank.vwalls, blank.hwalls, tuple(givens))
    if level <= NAMED_LEVEL:
        return None if level > 1 and solved_within(board, givens, level - 1) else puzzle
    if solved_within(board, givens, NAMED_LEVEL):
        return None  # no trial needed: most candidates end here, cheaper than a full explanation
    ex = explain(puzzle, cancel)
    return puzzle if ex.solved and ex.hardest_level() == level else None


def _first_at_level(
    board: Board,
    uniq: _Uniqueness,
    givens: list[int],
    orbits: list[list[int]],
    level: int,
    report: Callable[[int, int, str], None],
    without: Callable[[list[int], list[int]], list[int]],
) -> list[int] | None:
    """Givens that need exactly ``level``, found on a removal path kept unique by SAT alone.

    Along the path the level never falls, so a binary search finds its first state the techniques
    one level lower cannot solve; that state is the start if the target level solves it (the path
    may jump over the level, or never reach it: then None).
    """
    path = [list(givens)]
    for k, orbit in enumerate(orbits):
        report(k, len(orbits), "unique removal path")
        trial = without(path[-1], orbit)
        if uniq.unique(trial):
            path.append(trial)
    lo, hi = 0, len(path) - 1  # path[0] (every arrow given) is solved at level 1
    sparsest = fixpoint_masks(board, path[hi], level - 1)
    if sparsest is None or _solved(sparsest):
        return None  # even the sparsest unique state is easier than the target
    # Each state on the path has more givens than the sparsest, so its fixpoint starts from the
    # sparsest one's (several times faster than from scratch; the start found is checked cold).
    while hi - lo > 1:
        report(0, 1, "searching the level")
        mid = (lo + hi) // 2
        masks = fixpoint_masks(board, path[mid], level - 1, start=sparsest)
        if masks is not None and _solved(masks):
            lo = mid
        else:
            hi = mid
    found: list[int] | None = sparsest
    if hi != len(path) - 1:
        found = fixpoint_masks(board, path[hi], level - 1)  # the start's own cold fixpoint
        if found is None or _solved(found):
            return None
    final = fixpoint_masks(board, path[hi], level, start=found)  # exact: same givens, lower level
    return path[hi] if final is not None and _solved(final) else None


def _solved(masks: list[int]) -> bool:
    return all(m & (m - 1) == 0 for m in masks)


__all__ = [
    "Generated",
    "divide",
    "generate",
    "grade_level",
    "grade_names",
    "hidden_solution",
    "solved_within",
]
