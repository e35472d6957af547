"""User-facing words shared by the CLI and the GUI: plurals and the one meaning of "check".

One rule for every module: unfinished is not broken. A check is "broken" when a rule is broken
(exit 1 in the CLI), "incomplete" when nothing is broken yet but the grid or game is not done,
and "complete" when it is done and correct. Cells are shown 1-based as (row,column).
"""

from __future__ import annotations

import re

from solvers.common.protocol import CheckResult


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 country', '2 countries', '1 endpoint', '3 endpoints'."""
    if count == 1:
        return f"1 {word}"
    if many is None:
        many = word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
    return f"{count} {many}"


def listed(items: list[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (``last``: the word before the last item, e.g. "or")."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} {items[-1]}"


def cell_name(r: int, c: int) -> str:
    """A cell as every message names it: 1-based row and column, 'R1C1' for the top-left cell."""
    return f"R{r + 1}C{c + 1}"


def cells_text(cells: tuple[tuple[int, int], ...] | list[tuple[int, int]], limit: int = 8) -> str:
    """'R1C2 R3C4': the way the board's status line names cells."""
    shown = " ".join(cell_name(r, c) for r, c in list(cells)[:limit])
    return shown + (" …" if len(cells) > limit else "")


def check_status(result: CheckResult) -> str:
    """'broken', 'incomplete' or 'complete'."""
    if result.violations:
        return "broken"
    return "complete" if result.complete else "incomplete"


def check_text(result: CheckResult) -> str:
    """One readable line: the first broken rule and where, or how far the entries are."""
    status = check_status(result)
    if status == "broken":
        v = result.violations[0]
        where = cells_text(v.cells) if v.cells and isinstance(v.cells[0], tuple) else ""
        more = len(result.violations) - 1
        extra = f" (and {plural(more, 'more problem')})" if more else ""
        message = v.message.rstrip(".") if where else v.message  # not "... an arrow. at R1C1"
        if re.match(r"[A-Z][a-z]|A ", message):  # mid-sentence after "broken: " (not "R1C1 ...")
            message = message[0].lower() + message[1:]
        return f"broken: {message}" + (f" at {where}" if where else "") + extra
    if status == "complete":
        return "complete: every rule holds"
    return "incomplete: no rule broken so far"
