"""Flow variants: walls, holes, bridges, warps, hexes (format, graph, solver, checker, editing, drawing)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from solvers.common.cancel import CancelToken
from solvers.common.errors import ParseError
from solvers.common.protocol import EditEvent
from solvers.flow import codec, community
from solvers.flow.document import parse_document, serialize_document
from solvers.flow.draw import HexGeometry, draw, geometry, side
from solvers.flow.graph import grid_graph
from solvers.flow.model import BRIDGE, EMPTY, HOLE, Cell, FlowPaths, FlowPuzzle
from solvers.flow.plugin import PLUGIN
from solvers.flow.rules import check
from solvers.flow.solve import solve
from solvers.flow.variants import KINDS, generate_variant, template

Slot = tuple[Cell, int]


def _lane(puzzle: FlowPuzzle, cell: Cell, d: int) -> int:
    return -1 if puzzle.at(*cell) != BRIDGE else (0 if d in (1, 3) else 1)


def brute_force(puzzle: FlowPuzzle, designed: bool) -> set[tuple[tuple[str, tuple[Cell, ...]], ...]]:
    """Every solution by depth-first search over the model's steps (no graph, no SAT)."""
    ends = puzzle.endpoints()
    letters = list(ends)
    found = set()

    def grow(
        k: int, used: dict[Slot, str], done: dict[str, tuple[Cell, ...]], path: list[Cell], lane: int
    ) -> None:
        if k == len(letters):
            entries = FlowPaths.from_dict({ch: [list(c) for c in p] for ch, p in done.items()})
            result = check(puzzle, entries)
            if result.complete and not result.violations and (not designed or _designed_ok(puzzle, done)):
                found.add(tuple(sorted(done.items())))
            return
        ch = letters[k]
        if not path:
            start = ends[ch][0]
            grow(k, {**used, (start, -1): ch}, done, [start], -1)
            return
        last = path[-1]
        for d in range(puzzle.n_dirs):
            if puzzle.at(*last) == BRIDGE and lane >= 0 and _lane(puzzle, last, d) != lane:
                continue  # straight on across a bridge
            nxt = puzzle.link(last[0], last[1], d)
            if nxt is None:
                continue
            slot = (nxt, _lane(puzzle, nxt, d))
            if slot in used:
                continue
            mark = puzzle.at(*nxt)
            if mark == ch and nxt == ends[ch][1]:
                grow(k + 1, {**used, slot: ch}, {**done, ch: (*path, nxt)}, [], -1)
            elif mark in (EMPTY, BRIDGE):
                grow(k, {**used, slot: ch}, done, [*path, nxt], slot[1])

    grow(0, {}, {}, [], -1)
    return found


def _designed_ok(puzzle: FlowPuzzle, paths: dict[str, tuple[Cell, ...]]) -> bool:
    """No pipe touches itself: graph neighbours (lane slots) of one colour are consecutive."""
    colour: dict[Slot, str] = {}
    links: set[frozenset[Slot]] = set()
    for ch, path in paths.items():
        slots = []
        for i, cell in enumerate(path):
            d = puzzle.direction(path[i - 1], cell) if i else puzzle.direction(cell, path[1])
            assert d is not None
            slots.append((cell, _lane(puzzle, cell, d)))
        for s in slots:
            colour[s] = ch
        links |= {frozenset(pair) for pair in zip(slots, slots[1:], strict=False)}
    for (cell, lane), ch in colour.items():
        for d in range(puzzle.n_dirs):
            if lane >= 0 and _lane(puzzle, cell, d) != lane:
                continue
            nxt = puzzle.link(cell[0], cell[1], d)
            if nxt is None:
                continue
            other = (nxt, _lane(puzzle, nxt, d))
            if colour.get(other) == ch and frozenset(((cell, lane), other)) not in links:
                return False
    return True


def sat_solutions(puzzle: FlowPuzzle, rules: str) -> set[tuple[tuple[str, tuple[Cell, ...]], ...]]:
    out = set()
    for s in solve(puzzle, limit=0, rules=rules, cancel=CancelToken(timeout=60)):
        entries = PLUGIN.entries_from_solution(puzzle, s)
        result = check(puzzle, entries)
        assert result.complete and not result.violations, (s.grid, result.violations)
        out.add(tuple(sorted((ch, tuple(map(tuple, p))) for ch, p in s.extras["paths"].items())))
    return out


TINY = [
    "A.B\n.+.\nB.A\n",
    "A..\n.+.\n..A\n",  # no solution: the lanes cannot both be used
    "R...\nB...\nYR+.\n.Y.B\n",
    "BR.Y\n..+.\n.GY.\nB.GR\n",
    "walls: 1,1-1,2 2,2-3,2\nA..B\n....\nA..B\n",
    "walls: 2,1-2,2 3,1-3,2\n....\n.Y.R\n.BYB\nR...\n",
    "A#B\n...\nA.B\n",
    "...R\n.B..\n..R.\n#B..\n",
    "warp rows: 2\nwarp columns: 1\nA.B\n...\nB.A\n",
    "warp rows: 2\nwarp columns: 1\n...R\n..Y.\nBYR.\n...B\n",
    "warp rows: 1\nwarp columns: 1\n.BRY\nR...\nB...\n...Y\n",
    "shape: hex\nA.B\n...\nA.B\n",
    "shape: hex\nR..B\nGY..\n....\nGYRB\n",
    "shape: hex\nB..B\nRG.G\nY...\n..YR\n",
    "shape: hex\nwalls: 1,1-2,1 2,2-3,2\nA.B.\n....\n.A.B\n",
]


@pytest.mark.parametrize("text", TINY)
def test_solver_matches_brute_force(text: str) -> None:
    puzzle = codec.parse(text)
    for rules in ("designed", "strict"):
        assert sat_solutions(puzzle, rules) == brute_force(puzzle, rules == "designed"), rules


def test_brute_force_sees_solutions() -> None:
    # The comparison above must not pass by both sides finding nothing.
    strict = [len(brute_force(codec.parse(t), False)) for t in TINY]
    designed = [len(brute_force(codec.parse(t), True)) for t in TINY]
    assert sum(1 for n in strict if n) == len(TINY) - 1, strict
    assert sum(1 for n in designed if n) >= 9 and designed[-2] == 1, designed


@pytest.mark.parametrize("kind", KINDS)
def test_generated_variant_is_unique_and_round_trips(kind: str) -> None:
    made = generate_variant(6, 6, kind, seed=3)
    puzzle = made.puzzle
    assert puzzle.variant_words(), kind
    text = codec.serialize(puzzle)
    assert codec.parse(text) == puzzle
    assert codec.parse(codec.serialize_spaced(puzzle)) == puzzle
    info: dict[str, object] = {}
    found = list(solve(puzzle, limit=2, info=info, cancel=CancelToken(timeout=60)))
    assert info["verdict"] == "unique (designed)"
    assert [[list(c) for c in p] for p in made.paths] and len(found) == 1
    result = check(puzzle, PLUGIN.entries_from_solution(puzzle, found[0]))
    assert result.complete and not result.violations


def test_plain_files_unchanged() -> None:
    text = "R.G\n...\nR.G\n"
    puzzle = codec.parse(text)
    assert puzzle.is_plain and codec.serialize(puzzle) == text


def test_graph_cycles() -> None:
    plain = grid_graph(FlowPuzzle.from_rows(["A..", "...", "..A"]))
    assert len(plain.squares) == 4 and plain.triangles == ()
    walled = grid_graph(codec.parse("walls: 1,1-1,2\nA..\n...\n..A\n"))
    assert len(walled.squares) == 3
    bridged = grid_graph(codec.parse("A..\n.+.\n..A\n"))
    assert len(bridged.squares) == 0 and bridged.n_nodes == 10  # every block has a bridge corner
    warped = grid_graph(codec.parse("warp rows: 1 2\nA...\n....\n...A\n"))
    # 6 blocks, the block across the seam of rows 1-2, and each warped row of 4 cells is a ring.
    assert len(warped.squares) == 6 + 1 + 2
    hexed = grid_graph(codec.parse("shape: hex\nA..\n...\n..A\n"))
    assert hexed.squares == () and len(hexed.triangles) == 8


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("walls: 1,1-2,2\nA.\n.A\n", (1, 8), "neighbouring"),
        ("walls: 1,1\nA.\n.A\n", (1, 8), "row,column-row,column"),
        ("shape: round\nAA\n", (1, 8), "square or hex"),
        ("warp rows: 0\nAA\n", (1, 12), "1..1"),
        ("colour: red\nAA\n", (1, 1), "unknown header"),
        ("shape: hex\nA+A\n", (2, 2), "square boards only"),
        ("A.%\n", (1, 3), "unknown character"),
    ],
)
def test_variant_parse_errors(text: str, where: tuple[int, int], words: str) -> None:
    with pytest.raises(ParseError) as err:
        codec.parse(text)
    assert (err.value.line, err.value.column) == where and words in err.value.message


def test_community_format() -> None:
    text = "# a comment\n# type: hex\n# size: 3x2\n# fill: true\nab.\n.ab\n"
    assert community.looks_like(text)
    puzzle = codec.parse(text)
    assert puzzle.hex and puzzle.row_strings() == ["ab.", ".ab"]
    spaced = codec.parse("# spaced labels\nred . . blue\n. . + .\n. # . .\nblue . . red\n")
    assert spaced.at(1, 2) == BRIDGE and spaced.at(2, 1) == HOLE and len(spaced.colours) == 2
    assert spaced.at(0, 0) == spaced.at(3, 3) != spaced.at(0, 3)
    odd = codec.parse("# labels that are no letters\n*.@\n...\n@.*\n")
    assert len(odd.colours) == 2
    doc, entries = parse_document("# type: square\nA.A\n")
    assert doc.row_strings() == ["A.A"] and entries is None


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("# fill: maybe\nAA\n", (1, 9), "true or false"),
        ("# size: 3x3\nAA\n", (1, None), "3x3"),
        ("# type: tri\nAA\n", (1, 9), "square or hex"),
        ("# comment x\nAAB\n", (2, 3), "needs exactly 2"),
        ("# comment x\nAA\nA\n", (3, 2), "ragged"),
        ("# shape: hex\nAA\n", (1, 1), "no community directive"),
        ("# crop: 1\n# walls: 1,1-1,2\nAA\n", (2, 1), "'walls: ...' without '#'"),
    ],
)
def test_community_errors(text: str, where: tuple[int, int | None], words: str) -> None:
    with pytest.raises(ParseError) as err:
        codec.parse(text)
    assert (err.value.line, err.value.column) == where and words in err.value.message


def test_community_metadata_directives_are_read_as_comments_and_named_once() -> None:
    # The community's image importer writes these; the reader stopped at the first (issue 28, 5).
    text = (
        "# crop: 10 20 300 300\n# source_image: level 12.png\n# generated: 2024-01-01T10:00\n"
        "# type: hex\n# crop: 0 0 1 1\nR.B\n...\nR.B\n# solved_by: after the rows\n"
    )
    puzzle = codec.parse(text)
    assert puzzle.hex and puzzle.row_strings() == ["R.B", "...", "R.B"]
    assert puzzle.notes == (
        "ignored unknown directives 'crop', 'source_image', 'generated', 'solved_by' (read as comments)",
    )
    assert parse_document(text)[0].notes == puzzle.notes
    assert puzzle == codec.parse("shape: hex\nR.B\n...\nR.B\n")  # notes are no part of the value
    assert "ignored unknown directives" in PLUGIN.describe(puzzle)
    assert not puzzle.with_cell(1, 1, "G").notes  # an edited board is another board
    info: dict[str, object] = {}
    list(PLUGIN.solve(puzzle, info=info))
    assert info["note"] == puzzle.notes[0]
    # Everything else stays strict.
    for bad in ("# crop: 1\n# type: tri\nAA\n", "# crop: 1\n# size: 9x9\nAA\n", "# crop: 1\nAAB\n"):
        with pytest.raises(ParseError):
            codec.parse(bad)
    names = ("meta_" + "".join("abcdefghij"[int(d)] for d in str(i)) for i in range(100_000))
    many = "".join(f"# {name}: x\n" for name in names) + "AA\n"
    assert codec.parse(many).notes[0].endswith("and 99,995 more (read as comments)")
    assert codec.parse("# author: me\nAA\n").notes == (
        "ignored unknown directive 'author' (read as a comment)",
    )


def test_document_with_hole_rows_keeps_paths() -> None:
    puzzle = codec.parse("#A.A\n+...\n", complete=False)
    entries = FlowPaths.from_dict({"A": [[0, 1], [0, 2], [0, 3]]})
    text = serialize_document(puzzle, entries)
    assert parse_document(text) == (puzzle, entries)
    spaced_hole = parse_document("# . A\n. . A\n")[0]
    assert spaced_hole.at(0, 0) == HOLE


def _press(puzzle: FlowPuzzle, tool: str, cell: Cell, pos: tuple[float, float] | None = None) -> FlowPuzzle:
    at = pos if pos is not None else geometry(puzzle).center(*cell)
    result = PLUGIN.edit(puzzle, None, EditEvent("press", tool=tool, cell=cell, pos=at, button="left"))
    assert result is not None and result.puzzle is not None
    return result.puzzle


def test_edit_tools() -> None:
    puzzle = FlowPuzzle.empty(3, 3)
    names = {t.id for t in PLUGIN.tools(puzzle)}
    assert {"wall", "hole", "bridge", "warp"} <= names
    geom = geometry(puzzle)
    x, y = geom.center(0, 0)
    walled = _press(puzzle, "wall", (0, 0), (x + 18, y + 2))  # near the right side
    assert walled.walls == {((0, 0), (0, 1))}
    assert _press(walled, "wall", (0, 1), (geom.center(0, 1)[0] - 18, y)).walls == frozenset()
    holed = _press(puzzle, "hole", (1, 1))
    assert holed.at(1, 1) == HOLE and _press(holed, "hole", (1, 1)).at(1, 1) == EMPTY
    assert _press(puzzle, "bridge", (1, 1)).at(1, 1) == BRIDGE
    warped = _press(puzzle, "warp", (1, 2), (geom.center(1, 2)[0] + 18, geom.center(1, 2)[1]))
    assert warped.warp_rows == {1}
    assert _press(puzzle, "warp", (0, 1), (geom.center(0, 1)[0], y - 18)).warp_cols == {1}
    assert (
        PLUGIN.edit(puzzle, None, EditEvent("press", tool="warp", cell=(1, 1), pos=geom.center(1, 1))) is None
    )
    assert codec.parse(codec.serialize(warped), complete=False) == warped
    assert PLUGIN.resize(replace(walled, warp_rows=frozenset({2})), 2, 3).walls == walled.walls
    hexed = replace(puzzle, hex=True)
    assert "bridge" not in {t.id for t in PLUGIN.tools(hexed)}


def _drag(puzzle: FlowPuzzle, entries: FlowPaths, cells: list[Cell]) -> FlowPaths:
    geom = geometry(puzzle)
    r = PLUGIN.edit(
        puzzle, entries, EditEvent("press", "pipe", "play", cells[0], geom.center(*cells[0]), "left")
    )
    assert r is not None
    entries = r.entries
    for cell in cells[1:]:
        r = PLUGIN.edit(puzzle, entries, EditEvent("drag", "pipe", "play", cell, geom.center(*cell), "left"))
        if r is not None:
            entries = r.entries
    return entries


def test_play_across_bridge_and_warp() -> None:
    puzzle = codec.parse("A.B\n.+.\nB.A\n")
    entries = _drag(puzzle, FlowPaths(), [(0, 0), (0, 1), (1, 1), (1, 0)])
    assert entries.get("A") == ((0, 0), (0, 1), (1, 1))  # no turn on the bridge
    entries = _drag(puzzle, entries, [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)])
    entries = _drag(puzzle, entries, [(0, 2), (1, 2), (1, 1), (1, 0), (2, 0)])
    assert entries.get("A") == ((0, 0), (0, 1), (1, 1), (2, 1), (2, 2))  # the other lane is free
    assert check(puzzle, entries).complete
    warped = codec.parse("warp rows: 1\nA..A\n....\n")
    entries = _drag(warped, FlowPaths(), [(0, 0), (0, 3)])
    assert entries.get("A") == ((0, 0), (0, 3))  # across the seam
    assert check(warped, entries).violations == []


def test_hex_hit_testing_and_drawing() -> None:
    puzzle = codec.parse("shape: hex\nA..B\n....\nA..B\n")
    dl = draw(puzzle)
    geom = dl.grid
    assert isinstance(geom, HexGeometry)
    rng = random.Random(1)
    for r in range(3):
        for c in range(4):
            x, y = geom.center(r, c)
            assert geom.cell_at(x, y) == (r, c)
            for _ in range(5):  # anywhere inside the inscribed circle
                assert geom.cell_at(x + rng.uniform(-14, 14), y + rng.uniform(-14, 14) * 0.7) == (r, c)
    assert geom.cell_at(-50, -50) is None
    # Neighbouring hexagons share the side between them.
    a, b = side(puzzle, geom, (0, 0), 1), side(puzzle, geom, (1, 0), 4)
    assert all(
        abs(p - q) < 1e-6
        for p, q in zip(sorted(a)[0] + sorted(a)[1], sorted(b)[0] + sorted(b)[1], strict=True)
    )


def test_drawing_variants_has_walls_warps_bridges() -> None:
    puzzle = codec.parse("warp rows: 1\nwalls: 2,1-2,2\nA...A\n#.+..\nB...B\n")
    solution = next(iter(solve(puzzle, limit=1, rules="strict")), None)
    plain = draw(FlowPuzzle.empty(3, 5))
    dl = draw(puzzle, solution)
    kinds = [type(item).__name__ for item in dl.items]
    assert kinds.count("Rect") == 15  # one per cell, and the hole shaded
    assert dl.width > plain.width  # room for the warp arrows
    assert any(getattr(i, "width", 0) == 5.0 for i in dl.items)  # the wall bar


def test_templates_connected_and_deterministic() -> None:
    for kind in KINDS:
        a, b = template(8, 8, kind, random.Random(5)), template(8, 8, kind, random.Random(5))
        assert a == b and a.variant_words()


def test_lane_triangle_lemmas_sound() -> None:
    # Designed rules on hexes forbid sharp turns: a 3-cell pipe bent at 60 degrees touches itself.
    bent = codec.parse("shape: hex\nA.\n.A\n")
    assert [len(list(solve(bent, limit=0, rules=r))) for r in ("designed", "strict")] == [0, 2]
