"""The 18 tile faces of Nine Tiles Panic, loaded from ``assets/ninetiles/tiles.json``.

Faces are numbered ``2 * tile + side`` (side 0 = front, 1 = back). Local edges: 0 top, 1 left,
2 bottom, 3 right; a face turned ``k`` quarter turns counter-clockwise maps edge ``e`` to
``(e + k) % 4`` (road ends and figure facings alike).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

import numpy as np

from solvers.common.protocol import ASSETS

NONE, HAMBURGER, AGENT, ALIEN = 0, 1, 2, 3
KIND_NAMES = {HAMBURGER: "hamburger", AGENT: "agent", ALIEN: "alien"}
COUNT_KEYS = ("dogs", "girls", "boys", "houses", "ufos", "agents_off_road", "aliens_off_road_captured")

# Road-shape classes (the reference's "road synonyms").
NO_ROAD, ONE_CURVE, TWO_CURVES, ONE_STRAIGHT, TWO_STRAIGHTS = range(5)
SHAPE_NAMES = ("no road", "one curve", "two curves", "one straight", "two straights")


@dataclass(frozen=True)
class Segment:
    """One road piece on a face: joins edges ``a`` and ``b``; optional object looking at ``facing``."""

    a: int
    b: int
    kind: int = NONE
    facing: int = -1  # edge the agent/alien looks toward, -1 for none/hamburger

    @property
    def curved(self) -> bool:
        return (self.a - self.b) % 2 == 1

    def rotated(self, k: int) -> Segment:
        facing = -1 if self.facing < 0 else (self.facing + k) % 4
        return Segment((self.a + k) % 4, (self.b + k) % 4, self.kind, facing)


@dataclass(frozen=True)
class Face:
    index: int  # 2 * tile + side
    segments: tuple[Segment, ...]
    dogs: int = 0
    girls: int = 0
    boys: int = 0
    houses: int = 0
    ufos: int = 0
    agents_off_road: int = 0
    aliens_off_road_captured: int = 0

    @property
    def tile(self) -> int:
        return self.index // 2

    @property
    def side(self) -> int:
        return self.index % 2

    @property
    def name(self) -> str:
        return f"{self.tile}{'FB'[self.side]}"

    @property
    def shape_class(self) -> int:
        n = len(self.segments)
        if n == 0:
            return NO_ROAD
        curved = self.segments[0].curved
        return (
            (ONE_CURVE if curved else ONE_STRAIGHT) if n == 1 else (TWO_CURVES if curved else TWO_STRAIGHTS)
        )

    def count(self, kind: int) -> int:
        return sum(1 for s in self.segments if s.kind == kind)

    def rotated_segments(self, k: int) -> tuple[Segment, ...]:
        return tuple(s.rotated(k) for s in self.segments)

    def edge_mask(self, k: int = 0) -> int:
        mask = 0
        for s in self.rotated_segments(k):
            mask |= (1 << s.a) | (1 << s.b)
        return mask


def _parse_segment(text: str) -> Segment:
    parts = text.split()
    ends = parts[0]
    kind, facing = NONE, -1
    if len(parts) > 1:
        obj = parts[1]
        if obj == "H":
            kind = HAMBURGER
        elif obj.startswith("Ag>"):
            kind, facing = AGENT, int(obj[3:])
        elif obj.startswith("Al>"):
            kind, facing = ALIEN, int(obj[3:])
        else:
            raise ValueError(f"tiles.json: unknown object {obj!r}")
    return Segment(int(ends[0]), int(ends[1]), kind, facing)


@cache
def faces() -> tuple[Face, ...]:
    """All 18 faces, index ``2 * tile + side``."""
    doc = json.loads((ASSETS / "ninetiles" / "tiles.json").read_text(encoding="utf-8"))
    out: list[Face] = []
    for i, entry in enumerate(doc["faces"]):
        name = entry["face"]
        if name != f"{i // 2}{'FB'[i % 2]}":
            raise ValueError(f"tiles.json: face {i} is {name!r}")
        segs = tuple(_parse_segment(r) for r in entry["roads"])
        counts = {k: int(entry.get(k, 0)) for k in COUNT_KEYS}
        out.append(Face(i, segs, **counts))
    return tuple(out)


def face(tile: int, side: int) -> Face:
    return faces()[2 * tile + side]


def distinct_digits(tile: int) -> tuple[int, ...]:
    """Direction digits of ``tile`` that give pairwise different pictures (first of each kind)."""
    seen: set[tuple[int, tuple[tuple[int, int, int, int], ...]]] = set()
    keep: list[int] = []
    for d in range(8):
        f = face(tile, d // 4)
        picture = tuple(
            sorted((min(s.a, s.b), max(s.a, s.b), s.kind, s.facing) for s in f.rotated_segments(d % 4))
        )
        if (f.index, picture) not in seen:
            seen.add((f.index, picture))
            keep.append(d)
    return tuple(keep)


# ---- numeric tables for the numba kernels ---------------------------------------------------------
# FACE_FEATURES columns
F_DOGS, F_GIRLS, F_BOYS, F_HOUSES, F_UFOS, F_AGENTS, F_NETTED, F_CURVES, F_NOROAD = range(9)
F_HAS_DOG, F_HAS_ALIEN, F_HAS_CITIZEN, F_HAS_HOUSE, F_HAMBURGERS = range(9, 14)
N_FEATURES = 14


@cache
def face_features() -> np.ndarray:
    """int32[18, N_FEATURES] of per-face counts and flags used by the face/shape themes."""
    table = np.zeros((18, N_FEATURES), dtype=np.int32)
    for f in faces():
        row = table[f.index]
        row[F_DOGS], row[F_GIRLS], row[F_BOYS] = f.dogs, f.girls, f.boys
        row[F_HOUSES], row[F_UFOS] = f.houses, f.ufos
        row[F_AGENTS] = f.count(AGENT) + f.agents_off_road
        row[F_NETTED] = f.aliens_off_road_captured
        row[F_CURVES] = sum(1 for s in f.segments if s.curved)
        row[F_NOROAD] = 1 if not f.segments else 0
        row[F_HAS_DOG] = 1 if f.dogs else 0
        row[F_HAS_ALIEN] = 1 if (f.count(ALIEN) or f.aliens_off_road_captured) else 0
        row[F_HAS_CITIZEN] = 1 if (f.girls or f.boys) else 0
        row[F_HAS_HOUSE] = 1 if f.houses else 0
        row[F_HAMBURGERS] = f.count(HAMBURGER)
    return table
