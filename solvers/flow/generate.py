"""Random Flow puzzles whose solution is unique under the designed rules (verified by the solver).

1. Random path cover: start from single cells and repeatedly join two path ends that are
   neighbours, but only if the joined path does not touch itself (the designed convention), until
   the wanted number of paths is reached or no join is possible.
2. The endpoints of the cover are the puzzle. While the solver finds a second solution, split the
   cover's path at a cell where the two solutions differ (one more colour); the cover stays a
   solution, and the extra endpoints remove the found alternative.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.flow.model import EMPTY, LETTERS, MNEMONIC_ORDER, Cell, FlowPuzzle
from solvers.flow.solve import solve

Node = Any  # a cell (plain boards) or a graph node id (variants, see ``variants.py``)
MIN_PATH = 3  # cells per pipe in generated puzzles (shorter ones are trivial)


@dataclass
class Generated:
    puzzle: FlowPuzzle
    paths: list[list[Cell]]  # the unique solution, one path per colour
    attempts: int
    seed: int


class _Cover:
    """Paths covering a graph's nodes. ``label`` (node -> path id) and ``pos`` (node -> index in its
    path) answer "does this touch that part of that path" without scanning whole paths; failed join
    and graft attempts vastly outnumber successful ones, so only successes pay for bookkeeping.
    ``lanes`` are bridge lane nodes: they may not end a path."""

    def __init__(
        self,
        nodes: list[Node],
        nbrs: dict[Node, list[Node]],
        rng: random.Random,
        lanes: frozenset[Node] = frozenset(),
    ) -> None:
        self.rng = rng
        self.lanes = lanes
        self.cells: list[Node] = list(nodes)
        self.label: dict[Node, int] = {cell: i for i, cell in enumerate(self.cells)}
        self.pos: dict[Node, int] = dict.fromkeys(self.cells, 0)
        self.paths: dict[int, list[Node]] = {i: [cell] for i, cell in enumerate(self.cells)}
        self._nbrs = nbrs

    @classmethod
    def grid(cls, rows: int, cols: int, rng: random.Random) -> _Cover:
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        nbrs = {
            (r, c): [
                (r + dr, c + dc)
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < rows and 0 <= c + dc < cols
            ]
            for r, c in cells
        }
        return cls(cells, nbrs, rng)

    def bad_end(self, path: list[Node]) -> bool:
        return len(path) < MIN_PATH or path[0] in self.lanes or path[-1] in self.lanes

    def neighbours(self, cell: Node) -> list[Node]:
        return list(self._nbrs[cell])

    def _store(self, pid: int, path: list[Node]) -> None:
        self.paths[pid] = path
        label, pos = self.label, self.pos
        for i, cell in enumerate(path):
            label[cell] = pid
            pos[cell] = i

    def _touches_path(self, cells: list[Node], qid: int, link: tuple[Node, Node]) -> bool:
        """Is any of ``cells`` next to a cell of path ``qid``, apart from the joining ``link``?"""
        label = self.label
        for cell in cells:
            for n in self._nbrs[cell]:
                if label[n] == qid and (cell, n) != link:
                    return True
        return False

    def try_join(self, pid: int, end: Node, n: Node) -> bool:
        """Join path ``pid`` at its end ``end`` to the path whose end is the neighbour ``n``."""
        qid = self.label[n]
        path, other = self.paths[pid], self.paths[qid]
        if qid == pid or n not in (other[0], other[-1]):
            return False
        if len(path) <= len(other):
            if self._touches_path(path, qid, (end, n)):
                return False
        elif self._touches_path(other, pid, (n, end)):
            return False
        a = path if end == path[-1] else path[::-1]
        b = other if n == other[0] else other[::-1]
        del self.paths[qid]
        self._store(pid, a + b)
        return True

    def try_graft(self, pid: int, end: Node, n: Node) -> bool:
        """Cut the neighbouring path at ``n`` and hang its tail from ``end`` of path ``pid``.

        Absorbs short paths that no path end can reach; the head that stays must be long enough.
        """
        qid = self.label[n]
        if qid == pid:
            return False
        other = self.paths[qid]
        j = self.pos[n]
        path = self.paths[pid]
        a = path if end == path[-1] else path[::-1]
        # Either keep other[:j] and hang other[j:], or keep other[j+1:] and hang other[:j+1].
        for forward in (True, False):
            head_len = j if forward else len(other) - j - 1
            if head_len < MIN_PATH or (other[j - 1] if forward else other[j + 1]) in self.lanes:
                continue
            if self._touches_part(a, qid, j, forward, (end, n)):
                continue
            if forward:
                head, tail = other[:j], other[j:]
            else:
                head, tail = other[j + 1 :][::-1], other[: j + 1][::-1]
            self._store(qid, head)
            self._store(pid, a + tail)
            return True
        return False

    def _touches_part(self, a: list[Node], qid: int, j: int, forward: bool, link: tuple[Node, Node]) -> bool:
        """Does path ``a`` touch the part of path ``qid`` from index ``j`` on (``forward``) or up to
        ``j`` (else), anywhere but at ``link``? Walks the shorter side."""
        label, pos = self.label, self.pos
        other = self.paths[qid]
        tail = range(j, len(other)) if forward else range(j + 1)  # indices: slicing would copy
        if len(a) <= len(tail):
            for cell in a:
                for m in self._nbrs[cell]:
                    if label[m] == qid and (pos[m] >= j if forward else pos[m] <= j) and (cell, m) != link:
                        return True
            return False
        pid = label[a[0]]
        back = (link[1], link[0])
        for k in tail:
            cell = other[k]
            for m in self._nbrs[cell]:
                if label[m] == pid and (cell, m) != back:
                    return True
        return False

    def merge_down(self, target: int, cancel: CancelToken | None = None, shake_rounds: int = 20) -> None:
        """Join path ends until ``target`` paths remain. When no join is possible, grafts (cut a
        neighbour and re-hang its tail) reshape the cover without changing the count, which
        opens new joins."""
        budget = shake_rounds * len(self.cells)
        stuck = 0
        while len(self.paths) > target and budget > 0:
            budget -= 1
            if cancel is not None and budget % 2048 == 0:
                cancel.raise_if_cancelled()
            # A random cell picks its path (long paths more often, which is fine).
            pid = self.label[self.cells[self.rng.randrange(len(self.cells))]]
            path = self.paths[pid]
            end = path[-1] if self.rng.random() < 0.5 else path[0]
            options = self.neighbours(end)
            self.rng.shuffle(options)
            if any(self.try_join(pid, end, n) for n in options):
                stuck = 0
                continue
            stuck += 1
            if stuck > len(self.paths):
                any(self.try_graft(pid, end, n) for n in options)

    def fix_short(self) -> bool:
        """Grow every path shorter than MIN_PATH; False if some cannot be fixed."""
        for _ in range(4 * len(self.paths)):
            short = [pid for pid, p in self.paths.items() if self.bad_end(p)]
            if not short:
                return True
            pid = self.rng.choice(short)
            path = self.paths[pid]
            moves = [(end, n) for end in {path[0], path[-1]} for n in self.neighbours(end)]
            self.rng.shuffle(moves)
            if not any(self.try_join(pid, e, n) for e, n in moves):
                any(self.try_graft(pid, e, n) for e, n in moves)
        return not any(self.bad_end(p) for p in self.paths.values())


def _random_cover(
    rows: int, cols: int, target: int, rng: random.Random, cancel: CancelToken | None = None
) -> list[list[Cell]] | None:
    """Random paths covering the grid, none touching itself, about ``target`` of them."""
    cover = _Cover.grid(rows, cols, rng)
    for _ in range(6):
        cover.merge_down(target, cancel)
        if cover.fix_short() and len(cover.paths) <= target:
            break
    out = list(cover.paths.values())
    if any(len(p) < MIN_PATH for p in out) or len(out) > len(LETTERS):
        return None
    return out


def _puzzle_of(rows: int, cols: int, paths: list[list[Cell]]) -> FlowPuzzle:
    cells = [EMPTY] * (rows * cols)
    order = sorted(range(len(paths)), key=lambda i: -len(paths[i]))  # long pipes get the classic colours
    for k, i in enumerate(order):
        for r, c in (paths[i][0], paths[i][-1]):
            cells[r * cols + c] = MNEMONIC_ORDER[k]
    return FlowPuzzle(rows, cols, tuple(cells))


def _make_unique(
    rows: int,
    cols: int,
    paths: list[list[Cell]],
    rng: random.Random,
    cancel: CancelToken | None,
    max_colours: int,
) -> list[list[Cell]] | None:
    while len(paths) <= max_colours:
        puzzle = _puzzle_of(rows, cols, paths)
        found = list(solve(puzzle, limit=2, cancel=cancel, rules="designed"))
        if len(found) == 1:
            return paths
        if not found:
            return None  # cannot happen: the cover itself is a designed solution
        colour_of = {tuple(cell): ch for ch, cells in found[1].extras["paths"].items() for cell in cells}
        first = {tuple(cell): ch for ch, cells in found[0].extras["paths"].items() for cell in cells}
        # Cells where the other solution differs from ours; split one of our paths there.
        ours = {cell: i for i, p in enumerate(paths) for cell in p}
        diff = [cell for cell in ours if colour_of.get(cell) != first.get(cell)]
        # found[0] may itself differ from our cover; compare the second one with the cover instead.
        cover_letter = {cell: puzzle.at(*paths[i][0]) for cell, i in ours.items()}
        diff = [cell for cell in ours if colour_of[cell] != cover_letter[cell]] or [
            cell for cell in ours if first[cell] != cover_letter[cell]
        ]
        rng.shuffle(diff)
        for cell in diff:
            i = ours[cell]
            p = paths[i]
            j = p.index(cell)
            # split into p[:j] and p[j:] (both long enough)
            for cut in (j, j + 1):
                if MIN_PATH <= cut <= len(p) - MIN_PATH:
                    paths = paths[:i] + [p[:cut], p[cut:]] + paths[i + 1 :]
                    break
            else:
                continue
            break
        else:
            return None  # only short pipes differ: give up on this cover
    return None


def generate(
    cols: int,
    rows: int,
    colours: int | None = None,
    seed: int | None = None,
    cancel: CancelToken | None = None,
    max_attempts: int = 200,
) -> Generated:
    """A puzzle of ``cols`` x ``rows`` with ``colours`` pipes (default: about sqrt of the area)
    whose solution is unique under the designed rules."""
    if not (2 <= rows <= 100 and 2 <= cols <= 100):
        raise InputError(f"generator sizes are 2..100, got {cols}x{rows}")
    area = rows * cols
    target = colours if colours is not None else max(2, min(len(LETTERS), round(area**0.5 * 0.9)))
    if not 1 <= target <= min(len(LETTERS), area // 2):
        raise InputError(f"cannot place {target} colours on a {cols}x{rows} board")
    seed = random.randrange(2**32) if seed is None else seed
    rng = random.Random(seed)
    best: Generated | None = None
    start = target
    for attempt in range(1, max_attempts + 1):
        if cancel is not None:
            cancel.raise_if_cancelled()
        cover = _random_cover(rows, cols, max(1, start), rng, cancel)
        if cover is None:
            continue
        unique = _make_unique(rows, cols, cover, rng, cancel, max_colours=target if colours else len(LETTERS))
        if unique is None:
            start = max(1, start - 1)
            continue
        result = Generated(_puzzle_of(rows, cols, unique), unique, attempt, seed)
        if colours is None or len(unique) == target:
            return result
        if best is None or abs(len(unique) - target) < abs(len(best.paths) - target):
            best = result
        start = max(1, start - 1) if len(unique) > target else start + 1
    if best is not None:
        return best
    raise InputError(f"no unique {cols}x{rows} puzzle with {target} colours found in {max_attempts} attempts")
