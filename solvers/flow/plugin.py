"""Flow Free plug-in: wires model, codec, rules, SAT solver, drawing and editing together."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.display import DisplayList
from solvers.common.errors import InputError
from solvers.common.protocol import (
    ASSETS,
    CheckResult,
    CountResult,
    EditEvent,
    EditResult,
    Importer,
    PluginBase,
    ProgressFn,
    Solution,
    Tool,
)
from solvers.common.solve_stream import collect
from solvers.flow import META, codec, document, draw, edit, rules
from solvers.flow import solve as solving
from solvers.flow.model import AUTO_LOOK, MAX_SIDE, NUMBERLINK, FlowPaths, FlowPuzzle

DEFAULT_SIZE = 5
IMAGE_FILTER = "Screenshots (*.png *.jpg *.jpeg *.gif *.webp *.bmp *.tif *.tiff)"


def _import_screenshot(path: Path) -> tuple[FlowPuzzle, list[str]]:
    from solvers.flow.screenshot import import_screenshot  # OpenCV loads only when needed

    return import_screenshot(path)


def review_screenshot(path: Path, cancel: CancelToken | None = None) -> Any:
    """The GUI's screenshot review (``solvers.common.review.ImportReview``); run in a worker process."""
    from solvers.flow.screenshot_review import review_screenshot as review

    return review(path, cancel)


class FlowPlugin(PluginBase):
    meta = META  # declared in the package's __init__ (read without loading this module)
    pzpr_types = frozenset({"numlin", "arukone"})  # pzpr.KINDS (not imported at start-up)

    # ---- formats --------------------------------------------------------------------------------
    def parse(self, text: str) -> FlowPuzzle:
        return codec.parse(text)

    def serialize(self, puzzle: FlowPuzzle) -> str:
        return codec.serialize(puzzle)

    def parse_document(self, text: str) -> tuple[FlowPuzzle, FlowPaths | None]:
        return document.parse_document(text)

    def serialize_document(self, puzzle: FlowPuzzle, entries: Any = None) -> str:
        return document.serialize_document(puzzle, entries)

    def looks_like_inline(self, arg: str) -> bool:
        """A puzz.link / pzv.jp numlin or arukone URL, or a one-line pzprv3 text
        (``pzprv3/numlin/...``), given on the command line."""
        from solvers.flow import levelpack, pzpr

        one_line = "\n" not in arg.strip()
        return pzpr.looks_like_url(arg) or (
            one_line and (pzpr.looks_like_pzprv3(arg) or levelpack.looks_like(arg))
        )

    def importers(self) -> list[Importer]:
        return [Importer("&Import Screenshot…", IMAGE_FILTER, _import_screenshot, review_screenshot)]

    def adapt_entries(self, puzzle: FlowPuzzle, entries: Any) -> FlowPaths:
        return document.adapt_entries(puzzle, entries)

    def new_puzzle(self, rows: int | None = None, cols: int | None = None) -> FlowPuzzle:
        rows = rows or DEFAULT_SIZE
        return FlowPuzzle.empty(rows, cols or rows)

    def size_of(self, puzzle: FlowPuzzle) -> tuple[int, int]:
        return puzzle.rows, puzzle.cols

    def resize(self, puzzle: FlowPuzzle, rows: int, cols: int) -> FlowPuzzle:
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise InputError(
                f"board size must be 1..{MAX_SIDE} in each direction, got {cols}x{rows} (width x height)"
            )
        return puzzle.resized(rows, cols)

    def describe(self, puzzle: FlowPuzzle) -> str:
        n = len(puzzle.colours)
        what = "pair" if puzzle.rules == NUMBERLINK else "colour"  # Numberlink pairs numbers
        text = f"{puzzle.cols}x{puzzle.rows}, {n} {what}{'s' if n != 1 else ''}"  # width x height
        text += "".join(f", {v}" for v in puzzle.variant_words())
        if puzzle.rules == NUMBERLINK:
            text += ", Numberlink rules (cells may stay empty)"
        problems = puzzle.problems()
        text += "".join(f" — {note}" for note in puzzle.notes)
        return f"{text} — {problems[0][0]}" if problems else text

    # ---- rules and solving ------------------------------------------------------------------------
    def check(self, puzzle: FlowPuzzle, entries: Any = None) -> CheckResult:
        return rules.check(puzzle, entries)

    def check_solution(self, puzzle: FlowPuzzle, solution: Solution) -> CheckResult:
        """A solver answer, checked under the rule set it was found under."""
        entries = self.entries_from_solution(puzzle, solution)
        return rules.check(puzzle, entries, solution.extras.get("rules"))

    def collection(self, text: str) -> list[str]:
        """A level pack's levels or a 'W H' collection's puzzles, one line each."""
        from solvers.flow import collection_files

        return collection_files.labels(text)

    def parse_document_at(self, text: str, index: int) -> tuple[FlowPuzzle, FlowPaths | None]:
        from solvers.flow import collection_files

        return collection_files.puzzle_at(text, index), None

    def writes_back(self, text: str) -> bool:
        """Our own forms only: a puzz.link URL, a pzprv3 file, a community file, a level pack or
        a 'W H' collection keeps its form (and its other puzzles): Save asks for a new name."""
        return codec.is_ours(text.lstrip("\ufeff"))

    def solve_identity(self, puzzle: FlowPuzzle) -> FlowPuzzle:
        return replace(puzzle, labels=False, look=AUTO_LOOK)  # drawn otherwise, solved alike

    def empty_entries(self, puzzle: FlowPuzzle) -> FlowPaths:
        return FlowPaths()

    def entries_from_solution(self, puzzle: FlowPuzzle, solution: Solution) -> FlowPaths:
        # Built from the JSON-able paths (not ``data``) so the check sees what the CLI prints.
        return FlowPaths.from_dict(solution.extras["paths"])

    def solve(
        self,
        puzzle: FlowPuzzle,
        *,
        limit: int | None = 2,
        cancel: CancelToken | None = None,
        progress: ProgressFn | None = None,
        info: dict[str, Any] | None = None,
        rules: str = "auto",
    ) -> Iterator[Solution]:
        return solving.solve(puzzle, limit=limit, cancel=cancel, progress=progress, info=info, rules=rules)

    def count_rules(
        self, puzzle: FlowPuzzle, rules: str, limit: int = 2, cancel: CancelToken | None = None
    ) -> CountResult:
        """``count`` under a chosen rule set ("designed", "strict", "numberlink" or "auto")."""
        return collect(self, puzzle, limit, {"rules": rules}, cancel, keep=False)[2]

    def puzzle_with_several_solutions(self) -> FlowPuzzle:
        return self.parse("A..\n...\n..A\n")  # two ways round the corner

    # ---- editing and drawing ------------------------------------------------------------------
    def tools(self, puzzle: FlowPuzzle) -> list[Tool]:
        return edit.tools(puzzle)

    def new_ui(self, puzzle: FlowPuzzle) -> edit.FlowUI:
        return edit.FlowUI()

    def edit(self, puzzle: FlowPuzzle, entries: Any, event: EditEvent, ui: Any = None) -> EditResult | None:
        return edit.edit(puzzle, entries, event, ui)

    def draw(
        self,
        puzzle: FlowPuzzle,
        solution: Solution | None = None,
        entries: Any = None,
        overlay: Any = None,
        ui: Any = None,
    ) -> DisplayList:
        return draw.draw(puzzle, solution, entries, overlay)

    def sample_groups(self) -> list[tuple[str, list[Path]]]:
        """The plain samples, and a submenu of boards with walls, holes, bridges, warps and hexes."""
        folder = ASSETS / "flow" / "variants"
        variants = sorted(p for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []
        return [("", self.sample_paths()), ("Variants (walls, holes, bridges, warps, hexes)", variants)]

    # ---- help ---------------------------------------------------------------------------------
    def help_answer(self) -> DisplayList | None:
        return self.solved_help_diagram()

    def help_rules(self) -> str:
        return (
            "Join each pair of dots of the same colour with a pipe. Pipes run horizontally and "
            "vertically from cell to cell, never cross or branch, and together they must fill every "
            "cell of the grid.\n\n"
            'A well-made puzzle has exactly one solution. The solver first tries the "designed" '
            "convention (a pipe never runs alongside itself), then the strict game rules.\n\n"
            "Variant boards (File > Open Sample > Variants) add: walls (thick bars between two cells: no "
            "pipe crosses them), holes (shaded, hatched cells that are not part of the board), bridges "
            "(a cell two pipes cross, one across and one along, without turning), warps (an opening on "
            "the board's edge: a pipe leaving there comes back in on the opposite edge) and hexagonal "
            "boards (six neighbours per cell).\n\n"
            "Numberlink puzzles (puzz.link numlin URLs, Arukone with cells that may stay empty) "
            "follow Numberlink rules: every pair joined, paths never cross or branch, but cells "
            "may stay empty. The Rules box in the Flow panel shows and changes a puzzle's rules: "
            "pick Numberlink, then place numbers 1 to 999 (type them, or click with the "
            "Next number button or a number's own button). They are drawn as Numberlink is "
            "printed, numbers in rings joined by thin lines; the Look box in the Flow panel "
            "switches any board between the game's coloured pipes, coloured lines and black lines."
        )

    def help_keys(self) -> list[tuple[str, str]]:
        return [
            ("Edit: click with a colour", "place that colour's endpoint (click it again to remove it)"),
            ("Edit: letter key (R, G, B, ...)", "place that colour's endpoint at the cursor (r is R)"),
            (
                "Edit: Enter",
                "click the cursor's cell with the chosen tool (on that colour's endpoint: remove it)",
            ),
            (
                "Edit: digits on a Numberlink board",
                "type a number 1-999 at the cursor: 1 then 2 on one cell places 12 (one undo step); "
                "another key or a click starts the next number",
            ),
            (
                "Edit: Next number button (Numberlink)",
                "click cells to place the number it shows: a lone number's partner, else a new one",
            ),
            (
                "Delete or Backspace",
                "Edit: erase the endpoint, hole or bridge at the cursor; Play: clear its pipe",
            ),
            ("Right-click", "Edit: remove the endpoint; Play: clear that pipe"),
            ("Edit: Wall tool", "click near a cell side to add or remove a wall there"),
            ("Edit: Hole / Bridge tool, # / + key", "make the cell a hole or a bridge (again: plain cell)"),
            ("Edit: Warp tool", "click the outer side of a border cell to open/close its row or column"),
            ("Play: drag from a dot", "draw its pipe; drag back along it to shorten it"),
            ("Arrow keys", "move the cursor"),
            ("Play: Space or Enter", "pick the pipe at the cursor (its dot, or cut it back to there)"),
            ("Play: Shift+arrow key", "draw the picked pipe one cell on (back along it shortens it)"),
        ]


PLUGIN = FlowPlugin()
