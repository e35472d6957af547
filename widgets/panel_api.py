"""What the shell offers a module panel (implemented by ``workbench.document_view``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from PySide6.QtGui import QAction

from solvers.common.cancel import CancelToken
from solvers.common.display import DisplayList
from solvers.common.protocol import EditResult, PluginBase, ProgressFn, Solution

# A panel's Paste URL with nothing on the clipboard (the readers said "empty board: no rows found").
EMPTY_CLIPBOARD = "Cannot paste: the clipboard holds no text (copy a puzz.link URL first)"


class PanelContext(Protocol):
    plugin: PluginBase
    # Qt signals on the context object (connect to them):
    #   changed()          after any change of puzzle or entries (edit, undo, redo, open)
    #   solution_shown()   after the board starts/stops showing a solution

    def puzzle(self) -> Any: ...
    def entries(self) -> Any: ...
    # The document's UI state (``plugin.new_ui``): view choices that jobs need are read from it on
    # the GUI thread (e.g. by ``document_solve_options``), never kept in the shared plug-in object.
    def ui(self) -> Any: ...
    def mode(self) -> str: ...  # "edit" or "play"
    def apply(self, result: EditResult) -> None: ...  # one undo step (merges by merge_key)
    # New content (generated, pasted, picked from results): one undo step; the document becomes
    # untitled so Save cannot overwrite the file it was opened from.
    def replace_untitled(self, puzzle: Any, label: str, entries: Any = None) -> None: ...
    # Before replacing the document (generate, paste, open a result): asks about unsaved edits as
    # File > Open does; False means the user chose Cancel (or a save failed): leave it as it is.
    def may_replace(self) -> bool: ...

    # Open a text as Edit > Paste does (a pack asks which puzzle; errors in a dialog).
    paste_text: Callable[[str], object]
    # A file to export to (suggested name, file filter), asked where exports go; "" if cancelled.
    ask_export_path: Callable[[str, str], str]

    def show_solution(self, solution: Solution | None) -> None: ...
    def shown_solution(self) -> Solution | None: ...
    # ``overlay`` is passed to plugin.draw(..., overlay=); ``describe`` is the line under the board
    # while it shows (a replayed step, a previewed line), so that line always says what is shown.
    def set_overlay(self, overlay: Any, describe: str = "") -> None: ...
    def status(self, text: str) -> None: ...  # status-bar message
    def export(self, dl: DisplayList, path: str) -> Path: ...  # atomic PNG/SVG/PDF by extension
    def run_job(
        self,
        title: str,
        work: Callable[[CancelToken, ProgressFn], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[str], None] | None = None,
        on_cancel: Callable[[Any], None] | None = None,
    ) -> Any:
        """Returns the job (it has ``cancel()`` and ``done``). Run ``work(cancel, progress)`` on the thread pool; ``on_done(result)`` runs on the GUI thread.
        Progress dicts may carry "fraction" (0..1) and "text". Cancel is offered to the user; ``on_cancel``
        lets a panel take back a "working..." text it showed, so no message outlives its job; it gets
        what the work returned although cancelled (a count so far), or None."""
        ...


# ---- roles a panel may take (the shell asks with isinstance, never by attribute names) ----------
@runtime_checkable
class SolvingPanel(Protocol):
    """A panel that answers Solve (F5) itself: a game's one analysis tab."""

    def solve_requested(self, limit: int | None = 2) -> None: ...


@runtime_checkable
class MenuPanel(Protocol):
    """A panel that offers entries for the Puzzle menu (Toichika's Generate…)."""

    def menu_actions(self) -> list[QAction]: ...
