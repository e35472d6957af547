"""The plug-in protocol every puzzle or game implements (Qt-free).

Modelled on Simon Tatham's back ends: a plug-in is a small table of pure functions over immutable
values. The shell (GUI, CLI, solution browser, export, registry-wide tests) is written once against
it. A module subclasses ``PluginBase`` and overrides what it supports; ``meta.capabilities`` says
which optional parts exist.

State kinds stay apart: the *puzzle* (givens), *entries* (the player's or solver's marks and any
options of the game record, module specific; saved and undone with the document), *solutions*
(``Solution`` values from the solver) and *UI state* (Tatham's ``game_ui``: what lives between two
events, e.g. where a drag started). The plug-in object itself holds none of them: it is shared by
every document and by worker threads. UI state is a value from ``new_ui`` that the shell's document
keeps and hands back as ``ui=`` to ``edit``/``draw``/``hover``/``drag_preview``.
Editing is Tatham's ``interpret_move``: the shell turns mouse/keys into ``EditEvent`` values, the
plug-in answers with a new puzzle/entries value (or ``None`` = nothing happened). So editors are
Qt-free and testable; the shell wraps each change in one undo step.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.capabilities import EXPLAIN as EXPLAIN  # re-exported: plug-ins import them here
from solvers.common.capabilities import GAME as GAME
from solvers.common.capabilities import ISOLATED as ISOLATED
from solvers.common.capabilities import PLAY as PLAY
from solvers.common.capabilities import SOLVE
from solvers.common.display import DisplayList
from solvers.common.errors import InputError
from solvers.common.limits import limit_text, read_user_text, shown
from solvers.common.outcome import SearchOutcome
from solvers.common.pzpr_url import puzzle_type
from solvers.common.solve_stream import collect

Cell = tuple[int, int]
ProgressFn = Callable[[dict[str, Any]], None]

# Bundled data, found as the ``assets`` package's resources (an installed wheel, a source tree or a
# frozen bundle alike), not by walking up from this file. Modules read their files through it.
ASSETS = Path(str(resources.files("assets")))

# Capabilities a plug-in may declare in ``Meta.capabilities`` (see ``capabilities``).


@dataclass(frozen=True)
class Meta:
    id: str
    name: str
    description: str
    extensions: tuple[str, ...] = (".txt",)
    aliases: tuple[str, ...] = ()
    capabilities: frozenset[str] = frozenset({SOLVE})
    file_filter: str = ""
    order: int = 1000  # place in the sidebar and every list of modules (lower first, then by id)

    def dialog_filter(self) -> str:
        if self.file_filter:
            return self.file_filter
        patterns = " ".join(f"*{ext}" for ext in self.extensions)
        return f"{self.name} files ({patterns})"


@dataclass(frozen=True)
class Violation:
    """One broken rule. ``code`` is stable (tests and other tools compare it)."""

    code: str
    message: str
    cells: tuple[Cell, ...] = ()


@dataclass
class CheckResult:
    complete: bool
    violations: list[Violation] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.complete and not self.violations

    def summary(self) -> str:
        if self.violations:
            v = self.violations[0]
            return f"{v.code}: {v.message}"
        return "complete and correct" if self.complete else "no rule broken so far"


@dataclass
class Solution:
    """One solution / analysis result.

    ``grid`` is the module's row-string picture (the CLI's ``"grid"``); ``extras`` holds further
    JSON-able fields (e.g. Flow's ``"paths"``); ``data`` is any module object the drawing needs.
    """

    grid: list[str]
    extras: dict[str, Any] = field(default_factory=dict)
    data: Any = None
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"grid": list(self.grid), **self.extras}


# The result of ``count``: how many solutions and whether that is exact (solvers/common/outcome.py).
CountResult = SearchOutcome


@dataclass(frozen=True)
class Tool:
    """An editing tool shown in the palette. ``color`` is a display-list colour for the swatch."""

    id: str
    label: str
    shortcut: str = ""
    color: str | None = None
    mode: Literal["edit", "play", "both"] = "edit"
    tip: str = ""  # tooltip that explains the tool (default: the label)
    glyph: str = ""  # text drawn on the swatch (a Numberlink number): the button shows what it places


@dataclass(frozen=True)
class EditEvent:
    kind: Literal["press", "drag", "release", "key", "wheel"]
    tool: str = ""
    mode: Literal["edit", "play"] = "edit"
    cell: Cell | None = None
    pos: tuple[float, float] = (0.0, 0.0)  # logical display-list coordinates
    button: Literal["left", "right", "middle", ""] = ""
    key: str = ""  # Qt key name without "Key_" ("Up", "A", "Delete", "Space") or text
    modifiers: frozenset[str] = frozenset()
    delta: int = 0  # wheel steps


@dataclass(frozen=True)
class Hover:
    """What the board shows while the pointer rests on something: an overlay for ``draw`` and a tooltip."""

    overlay: Any
    text: str


@dataclass(frozen=True)
class ContextAction:
    """A context-menu entry; choosing it sends ``key`` to ``edit`` as a key event on the clicked cell."""

    label: str
    key: str


@dataclass(frozen=True)
class Importer:
    """A way to make a puzzle from a file that is no puzzle file (the shell's File menu lists it).

    ``load(path)`` returns the puzzle and notes on what could not be read or kept (shown to the
    user, who corrects the puzzle in the editor), or raises ``InputError`` naming the problem.
    """

    label: str  # menu text, e.g. "Import &Screenshot…"
    file_filter: str  # file dialog filter, e.g. "Images (*.png *.jpg)"
    load: Callable[[Path], tuple[Any, list[str]]]
    # ``review(path, cancel=token)``: what was read, drawn over the picture for the user to confirm
    # (a ``review.ImportReview``; ``InputError`` for a file that is no readable picture). A
    # module-level function: the GUI runs it in a worker process. Without it the GUI uses ``load``.
    review: Callable[..., Any] | None = None


@dataclass
class EditResult:
    puzzle: Any = None  # new puzzle value, or None if unchanged
    entries: Any = None  # new entries value, or None if unchanged
    label: str = "Edit"  # undo text
    merge_key: str | None = None  # consecutive results with the same key merge into one undo step
    # A key result that continues the previous key result with the same merge_key (nothing in
    # between): the digits of one number typed key by key are one undo step, named by the last.
    key_merge: bool = False
    # A gesture that may end where it began (a press and release on a Flow dot): if its merged
    # step changes nothing, the step goes (no undo step, no "modified" mark for nothing).
    vanish_if_unchanged: bool = False
    # Part of the previous undo step (a computer's reply to the player's move): Undo takes both
    # back, Redo plays both. Not joined when nothing is before it or the file was saved between.
    joins_previous: bool = False


@runtime_checkable
class Plugin(Protocol):
    meta: Meta

    def parse(self, text: str) -> Any: ...
    def serialize(self, puzzle: Any) -> str: ...
    def check(self, puzzle: Any, entries: Any = None) -> CheckResult: ...
    def solve(
        self,
        puzzle: Any,
        *,
        limit: int | None = 2,
        cancel: CancelToken | None = None,
        progress: ProgressFn | None = None,
        info: dict[str, Any] | None = None,
    ) -> Iterator[Solution]: ...
    def draw(
        self,
        puzzle: Any,
        solution: Solution | None = None,
        entries: Any = None,
        overlay: Any = None,
        ui: Any = None,
    ) -> DisplayList: ...


def document_solve_options(plugin: PluginBase, entries: Any, ui: Any = None) -> dict[str, Any]:
    """``solve``'s options for a document: from its entries and its UI state (never from the plug-in
    object, which all documents and worker threads share)."""
    return dict(plugin.solve_options(entries, ui=ui))


class PluginBase:
    """Defaults shared by all plug-ins. Override at least parse/serialize/check/solve/draw."""

    meta: Meta
    # The puzz.link / pzprv3 puzzle types this plug-in reads (``numlin``): see ``claims``.
    pzpr_types: frozenset[str] = frozenset()

    # ---- text formats -------------------------------------------------------------------------
    def claims(self, text: str) -> bool:
        """Whether ``text`` names one of this plug-in's puzzle types (a puzz.link URL or pzprv3
        file of a type in ``pzpr_types``): if it cannot be read, this plug-in's error is the one
        to show, wherever it was pasted."""
        return puzzle_type(text) in self.pzpr_types

    def parse(self, text: str) -> Any:
        raise NotImplementedError

    def serialize(self, puzzle: Any) -> str:
        raise NotImplementedError

    def parse_document(self, text: str) -> tuple[Any, Any]:
        """A saved document: the puzzle plus any entries stored with it (default: none)."""
        return self.parse(text), None

    def serialize_document(self, puzzle: Any, entries: Any = None) -> str:
        """Inverse of ``parse_document``; modules with play state override both."""
        return self.serialize(puzzle)

    def parse_input(self, arg: str) -> Any:
        """CLI/GUI input: a path to a file, or the text itself (URL, code, board string)."""
        return self.parse_document_input(arg)[0]

    def parse_document_input(self, arg: str) -> tuple[Any, Any]:
        if not arg.strip():  # Path("") is the working folder: "cannot read file (a folder)" misled
            raise InputError("the puzzle argument is empty: give a file, a URL or the puzzle itself")
        path = Path(arg)
        try:
            # exists(), not is_file(): a FIFO or folder gets "not a regular file", not "no such file"
            is_path = len(arg) < 4096 and "\n" not in arg and "\x00" not in arg and path.exists()
        except OSError:
            is_path = False
        if is_path:
            return self.parse_document(read_text(path))
        limit_text(arg, "the puzzle argument")
        if "\n" not in arg and not self.looks_like_inline(arg):
            raise InputError(f"no such file: {shown(arg, 200)}")
        return self.parse_document(arg)

    def importers(self) -> list[Importer]:
        """Other files this module can read a puzzle from (File menu entries; default: none)."""
        return []

    def warm_up(self) -> None:
        """Load what the GUI thread would otherwise load on first use (numba kernels that
        ``edit``/``draw`` call: seconds on a fresh install, a frozen window if done there). The
        shell runs it on a background thread at start-up; default: nothing to load."""

    def looks_like_inline(self, arg: str) -> bool:
        """True if a one-line argument should be parsed as the puzzle itself (URL, code)."""
        return False

    # ---- samples ------------------------------------------------------------------------------
    def sample_paths(self) -> list[Path]:
        folder = ASSETS / self.meta.id / "samples"
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))

    def sample_groups(self) -> list[tuple[str, list[Path]]]:
        """File > Open Sample: (submenu title, files); the title '' puts files at the module's level."""
        return [("", self.sample_paths())]

    def samples(self) -> list[tuple[str, Any]]:
        return [(p.stem, self.parse(read_text(p))) for p in self.sample_paths()]

    def default_puzzle(self) -> Any:
        paths = self.sample_paths()
        if paths:
            return self.parse(read_text(paths[0]))
        return self.new_puzzle()

    def new_puzzle(self, rows: int | None = None, cols: int | None = None) -> Any:
        raise NotImplementedError

    # ---- rules and solving ----------------------------------------------------------------------
    def check(self, puzzle: Any, entries: Any = None) -> CheckResult:
        raise NotImplementedError

    def check_solution(self, puzzle: Any, solution: Solution) -> CheckResult:
        """Check a solver answer with the rule checker (tests run this on every solution)."""
        return self.check(puzzle, self.entries_from_solution(puzzle, solution))

    def solve(
        self,
        puzzle: Any,
        *,
        limit: int | None = 2,
        cancel: CancelToken | None = None,
        progress: ProgressFn | None = None,
        info: dict[str, Any] | None = None,
    ) -> Iterator[Solution]:
        raise NotImplementedError

    def solve_options(self, entries: Any, ui: Any = None) -> dict[str, Any]:
        """Keyword options for ``solve`` that a document keeps beside its puzzle (e.g. Tokyo
        Doves' rule options), so every caller that has the entries solves the document as saved.
        ``ui`` carries options chosen in the view (e.g. Nine Tiles' theme cards); callers use
        ``document_solve_options``. Read on the GUI thread: workers get a plain dict."""
        return {}

    def collection(self, text: str) -> list[str]:
        """One line per puzzle when ``text`` is a file of several (a level pack): what File > Open
        offers to choose from. Empty (the default) for a file of one puzzle."""
        return []

    def parse_document_at(self, text: str, index: int) -> tuple[Any, Any]:
        """The ``index``-th puzzle (0-based) of a file of several (see ``collection``)."""
        if index:
            raise InputError("this file holds one puzzle")
        return self.parse_document(text)

    def writes_back(self, text: str) -> bool:
        """Whether Save may write over the file ``text`` was read from. False for a form the
        plug-in reads but does not write (another tool's file, a collection of several puzzles):
        the document then opens untitled, so Save asks for a new name and that file stays as it
        was. Default: True."""
        return True

    def solve_identity(self, puzzle: Any) -> Any:
        """What of the puzzle a solve's answers depend on. Default: all of it. A plug-in whose
        puzzle also holds how it is drawn (Flow's look and labels) leaves that out, so changing
        the drawing keeps the solutions shown."""
        return puzzle

    def solve_position(self, puzzle: Any, entries: Any) -> tuple[Any, str]:
        """What ``solve`` answers for a saved document, and words naming it: a game's position
        after its recorded moves (the one the document shows), e.g. "after 3 moves, Green to
        move", so a game saved in progress is analysed where it stands, not at its set-up.
        Default: the puzzle itself and "" (a puzzle's entries are an attempt, not a new puzzle).
        The CLI's ``solve`` and ``export --solved`` use it; a record that cannot be analysed
        (it ended the game, it breaks the rules) is an InputError."""
        return puzzle, ""

    def count(self, puzzle: Any, limit: int = 2, cancel: CancelToken | None = None) -> CountResult:
        return collect(self, puzzle, limit, None, cancel, keep=False)[2]

    # ---- play ---------------------------------------------------------------------------------
    def empty_entries(self, puzzle: Any) -> Any:
        return None

    def entries_from_solution(self, puzzle: Any, solution: Solution) -> Any:
        return solution.data

    def adapt_entries(self, puzzle: Any, entries: Any) -> Any:
        """Entries to keep after the givens changed (default: start afresh)."""
        return self.empty_entries(puzzle)

    # ---- UI state (Tatham's new_ui / game_ui) -------------------------------------------------
    def new_ui(self, puzzle: Any) -> Any:
        """A fresh UI-state value for one document (default: None, no UI state).

        What a plug-in must remember between events but is neither puzzle nor entries: where a
        drag started, the value a stroke writes. The shell's document holds it (one per document,
        never saved, never undone; a fresh one when the document gets new content) and passes it
        as ``ui=`` to ``edit`` (which may change it in place), ``draw``, ``hover`` and
        ``drag_preview``. A plug-in must cope with ``ui=None`` (callers without a document, such
        as export and tests) and with a value left over from an earlier puzzle of the document."""
        return None

    # ---- editing (Tatham's interpret_move) ----------------------------------------------------
    def tools(self, puzzle: Any) -> list[Tool]:
        return []

    # ``ui`` is a plain parameter of edit, hover, drag_preview, draw and solve_options: the shell
    # always passes the document's UI state, and a plug-in without UI state ignores it.
    def edit(self, puzzle: Any, entries: Any, event: EditEvent, ui: Any = None) -> EditResult | None:
        return None

    def hover(
        self, puzzle: Any, solution: Solution | None, pos: tuple[float, float], ui: Any = None
    ) -> Hover | None:
        """What lies under logical point ``pos`` of ``draw(puzzle, solution)`` (default: nothing)."""
        return None

    def drag_preview(self, puzzle: Any, pos: tuple[float, float], ui: Any = None) -> Any:
        """While a drag that ``edit`` started is under way: an overlay for ``draw`` showing what is
        dragged and where it would land (default: none). Called on every pointer move; what the
        press picked up is in ``ui``."""
        return None

    def context_actions(self, puzzle: Any, entries: Any, event: EditEvent) -> list[ContextAction]:
        """Right-click menu for the press ``event``; empty means right-click goes to ``edit``."""
        return []

    def resize(self, puzzle: Any, rows: int, cols: int) -> Any:
        raise InputError(f"{self.meta.name} boards cannot be resized")

    def size_of(self, puzzle: Any) -> tuple[int, int] | None:
        """(rows, cols) if the puzzle has a resizable grid."""
        return None

    def describe(self, puzzle: Any) -> str:
        """One line for the status bar, e.g. '7x7, 6 colours'."""
        return ""

    def describe_document(self, puzzle: Any, entries: Any) -> str:
        """The status line for a whole document, where the entries change what is true (a game's
        played actions and rule options); default: ``describe(puzzle)``."""
        return self.describe(puzzle)

    # ---- drawing ------------------------------------------------------------------------------
    def draw(
        self,
        puzzle: Any,
        solution: Solution | None = None,
        entries: Any = None,
        overlay: Any = None,
        ui: Any = None,
    ) -> DisplayList:
        raise NotImplementedError

    # ---- optional extras ----------------------------------------------------------------------
    def explain(self, puzzle: Any, cancel: CancelToken | None = None) -> dict[str, Any]:
        raise NotImplementedError(f"{self.meta.name} has no step-by-step explanation")

    # ---- help (Help -> How to play, Help -> Keyboard and mouse) -------------------------------
    def help_rules(self) -> str:
        """The rules in a few sentences, plain text; blank lines separate paragraphs."""
        return self.meta.description

    def help_keys(self) -> list[tuple[str, str]]:
        """(key or mouse gesture, what it does) pairs for the board; the shell adds its own."""
        return []

    def help_diagram(self) -> DisplayList | None:
        """A small example picture for How to play (default: the default puzzle as drawn)."""
        puzzle = self.default_puzzle()
        return self.draw(puzzle, None, self.empty_entries(puzzle))

    def help_answer(self) -> DisplayList | None:
        """The example solved, shown beside ``help_diagram`` (default: none; a puzzle whose goal is
        a solution gives ``solved_help_diagram()``, so the goal shows at a glance)."""
        return None

    def solved_help_diagram(self, seconds: float = 0.5) -> DisplayList | None:
        """The default puzzle with its first solution, or None if none comes within ``seconds``
        (the Help window opens on the GUI thread)."""
        puzzle = self.default_puzzle()
        try:
            found = next(iter(self.solve(puzzle, limit=1, cancel=CancelToken(timeout=seconds))), None)
        except Cancelled:
            return None
        return None if found is None else self.draw(puzzle, found, self.empty_entries(puzzle))

    def cli(self, argv: list[str]) -> int:
        """Module-specific CLI: ``python -m workbench KIND ...``. Return an exit code.

        By default the package's ``cli`` module, if it has one, answers: its ``main(argv, plugin)``."""
        package = type(self).__module__.rpartition(".")[0]
        try:
            module = importlib.import_module(f"{package}.cli")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.cli":
                raise
            print(f"{self.meta.id} has no module commands", file=sys.stderr)
            return 2
        return int(module.main(argv, self))

    # ---- puzzles the generic tests use (the registry-wide protocol tests) -----------------------
    def puzzle_with_many_solutions(self) -> Any:
        """A puzzle with more than 300 solutions, or None: limit and cancel must cut it short."""
        return None

    def puzzle_with_several_solutions(self) -> Any:
        """A small puzzle with two or more solutions (for the limit check), or None."""
        return self.puzzle_with_many_solutions()


def read_text(path: Path) -> str:
    """Read a user file with a clear error (name + problem), tolerant of BOM and CRLF.

    Regular files only, at most ``limits.MAX_INPUT_BYTES``, binary data refused (see
    ``solvers.common.limits.read_user_text``).
    """
    return read_user_text(Path(path))
