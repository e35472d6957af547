"""Set-up rules of a Tokyo Doves position, shared by the plug-in, the panel and the module CLI.

Kept apart from ``plugin.py`` so the CLI needs no import of the plug-in (which imports the CLI).
"""

from __future__ import annotations

from solvers.common import words
from solvers.common.protocol import Violation
from solvers.doves.model import COLOUR_NAMES, Position, dove_name
from solvers.doves.rules import surrounded


def isolated_doves(position: Position) -> tuple[int, ...]:
    at = position.at()
    return tuple(
        i
        for i, (r, c) in position.cells().items()
        if not any((r + dr, c + dc) in at for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    )


def outside_game(position: Position) -> Violation | None:
    """The doves on the table that a reduced game (``rules: doves=...``) leaves out, as one problem.

    Such a set-up is no position of that game: the search moved the extra doves as if in play and a
    file with ``doves=M/T`` over the full game's doves was answered "Win(3)" (QA pass 8)."""
    in_game = position.rules.hand
    cells = position.cells()
    outside = [i for i in cells if not in_game >> i & 1]
    if not outside:
        return None
    names = words.listed([dove_name(i) for i in outside])
    return Violation(
        "outsideGame",
        f"the board holds {names}, outside the game doves={position.rules.doves_text()}",
        tuple(cells[i] for i in outside),
    )


def arrangement_problems(position: Position) -> list[Violation]:
    """Rule problems of a set-up position (the parser already ensures both Bosses and the 4x4 bound)."""
    outside = outside_game(position)
    if outside is not None:
        return [outside]
    problems = []
    cells = position.cells()
    for i in isolated_doves(position):
        problems.append(Violation("isolatedDove", f"{dove_name(i)} touches no other dove", (cells[i],)))
    if not problems:
        red, green = surrounded(position)
        for colour, flag in ((0, red), (1, green)):
            if flag:
                problems.append(
                    Violation(
                        "bossSurrounded",
                        f"the {COLOUR_NAMES[colour]} Boss is surrounded: the game is over",
                        (cells[colour],),
                    )
                )
    return problems
