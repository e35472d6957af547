"""Answer check with pzprjs' failure codes, in pzprjs' order (url_format.md §3).

A "?" given counts as its country's arrow. Without an entered direction it can never pair (as in
pzprjs); with an entered direction (our extension: "an arrow of unknown direction") it acts as
that arrow.
"""

from __future__ import annotations

from solvers.common.protocol import CheckResult, Violation
from solvers.toichika.model import DELTA, DIRECTIONS, NONE, OPPOSITE, Entries, Toichika, arrows_of

MESSAGES = {
    "bkNumGe2": "A country has more than one arrow.",
    "arAdjPair": "There are paired arrows in adjacent countries.",
    "arAlone": "An arrow finds no partner in its direction.",
    "bkNoNum": "A country has no arrow.",
}
MESSAGES_JA = {
    "bkNumGe2": "1つの国に2つ以上の矢印が入っています。",
    "arAdjPair": "辺を共有する国にペアとなる矢印が入っています。",
    "arAlone": "矢印の先にペアとなる矢印がいません。",
    "bkNoNum": "国に矢印が入っていません。",
}
ORDER = ("bkNumGe2", "arAdjPair", "arAlone", "bkNoNum")


def pair_info(puzzle: Toichika, arrows: list[int]) -> tuple[list[tuple[int, int]], list[int]]:
    """Walk from every arrow: (pairs as (this, partner) per arrow that pairs, alone arrow cells)."""
    pairs: list[tuple[int, int]] = []
    alone: list[int] = []
    rows, cols = puzzle.rows, puzzle.cols
    for i, a in enumerate(arrows):
        if a == NONE:
            continue
        if a not in DIRECTIONS:  # "?" without a direction never pairs
            alone.append(i)
            continue
        dr, dc = DELTA[a]
        r, c = divmod(i, cols)
        while True:
            r, c = r + dr, c + dc
            if not (0 <= r < rows and 0 <= c < cols):
                alone.append(i)
                break
            b = arrows[r * cols + c]
            if b == NONE:
                continue
            if b == OPPOSITE[a]:
                pairs.append((i, r * cols + c))
            else:
                alone.append(i)
            break
    return pairs, alone


def check(puzzle: Toichika, entries: Entries | None = None) -> CheckResult:
    arrows = arrows_of(puzzle, entries)
    cell = puzzle.cell
    found: dict[str, list[Violation]] = {code: [] for code in ORDER}
    counts = [0] * len(puzzle.regions)
    for i, a in enumerate(arrows):
        if a != NONE:
            counts[puzzle.region_of[i]] += 1
    for reg, cells in enumerate(puzzle.regions):
        if counts[reg] >= 2:
            found["bkNumGe2"].append(
                Violation("bkNumGe2", MESSAGES["bkNumGe2"], tuple(cell(i) for i in cells))
            )
        elif counts[reg] == 0:
            found["bkNoNum"].append(Violation("bkNoNum", MESSAGES["bkNoNum"], tuple(cell(i) for i in cells)))
    pairs, alone = pair_info(puzzle, arrows)
    region = puzzle.region_of
    for i, j in pairs:
        if i < j and not puzzle.can_pair_regions(region[i], region[j]) and region[i] != region[j]:
            both = puzzle.regions[region[i]] + puzzle.regions[region[j]]
            found["arAdjPair"].append(
                Violation("arAdjPair", MESSAGES["arAdjPair"], tuple(cell(k) for k in both))
            )
    for i in alone:
        found["arAlone"].append(Violation("arAlone", MESSAGES["arAlone"], (cell(i),)))
    violations = [v for code in ORDER for v in found[code]]
    return CheckResult(complete=not found["bkNoNum"], violations=violations)
