"""Nine Tiles Panic plug-in: a town (3x3 tiles) is the "puzzle"; solving completes a partial town."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.display import DisplayList, GridGeometry, Line, Rect, Text
from solvers.common.protocol import (
    CheckResult,
    ContextAction,
    EditEvent,
    EditResult,
    Hover,
    PluginBase,
    ProgressFn,
    Solution,
    Tool,
    Violation,
)
from solvers.ninetiles import META
from solvers.ninetiles import complete as completion
from solvers.ninetiles.art import TilePainter, segment_path, tile_label
from solvers.ninetiles.themes import THEME_NAMES
from solvers.ninetiles.tiles import face
from solvers.ninetiles.town import (
    EMPTY,
    POSITIONS,
    Road,
    Town,
    cell_name,
    cell_of,
    is_code,
    neighbour_pairs,
    parse_town,
    problems,
    trace_roads,
    validity,
)

WARMUP_TOWN = "206745813361230035"  # the rule book's example town
CELL = 100.0
MARGIN = 10.0
FRAME_GAP, FRAME_WIDTH = 3.0, 2.5  # the palette-coloured frame just outside the board
FRAME_REACH = FRAME_GAP + FRAME_WIDTH / 2  # how far its outer edge lies outside the board
TRAY_CELL = 56.0
TRAY_GAP = 6.0
TRAY_COLS = 5
HOVER_REACH = 0.14  # of a cell: a little wider than half the drawn road (0.22)


def road_text(index: int, road: Road) -> str:
    """'Road 2: R1C1 → R1C2 → R2C2, length 3; objects Ag-R, Al-L*, H; 1 alien captured' (* = caught)."""
    from solvers.ninetiles.themes import capture_flags

    labels = road.object_labels()
    caught = capture_flags(labels)
    objects = ", ".join(f"{lb}{'*' if c else ''}" for lb, c in zip(labels, caught, strict=True)) or "none"
    kind = " (loop)" if road.closed else (" (open end)" if road.open_ends else "")
    return (
        f"Road {index + 1}{kind}: {' → '.join(map(cell_name, road.positions))}, length {road.length}; "
        f"objects {objects}; {sum(caught)} alien{'s' if sum(caught) != 1 else ''} captured"
    )


def _distance_to_path(pos: tuple[float, float], path: list[tuple[float, float]]) -> float:
    px, py = pos
    best = math.inf
    for (ax, ay), (bx, by) in zip(path, path[1:], strict=False):
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
        best = min(best, math.hypot(px - (ax + t * dx), py - (ay + t * dy)))
    return best


def town_label(code: str, scores: list[int], themes: tuple[int, ...]) -> str:
    """Thumbnail caption: the whole code, then the town's score on each chosen theme card, named
    as on the card, one card a line ("Capture: 0"; the line under the board joins them with " · ").
    It read "T1: 0  T2: 0  T3: 1", and nothing said T1 was the card of theme 1."""
    return "\n".join([code, *(f"{THEME_NAMES[t - 1]}: {scores[t - 1]}" for t in themes)])


DEFAULT_CARD_THEMES: tuple[int, int, int] = (1, 2, 3)


@dataclass
class NineTilesUI:
    """Per-document UI state: what the last press picked up, until its release, and the theme
    cards chosen in the Best towns panel (Solve's completions are captioned with their scores)."""

    pressed: tuple[str, int] | None = None  # ("board", position) or ("tray", tile)
    card_themes: tuple[int, int, int] = DEFAULT_CARD_THEMES


class NineTilesPlugin(PluginBase):
    meta = META  # declared in the package's __init__ (read without loading this module)

    def new_ui(self, puzzle: Town) -> NineTilesUI:
        return NineTilesUI()

    # ---- formats --------------------------------------------------------------------------------
    def parse(self, text: str) -> Town:
        return parse_town(text)

    def serialize(self, puzzle: Town) -> str:
        lines = [puzzle.code] + ["# " + row for row in puzzle.readable().split("\n")]
        return "\n".join(lines) + "\n"

    def looks_like_inline(self, arg: str) -> bool:
        return is_code(arg)

    def new_puzzle(self, rows: int | None = None, cols: int | None = None) -> Town:
        return Town()

    def describe(self, puzzle: Town) -> str:
        ok, reason = validity(puzzle)
        if ok:
            return f"valid town {puzzle.code}, {len(trace_roads(puzzle))} roads"
        # The problem first: under the board the line is cut, and an 18-digit code took its room
        # ("306745812561230033: mismatched edge between R1C1 and R2C1: only R…", QA pass 7).
        return f"not a valid town: {reason} (town {puzzle.code})"

    # ---- rules ----------------------------------------------------------------------------------
    def entries_from_solution(self, puzzle: Town, solution: Solution) -> Town:
        return solution.data

    def warm_up(self) -> None:
        """The side panels score every edit with numba kernels: load them (on a fresh install,
        compile them: several seconds) before the first view opens."""
        from solvers.ninetiles.scoring import score_town

        score_town(Town.from_code(WARMUP_TOWN))

    def check(self, puzzle: Town, entries: Any = None) -> CheckResult:
        town = entries if isinstance(entries, Town) else puzzle
        violations = [
            Violation(pr.code, pr.message, tuple(cell_of(p) for p in pr.positions)) for pr in problems(town)
        ]
        if town is not puzzle:
            for p in range(POSITIONS):
                if puzzle.tiles[p] != EMPTY and (puzzle.tiles[p], puzzle.dirs[p]) != (
                    town.tiles[p],
                    town.dirs[p],
                ):
                    violations.append(
                        Violation(
                            "givenChanged", f"{cell_name(p)} differs from the given tile", (cell_of(p),)
                        )
                    )
        return CheckResult(town.complete, violations)

    def solve_options(self, entries: Any, ui: Any = None) -> dict[str, Any]:
        """The document's chosen theme cards (UI state) caption the completions."""
        return {"card_themes": ui.card_themes} if isinstance(ui, NineTilesUI) else {}

    def solve(
        self,
        puzzle: Town,
        *,
        limit: int | None = 2,
        cancel: CancelToken | None = None,
        progress: ProgressFn | None = None,
        info: dict[str, Any] | None = None,
        card_themes: tuple[int, int, int] = DEFAULT_CARD_THEMES,
    ) -> Iterator[Solution]:
        from solvers.ninetiles.scoring import score_town

        if info is not None:
            # Worded by the shell as "(Nine Tiles rules)": the solutions are the valid completions.
            info["rules"] = "Nine Tiles"
        found = 0
        for town in completion.completions(puzzle, cancel=cancel):
            found += 1
            scores = score_town(town)
            yield Solution(
                grid=town.readable().split("\n"),
                extras={"code": town.code, "scores": scores},
                data=town,
                label=town_label(town.code, scores, card_themes),
            )
            if progress is not None:
                progress({"found": found})
            if limit and found >= limit:
                return

    def puzzle_with_many_solutions(self) -> Town:
        return self.new_puzzle()  # an empty town: every valid town

    # ---- editing --------------------------------------------------------------------------------
    def tools(self, puzzle: Town) -> list[Tool]:
        return [
            # no tool shortcuts: R/E/F/Delete/0-8 act on the tile under the cursor instead
            Tool("arrange", "Arrange (click turns, drag moves)"),
            Tool("turn-right", "Turn clockwise"),
            Tool("flip", "Flip tile"),
            Tool("remove", "Back to tray"),
        ]

    def _tray_slot(self, puzzle: Town, pos: tuple[float, float]) -> int | None:
        """Tile under ``pos`` in the tray of unused tiles, if any."""
        x, y = pos
        for tile, (tx, ty) in self._tray_layout(puzzle).items():
            if tx <= x <= tx + TRAY_CELL and ty <= y <= ty + TRAY_CELL:
                return tile
        return None

    def _tray_layout(self, puzzle: Town) -> dict[int, tuple[float, float]]:
        top = MARGIN + 3 * CELL + 2 * TRAY_GAP + 16
        out = {}
        for i, tile in enumerate(puzzle.unused_tiles()):
            r, c = divmod(i, TRAY_COLS)
            out[tile] = (MARGIN + c * (TRAY_CELL + TRAY_GAP), top + r * (TRAY_CELL + TRAY_GAP))
        return out

    def edit(self, puzzle: Town, entries: Any, event: EditEvent, ui: Any = None) -> EditResult | None:
        """``ui`` (a ``NineTilesUI``) carries what a press picked up to its release; without one,
        each event stands alone (a press and its release cannot move a tile)."""
        state = ui if isinstance(ui, NineTilesUI) else NineTilesUI()
        p = _position(event)
        tool = event.tool or "arrange"
        if event.kind == "press":
            if p is None:
                tile = self._tray_slot(puzzle, event.pos)
                state.pressed = None if tile is None else ("tray", tile)
                return None
            if event.button == "right" or tool == "flip":
                state.pressed = None
                return self._result(puzzle, puzzle.flipped_tile(p), f"Flip tile at {cell_name(p)}")
            if tool == "turn-right":
                return self._result(puzzle, puzzle.rotated_tile(p, 3), f"Turn tile at {cell_name(p)}")
            if tool == "remove":
                return self._result(
                    puzzle, puzzle.with_position(p, EMPTY, EMPTY), f"Remove tile at {cell_name(p)}"
                )
            state.pressed = ("board", p) if puzzle.tiles[p] != EMPTY else None
            return None
        if event.kind == "release":
            pressed, state.pressed = state.pressed, None
            if pressed is None:
                return None
            where, what = pressed
            if where == "tray":
                if p is None or what in puzzle.tiles:  # (placed meanwhile: another town was opened)
                    return None
                new = puzzle.with_position(p, what, 0)
                return self._result(puzzle, new, f"Place tile {what} at {cell_name(p)}")
            if p is None:  # dropped outside the board: back to the tray
                if self._tray_area_contains(puzzle, event.pos):
                    return self._result(
                        puzzle, puzzle.with_position(what, EMPTY, EMPTY), f"Remove tile at {cell_name(what)}"
                    )
                return None
            if p == what:
                return self._result(puzzle, puzzle.rotated_tile(p, 1), f"Turn tile at {cell_name(p)}")
            return self._result(puzzle, puzzle.swapped(what, p), f"Swap {cell_name(what)} and {cell_name(p)}")
        if p is None:
            return None
        if event.kind == "wheel" and event.delta:
            return self._result(
                puzzle, puzzle.rotated_tile(p, 1 if event.delta > 0 else 3), f"Turn tile at {cell_name(p)}"
            )
        if event.kind == "key":
            key = event.key.upper() if len(event.key) == 1 else event.key  # "f" from Qt text
            if key in ("R", "Q"):
                return self._result(puzzle, puzzle.rotated_tile(p, 1), f"Turn tile at {cell_name(p)}")
            if key == "E":
                return self._result(puzzle, puzzle.rotated_tile(p, 3), f"Turn tile at {cell_name(p)}")
            if key in ("F", "Space"):
                return self._result(puzzle, puzzle.flipped_tile(p), f"Flip tile at {cell_name(p)}")
            if key in ("Delete", "Backspace", "X"):
                return self._result(
                    puzzle, puzzle.with_position(p, EMPTY, EMPTY), f"Remove tile at {cell_name(p)}"
                )
            if len(key) == 1 and key in "012345678":
                tile = int(key)
                if tile in puzzle.tiles:
                    return self._result(
                        puzzle, puzzle.swapped(puzzle.tiles.index(tile), p), f"Move tile {tile}"
                    )
                return self._result(puzzle, puzzle.with_position(p, tile, 0), f"Place tile {tile}")
        return None

    def context_actions(self, puzzle: Town, entries: Any, event: EditEvent) -> list[ContextAction]:
        p = _position(event)
        if p is None or puzzle.tiles[p] == EMPTY:
            return []
        return [
            ContextAction("Turn left (R)", "R"),
            ContextAction("Turn right (E)", "E"),
            ContextAction("Flip (F)", "F"),
            ContextAction("Back to tray (Del)", "Delete"),
        ]

    def hover(
        self, puzzle: Town, solution: Solution | None, pos: tuple[float, float], ui: Any = None
    ) -> Hover | None:
        """The road under ``pos``: highlighted, with its objects and captures as the tooltip."""
        town = solution.data if solution is not None and isinstance(solution.data, Town) else puzzle
        best: tuple[float, int, int] | None = None
        for p in range(POSITIONS):
            f = town.face_at(p)
            if f is None:
                continue
            r, c = divmod(p, 3)
            painter = TilePainter(MARGIN + c * CELL, MARGIN + r * CELL, CELL, town.dirs[p] % 4)
            for j, seg in enumerate(f.segments):
                d = _distance_to_path(pos, [painter.pt(q) for q in segment_path(seg)])
                if d <= HOVER_REACH * CELL and (best is None or d < best[0]):
                    best = (d, p, j)
        if best is None:
            return None
        _, p, j = best
        for k, road in enumerate(trace_roads(town)):
            if any(step.position == p and step.segment == j for step in road.steps):
                return Hover({"road": k}, road_text(k, road))
        return None

    def drag_preview(self, puzzle: Town, pos: tuple[float, float], ui: Any = None) -> dict[str, Any] | None:
        """While a tile is dragged: a ghost of it under the pointer and the position it would land on."""
        if not isinstance(ui, NineTilesUI) or ui.pressed is None:
            return None
        where, what = ui.pressed
        if where == "board":
            f = puzzle.face_at(what)
            if f is None:
                return None
            name = f.name
        else:
            name = f"{what}F"
        x, y = pos
        c, r = int((x - MARGIN) // CELL), int((y - MARGIN) // CELL)
        target = r * 3 + c if 0 <= r < 3 and 0 <= c < 3 and x >= MARGIN and y >= MARGIN else None
        return {"drag": name, "at": (round(x, 1), round(y, 1)), "target": target}

    def _tray_area_contains(self, puzzle: Town, pos: tuple[float, float]) -> bool:
        return pos[1] > MARGIN + 3 * CELL + TRAY_GAP

    @staticmethod
    def _result(old: Town, new: Town, label: str) -> EditResult | None:
        return None if new == old else EditResult(puzzle=new, label=label)

    # ---- drawing --------------------------------------------------------------------------------
    def draw(
        self,
        puzzle: Town,
        solution: Solution | None = None,
        entries: Any = None,
        overlay: Any = None,
        ui: Any = None,
    ) -> DisplayList:
        """``overlay`` may be a dict {"road": index into trace_roads(town)} to highlight one road."""
        town: Town = solution.data if solution is not None and isinstance(solution.data, Town) else puzzle
        tray = self._tray_layout(town)
        tray_rows = (len(tray) + TRAY_COLS - 1) // TRAY_COLS
        board = 3 * CELL
        # The canvas hugs what is drawn, with the same blank (MARGIN - FRAME_REACH) on every side:
        # it used to reserve a tray row's trailing gap even without a tray (exports: right margin
        # 44 px against 26). A full tray row (304) stays inside the frame's reach (304.25).
        pad = MARGIN - FRAME_REACH
        width = 2 * MARGIN + board
        height = 2 * MARGIN + board
        if tray_rows:
            tray_width = TRAY_COLS * TRAY_CELL + (TRAY_COLS - 1) * TRAY_GAP
            width = max(width, MARGIN + tray_width + pad)
            height = max(ty + TRAY_CELL for _tx, ty in tray.values()) + pad
        geom = GridGeometry(MARGIN, MARGIN, CELL, 3, 3)
        dl = DisplayList(width, height, grid=geom, title=f"Nine Tiles Panic town {town.code}")
        dl.add(Rect(MARGIN, MARGIN, board, board, fill="cell"))
        found = problems(town)
        loop_positions = {p for pr in found if pr.code == "loop" for p in pr.positions}
        repeated = {p for pr in found if pr.code == "repeatedTile" for p in pr.positions}
        highlight: dict[int, set[int]] = {}
        if isinstance(overlay, dict) and "road" in overlay:
            roads = trace_roads(town)
            k = int(overlay["road"])
            if 0 <= k < len(roads):
                for step in roads[k].steps:
                    highlight.setdefault(step.position, set()).add(step.segment)
        for p in range(POSITIONS):
            r, c = divmod(p, 3)
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            f = town.face_at(p)
            if f is None:
                dl.add(Rect(x + 4, y + 4, CELL - 8, CELL - 8, stroke="muted", width=1.5, radius=6))
                dl.add(Text(x + CELL / 2, y + CELL / 2, "empty", size=12, color="mark"))
                continue
            painter = TilePainter(x, y, CELL, town.dirs[p] % 4)
            dl.extend(painter.draw(f, frozenset(highlight.get(p, set()))))
            dl.add(tile_label(x, y, CELL, f.name))
            if p in loop_positions or p in repeated:
                dl.add(Rect(x + 3, y + 3, CELL - 6, CELL - 6, stroke="error", width=4))
        for p, ep, q, eq in neighbour_pairs():
            if town.tiles[p] == EMPTY or town.tiles[q] == EMPTY:
                continue
            if bool(town.edge_mask(p) >> ep & 1) != bool(town.edge_mask(q) >> eq & 1):
                dl.add(self._edge_line(p, ep))
        # The tiles are light in both palettes: a dark edge bounds them, and a frame in the palette's
        # wall colour just outside stays visible on a dark background too.
        dl.add(Rect(MARGIN, MARGIN, board, board, stroke="#1b1b1f", width=2.0))
        frame = board + 2 * FRAME_GAP
        dl.add(Rect(MARGIN - FRAME_GAP, MARGIN - FRAME_GAP, frame, frame, stroke="wall", width=FRAME_WIDTH))
        if tray:
            # In "mark", not "muted" (as text 1.6:1 on the background in both palettes), and saying
            # what the tray is, not how to use it: the caption is in every export too (QA pass 10);
            # the Arrange tool's label says that a drag moves a tile.
            top = MARGIN + board + TRAY_GAP
            dl.add(
                Text(
                    MARGIN, top + 8, "Tray (tiles not yet on the board)", size=11, color="mark", align="left"
                )
            )
            for tile, (tx, ty) in tray.items():
                painter = TilePainter(tx, ty, TRAY_CELL, 0)
                dl.extend(painter.draw(face(tile, 0)))
                dl.add(tile_label(tx, ty, TRAY_CELL, f"{tile}F"))
        if isinstance(overlay, dict) and "drag" in overlay:
            self._draw_drag(dl, overlay)
        return dl

    @staticmethod
    def _draw_drag(dl: DisplayList, overlay: dict[str, Any]) -> None:
        """The dragged tile as a ghost under the pointer, and the position it would land on."""
        target = overlay.get("target")
        if target is not None:
            r, c = divmod(int(target), 3)
            dl.add(
                Rect(
                    MARGIN + c * CELL + 2,
                    MARGIN + r * CELL + 2,
                    CELL - 4,
                    CELL - 4,
                    stroke="highlight",
                    width=5,
                )
            )
        x, y = overlay["at"]
        size = CELL * 0.5
        dl.add(
            Rect(
                x - size / 2,
                y - size / 2,
                size,
                size,
                fill="highlight-fill",
                stroke="highlight",
                width=2,
                radius=6,
            )
        )
        dl.add(Text(x, y, str(overlay["drag"]), size=16, color="ink", bold=True))

    @staticmethod
    def _edge_line(p: int, e: int) -> Line:
        r, c = divmod(p, 3)
        x, y = MARGIN + c * CELL, MARGIN + r * CELL
        if e == 3:
            return Line((x + CELL, y + 6), (x + CELL, y + CELL - 6), "error", 6, cap="round")
        return Line((x + 6, y + CELL), (x + CELL - 6, y + CELL), "error", 6, cap="round")

    # ---- module CLI -----------------------------------------------------------------------------
    # ---- help ---------------------------------------------------------------------------------
    def help_rules(self) -> str:
        return (
            "Arrange the nine double-sided tiles into a 3x3 town. Roads on touching tiles must meet, "
            "roads may leave the town at its edge, and no road may form a loop.\n\n"
            "Each round three of the 26 theme cards are scored (aliens, burgers, dogs, houses, roads "
            "...). The panels score your town on every theme and find the best towns for any three "
            "cards."
        )

    def help_keys(self) -> list[tuple[str, str]]:
        return [
            ("Arrange: click a tile", "turn it left"),
            ("Arrange: drag a tile", "move it, or swap it with the tile where you drop it"),
            ("Right-click a tile", "menu: turn, flip, back to the tray"),
            ("Turn clockwise / Flip / Back to tray tools: click", "do that to the tile clicked"),
            ("Mouse wheel over a tile", "turn it (up: left, down: right)"),
            ("Arrow keys", "move the cursor over the board"),
            ("R or Q / E", "turn the tile at the cursor left / right"),
            ("F or Space", "flip the tile at the cursor to its other side"),
            ("Delete, Backspace or X", "put the tile at the cursor back in the tray"),
            ("0-8", "put that tile at the cursor (swapping places if it is already in the town)"),
            ("Point at a road", "highlight it and show its length and themes"),
        ]


def _position(event: EditEvent) -> int | None:
    """Board position 0..8 of the event's cell; None off the board (or for a stale, hand-made cell)."""
    if event.cell is None or not (0 <= event.cell[0] < 3 and 0 <= event.cell[1] < 3):
        return None
    return event.cell[0] * 3 + event.cell[1]


PLUGIN = NineTilesPlugin()
