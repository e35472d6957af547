"""Vector tile art: roads as thick strokes, objects as small symbolic icons with a facing mark.

Everything is computed in a tile's upright unit frame (0..1, y down) and then turned and scaled into
place, so a rotated tile is drawn exactly like the physical one turned on the table.
"""

from __future__ import annotations

import math
from functools import lru_cache

from solvers.common.display import Circle, Item, Line, Polyline, Rect, Text
from solvers.ninetiles.tiles import AGENT, ALIEN, HAMBURGER, Face, Segment

Pt = tuple[float, float]

EDGE_MID: dict[int, Pt] = {0: (0.5, 0.0), 1: (0.0, 0.5), 2: (0.5, 1.0), 3: (1.0, 0.5)}
CORNER: dict[frozenset[int], Pt] = {
    frozenset({0, 1}): (0.0, 0.0),
    frozenset({1, 2}): (0.0, 1.0),
    frozenset({2, 3}): (1.0, 1.0),
    frozenset({0, 3}): (1.0, 0.0),
}
GRASS = "#dfeccf"
ROAD = "#8d949e"
ROAD_EDGE = "#5f666f"
ROAD_MARK = "#f4f4f4"


def segment_path(s: Segment, steps: int = 10) -> list[Pt]:
    """Points from edge ``s.a`` to edge ``s.b`` (quarter circle around the corner for a curve)."""
    a, b = EDGE_MID[s.a], EDGE_MID[s.b]
    if not s.curved:
        return [a, b]
    cx, cy = CORNER[frozenset({s.a, s.b})]
    a0 = math.atan2(a[1] - cy, a[0] - cx)
    a1 = math.atan2(b[1] - cy, b[0] - cx)
    if a1 - a0 > math.pi:
        a1 -= 2 * math.pi
    elif a0 - a1 > math.pi:
        a1 += 2 * math.pi
    return [
        (cx + 0.5 * math.cos(a0 + (a1 - a0) * i / steps), cy + 0.5 * math.sin(a0 + (a1 - a0) * i / steps))
        for i in range(steps + 1)
    ]


def _rot(pt: Pt, k: int) -> Pt:
    """Turn a unit-frame point k quarter turns counter-clockwise about the tile centre."""
    x, y = pt
    for _ in range(k % 4):
        x, y = y, 1.0 - x  # CCW on screen (y down): top edge goes to the left edge
    return x, y


class TilePainter:
    """Emits display items for one face at (x, y) with side ``size``, turned ``k`` quarter turns."""

    def __init__(self, x: float, y: float, size: float, k: int) -> None:
        self.x, self.y, self.size, self.k = x, y, size, k

    def pt(self, p: Pt) -> Pt:
        u, v = _rot(p, self.k)
        return (self.x + u * self.size, self.y + v * self.size)

    def draw(self, face: Face, highlight_segments: frozenset[int] = frozenset()) -> list[Item]:
        return list(_drawn(self.x, self.y, self.size, self.k, face, frozenset(highlight_segments)))

    def _draw(self, face: Face, highlight_segments: frozenset[int]) -> list[Item]:
        s = self.size
        items: list[Item] = [Rect(self.x, self.y, s, s, fill=GRASS, stroke="grid", width=max(0.5, s * 0.01))]
        # off-road items first (under the roads), in spots away from the roads
        items += self._off_road(face)
        order = list(range(len(face.segments)))
        for j in order:
            seg = face.segments[j]
            path = tuple(self.pt(p) for p in segment_path(seg))
            bridge = len(face.segments) == 2 and not seg.curved and j == 1
            if bridge:  # the second straight passes over the first: draw its kerbs
                items.append(Polyline(path, ROAD_EDGE, s * 0.30, cap="flat"))
            items.append(Polyline(path, ROAD, s * 0.22, cap="flat"))
            if j in highlight_segments:
                items.append(Polyline(path, "highlight", s * 0.22, cap="flat"))
            items.append(Polyline(path, ROAD_MARK, s * 0.015, cap="flat"))
        crossing = face.shape_class == 4  # objects keep off the crossing point
        for seg in face.segments:
            if seg.kind:
                items += self._object(seg, 0.25 if crossing else 0.5)
        return items

    # ---- objects on roads ------------------------------------------------------------------------
    def _object(self, seg: Segment, along: float) -> list[Item]:
        path = segment_path(seg)
        if seg.curved:
            mid = path[len(path) // 2]
        else:
            (ax, ay), (bx, by) = path
            mid = (ax + (bx - ax) * along, ay + (by - ay) * along)
        cx, cy = self.pt(mid)
        r = self.size * 0.1
        if seg.kind == HAMBURGER:
            w = r * 2.0
            return [
                Rect(
                    cx - w / 2,
                    cy - r * 0.9,
                    w,
                    r * 0.8,
                    fill="#d9a14a",
                    stroke="#7a4b12",
                    width=r * 0.12,
                    radius=r * 0.4,
                ),
                Rect(cx - w / 2, cy - r * 0.15, w, r * 0.35, fill="#5b3210"),
                Rect(cx - w / 2 - r * 0.1, cy + r * 0.18, w + r * 0.2, r * 0.14, fill="#4caf50"),
                Rect(
                    cx - w / 2,
                    cy + r * 0.35,
                    w,
                    r * 0.55,
                    fill="#d9a14a",
                    stroke="#7a4b12",
                    width=r * 0.12,
                    radius=r * 0.25,
                ),
            ]
        # facing: unit vector toward the edge the figure looks at, along the road
        fx, fy = self.pt(EDGE_MID[seg.facing])
        if seg.curved:
            near = path[len(path) // 2 + (2 if seg.facing == seg.b else -2)]
            fx, fy = self.pt(near)
        dx, dy = fx - cx, fy - cy
        norm = math.hypot(dx, dy) or 1.0
        dx, dy = dx / norm, dy / norm
        tip = (cx + dx * r * 1.9, cy + dy * r * 1.9)
        left = (cx + dx * r * 1.05 - dy * r * 0.7, cy + dy * r * 1.05 + dx * r * 0.7)
        right = (cx + dx * r * 1.05 + dy * r * 0.7, cy + dy * r * 1.05 - dx * r * 0.7)
        arrow = Polyline((left, tip, right), "#1b1b1f", r * 0.25, closed=True, fill="#ffd23f")
        if seg.kind == AGENT:
            return [
                arrow,
                Circle(cx, cy, r, fill="#23262b", stroke="#000000", width=r * 0.12),
                Rect(
                    cx - r * 0.6, cy - r * 0.22, r * 1.2, r * 0.36, fill="#111111", radius=r * 0.15
                ),  # sunglasses
            ]
        assert seg.kind == ALIEN
        ex, ey = dx * r * 0.45, dy * r * 0.45
        return [
            arrow,
            Circle(cx, cy, r, fill="#7bd389", stroke="#1e6b34", width=r * 0.12),
            Circle(
                cx + ex - dy * r * 0.35,
                cy + ey + dx * r * 0.35,
                r * 0.22,
                fill="#ffffff",
                stroke="#1b1b1f",
                width=r * 0.08,
            ),
            Circle(
                cx + ex + dy * r * 0.35,
                cy + ey - dx * r * 0.35,
                r * 0.22,
                fill="#ffffff",
                stroke="#1b1b1f",
                width=r * 0.08,
            ),
        ]

    # ---- off-road items ----------------------------------------------------------------------------
    def _spots(self, face: Face) -> list[Pt]:
        candidates = [
            (0.2, 0.2),
            (0.8, 0.8),
            (0.8, 0.2),
            (0.2, 0.8),
            (0.5, 0.5),
            (0.5, 0.2),
            (0.2, 0.5),
            (0.8, 0.5),
            (0.5, 0.8),
        ]
        paths = [segment_path(s, 16) for s in face.segments]

        def clear(p: Pt) -> float:
            best = 9.0
            for path in paths:
                for q in path:
                    best = min(best, math.hypot(p[0] - q[0], p[1] - q[1]))
            return best

        def under_label(p: Pt) -> bool:
            # the tile's name ("5F") sits in the screen's top-left corner whatever the turn
            sx, sy = self.pt(p)
            return sx - self.x < 0.35 * self.size and sy - self.y < 0.35 * self.size

        free = [p for p in candidates if clear(p) > 0.2]
        order = free + [p for p in candidates if p not in free]
        return [p for p in order if not under_label(p)] + [p for p in order if under_label(p)]

    def _off_road(self, face: Face) -> list[Item]:
        wanted: list[str] = (
            ["house"] * face.houses
            + ["ufo"] * face.ufos
            + ["dog"] * face.dogs
            + ["girl"] * face.girls
            + ["boy"] * face.boys
            + ["netted"] * face.agents_off_road
        )
        items: list[Item] = []
        for what, spot in zip(wanted, self._spots(face), strict=False):
            cx, cy = self.pt(spot)
            items += ICONS[what](cx, cy, self.size * 0.11)
        return items


@lru_cache(maxsize=512)
def _drawn(
    x: float, y: float, size: float, k: int, face: Face, highlight: frozenset[int]
) -> tuple[Item, ...]:
    """One tile's items, remembered: every edit, hover and drag preview redraws the same few
    dozen tiles (the items are immutable, so sharing them is safe)."""
    return tuple(TilePainter(x, y, size, k)._draw(face, highlight))


def _house(cx: float, cy: float, r: float) -> list[Item]:
    return [
        Rect(cx - r * 0.8, cy - r * 0.1, r * 1.6, r * 1.0, fill="#f2e6c9", stroke="#6b4f2a", width=r * 0.12),
        Polyline(
            ((cx - r * 1.05, cy - r * 0.05), (cx, cy - r * 1.0), (cx + r * 1.05, cy - r * 0.05)),
            "#7a1f16",
            r * 0.12,
            closed=True,
            fill="#c0392b",
        ),
        Rect(cx - r * 0.2, cy + r * 0.35, r * 0.4, r * 0.55, fill="#6b4f2a"),
    ]


def _ufo(cx: float, cy: float, r: float) -> list[Item]:
    ring = tuple(
        (cx + r * 1.2 * math.cos(a * math.pi / 8), cy + r * 0.45 * math.sin(a * math.pi / 8))
        for a in range(16)
    )
    return [
        Circle(cx, cy - r * 0.25, r * 0.55, fill="#a8d8ff", stroke="#2b5d8a", width=r * 0.1),
        Polyline(ring, "#2b5d8a", r * 0.1, closed=True, fill="#9aa6b2"),
        Circle(cx - r * 0.6, cy + r * 0.05, r * 0.12, fill="#ffd23f"),
        Circle(cx + r * 0.6, cy + r * 0.05, r * 0.12, fill="#ffd23f"),
    ]


def _dog(cx: float, cy: float, r: float) -> list[Item]:
    return [
        Circle(cx, cy, r * 0.75, fill="#b5835a", stroke="#5b3a1e", width=r * 0.1),
        Circle(cx - r * 0.6, cy - r * 0.55, r * 0.32, fill="#5b3a1e"),
        Circle(cx + r * 0.6, cy - r * 0.55, r * 0.32, fill="#5b3a1e"),
        Circle(cx, cy + r * 0.2, r * 0.16, fill="#1b1b1f"),
    ]


def _person(cx: float, cy: float, r: float, color: str, girl: bool) -> list[Item]:
    body: Item
    if girl:
        body = Polyline(
            ((cx, cy - r * 0.2), (cx - r * 0.6, cy + r * 0.9), (cx + r * 0.6, cy + r * 0.9)),
            "#1b1b1f",
            r * 0.08,
            closed=True,
            fill=color,
        )
    else:
        body = Rect(
            cx - r * 0.45,
            cy - r * 0.15,
            r * 0.9,
            r * 1.05,
            fill=color,
            stroke="#1b1b1f",
            width=r * 0.08,
            radius=r * 0.2,
        )
    return [body, Circle(cx, cy - r * 0.55, r * 0.38, fill="#f6d2b0", stroke="#1b1b1f", width=r * 0.08)]


def _netted(cx: float, cy: float, r: float) -> list[Item]:
    """Tile 0 front: an agent holding an already-caught alien in a net."""
    return [
        Circle(cx - r * 0.5, cy, r * 0.7, fill="#23262b"),
        Line((cx - r * 0.1, cy), (cx + r * 0.6, cy - r * 0.3), "#6b4f2a", r * 0.12),
        Circle(cx + r * 0.9, cy - r * 0.2, r * 0.55, fill="#7bd389", stroke="#555555", width=r * 0.1),
        Line((cx + r * 0.45, cy - r * 0.6), (cx + r * 1.35, cy + r * 0.2), "#555555", r * 0.06),
        Line((cx + r * 0.45, cy + r * 0.2), (cx + r * 1.35, cy - r * 0.6), "#555555", r * 0.06),
    ]


ICONS = {
    "house": _house,
    "ufo": _ufo,
    "dog": _dog,
    "girl": lambda x, y, r: _person(x, y, r, "#f28cb1", True),
    "boy": lambda x, y, r: _person(x, y, r, "#5b8def", False),
    "netted": _netted,
}


def tile_label(x: float, y: float, size: float, text: str) -> Text:
    return Text(
        x + size * 0.04, y + size * 0.06, text, size=size * 0.1, color="#4a4f57", align="left", valign="top"
    )
