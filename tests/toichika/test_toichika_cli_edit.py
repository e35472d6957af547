"""Module CLI commands, Qt-free editing (borders, paint, arrows, play entries) and drawing."""

from __future__ import annotations

import json

from solvers.common.display import Line, Polyline, Text
from solvers.common.protocol import EditEvent
from solvers.toichika import PLUGIN
from solvers.toichika.drawing import CELL, MARGIN
from solvers.toichika.model import DOT, DOWN, LEFT, QUESTION, RIGHT, UP, Toichika
from solvers.toichika.url_codec import decode_url

URL = "https://puzz.link/p?toichika/4/4/n70kt84j"


def test_cli_url_convert_uniqueness_hint(tmp_path, capsys) -> None:
    path = tmp_path / "p.toichika"
    assert PLUGIN.cli(["convert", URL, "--to", "text"]) == 0
    path.write_text(capsys.readouterr().out)
    assert PLUGIN.cli(["url", str(path)]) == 0
    assert capsys.readouterr().out.strip() == URL
    assert PLUGIN.cli(["convert", URL, "--to", "pzprv3"]) == 0
    assert capsys.readouterr().out.splitlines()[:4] == ["pzprv3", "toichika", "4", "4"]
    assert PLUGIN.cli(["uniqueness", URL, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unique" and out["solutions"][0] == [">..<", ".v..", ">..<", ".^.."]
    loose = "https://puzz.link/p?toichika/6/2/vv00g"  # the 6x2 corpus board without its given
    assert PLUGIN.cli(["uniqueness", loose, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "not unique" and out["differing_cells"]
    assert PLUGIN.cli(["hint", URL, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["kind"] == "step"


def test_cli_bad_input_is_one_line_exit_2(capsys) -> None:
    assert PLUGIN.cli(["url", "nonexistent.toichika"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err
    assert PLUGIN.cli(["url", "https://puzz.link/p?toichika/4/4/n7"]) == 2
    assert "needs 3 characters" in capsys.readouterr().err
    assert PLUGIN.cli(["frobnicate", URL]) == 2
    assert PLUGIN.cli([]) == 2


def _session():
    """An editor over one document's UI state (a drag's stroke lives there, not in the plug-in)."""
    ui = PLUGIN.new_ui(None)
    return lambda p, entries, event: PLUGIN.edit(p, entries, event, ui=ui)


def _edge_pos(kind: str, r: int, c: int) -> tuple[float, float]:
    if kind == "v":  # right edge of (r, c)
        return (MARGIN + (c + 1) * CELL + 1, MARGIN + (r + 0.5) * CELL)
    return (MARGIN + (c + 0.5) * CELL, MARGIN + (r + 1) * CELL - 1)


def test_border_drag_draws_then_erases_walls() -> None:
    edit = _session()
    p = Toichika.empty(3, 3)
    events = [("press", _edge_pos("v", 0, 0)), ("drag", _edge_pos("v", 1, 0)), ("drag", _edge_pos("v", 2, 0))]
    keys = set()
    for kind, pos in events:
        result = edit(p, None, EditEvent(kind, "border", "edit", None, pos, "left"))
        assert result is not None
        p = result.puzzle
        keys.add(result.merge_key)
    assert keys == {"border"} and all(p.wall_right(r, 0) for r in range(3)) and len(p.regions) == 2
    # pressing on an existing wall erases along the drag
    result = edit(p, None, EditEvent("press", "border", "edit", None, _edge_pos("v", 1, 0), "left"))
    assert result is not None and not result.puzzle.wall_right(1, 0)
    # horizontal edge, and a press far from any interior edge does nothing
    result = edit(p, None, EditEvent("press", "border", "edit", None, _edge_pos("h", 0, 2), "left"))
    assert result is not None and result.puzzle.wall_below(0, 2)
    assert edit(p, None, EditEvent("press", "border", "edit", None, (MARGIN + 1, MARGIN + 1), "left")) is None


def test_a_press_in_the_margin_changes_no_border() -> None:
    """QA: a click in the white margin below the board (to give it focus) erased the border of
    the nearest inner edge. Presses on the board's edges still draw."""
    edit = _session()
    p = Toichika.empty(3, 3)
    below = MARGIN + 3 * CELL + 0.3 * CELL
    for pos in ((MARGIN + CELL + 1, below), (MARGIN - 0.3 * CELL, MARGIN + CELL - 1)):
        assert edit(p, None, EditEvent("press", "border", "edit", None, pos, "left")) is None
    near = (MARGIN + CELL + 1, MARGIN + 3 * CELL + 0.1 * CELL)  # on the outline, by a vertical edge
    result = edit(p, None, EditEvent("press", "border", "edit", None, near, "left"))
    assert result is not None and result.puzzle.wall_right(2, 0)


def test_paint_country_carves_a_connected_region() -> None:
    edit = _session()
    p = Toichika.empty(3, 3)
    for kind, cell in (("press", (0, 0)), ("drag", (0, 1)), ("drag", (1, 1)), ("drag", (2, 2))):
        result = edit(p, None, EditEvent(kind, "paint", "edit", cell))
        if result is not None:
            p = result.puzzle
    region = p.region_of
    assert region[0] == region[1] == region[4]
    assert len({region[0], region[8]}) == 2  # (2,2) was not next to the stroke: ignored
    assert len(p.regions) == 2


def test_given_arrows_by_click_drag_and_keys() -> None:
    edit = _session()
    p = Toichika.empty(3, 3)
    r1 = edit(p, None, EditEvent("press", "arrow", "edit", (1, 1)))
    assert r1 is not None and r1.puzzle.given(1, 1) == UP
    r2 = edit(r1.puzzle, None, EditEvent("press", "arrow", "edit", (1, 1)))
    assert r2 is not None and r2.puzzle.given(1, 1) == RIGHT  # clicks cycle
    p = Toichika.empty(3, 3)
    edit(p, None, EditEvent("press", "arrow", "edit", (0, 0)))
    r3 = edit(p, None, EditEvent("drag", "arrow", "edit", (1, 0)))
    assert r3 is not None and r3.puzzle.given(0, 0) == DOWN  # drag sets the direction of motion
    assert edit(p, None, EditEvent("key", "arrow", "edit", (2, 2), key="Left")) is None  # cursor
    shift = frozenset({"shift"})
    r4 = edit(p, None, EditEvent("key", "arrow", "edit", (2, 2), key="Left", modifiers=shift))
    assert r4 is not None and r4.puzzle.given(2, 2) == LEFT
    r4b = edit(p, None, EditEvent("key", "arrow", "edit", (2, 2), key="3"))
    assert r4b is not None and r4b.puzzle.given(2, 2) == DOWN  # digits 1-4: ^ > v <
    r5 = edit(r4.puzzle, None, EditEvent("key", "", "edit", (2, 2), key="?"))
    assert r5 is not None and r5.puzzle.given(2, 2) == QUESTION
    r6 = edit(r5.puzzle, None, EditEvent("key", "", "edit", (2, 2), key="Delete"))
    assert r6 is not None and r6.puzzle.given(2, 2) == 0
    r7 = edit(p, None, EditEvent("press", "question", "edit", (0, 1)))
    assert r7 is not None and r7.puzzle.given(0, 1) == QUESTION


def test_letters_are_tool_shortcuts_not_cell_edits() -> None:
    edit = _session()
    p = Toichika.empty(3, 3).with_given(1, 1, UP)
    for key in ("e", "q", "E", "Q"):  # E = Erase tool, Q = "?" tool: the shell selects the tool
        assert edit(p, None, EditEvent("key", "arrow", "edit", (1, 1), key=key)) is None


def test_play_mode_entries_respect_givens() -> None:
    edit = _session()
    p = decode_url(URL)
    entries = PLUGIN.empty_entries(p)
    assert edit(p, entries, EditEvent("press", "arrow", "play", (0, 0))) is None  # given
    r1 = edit(p, entries, EditEvent("key", "arrow", "play", (0, 3), key="4"))
    assert r1 is not None and r1.puzzle is None and r1.entries[3] == LEFT
    r2 = edit(p, r1.entries, EditEvent("press", "dot", "play", (0, 1)))
    assert r2 is not None and r2.entries[1] == DOT
    r3 = edit(p, r2.entries, EditEvent("drag", "dot", "play", (0, 2)))
    assert r3 is not None and r3.entries[2] == DOT
    r4 = edit(p, r3.entries, EditEvent("press", "arrow", "play", (1, 1), button="right"))
    assert r4 is not None and r4.entries[5] == DOT


def test_drawing_colours_and_overlay() -> None:
    p = decode_url(URL)
    solution = next(PLUGIN.solve(p, limit=1))
    dl = PLUGIN.draw(p, solution)
    colours = {getattr(item, "color", None) for item in dl.items if isinstance(item, (Line, Polyline))}
    assert {"given", "solution", "wall", "grid"} <= colours
    walls = [it for it in dl.items if isinstance(it, Line) and it.color == "wall"]
    assert len(walls) == sum(p.vwalls) + sum(p.hwalls)
    assert dl.grid is not None and dl.grid.cell_at(MARGIN + 1.5 * CELL, MARGIN + 0.5 * CELL) == (0, 1)
    q = p.with_given(1, 1, QUESTION)
    assert any(isinstance(it, Text) and it.text == "?" for it in PLUGIN.draw(q).items)
    over = PLUGIN.draw(p, overlay={"used": [(0, 0)], "changed": [(0, 3)], "state": [31] * 16})
    assert any(getattr(it, "fill", None) == "highlight-fill" for it in over.items)
    assert any(getattr(it, "stroke", None) == "accent" for it in over.items)
    bad = list(PLUGIN.empty_entries(p))
    bad[p.index(1, 0)] = DOWN
    bad[p.index(3, 0)] = RIGHT
    assert any(getattr(it, "fill", None) == "error-fill" for it in PLUGIN.draw(p, entries=tuple(bad)).items)


def test_resize_and_describe() -> None:
    p = decode_url(URL)
    bigger = PLUGIN.resize(p, 5, 6)
    assert PLUGIN.size_of(bigger) == (5, 6) and bigger.given(0, 0) == RIGHT
    assert bigger.wall_right(0, 0) and not bigger.wall_right(0, 4)
    assert PLUGIN.describe(p) == "4x4, 6 countries, 1 given"
    assert PLUGIN.new_puzzle(3, 5).cols == 5


def test_live_errors_skip_unfinished_lines() -> None:
    from solvers.toichika.drawing import live_errors

    p = decode_url(URL)  # given > at (0,0); countries as in the pzprjs test
    entries = list(PLUGIN.empty_entries(p))
    assert live_errors(p, tuple(entries)) == []  # the given has no partner yet: not an error
    entries[p.index(0, 3)] = DOWN  # the first arrow seen by (0,0) does not point back ...
    assert live_errors(p, tuple(entries)) == []  # ... but an arrow could still go between them
    entries[p.index(0, 1)] = entries[p.index(0, 2)] = DOT
    assert (0, 0) in live_errors(p, tuple(entries))
    entries[p.index(0, 3)] = 0
    entries[p.index(0, 3)] = DOT  # every cell up to the edge dotted: settled and alone
    assert live_errors(p, tuple(entries)) == [(0, 0)]


def test_explain_export_step_writes_the_replayed_board(tmp_path, capsys) -> None:
    from PySide6.QtGui import QImage

    from workbench.cli import main

    out = tmp_path / "step3.png"
    assert main(["explain", "toichika", URL, "--export-step", "3", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    image = QImage(str(out))
    assert not image.isNull() and image.width() > 100
    assert main(["explain", "toichika", URL, "--export-step", "99", str(out)]) == 2
    assert "step 99 does not exist" in capsys.readouterr().err
    assert main(["explain", "toichika", URL, "--export-step", "x", str(out)]) == 2
    assert "--export-step N" in capsys.readouterr().err
    assert main(["explain", "flow", "x", "--export-step", "1", str(out)]) == 2
    capsys.readouterr()


def test_step_overlay_drawing_ignores_a_solution() -> None:
    from solvers.toichika.explain import explain, step_overlay

    p = decode_url(URL)
    overlay = step_overlay(explain(p), 2)
    solution = next(PLUGIN.solve(p, limit=1))
    assert PLUGIN.draw(p, solution, overlay=overlay).items == PLUGIN.draw(p, overlay=overlay).items
