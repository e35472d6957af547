"""Help menu of the main window: the current module's rules, its keys and mouse, About."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction, QKeySequence

from widgets.help_dialog import HelpDialog, keys_html, rules_html
from workbench.about import AboutDialog
from workbench.window_services import WindowServices


class HelpActions:
    """Help > How to Play, Keyboard and Mouse, About for one main window."""

    def __init__(self, window: WindowServices) -> None:
        self.window = window
        self.help_dialog: HelpDialog | None = None
        self.about_dialog: AboutDialog | None = None

    def how_to_play(self) -> HelpDialog:
        plugin = self.window.current().plugin
        try:
            diagram = plugin.help_diagram()
            answer = plugin.help_answer() if diagram is not None else None
        except Exception:  # a drawing bug must not keep the rules from showing
            diagram = answer = None
        html = rules_html(plugin.meta.name, plugin.help_rules())
        return self._show_help(f"How to play {plugin.meta.name}", html, diagram, answer)

    def keys_help(self) -> HelpDialog:
        view = self.window.current()
        plugin = view.plugin
        tools = [
            (t.shortcut, f"{t.label} tool" + ("" if t.mode == "both" else f" ({t.mode} mode)"))
            for t in plugin.tools(view.doc.puzzle)
            if t.shortcut
        ]
        shell = [
            (_keys(self.window.act_undo), "undo the last step (a whole drag is one step)"),
            (_keys(self.window.act_redo), "redo"),
            ("Arrow keys", "move the cursor (when the module does not use them)"),
            ("Enter", "click the cursor's cell (when the module does not use the key)"),
            (
                _keys(self.window.act_zoom_in) + " / " + _keys(self.window.act_zoom_out) + ", Ctrl+wheel",
                "zoom the board",
            ),
            (_keys(self.window.act_fit), "fit the whole board"),
            ("Middle-drag, scroll bars", "pan a zoomed board"),
            (_keys(self.window.act_solve), self.window.act_solve.text().replace("&", "")),
            (_keys(self.window.act_check), "check the entries against the rules"),
            (_keys(self.window.act_hide), "show the puzzle instead of a solution"),
            (
                _keys(self.window.act_edit_mode) + " / " + _keys(self.window.act_play_mode),
                "edit or play mode",
            ),
            (_keys(self.window.act_cancel), "cancel the running job"),
        ]
        html = keys_html(
            plugin.meta.name,
            [("On the board", plugin.help_keys()), ("Tools", tools), ("Everywhere", shell)],
        )
        return self._show_help(f"{plugin.meta.name}: keyboard and mouse", html, None)

    def _show_help(self, title: str, html: str, diagram: Any, answer: Any = None) -> HelpDialog:
        if self.help_dialog is not None:
            self.help_dialog.close()
        self.help_dialog = HelpDialog(title, html, diagram, self.window.palette_name, self.window, answer)
        self.help_dialog.show()
        return self.help_dialog

    def about(self) -> AboutDialog:
        if self.about_dialog is not None:
            self.about_dialog.close()
        self.about_dialog = AboutDialog(self.window)
        self.about_dialog.show()
        return self.about_dialog


def _keys(action: QAction) -> str:
    """The first two shortcuts (the rest are platform extras such as Alt+Backspace)."""
    return ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()[:2])
