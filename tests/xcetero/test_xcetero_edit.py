"""Play-mode and set-up editing, and the display list (pieces, due piece, hints)."""

from __future__ import annotations

from solvers.common.display import Text
from solvers.common.protocol import EditEvent
from solvers.xcetero import PLUGIN, engine
from solvers.xcetero.plugin import Game, XceteroUI
from solvers.xcetero.rules import Position, apply_moves


def press(cell: tuple[int, int], mode: str = "play", tool: str = "move", button: str = "left") -> EditEvent:
    return EditEvent("press", tool=tool, mode=mode, cell=cell, button=button)  # type: ignore[arg-type]


def texts(dl) -> list[str]:
    return [item.text for item in dl.items if isinstance(item, Text)]


def test_play_clicks_move_the_due_piece_and_take_back() -> None:
    start = Position()
    result = PLUGIN.edit(start, (), press((0, 1)))
    assert result is not None and result.entries == Game((1,)) and result.puzzle is None
    moves = result.entries
    refused = PLUGIN.edit(start, moves, press((0, 1)))  # occupied square: nothing changes, says why
    assert refused is not None and refused.entries is None and refused.puzzle is None
    assert refused.label == "R1C2 is taken by the opponent's piece O1: X2 needs an empty square"
    result = PLUGIN.edit(start, moves, press((1, 1)))
    assert result is not None and result.entries == Game((1, 4))
    back = PLUGIN.edit(start, result.entries, EditEvent("key", mode="play", key="Backspace"))
    # take back keeps the move as the record's later move (the move list's "forward")
    assert back is not None and back.entries == Game((1,), (4,)) and back.label == "Take back"
    assert PLUGIN.edit(start, (), press((0, 0), button="right")) is None  # nothing to take back


def test_record_branching_and_the_saved_file() -> None:
    start = Position()
    game = Game((1, 4, 0))
    texts, shown = PLUGIN.record_moves(start, game)
    assert texts == ["O1→R1C2", "X2→R2C2", "O3→R1C1"] and shown == 3
    back = PLUGIN.record_goto(start, game, 1)
    assert back == Game((1,), (4, 0)) and PLUGIN.record_moves(start, back) == (texts, 1)
    # the saved file keeps the whole record, whichever move is shown
    assert PLUGIN.serialize_document(start, back) == PLUGIN.serialize_document(start, game)
    assert PLUGIN.parse_document(PLUGIN.serialize_document(start, back))[1] == game
    same = PLUGIN.edit(start, back, press((1, 1)))  # the record's next move: the rest stays
    assert same is not None and same.entries == Game((1, 4), (0,))
    other = PLUGIN.edit(start, back, press((2, 2)))  # another move: the later moves go
    assert other is not None and other.entries == Game((1, 8))
    assert other.label == "Play X2→R3C3 (replaces 2 later moves)"


def test_refusals_say_why() -> None:
    start = Position()
    own = PLUGIN.edit(start, Game((1, 4)), press((0, 1)))  # O3 onto O1
    assert own is not None and own.label == "R1C2 is taken by your own piece O1: O3 needs an empty square"
    won = PLUGIN.edit(start, Game((0, 3, 1, 4, 2)), press((2, 2)))
    assert won is not None and won.label == "The game is over: O has won"
    jumping = apply_moves(start, [0, 3, 1, 4, 6, 8])  # all six placed; O1 (on 0) is due
    assert jumping.due == 1
    back = PLUGIN.edit(jumping, (), press((0, 0)))
    assert back is not None and back.label.startswith("O1 must jump to another square")


def test_no_moves_after_a_win_or_a_repetition_draw() -> None:
    start = Position()
    won = (0, 3, 1, 4, 2)
    assert apply_moves(start, won).winner() == "O"
    assert PLUGIN.edit(start, won, press((2, 2))).entries is None  # refused (the label says why)
    rep = PLUGIN.parse("562/.43/.1. 2 rep=2")
    cycle = tuple(engine.principal_variation(rep))
    assert PLUGIN.check(rep, cycle).complete
    end = apply_moves(rep, cycle)
    refused = [PLUGIN.edit(rep, cycle, press(divmod(sq, 3))) for sq in end.legal_moves()]
    assert all(r.entries is None and r.label.endswith("drawn by repetition") for r in refused)
    # without the house rule the same line may go on
    free = PLUGIN.parse("562/.43/.1. 2")
    assert any(PLUGIN.edit(free, cycle, press(divmod(sq, 3))).entries for sq in end.legal_moves())


def test_setup_tools_keep_the_due_piece_consistent() -> None:
    p = Position()
    r = PLUGIN.edit(p, (5,), press((1, 1), mode="edit", tool="piece1"))
    assert r is not None and r.puzzle.squares[0] == 4 and r.puzzle.due == 2 and r.entries == ()
    p = r.puzzle
    for piece, cell in zip(range(2, 7), [(0, 0), (0, 2), (2, 0), (2, 2), (0, 1)], strict=True):
        r = PLUGIN.edit(p, (), press(cell, mode="edit", tool=f"piece{piece}"))
        assert r is not None
        p = r.puzzle
    assert p.due == 1 and p.placed() == 6  # the sixth piece arrived: the cycle restarts with piece 1
    r = PLUGIN.edit(p, (), press((0, 2), mode="edit", tool="due"))
    assert r is not None and r.puzzle.due == 3
    r = PLUGIN.edit(r.puzzle, (), press((0, 2), mode="edit", button="right"))
    assert r is not None and r.puzzle.squares[2] == -1 and r.puzzle.due == 3
    key = EditEvent("key", mode="edit", cell=(1, 0), key="3")
    r2 = PLUGIN.edit(r.puzzle, (), key)
    assert r2 is not None and r2.puzzle.squares[2] == 3
    assert PLUGIN.edit(r2.puzzle, (), press((1, 0), mode="edit", tool="piece3")) is None  # no change


def test_draw_shows_pieces_due_and_hints() -> None:
    p = PLUGIN.parse("4../512/6.3 3")
    plain = PLUGIN.draw(p)
    assert {"1", "2", "3", "4", "5", "6"} <= set(texts(plain))
    assert any("O to move: jump with piece 3" in t for t in texts(plain))
    hinted = PLUGIN.draw(p, overlay={"hints": True})
    labels = [t for t in texts(hinted) if t.startswith(("Win(", "Lose(", "Draw"))]
    expected = sorted(v.words() for v in engine.move_values(p).values())
    assert sorted(labels) == expected and len(labels) == 3
    assert PLUGIN.draw(p, overlay="hints").signature() == hinted.signature()
    assert plain.grid is not None and plain.grid.cell_at(*plain.grid.center(2, 1)) == (2, 1)


def test_draw_after_moves_and_of_a_solution() -> None:
    start = Position()
    dl = PLUGIN.draw(start, entries=(0, 3, 1, 4, 2))
    assert any(t == "O wins: three in a row" for t in texts(dl))
    solution = next(PLUGIN.solve(start))
    assert PLUGIN.check_solution(start, solution).ok
    shown = PLUGIN.draw(start, solution)
    assert any(t.startswith("Win(13): O1→R1C2") for t in texts(shown))
    # invalid set-ups still draw (the checker reports them)
    PLUGIN.draw(PLUGIN.parse("135/246/... 1"), overlay={"hints": True})


def test_pv_preview_overlay_shows_the_later_position() -> None:
    start = Position()
    line = engine.principal_variation(start)
    overlay = {"preview": line[:5], "next": line[5], "caption": "step 5 of 13"}
    dl = PLUGIN.draw(start, entries=(), overlay=overlay)
    shown = texts(dl)
    assert "step 5 of 13" in shown and "X to move: place piece 6" in shown
    assert sorted(t for t in shown if t.isdigit()) == ["1", "2", "3", "4", "5", "6"]  # 5 on board, 6 in tray
    plain = texts(PLUGIN.draw(start))
    assert "O to move: place piece 1" in plain


def test_opening_table_matches_the_analysis() -> None:
    from solvers.xcetero.retro import analyse, summary

    table = engine.opening_table()
    first = summary(analyse())["first_moves"]
    assert [row["square"] for row in table] == list(range(9))
    assert {str(row["square"]): row["value"] for row in table} == first
    for row in table:
        after = Position().play(row["square"])
        for reply in row["replies"]:
            assert engine.move_values(after)[reply].text() == row["reply_value"]


def test_take_back_against_the_computer_returns_to_the_players_turn() -> None:
    """The panel tells the editor which sides the computer plays (``XceteroUI``): take-back goes
    back past the computer's moves, as the panel's Take back button does; never before the start."""
    start = Position()
    played = Game((1, 4, 3))  # O, X, O: X to move
    back = EditEvent("key", mode="play", key="Backspace")
    assert PLUGIN.edit(start, played, back, ui=XceteroUI()).entries.moves == (1, 4)
    assert PLUGIN.edit(start, played, back, ui=XceteroUI(frozenset({"X"}))).entries.moves == (1, 4)
    after_reply = Game((1, 4))  # the computer (X) replied: O, the player, to move
    ui = XceteroUI(frozenset({"X"}))
    assert PLUGIN.edit(start, after_reply, back, ui=ui).entries.moves == ()
    both = XceteroUI(frozenset({"O", "X"}))
    assert PLUGIN.edit(start, played, back, ui=both).entries.moves == ()
    assert PLUGIN.new_ui(start) == XceteroUI()
