"""Editing (Tatham's interpret_move, Qt-free).

Edit mode: one tool per display colour places or removes that colour's endpoints (click again or
right-click to remove); "erase" clears a cell; typing a colour letter places it under the cursor.
A numbered board (Numberlink rules, or a number of two or more digits on it) offers numbers
instead: one tool per label in use (its swatch shows the label) and "next number" (the partner of
a lone number, else the lowest unused one); digits typed on one cell make one number (1..999), one
undo step, until another key or a click ends it.
Variant tools (edit mode): "wall" toggles the wall on the cell side nearest the click, "hole"
and "bridge" toggle a cell (keys ``#`` and ``+`` too), "warp" on a border cell opens or closes
its row (click near the left/right side) or column (near the top/bottom side).
Play mode: press on an endpoint or on a pipe and drag to draw; backing up shortens the pipe,
crossing another pipe cuts that pipe, another colour's endpoint blocks; a pipe crosses a bridge
straight on, and each lane of a bridge holds its own pipe.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from solvers.common.protocol import EditEvent, EditResult, Tool
from solvers.common.words import cell_name
from solvers.flow.codec import relabel
from solvers.flow.draw import display_slots, geometry, unit
from solvers.flow.model import (
    BRIDGE,
    EMPTY,
    HOLE,
    LABELS,
    LETTERS,
    MAX_NUMBER,
    MNEMONIC_ORDER,
    NOT_COLOURS,
    NUMBERLINK,
    Cell,
    FlowPaths,
    FlowPuzzle,
    colour_index,
    colour_name,
    has_long_labels,
    is_label_form,
    is_number_label,
    wall,
)

BASE_TOOLS = 16  # colour tools always offered; more appear as colours get used
PIPE_TOOL = "pipe"
ERASE_TOOL = "erase"
WALL_TOOL = "wall"
HOLE_TOOL = "hole"
BRIDGE_TOOL = "bridge"
WARP_TOOL = "warp"
NEXT_TOOL = "next"  # numbered boards: the next number (see ``next_number``)
LABEL_TOOL = "label:"  # numbered boards: "label:12" places 12


def numbered(puzzle: FlowPuzzle) -> bool:
    """A board whose endpoints are numbers to the user: Numberlink rules, or a number 10+ on it
    (both draw their labels). Its tools place numbers, and digits typed on a cell make one."""
    return puzzle.rules == NUMBERLINK or has_long_labels(puzzle.colours)


def next_number(puzzle: FlowPuzzle) -> str | None:
    """The number a mouse user most likely wants next: the lowest number with one endpoint (its
    partner), else the lowest number not on the board; None when all of 1..999 are used."""
    ends = puzzle.endpoints()
    lone = [int(ch) for ch, cells in ends.items() if is_number_label(ch) and len(cells) == 1]
    if lone:
        return str(min(lone))
    return next((str(n) for n in range(1, MAX_NUMBER + 1) if str(n) not in ends), None)


def _label_tools(puzzle: FlowPuzzle) -> list[Tool]:
    """Numbered boards: "next number", then one swatch per label in use showing that label."""
    slots = display_slots(puzzle)
    out = []
    n = next_number(puzzle)
    if n is not None:
        tip = "Place the number shown: the partner of a number with one endpoint, else the lowest unused"
        out.append(Tool(NEXT_TOOL, f"Next number: {n}", mode="edit", tip=tip))
    for ch in puzzle.colours:
        what = "Number" if is_number_label(ch) else "Letter"
        out.append(
            Tool(f"{LABEL_TOOL}{ch}", f"{what} {ch}", color=f"color:{slots[ch]}", mode="edit", glyph=ch)
        )
    return out


def tools(puzzle: FlowPuzzle) -> list[Tool]:
    if numbered(puzzle):
        return _label_tools(puzzle) + _other_tools(puzzle)
    used = {puzzle.colour_index(ch): ch for ch in puzzle.colours}
    slots = display_slots(puzzle)  # swatches look like the board's dots
    # The base colours, every colour in use and the next one: digit and number labels sit far down
    # the order (digits 40+), and every index up to them made rows of swatches nobody uses.
    offered = set(range(BASE_TOOLS)) | set(used) | {max(used, default=-1) + 1}
    out = []
    for k in sorted(i for i in offered if i < len(LETTERS)):
        letter = used.get(k, LABELS[k] if puzzle.label_form and k < len(LABELS) else MNEMONIC_ORDER[k])
        out.append(
            Tool(
                f"c{k}",
                f"{colour_name(k).capitalize()} ({letter})",
                color=f"color:{slots.get(letter, k)}",
                mode="edit",
            )
        )
    return out + _other_tools(puzzle)


def _other_tools(puzzle: FlowPuzzle) -> list[Tool]:
    # No shortcut: Delete already erases at the cursor (and clears a pipe in Play mode).
    out = [Tool(ERASE_TOOL, "Erase endpoint", mode="edit")]
    out.append(Tool(WALL_TOOL, "Wall (click or drag along cell sides)", mode="edit"))
    out.append(Tool(HOLE_TOOL, "Hole", mode="edit"))
    if not puzzle.hex:
        out.append(Tool(BRIDGE_TOOL, "Bridge", mode="edit"))
        out.append(Tool(WARP_TOOL, "Warp (click a border side)", mode="edit"))
    out.append(Tool(PIPE_TOOL, "Draw pipes", mode="play"))
    return out


def place_colour(puzzle: FlowPuzzle, cell: Cell, index: int) -> FlowPuzzle:
    """Put an endpoint of display colour ``index`` on ``cell``, keeping every colour's look.

    The letters are chosen so that the file reads back with the same colours (see
    ``codec.letters_for``); existing letters are kept whenever that works.
    """
    wanted = {ch: puzzle.colour_index(ch) for ch in puzzle.colours}
    letter = next((ch for ch, k in wanted.items() if k == index), None)
    if letter is None:
        for candidate in (MNEMONIC_ORDER[index], LABELS[index] if index < len(LABELS) else ""):
            if not candidate or candidate in wanted:
                continue
            trial = {**wanted, candidate: index}
            label = is_label_form(set(trial))
            if all(colour_index(ch, label) == k for ch, k in trial.items()):
                letter = candidate
                break
    if letter is None:
        # Rewrite all letters in the form that can express this colour set.
        everything = {**wanted, "\0": index}
        if all(k < len(LABELS) for k in everything.values()):
            mapping = {ch: LABELS[k] for ch, k in everything.items()}
        else:  # number labels (10..999) keep their number: their index lies past the letters
            mapping = {
                ch: MNEMONIC_ORDER[k] if k < len(MNEMONIC_ORDER) else ch for ch, k in everything.items()
            }
        puzzle = relabel(puzzle, {ch: mapping[ch] for ch in wanted})
        letter = mapping["\0"]
    return puzzle.with_cell(cell[0], cell[1], letter)


@dataclass
class FlowUI:
    """UI state of one document (``new_ui``): what the current wall stroke writes and where the
    pointer was at its last event (drag events come only when the cell changes)."""

    wall_add: bool | None = None
    last_pos: tuple[float, float] | None = None
    # The number being typed on a numbered board: its cell, its digits so far, and a serial that
    # keeps two numbers typed one after the other apart as undo steps.
    typing: tuple[Cell, str] | None = None
    typed_numbers: int = 0


def edit(
    puzzle: FlowPuzzle, entries: FlowPaths | None, event: EditEvent, ui: Any = None
) -> EditResult | None:
    if event.cell is not None and not puzzle.inside(*event.cell):
        event = replace(event, cell=None)  # a stale view's cell (board just resized): as if off-board
    if event.tool == WALL_TOOL and event.mode == "edit" and event.kind in ("drag", "release"):
        return _wall_drag(puzzle, event, ui if isinstance(ui, FlowUI) else None)
    flow_ui = ui if isinstance(ui, FlowUI) else None
    if flow_ui is not None and not _is_digit_key(puzzle, event):
        flow_ui.typing = None  # any other key or a click ends the number being typed
    if event.mode == "play":
        return _play(puzzle, entries or FlowPaths(), event)
    if event.cell is None:
        return None
    if _is_digit_key(puzzle, event):
        return _type_digit(puzzle, event, flow_ui)
    r, c = event.cell
    here = puzzle.at(r, c)
    new: FlowPuzzle | None = None
    if event.kind == "press" and event.button != "right" and event.tool in (WALL_TOOL, WARP_TOOL):
        done = _layout_edit(puzzle, event)
        if event.tool == WALL_TOOL and isinstance(ui, FlowUI):
            # The stroke keeps doing what the press did (add or remove), whatever it passes over.
            ui.wall_add = None if done is None else done.label.startswith("Add")
            ui.last_pos = event.pos
        return done
    if event.kind == "press":
        if event.tool in (HOLE_TOOL, BRIDGE_TOOL) and event.button != "right":
            mark = HOLE if event.tool == HOLE_TOOL else BRIDGE
            if (mark == BRIDGE and puzzle.hex) or (mark == HOLE and puzzle.cols == 1):
                return None  # a one-column board's hole row would be a lone '#' line in the file
            new = puzzle.with_cell(r, c, EMPTY if here == mark else mark)
        elif event.button == "right" or event.tool == ERASE_TOOL:
            new = puzzle.with_cell(r, c, EMPTY) if here != EMPTY else None
        elif event.tool == NEXT_TOOL or event.tool.startswith(LABEL_TOOL):
            label = next_number(puzzle) if event.tool == NEXT_TOOL else event.tool[len(LABEL_TOOL) :]
            if label is None:
                return EditResult(label=f"Every number 1..{MAX_NUMBER} is on the board already")
            # Labels are identities here: placed as they are, never rewritten to keep a colour.
            new = puzzle.with_cell(r, c, EMPTY if here == label else label)
        elif event.tool.startswith("c") and event.tool[1:].isdigit():
            index = int(event.tool[1:])
            if here not in NOT_COLOURS and puzzle.colour_index(here) == index:
                new = puzzle.with_cell(r, c, EMPTY)  # clicking an endpoint again removes it
            else:
                new = place_colour(puzzle.with_cell(r, c, EMPTY), (r, c), index)
    elif event.kind == "key":
        if event.key in ("Delete", "Backspace", "Space", ".", "-"):
            new = puzzle.with_cell(r, c, EMPTY) if here != EMPTY else None
        elif len(event.key) == 1 and event.key in LETTERS + HOLE + BRIDGE:
            # The key help names colours by capitals (R, G, B, ...): a plain "r" means red too. As a
            # label of its own it drew colour 35, the same yellow as Y, a pair the solver keeps apart.
            key = event.key.upper() if "a" <= event.key <= "z" else event.key
            if key == here or (key == BRIDGE and puzzle.hex) or (key == HOLE and puzzle.cols == 1):
                return None
            new = puzzle.with_cell(r, c, key)
    if new is None or new == puzzle:
        return None
    names = {EMPTY: "Clear", HOLE: "Hole", BRIDGE: "Bridge"}
    what = names.get(new.at(r, c), f"Place {new.at(r, c)}")
    if new.at(r, c) == EMPTY and here not in (HOLE, BRIDGE):
        what = "Remove endpoint"
    # Entries stay None: the shell keeps the pipes that still fit (``adapt_entries``).
    return EditResult(puzzle=new, label=f"{what} at {cell_name(r, c)}")


def _is_digit_key(puzzle: FlowPuzzle, event: EditEvent) -> bool:
    return (
        event.kind == "key" and event.mode == "edit" and numbered(puzzle) and event.key in tuple("0123456789")
    )


def _type_digit(puzzle: FlowPuzzle, event: EditEvent, ui: FlowUI | None) -> EditResult | None:
    """One digit typed on a numbered board: it goes on the number typed on this cell just before
    (nothing else in between, and the cell still holds it), else it starts a new number."""
    assert event.cell is not None
    r, c = event.cell
    where = cell_name(r, c)
    typing = ui.typing if ui is not None else None
    going_on = typing is not None and typing[0] == event.cell and puzzle.at(r, c) == typing[1]
    digits = typing[1] + event.key if going_on and typing is not None else event.key
    if digits[0] == "0":
        return EditResult(label=f"Numbers start at 1: 0 cannot begin a number (at {where})")
    if len(digits) > len(str(MAX_NUMBER)):
        return EditResult(
            label=f"{digits[:-1]} stays at {where}: {MAX_NUMBER} is the largest number "
            "(Backspace clears it, or move to start another)"
        )
    if ui is not None:
        if not going_on:
            ui.typed_numbers += 1
        ui.typing = (event.cell, digits)
    new = puzzle.with_cell(r, c, digits)
    if new == puzzle:
        return None
    serial = ui.typed_numbers if ui is not None else 0
    return EditResult(
        puzzle=new, label=f"Place {digits} at {where}", merge_key=f"number:{serial}", key_merge=True
    )


def nearest_side(puzzle: FlowPuzzle, cell: Cell, pos: tuple[float, float]) -> int:
    """The direction of the side of ``cell`` nearest the point ``pos`` (display coordinates)."""
    cx, cy = geometry(puzzle).center(*cell)
    angle = math.atan2(pos[1] - cy, pos[0] - cx)
    return max(range(puzzle.n_dirs), key=lambda d: math.cos(angle - math.atan2(*unit(puzzle, d)[::-1])))


def _layout_edit(puzzle: FlowPuzzle, event: EditEvent) -> EditResult | None:
    """Wall and warp tools: toggle the wall on the clicked side, or the warp of a border row/column."""
    assert event.cell is not None
    r, c = event.cell
    d = nearest_side(puzzle, event.cell, event.pos)
    if event.tool == WALL_TOOL:
        other = puzzle.step(r, c, d)
        if other is None:
            return None
        w = wall((r, c), other)
        walls = puzzle.walls - {w} if w in puzzle.walls else puzzle.walls | {w}
        label = "Remove wall" if w in puzzle.walls else "Add wall"
        return EditResult(
            puzzle=replace(puzzle, walls=frozenset(walls)),
            label=f"{label} at {cell_name(r, c)}",
            merge_key="walls",
        )
    if puzzle.hex:
        return None
    if d in (1, 3) and c == (puzzle.cols - 1 if d == 1 else 0):
        rows = puzzle.warp_rows ^ {r}
        # A wall across the seam would hide the warp: opening it clears such walls.
        seam = wall((r, 0), (r, puzzle.cols - 1))
        new = replace(puzzle, warp_rows=frozenset(rows), walls=puzzle.walls - {seam})
        return EditResult(puzzle=new, label=f"{'Open' if r in rows else 'Close'} warp on row {r + 1}")
    if d in (0, 2) and r == (puzzle.rows - 1 if d == 2 else 0):
        cols = puzzle.warp_cols ^ {c}
        seam = wall((0, c), (puzzle.rows - 1, c))
        new = replace(puzzle, warp_cols=frozenset(cols), walls=puzzle.walls - {seam})
        return EditResult(puzzle=new, label=f"{'Open' if c in cols else 'Close'} warp on column {c + 1}")
    return None


def side_under(
    puzzle: FlowPuzzle, pos: tuple[float, float], motion: tuple[float, float] = (0.0, 0.0)
) -> tuple[Cell, Cell] | None:
    """The wall slot whose side passes near its middle under ``pos`` (within 0.3 cell of the
    side's midpoint; corners and cell interiors give None, so a stroke never jumps sideways).
    With a ``motion``, only a side within 30 degrees of it counts (crossing a side is no stroke)."""
    geom = geometry(puzzle)
    cell = geom.cell_at(*pos)
    if cell is None:
        return None
    cx, cy = geom.center(*cell)
    best = None
    for d in range(puzzle.n_dirs):
        ux, uy = unit(puzzle, d)
        dist = math.hypot(cx + 0.5 * geom.cell * ux - pos[0], cy + 0.5 * geom.cell * uy - pos[1])
        across = abs(motion[0] * ux + motion[1] * uy)  # motion along the side's normal
        if across > 0.5 * math.hypot(*motion):
            continue
        if dist < 0.3 * geom.cell and (best is None or dist < best[0]):
            best = (dist, d)
    if best is None:
        return None
    other = puzzle.step(*cell, best[1])
    return None if other is None else (cell, other)


def _wall_drag(puzzle: FlowPuzzle, event: EditEvent, ui: FlowUI | None) -> EditResult | None:
    """A wall stroke: every cell side the pointer ran along since the last event gets the value
    the press chose (add or remove); the whole stroke is one undo step (``merge_key``)."""
    if ui is None or ui.wall_add is None or ui.last_pos is None:
        return None
    if event.kind == "release":
        ui.wall_add = ui.last_pos = None
        return None
    start = ui.last_pos
    dx, dy = event.pos[0] - start[0], event.pos[1] - start[1]
    size = geometry(puzzle).cell
    if math.hypot(dx, dy) < 0.25 * size:
        return None  # too short to tell the stroke's direction from a shaky hand: wait
    ui.last_pos = event.pos
    samples = max(1, int(math.hypot(dx, dy) / (0.1 * size)))
    walls = set(puzzle.walls)
    for i in range(samples + 1):
        slot = side_under(puzzle, (start[0] + dx * i / samples, start[1] + dy * i / samples), (dx, dy))
        if slot is not None:
            w = wall(*slot)
            (walls.add if ui.wall_add else walls.discard)(w)
    if walls == puzzle.walls:
        return None
    return EditResult(
        puzzle=replace(puzzle, walls=frozenset(walls)),
        label="Add walls" if ui.wall_add else "Remove walls",
        merge_key="walls",
    )


def _play(puzzle: FlowPuzzle, paths: FlowPaths, event: EditEvent) -> EditResult | None:
    cell = event.cell
    if event.kind == "key":
        return _play_key(puzzle, paths, event)
    if event.kind == "release":
        if not paths.active:
            return None
        # A press on a dot without a drag draws nothing: its one-cell pipe goes (it made an undo
        # step, marked the file changed and counted 4 % of the board filled, with nothing shown).
        done = paths.with_path(paths.active, (), "") if len(paths.get(paths.active)) <= 1 else paths
        return EditResult(entries=done.with_active(""), merge_key=_key(paths), vanish_if_unchanged=True)
    if cell is None:
        return None
    owner = paths.owner()
    here = puzzle.at(*cell)
    if here == HOLE:
        return None
    if event.kind == "press":
        if event.button == "right":
            ch = owner.get(cell, here if here not in (EMPTY, BRIDGE) else "")
            if not paths.get(ch):
                return None
            return EditResult(entries=paths.with_path(ch, (), active=""), label=f"Clear pipe {ch}")
        if here not in (EMPTY, BRIDGE):
            ch = here
            current = paths.get(ch)
            # Pressing the far end of a finished-or-not pipe continues it; its start restarts it.
            new_path = current if current and current[-1] == cell else (cell,)
        elif cell in owner:
            ch = owner[cell]
            current = paths.get(ch)
            new_path = current[: current.index(cell) + 1]
        else:
            return None
        result = paths.with_path(ch, new_path, active=ch)
        return EditResult(entries=result, label=f"Draw {puzzle.pipe_name(ch)}", merge_key=_key(result))
    if event.kind != "drag" or not paths.active:
        return None
    result = paths
    for step in _steps(result.get(paths.active)[-1:], cell, puzzle):
        nxt = _extend(puzzle, result, paths.active, step)
        if nxt is None:
            break
        result = nxt
    if result == paths:
        return None
    return EditResult(entries=result, label=f"Draw {puzzle.pipe_name(paths.active)}", merge_key=_key(paths))


STEP_KEYS = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
PICK_KEYS = ("Space", " ", "Return", "Enter")
CLEAR_KEYS = ("Delete", "Backspace")


def _play_key(puzzle: FlowPuzzle, paths: FlowPaths, event: EditEvent) -> EditResult | None:
    """Keyboard play: Space picks the pipe at the cursor (from an endpoint, or cut back to the
    cursor's cell), Shift+arrow draws the picked pipe one step on from its end, Delete clears the
    pipe at the cursor. Plain arrows stay with the shell (they move the cursor). One key, one step."""
    cell = event.cell
    if cell is None:
        return None
    if event.key in PICK_KEYS or event.key in CLEAR_KEYS:
        pressed = (
            replace(event, kind="press", button="left")
            if event.key in PICK_KEYS
            else replace(event, kind="press", button="right")
        )
        done = _play(puzzle, paths, pressed)
        return None if done is None else replace(done, merge_key=None)  # a key is its own undo step
    step = STEP_KEYS.get(event.key)
    if step is None or "shift" not in event.modifiers:
        return None
    if not paths.active:
        picked = _play(puzzle, paths, replace(event, kind="press", button="left"))
        if picked is None:
            return None
        paths = picked.entries
    ch = paths.active
    r, c = paths.get(ch)[-1]
    if puzzle.hex:  # the neighbour nearest the key's direction, of those the cell has
        # (Down from a left-column cell tied down-left, off the board, and only moved the cursor)
        angle = math.atan2(step[0], step[1])
        sides = [d for d in range(puzzle.n_dirs) if puzzle.link(r, c, d) is not None]
        d = max(sides, key=lambda d: math.cos(angle - math.atan2(*unit(puzzle, d)[::-1])), default=-1)
    else:
        d = ((-1, 0), (0, 1), (1, 0), (0, -1)).index(step)
    target = puzzle.link(r, c, d) if d >= 0 else None  # warps lead across the seam
    # Said, and the key taken: a refused step moved the cursor, onto another colour's dot even.
    if target is None:
        return EditResult(label=f"The {puzzle.pipe_name(ch)} cannot go that way from {cell_name(r, c)}")
    result = _extend(puzzle, paths, ch, target)
    if result is None:
        return EditResult(label=f"The {puzzle.pipe_name(ch)} cannot go on to {cell_name(*target)}")
    return EditResult(entries=result, label=f"Draw {puzzle.pipe_name(ch)}")


def _key(paths: FlowPaths) -> str:
    return f"pipe:{paths.active}"


def _steps(tail: tuple[Cell, ...], target: Cell, puzzle: FlowPuzzle | None = None) -> list[Cell]:
    """Cells from the pipe's end to ``target``, one step at a time (fast drags skip cells): on
    square boards orthogonal steps, on hex boards the neighbour nearest the target each time."""
    if not tail:
        return []
    r, c = tail[0]
    out: list[Cell] = []
    if puzzle is not None and puzzle.adjacent((r, c), target):
        return [target]  # also across a warp seam
    if puzzle is not None and puzzle.hex:
        geom = geometry(puzzle)
        tx, ty = geom.center(*target)
        for _ in range(puzzle.rows + puzzle.cols):
            if (r, c) == target:
                break
            options = [puzzle.step(r, c, d) for d in range(6)]
            nxt = min(
                (o for o in options if o is not None),
                key=lambda o: (geom.center(*o)[0] - tx) ** 2 + (geom.center(*o)[1] - ty) ** 2,
            )
            r, c = nxt
            out.append(nxt)
        return out
    while (r, c) != target:
        if abs(target[0] - r) >= abs(target[1] - c):
            r += 1 if target[0] > r else -1
        else:
            c += 1 if target[1] > c else -1
        out.append((r, c))
    return out


def _lane(puzzle: FlowPuzzle, path: tuple[Cell, ...], i: int) -> int:
    """Which lane of its cell visit ``i`` of a path uses (-1 off bridges, 0 horizontal, 1 vertical)."""
    if puzzle.at(*path[i]) != BRIDGE:
        return -1
    d = puzzle.direction(path[i - 1], path[i]) if i > 0 else None
    if d is None and i + 1 < len(path):
        d = puzzle.direction(path[i], path[i + 1])
    return 0 if d in (1, 3) else 1


def _extend(puzzle: FlowPuzzle, paths: FlowPaths, ch: str, cell: Cell) -> FlowPaths | None:
    path = paths.get(ch)
    if not path or cell == path[-1]:
        return None
    last = path[-1]
    d = puzzle.direction(last, cell)
    lane = -1 if puzzle.at(*cell) != BRIDGE else (0 if d in (1, 3) else 1)
    for i, here in enumerate(path):
        if here == cell and (lane < 0 or d is None or _lane(puzzle, path, i) == lane):
            return paths.with_path(ch, path[: i + 1])  # backing up
    if d is None:
        return None
    if len(path) > 1 and puzzle.at(*last) == ch:
        return None  # already reached the other endpoint
    if len(path) > 1 and puzzle.at(*last) == BRIDGE and puzzle.direction(path[-2], last) != d:
        return None  # a pipe crosses a bridge straight on
    mark = puzzle.at(*cell)
    if mark not in (EMPTY, BRIDGE) and mark != ch:
        return None  # another colour's endpoint blocks
    for other, cut in paths.items:
        if other == ch:
            continue
        for i, here in enumerate(cut):
            if here == cell and (lane < 0 or _lane(puzzle, cut, i) == lane):
                paths = paths.with_path(other, cut[:i])
                break
    return paths.with_path(ch, path + (cell,))
