"""The main window's menus, actions and toolbar (built once; the window keeps the actions)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from solvers.common import registry
from solvers.common.protocol import PluginBase
from workbench import crash

if TYPE_CHECKING:
    from workbench.document_view import DocumentView

# The window is typed loosely: naming MainWindow here would make an import circle (it imports this
# module). ``build`` gives it the ``act_*`` attributes that WindowServices declares.
MainWindow = Any


def make_action(window: MainWindow, text: str, slot: Any, shortcut: Any = None, tip: str = "") -> QAction:
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    if tip:
        action.setStatusTip(tip)
    action.triggered.connect(lambda: crash.note(text.replace("&", "")))  # for a crash report
    action.triggered.connect(slot)
    return action


def build(window: MainWindow) -> None:
    """The menus, their actions (as ``window.act_*``) and the toolbar."""
    menu = window.menuBar()
    file_menu = menu.addMenu("&File")
    window.act_new = make_action(
        window, "&New…", window.files.new_puzzle, QKeySequence.StandardKey.New, "Start a blank puzzle"
    )
    window.act_open = make_action(window, "&Open…", window.files.open_dialog, QKeySequence.StandardKey.Open)
    window.act_save = make_action(window, "&Save", window.files.save, QKeySequence.StandardKey.Save)
    window.act_save_as = make_action(
        window, "Save &As…", window.files.save_as, QKeySequence.StandardKey.SaveAs
    )
    window.act_export = make_action(window, "&Export Diagram…", window.exports.export_dialog, "Ctrl+Shift+E")
    window.act_copy = make_action(window, "&Copy Image", window.exports.copy_image, "Ctrl+Shift+C")
    window.act_copy_puzzle = make_action(
        window,
        "C&opy Puzzle",
        window.exports.copy_puzzle,
        QKeySequence.StandardKey.Copy,
        "Copy the puzzle to the clipboard as text (Paste Puzzle reads it back)",
    )
    window.act_paste = make_action(
        window,
        "&Paste Puzzle",
        window.files.paste_puzzle,
        QKeySequence.StandardKey.Paste,
        "Open a puzzle from the clipboard (text, URL or code)",
    )
    window.act_quit = make_action(window, "&Quit", window.close, QKeySequence.StandardKey.Quit)
    file_menu.addActions([window.act_new, window.act_open])
    window.samples_menu = file_menu.addMenu("Open Sa&mple")
    window.samples_menu.aboutToShow.connect(window.files.fill_samples)
    window.recent_menu = file_menu.addMenu("Open &Recent")
    window.recent_menu.aboutToShow.connect(window.files.fill_recent)
    file_menu.addSeparator()
    file_menu.addActions([window.act_save, window.act_save_as])
    file_menu.addSeparator()
    file_menu.addActions([window.act_export, window.act_copy, window.act_paste])
    # Importers the modules declare (Flow: a screenshot of the app), added as each module loads
    # (``add_importers``): listing them here would load every plug-in before the window shows.
    window.file_menu = file_menu
    window.import_actions = {}
    window.import_kinds = set()
    window.file_menu.aboutToShow.connect(lambda: add_importers(window, registry.plugins().values()))
    window.import_end = file_menu.addSeparator()
    file_menu.addAction(window.act_quit)

    edit_menu = menu.addMenu("&Edit")
    # Menu entries name the step ("Undo Draw pipe R"); the toolbar keeps short fixed texts.
    window.act_undo = window.undo_group.createUndoAction(window, "&Undo")
    window.act_undo.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Undo))
    window.act_redo = window.undo_group.createRedoAction(window, "&Redo")
    window.act_redo.setShortcuts(_redo_keys())
    window.tool_undo = _toolbar_twin(window, window.act_undo, "Undo")
    window.tool_redo = _toolbar_twin(window, window.act_redo, "Redo")
    window.act_resize = make_action(window, "Re&size…", window.files.resize_dialog, "Ctrl+R")
    window.act_clear_entries = make_action(
        window, "&Clear Entries", window.files.clear_entries, None, "Remove everything entered in play mode"
    )
    edit_menu.addActions([window.act_undo, window.act_redo])
    edit_menu.addSeparator()
    edit_menu.addActions([window.act_copy_puzzle, window.act_paste])  # where a new user looks first
    edit_menu.addSeparator()
    edit_menu.addActions([window.act_resize, window.act_clear_entries])

    puzzle_menu = menu.addMenu("&Puzzle")
    window.act_solve = make_action(
        window,
        "&Solve",
        lambda: window.current().solve(2),
        "F5",
        "Find a solution and prove uniqueness (stops after 2)",
    )
    window.act_solve_all = make_action(
        window, "Find &All Solutions", lambda: window.current().solve(0), "Shift+F5"
    )
    window.act_cancel = make_action(window, "&Cancel Job", lambda: window.current().cancel_jobs(), "Esc")
    window.act_check = make_action(
        window, "Chec&k", window.check, "F6", "Check the entries against the rules"
    )
    window.act_hide = make_action(window, "Show Puzzle &Only", lambda: _puzzle_only(window.current()), "F7")
    window.act_edit_mode = make_action(
        window, "&Edit Mode", lambda: window.current().set_mode("edit"), "Ctrl+E"
    )
    window.act_play_mode = make_action(
        window, "&Play Mode", lambda: window.current().set_mode("play"), "Ctrl+P"
    )
    puzzle_menu.addActions(
        [window.act_solve, window.act_solve_all, window.act_cancel, window.act_check, window.act_hide]
    )
    puzzle_menu.addSeparator()
    puzzle_menu.addActions([window.act_edit_mode, window.act_play_mode])
    # Module entries (e.g. Toichika's Generate…): a panel offers them with ``menu_actions()``.
    window.puzzle_menu = puzzle_menu
    window.module_separator = puzzle_menu.addSeparator()
    window.module_actions = []

    view_menu = menu.addMenu("&View")
    scheme_menu = view_menu.addMenu("&Colour Scheme")
    window.scheme_group = QActionGroup(window)
    window.scheme_actions = {}
    for scheme, text in (("system", "Follow &System"), ("light", "&Light"), ("dark", "&Dark")):
        action = make_action(window, text, lambda _=False, s=scheme: window.set_scheme(s))
        action.setCheckable(True)
        window.scheme_group.addAction(action)
        scheme_menu.addAction(action)
        window.scheme_actions[scheme] = action
    window.act_dark = make_action(
        window, "Toggle &Dark Mode", lambda: window.toggle_dark(window.palette_name != "dark"), "Ctrl+D"
    )
    view_menu.addAction(window.act_dark)
    view_menu.addSeparator()
    window.act_zoom_in = make_action(window, "Zoom &In", lambda: window.current().board_area.zoom_by(1.25))
    window.act_zoom_in.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
    window.act_zoom_out = make_action(
        window, "Zoom &Out", lambda: window.current().board_area.zoom_by(0.8), "Ctrl+-"
    )
    window.act_fit = make_action(
        window, "&Fit Board", lambda: window.current().board_area.fit(), "Ctrl+0", "Show the whole board"
    )
    view_menu.addActions([window.act_zoom_in, window.act_zoom_out, window.act_fit])
    view_menu.addSeparator()
    _module_menu(window, view_menu.addMenu("&Module"))

    help_menu = menu.addMenu("&Help")
    window.act_how_to_play = make_action(
        window,
        "&How to Play",
        window.help.how_to_play,
        QKeySequence.StandardKey.HelpContents,
        "The rules of this module",
    )
    window.act_keys_help = make_action(
        window, "&Keyboard and Mouse", window.help.keys_help, None, "This module's controls"
    )
    help_menu.addActions([window.act_how_to_play, window.act_keys_help])
    help_menu.addSeparator()
    window.act_about = make_action(window, "&About", window.help.about)
    help_menu.addAction(window.act_about)

    toolbar = window.addToolBar("Main")
    toolbar.setObjectName("main-toolbar")
    toolbar.setMovable(False)
    toolbar.addActions([window.act_new, window.act_open, window.act_save])
    toolbar.addSeparator()
    toolbar.addActions([window.tool_undo, window.tool_redo])
    toolbar.addSeparator()
    toolbar.addActions([window.act_solve, window.act_solve_all, window.act_cancel, window.act_check])
    toolbar.addSeparator()
    toolbar.addAction(window.act_export)


def add_importers(window: MainWindow, plugins: Iterable[PluginBase]) -> None:
    """The File menu's entries for the importers of ``plugins`` not listed yet, in display order."""
    order = list(registry.metas())
    for plugin in plugins:
        kind = plugin.meta.id
        if kind in window.import_kinds:
            continue
        window.import_kinds.add(kind)
        # before the first entry of a module that comes later, else at the end of the section
        later = [a for a in window.import_actions.values() if _rank(order, a) > _rank(order, kind)]
        before = min(later, key=lambda a: _rank(order, a)) if later else window.import_end
        for importer in plugin.importers():
            entry = make_action(
                window,
                importer.label,
                lambda _=False, k=kind, i=importer: window.files.import_dialog(k, i),
                None,
                f"{plugin.meta.name}: read a puzzle from a file for you to correct",
            )
            entry.setData(kind)
            window.file_menu.insertAction(before, entry)
            window.import_actions[f"{kind}:{importer.label.replace('&', '')}"] = entry


def _rank(order: list[str], kind_or_action: str | QAction) -> int:
    kind = kind_or_action if isinstance(kind_or_action, str) else str(kind_or_action.data())
    return order.index(kind) if kind in order else len(order)


def _toolbar_twin(window: MainWindow, action: QAction, text: str) -> QAction:
    """A fixed-text toolbar copy of ``action``; its tooltip carries the full, changing text."""
    twin = QAction(text, window)
    twin.triggered.connect(action.trigger)

    def sync() -> None:
        twin.setEnabled(action.isEnabled())
        full = action.text().replace("&", "")
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        twin.setToolTip(f"{full} ({keys})" if keys else full)

    action.changed.connect(sync)
    sync()
    return twin


def _redo_keys() -> list[QKeySequence]:
    """Ctrl+Shift+Z and Ctrl+Y, which users expect everywhere, then the platform's own Redo keys."""
    keys = [QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")]
    keys += [k for k in QKeySequence.keyBindings(QKeySequence.StandardKey.Redo) if k not in keys]
    return keys


def _puzzle_only(view: DocumentView) -> None:
    """F7: the board shows the puzzle, no solution row stays highlighted, and keys go to the board
    (they went on to the solutions list, where a click had left the focus)."""
    view.show_solution(None)
    view.browser.forget_current()
    view.board.setFocus()


def _module_menu(window: MainWindow, menu: Any) -> None:
    """View > Module: each module by number, Ctrl+1..Ctrl+9, in the sidebar's order; the keyboard's
    way to another module (the sidebar took four Tabs and showed no focus: QA pass 9)."""
    window.module_go_actions = []
    for row, meta in enumerate(registry.metas().values()):
        number = f"&{row + 1} " if row < 9 else ""
        action = make_action(
            window,
            number + meta.name.replace("&", "&&"),
            lambda _=False, r=row: window.sidebar.setCurrentRow(r),
            f"Ctrl+{row + 1}" if row < 9 else None,
            f"Show {meta.name}",
        )
        menu.addAction(action)
        window.module_go_actions.append(action)
