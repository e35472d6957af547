"""Toichika plug-in: ties the model, codecs, checker, exact solver, drawing and editor together."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from solvers.common.cancel import CancelToken
from solvers.common.display import DisplayList
from solvers.common.errors import InputError
from solvers.common.protocol import (
    CheckResult,
    EditEvent,
    EditResult,
    PluginBase,
    ProgressFn,
    Solution,
    Tool,
)
from solvers.common.words import plural
from solvers.toichika import META
from solvers.toichika.drawing import checked, draw_board, live_errors
from solvers.toichika.editing import TOOLS, Editor, EditorUI
from solvers.toichika.model import DIRECTIONS, DOT, QUESTION, Entries, Toichika, empty_entries, grid_rows
from solvers.toichika.pzprv3_codec import looks_like_pzprv3, read_pzprv3
from solvers.toichika.sat_solver import differing_cells, iter_solutions, model_for
from solvers.toichika.text_format import read_document, write_document, write_text
from solvers.toichika.url_codec import decode_url, looks_like_url


def parse_any(text: str) -> tuple[Toichika, Entries | None]:
    """URL (puzz.link, pzv.jp, pzprv3-in-URL), pzprv3 file or the native ASCII drawing."""
    stripped = text.strip()
    if not stripped:
        raise InputError("empty input: expected a puzz.link URL, a pzprv3 file or a toichika drawing")
    if looks_like_pzprv3(stripped):
        return read_pzprv3(stripped)
    if looks_like_url(stripped):
        return decode_url(text.rstrip()), None  # its leading blanks count in error columns
    return read_document(text)


class ToichikaPlugin(PluginBase):
    meta = META  # declared in the package's __init__ (read without loading this module)
    pzpr_types = frozenset({"toichika"})

    def new_ui(self, puzzle: Toichika) -> EditorUI:
        return EditorUI()

    # ---- formats --------------------------------------------------------------------------------
    def parse(self, text: str) -> Toichika:
        return parse_any(text)[0]

    def serialize(self, puzzle: Toichika) -> str:
        return write_text(puzzle)

    def parse_document(self, text: str) -> tuple[Toichika, Entries | None]:
        """Native files and pzprv3 files may carry the player's answers."""
        return parse_any(text)

    def serialize_document(self, puzzle: Toichika, entries: Any = None) -> str:
        return write_document(puzzle, tuple(entries) if entries is not None else None)

    def adapt_entries(self, puzzle: Toichika, entries: Any) -> Entries:
        """Keep the player's marks when only givens or walls changed (same size)."""
        if entries is None or len(entries) != puzzle.size:
            return empty_entries(puzzle)
        # A given arrow takes no entry, a "?" no dot (a dot made before the "?" was given there
        # would be saved in a file that no reader takes back).
        givens = puzzle.givens
        return tuple(
            0 if givens[i] in DIRECTIONS or (givens[i] == QUESTION and e == DOT) else e
            for i, e in enumerate(entries)
        )

    def looks_like_inline(self, arg: str) -> bool:
        return looks_like_url(arg)

    def writes_back(self, text: str) -> bool:
        """A puzz.link URL or pzprv3 file keeps its form: Save asks for a new name."""
        stripped = text.strip()
        return not (looks_like_pzprv3(stripped) or looks_like_url(stripped))

    def new_puzzle(self, rows: int | None = None, cols: int | None = None) -> Toichika:
        return Toichika.empty(rows or 6, cols or rows or 6)

    def size_of(self, puzzle: Toichika) -> tuple[int, int]:
        return puzzle.rows, puzzle.cols

    def resize(self, puzzle: Toichika, rows: int, cols: int) -> Toichika:
        return puzzle.resized(rows, cols)

    def describe(self, puzzle: Toichika) -> str:
        givens = sum(1 for g in puzzle.givens if g)
        return f"{puzzle.cols}x{puzzle.rows}, {plural(len(puzzle.regions), 'country')}, {plural(givens, 'given')}"

    # ---- rules ----------------------------------------------------------------------------------
    def empty_entries(self, puzzle: Toichika) -> Entries:
        return empty_entries(puzzle)

    def entries_from_solution(self, puzzle: Toichika, solution: Solution) -> Entries:
        return tuple(solution.data)

    def check(self, puzzle: Toichika, entries: Any = None) -> CheckResult:
        """The shell's rule: unfinished is not broken. ``rules.check`` is pzprjs' full-board check;
        while countries are still empty, an empty country or an arrow still waiting for its partner
        is work left, not a broken rule (the same cells the board flags live)."""
        result = checked(puzzle, entries)
        if result.complete:
            return result
        current = tuple(entries) if entries is not None else empty_entries(puzzle)
        flagged = set(live_errors(puzzle, current))
        kept = [
            v
            for v in result.violations
            if v.code != "bkNoNum" and (v.code != "arAlone" or set(v.cells) <= flagged)
        ]
        return CheckResult(complete=False, violations=kept)

    # ---- solving --------------------------------------------------------------------------------
    def solve(
        self,
        puzzle: Toichika,
        *,
        limit: int | None = 2,
        cancel: CancelToken | None = None,
        progress: ProgressFn | None = None,
        info: dict[str, Any] | None = None,
    ) -> Iterator[Solution]:
        model = model_for(puzzle, cancel)
        if info is not None:
            info["solver"] = "sat"
            info["model"] = {"variables": model.nvars, "clauses": model.nclauses}
        first: tuple[int, ...] | None = None
        for k, arrows in enumerate(iter_solutions(puzzle, limit=limit, cancel=cancel), start=1):
            extras: dict[str, Any] = {}
            if first is None:
                first = arrows
            else:
                extras["differs_from_first"] = [list(rc) for rc in differing_cells(puzzle, first, arrows)]
            if progress is not None:
                progress({"found": k, "text": f"{k} solution(s)"})
            yield Solution(
                grid=grid_rows(puzzle, list(arrows)), extras=extras, data=arrows, label=f"Solution {k}"
            )

    # ---- editing --------------------------------------------------------------------------------
    def tools(self, puzzle: Toichika) -> list[Tool]:
        return list(TOOLS)

    def edit(self, puzzle: Toichika, entries: Any, event: EditEvent, ui: Any = None) -> EditResult | None:
        """``ui`` (an ``EditorUI``) carries a drag's stroke from event to event."""
        current = tuple(entries) if entries is not None else empty_entries(puzzle)
        return Editor(ui if isinstance(ui, EditorUI) else None).edit(puzzle, current, event)

    # ---- drawing --------------------------------------------------------------------------------
    def draw(
        self,
        puzzle: Toichika,
        solution: Solution | None = None,
        entries: Any = None,
        overlay: Any = None,
        ui: Any = None,
    ) -> DisplayList:
        if isinstance(overlay, dict) and "state" in overlay:
            # A replayed explanation step shows its own candidates: never mix in a solution's
            # arrows or the player's entries.
            return draw_board(puzzle, None, "solution", None, overlay)
        if solution is not None and solution.data is not None:
            return draw_board(puzzle, list(solution.data), "solution", None, overlay)
        if entries is not None:
            shown = [e if e in DIRECTIONS else 0 for e in entries]
            return draw_board(puzzle, shown, "entry", tuple(entries), overlay)
        return draw_board(puzzle, None, "solution", None, overlay)

    # ---- explanation ----------------------------------------------------------------------------
    def explain(self, puzzle: Toichika, cancel: CancelToken | None = None) -> dict[str, Any]:
        from solvers.toichika.explain import explain_json

        return explain_json(puzzle, cancel)

    def draw_explanation_step(
        self, puzzle: Toichika, step: int, cancel: CancelToken | None = None
    ) -> DisplayList:
        """The board as the Steps panel shows it after explanation step ``step`` (0 = the start).

        Used by ``workbench explain toichika INPUT --export-step N OUT.png``."""
        from solvers.toichika.explain import explain, step_overlay

        ex = explain(puzzle, cancel)
        if not 0 <= step <= len(ex.steps):
            raise InputError(
                f"--export-step: step {step} does not exist (the explanation has 0..{len(ex.steps)})"
            )
        return self.draw(puzzle, overlay=step_overlay(ex, step))

    # ---- help ---------------------------------------------------------------------------------
    def help_answer(self) -> DisplayList | None:
        return self.solved_help_diagram()

    def help_rules(self) -> str:
        return (
            "The grid is divided into countries by bold lines. Put exactly one arrow (up, down, left "
            "or right) in every country; a country with a given arrow gets no other.\n\n"
            "Every arrow has exactly one partner in its row or column: the two point at each other "
            "with no arrow between them. Partners must not lie in countries that share an edge."
        )

    def help_keys(self) -> list[tuple[str, str]]:
        return [
            ("Edit: Border tool, drag along cell edges", "draw or erase country borders"),
            ("Edit: Paint tool, drag through cells", "make those cells one country"),
            ("Arrow tool: click", "cycle the cell's arrow: up, right, down, left, none"),
            ("Arrow tool: drag to a neighbour", "point the arrow that way"),
            ("Arrow keys", "move the cursor"),
            ("1 2 3 4, or Shift+arrow key", "put an up / right / down / left arrow in the cursor cell"),
            ("0, Space, Delete, Backspace", "erase the cursor cell"),
            ("Edit: ?", "a '?' arrow (an arrow of unknown direction)"),
            ("Play: Dot tool, right-click, . or +", "mark a cell as empty (no arrow here)"),
            (
                "Play: Shift+click near a cell side, or the Pencil tool",
                "pencil mark: rule that direction out (a small cross); again to take it back",
            ),
            ("Play: Shift+click the cell centre, or *", "pencil mark: an arrow goes here (a small ring)"),
            ("Play: Ctrl+arrow key", "pencil mark: rule that direction out in the cursor cell"),
            ("Play: Ctrl+H, or Hint in the Steps panel", "the next deduction from your entries and marks"),
            (
                "Play: Ctrl+Shift+H, or Apply hint",
                "write the hint into the board (arrows, dots, marks; one undo step)",
            ),
        ]


PLUGIN = ToichikaPlugin()
