"""Optional module-specific side panels, one file per plug-in id (``widgets/panels/<id>.py``).

A panel module defines ``create_panels(ctx: PanelContext) -> list[tuple[str, QWidget]]``; the
document view shows each returned widget as a tab of its side panel, under its title. Everything
generic (board, tools, undo, solve, solution browser, export) is already provided by the shell;
panels add what only one module needs (Nine Tiles' theme scores, Toichika's step list, an analysis
view of a game, ...).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from widgets.panel_api import PanelContext


def create_panels(ctx: PanelContext) -> list[tuple[str, QWidget]]:
    try:
        module = importlib.import_module(f"widgets.panels.{ctx.plugin.meta.id}")
    except ModuleNotFoundError as exc:
        if exc.name == f"widgets.panels.{ctx.plugin.meta.id}":
            return []
        raise
    return list(module.create_panels(ctx))
