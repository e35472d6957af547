"""Files of many puzzles (Flow Free level packs, 'W H' collections) for File > Open: a line per
puzzle to choose from, and the chosen one. One puzzle per file (every other form) gives none."""

from __future__ import annotations

import functools
from dataclasses import replace

from solvers.common.errors import InputError, ParseError
from solvers.common.limits import normalise
from solvers.flow import levelpack, sized
from solvers.flow.model import FlowPuzzle

MAX_LISTED = 10_000  # a chooser longer than this is no help; the rest stays for flow split


def read_all(text: str) -> list[tuple[str, int, FlowPuzzle | ParseError]]:
    """(what, line, puzzle or error) per puzzle of a level pack or a 'W H' file, however many;
    an InputError for any other text."""
    norm = normalise(text).lstrip("\ufeff")
    if levelpack.looks_like(norm):
        return [
            (f"level {lv.number}" if not isinstance(lv, ParseError) else "level", line, _puzzle_of(lv))
            for line, lv in levelpack.read_each(norm)
        ]
    if sized.looks_like(norm) or sized.looks_like_spaced(norm):
        return [(f"puzzle {k}", line, p) for k, (line, p) in enumerate(sized.read_each(norm), start=1)]
    raise InputError("not a file of several puzzles: a Flow Free level pack or 'W H' puzzles are expected")


@functools.lru_cache(maxsize=2)
def _each(text: str) -> list[tuple[str, int, FlowPuzzle | ParseError]]:
    """``read_all`` for a file of several puzzles; empty for one puzzle (or any other form).
    Kept for the last texts: File > Open lists a pack (``labels``) and then reads the chosen
    puzzle of the same text (``puzzle_at``), and every level is checked by its own answer (a
    100,000-level pack takes seconds). Callers do not change the list."""
    try:
        read = read_all(text)
    except InputError:  # not that form after all (or broken as a whole): opened as one puzzle
        return []
    return read if len(read) > 1 else []


def _puzzle_of(level: levelpack.Level | ParseError) -> FlowPuzzle | ParseError:
    return level if isinstance(level, ParseError) else level.puzzle


def labels(text: str) -> list[str]:
    out = []
    for what, line, found in _each(text)[:MAX_LISTED]:
        if isinstance(found, ParseError):
            out.append(f"line {line}: cannot be opened ({found.message})")
        else:
            words = ", ".join(
                [f"{found.cols}x{found.rows}", f"{len(found.colours)} pairs", *found.variant_words()]
            )
            out.append(f"{what.capitalize()} (line {line}): {words}")
    return out


def puzzle_at(text: str, index: int) -> FlowPuzzle:
    found = _each(text)
    if not 0 <= index < len(found):
        raise InputError(f"no puzzle {index + 1} in this file (it holds {len(found)})")
    what, _, puzzle = found[index]
    if isinstance(puzzle, ParseError):
        raise puzzle
    readable = sum(not isinstance(item, ParseError) for _, _, item in found)
    refused = len(found) - readable  # listed in the chooser, but no puzzle: not counted as one
    more = f" ({refused} more cannot be read)" if refused else ""
    return replace(puzzle, notes=(f"{what} of {readable} in the file{more}",))
