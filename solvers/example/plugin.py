"""Latin square plug-in. Copy this file's shape when adding a module (see docs/PLUGINS.md)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.display import DisplayList, GridGeometry, Rect, Text, grid_lines
from solvers.common.errors import InputError, ParseError
from solvers.common.limits import body_lines
from solvers.common.protocol import (
    CheckResult,
    EditEvent,
    EditResult,
    PluginBase,
    ProgressFn,
    Solution,
    Tool,
    Violation,
)
from solvers.common.words import cell_name
from solvers.example import META

MAX_SIZE = 9
DIGITS = "0123456789"  # ASCII only: str.isdigit() accepts '²', which int() refuses


@dataclass(frozen=True)
class LatinSquare:
    n: int
    givens: tuple[int, ...]  # row-major, 0 = empty

    def at(self, r: int, c: int) -> int:
        return self.givens[r * self.n + c]

    def with_cell(self, r: int, c: int, value: int) -> LatinSquare:
        cells = list(self.givens)
        cells[r * self.n + c] = value
        return LatinSquare(self.n, tuple(cells))


def _rows(values: tuple[int, ...], n: int) -> list[str]:
    return ["".join(str(v) if v else "." for v in values[r * n : (r + 1) * n]) for r in range(n)]


class LatinPlugin(PluginBase):
    meta = META  # declared in the package's __init__ (read without loading this module)

    def parse(self, text: str) -> LatinSquare:
        lines, skipped = body_lines(text)  # leading/trailing blank lines dropped, CRLF and BOM handled
        if not lines:
            raise ParseError("empty board")
        n = len(lines)
        if not 1 <= n <= MAX_SIZE:
            raise ParseError(f"board must be 1..{MAX_SIZE} rows, got {n}", skipped + 1)
        values: list[int] = []
        for r, line in enumerate((ln.strip() for ln in lines), start=skipped + 1):
            if len(line) != n:
                raise ParseError(f"row has {len(line)} cells, expected {n} (a square board)", r)
            for c, ch in enumerate(line, start=1):
                if ch in ".-0":
                    values.append(0)
                elif ch in DIGITS[1 : n + 1]:
                    values.append(int(ch))
                else:
                    raise ParseError(f"unexpected character {ch!r} (use . or 1..{n})", r, c)
        return LatinSquare(n, tuple(values))

    def serialize(self, puzzle: LatinSquare) -> str:
        return "\n".join(_rows(puzzle.givens, puzzle.n)) + "\n"

    def new_puzzle(self, rows: int | None = None, cols: int | None = None) -> LatinSquare:
        n = rows or 4
        # New's size box goes to 100: a 20x20 square was made, saved, and then refused on open.
        if not 1 <= n <= MAX_SIZE or (cols is not None and cols != n):
            raise InputError(f"a Latin square is square, 1..{MAX_SIZE}")
        return LatinSquare(n, (0,) * (n * n))

    def size_of(self, puzzle: LatinSquare) -> tuple[int, int]:
        return puzzle.n, puzzle.n

    def resize(self, puzzle: LatinSquare, rows: int, cols: int) -> LatinSquare:
        if rows != cols or not 1 <= rows <= MAX_SIZE:
            raise InputError(f"a Latin square is square, 1..{MAX_SIZE}")
        out = self.new_puzzle(rows, cols)
        for r in range(min(rows, puzzle.n)):
            for c in range(min(rows, puzzle.n)):
                v = puzzle.at(r, c)
                if v <= rows:
                    out = out.with_cell(r, c, v)
        return out

    def describe(self, puzzle: LatinSquare) -> str:
        return f"{puzzle.n}x{puzzle.n}, {sum(1 for v in puzzle.givens if v)} givens"

    # ---- rules ----------------------------------------------------------------------------------
    def empty_entries(self, puzzle: LatinSquare) -> tuple[int, ...]:
        return (0,) * (puzzle.n * puzzle.n)

    def entries_from_solution(self, puzzle: LatinSquare, solution: Solution) -> tuple[int, ...]:
        return tuple(int(ch) for row in solution.grid for ch in row)

    def check(self, puzzle: LatinSquare, entries: Any = None) -> CheckResult:
        n = puzzle.n
        filled = list(puzzle.givens)
        if entries is not None:
            for i, v in enumerate(entries):
                if v and not filled[i]:
                    filled[i] = v
        violations: list[Violation] = []
        lines = [[(r, c) for c in range(n)] for r in range(n)] + [
            [(r, c) for r in range(n)] for c in range(n)
        ]
        for cells in lines:
            seen: dict[int, list[tuple[int, int]]] = {}
            for r, c in cells:
                v = filled[r * n + c]
                if v:
                    seen.setdefault(v, []).append((r, c))
            for v, where in seen.items():
                if len(where) > 1:
                    violations.append(Violation("dupNumber", f"{v} appears twice in a line", tuple(where)))
        return CheckResult(all(filled), violations)

    # ---- solving --------------------------------------------------------------------------------
    def solve(
        self,
        puzzle: LatinSquare,
        *,
        limit: int | None = 2,
        cancel: CancelToken | None = None,
        progress: ProgressFn | None = None,
        info: dict[str, Any] | None = None,
    ) -> Iterator[Solution]:
        n = puzzle.n
        full = (1 << n) - 1
        rows = [0] * n
        cols = [0] * n
        grid = list(puzzle.givens)
        for i, v in enumerate(grid):
            if v:
                bit = 1 << (v - 1)
                r, c = divmod(i, n)
                if rows[r] & bit or cols[c] & bit:
                    return  # givens clash: no solution
                rows[r] |= bit
                cols[c] |= bit
        empty = [i for i, v in enumerate(grid) if not v]
        found = 0
        nodes = 0

        def search(k: int) -> Iterator[Solution]:
            nonlocal found, nodes
            nodes += 1
            if cancel is not None and nodes % 256 == 0:
                cancel.raise_if_cancelled()
            if k == len(empty):
                found += 1
                yield Solution(grid=_rows(tuple(grid), n), data=tuple(grid))
                return
            i = empty[k]
            r, c = divmod(i, n)
            free = full & ~(rows[r] | cols[c])
            while free:
                bit = free & -free
                free ^= bit
                grid[i] = bit.bit_length()
                rows[r] |= bit
                cols[c] |= bit
                yield from search(k + 1)
                rows[r] &= ~bit
                cols[c] &= ~bit
                grid[i] = 0

        for solution in search(0):
            yield solution
            if progress is not None:
                progress({"found": found, "nodes": nodes})
            if limit and found >= limit:
                return

    # ---- editing --------------------------------------------------------------------------------
    def puzzle_with_many_solutions(self) -> LatinSquare:
        return self.new_puzzle(5)  # a blank 5x5: 161,280 Latin squares

    def tools(self, puzzle: LatinSquare) -> list[Tool]:
        # No shortcuts: a typed digit writes into the cursor cell at once (``help_keys``); listed as
        # tool keys as well, the key help named each digit twice with two meanings.
        return [Tool(str(v), f"Digit {v}", mode="both") for v in range(1, puzzle.n + 1)] + [
            Tool("erase", "Erase", mode="both")
        ]

    def edit(self, puzzle: LatinSquare, entries: Any, event: EditEvent, ui: Any = None) -> EditResult | None:
        if event.cell is None or not (0 <= event.cell[0] < puzzle.n and 0 <= event.cell[1] < puzzle.n):
            return None  # off the board (or a stale cell from before a resize)
        r, c = event.cell
        value: int | None = None
        if event.kind == "press":
            if event.button == "right" or event.tool == "erase":
                value = 0
            elif event.tool in DIGITS[1 : puzzle.n + 1] or not event.tool:
                value = int(event.tool or "1")
        elif event.kind == "key":
            if len(event.key) == 1 and event.key in DIGITS[: puzzle.n + 1]:
                value = int(event.key)
            elif event.key in ("Delete", "Backspace", "Space"):
                value = 0
        if value is None:
            return None
        if event.mode == "edit":
            if puzzle.at(r, c) == value:
                return None
            return EditResult(puzzle=puzzle.with_cell(r, c, value), label=f"Set given at {cell_name(r, c)}")
        if puzzle.at(r, c):
            return None  # givens cannot be overwritten while playing
        current = list(entries if entries is not None else self.empty_entries(puzzle))
        if current[r * puzzle.n + c] == value:
            return None
        current[r * puzzle.n + c] = value
        return EditResult(entries=tuple(current), label=f"Enter {value or 'blank'} at {cell_name(r, c)}")

    # ---- drawing --------------------------------------------------------------------------------
    def draw(
        self,
        puzzle: LatinSquare,
        solution: Solution | None = None,
        entries: Any = None,
        overlay: Any = None,
        ui: Any = None,
    ) -> DisplayList:
        n = puzzle.n
        cell = 40.0
        margin = 8.0
        geom = GridGeometry(margin, margin, cell, n, n)
        dl = DisplayList(2 * margin + n * cell, 2 * margin + n * cell, grid=geom)
        dl.add(Rect(margin, margin, n * cell, n * cell, fill="cell"))
        errors: set[tuple[int, int]] = set()
        if entries is not None:
            for v in self.check(puzzle, entries).violations:
                errors.update(v.cells)
        for r, c in sorted(errors):
            dl.add(Rect(margin + c * cell, margin + r * cell, cell, cell, fill="error-fill"))
        dl.extend(grid_lines(geom))
        dl.add(Rect(margin, margin, n * cell, n * cell, stroke="wall", width=2.5))
        shown = solution.data if solution is not None else entries
        for r in range(n):
            for c in range(n):
                x, y = geom.center(r, c)
                if puzzle.at(r, c):
                    dl.add(Text(x, y, str(puzzle.at(r, c)), size=cell * 0.55, color="given", bold=True))
                elif shown is not None and shown[r * n + c]:
                    role = "solution" if solution is not None else "entry"
                    dl.add(Text(x, y, str(shown[r * n + c]), size=cell * 0.55, color=role))
        return dl

    # ---- help ---------------------------------------------------------------------------------
    def help_answer(self) -> DisplayList | None:
        return self.solved_help_diagram()

    def help_rules(self) -> str:
        return (
            "Fill the grid so that every row and every column holds each number from 1 to n exactly "
            "once. Given numbers cannot be changed."
        )

    def help_keys(self) -> list[tuple[str, str]]:
        return [
            ("Click with a digit tool", "write that digit (a given in Edit mode, an entry in Play mode)"),
            ("1 ... n", "write that digit in the cursor cell"),
            ("0", "erase the cursor cell"),
        ]


PLUGIN = LatinPlugin()
