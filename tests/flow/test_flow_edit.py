"""Editing (edit mode endpoints, play mode pipes) and drawing."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.common.display import Circle, Polyline, Rect, Text
from solvers.common.errors import ParseError
from solvers.common.protocol import EditEvent
from solvers.flow import PLUGIN, FlowPaths, FlowPuzzle
from solvers.flow.codec import parse, serialize


def press(cell, tool="", mode="edit", button="left"):
    return EditEvent("press", tool=tool, mode=mode, cell=cell, button=button)


def drag(cell, mode="play"):
    return EditEvent("drag", mode=mode, cell=cell, button="left")


def test_tools() -> None:
    tools = PLUGIN.tools(PLUGIN.new_puzzle())
    colours = [t for t in tools if t.id.startswith("c")]
    assert len(colours) == 16 and colours[0].label == "Red (R)" and colours[0].color == "color:0"
    assert {t.id for t in tools} >= {"erase", "pipe"}
    assert [t.mode for t in tools if t.id == "pipe"] == ["play"]
    # Colours beyond the first 16 appear once colours near the end are used.
    big = PLUGIN.new_puzzle(2, 20)
    big = PLUGIN.edit(big, None, press((0, 0), "c16")).puzzle
    assert len([t for t in PLUGIN.tools(big) if t.id.startswith("c")]) == 18


def test_placing_keeps_every_colour() -> None:
    p = PLUGIN.new_puzzle(3, 4)
    placed: dict[tuple[int, int], int] = {}
    for cell, index in [((0, 0), 1), ((0, 1), 3), ((0, 2), 0), ((0, 3), 16), ((1, 0), 9), ((1, 1), 40)]:
        result = PLUGIN.edit(p, None, press(cell, f"c{index}"))
        assert result is not None and result.entries is None
        p = result.puzzle
        placed[cell] = index
        # The file reads back with the same colour for every endpoint placed so far.
        again = p  # the model reads colours with the same rule as the file reader
        for where, k in placed.items():
            assert again.colour_index(again.at(*where)) == k, (where, k, serialize(p))
    assert p.row_strings()[0] == "BGRQ"  # rewritten to mnemonic letters once colour 17 arrived


def test_remove_and_keys() -> None:
    p = PLUGIN.new_puzzle(2, 2)
    p = PLUGIN.edit(p, None, press((0, 0), "c0")).puzzle
    assert p.at(0, 0) == "R"
    assert PLUGIN.edit(p, None, press((0, 0), "c0")).puzzle.at(0, 0) == "."  # click again removes
    assert PLUGIN.edit(p, None, press((0, 0), "c2", button="right")).puzzle.at(0, 0) == "."
    assert PLUGIN.edit(p, None, press((0, 0), "erase")).puzzle.at(0, 0) == "."
    assert PLUGIN.edit(p, None, press((1, 1), "erase")) is None  # nothing to erase
    typed = PLUGIN.edit(p, None, EditEvent("key", mode="edit", cell=(1, 1), key="z")).puzzle
    assert typed.at(1, 1) == "Z"
    assert (
        PLUGIN.edit(typed, None, EditEvent("key", mode="edit", cell=(1, 1), key="Delete")).puzzle.at(1, 1)
        == "."
    )


def test_resize_and_describe() -> None:
    p = parse("R.G\n...\nR.G\n")
    small = PLUGIN.resize(p, 2, 4)
    assert small.row_strings() == ["R.G.", "...."]
    assert "only one endpoint" in PLUGIN.describe(small)
    assert PLUGIN.describe(p) == "3x3, 2 colours"
    # A Numberlink puzzle pairs numbers: its colours are only a help to the eye.
    numbered = PLUGIN.parse("rules: numberlink\n1.1\n...\n2.2\n")
    assert PLUGIN.describe(numbered) == "3x3, 2 pairs, Numberlink rules (cells may stay empty)"
    assert PLUGIN.size_of(PLUGIN.new_puzzle(4, 6)) == (4, 6)


def _draw_path(puzzle: FlowPuzzle, paths: FlowPaths, path: list[tuple[int, int]]) -> FlowPaths:
    result = PLUGIN.edit(puzzle, paths, press(path[0], "pipe", mode="play"))
    paths = result.entries
    key = result.merge_key
    for cell in path[1:]:
        step = PLUGIN.edit(puzzle, paths, drag(cell))
        assert step is not None and step.merge_key == key  # one drag = one undo step
        paths = step.entries
    return PLUGIN.edit(puzzle, paths, EditEvent("release", mode="play", cell=path[-1])).entries


def test_play_mode_draws_the_solution() -> None:
    puzzle = parse("R.R\nG.G\nB.B\n")
    paths = FlowPaths()
    for row in range(3):
        assert not PLUGIN.check(puzzle, paths).complete
        paths = _draw_path(puzzle, paths, [(row, 0), (row, 1), (row, 2)])
    assert PLUGIN.check(puzzle, paths).ok
    assert paths.active == ""


def test_play_mode_backtrack_cut_block_and_clear() -> None:
    puzzle = parse("R..R\n....\nG..G\n")
    paths = _draw_path(puzzle, FlowPaths(), [(0, 0), (1, 0), (1, 1), (1, 2)])
    assert paths.get("R") == ((0, 0), (1, 0), (1, 1), (1, 2))
    # Backing up over the pipe shortens it.
    started = PLUGIN.edit(puzzle, paths, press((1, 2), mode="play")).entries
    assert PLUGIN.edit(puzzle, started, drag((1, 1))).entries.get("R") == ((0, 0), (1, 0), (1, 1))
    # Another colour's endpoint blocks; drawing G through R's pipe cuts R there.
    g = _draw_path(puzzle, paths, [(2, 0), (2, 1), (1, 1)])
    assert g.get("G") == ((2, 0), (2, 1), (1, 1)) and g.get("R") == ((0, 0), (1, 0))
    assert PLUGIN.edit(
        puzzle, PLUGIN.edit(puzzle, paths, press((1, 2), mode="play")).entries, drag((0, 3))
    ).entries.get("R")[-1] == (0, 3)
    blocked = PLUGIN.edit(
        puzzle, PLUGIN.edit(puzzle, paths, press((1, 2), mode="play")).entries, drag((2, 2))
    )
    assert blocked is not None and blocked.entries.get("R")[-1] == (2, 2)
    assert PLUGIN.edit(puzzle, blocked.entries, drag((2, 3))) is None  # G's endpoint blocks
    # A fast drag that skips cells walks through them.
    fast = PLUGIN.edit(
        puzzle, PLUGIN.edit(puzzle, FlowPaths(), press((0, 0), mode="play")).entries, drag((0, 3))
    )
    assert fast.entries.get("R") == ((0, 0), (0, 1), (0, 2), (0, 3))
    # Right click clears a pipe; pressing an empty cell does nothing.
    assert PLUGIN.edit(puzzle, paths, press((1, 1), mode="play", button="right")).entries.get("R") == ()
    assert PLUGIN.edit(puzzle, paths, press((2, 2), mode="play")) is None


def test_check_codes() -> None:
    puzzle = parse("R..R\n....\nG..G\n")
    crossing = FlowPaths.from_dict({"R": [(0, 0), (1, 0), (1, 1)], "G": [(2, 1), (1, 1)]})
    codes = {v.code for v in PLUGIN.check(puzzle, crossing).violations}
    assert codes == {"crossing", "startNotEndpoint"}
    jump = FlowPaths.from_dict({"R": [(0, 0), (0, 2), (0, 3)]})
    assert [v.code for v in PLUGIN.check(puzzle, jump).violations] == ["brokenPath"]
    through = FlowPaths.from_dict({"R": [(0, 0), (1, 0), (2, 0)]})
    assert [v.code for v in PLUGIN.check(puzzle, through).violations] == ["throughEndpoint"]
    assert PLUGIN.check(parse("R..R\n"), None).violations == []
    assert [v.code for v in PLUGIN.check(FlowPuzzle.from_rows(["R.."]), None).violations] == ["endpointCount"]


def test_drawing() -> None:
    puzzle = parse("R.R\nG.G\nB.B\n")
    solution = next(iter(PLUGIN.solve(puzzle)))
    dl = PLUGIN.draw(puzzle, solution)
    pipes = [i for i in dl.items if isinstance(i, Polyline)]
    dots = [i for i in dl.items if isinstance(i, Circle)]
    assert len(pipes) == 3 and all(p.cap == "round" and p.join == "round" for p in pipes)
    assert {p.color for p in pipes} == {"color:0", "color:3", "color:1"}
    assert len(dots) == 6 and all(d.fill and d.fill.startswith("color:") for d in dots)
    assert dl.grid is not None and dl.grid.cell_at(*dl.grid.center(2, 1)) == (2, 1)
    # Errors show as error-filled cells in play mode.
    bad = FlowPaths.from_dict({"R": [(0, 0), (1, 0)]})
    assert any(isinstance(i, Rect) and i.fill == "error-fill" for i in PLUGIN.draw(puzzle, entries=bad).items)
    assert not any(isinstance(i, Text) for i in dl.items)


def test_many_colours_get_letters() -> None:
    from solvers.flow.model import LETTERS

    rows = ["".join(LETTERS[(r * 31 + c) % 62] for c in range(31)) for r in range(4)]
    dl = PLUGIN.draw(parse("\n".join(rows)))
    assert sum(isinstance(i, Text) for i in dl.items) == 124  # palette repeats: dots get letters


def test_documents_keep_pipes() -> None:
    puzzle = parse("R..R\n....\nG..G\n")
    paths = FlowPaths.from_dict({"R": [(0, 0), (0, 1)], "G": [(2, 0), (2, 1), (2, 2), (2, 3)]})
    text = PLUGIN.serialize_document(puzzle, paths)
    assert text.endswith("R 0,0 0,1\n") and "G 2,0 2,1 2,2 2,3" in text
    assert PLUGIN.parse_document(text) == (puzzle, paths)
    assert PLUGIN.parse_document(serialize(puzzle)) == (puzzle, None)
    assert PLUGIN.serialize_document(puzzle, FlowPaths()) == serialize(puzzle)
    for bad, where in [("R 0,0 9,9", (5, 7)), ("R 0,0 x", (5, 7)), ("* 0,0", (5, 1))]:
        try:
            PLUGIN.parse_document(serialize(puzzle) + "# paths\n" + bad + "\n")
        except ParseError as exc:
            assert (exc.line, exc.column) == where
        else:
            raise AssertionError(bad)


def test_changed_givens_keep_what_fits() -> None:
    puzzle = parse("R..R\n....\nG..G\n")
    paths = FlowPaths.from_dict({"R": [(0, 0), (0, 1), (0, 2), (0, 3)], "G": [(2, 0), (2, 1)]})
    moved = PLUGIN.edit(puzzle, paths, press((0, 2), "c1")).puzzle  # a blue dot on R's pipe
    kept = PLUGIN.adapt_entries(moved, paths)
    assert kept.get("R") == ((0, 0), (0, 1)) and kept.get("G") == ((2, 0), (2, 1))
    gone = PLUGIN.adapt_entries(PLUGIN.resize(puzzle, 2, 4), paths)
    assert gone.get("G") == () and gone.get("R") == paths.get("R")


def test_hint_reveals_one_pipe_at_a_time() -> None:
    from solvers.flow.hint import progress_text, reveal_one

    puzzle = parse("R.R\nG.G\nB.B\n")
    solution = next(iter(PLUGIN.solve(puzzle))).extras["paths"]
    # The player drew G wrongly through R's row: the R hint cuts it.
    paths = FlowPaths.from_dict({"G": [(1, 0), (1, 1), (0, 1)]})
    assert progress_text(puzzle, paths) == "0 of 3 pipes joined, 33% of the board filled"
    letter, paths = reveal_one(puzzle, paths, solution)
    assert letter == "R" and paths.get("R") == ((0, 0), (0, 1), (0, 2))
    assert paths.get("G") == ((1, 0), (1, 1))  # cut where R now runs
    seen = {letter}
    while (step := reveal_one(puzzle, paths, solution)) is not None:
        letter, paths = step
        seen.add(letter)
    assert seen == {"R", "G", "B"} and PLUGIN.check(puzzle, paths).ok
    assert progress_text(puzzle, paths) == "3 of 3 pipes joined, 100% of the board filled"
    # A pipe drawn from the other end keeps that direction.
    started = FlowPaths.from_dict({"R": [(0, 2)]})
    assert reveal_one(puzzle, started, solution)[1].get("R")[0] == (0, 2)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["press", "drag", "release"]), st.integers(0, 3), st.integers(0, 4)),
        max_size=40,
    )
)
def test_fuzz_play_mode_keeps_pipes_sane(moves: list[tuple[str, int, int]]) -> None:
    puzzle = parse("R...G\n.B..R\n..G.B\nY...Y\n")
    paths = FlowPaths()
    for kind, r, c in moves:
        result = PLUGIN.edit(
            puzzle, paths, EditEvent(kind, tool="pipe", mode="play", cell=(r, c), button="left")
        )
        if result is not None and result.entries is not None:
            paths = result.entries
        owner: dict[tuple[int, int], str] = {}
        for ch, path in paths.items:
            assert path[0] in puzzle.endpoints()[ch]  # pipes start at their endpoint
            for a, b in zip(path, path[1:], strict=False):
                assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
            for i, cell in enumerate(path):
                assert cell not in owner  # no crossings, no loops
                owner[cell] = ch
                assert puzzle.at(*cell) in (".", ch)
                if i and puzzle.at(*cell) == ch:
                    assert i == len(path) - 1  # stops at its other endpoint
        codes = {v.code for v in PLUGIN.check(puzzle, paths).violations}
        assert codes == set()


def test_keyboard_plays_a_whole_board() -> None:
    """Space picks a pipe at the cursor, Shift+arrow draws it one cell per key (one undo step each)."""
    from solvers.common.protocol import EditEvent
    from solvers.flow import PLUGIN
    from solvers.flow.model import FlowPaths

    puzzle = PLUGIN.parse("R.G\n...\nRG.\n")
    entries = FlowPaths()

    def key(name: str, cell: tuple[int, int], shift: bool = False) -> None:
        nonlocal entries
        event = EditEvent(
            "key", mode="play", cell=cell, key=name, modifiers=frozenset({"shift"} if shift else ())
        )
        result = PLUGIN.edit(puzzle, entries, event)
        assert result is not None and result.merge_key is None, (name, cell)
        entries = result.entries

    key("Space", (0, 0))
    key("Down", (0, 0), shift=True)
    key("Down", (0, 0), shift=True)  # the pipe's end moves on, whatever the cursor
    key("Space", (0, 2))
    for direction in ("Down", "Up", "Left", "Down", "Right", "Down", "Left"):  # Up backs up
        key(direction, (0, 2), shift=True)
    assert PLUGIN.check(puzzle, entries).ok
    # A step off the board changes nothing and says why (the key used to move the cursor, onto
    # another colour's dot even); Delete clears a pipe.
    event = EditEvent("key", mode="play", cell=(0, 2), key="Down", modifiers=frozenset({"shift"}))
    refused = PLUGIN.edit(puzzle, entries, event)
    assert refused is not None and (refused.puzzle, refused.entries) == (None, None)
    assert refused.label == "The green pipe cannot go that way from R3C2"
    event = EditEvent("key", mode="play", cell=(0, 2), key="Left", modifiers=frozenset({"shift"}))
    assert PLUGIN.edit(puzzle, entries, event).label == "The green pipe cannot go on to R3C1"
    cleared = PLUGIN.edit(puzzle, entries, EditEvent("key", mode="play", cell=(1, 0), key="Delete"))
    assert cleared is not None and not cleared.entries.get("R")


def test_a_numberlink_board_offers_its_own_colours_not_every_index_up_to_them() -> None:
    """Digit and number labels have colour indices far down the order (digits 40+, numbers 62+):
    the tool row offered every index up to them, four rows of swatches above a five-number
    puzzle at 1024x768. A Numberlink board now offers one button per label in use."""
    puzzle = PLUGIN.parse("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3")
    labels = [t for t in PLUGIN.tools(puzzle) if t.glyph]
    assert {t.glyph for t in labels} == set(puzzle.colours)  # every label on the board keeps its button
    assert len(labels) == len(puzzle.colours)


NUMLIN = "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"  # 1, 2, 3 under Numberlink rules


def _type(puzzle: FlowPuzzle, ui, cell, keys: str):
    """Type ``keys`` on ``cell`` as the shell does; returns the puzzle and every result."""
    results = []
    for key in keys:
        result = PLUGIN.edit(puzzle, None, EditEvent("key", mode="edit", cell=cell, key=key), ui=ui)
        results.append(result)
        if result is not None and result.puzzle is not None:
            puzzle = result.puzzle
    return puzzle, results


def test_digits_typed_on_one_cell_make_one_number_in_one_undo_step() -> None:
    """Typing 1 then 2 on a Numberlink board placed 1 and then replaced it by 2: no number 10+."""
    ui = PLUGIN.new_ui(PLUGIN.parse(NUMLIN))
    puzzle, results = _type(PLUGIN.parse(NUMLIN), ui, (0, 1), "12")
    assert puzzle.at(0, 1) == "12"
    first, second = results
    assert first.label == "Place 1 at R1C2" and second.label == "Place 12 at R1C2"
    # One undo step: both results continue the same typed number across key presses.
    assert first.merge_key == second.merge_key is not None and first.key_merge and second.key_merge
    puzzle, _ = _type(puzzle, ui, (0, 1), "3")
    assert puzzle.at(0, 1) == "123"
    # Another key (an arrow moves the cursor) ends the number: the next digit starts a new one.
    assert PLUGIN.edit(puzzle, None, EditEvent("key", mode="edit", cell=(0, 1), key="Right"), ui=ui) is None
    again, results = _type(puzzle, ui, (0, 1), "7")
    assert again.at(0, 1) == "7" and results[0].merge_key != first.merge_key
    # A click ends it too; Backspace still clears the whole number.
    cleared = PLUGIN.edit(again, None, EditEvent("key", mode="edit", cell=(0, 1), key="Backspace"), ui=ui)
    assert cleared.puzzle.at(0, 1) == "."
    # The file keeps the number (a second 123 makes the board whole enough to read back).
    puzzle, _ = _type(puzzle, PLUGIN.new_ui(puzzle), (0, 2), "123")
    assert parse(serialize(puzzle)).at(0, 1) == "123" == puzzle.at(0, 2)


def test_a_leading_zero_or_a_fourth_digit_says_why_and_changes_nothing() -> None:
    puzzle = PLUGIN.parse(NUMLIN)
    ui = PLUGIN.new_ui(puzzle)
    after, results = _type(puzzle, ui, (0, 1), "0")
    assert after == puzzle and results[0].puzzle is None
    assert "Numbers start at 1" in results[0].label
    after, results = _type(puzzle, ui, (0, 1), "9990")
    assert after.at(0, 1) == "999" and results[-1].puzzle is None
    assert "999" in results[-1].label and "largest" in results[-1].label
    # A Flow board without numbers keeps the digit letters: one key, one colour.
    flow = parse("R.R\n...\n")
    flow, _ = _type(flow, PLUGIN.new_ui(flow), (1, 0), "12")
    assert flow.at(1, 0) == "2"


def test_a_numberlink_board_offers_numbers_not_colour_letters() -> None:
    """The red swatch placed the letter R on a Numberlink board; its buttons now show what they place."""
    puzzle = PLUGIN.parse(NUMLIN)
    tools = PLUGIN.tools(puzzle)
    assert not [t for t in tools if t.id.startswith("c")]  # no Red (R), Blue (B), ...
    labels = [t for t in tools if t.glyph]
    assert [t.glyph for t in labels] == ["1", "2", "3"]
    nxt = next(t for t in tools if t.id == "next")
    assert nxt.label == "Next number: 4"
    # The next-number tool places the partner of a lone number first, then the next unused one.
    placed = []
    for cell in [(2, 0), (2, 2), (2, 4), (4, 0)]:
        label = next(t for t in PLUGIN.tools(puzzle) if t.id == "next").label
        puzzle = PLUGIN.edit(puzzle, None, press(cell, "next")).puzzle
        placed.append(puzzle.at(*cell))
        assert label == f"Next number: {placed[-1]}"  # the button says what lands
    assert placed == ["4", "4", "5", "5"]
    # A number's own button places it (clicking it again removes it).
    twelve = PLUGIN.edit(puzzle, None, press((4, 1), "label:12"))
    assert twelve is not None and twelve.puzzle.at(4, 1) == "12"
    assert PLUGIN.edit(twelve.puzzle, None, press((4, 1), "label:12")).puzzle.at(4, 1) == "."


def test_next_number_reaches_ten_and_a_third_endpoint_is_named() -> None:
    rows = ["rules: numberlink"] + [f"{n} . {n}" for n in range(1, 10)]
    puzzle = PLUGIN.parse("\n".join(rows) + "\n")
    for cell in [(0, 1), (1, 1), (2, 1)]:
        puzzle = PLUGIN.edit(puzzle, None, press(cell, "next")).puzzle
    assert [puzzle.at(r, 1) for r in range(3)] == ["10", "10", "11"]
    ui = PLUGIN.new_ui(puzzle)
    puzzle, _ = _type(puzzle, ui, (3, 1), "10")
    assert puzzle.at(3, 1) == "10"
    problems = [text for text, _ in puzzle.problems()]
    assert any(text.startswith("number 10 has 3 endpoints") for text in problems), problems


def test_a_lower_case_letter_key_places_the_colour_its_capital_names() -> None:
    """QA: a plain "r" placed label r (colour 35, drawn in the same yellow as Y) and "y" label y
    (the same green as G): two pairs that look alike and that the solver keeps apart."""
    p = PLUGIN.new_puzzle(3, 3)
    for key, colour in (("r", "R"), ("y", "Y"), ("R", "R")):
        placed = PLUGIN.edit(p, None, EditEvent("key", mode="edit", cell=(0, 0), key=key))
        assert placed is not None and placed.puzzle.at(0, 0) == colour
        assert placed.puzzle.colour_index(colour) == p.colour_index(colour)
    red = PLUGIN.edit(p, None, EditEvent("key", mode="edit", cell=(0, 0), key="R")).puzzle
    assert PLUGIN.edit(red, None, EditEvent("key", mode="edit", cell=(0, 0), key="r")) is None  # already red


def test_a_hint_keeps_the_players_finished_pipes_where_a_solution_does() -> None:
    """QA: on a board with many solutions the hint revealed red from one solution and wiped out a
    finished blue pipe that belongs to another. Every blue pipe of every solution is kept now, and
    what the hint builds on is a solution (checked by the rule checker)."""
    from solvers.flow.hint import hint_paths, joined_pipes, reveal_one

    puzzle = PLUGIN.parse("RB...\n.....\n.....\n.....\nR...B\n")
    solutions = list(PLUGIN.solve(puzzle, limit=0))
    blues = {tuple(tuple(cell) for cell in s.extras["paths"]["B"]) for s in solutions}
    assert len(solutions) == 86 and len(blues) == 68
    for blue in sorted(blues):
        entries = FlowPaths().with_path("B", blue)
        joined = joined_pipes(puzzle, entries)
        assert joined == {"B": blue}
        paths, kept = hint_paths(puzzle, joined)
        assert kept and paths is not None
        whole = FlowPaths()
        for ch, path in paths.items():
            whole = whole.with_path(ch, tuple(tuple(cell) for cell in path))
        assert PLUGIN.check(puzzle, whole).ok and whole.get("B") == blue
        step = reveal_one(puzzle, entries, paths)
        assert step is not None and step[0] == "R" and step[1].get("B") == blue
    stray = FlowPaths().with_path("B", ((0, 1), (0, 2), (0, 3), (0, 4), (1, 4), (2, 4), (3, 4), (4, 4)))
    paths, kept = hint_paths(puzzle, joined_pipes(puzzle, stray))
    assert paths is not None and kept is (stray.get("B") in blues)


def test_shift_down_on_a_hex_board_takes_a_neighbour_the_cell_has() -> None:
    """QA: on a hex board Shift+Down from a left-column dot only moved the cursor: straight down
    tied with the down-left neighbour, which is off the board."""
    puzzle = PLUGIN.new_puzzle(4, 4)
    puzzle = replace(puzzle, hex=True).with_cell(0, 0, "R").with_cell(3, 0, "R")
    paths = FlowPaths()
    picked = PLUGIN.edit(puzzle, paths, EditEvent("key", mode="play", cell=(0, 0), key="Space"))
    assert picked is not None and picked.entries is not None
    down = EditEvent("key", mode="play", cell=(0, 0), key="Down", modifiers=frozenset({"shift"}))
    step = PLUGIN.edit(puzzle, picked.entries, down)
    assert step is not None and step.entries is not None
    route = step.entries.get("R")
    assert len(route) == 2 and route[1][0] == 1  # one step down, to a cell of row 2
