"""What an importer read from a picture, for the user to confirm or correct before it becomes a
document (the GUI draws the marks over the picture; no Qt here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Mark kinds: "grid" (a grid line), "wall" (a thick wall bar), both from (x1, y1) to (x2, y2);
# "dot" (an endpoint: centre x, y and radius), "hole" (a missing cell: x, y, width, height; or,
# with more than four numbers, the corners x1, y1, x2, y2, ... of a missing hexagon),
# "bridge" (a cell two lanes cross: x, y, width, height).
MARK_KINDS = ("grid", "wall", "dot", "hole", "bridge")


@dataclass(frozen=True)
class Mark:
    """One thing read from the picture, in the review image's pixels."""

    kind: str
    geometry: tuple[float, ...]
    colour: str = "#ffffff"  # "#rrggbb": a dot's measured colour
    label: str = ""  # a dot's letter
    alert: bool = False  # this mark is part of what looks wrong (a colour without its pair)


@dataclass(frozen=True)
class ImportReview:
    """A picture as read. ``image`` is an RGB uint8 array (height x width x 3), shrunk for showing;
    ``puzzle`` is the board read (``None`` when no grid was found: nothing to correct);
    ``ok`` says whether it may be used as it is; ``summary`` says what was read or, when not ok,
    what looks wrong; ``notes`` are what was read but not kept (pipes drawn on the board)."""

    name: str
    image: Any
    puzzle: Any
    ok: bool
    summary: str
    notes: tuple[str, ...] = ()
    marks: tuple[Mark, ...] = ()
