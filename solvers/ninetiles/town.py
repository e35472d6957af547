"""Town model: 9 positions (row-major 3x3), each empty or holding a tile with a direction digit.

The 18-character town code is the reference notation: chars 0..8 are the tile numbers at positions
0..8, chars 9..17 the direction digits (side = d // 4, counter-clockwise quarter turns = d % 4).
We also allow ``.`` for an empty position (in both halves) so partial towns can be edited/solved.

Roads are traced on *global edge ids* (town_rules.md §1.3): a shared edge has one id, and a road's
reading direction starts at its smaller border id. Several themes depend on that direction, so it
is reproduced exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from solvers.common import words
from solvers.common.errors import ParseError
from solvers.common.limits import nonblank_lines, normalise, shown
from solvers.ninetiles.tiles import AGENT, ALIEN, HAMBURGER, Face, Segment, face

EMPTY = -1
SIZE = 3
POSITIONS = 9


def global_edge(p: int, e: int) -> int:
    """Global id of local edge ``e`` (0 top, 1 left, 2 bottom, 3 right) of position ``p``."""
    r, c = divmod(p, SIZE)
    if e == 0:
        return 4 * p if r == 0 else 4 * (p - SIZE) + 2
    if e == 1:
        return 4 * p + 1 if c == 0 else 4 * (p - 1) + 3
    return 4 * p + e


def is_border(p: int, e: int) -> bool:
    r, c = divmod(p, SIZE)
    return (
        (e == 0 and r == 0) or (e == 1 and c == 0) or (e == 2 and r == SIZE - 1) or (e == 3 and c == SIZE - 1)
    )


@cache
def border_ids() -> frozenset[int]:
    return frozenset(global_edge(p, e) for p in range(POSITIONS) for e in range(4) if is_border(p, e))


def neighbour_pairs() -> list[tuple[int, int, int, int]]:
    """(p, edge of p, q, edge of q) for every orthogonally adjacent pair, p < q."""
    pairs = []
    for p in range(POSITIONS):
        r, c = divmod(p, SIZE)
        if c < SIZE - 1:
            pairs.append((p, 3, p + 1, 1))
        if r < SIZE - 1:
            pairs.append((p, 2, p + SIZE, 0))
    return pairs


def cell_of(p: int) -> tuple[int, int]:
    return divmod(p, SIZE)


@dataclass(frozen=True)
class Town:
    tiles: tuple[int, ...] = (EMPTY,) * POSITIONS
    dirs: tuple[int, ...] = (EMPTY,) * POSITIONS

    # ---- codec -------------------------------------------------------------------------------
    @staticmethod
    def from_code(code: str) -> Town:
        text = code.strip()
        if len(text) != 18:
            raise ParseError(f"a town code has 18 characters, got {len(text)}", 1)
        tiles: list[int] = []
        dirs: list[int] = []
        for i, ch in enumerate(text):
            limit = 8 if i < 9 else 7
            if ch in ".-":
                value = EMPTY
            elif len(ch) == 1 and ch in "012345678"[: limit + 1]:  # ASCII only: '²'.isdigit() is true
                value = int(ch)
            else:
                what = "tile number 0-8" if i < 9 else "direction digit 0-7"
                raise ParseError(f"character {ch!r} is not a {what} or '.'", 1, i + 1)
            (tiles if i < 9 else dirs).append(value)
        for p in range(POSITIONS):
            if (tiles[p] == EMPTY) != (dirs[p] == EMPTY):
                col = p + 1 if tiles[p] == EMPTY else p + 10
                raise ParseError(f"position {p}: tile and direction must both be given or both '.'", 1, col)
        return Town(tuple(tiles), tuple(dirs))

    @property
    def code(self) -> str:
        def ch(v: int) -> str:
            return "." if v == EMPTY else str(v)

        return "".join(ch(t) for t in self.tiles) + "".join(ch(d) for d in self.dirs)

    def readable(self) -> str:
        """Three lines like ``2F3 0B2 6F1``: tile, side (Front/Back), counter-clockwise quarter turns."""
        rows = []
        for r in range(SIZE):
            cells = []
            for c in range(SIZE):
                p = r * SIZE + c
                t, d = self.tiles[p], self.dirs[p]
                cells.append("..." if t == EMPTY else f"{t}{'FB'[d // 4]}{d % 4}")
            rows.append(" ".join(cells))
        return "\n".join(rows)

    @staticmethod
    def from_readable(text: str) -> Town:
        tokens: list[tuple[str, int, int]] = []
        for ln, line in enumerate(text.split("\n"), start=1):
            for found in re.finditer(r"[^ ]+", line):
                tokens.append((found.group(), ln, found.start() + 1))
                if len(tokens) > POSITIONS:
                    raise ParseError(
                        "expected 9 tiles like '2F3' (or '...'), found more", ln, found.start() + 1
                    )
        if len(tokens) != POSITIONS:
            raise ParseError(f"expected 9 tiles like '2F3' (or '...'), found {len(tokens)}")
        tiles, dirs = [], []
        for tok, ln, col in tokens:
            if tok in ("...", ".", "-"):
                tiles.append(EMPTY)
                dirs.append(EMPTY)
                continue
            if (
                len(tok) != 3
                or tok[0] not in "012345678"
                or tok[1].upper() not in "FB"
                or tok[2] not in "0123"
            ):
                raise ParseError(f"bad tile {shown(tok)} (tile 0-8, F or B, turns 0-3, e.g. 2F3)", ln, col)
            tiles.append(int(tok[0]))
            dirs.append(4 * "FB".index(tok[1].upper()) + int(tok[2]))
        return Town(tuple(tiles), tuple(dirs))

    # ---- queries -----------------------------------------------------------------------------
    @property
    def complete(self) -> bool:
        return EMPTY not in self.tiles

    def face_at(self, p: int) -> Face | None:
        t = self.tiles[p]
        return None if t == EMPTY else face(t, self.dirs[p] // 4)

    def segments_at(self, p: int) -> tuple[Segment, ...]:
        f = self.face_at(p)
        return () if f is None else f.rotated_segments(self.dirs[p] % 4)

    def edge_mask(self, p: int) -> int:
        mask = 0
        for s in self.segments_at(p):
            mask |= (1 << s.a) | (1 << s.b)
        return mask

    def unused_tiles(self) -> list[int]:
        return [t for t in range(POSITIONS) if t not in self.tiles]

    # ---- edits (pure) ------------------------------------------------------------------------
    def with_position(self, p: int, tile: int, direction: int) -> Town:
        tiles, dirs = list(self.tiles), list(self.dirs)
        tiles[p], dirs[p] = tile, direction
        return Town(tuple(tiles), tuple(dirs))

    def rotated_tile(self, p: int, turns: int) -> Town:
        d = self.dirs[p]
        if d == EMPTY:
            return self
        return self.with_position(p, self.tiles[p], 4 * (d // 4) + (d + turns) % 4)

    def flipped_tile(self, p: int) -> Town:
        d = self.dirs[p]
        if d == EMPTY:
            return self
        return self.with_position(p, self.tiles[p], (d + 4) % 8)

    def swapped(self, p: int, q: int) -> Town:
        tiles, dirs = list(self.tiles), list(self.dirs)
        tiles[p], tiles[q] = tiles[q], tiles[p]
        dirs[p], dirs[q] = dirs[q], dirs[p]
        return Town(tuple(tiles), tuple(dirs))

    def rotated_town(self) -> Town:
        """The whole town turned a quarter counter-clockwise (every tile turned too)."""
        src = (2, 5, 8, 1, 4, 7, 0, 3, 6)  # position p receives the tile from src[p]
        tiles = tuple(self.tiles[src[p]] for p in range(POSITIONS))
        dirs = tuple(
            EMPTY
            if self.dirs[src[p]] == EMPTY
            else 4 * (self.dirs[src[p]] // 4) + (self.dirs[src[p]] + 1) % 4
            for p in range(POSITIONS)
        )
        return Town(tiles, dirs)


def parse_town(text: str) -> Town:
    """The native text form: a code line (or a 3-line readable grid); ``#`` starts a comment.
    Errors give the line of the file (comments counted). A code followed by the readable grid in
    ``#`` lines, as Save writes it, must agree with that grid: a changed digit would otherwise
    open another town without a word."""
    norm = normalise(text)
    lines: list[tuple[int, str]] = []
    for number, raw in nonblank_lines(norm, comment="#"):
        lines.append((number, raw.split("#", 1)[0].strip()))
        if len(lines) > POSITIONS:  # the readable form has 3 lines; no town needs more than 9
            break
    if not lines:
        raise ParseError("empty town: expected an 18-character code such as 206745813361230035")
    first_line, first = lines[0]
    if " " not in first and len(first) != 3:  # a code, not a row of the readable grid
        if len(first) != 18:
            raise ParseError(f"a town code has 18 characters, got {len(first)}", first_line)
        if len(lines) > 1:
            raise ParseError(
                f"text after the town code on line {first_line} (a town file holds one code, or the "
                "3-line readable grid)",
                lines[1][0],
            )
        town = Town.from_code(first)
        _check_against_comment(town, norm, first_line)
        return town
    for number, line in lines:
        tiles = len(line.split())
        if tiles != 3:
            raise ParseError(
                f"this row has {tiles} tile{'s' if tiles != 1 else ''}; the readable grid has 3 per row",
                number,
            )
    if len(lines) != 3:
        raise ParseError(
            f"the readable grid has 3 rows, found {len(lines)}", lines[min(len(lines), 3) - 1][0]
        )
    # from_readable numbers its lines 1..3: give it the file's lines, blanks for the others.
    last = lines[-1][0]
    grid = [""] * last
    for number, line in lines:
        grid[number - 1] = line
    return Town.from_readable("\n".join(grid))


_TILE_WORD = re.compile(r"(?<![0-9A-Za-z.])([0-8][FB][0-3]|\.\.\.)(?![0-9A-Za-z.])")


def _check_against_comment(town: Town, text: str, code_line: int) -> None:
    """The ``#`` lines right after a code, when they spell nine tiles (Save writes the readable
    grid there; the sample writes "(2F3 0B2 6F1 / ...)"), must say the same town as the code."""
    words: list[str] = []
    for raw in text.split("\n")[code_line : code_line + 12]:
        stripped = raw.strip()
        if not stripped.startswith("#"):
            break
        words += _TILE_WORD.findall(stripped)
    if len(words) != POSITIONS:
        return  # a plain comment, not the town
    written = Town.from_readable(" ".join(words))
    if written != town:
        p = next(i for i in range(POSITIONS) if words[i] != town.readable().split()[i])
        raise ParseError(
            f"the code and the comment below it disagree at {cell_name(p)} (the code says "
            f"{town.readable().split()[p]}, the comment {words[p]}): one of them was changed",
            code_line,
        )


def is_code(text: str) -> bool:
    t = text.strip()
    return len(t) == 18 and all(ch in "0123456789.-" for ch in t)


# ---- roads ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoadObject:
    kind: int  # HAMBURGER, AGENT or ALIEN
    facing: str  # "L" (looks back toward the start), "R" (toward the end), "" for hamburgers
    position: int
    segment: int  # index into the position's segments

    @property
    def label(self) -> str:
        if self.kind == HAMBURGER:
            return "H"
        return f"{'Ag' if self.kind == AGENT else 'Al'}-{self.facing}"


@dataclass(frozen=True)
class RoadStep:
    position: int
    segment: int
    enter: int  # global edge id entered
    leave: int  # global edge id left


@dataclass(frozen=True)
class Road:
    steps: tuple[RoadStep, ...]
    objects: tuple[RoadObject, ...]
    closed: bool = False  # a loop (invalid town)
    open_ends: tuple[int, ...] = field(default=())  # ends not on the border (mismatch/empty neighbour)

    @property
    def length(self) -> int:
        return len(self.steps)

    @property
    def start(self) -> int:
        return self.steps[0].enter

    @property
    def end(self) -> int:
        return self.steps[-1].leave

    @property
    def positions(self) -> tuple[int, ...]:
        return tuple(s.position for s in self.steps)

    def object_labels(self) -> list[str]:
        return [o.label for o in self.objects]


def trace_roads(town: Town) -> list[Road]:
    """All roads of the (possibly partial or invalid) town, read from their smaller end id."""
    # piece id -> (position, segment index, global id a, global id b, segment)
    pieces: list[tuple[int, int, int, int, Segment]] = []
    at_id: dict[int, list[int]] = {}
    for p in range(POSITIONS):
        for j, s in enumerate(town.segments_at(p)):
            ga, gb = global_edge(p, s.a), global_edge(p, s.b)
            at_id.setdefault(ga, []).append(len(pieces))
            at_id.setdefault(gb, []).append(len(pieces))
            pieces.append((p, j, ga, gb, s))
    used = [False] * len(pieces)
    borders = border_ids()
    roads: list[Road] = []

    def walk(start_id: int, first: int, closed: bool) -> Road:
        steps: list[RoadStep] = []
        objects: list[RoadObject] = []
        cur, piece = start_id, first
        while piece >= 0 and not used[piece]:
            used[piece] = True
            p, j, ga, gb, s = pieces[piece]
            nxt = gb if cur == ga else ga
            steps.append(RoadStep(p, j, cur, nxt))
            if s.kind != 0:
                facing = ""
                if s.kind in (AGENT, ALIEN):
                    looks_at = global_edge(p, s.facing)
                    facing = "L" if looks_at == cur else "R"
                objects.append(RoadObject(s.kind, facing, p, j))
            cur = nxt
            others = [q for q in at_id.get(cur, []) if q != piece]
            piece = others[0] if others else -1
        ends = tuple(i for i in (start_id, cur) if i not in borders) if not closed else ()
        return Road(tuple(steps), tuple(objects), closed, ends)

    # chains start at ids with a single piece (border ends, or dangling ends of a broken town)
    for gid in sorted(at_id):
        if len(at_id[gid]) == 1 and not used[at_id[gid][0]]:
            roads.append(walk(gid, at_id[gid][0], False))
    # whatever is left lies on cycles
    for k in range(len(pieces)):
        if not used[k]:
            ga = min(pieces[k][2], pieces[k][3])
            roads.append(walk(ga, k, True))
    return roads


# ---- validity -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    code: str  # "repeatedTile", "edgeMismatch", "loop", "incomplete"
    message: str
    positions: tuple[int, ...]


def problems(town: Town) -> list[Problem]:
    """Every broken rule, in a stable order (repeated tiles, mismatched edges, loops)."""
    out: list[Problem] = []
    seen: dict[int, list[int]] = {}
    for p, t in enumerate(town.tiles):
        if t != EMPTY:
            seen.setdefault(t, []).append(p)
    for t, where in sorted(seen.items()):
        if len(where) > 1:
            places = ", ".join(map(cell_name, where))
            out.append(Problem("repeatedTile", f"tile {t} is used more than once ({places})", tuple(where)))
    for p, ep, q, eq in neighbour_pairs():
        if town.tiles[p] == EMPTY or town.tiles[q] == EMPTY:
            continue
        road_p = bool(town.edge_mask(p) >> ep & 1)
        road_q = bool(town.edge_mask(q) >> eq & 1)
        if road_p != road_q:
            side = p if road_p else q
            out.append(
                Problem(
                    "edgeMismatch",
                    f"mismatched edge between {cell_name(p)} and {cell_name(q)}: "
                    f"only {cell_name(side)} has a road there",
                    (p, q),
                )
            )
    for road in trace_roads(town):
        if road.closed:
            ring = sorted(set(road.positions))
            out.append(Problem("loop", f"road loop through {', '.join(map(cell_name, ring))}", tuple(ring)))
    return out


def cell_name(p: int) -> str:
    """Position p (0..8, row-major) as users read cells everywhere in the app: R1C1 .. R3C3."""
    return words.cell_name(*divmod(p, 3))


def validity(town: Town) -> tuple[bool, str | None]:
    """(valid, reason): valid = complete, each tile once, edges match, no loop."""
    found = problems(town)
    if found:
        return False, found[0].message
    if not town.complete:
        empty = [p for p in range(POSITIONS) if town.tiles[p] == EMPTY]
        which = f"{cell_name(empty[0])} is" if len(empty) == 1 else f"{', '.join(map(cell_name, empty))} are"
        return False, f"incomplete: {which} empty"
    return True, None
