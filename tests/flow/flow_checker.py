"""Independent answer checker for Flow tests (does not use the module's own rules code).

Works on plain data: the puzzle as row strings ('.' = empty, a letter = endpoint) and an answer as
the CLI prints it (``grid`` rows and ``paths`` {letter: [[r, c], ...]}). Boards with number labels
(10..999) are given as rows of tokens (lists of strings) instead, as ``tokens`` makes them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

Rows = Sequence[Sequence[str]]  # row strings, or rows of cell tokens


def tokens(rows: list[str]) -> list[list[str]]:
    """Rows of the spaced form (``-`` or ``.`` empty) as rows of tokens ('.' for empty)."""
    return [["." if t in "-." else t for t in row.split()] for row in rows]


def endpoints_of(rows: Rows) -> dict[str, list[tuple[int, int]]]:
    found: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch.isalnum():
                found[ch].append((r, c))
    return dict(found)


def verify(
    rows: Rows,
    grid: Rows,
    paths: dict[str, list[list[int]]],
    designed: bool = False,
    numberlink: bool = False,
) -> None:
    """Raise AssertionError unless the answer is a complete, correct Flow solution (Numberlink:
    cells off the paths stay empty, shown '.', instead of every cell covered)."""
    h, w = len(rows), len(rows[0])
    assert len(grid) == h and all(len(g) == w for g in grid), "grid shape"
    ends = endpoints_of(rows)
    assert set(paths) == set(ends), "one path per colour"
    seen: dict[tuple[int, int], str] = {}
    for ch, raw in paths.items():
        path = [tuple(p) for p in raw]
        assert len(ends[ch]) == 2, f"{ch} endpoints"
        assert {path[0], path[-1]} == set(ends[ch]), f"{ch} must run endpoint to endpoint"
        assert len(set(path)) == len(path), f"{ch} is not a simple path"
        for (r1, c1), (r2, c2) in zip(path, path[1:], strict=False):
            assert abs(r1 - r2) + abs(c1 - c2) == 1, f"{ch} jumps"
        for i, (r, c) in enumerate(path):
            assert 0 <= r < h and 0 <= c < w, "inside"
            assert (r, c) not in seen, f"{ch} crosses {seen.get((r, c))}"
            seen[(r, c)] = ch
            assert grid[r][c] == ch, f"grid disagrees with path {ch} at {(r, c)}"
            if 0 < i < len(path) - 1:
                assert not rows[r][c].isalnum(), f"{ch} runs through an endpoint"
        if designed:
            index = {cell: i for i, cell in enumerate(path)}
            for (r, c), i in index.items():
                for n in ((r + 1, c), (r, c + 1)):
                    j = index.get(n)
                    assert j is None or abs(i - j) == 1, f"{ch} touches itself at {(r, c)}"
    if numberlink:
        for r in range(h):
            for c in range(w):
                if (r, c) not in seen:
                    assert grid[r][c] == "." and rows[r][c] == ".", f"{(r, c)} is off every path"
    else:
        assert len(seen) == h * w, "every cell covered"


def verify_edge_answer(
    rows: list[str],
    cells: Sequence[tuple[int, int]],
    colours: Sequence[str],
    paths: Sequence[Sequence[int]],
    numberlink: bool = False,
) -> None:
    """``verify`` on a solver's answer given as node paths per colour id (``EdgeSolution.paths``)
    with the graph's node cells and colour letters; the grid is rebuilt from the paths alone."""
    grid = [["."] * len(rows[0]) for _ in rows]
    named = {}
    for k, path in enumerate(paths):
        named[colours[k]] = [list(cells[v]) for v in path]
        for v in path:
            grid[cells[v][0]][cells[v][1]] = colours[k]
    verify(rows, ["".join(g) for g in grid], named, numberlink=numberlink)


def brute_force_count(
    rows: list[str], designed: bool = False, cap: int = 10_000, numberlink: bool = False
) -> int:
    """Count solutions by plain depth-first search over paths (tiny boards only). Numberlink:
    cells may stay empty."""
    h, w = len(rows), len(rows[0])
    ends = endpoints_of(rows)
    colours = sorted(ends)
    used = [[ch.isalnum() for ch in row] for row in rows]
    count = 0
    placed: dict[str, list[tuple[int, int]]] = {}

    def ok_designed(path: list[tuple[int, int]]) -> bool:
        index = {cell: i for i, cell in enumerate(path)}
        for (r, c), i in index.items():
            for n in ((r + 1, c), (r, c + 1)):
                j = index.get(n)
                if j is not None and abs(i - j) != 1:
                    return False
        return True

    def run(k: int) -> None:
        nonlocal count
        if count >= cap:
            return
        if k == len(colours):
            if numberlink or all(all(row) for row in used):
                count += 1
            return
        ch = colours[k]
        start, goal = ends[ch]

        def walk(path: list[tuple[int, int]]) -> None:
            r, c = path[-1]
            for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if not (0 <= n[0] < h and 0 <= n[1] < w):
                    continue
                if n == goal:
                    full = path + [n]
                    if not designed or ok_designed(full):
                        placed[ch] = full
                        run(k + 1)
                    continue
                if used[n[0]][n[1]]:
                    continue
                used[n[0]][n[1]] = True
                path.append(n)
                walk(path)
                path.pop()
                used[n[0]][n[1]] = False

        walk([start])

    run(0)
    return count
