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

import re

from solvers.common.errors import ParseError
from solvers.common.limits import is_ascii_digits, shown
from solvers.flow import codec, pzpr
from solvers.flow.model import BRIDGE, EMPTY, Cell, FlowPaths, FlowPuzzle, is_label

HEADER = "# paths (row,column from 0, in drawing order)"
_TOKEN = re.compile(r"\S+")
# The paths section starts at a comment line: '#', blanks, a word, or a bare '#'. A board row may
# start with '#' (a hole), also spaced ("# . A"), but never with a word of two or more letters (a
# bare '#' row would be a one-column board with a hole: given up for old files' bare headers).
_COMMENT = re.compile(r"^[^\S\n]*#[^\S\n]+[A-Za-z]{2,}", re.MULTILINE)
# Old documents began the paths section with a bare '#' line; on a one-column board with holes
# such a line is also a board row, so it counts as the header only if the text is no board.
_BARE = re.compile(r"^[^\S\n]*#[^\S\n]*$", re.MULTILINE)
_NONBLANK = re.compile(r"^[^\n]*\S[^\n]*$", re.MULTILINE)
_MAX_PATH_LINES = 2000  # up to 1,000 colours and some comments; bounds the work on hostile files
_MAX_LINE = 8 * 200 * 200  # a path of every cell of the largest board, written "199,199 "


def parse_document(text: str) -> tuple[FlowPuzzle, FlowPaths | None]:
    norm = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    form = codec.foreign_form(norm)
    if form == "pzprv3":  # its lines drawn are the player's pipes
        return pzpr.read_pzprv3(norm)
    in_url = pzpr.read_pzprv3_url(norm) if form == "puzz.link URL" else None
    if in_url is not None:  # a pzprv3 text in a URL: its lines too
        return in_url
    if form is not None:  # (a level pack's answer is not the player's: it opens without)
        return codec.parse(norm), None
    hash_at = _COMMENT.search(norm) or _bare_header(norm)
    # A document may hold a board the setter has not finished (one endpoint of a colour so far):
    # saving it must never give a file that cannot be opened again.
    if hash_at is None:
        return codec.parse(norm, complete=False), None
    start = norm.rfind("\n", 0, hash_at.start()) + 1  # the '#' line begins here
    split = norm.count("\n", 0, start)  # its 0-based line index
    puzzle = codec.parse(norm[:start], complete=False)
    paths: dict[str, list[Cell]] = {}
    section = norm[start:]
    first_nl = section.find("\n")
    rest = "" if first_nl < 0 else section[first_nl + 1 :]
    number = split + 2  # line number of ``rest``'s first line
    pos = 0
    for seen, found in enumerate(_NONBLANK.finditer(rest)):
        if seen == _MAX_PATH_LINES:
            raise ParseError(f"more than {_MAX_PATH_LINES} lines after the paths header", number)
        number += rest.count("\n", pos, found.start())
        pos = found.start()
        ln = found.group()
        tokens = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(ln, 0, _MAX_LINE)]
        if not tokens or tokens[0][0].startswith("#"):
            continue
        if len(ln) >= _MAX_LINE:
            raise ParseError("path line is too long", number, _MAX_LINE)
        letter, column = tokens[0]
        if not is_label(letter):
            raise ParseError(f"expected a colour letter or number, got {shown(letter)}", number, column)
        if letter in paths:
            raise ParseError(f"second path for colour {letter}", number, 1)
        if len(tokens) - 1 > puzzle.rows * puzzle.cols:
            raise ParseError(f"path {letter} has more cells than the board", number, column)
        cells: list[Cell] = []
        for token, column in tokens[1:]:
            r_text, comma, c_text = token.partition(",")
            if not comma or not is_ascii_digits(r_text) or not is_ascii_digits(c_text) or len(token) > 12:
                raise ParseError(f"expected row,column, got {shown(token)}", number, column)
            r, c = int(r_text), int(c_text)
            if not puzzle.is_cell(r, c):
                raise ParseError(
                    f"cell {r},{c} is outside the {puzzle.rows}x{puzzle.cols} board (or a hole)",
                    number,
                    column,
                )
            cells.append((r, c))
        paths[letter] = cells
    return puzzle, FlowPaths.from_dict(paths)


def _bare_header(norm: str) -> re.Match[str] | None:
    bare = _BARE.search(norm)
    if bare is None:
        return None
    try:
        codec.parse(norm, complete=False)
    except ParseError:
        return bare
    return None


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
            if not puzzle.is_cell(*cell) or not puzzle.adjacent(last, cell):
                break
            mark = puzzle.at(*cell)
            if mark not in (EMPTY, BRIDGE, ch) or (cell in good and mark != BRIDGE):
                break
            good.append(cell)
            if mark == ch:
                break  # reached the other endpoint
        kept[ch] = good
    return FlowPaths.from_dict(kept)
