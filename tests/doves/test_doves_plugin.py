"""Plug-in surface: check codes, set-up editing, play by clicks/drags, drawing, module CLI."""

from __future__ import annotations

import json

import pytest

from solvers.common.errors import ParseError
from solvers.common.protocol import EditEvent
from solvers.doves import PLUGIN, PlayEntries
from solvers.doves.drawing import board_cell, hand_slot
from solvers.doves.model import GREEN, START, parse_board
from solvers.doves.rules import from_ssn


def press(cell, mode="play", tool="move", button="left"):
    return EditEvent("press", tool=tool, mode=mode, cell=cell, button=button)


def release(cell, mode="play", tool="move"):
    return EditEvent("release", tool=tool, mode=mode, cell=cell, button="left")


def test_check_codes() -> None:
    start = PLUGIN.check(START)  # a set-up without actions is not a "complete" game
    assert not start.complete and not start.violations and start.summary() == "no rule broken so far"
    assert PLUGIN.check(START, PlayEntries((from_ssn(START, "+AS1"),))).ok
    isolated = PLUGIN.parse("bB;;  A")
    result = PLUGIN.check(isolated)
    assert not result.ok and result.violations[0].code == "isolatedDove"
    assert result.violations[0].cells == ((2, 2),)
    over = PLUGIN.check(parse_board("bBh;Aa m;  M; H Y"))
    assert over.violations[0].code == "bossSurrounded"
    bad = PlayEntries((from_ssn(START, "+AS1"), from_ssn(START, "+AS1")))
    assert PLUGIN.check(START, bad).violations[0].code == "illegalAction"


def test_play_by_click_and_by_drag() -> None:
    entries = PLUGIN.empty_entries(START)
    ui = PLUGIN.new_ui(START)
    # click the red A in the hand, then the square below the red boss: put +AS1
    r = PLUGIN.edit(START, entries, press(hand_slot(2)), ui=ui)
    # picking up is UI state, not an edit: no entries, no undo step, the document unchanged
    assert r is not None and r.entries is None and r.puzzle is None and ui.selected == 2
    r2 = PLUGIN.edit(START, entries, press(board_cell(2, 0)), ui=ui)
    assert r2 is not None and r2.entries.actions == (from_ssn(START, "+AS1"),)
    assert ui.selected is None  # the played dove is put down
    # green drags its boss one square left (press on the dove, release on the target)
    position = PLUGIN.current_position(START, r2.entries)
    assert position.to_move == GREEN
    b = position.cells()[1]
    r3 = PLUGIN.edit(START, r2.entries, press(board_cell(*b)), ui=ui)
    assert r3 is not None and r3.entries is None and ui.selected == 1
    r4 = PLUGIN.edit(START, r2.entries, release(board_cell(b[0], b[1] - 1)), ui=ui)
    assert r4 is not None and len(r4.entries.actions) == 2
    # illegal: red tries to put next to the green boss orthogonally -> ignored
    now = PLUGIN.current_position(START, r4.entries)
    PLUGIN.edit(START, r4.entries, press(hand_slot(4)), ui=ui)
    gb = now.cells()[1]
    refused = PLUGIN.edit(START, r4.entries, press(board_cell(gb[0] + 1, gb[1])), ui=ui)
    assert refused is not None and refused.entries is None and refused.puzzle is None  # says why:
    assert refused.label == "Red Yaibato (Y) must be put next to an own dove, and not beside the enemy Boss"
    # the opponent's doves cannot be picked up
    other = PLUGIN.edit(START, r4.entries, press(hand_slot(3)))
    assert (
        other is not None and other.entries is None and other.label == "It is Red's turn: pick up a red dove"
    )


def test_setup_editing() -> None:
    r = PLUGIN.edit(START, None, press(board_cell(0, 1), mode="edit", tool="dove:A"))
    assert r is not None and r.puzzle.board_string() == "bA;B"
    # moving by drag in edit mode
    ui = PLUGIN.new_ui(r.puzzle)  # the drag source lives in the document's UI state
    PLUGIN.edit(r.puzzle, None, press(board_cell(0, 1), mode="edit"), ui=ui)
    r2 = PLUGIN.edit(r.puzzle, None, release(board_cell(2, 0), mode="edit"), ui=ui)
    assert r2 is not None and r2.puzzle.board_string() == "b;B;A"
    r3 = PLUGIN.edit(r2.puzzle, None, press(board_cell(2, 0), mode="edit", tool="erase"))
    assert r3 is not None and r3.puzzle == START
    assert PLUGIN.edit(START, None, press(board_cell(0, 0), mode="edit", tool="erase")) is None  # bosses stay
    r4 = PLUGIN.edit(START, None, press(None, mode="edit", tool="side"))
    assert r4 is not None and r4.puzzle.to_move == GREEN
    # a placement that breaks the 4x4 bound is refused
    wide = parse_board("bBAY")
    refused = PLUGIN.edit(wide, None, press(board_cell(0, 4), mode="edit", tool="dove:T"))
    assert refused is not None and refused.puzzle is None and refused.entries is None
    assert refused.label == "Red Totsu (T) cannot go there: all doves must fit in a 4x4 area"


def test_drawing_variants_are_deterministic() -> None:
    entries = PlayEntries((from_ssn(START, "+AS1"),))
    a = PLUGIN.draw(START, entries=entries)
    b = PLUGIN.draw(START, entries=entries)
    assert a.signature() == b.signature() and a.grid is not None
    picked = PLUGIN.new_ui(START)
    picked.selected = 0
    selected = PLUGIN.draw(START, entries=PlayEntries(), ui=picked)
    plain = PLUGIN.draw(START)
    assert len(selected.items) > len(plain.items)  # legal targets highlighted
    solution = next(iter(PLUGIN.solve(parse_board("bB;T YA"))))
    assert PLUGIN.draw(parse_board("bB;T YA"), solution).items


def test_cli_count(capsys) -> None:
    assert PLUGIN.cli(["count", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shapes"] == 5171
    assert data["by_doves"]["4"]["positions"] == 28_620
    assert data["total"] == data["neither"] + data["one"] + data["both"]
    assert set(data["by_doves"]["12"]) == {"positions", "neither", "one", "both"}


def test_cli_analyse(capsys) -> None:
    assert PLUGIN.cli(["analyse", "bB;T YA", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == "Win(5)" and len(data["best"]) == 5 and data["nodes"] > 0
    assert PLUGIN.cli(["analyse", "bB;T YA", "--to-move", "green", "--depth", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == "Unknown"


@pytest.mark.parametrize(
    "argv",
    [["analyse", "bX;T YA"], ["analyse", "bB;;  A"], ["analyse", "b;B", "--to-move", "blue"], ["frobnicate"]],
)
def test_cli_bad_input(argv, capsys) -> None:
    assert PLUGIN.cli(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("workbench doves") and "Traceback" not in err and err.count("\n") == 1


def test_cli_perft_and_ai(capsys) -> None:
    assert PLUGIN.cli(["perft", "--depth", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["perft"] == {"1": 29, "2": 827, "3": 27481}
    assert PLUGIN.cli(["ai", " By;H  a;A m;  Yb", "--level", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["action"]


def test_ai_entries_append_one_legal_action() -> None:
    position = parse_board(" By;H  a;A m;  Yb")  # Win(3) for Red
    entries = PLUGIN.ai_entries(position, PLUGIN.empty_entries(position), level=3, seed=0)
    assert entries is not None and len(entries.actions) == 1
    assert PLUGIN.check(position, entries).ok
    finished = PlayEntries((from_ssn(START, "+AS1"),))
    assert PLUGIN.current_position(START, finished).to_move == GREEN


def test_cli_puzzles(capsys) -> None:
    assert PLUGIN.cli(["puzzles", "--win", "3", "--count", "1", "--json"]) == 0
    (item,) = json.loads(capsys.readouterr().out)["puzzles"]
    assert item["value"] == "Win(3)" and len(item["solution"]) == 3
    assert PLUGIN.cli(["puzzles", "--win", "4"]) == 2


def test_solve_streams_all_depths_only_without_limit() -> None:
    position = parse_board("bB;T YA")
    final = list(PLUGIN.solve(position, limit=2))
    assert [s.extras["value"] for s in final] == ["Win(5)"]
    stream = list(PLUGIN.solve(position, limit=0))
    assert [s.extras["depth"] for s in stream] == [1, 2, 3, 4, 5]
    assert stream[-1].extras["best"] == final[0].extras["best"]
    # every line is legal; the shallow Unknown depths have no line, so they are not "complete"
    assert all(not PLUGIN.check_solution(position, s).violations for s in stream)
    assert PLUGIN.check_solution(position, stream[-1]).ok


def test_isolated_dove_is_ringed_and_hand_drag_places() -> None:
    isolated = PLUGIN.parse("bB;;  A")
    rings = [i for i in PLUGIN.draw(isolated).items if getattr(i, "stroke", None) == "error"]
    assert len(rings) == 1
    # edit mode: drag the red Y from its hand slot onto the board
    ui = PLUGIN.new_ui(START)
    assert PLUGIN.edit(START, None, press(hand_slot(4), mode="edit"), ui=ui) is None
    r = PLUGIN.edit(START, None, release(board_cell(1, 1), mode="edit"), ui=ui)
    assert r is not None and r.puzzle.board_string() == "b;BY"


def test_cli_rule_options(capsys) -> None:
    import doves_reference as ref

    position = parse_board("bB;T YA")
    assert PLUGIN.cli(["perft", "bB;T YA", "--depth", "1", "--no-remove", "--json"]) == 0
    no_remove = json.loads(capsys.readouterr().out)["perft"]["1"]
    assert no_remove == len(ref.actions(position.squares, 0, allow_remove=False)) == 29
    assert PLUGIN.cli(["analyse", "bB;T YA", "--both", "mover_wins", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == "Win(5)"
    assert PLUGIN.cli(["analyse", "bB;T YA", "--both", "sideways"]) == 2


def test_rule_options_are_document_state() -> None:
    """Rules ride in the puzzle: saved as a 'rules:' line, kept by set-up edits, used by check."""
    from solvers.common.errors import ParseError
    from solvers.doves.rules import Rules

    no_remove = Rules(allow_remove=False, both_surrounded="draw")
    start = START.with_rules(no_remove)
    text = PLUGIN.serialize_document(start, PlayEntries())
    assert "rules: remove=no both=draw" in text
    assert PLUGIN.parse_document(text) == (start, PlayEntries())
    assert "rules:" not in PLUGIN.serialize_document(START, PlayEntries())  # defaults stay unwritten
    with pytest.raises(ParseError, match="line 5.*unknown rule option 'remove=maybe'"):
        PLUGIN.parse_document(text.replace("remove=no", "remove=maybe"))
    # a set-up edit starts a new game under the same rules (they are the puzzle's)
    placed = PLUGIN.edit(start, PlayEntries(), press(board_cell(0, 1), mode="edit", tool="dove:A"))
    assert placed is not None and placed.entries == PlayEntries() and placed.puzzle.rules == no_remove
    switched = PLUGIN.edit(start, PlayEntries(), EditEvent("key", mode="edit", key="S"))
    assert switched is not None and switched.puzzle == start.with_to_move(1)
    # the rules decide what is legal: a remove is refused in a game without it
    position = parse_board("bBA")
    ui = PLUGIN.new_ui(position)
    red_a = PLUGIN.edit(
        position.with_rules(no_remove), PlayEntries(), press(board_cell(*position.cells()[2])), ui=ui
    )
    assert red_a is not None and ui.selected == 2
    delete = EditEvent("key", mode="play", key="Delete")
    refused = PLUGIN.edit(position.with_rules(no_remove), PlayEntries(), delete, ui=ui)
    assert refused is not None and refused.entries is None and "switched off" in refused.label
    allowed = PLUGIN.edit(position, PlayEntries(), delete, ui=ui)
    assert allowed is not None and allowed.entries is not None and len(allowed.entries.actions) == 1


def test_the_status_line_counts_the_variants_doves_and_names_the_rules() -> None:
    from solvers.doves import PLUGIN
    from solvers.doves.game import PlayEntries
    from solvers.doves.model import START
    from solvers.doves.rules import Rules, from_ssn

    assert PLUGIN.describe_document(START, PlayEntries()) == "Red to move; 2 doves on the table, 10 in hand"
    reduced = Rules.from_text("remove=no doves=AT/AY")
    assert PLUGIN.describe_document(START.with_rules(reduced), PlayEntries()) == (
        "Red to move; 2 doves on the table, 4 in hand; doves AT/AY; no remove"
    )
    assert PLUGIN.describe(START.with_rules(reduced)) == "red to move, 2 doves on the table, 4 in hand"
    put = from_ssn(START, "+AE1")
    assert PLUGIN.describe_document(START.with_rules(reduced), PlayEntries((put,))).startswith(
        "After 1 move: Green to move; 3 doves on the table, 3 in hand"
    )


# Files as versions before issue 30.1 wrote them (the rules then rode in the entries): with and
# without a 'rules:' line. They must read as before and be written back byte for byte, so an
# older version still reads what this one saves.
OLD_WITH_RULES = (
    "# Tokyo Doves position: rows top to bottom, '.' = empty square; doves not shown are in hand\n"
    "to move: red\nbB..\nT.YA\nrules: remove=no both=draw\nmoves: +HN1 bN1W1\n"
)
OLD_WITHOUT_RULES = (
    "# Tokyo Doves position: rows top to bottom, '.' = empty square; doves not shown are in hand\n"
    "to move: red\nbB..\nT.YA\nmoves: +HN1 bN1W1\n"
)


@pytest.mark.parametrize("text", [OLD_WITH_RULES, OLD_WITHOUT_RULES], ids=["rules-line", "no-rules-line"])
def test_files_written_before_the_rules_moved_read_and_write_back_unchanged(text: str) -> None:
    from solvers.doves.rules import DEFAULT_RULES, Rules

    puzzle, entries = PLUGIN.parse_document(text)
    expected = Rules(allow_remove=False, both_surrounded="draw") if "rules:" in text else DEFAULT_RULES
    assert puzzle.rules == expected and puzzle == parse_board("bB;T YA").with_rules(expected)
    assert [str(m) for m in PLUGIN.record_moves(puzzle, entries)[0]] == ["Red +HN1", "Green bN1W1"]
    assert PLUGIN.serialize_document(puzzle, entries) == text
    assert PLUGIN.parse(text) == puzzle  # the plain reader sees the same game
    assert PLUGIN.serialize(puzzle) == text.replace("moves: +HN1 bN1W1\n", "")
    # the 'rules:' line may stand anywhere, as before
    moved = "rules: remove=no both=draw\n" + OLD_WITHOUT_RULES
    assert PLUGIN.parse_document(moved)[0].rules == Rules(allow_remove=False, both_surrounded="draw")
    # a second one was silently dropped (the first counted); it is refused now
    with pytest.raises(ParseError, match=r"^line 7: a second 'rules:' line \(the first is on line 1\)$"):
        PLUGIN.parse_document(moved + "rules: remove=yes\n")


def test_an_analysis_line_turned_into_entries_keeps_the_games_rules() -> None:
    """entries_from_solution built entries under the default rules: a document that took a best
    line lost its 'rules:' line (and replayed it under other rules than it was found under)."""
    text = OLD_WITH_RULES.replace("moves: +HN1 bN1W1\n", "")
    puzzle, entries = PLUGIN.parse_document(text)
    options = PLUGIN.solve_options(entries)
    (solution,) = PLUGIN.solve(puzzle, limit=1, **options)
    assert solution.data.line, "a line to turn into entries"
    line = PLUGIN.entries_from_solution(puzzle, solution)
    saved = PLUGIN.serialize_document(puzzle, line)
    assert "rules: remove=no both=draw" in saved
    assert PLUGIN.parse_document(saved) == (puzzle, line)
    assert PLUGIN.check_solution(puzzle, solution).violations == []


def test_a_rules_change_keeps_the_moves_that_stay_legal() -> None:
    """adapt_entries (a new puzzle without new entries, e.g. a rules change) keeps the record's
    longest legal prefix and the shown move, as X-ceter-O's does."""
    from solvers.doves.rules import Rules

    puzzle = parse_board("bB;T YA")
    current, actions = puzzle, []
    for ssn in ("+HN1", "bN1W1", "-T", "+aN2"):
        actions.append(from_ssn(current, ssn))
        current = PLUGIN.current_position(puzzle, PlayEntries(tuple(actions)))
    game = PlayEntries(tuple(actions)).goto(3)
    no_remove = puzzle.with_rules(Rules(allow_remove=False))
    kept = PLUGIN.adapt_entries(no_remove, game)
    assert kept.record == tuple(actions[:2]) and kept.ply == 2  # the remove and what follows go
    assert PLUGIN.check(no_remove, kept).violations == []
    assert PLUGIN.adapt_entries(puzzle.with_rules(Rules(both_surrounded="draw")), game) == game
    assert PLUGIN.adapt_entries(no_remove, PlayEntries(tuple(actions)).goto(1)) == PlayEntries(
        tuple(actions[:2])
    ).goto(1)
