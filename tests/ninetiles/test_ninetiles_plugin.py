"""Plug-in behaviour: check, completion solver, editing events, drawing and the score CLI."""

from __future__ import annotations

import json

import pytest

from solvers.common.cancel import CancelToken
from solvers.common.display import Polyline
from solvers.common.errors import ParseError
from solvers.common.protocol import EditEvent
from solvers.ninetiles import PLUGIN, Town
from solvers.ninetiles.scoring import score_town
from solvers.ninetiles.town import validity

EXAMPLE = "206745813361230035"


def test_check_reports_violations_with_cells() -> None:
    good = PLUGIN.check(PLUGIN.parse(EXAMPLE))
    assert good.ok
    bad = PLUGIN.check(Town.from_code(EXAMPLE).rotated_tile(8, 1))
    assert not bad.ok
    assert {v.code for v in bad.violations} == {"edgeMismatch"}
    assert any(v.cells == ((1, 2), (2, 2)) for v in bad.violations)
    assert not PLUGIN.check(PLUGIN.new_puzzle()).complete


def test_completion_solver_answers_pass_the_checker() -> None:
    partial = Town.from_code(EXAMPLE).with_position(4, -1, -1).with_position(8, -1, -1)
    solutions = list(PLUGIN.solve(partial, limit=0, cancel=CancelToken(timeout=60)))
    codes = {s.extras["code"] for s in solutions}
    assert EXAMPLE in codes
    for solution in solutions:
        assert PLUGIN.check_solution(partial, solution).ok
        assert len(solution.extras["scores"]) == 26
    # the two free tiles (3 and 4) in every pictorially distinct turn, checked independently
    brute = set()
    for t4, t8 in ((3, 4), (4, 3)):
        for d4 in range(8):
            for d8 in range(8):
                town = Town.from_code(EXAMPLE).with_position(4, t4, d4).with_position(8, t8, d8)
                if validity(town)[0]:
                    brute.add(town)

    def picture(town: Town) -> tuple:
        return tuple(
            (
                town.face_at(p).index,
                tuple(sorted((min(s.a, s.b), max(s.a, s.b), s.kind, s.facing) for s in town.segments_at(p))),
            )
            for p in range(9)
        )

    pictures = {picture(town) for town in brute}
    assert len(codes) == len(pictures)


def test_clashing_givens_have_no_completion() -> None:
    clash = Town.from_code(EXAMPLE).rotated_tile(8, 1).with_position(4, -1, -1)
    assert list(PLUGIN.solve(clash, limit=5)) == []


def _ev(kind: str, cell=None, **kw) -> EditEvent:
    return EditEvent(kind=kind, cell=cell, **kw)


def test_click_rotates_right_click_flips_drag_swaps() -> None:
    town = PLUGIN.parse(EXAMPLE)
    ui = PLUGIN.new_ui(town)  # what a press picked up lives in the document's UI state
    assert PLUGIN.edit(town, None, _ev("press", (0, 0), button="left"), ui=ui) is None
    res = PLUGIN.edit(town, None, _ev("release", (0, 0), button="left"), ui=ui)
    assert res.puzzle.dirs[0] == 0 and res.puzzle.tiles == town.tiles  # 3 -> 0 (front, one more turn)
    res = PLUGIN.edit(town, None, _ev("press", (0, 0), button="right"))
    assert res.puzzle.dirs[0] == 7
    PLUGIN.edit(town, None, _ev("press", (0, 0), button="left"), ui=ui)
    res = PLUGIN.edit(town, None, _ev("release", (2, 2), button="left"), ui=ui)
    assert res.puzzle.tiles[0] == 3 and res.puzzle.tiles[8] == 2
    res = PLUGIN.edit(town, None, _ev("key", (1, 1), key="Delete"))
    assert res.puzzle.tiles[4] == -1
    res = PLUGIN.edit(res.puzzle, None, _ev("key", (1, 1), key="4"))
    assert res.puzzle.tiles[4] == 4
    assert PLUGIN.edit(town, None, _ev("wheel", (1, 1), delta=1)).puzzle.dirs[4] == 0


def test_drag_from_tray_places_a_tile() -> None:
    town = Town.from_code(EXAMPLE).with_position(4, -1, -1)
    dl = PLUGIN.draw(town)
    assert dl.height > 3 * 100 + 20  # a tray is shown for the unused tile
    x, y = PLUGIN._tray_layout(town)[4]
    ui = PLUGIN.new_ui(town)
    assert PLUGIN.edit(town, None, _ev("press", None, pos=(x + 5, y + 5)), ui=ui) is None
    res = PLUGIN.edit(town, None, _ev("release", (1, 1)), ui=ui)
    assert res.puzzle.tiles[4] == 4


def test_drawing_has_roads_and_marks_mismatches() -> None:
    town = PLUGIN.parse(EXAMPLE)
    dl = PLUGIN.draw(town)
    assert (
        sum(1 for it in dl.items if isinstance(it, Polyline) and it.color == "#8d949e") == 14
    )  # road pieces
    assert not any(getattr(it, "color", "") == "error" for it in dl.items)
    broken = PLUGIN.draw(town.rotated_tile(8, 1))
    assert any(getattr(it, "color", "") == "error" for it in broken.items)
    lit = PLUGIN.draw(town, overlay={"road": 1})
    assert sum(1 for it in lit.items if isinstance(it, Polyline) and it.color == "highlight") == 6


def test_score_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert PLUGIN.cli(["score", EXAMPLE, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] and out["reason"] is None and len(out["scores"]) == 26
    assert [r["length"] for r in out["roads"]] == [1, 6, 5, 2]
    assert PLUGIN.cli(["score", "006745813361230035", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False and "tile 0" in out["reason"]
    assert out["scores"] == score_town(Town.from_code("006745813361230035"))
    assert PLUGIN.cli(["score", "206745813361230075", "--json"]) == 0  # position 7 flipped: mismatch
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False and "mismatched edge" in out["reason"] and len(out["scores"]) == 26
    assert PLUGIN.cli(["score", "12345", "--json"]) == 2
    err = capsys.readouterr().err
    assert "18 digits" in err and "Traceback" not in err
    assert PLUGIN.cli(["frobnicate"]) == 2


def _point_on(town: Town, p: int, j: int) -> tuple[float, float]:
    """A point on segment j of position p, a quarter of the way along (off any crossing point)."""
    from solvers.ninetiles.art import TilePainter, segment_path
    from solvers.ninetiles.plugin import CELL, MARGIN

    r, c = divmod(p, 3)
    painter = TilePainter(MARGIN + c * CELL, MARGIN + r * CELL, CELL, town.dirs[p] % 4)
    path = segment_path(town.face_at(p).segments[j])
    if len(path) == 2:  # a straight: the crossing point of two straights is its midpoint
        (ax, ay), (bx, by) = path
        return painter.pt((ax + (bx - ax) / 4, ay + (by - ay) / 4))
    return painter.pt(path[len(path) // 4])


def test_hover_finds_every_road_and_describes_it() -> None:
    from solvers.ninetiles.town import trace_roads

    town = Town.from_code(EXAMPLE)
    roads = trace_roads(town)
    for k, road in enumerate(roads):
        for step in road.steps:
            hover = PLUGIN.hover(town, None, _point_on(town, step.position, step.segment))
            assert hover is not None and hover.overlay == {"road": k}
            assert hover.text.startswith(f"Road {k + 1}") and f"length {road.length}" in hover.text
    # a grass corner of tile 0 and a point outside the board are on no road
    assert PLUGIN.hover(town, None, (12.0, 12.0)) is None
    assert PLUGIN.hover(town, None, (-50.0, -50.0)) is None


def test_hover_reports_captured_aliens() -> None:
    from solvers.ninetiles.plugin import road_text
    from solvers.ninetiles.scoring import capture_flags
    from solvers.ninetiles.town import trace_roads

    town = Town.from_code(EXAMPLE)
    for k, road in enumerate(trace_roads(town)):
        caught = sum(capture_flags(road.object_labels()))
        text = road_text(k, road)
        assert f"{caught} alien{'s' if caught != 1 else ''} captured" in text
        assert text.count("*") == caught


def test_context_menu_actions_are_edits_of_that_tile() -> None:
    town = Town.from_code(EXAMPLE)
    actions = PLUGIN.context_actions(town, None, EditEvent(kind="press", cell=(1, 1), button="right"))
    assert [a.key for a in actions] == ["R", "E", "F", "Delete"]
    results = {
        a.key: PLUGIN.edit(town, None, EditEvent(kind="key", cell=(1, 1), key=a.key)).puzzle for a in actions
    }
    assert results["R"] == town.rotated_tile(4, 1)
    assert results["E"] == town.rotated_tile(4, 3)
    assert results["F"] == town.flipped_tile(4)
    removed = results["Delete"]
    assert town.tiles[4] in removed.unused_tiles()
    assert PLUGIN.context_actions(removed, None, EditEvent(kind="press", cell=(1, 1), button="right")) == []


def test_keyboard_help_names_every_key_the_board_takes() -> None:
    """R/E/F/Delete/0-8 and the wheel worked but Keyboard and Mouse did not say so (issue 29.11)."""
    town = PLUGIN.default_puzzle()
    keys_text = " ".join(key for key, _ in PLUGIN.help_keys())
    taken = []
    for key in ["R", "Q", "E", "F", "Space", "Delete", "Backspace", "X", *"012345678"]:
        event = EditEvent("key", "arrange", "edit", (1, 1), None, "", key=key)
        if PLUGIN.edit(town, None, event, ui=PLUGIN.new_ui(town)) is not None:
            taken.append(key)
    assert len(taken) >= 10
    for key in taken:
        assert key in keys_text or (key.isdigit() and "0-8" in keys_text), key
    wheel = EditEvent("wheel", "arrange", "edit", (1, 1), None, "", delta=1)
    assert PLUGIN.edit(town, None, wheel) is not None and "wheel" in keys_text.lower()


@pytest.mark.parametrize(
    ("tool", "key", "clockwise"),
    [("turn-right", None, True), ("arrange", "E", True), ("arrange", "R", False)],
)
def test_turns_go_the_way_their_names_say_on_screen(tool: str, key: str | None, clockwise: bool) -> None:
    """'Turn clockwise turns the tile left' (issue 29.11, not reproduced): pinned on the drawing. A
    picture point at the tile's top right must land at its bottom right after a clockwise turn."""
    from solvers.ninetiles.art import TilePainter

    town = PLUGIN.default_puzzle()
    if key is None:
        event = EditEvent("press", tool, "edit", (0, 0), None, "left")
    else:
        event = EditEvent("key", tool, "edit", (0, 0), None, "", key=key)
    turned = PLUGIN.edit(town, None, event, ui=PLUGIN.new_ui(town))
    assert turned is not None and turned.puzzle is not None
    before = TilePainter(0.0, 0.0, 1.0, town.dirs[0] % 4)
    after = TilePainter(0.0, 0.0, 1.0, turned.puzzle.dirs[0] % 4)
    x, y = before.pt((0.9, 0.1))  # any point of the face, as drawn before the turn
    moved = after.pt((0.9, 0.1))
    dx, dy = x - 0.5, y - 0.5
    expected = (0.5 - dy, 0.5 + dx) if clockwise else (0.5 + dy, 0.5 - dx)  # screen y points down
    assert moved == pytest.approx(expected)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        # QA: rows of 2, 4 and 3 tiles read as one town, "every rule holds".
        ("2F3 0B2\n6F1 7F2 4F3 5F0\n8F0 1F3 3B1\n", 1, "this row has 2 tiles"),
        # Errors count comment lines (a bad tile on line 5 was "line 3").
        ("# a\n# b\n2F3 0B2 6F1\n7F2 4F3 5F0\n8F0 1F3 3X1\n", 5, "bad tile '3X1'"),
        ("# title\n20674581336123\n", 2, "a town code has 18 characters, got 14"),
        # A second line after a code was "expected 9 tiles ..., found 2".
        ("206745813361230035\njunk\n", 2, "text after the town code on line 1"),
        ("206745813361230035\n206745813361230035\n", 2, "text after the town code"),
        # A changed digit of the code, under the readable lines Save writes.
        ("206745813361230037\n# 2F3 0B2 6F1\n# 7F2 4F3 5F0\n# 8F0 1F3 3B1\n", 1, "disagree at R3C3"),
    ],
)
def test_a_damaged_town_file_names_its_line_and_fault(text: str, line: int, words: str) -> None:
    with pytest.raises(ParseError) as err:
        PLUGIN.parse(text)
    assert err.value.line == line and words in err.value.message


def test_a_saved_town_reads_back_and_a_plain_comment_is_no_grid() -> None:
    town = PLUGIN.parse("206745813361230035")
    assert PLUGIN.parse(PLUGIN.serialize(town)) == town
    assert PLUGIN.parse("206745813361230035\n# my best town so far\n") == town


def test_score_takes_a_town_file_too(tmp_path, capsys) -> None:
    """QA: 'ninetiles score FILE' said "a town code is 18 digits ..., got '/home/me/my_t'" (cut)."""
    town = tmp_path / "example.town"
    town.write_text(PLUGIN.serialize(PLUGIN.parse(EXAMPLE)), encoding="utf-8")
    assert PLUGIN.cli(["score", str(town), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["code"] == EXAMPLE
