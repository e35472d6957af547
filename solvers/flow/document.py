"""Saved documents (the puzzle plus the player's pipes) and keeping pipes when the givens change.

A document is the plain puzzle text, optionally followed by the pipes drawn so far::

    R.G
    ...
    R.G
    # paths (row,column from 0, in drawing order)
    R 0,0 1,0 2,0

A file without the ``#`` section is an ordinary puzzle file.
"""

from __future__ import annotations

from solvers.common.errors import ParseError
from solvers.flow import codec
from solvers.flow.model import EMPTY, LETTERS, Cell, FlowPaths, FlowPuzzle

HEADER = "# paths (row,column from 0, in drawing order)"


def parse_document(text: str) -> tuple[FlowPuzzle, FlowPaths | None]:
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    split = next((i for i, ln in enumerate(lines) if ln.strip().startswith("#")), None)
    if split is None:
        return codec.parse(text), None
    puzzle = codec.parse("\n".join(lines[:split]))
    paths: dict[str, list[Cell]] = {}
    for number, ln in enumerate(lines[split + 1 :], start=split + 2):
        tokens = ln.split()
        if not tokens or tokens[0].startswith("#"):
            continue
        letter = tokens[0]
        if len(letter) != 1 or letter not in LETTERS:
            raise ParseError(f"expected a colour letter, got {letter!r}", number, ln.index(letter) + 1)
        if letter in paths:
            raise ParseError(f"second path for colour {letter}", number, 1)
        cells: list[Cell] = []
        for token in tokens[1:]:
            column = ln.index(token) + 1
            try:
                r, c = (int(x) for x in token.split(","))
            except ValueError:
                raise ParseError(f"expected row,column, got {token!r}", number, column) from None
            if not puzzle.inside(r, c):
                raise ParseError(
                    f"cell {r},{c} is outside the {puzzle.rows}x{puzzle.cols} board", number, column
                )
            cells.append((r, c))
        paths[letter] = cells
    return puzzle, FlowPaths.from_dict(paths)


def serialize_document(puzzle: FlowPuzzle, entries: FlowPaths | None) -> str:
    text = codec.serialize(puzzle)
    drawn = [(ch, path) for ch, path in (entries.items if entries is not None else ()) if path]
    if not drawn:
        return text
    body = "\n".join(f"{ch} " + " ".join(f"{r},{c}" for r, c in path) for ch, path in drawn)
    return f"{text}{HEADER}\n{body}\n"


def adapt_entries(puzzle: FlowPuzzle, entries: FlowPaths | None) -> FlowPaths:
    """Keep each pipe up to the first cell that no longer fits the new givens."""
    if entries is None:
        return FlowPaths()
    endpoints = puzzle.endpoints()
    kept: dict[str, list[Cell]] = {}
    for ch, path in entries.items:
        if ch not in endpoints or not path or path[0] not in endpoints[ch]:
            continue
        good = [path[0]]
        for cell in path[1:]:
            last = good[-1]
            if not puzzle.inside(*cell) or abs(last[0] - cell[0]) + abs(last[1] - cell[1]) != 1:
                break
            mark = puzzle.at(*cell)
            if mark not in (EMPTY, ch) or cell in good:
                break
            good.append(cell)
            if mark == ch:
                break  # reached the other endpoint
        kept[ch] = good
    return FlowPaths.from_dict(kept)
