"""The board's pointer and keys turned into plug-in calls for one document view: edits (one undo
step per gesture), hover, drag preview and the context menu. Plug-in bugs never escape into Qt."""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QToolTip

from solvers.common.protocol import ContextAction, EditEvent, Hover, PluginBase, Solution
from widgets.board_view import BoardView
from widgets.tool_palette import ToolPalette
from workbench.document import Document

CLICK_KEYS = ("Return", "Enter")  # a click on the cursor's cell in every module


class InputHost(Protocol):
    """What the input adapter needs of its document view."""

    doc: Document
    plugin: PluginBase
    board: BoardView
    tools: ToolPalette
    hover_changed: Any  # Signal(object)

    def mode(self) -> str: ...
    def status(self, text: str) -> None: ...
    def show_solution(self, solution: Solution | None) -> None: ...
    def shown_solution(self) -> Solution | None: ...


class BoardInput:
    def __init__(self, view: InputHost) -> None:
        self.view = view
        self.hover: Hover | None = None  # what the plug-in said of the point under the pointer
        self.drag_overlay: Any = None  # the plug-in's drag preview while a drag is under way
        self.refused = False  # the status bar says why the last action was refused

    def on_drag(self, pos: tuple[float, float] | None) -> None:
        view = self.view
        try:
            overlay = None if pos is None else view.plugin.drag_preview(view.doc.puzzle, pos, ui=view.doc.ui)
        except Exception as exc:  # a preview bug must not take the window down
            view.status(f"Drag preview failed: {exc}")
            overlay = None
        if overlay == self.drag_overlay:
            return
        self.drag_overlay = overlay
        view.board.refresh()

    def on_hover(self, pos: tuple[float, float] | None) -> None:
        view = self.view
        try:
            hover = (
                None
                if pos is None
                else view.plugin.hover(view.doc.puzzle, view.shown_solution(), pos, ui=view.doc.ui)
            )
        except Exception as exc:  # a hover bug must not take the window down
            view.status(f"Hover failed: {exc}")
            hover = None
        if hover == self.hover:
            return
        self.hover = hover
        view.board.refresh()
        if hover is None:
            QToolTip.hideText()
        else:
            QToolTip.showText(QCursor.pos(), hover.text, view.board)
            view.status(hover.text)
        view.hover_changed.emit(hover)

    def context_actions(self, event: EditEvent) -> list[ContextAction]:
        try:
            return self.view.plugin.context_actions(self.view.doc.puzzle, self.view.doc.entries, event)
        except Exception as exc:
            self.view.status(f"Menu failed: {exc}")
            return []

    def context_chosen(self, cell: Any, key: str) -> None:
        board = self.view.board
        self.on_edit_event(EditEvent(kind="key", tool=board.tool, mode=self.view.mode(), cell=cell, key=key))  # type: ignore[arg-type]

    def on_edit_event(self, event: EditEvent) -> None:
        view = self.view
        doc = view.doc
        try:
            result = view.plugin.edit(doc.puzzle, doc.entries, event, ui=doc.ui)
        except Exception as exc:  # an editor bug must not take the window down
            doc.end_merge()
            view.status(f"Edit failed: {exc}")
            return
        # A key that goes on typing (the next digit of a number) continues the last key's step.
        typing = event.kind == "key" and result is not None and result.key_merge
        if event.kind != "drag" and event.kind != "release" and not typing:
            doc.end_merge()  # a press, key or wheel step starts a new undo step
        if event.kind == "key":
            if result is not None:
                view.board.mark_key_handled()
            elif event.key in CLICK_KEYS and event.cell is not None:
                # Enter is a click on the cursor's cell in every module: the keyboard can play all.
                view.board.mark_key_handled()
                self.click_cell(event)
                return
            elif view.tools.select_by_shortcut(event.key):
                view.board.mark_key_handled()
                return
        if result is None:
            return
        if result.puzzle is None and result.entries is None:
            # A refused action says why; a change of UI state alone (a dove picked up) says what
            # happened: no edit, but the board redraws.
            view.status(result.label)
            self.refused = True
            view.board.refresh()
            return
        if view.shown_solution() is not None and result.puzzle is None and result.entries is not None:
            view.show_solution(None)
        if self.refused:  # a refusal's reason must not stand beside the move that followed it
            view.status("")
            self.refused = False
        doc.apply(result)
        if event.kind not in ("press", "drag") and not typing:
            doc.end_merge()  # keys and wheel steps are one step each

    def click_cell(self, key: EditEvent) -> None:
        grid = self.view.board.display_list().grid
        if grid is None or key.cell is None:
            return
        pos = grid.center(*key.cell)
        for kind in ("press", "release"):
            self.on_edit_event(
                EditEvent(kind, key.tool, key.mode, key.cell, pos, "left", modifiers=key.modifiers)
            )
