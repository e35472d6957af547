"""Pencil marks and Apply hint (issue 29.3): the player records ruled-out directions and "no
arrow" dots, Hint reads them as the player's knowledge, and Apply hint writes a hint's
conclusions into the entries, so Hint + Apply always moves on and finally solves the board."""

from __future__ import annotations

import time

import pytest
from toichika_corpus import load_corpus

from solvers.common.errors import ParseError
from solvers.common.protocol import EditEvent
from solvers.toichika.candidates import BIT, EMPTY
from solvers.toichika.drawing import CELL, MARGIN
from solvers.toichika.explain import apply_hint, entries_masks, explain, hint
from solvers.toichika.model import (
    DIRECTIONS,
    DOT,
    DOWN,
    LEFT,
    MARK_ARROW_HERE,
    RIGHT,
    UP,
    arrows_of,
    is_marks,
    marks_entry,
    marks_of,
)
from solvers.toichika.plugin import PLUGIN, parse_any
from solvers.toichika.pzprv3_codec import write_pzprv3
from solvers.toichika.rules import check
from solvers.toichika.sat_solver import is_consistent, iter_solutions
from solvers.toichika.url_codec import decode_url

# The issue's board: the first hint is "adjacency ban: R1C1 cannot point ^/<".
URL = "https://puzz.link/p?toichika/5/5/err9phae9473c3a"
SMALL = "https://puzz.link/p?toichika/4/4/n70kt84j"


def _at(r: int, c: int, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
    """A logical position in cell (r, c), offset from its centre in cells."""
    return (MARGIN + (c + 0.5 + dx) * CELL, MARGIN + (r + 0.5 + dy) * CELL)


def _press(cell, pos, tool="arrow", mods=frozenset({"shift"})) -> EditEvent:
    return EditEvent("press", tool, "play", cell, pos, "left", modifiers=frozenset(mods))


def _solution(puzzle) -> tuple[int, ...]:
    (only,) = list(iter_solutions(puzzle, limit=2))
    return only


# ---- the gesture ------------------------------------------------------------------------------
def test_shift_click_near_a_side_toggles_that_direction() -> None:
    p = decode_url(URL)
    empty = PLUGIN.empty_entries(p)
    near = {RIGHT: (0.35, 0.05), LEFT: (-0.35, 0.1), UP: (0.1, -0.4), DOWN: (-0.05, 0.3)}
    for d, (dx, dy) in near.items():
        result = PLUGIN.edit(p, empty, _press((2, 2), _at(2, 2, dx, dy)))
        assert result is not None and result.entries is not None, d
        assert result.entries[p.index(2, 2)] == marks_entry(1 << d)
        assert sum(1 for e in result.entries if e) == 1  # one cell, one mark
        again = PLUGIN.edit(p, result.entries, _press((2, 2), _at(2, 2, dx, dy)))
        assert again is not None and again.entries == empty  # the same click takes it back
    centre = PLUGIN.edit(p, empty, _press((2, 2), _at(2, 2, 0.05, -0.05)))
    assert centre is not None and centre.entries[p.index(2, 2)] == marks_entry(MARK_ARROW_HERE)


def test_pencil_tool_marks_without_shift_and_marks_add_up() -> None:
    p = decode_url(URL)
    entries = PLUGIN.empty_entries(p)
    for dx, dy in ((-0.4, 0.0), (0.0, -0.4)):
        result = PLUGIN.edit(p, entries, _press((0, 0), _at(0, 0, dx, dy), tool="pencil", mods=()))
        assert result is not None and result.merge_key == "marks"
        entries = result.entries
    assert marks_of(entries[0]) == (1 << LEFT) | (1 << UP) and is_marks(entries[0])
    assert "not" in result.label and "R1C1" in result.label
    # a drag with the pencil changes nothing: one press, one toggle, one undo step
    drag = EditEvent("drag", "pencil", "play", (0, 1), _at(0, 1, 0.4), "left")
    assert PLUGIN.edit(p, entries, drag) is None
    # the plain arrow tool still cycles arrows, and an arrow replaces the marks
    arrow = PLUGIN.edit(p, entries, _press((0, 0), _at(0, 0), mods=()))
    assert arrow is not None and arrow.entries[0] == UP


def test_marks_refused_on_arrows_and_dots_and_keys_work() -> None:
    p = decode_url(URL)
    g = next(i for i, v in enumerate(p.givens) if v in DIRECTIONS)
    entries = list(PLUGIN.empty_entries(p))
    assert PLUGIN.edit(p, tuple(entries), _press(p.cell(g), _at(*p.cell(g), 0.4))) is None
    entries[0] = DOT
    refused = PLUGIN.edit(p, tuple(entries), _press((0, 0), _at(0, 0, 0.4)))
    assert refused is not None and refused.entries is None and "dot" in refused.label  # says why
    entries[0] = 0
    key = EditEvent("key", "arrow", "play", (0, 0), key="Up", modifiers=frozenset({"ctrl"}))
    result = PLUGIN.edit(p, tuple(entries), key)
    assert result is not None and result.entries[0] == marks_entry(1 << UP)
    star = PLUGIN.edit(p, result.entries, EditEvent("key", "arrow", "play", (0, 0), key="*"))
    assert star is not None and star.entries[0] == marks_entry((1 << UP) | MARK_ARROW_HERE)
    dot = PLUGIN.edit(p, star.entries, EditEvent("key", "arrow", "play", (0, 0), key="."))
    assert dot is not None and dot.entries[0] == DOT  # a dot replaces the marks
    # edit mode has no pencil marks: Shift+click there is the border tool as before
    edit = EditEvent("press", "arrow", "edit", (0, 0), _at(0, 0, 0.4), "left", modifiers=frozenset({"shift"}))
    result = PLUGIN.edit(p, PLUGIN.empty_entries(p), edit)
    assert result is not None and result.puzzle is not None and result.entries is None


# ---- files ------------------------------------------------------------------------------------
def test_marks_round_trip_through_the_native_file_and_old_files_still_read() -> None:
    p = decode_url(URL)
    entries = list(PLUGIN.empty_entries(p))
    entries[0] = marks_entry((1 << UP) | (1 << LEFT))
    entries[1] = marks_entry(MARK_ARROW_HERE | (1 << DOWN))
    entries[2] = DOT
    entries[3] = RIGHT
    text = PLUGIN.serialize_document(p, tuple(entries))
    assert "\nmarks\n" in text and "^<" in text and "ov" in text
    assert PLUGIN.parse_document(text) == (p, tuple(entries))
    assert PLUGIN.parse(text) == p
    # a game without marks is written exactly as before: no marks block
    plain = list(entries)
    plain[0] = plain[1] = 0
    old_text = PLUGIN.serialize_document(p, tuple(plain))
    assert "marks" not in old_text
    assert PLUGIN.parse_document(old_text) == (p, tuple(plain))
    # a file written before marks existed (literal, CRLF and a comment) reads as it always did
    old = "toichika\r\n+-+-+\r\n|. .|\r\n+-+ +\r\n|>|.|\r\n+-+-+\r\nanswer\r\n# mine\r\n+<\r\n..\r\n"
    board, got = parse_any(old)
    assert board.rows == 2 and got == (DOT, LEFT, 0, 0)
    # marks only (no answers): the answer block is all '.', then the marks
    only = [0] * p.size
    only[7] = marks_entry(1 << RIGHT)
    assert PLUGIN.parse_document(PLUGIN.serialize_document(p, tuple(only))) == (p, tuple(only))
    # pzprv3 (pzprjs' format) has no pencil marks: they are left out, the rest is kept
    assert parse_any(write_pzprv3(p, tuple(entries)))[1] == tuple(
        e if not is_marks(e) else 0 for e in entries
    )


@pytest.mark.parametrize(
    "marks_row, message",
    [
        (". . x . .", "unexpected pencil mark 'x'"),
        (". . . .", "marks row has 4 cells, expected 5"),
    ],
)
def test_bad_marks_block_is_one_clear_error(marks_row: str, message: str) -> None:
    p = decode_url(URL)
    entries = [0] * p.size
    entries[0] = marks_entry(1 << UP)
    text = PLUGIN.serialize_document(p, tuple(entries))
    lines = text.splitlines()
    at = lines.index("marks") + 2
    lines[at] = marks_row
    with pytest.raises(ParseError, match=message) as info:
        PLUGIN.parse_document("\n".join(lines) + "\n")
    assert str(info.value).startswith(f"line {at + 1}")
    both = text.replace("answer\n.", "answer\n>", 1)  # R1C1: an arrow and marks at once
    with pytest.raises(ParseError, match="R1C1 has both an answer and pencil marks"):
        PLUGIN.parse_document(both)


# ---- check, drawing ---------------------------------------------------------------------------
def test_check_treats_marks_as_notes() -> None:
    p = decode_url(URL)
    solution = _solution(p)
    entries = [d if d else 0 for d in solution]
    # every empty cell of the solution carries a (correct) mark: still solved, no violation
    marked = [e if e else marks_entry(1 << UP) for e in entries]
    assert check(p, tuple(marked)).ok
    assert PLUGIN.check(p, tuple(marked)).complete and not PLUGIN.check(p, tuple(marked)).violations
    only_marks = tuple(marks_entry(1 << LEFT) for _ in range(p.size))
    assert not PLUGIN.check(p, only_marks).violations  # unfinished, nothing broken


def test_marks_are_drawn_small_and_apart_from_arrows() -> None:
    from solvers.common.display import Circle, Line, Polyline

    p = decode_url(URL)
    entries = [0] * p.size
    entries[0] = marks_entry((1 << RIGHT) | MARK_ARROW_HERE)
    items = PLUGIN.draw(p, entries=tuple(entries)).items
    cx, cy = _at(0, 0)
    lines = [it for it in items if isinstance(it, Line) and it.color == "entry"]
    assert len(lines) == 2  # one small cross
    xs = [x for it in lines for x in (it.p1[0], it.p2[0])]
    assert min(xs) > cx + 0.2 * CELL and max(xs) < cx + 0.5 * CELL  # near the right side
    assert max(abs(it.p1[0] - it.p2[0]) for it in lines) < 0.25 * CELL  # small
    rings = [it for it in items if isinstance(it, Circle) and it.stroke == "entry"]
    assert len(rings) == 1 and rings[0].fill is None and (rings[0].cx, rings[0].cy) == (cx, cy)
    assert not [it for it in items if isinstance(it, Polyline) and it.color == "entry"]  # no arrow head


# ---- hint and apply ---------------------------------------------------------------------------
def test_hint_reads_the_marks_so_it_moves_on() -> None:
    """The issue: Hint said "R1C1 cannot point ^/<" for ever; with the marks it says something new."""
    p = decode_url(URL)
    first = hint(p, PLUGIN.empty_entries(p))
    assert first["kind"] == "step" and "R1C1 cannot point ↑ or ←" in first["text"]
    entries = list(PLUGIN.empty_entries(p))
    for d in (UP, LEFT):  # the player marks them by hand
        result = PLUGIN.edit(
            p, tuple(entries), _press((0, 0), _at(0, 0, *{UP: (0, -0.4), LEFT: (-0.4, 0)}[d]))
        )
        entries = list(result.entries)
    second = hint(p, tuple(entries))
    assert second["kind"] == "step" and second["text"] != first["text"]
    assert entries_masks(p, tuple(entries))[0] == EMPTY | BIT[DOWN] | BIT[RIGHT]


def test_apply_hint_writes_exactly_the_steps_conclusions() -> None:
    p = decode_url(URL)
    entries = PLUGIN.empty_entries(p)
    for _ in range(12):
        result = hint(p, entries)
        assert result["kind"] == "step"
        new = apply_hint(p, entries, result)
        assert new is not None and new != entries
        ex = explain(p, start=entries_masks(p, entries), max_steps=1)
        assert entries_masks(p, new) == ex.states[1]  # nothing lost, nothing invented
        changed = {p.cell(i) for i in range(p.size) if new[i] != entries[i]}
        assert changed == {tuple(c["cell"]) for c in result["conclusions"]}
        entries = new
    assert any(is_marks(e) for e in entries) and any(e in DIRECTIONS or e == DOT for e in entries)


def test_a_wrong_mark_is_reported_and_apply_takes_it_back() -> None:
    p = decode_url(URL)
    solution = _solution(p)
    i = next(k for k, d in enumerate(solution) if d in DIRECTIONS and p.givens[k] == 0)
    entries = [0] * p.size
    entries[i] = marks_entry((1 << solution[i]) | (1 << (UP if solution[i] != UP else DOWN)))
    result = hint(p, tuple(entries))
    r, c = p.cell(i)
    assert result["kind"] == "wrong-entry" and result["cells"] == [[r, c]]
    assert "pencil mark" in result["text"] and "contradicts the solution" in result["text"]
    fixed = apply_hint(p, tuple(entries), result)
    assert fixed is not None and marks_of(fixed[i]) == 1 << (UP if solution[i] != UP else DOWN)
    assert hint(p, fixed)["kind"] == "step"
    # "an arrow goes here" on a cell the solution leaves empty is wrong too
    j = next(k for k, d in enumerate(solution) if d == 0)
    entries = [0] * p.size
    entries[j] = marks_entry(MARK_ARROW_HERE)
    result = hint(p, tuple(entries))
    assert result["kind"] == "wrong-entry" and "'an arrow here'" in result["text"]
    assert apply_hint(p, tuple(entries), result) == tuple([0] * p.size)


def test_wrong_marks_on_a_board_with_several_solutions() -> None:
    p = decode_url("https://puzz.link/p?toichika/6/2/vv00g")
    assert len(list(iter_solutions(p, limit=2))) == 2
    # marks that leave a cell only a value no solution gives it ("arrow here" + three directions out)
    i, d = next(
        (i, d)
        for i in range(p.size)
        for d in DIRECTIONS
        if not p.givens[i] and not is_consistent(p, {i: {d}})
    )
    entries = [0] * p.size
    entries[i] = marks_entry(MARK_ARROW_HERE | sum(1 << k for k in DIRECTIONS if k != d))
    result = hint(p, tuple(entries))
    assert result["kind"] == "wrong-entry" and result["cells"] == [list(p.cell(i))]
    assert apply_hint(p, tuple(entries), result) == tuple([0] * p.size)


def test_nothing_to_apply_when_solved_or_stuck() -> None:
    p = decode_url(URL)
    solution = _solution(p)
    done = hint(p, tuple(solution))
    assert done["kind"] == "solved" and apply_hint(p, tuple(solution), done) is None


def _hint_apply_until_solved(puzzle, budget: int) -> tuple[tuple[int, ...], int]:
    entries = PLUGIN.empty_entries(puzzle)
    for n in range(budget):
        result = hint(puzzle, entries)
        if result["kind"] == "solved":
            return entries, n
        assert result["kind"] == "step", result  # never a wrong entry: apply writes only truths
        new = apply_hint(puzzle, entries, result)
        assert new is not None and new != entries  # every hint moves the player on
        entries = new
    raise AssertionError(f"not solved after {budget} hints")


def test_hint_and_apply_solve_the_issue_board() -> None:
    p = decode_url(URL)
    entries, n = _hint_apply_until_solved(p, 200)
    assert check(p, entries).ok
    assert tuple(arrows_of(p, entries)) == tuple(_solution(p))  # the exact solver agrees
    assert n == len(explain(p).steps) or n > 10


def _corpus_run(shared_reference, largest: int) -> list[tuple[str, int, float]]:
    figures = []
    for item in load_corpus(shared_reference):
        p = item.puzzle
        if p.size > largest:
            continue
        t0 = time.process_time()
        entries, n = _hint_apply_until_solved(p, 4 * p.size)
        assert check(p, entries).ok, item.name  # the independent checker
        assert tuple(arrows_of(p, entries)) == item.answer, item.name  # the reference answer
        figures.append((item.name, n, time.process_time() - t0))
    return figures


def test_hint_and_apply_solve_the_small_corpus_puzzles(shared_reference) -> None:
    figures = _corpus_run(shared_reference, 64)  # up to 8x8: a few seconds
    assert len(figures) >= 10


@pytest.mark.slow
def test_hint_and_apply_solve_every_corpus_puzzle(shared_reference) -> None:
    figures = _corpus_run(shared_reference, 10**6)  # all 35, up to 30x30: minutes
    assert len(figures) == 35


def test_a_cell_with_every_direction_crossed_out_settles_a_line_like_a_dot() -> None:
    from solvers.toichika.drawing import live_errors
    from solvers.toichika.model import Toichika

    p = Toichika.from_labels([[0, 1, 2]])  # one row: R1C1's arrow sees R1C2, then the edge
    entries = [RIGHT, 0, 0]
    assert live_errors(p, tuple(entries)) == []  # R1C2, R1C3 still open: not yet an error
    entries[1] = entries[2] = DOT
    assert live_errors(p, tuple(entries)) == [(0, 0)]
    crossed = marks_entry(sum(1 << d for d in DIRECTIONS))
    entries[1] = entries[2] = crossed
    assert live_errors(p, tuple(entries)) == [(0, 0)]  # the same knowledge, written as marks
    entries[2] = marks_entry((1 << UP) | (1 << DOWN) | (1 << LEFT))  # R1C3 may still point right
    assert live_errors(p, tuple(entries)) == []
