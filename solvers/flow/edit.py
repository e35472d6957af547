"""Editing (Tatham's interpret_move, Qt-free).

Edit mode: one tool per display colour places or removes that colour's endpoints (click again or
right-click to remove); "erase" clears a cell; typing a colour letter places it under the cursor.
Play mode: press on an endpoint or on a pipe and drag to draw; backing up shortens the pipe,
crossing another pipe cuts that pipe, another colour's endpoint blocks.
"""

from __future__ import annotations

from dataclasses import replace

from solvers.common.protocol import EditEvent, EditResult, Tool
from solvers.flow.codec import relabel
from solvers.flow.draw import display_slots
from solvers.flow.model import (
    EMPTY,
    LABELS,
    LETTERS,
    MNEMONIC_ORDER,
    Cell,
    FlowPaths,
    FlowPuzzle,
    colour_index,
    colour_name,
    is_label_form,
)

BASE_TOOLS = 16  # colour tools always offered; more appear as colours get used
PIPE_TOOL = "pipe"
ERASE_TOOL = "erase"


def tools(puzzle: FlowPuzzle) -> list[Tool]:
    used = {puzzle.colour_index(ch): ch for ch in puzzle.colours}
    slots = display_slots(puzzle)  # swatches look like the board's dots
    top = min(len(LETTERS), max(BASE_TOOLS, max(used, default=-1) + 2))
    out = []
    for k in range(top):
        letter = used.get(k, LABELS[k] if puzzle.label_form and k < len(LABELS) else MNEMONIC_ORDER[k])
        out.append(
            Tool(
                f"c{k}",
                f"{colour_name(k).capitalize()} ({letter})",
                color=f"color:{slots.get(letter, k)}",
                mode="edit",
            )
        )
    out.append(Tool(ERASE_TOOL, "Erase endpoint", shortcut="Delete", mode="edit"))
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
        else:
            mapping = {ch: MNEMONIC_ORDER[k] for ch, k in everything.items()}
        puzzle = relabel(puzzle, {ch: mapping[ch] for ch in wanted})
        letter = mapping["\0"]
    return puzzle.with_cell(cell[0], cell[1], letter)


def edit(puzzle: FlowPuzzle, entries: FlowPaths | None, event: EditEvent) -> EditResult | None:
    if event.cell is not None and not puzzle.inside(*event.cell):
        event = replace(event, cell=None)  # a stale view's cell (board just resized): as if off-board
    if event.mode == "play":
        return _play(puzzle, entries or FlowPaths(), event)
    if event.cell is None:
        return None
    r, c = event.cell
    here = puzzle.at(r, c)
    new: FlowPuzzle | None = None
    if event.kind == "press":
        if event.button == "right" or event.tool == ERASE_TOOL:
            new = puzzle.with_cell(r, c, EMPTY) if here != EMPTY else None
        elif event.tool.startswith("c") and event.tool[1:].isdigit():
            index = int(event.tool[1:])
            if here != EMPTY and puzzle.colour_index(here) == index:
                new = puzzle.with_cell(r, c, EMPTY)  # clicking an endpoint again removes it
            else:
                new = place_colour(puzzle.with_cell(r, c, EMPTY), (r, c), index)
    elif event.kind == "key":
        if event.key in ("Delete", "Backspace", "Space", ".", "-"):
            new = puzzle.with_cell(r, c, EMPTY) if here != EMPTY else None
        elif len(event.key) == 1 and event.key in LETTERS and event.key != here:
            new = puzzle.with_cell(r, c, event.key)
    if new is None or new == puzzle:
        return None
    what = "Remove endpoint" if new.at(r, c) == EMPTY else f"Place {new.at(r, c)}"
    # Entries stay None: the shell keeps the pipes that still fit (``adapt_entries``).
    return EditResult(puzzle=new, label=f"{what} at ({r + 1},{c + 1})")


def _play(puzzle: FlowPuzzle, paths: FlowPaths, event: EditEvent) -> EditResult | None:
    cell = event.cell
    if event.kind == "key":
        return _play_key(puzzle, paths, event)
    if event.kind == "release":
        return EditResult(entries=paths.with_active(""), merge_key=_key(paths)) if paths.active else None
    if cell is None:
        return None
    owner = paths.owner()
    here = puzzle.at(*cell)
    if event.kind == "press":
        if event.button == "right":
            ch = owner.get(cell, here if here != EMPTY else "")
            if not paths.get(ch):
                return None
            return EditResult(entries=paths.with_path(ch, (), active=""), label=f"Clear pipe {ch}")
        if here != EMPTY:
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
        return EditResult(entries=result, label=f"Draw pipe {ch}", merge_key=_key(result))
    if event.kind != "drag" or not paths.active:
        return None
    result = paths
    for step in _steps(result.get(paths.active)[-1:], cell):
        nxt = _extend(puzzle, result, paths.active, step)
        if nxt is None:
            break
        result = nxt
    if result == paths:
        return None
    return EditResult(entries=result, label=f"Draw pipe {paths.active}", merge_key=_key(paths))


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
    target = (r + step[0], c + step[1])
    if not puzzle.inside(*target):
        return None
    result = _extend(puzzle, paths, ch, target)
    if result is None:
        return None
    return EditResult(entries=result, label=f"Draw pipe {ch}")


def _key(paths: FlowPaths) -> str:
    return f"pipe:{paths.active}"


def _steps(tail: tuple[Cell, ...], target: Cell) -> list[Cell]:
    """Cells from the pipe's end to ``target``, one orthogonal step at a time (fast drags skip cells)."""
    if not tail:
        return []
    r, c = tail[0]
    out: list[Cell] = []
    while (r, c) != target:
        if abs(target[0] - r) >= abs(target[1] - c):
            r += 1 if target[0] > r else -1
        else:
            c += 1 if target[1] > c else -1
        out.append((r, c))
    return out


def _extend(puzzle: FlowPuzzle, paths: FlowPaths, ch: str, cell: Cell) -> FlowPaths | None:
    path = paths.get(ch)
    if not path or cell == path[-1]:
        return None
    if cell in path:
        return paths.with_path(ch, path[: path.index(cell) + 1])  # backing up
    last = path[-1]
    if abs(last[0] - cell[0]) + abs(last[1] - cell[1]) != 1:
        return None
    if len(path) > 1 and puzzle.at(*last) == ch:
        return None  # already reached the other endpoint
    mark = puzzle.at(*cell)
    if mark != EMPTY and mark != ch:
        return None  # another colour's endpoint blocks
    other = paths.owner().get(cell)
    if other is not None and other != ch:
        cut = paths.get(other)
        paths = paths.with_path(other, cut[: cut.index(cell)])
    return paths.with_path(ch, path + (cell,))
