"""Qt-free editing (Tatham's interpret_move): mouse/keys -> new puzzle or entries.

Stroke state (which edge value a border drag writes, the cells of a paint stroke, the cell an
arrow drag started from) lives in a small ``Stroke`` object inside the document's ``EditorUI``
(the plug-in's ``new_ui``); it is UI state, never undone, and never kept by the plug-in object.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from solvers.common.protocol import EditEvent, EditResult, Tool
from solvers.common.words import cell_name
from solvers.toichika.drawing import CELL, MARGIN
from solvers.toichika.model import (
    ARROW_CHAR,
    DIRECTIONS,
    DOT,
    DOWN,
    LEFT,
    MARK_ARROW_HERE,
    QUESTION,
    RIGHT,
    UP,
    Toichika,
    marks_entry,
    marks_of,
)

TOOLS = [
    # border: drag along cell edges; paint: drag through cells to carve a country;
    # arrow: click cycles ^ > v < none, drag sets the direction of motion, Shift+arrow keys set it
    Tool("border", "Border", shortcut="B", mode="edit"),
    Tool("paint", "Paint country", shortcut="P", mode="edit"),
    Tool("arrow", "Arrow", shortcut="A", mode="both"),
    Tool("question", "? arrow", shortcut="Q", mode="edit"),
    Tool("dot", "Dot", shortcut="D", mode="play"),
    # pencil: a click near a cell side rules that direction out (again: back in); near the
    # centre it marks "an arrow goes here". Shift+click does the same with any play tool.
    Tool("pencil", "Pencil mark", shortcut="M", mode="play"),
    Tool("erase", "Erase", shortcut="E", mode="both"),
]

# Plain arrow keys move the cursor (the shell does that when edit() returns None); Shift+arrow or
# the digits 1-4 place an arrow. Letters are left to the tool shortcuts (E erase, Q "?", A, D...).
SHIFT_DIRECTION = {"Up": UP, "Down": DOWN, "Left": LEFT, "Right": RIGHT}
DIGIT_DIRECTION = {"1": UP, "2": RIGHT, "3": DOWN, "4": LEFT}
CYCLE = {0: UP, UP: RIGHT, RIGHT: DOWN, DOWN: LEFT, LEFT: 0}
CLEAR_KEYS = {"Delete", "Backspace", "Space", " ", "0", "6"}
QUESTION_KEYS = {"?", "Question", "5", "-"}
DOT_KEYS = {".", "Period", "+", "Plus"}
ARROW_HERE_KEYS = {"*", "Asterisk"}
CENTRE = 0.2  # a pencil click this close to the cell centre (in cells) marks "an arrow goes here"
Edge = tuple[str, int, int]


EDGE_REACH = 0.15  # of a cell: how far outside the board a press still reaches an edge


def nearest_edge(p: Toichika, pos: tuple[float, float]) -> Edge | None:
    """The interior cell edge closest to a logical position: ('v', r, c) right of (r,c), ('h', r, c) below."""
    fx, fy = (pos[0] - MARGIN) / CELL, (pos[1] - MARGIN) / CELL
    # Only on the board (give or take the outline's width): a click in the margin, e.g. to give the
    # board focus, used to toggle the inner edge nearest to it (QA).
    if not (-EDGE_REACH < fx < p.cols + EDGE_REACH and -EDGE_REACH < fy < p.rows + EDGE_REACH):
        return None
    kx, ky = round(fx), round(fy)
    r, c = min(max(int(fy // 1), 0), p.rows - 1), min(max(int(fx // 1), 0), p.cols - 1)
    if abs(fx - kx) <= abs(fy - ky):
        if 1 <= kx <= p.cols - 1:
            return ("v", r, kx - 1)
        return None
    if 1 <= ky <= p.rows - 1:
        return ("h", ky - 1, c)
    return None


def edge_value(p: Toichika, edge: Edge) -> bool:
    kind, r, c = edge
    return p.wall_right(r, c) if kind == "v" else p.wall_below(r, c)


@dataclass
class Stroke:
    wall_value: bool = True
    painted: set[int] = field(default_factory=set)
    start: tuple[int, int] | None = None
    value: int | None = None
    last: tuple[int, int] | None = None


@dataclass
class EditorUI:
    """Per-document UI state: the stroke under way (a press starts a new one)."""

    stroke: Stroke = field(default_factory=Stroke)


class Editor:
    """One event's editor over a document's ``EditorUI`` (a throwaway one when none is given)."""

    def __init__(self, ui: EditorUI | None = None) -> None:
        self.ui = ui if ui is not None else EditorUI()

    @property
    def stroke(self) -> Stroke:
        return self.ui.stroke

    @stroke.setter
    def stroke(self, stroke: Stroke) -> None:
        self.ui.stroke = stroke

    def edit(self, p: Toichika, entries: tuple[int, ...], event: EditEvent) -> EditResult | None:
        if event.cell is not None and not (0 <= event.cell[0] < p.rows and 0 <= event.cell[1] < p.cols):
            event = replace(event, cell=None)  # a stale view's cell (board just resized): off-board
        if event.kind == "key":
            return self._key(p, entries, event)
        if event.kind not in ("press", "drag"):
            return None
        tool = event.tool or ("border" if event.mode == "edit" else "arrow")
        if event.mode == "edit" and tool == "border":
            return self._border(p, event)
        if event.cell is None:
            return None
        if event.mode == "edit" and tool == "paint":
            return self._paint(p, event)
        if tool == "erase" or (event.button == "right" and event.mode == "edit"):
            return self._set(p, entries, event, 0, "Erase")
        if tool == "question" and event.mode == "edit":
            if event.kind == "press":
                value = 0 if p.given(*event.cell) == QUESTION else QUESTION
                return self._set(p, entries, event, value, "'?' arrow")
            return None
        if event.mode == "play" and event.button != "right" and tool != "erase":
            if tool == "pencil" or "shift" in event.modifiers:
                return self._pencil_click(p, entries, event) if event.kind == "press" else None
        if event.mode == "play" and (tool == "dot" or event.button == "right"):
            return self._dot(p, entries, event)
        if tool in ("arrow", "dot"):
            return self._arrow(p, entries, event)
        return None

    # ---- walls --------------------------------------------------------------------------------
    def _border(self, p: Toichika, event: EditEvent) -> EditResult | None:
        edge = nearest_edge(p, event.pos)
        if edge is None:
            return None
        if event.kind == "press":
            self.stroke = Stroke(wall_value=not edge_value(p, edge) if event.button != "right" else False)
        if edge_value(p, edge) == self.stroke.wall_value:
            return None
        verb = "Draw" if self.stroke.wall_value else "Erase"
        return EditResult(
            puzzle=p.with_wall(*edge, self.stroke.wall_value), label=f"{verb} border", merge_key="border"
        )

    def _paint(self, p: Toichika, event: EditEvent) -> EditResult | None:
        r, c = event.cell  # type: ignore[misc]
        i = p.index(r, c)
        if event.kind == "press":
            self.stroke = Stroke(painted={i}, last=(r, c))
        elif i in self.stroke.painted or self.stroke.last is None:
            return None
        elif any(j >= p.size for j in self.stroke.painted):
            return None  # the stroke began on another (larger) board: a new document was opened mid-drag
        else:
            lr, lc = self.stroke.last
            if abs(lr - r) + abs(lc - c) != 1:
                return None  # only grow through neighbouring cells so the country stays connected
            self.stroke.painted.add(i)
            self.stroke.last = (r, c)
        vw, hw = list(p.vwalls), list(p.hwalls)
        painted = self.stroke.painted
        for j in painted:
            jr, jc = divmod(j, p.cols)
            if jc + 1 < p.cols:
                vw[jr * (p.cols - 1) + jc] = (j + 1) not in painted
            if jc > 0:
                vw[jr * (p.cols - 1) + jc - 1] = (j - 1) not in painted
            if jr + 1 < p.rows:
                hw[jr * p.cols + jc] = (j + p.cols) not in painted
            if jr > 0:
                hw[(jr - 1) * p.cols + jc] = (j - p.cols) not in painted
        new = p.with_walls(tuple(vw), tuple(hw))
        if new == p:
            return None
        return EditResult(puzzle=new, label="Paint country", merge_key="paint")

    # ---- cells --------------------------------------------------------------------------------
    def _set(
        self, p: Toichika, entries: tuple[int, ...], event: EditEvent, value: int, label: str
    ) -> EditResult | None:
        r, c = event.cell  # type: ignore[misc]
        if event.mode == "edit":
            if p.given(r, c) == value:
                return None
            return EditResult(
                puzzle=p.with_given(r, c, value), label=f"{label} at {cell_name(r, c)}", merge_key="cells"
            )
        if p.given(r, c) in DIRECTIONS or entries[p.index(r, c)] == value:
            return None
        if p.given(r, c) == QUESTION and value == DOT:  # a "?" is an arrow: no file holds a dot there
            return EditResult(label=f"{cell_name(r, c)} is a given '?' (an arrow): it takes no dot")
        new = list(entries)
        new[p.index(r, c)] = value
        return EditResult(entries=tuple(new), label=f"{label} at {cell_name(r, c)}", merge_key="cells")

    def _pencil_click(self, p: Toichika, entries: tuple[int, ...], event: EditEvent) -> EditResult | None:
        """The side of the cell nearest the click picks the direction; the centre, "arrow here"."""
        r, c = event.cell  # type: ignore[misc]
        dx = (event.pos[0] - MARGIN) / CELL - c - 0.5
        dy = (event.pos[1] - MARGIN) / CELL - r - 0.5
        if max(abs(dx), abs(dy)) < CENTRE:
            bit = MARK_ARROW_HERE
        elif abs(dx) >= abs(dy):
            bit = 1 << (RIGHT if dx > 0 else LEFT)
        else:
            bit = 1 << (DOWN if dy > 0 else UP)
        return self._toggle_mark(p, entries, (r, c), bit)

    def _toggle_mark(
        self, p: Toichika, entries: tuple[int, ...], cell: tuple[int, int], bit: int
    ) -> EditResult | None:
        r, c = cell
        i = p.index(r, c)
        given, current = p.given(r, c), entries[i]
        if given in DIRECTIONS:
            return None
        if bit == MARK_ARROW_HERE and given == QUESTION:
            return None  # a "?" is an arrow already
        if current in DIRECTIONS or current == DOT:
            what = "a dot" if current == DOT else "an arrow"
            # A refusal says why (the shell shows the label); the entry stays as it is.
            return EditResult(label=f"{cell_name(r, c)} holds {what}: erase it before pencil marks")
        bits = marks_of(current) ^ bit
        what = "arrow here" if bit == MARK_ARROW_HERE else f"not {ARROW_CHAR[bit.bit_length() - 1]}"
        verb = "Mark" if bits & bit else "Unmark"
        new = list(entries)
        new[i] = marks_entry(bits)
        return EditResult(entries=tuple(new), label=f"{verb} {what} at {cell_name(r, c)}", merge_key="marks")

    def _dot(self, p: Toichika, entries: tuple[int, ...], event: EditEvent) -> EditResult | None:
        r, c = event.cell  # type: ignore[misc]
        if event.kind == "press":
            self.stroke = Stroke(value=0 if entries[p.index(r, c)] == DOT else DOT)
        if p.given(r, c) != 0 or self.stroke.value is None:
            return None
        return self._set(p, entries, event, self.stroke.value, "Dot" if self.stroke.value else "Erase")

    def _arrow(self, p: Toichika, entries: tuple[int, ...], event: EditEvent) -> EditResult | None:
        r, c = event.cell  # type: ignore[misc]
        if event.kind == "press":
            self.stroke = Stroke(start=(r, c))
            current = p.given(r, c) if event.mode == "edit" else entries[p.index(r, c)]
            if event.mode == "play" and p.given(r, c) in DIRECTIONS:
                return None
            value = CYCLE.get(current if current in DIRECTIONS else 0, 0)
            return self._set(p, entries, event, value, f"Arrow {ARROW_CHAR.get(value, 'off')}")
        start = self.stroke.start
        if start is None or (r, c) == start or abs(r - start[0]) + abs(c - start[1]) != 1:
            return None
        value = {(-1, 0): UP, (1, 0): DOWN, (0, -1): LEFT, (0, 1): RIGHT}[(r - start[0], c - start[1])]
        moved = EditEvent("press", event.tool, event.mode, start, event.pos, event.button)
        self.stroke.start = (r, c)  # keep drawing: the next step sets this cell
        return self._set(p, entries, moved, value, f"Arrow {ARROW_CHAR[value]}")

    def _key(self, p: Toichika, entries: tuple[int, ...], event: EditEvent) -> EditResult | None:
        if event.cell is None:
            return None
        key = event.key
        direction = DIGIT_DIRECTION.get(key) or (
            SHIFT_DIRECTION.get(key) if "shift" in event.modifiers else None
        )
        if direction:
            return self._set(p, entries, event, direction, f"Arrow {ARROW_CHAR[direction]}")
        if key in CLEAR_KEYS:
            return self._set(p, entries, event, 0, "Erase")
        if event.mode == "edit" and key in QUESTION_KEYS:
            return self._set(p, entries, event, QUESTION, "'?' arrow")
        if event.mode == "play" and key in DOT_KEYS:
            return self._set(p, entries, event, DOT, "Dot")
        if event.mode == "play" and key in ARROW_HERE_KEYS:
            return self._toggle_mark(p, entries, event.cell, MARK_ARROW_HERE)
        if event.mode == "play" and "ctrl" in event.modifiers and key in SHIFT_DIRECTION:
            return self._toggle_mark(p, entries, event.cell, 1 << SHIFT_DIRECTION[key])
        return None
