"""Tokyo Doves editing (Tatham's interpret_move): the set-up editor and play-mode moves.

Pure functions over values; the only state across events is the set-up editor's drag source,
which the caller keeps (in the document's ``DovesUI``) and hands back.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.common.errors import InputError
from solvers.common.game import take_back_ply
from solvers.common.protocol import EditEvent, EditResult, Tool
from solvers.doves import drawing
from solvers.doves.game import PlayEntries, capitalised, refusal, replay
from solvers.doves.model import COLOUR_NAMES, KIND_HINTS, KIND_NAMES, LETTERS, Position, dove_name
from solvers.doves.rules import Action, legal_steps, to_ssn

Drag = tuple[str, int] | None  # edit-mode drag source: ("board" | "hand", dove)


@dataclass
class DovesUI:
    """Per-document UI state (the plug-in's ``new_ui``): the set-up editor's drag source, the dove
    a player picked up, the frame the set-up editor keeps, and the sides the AI plays (``computer``,
    0 red, 1 green: the panel keeps it current, so that Backspace takes a move back to the player's
    turn as the panel's Take back does). Picking up is not an edit: it
    neither marks the document modified nor makes an undo step (it did when the selection lived
    in the entries).

    ``origin`` is where the set-up ``framed`` (its squares) has its (0, 0) on the board. A position
    is stored from its group's corner, so a dove placed above or left of the group moves that corner:
    drawn from the corner, the whole table shifted under the pointer. The editor keeps the frame
    instead; any other change of the set-up (undo, open, a played move) draws from the corner again."""

    drag: Drag = None
    selected: int | None = None
    origin: drawing.Origin = (0, 0)
    framed: tuple[int, ...] | None = None
    computer: frozenset[int] = frozenset()

    def origin_for(self, position: Position) -> drawing.Origin:
        """The origin ``position`` is drawn with: the kept one while it is the framed set-up."""
        return self.origin if self.framed == position.squares else (0, 0)

    def end_session(self) -> None:
        """Leaving Edit mode: the next picture is drawn from the group's corner again."""
        self.origin, self.framed = (0, 0), None

    def changed(self, mode: str) -> None:
        """The document or the mode changed: a dove picked up in the old position is put down,
        and outside Edit mode the editor's kept frame ends (Play draws from the group's corner)."""
        self.selected = None
        if mode != "edit":
            self.end_session()


def tools(puzzle: Position) -> list[Tool]:
    tools = [
        Tool(
            "move",
            "Move / play",
            shortcut="V",
            mode="both",
            tip="Edit: drag doves between the table and the hands. Play: click an own dove, then its "
            "target (or drag it); click its hand slot to return it to your hand (that is your move)",
        )
    ]
    for i, letter in enumerate(LETTERS):
        # the tile letter plus the name: capital = red, lower case = green, as on the tiles; typing
        # the letter as shown (Shift for a capital) picks the tool
        key = f"Shift+{letter}" if letter.isupper() else letter
        tools.append(Tool(f"dove:{letter}", f"{letter} {KIND_NAMES[i >> 1]}", shortcut=key, tip=dove_tip(i)))
    tools.append(Tool("erase", "Back to hand", shortcut="E", tip="Click a dove to put it back in its hand"))
    # S switches the side at once in Edit mode (setup_edit), whatever the tool: it is no tool key
    tools.append(Tool("side", "Switch side to move", tip="Red or Green moves first (S switches it too)"))
    return tools


def dove_tip(dove: int) -> str:
    """Tooltip of a dove tool: its name, how it moves, and what a click does."""
    colour = COLOUR_NAMES[dove & 1].capitalize()
    return (
        f"{colour} {KIND_NAMES[dove >> 1]} ({LETTERS[dove]}): {KIND_HINTS[dove >> 1]}. "
        "Click a square to place it there (all doves must fit in a 4x4 area)"
    )


def setup_edit(puzzle: Position, event: EditEvent, ui: DovesUI) -> EditResult | None:
    """Edit mode: place doves, drag them between table and hands, switch the side to move.

    ``ui.drag`` is the drag source a press picked up. Squares are read in the frame the board
    shows (``ui.origin_for``), and a new set-up keeps that frame: nothing moves under the pointer."""
    if event.kind == "key" and event.key.upper() == "S" or (event.kind == "press" and event.tool == "side"):
        return EditResult(
            puzzle=puzzle.with_to_move(1 - puzzle.to_move), entries=PlayEntries(), label="Switch side to move"
        )
    if event.cell is None or event.kind not in ("press", "release"):
        return None
    origin = ui.origin_for(puzzle)
    gr, gc = event.cell
    square = drawing.window_square(gr, gc, origin)
    if event.kind == "press":
        result, ui.drag, dove = _press(puzzle, event, square)
    else:
        (result, dove), ui.drag = _release(puzzle, event.cell, square, ui.drag), None
    if result is not None and result.puzzle is not None and dove is not None:
        _keep_frame(ui, puzzle, result.puzzle, dove, origin)
    return result


def _release(
    puzzle: Position, cell: tuple[int, int], square: tuple[int, int] | None, drag: Drag
) -> tuple[EditResult | None, int | None]:
    """The end of a drag: the dove goes to a square, or from the table to its hand."""
    if drag is None:
        return None, None
    source, dove = drag
    if square is not None and square != puzzle.cells().get(dove):
        return place(puzzle, dove, square), dove
    if square is None and drawing.hand_dove_at(*cell) is not None and dove >= 2 and source == "board":
        return to_hand(puzzle, dove), dove
    return None, None


def _keep_frame(ui: DovesUI, before: Position, after: Position, moved: int, origin: drawing.Origin) -> None:
    """Frame ``after`` so that the doves that stayed keep their board squares: any dove on the
    table before and after other than the moved one (a Boss: both are always there) gives the
    shift of the group's corner."""
    old, new = before.cells(), after.cells()
    still = next((d for d in new if d in old and d != moved), None)
    if still is None:
        ui.end_session()
        return
    (r0, c0), (r1, c1) = old[still], new[still]
    ui.origin, ui.framed = (origin[0] + r0 - r1, origin[1] + c0 - c1), after.squares


def shown_origin(ui: object, puzzle: Position, played: bool) -> drawing.Origin:
    """The origin the board draws the shown position with (and reads clicks with): the editor's
    kept frame while the set-up itself is shown, the group's corner once a move is played."""
    return ui.origin_for(puzzle) if isinstance(ui, DovesUI) and not played else (0, 0)


def _press(
    puzzle: Position, event: EditEvent, square: tuple[int, int] | None
) -> tuple[EditResult | None, Drag, int | None]:
    """A press places with a dove tool, sends to hand with erase/right button, or starts a drag;
    the last value is the dove a placement moved (to keep the frame)."""
    at = puzzle.at()
    is_dove_tool = len(event.tool) == 6 and event.tool.startswith("dove:") and event.tool[5] in LETTERS
    if is_dove_tool and square is not None:
        dove = LETTERS.index(event.tool[5:])
        return place(puzzle, dove, square), None, dove
    if event.tool == "erase" or event.button == "right":
        if square in at and at[square] >= 2:
            return to_hand(puzzle, at[square]), None, at[square]
        return None, None, None
    if square in at:
        return None, ("board", at[square]), None
    assert event.cell is not None
    hand_dove = drawing.hand_dove_at(*event.cell)
    if hand_dove and hand_dove not in puzzle.cells():
        return None, ("hand", hand_dove), None
    return None, None, None


def place(puzzle: Position, dove: int, square: tuple[int, int]) -> EditResult | None:
    cells = puzzle.cells()
    occupant = puzzle.at().get(square)
    if occupant is not None and occupant != dove:
        if occupant < 2:
            return EditResult(
                label=f"{capitalised(dove_name(occupant))} holds that square: a Boss stays on the table"
            )
        del cells[occupant]
    cells[dove] = square
    try:
        moved = puzzle.with_cells(cells)  # the rules stay: they are the puzzle's
    except InputError:
        return EditResult(
            label=f"{capitalised(dove_name(dove))} cannot go there: all doves must fit in a 4x4 area"
        )
    if moved == puzzle:
        return None
    return EditResult(puzzle=moved, entries=PlayEntries(), label=f"Place {dove_name(dove)}", merge_key=None)


def to_hand(puzzle: Position, dove: int) -> EditResult | None:
    cells = puzzle.cells()
    del cells[dove]
    return EditResult(
        puzzle=puzzle.with_cells(cells),
        entries=PlayEntries(),
        label=f"{dove_name(dove)} to hand",
    )


def play_edit(
    puzzle: Position, entries: PlayEntries, event: EditEvent, ui: DovesUI | None = None
) -> EditResult | None:
    """Play mode: pick up an own dove (board or hand), then its target, by clicks or a drag;
    Backspace takes the last move back (``take_back``).

    The picked-up dove lives in ``ui``; a played action puts it down."""
    ui = ui if ui is not None else DovesUI()
    if event.kind == "key" and event.key == "Backspace":
        result = take_back(puzzle, entries, ui.computer)
    else:
        result = _play_edit(puzzle, entries, event, ui)
    if result is not None and result.entries is not None:
        ui.selected = None  # an action was played (or taken back)
    return result


def _picked(ui: DovesUI, dove: int | None, text: str) -> EditResult:
    """A change of the picked-up dove: no edit of the document, only words for the status line."""
    ui.selected = dove
    return EditResult(label=text)


def _play_edit(puzzle: Position, entries: PlayEntries, event: EditEvent, ui: DovesUI) -> EditResult | None:
    state = replay(puzzle, entries.actions)
    if state.error is not None or state.finished:
        return None
    position = state.position
    mover = position.to_move
    selected = ui.selected
    if event.kind == "key" and event.key in ("Escape", "Space") and selected is not None:
        return _picked(ui, None, "Put the dove down")
    if event.kind == "key" and event.key == "Delete" and selected is not None:
        return act(position, entries, Action("remove", selected))
    if event.cell is None or event.kind not in ("press", "release"):
        return None
    if event.button == "right":
        return _picked(ui, None, "Put the dove down") if selected is not None else None
    gr, gc = event.cell
    square = drawing.window_square(gr, gc, shown_origin(ui, puzzle, bool(entries.actions)))
    at = position.at()
    hand_dove = drawing.hand_dove_at(gr, gc)
    if event.kind == "press":
        if square in at and at[square] & 1 == mover and at[square] != selected:
            return _picked(ui, at[square], "Picked up a dove: click or drop it on a highlighted square")
        if hand_dove is not None and hand_dove & 1 == mover and hand_dove not in position.cells():
            return _picked(ui, hand_dove, "Picked up a dove: click or drop it on a highlighted square")
        if selected is None:
            if square in at or hand_dove is not None:
                colour = COLOUR_NAMES[mover]
                return EditResult(label=f"It is {colour.capitalize()}'s turn: pick up a {colour} dove")
            return None
        if hand_dove is not None and hand_dove & 1 == mover and selected in position.cells():
            return act(position, entries, Action("remove", selected))
        if square is not None:
            kind = "move" if selected in position.cells() else "put"
            return act(position, entries, Action(kind, selected, square))
        return None
    # release: drag-and-drop onto a different square
    if selected is None or square is None or position.cells().get(selected) == square:
        return None
    kind = "move" if selected in position.cells() else "put"
    return act(position, entries, Action(kind, selected, square))


def take_back(puzzle: Position, entries: PlayEntries, computer: frozenset[int]) -> EditResult | None:
    """Backspace: one move back, and further back while it is a side the AI plays (``computer``)
    to move, as the panel's Take back does and as Backspace does in X-ceter-O. The moves stay in
    the record as later moves. QA: Backspace with a dove picked up played the remove action, a
    move that used the turn; Delete keeps that meaning."""
    if not entries.actions:
        return None
    actions = entries.actions
    ply = take_back_ply(len(actions), lambda n: replay(puzzle, actions[:n]).position.to_move, computer)
    return EditResult(entries=entries.goto(ply), label="Take back")


def act(position: Position, entries: PlayEntries, action: Action) -> EditResult | None:
    for step in legal_steps(position):
        if step.action == action:
            after = entries.then(action)
            label = f"Play {to_ssn(position, action)}"
            if entries.later and not after.later and entries.later[:1] != (action,):
                label += f" (replaces {len(entries.later)} later moves)"
            return EditResult(entries=after, label=label, merge_key=merge_key(entries))
    return EditResult(label=refusal(position, action))  # nothing changes: says why


def merge_key(entries: PlayEntries) -> str:
    """Picking up and playing a dove in one turn is one undo step."""
    return f"doves-turn-{len(entries.actions)}"
