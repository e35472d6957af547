"""Flow Free side panel: play progress, "Hint" (reveal one pipe of the solution), clear pipes,
and a generator of random puzzles with a unique solution (``flow_generator``).

Solving and generating run as background jobs (``ctx.run_job``); results come back on the GUI
thread and change the document through ``ctx.apply`` (one undo step each).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from solvers.common.errors import InputError
from solvers.common.limits import limit_text
from solvers.common.process_jobs import remote
from solvers.common.protocol import EditResult
from solvers.common.pzpr_url import puzzle_type
from solvers.flow.draw import labels_always
from solvers.flow.hint import Paths, hint_paths, joined_pipes, keeps, progress_text, reveal_one
from solvers.flow.model import (
    AUTO_LOOK,
    BRIDGE,
    EMPTY,
    FLOW_RULES,
    INK,
    LINES,
    NUMBERLINK,
    PIPES,
    FlowPaths,
    FlowPuzzle,
)
from solvers.flow.pzpr import encode_url
from solvers.flow.solve import verdict
from widgets.panel_api import EMPTY_CLIPBOARD
from widgets.panels.flow_generator import FlowGenerator

RULES_NOTE = (
    "Solver rules: <b>designed</b> first (no pipe runs alongside itself, as Flow levels are made); "
    "if that finds nothing, the <b>strict</b> game rules. A Numberlink puzzle (chosen above, a "
    "numlin URL, a <i>fill: false</i> file) is solved under <b>Numberlink</b> rules: cells may "
    "stay empty. "
    "Uniqueness refers to the rule set named in the solution list."
)

# The puzzle's own rule sets (``FlowPuzzle.rules``), as the Rules box offers them.
RULE_CHOICES = (
    ("Flow (every cell filled)", FLOW_RULES),
    ("Numberlink (cells may stay empty)", NUMBERLINK),
)

# How the board is drawn (``FlowPuzzle.look``), as the Look box offers it.
LOOK_CHOICES = (
    ("Auto", AUTO_LOOK),
    ("Coloured pipes (Flow)", PIPES),
    ("Coloured lines (Numberlink)", LINES),
    ("Black lines (print)", INK),
)


def create_panels(ctx: Any) -> list[tuple[str, QWidget]]:
    return [("Flow", FlowPanel(ctx))]


class FlowPanel(QWidget):
    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        # (puzzle, the player's finished pipes) -> a solution keeping them if one does, and whether
        self._solutions: dict[tuple[FlowPuzzle, tuple[Any, ...]], tuple[Paths | None, bool]] = {}
        # Running jobs (they have ``done``); a cancelled job calls neither callback, so buttons
        # are never disabled for a job, clicks are just ignored while one runs.
        self._hint_job: Any = None

        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)
        self.progress_label.setAccessibleName("Play progress")
        # Two lines kept: "12 of 15 pipes joined, ..." wraps at 1024 px where "2 of 15" did not,
        # and the panel below jumped a line while the player drew (QA).
        self.progress_label.setMinimumHeight(2 * self.progress_label.fontMetrics().lineSpacing())
        self.progress_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.hint_button = QPushButton("Hint")
        self.hint_button.setToolTip("Draw one pipe of the solution (undo takes it back)")
        self.hint_button.clicked.connect(self.hint)
        self.clear_button = QPushButton("Clear pipes")
        self.clear_button.clicked.connect(self.clear_pipes)
        note = QLabel(RULES_NOTE)
        note.setWordWrap(True)
        self.strict_button = QPushButton("Uniqueness under strict rules")
        self.strict_button.setToolTip(
            "Count solutions under the game rules alone (pipes may run alongside themselves)"
        )
        self.strict_button.clicked.connect(self.strict_count)
        # The rule set belongs to the puzzle (saved with it): a board drawn here can be a Numberlink
        # puzzle too, not only one opened from a numlin URL or a fill: false file.
        self.rules_box = QComboBox()
        for words, rule_set in RULE_CHOICES:
            self.rules_box.addItem(words, rule_set)
        self.rules_box.setAccessibleName("Puzzle rules")
        self.rules_box.setToolTip("The puzzle's rule set: Solve (F5), Check and the file follow it")
        self.rules_box.activated.connect(self.set_rules)  # the user's choice only, not refresh()
        self.labels_box = QCheckBox("Show labels on the dots")
        self.labels_box.setToolTip(
            "Print each endpoint's letter or number on its dot, as Arukone puzzles are printed "
            "(saved with the puzzle). Numberlink puzzles, numbers past 9 and boards with more "
            "colours than the palette always show them."
        )
        self.labels_box.clicked.connect(self.set_labels)  # the user's choice only, not refresh()
        self.look_box = QComboBox()
        for words, look in LOOK_CHOICES:
            self.look_box.addItem(words, look)
        self.look_box.setAccessibleName("Look")
        # Its longest item must not widen the side panel (and so the window's least width).
        self.look_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.look_box.setMinimumContentsLength(12)
        self.look_box.setToolTip(
            "How the board is drawn, on screen and in exports (saved with the puzzle): the game's "
            "dots and pipes, or labels in rings joined by thin lines, as Numberlink is printed. "
            "Auto: Numberlink puzzles and numbers past 9 as printed, other boards as the game."
        )
        self.look_box.activated.connect(self.set_look)  # the user's choice only, not refresh()
        self.strict_label = QLabel()
        self.strict_label.setWordWrap(True)
        self.strict_label.setAccessibleName("Strict uniqueness")
        self._strict_job: Any = None
        self._strict_for: FlowPuzzle | None = None  # the puzzle the strict verdict belongs to

        self.shape_button = QPushButton("Hex board")
        self.shape_button.setToolTip("Turn the current board into hexagonal cells (odd rows shifted) or back")
        self.shape_button.clicked.connect(self.toggle_shape)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        play = QGroupBox("Play")
        play_layout = QVBoxLayout(play)
        play_layout.addWidget(self.progress_label)
        buttons = QHBoxLayout()
        buttons.addWidget(self.hint_button)
        buttons.addWidget(self.clear_button)
        play_layout.addLayout(buttons)
        layout.addWidget(play)
        self.generator = FlowGenerator(ctx)
        self.generator.form.addRow(self.shape_button)
        layout.addWidget(self.generator)
        links = QGroupBox("puzz.link (Numberlink, Arukone)")
        links_row = QHBoxLayout(links)
        self.copy_url_button = QPushButton("Copy URL")
        self.copy_url_button.setToolTip("Put this board's puzz.link numlin/arukone URL on the clipboard")
        self.copy_url_button.clicked.connect(self.copy_url)
        self.paste_url_button = QPushButton("Paste URL")
        self.paste_url_button.setToolTip("Open the puzz.link URL (or pzprv3 text) on the clipboard")
        self.paste_url_button.clicked.connect(lambda: self.paste_url())
        links_row.addWidget(self.copy_url_button)
        links_row.addWidget(self.paste_url_button)
        layout.addWidget(links)
        rules = QGroupBox("Rules")
        rules_layout = QVBoxLayout(rules)
        rules_layout.addWidget(self.rules_box)
        look_row = QHBoxLayout()
        look_row.addWidget(QLabel("Look"))
        look_row.addWidget(self.look_box, 1)
        rules_layout.addLayout(look_row)
        rules_layout.addWidget(self.labels_box)
        rules_layout.addWidget(note)
        rules_layout.addWidget(self.strict_button)
        rules_layout.addWidget(self.strict_label)
        layout.addWidget(rules)
        layout.addStretch(1)

        ctx.changed.connect(self.refresh)
        self.refresh()

    # ---- puzz.link ------------------------------------------------------------------------------
    def copy_url(self) -> None:
        try:
            url = encode_url(self.ctx.puzzle())
        except InputError as exc:
            self.ctx.status(f"No puzz.link URL for this board: {exc}")
            return
        QGuiApplication.clipboard().setText(url)
        self.ctx.status(f"Copied {url}")

    def paste_url(self, text: str | None = None) -> None:
        text = QGuiApplication.clipboard().text() if text is None else text
        if not text.strip():  # not 'empty board: no rows found'
            self.ctx.status(EMPTY_CLIPBOARD)
            return
        try:
            if len(self.ctx.plugin.collection(limit_text(text, "the clipboard"))) > 1:
                # A level pack: the shell asks which puzzle, as File > Open does (this button
                # opened the first with the command line's "flow split" note).
                self.ctx.paste_text(text)
                return
            clean = limit_text(text, "the clipboard").strip()
            # A pzprv3 text (a file, or in a URL) brings its lines drawn, as Edit > Paste does.
            plugin = self.ctx.plugin
            puzzle, drawn = (
                plugin.parse_document(clean) if puzzle_type(clean) else (plugin.parse(clean), None)
            )
        except InputError as exc:
            self.ctx.status(f"Cannot paste: {exc}")
            return
        if self.ctx.may_replace():
            self.ctx.replace_untitled(puzzle, "Paste URL", drawn if drawn is not None else FlowPaths())
            self.ctx.status(f"Pasted: {self.ctx.plugin.describe(puzzle)}")  # not the last failure's word

    # ---- play -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        puzzle = self.ctx.puzzle()
        entries = self.ctx.entries()
        self.generator.follow(puzzle)
        problems = puzzle.problems()
        if problems:
            self.progress_label.setText(problems[0][0])
        elif self.ctx.plugin.check(puzzle, entries).ok:
            # Numberlink rules let cells stay empty: "full" would be untrue there.
            full = "" if puzzle.rules == NUMBERLINK else " and the board is full"
            self.progress_label.setText(f"<b>Solved!</b> Every pair is joined{full}.")
        else:
            self.progress_label.setText(progress_text(puzzle, entries))
        self.hint_button.setEnabled(not problems and bool(puzzle.colours))
        self.strict_button.setEnabled(not problems and bool(puzzle.colours))
        if self._strict_for != self._key(puzzle):
            self.strict_label.setText("")
        self.clear_button.setEnabled(bool(entries is not None and any(p for _, p in entries.items)))
        self.shape_button.setText("Square board" if getattr(puzzle, "hex", False) else "Hex board")
        self.rules_box.setCurrentIndex(max(0, self.rules_box.findData(puzzle.rules)))
        self.look_box.setCurrentIndex(max(0, self.look_box.findData(puzzle.look)))
        always = labels_always(puzzle)
        self.labels_box.setChecked(puzzle.labels or always)
        self.labels_box.setEnabled(not always)

    def set_rules(self, index: int) -> None:
        """One undoable step: the puzzle under the chosen rule set (its solutions go with the edit)."""
        rules = self.rules_box.itemData(index)
        puzzle = self.ctx.puzzle()
        if rules != puzzle.rules:
            words = self.rules_box.itemText(index).split(" (")[0]
            self.ctx.apply(EditResult(puzzle=replace(puzzle, rules=rules), label=f"{words} rules"))

    def set_labels(self, shown: bool) -> None:
        """One undoable step: the dots show their labels (or plain colours)."""
        puzzle = self.ctx.puzzle()
        if shown != puzzle.labels:
            label = "show labels" if shown else "hide labels"
            self.ctx.apply(EditResult(puzzle=replace(puzzle, labels=shown), label=label))

    def set_look(self, index: int) -> None:
        """One undoable step: the board drawn in the chosen look (its solutions stay)."""
        look = self.look_box.itemData(index)
        puzzle = self.ctx.puzzle()
        if look != puzzle.look:
            words = self.look_box.itemText(index).split(" (")[0].lower()
            self.ctx.apply(EditResult(puzzle=replace(puzzle, look=look), label=f"look: {words}"))

    def _key(self, puzzle: FlowPuzzle) -> FlowPuzzle:
        """What answers depend on: a hint or verdict stays when only the look changes."""
        key: FlowPuzzle = self.ctx.plugin.solve_identity(puzzle)
        return key

    def toggle_shape(self) -> None:
        """Square <-> hex cells; bridges (square boards only) and warps are dropped on the way to hex."""
        puzzle = self.ctx.puzzle()
        cells = tuple(EMPTY if ch == BRIDGE else ch for ch in puzzle.cells)
        new = replace(
            puzzle,
            hex=not puzzle.hex,
            cells=cells,
            walls=frozenset(),
            warp_rows=frozenset(),
            warp_cols=frozenset(),
        )
        self.ctx.apply(EditResult(puzzle=new, label="Hex board" if new.hex else "Square board"))

    def _hint_key(self, puzzle: FlowPuzzle) -> tuple[FlowPuzzle, tuple[Any, ...]]:
        return self._key(puzzle), tuple(sorted(joined_pipes(puzzle, self.ctx.entries()).items()))

    def _fitting(self, key: tuple[FlowPuzzle, tuple[Any, ...]]) -> bool:
        """Whether a solution found for an earlier hint on this board holds the player's finished
        pipes (the pipes earlier hints drew do): it serves again, without a new solve."""
        for (board, _), (paths, _kept) in list(self._solutions.items()):
            if board == key[0] and paths is not None and keeps(paths, dict(key[1])):
                self._solutions[key] = (paths, True)
                return True
        return False

    def hint(self) -> None:
        puzzle = self.ctx.puzzle()
        key = self._hint_key(puzzle)
        if key in self._solutions or self._fitting(key):
            self._reveal(key)
            return
        if _running(self._hint_job):
            self.ctx.status("Still solving for the hint…")
            return
        self._hint_job = self.ctx.run_job(
            "Solving for a hint",
            remote(hint_paths, puzzle, dict(key[1])),
            lambda result: self._solved(key, result),
            self._failed,
        )

    def _solved(self, key: tuple[FlowPuzzle, tuple[Any, ...]], result: tuple[Paths | None, bool]) -> None:
        self._solutions[key] = result
        if key == self._hint_key(self.ctx.puzzle()):
            self._reveal(key)
        self.refresh()

    def _failed(self, message: str) -> None:
        self.ctx.status(f"Hint failed: {message}")
        self.refresh()

    def _reveal(self, key: tuple[FlowPuzzle, tuple[Any, ...]]) -> None:
        solution, kept = self._solutions.get(key, (None, False))
        if solution is None:
            self.ctx.status("No hint: this puzzle has no solution.")
            return
        before = self.ctx.entries()
        step = reveal_one(self.ctx.puzzle(), before, solution)
        if step is None:
            self.ctx.status("Every pipe already matches the solution.")
            return
        letter, entries = step
        puzzle = self.ctx.puzzle()
        pipe = puzzle.pipe_name(letter)
        self.ctx.apply(EditResult(entries=entries, label=f"Hint: {pipe}"))
        cut = [ch for ch, path in before.items if ch != letter and entries.get(ch) != path]
        said = f"Hint: drew the {pipe}"
        if key[1] and not kept:  # the player's finished pipes fit no solution together
            said += (
                f"; no solution keeps all your finished pipes ({_words(puzzle, [ch for ch, _ in key[1]])})"
            )
        if cut:
            said += f"; it cut {_words(puzzle, cut)} where {'they' if len(cut) > 1 else 'it'} crossed it"
        self.ctx.status(said + ".")

    def clear_pipes(self) -> None:
        self.ctx.apply(EditResult(entries=FlowPaths(), label="Clear pipes"))

    def strict_count(self) -> None:
        puzzle = self.ctx.puzzle()
        if _running(self._strict_job):
            self.ctx.status("Still counting…")
            return
        self.strict_label.setText("Counting solutions under the game rules…")
        self._strict_job = self.ctx.run_job(
            "Strict uniqueness",
            remote(self.ctx.plugin.count_rules, puzzle, "strict", 2),
            lambda result: self._strict_done(puzzle, result),
            lambda message: self.strict_label.setText(f"Failed: {message}"),
            lambda result: self.strict_label.setText(_strict_cut(result)),
        )

    def _strict_done(self, puzzle: FlowPuzzle, result: Any) -> None:
        if self._key(puzzle) != self._key(self.ctx.puzzle()):
            return
        self._strict_for = self._key(puzzle)
        words = verdict(result.count, result.complete, "strict")
        self.strict_label.setText(f"<b>{words[0].upper()}{words[1:]}</b>.")


def _running(job: Any) -> bool:
    return job is not None and not getattr(job, "done", True)


def _strict_cut(result: Any) -> str:
    """The strict count's line after a cancel: what it had found by then (``count_rules`` returns
    an interrupted ``SearchOutcome``; a worker killed on Esc returns nothing)."""
    found = getattr(result, "count", 0)
    if isinstance(found, int) and found > 0:
        return f"Strict count cancelled: at least {found} solution{'' if found == 1 else 's'} under the game rules."
    return "Strict count cancelled."


def _words(puzzle: FlowPuzzle, letters: list[str]) -> str:
    """Pipes as the player knows them: "blue, green" (colour names), else their labels."""
    return ", ".join(puzzle.colour_word(ch) or ch for ch in letters)
