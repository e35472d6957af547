"""One kind's workspace: board, tools, mode, solve job, solution browser and module panels.

It implements ``widgets.panel_api.PanelContext`` for module panels.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QRadioButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from solvers.common.by_kind import stream_by_kind
from solvers.common.cancel import CancelToken
from solvers.common.display import DisplayList
from solvers.common.palette import Palette
from solvers.common.process_jobs import remote_stream
from solvers.common.protocol import (
    GAME,
    ISOLATED,
    PLAY,
    SOLVE,
    EditResult,
    ProgressFn,
    Solution,
    document_solve_options,
)
from solvers.common.report import SolveReport, report_text
from widgets.board_view import BoardArea, BoardView
from widgets.elided_label import ElidedLabel
from widgets.job_progress import JobProgress
from widgets.panel_api import SolvingPanel
from widgets.panels import create_panels
from widgets.solution_browser import SolutionBrowser
from widgets.source_panel import SourcePanel
from widgets.tool_palette import ToolPalette
from workbench import warmup
from workbench.board_input import BoardInput
from workbench.describe import describe_board
from workbench.document import Document
from workbench.document_jobs import DocumentJobs
from workbench.drawing import document_drawing
from workbench.export import export
from workbench.jobs import Job, JobManager, JobOutcome, solve_work


class DocumentView(QWidget):
    changed = Signal()  # PanelContext: puzzle or entries changed
    solution_shown = Signal()  # PanelContext: board shows another solution (or none)
    hover_changed = Signal(object)  # PanelContext: the plug-in's Hover under the pointer, or None
    status_message = Signal(str)
    title_changed = Signal()
    solve_finished = Signal(object)  # JobOutcome of the solve job (tests and screenshots wait on it)
    busy_changed = Signal(bool)  # a job started, or the last one ended (Cancel Job follows it)
    # Made by _mode_row and _side_tabs (below the class).
    mode_group: QButtonGroup
    edit_radio: QRadioButton
    play_radio: QRadioButton
    solve_panel: QWidget | None  # a panel that answers Solve itself (SolvingPanel), if any
    source_panel: SourcePanel

    def __init__(self, doc: Document, jobs: JobManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.plugin = doc.plugin
        self.jobs = jobs
        self._solution: Solution | None = None
        self._browser_has_verdict = False  # the Solutions tab holds a result or a job's words
        self._results_for: tuple[object, ...] = ()  # _solve_inputs() of the shown results
        self._results_generation = 0  # the document generation they were found for
        self._results_drawn_for: Any = None  # the puzzle their thumbnails were drawn with
        self._overlay: Any = None
        self.confirm_replace: Callable[[], bool] = lambda: True  # by the window: Open's question
        self.paste_text: Callable[[str], object] = lambda text: None  # PanelContext, by the window
        self.ask_export_path: Callable[[str, str], str] = lambda name, kinds: ""  # the same
        self._overlay_puzzle: Any = None  # the puzzle the overlay was drawn for
        self._overlay_text = ""  # what the overlay shows, for the line under the board
        self._mode = "edit"
        self._solve_limit: int | None = 2
        self._job_status = False  # the last status message was about a job or the old document

        self.board = BoardView(self._display_list)
        self.tools = ToolPalette()
        self.input = BoardInput(self)  # the board's pointer and keys, as plug-in calls
        self.board.edit_event.connect(self.input.on_edit_event)
        self.board.drag_finished.connect(self.doc.end_merge)
        self.board.hovered.connect(self.input.on_hover)
        self.board.dragged.connect(self.input.on_drag)
        self.board.drag_finished.connect(lambda: self.input.on_drag(None))
        self.board.context_actions = self.input.context_actions
        self.board.context_chosen.connect(self.input.context_chosen)
        self.tools.tool_changed.connect(self._tool_changed)
        self.browser = SolutionBrowser(self._draw_solution)
        self._prompt = self.browser.status.text()
        if GAME in self.plugin.meta.capabilities:
            self._prompt = "Press Analyse (F5) to compute the value and best line of this position."
            self.browser.status.setText(self._prompt)
        self.browser.selected.connect(self.show_solution)
        self.progress = JobProgress()
        self.progress.cancel_requested.connect(self.cancel_jobs)
        self.tasks = DocumentJobs(self, jobs, self.progress, self.busy_changed, self._job_message)
        self.info = ElidedLabel()
        self.info.setAccessibleName("Puzzle summary")
        self.info.setToolTip("What the board shows")

        self.board_area = BoardArea(self.board)
        self.side = _side_tabs(self)
        self.splitter = _lay_out(self)

        doc.changed.connect(self._doc_changed)
        doc.file_changed.connect(self.title_changed)
        self._doc_changed()
        if not warmup.is_ready(self.plugin.meta.id):
            await_warm_up(self)

    def panel(self, title: str) -> QWidget | None:
        """The module panel shown under ``title`` (unwrapped from its scroll area)."""
        for i in range(self.side.count()):
            if self.side.tabText(i) == title:
                widget = self.side.widget(i)
                return widget.widget() if isinstance(widget, QScrollArea) else widget
        return None

    # ---- PanelContext -----------------------------------------------------------------------
    def puzzle(self) -> Any:
        return self.doc.puzzle

    def entries(self) -> Any:
        return self.doc.entries

    def ui(self) -> Any:
        return self.doc.ui

    def mode(self) -> str:
        return self._mode

    def apply(self, result: EditResult) -> None:
        self.doc.apply(result)

    def replace_untitled(self, puzzle: Any, label: str, entries: Any = None) -> None:
        self.doc.replace_untitled(puzzle, label, entries)

    def may_replace(self) -> bool:
        return self.confirm_replace()

    def export(self, dl: DisplayList, path: str) -> Path:
        return export(dl, path)

    def show_solution(self, solution: Solution | None) -> None:
        self._solution = solution
        self.input.hover = None
        self.board.refresh()
        self._update_info()
        self.solution_shown.emit()

    def shown_solution(self) -> Solution | None:
        return self._solution

    def set_overlay(self, overlay: Any, describe: str = "") -> None:
        self._overlay = overlay
        self._overlay_text = describe if overlay is not None else ""
        self._overlay_puzzle = self.doc.puzzle
        self.board.refresh()
        self._update_info()

    def status(self, text: str) -> None:
        self._job_status = bool(self.busy())
        self.status_message.emit(text)

    def _job_message(self, text: str) -> None:
        """A job's final word: it describes the document as it is now, until the next change."""
        self.status_message.emit(text)
        self._job_status = True

    def describe_shown(self) -> str:
        """One line for what the board shows: the editor, a solution or preview, or a played line."""
        doc, row = self.doc, self.browser.row_shown(self._solution)
        return describe_board(
            self.plugin, doc.puzzle, doc.entries, self._mode, self._solution, self._overlay_text, row
        )

    def _update_info(self) -> None:
        text = self.describe_shown()
        self.info.setText(text)
        self.info.setToolTip(text)

    def run_job(
        self,
        title: str,
        work: Callable[[CancelToken, ProgressFn], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[str], None] | None = None,
        on_cancel: Callable[[Any], None] | None = None,
    ) -> Job:
        return self.tasks.run(title, work, on_done, on_error, on_cancel)

    # ---- drawing ----------------------------------------------------------------------------
    def _display_list(self) -> DisplayList:
        hover, drag = self.input.hover, self.input.drag_overlay
        overlay = hover.overlay if hover is not None else self._overlay
        if drag is not None:
            overlay = drag
        doc = self.doc
        return document_drawing(self.plugin, doc.puzzle, doc.entries, self._solution, overlay, doc.ui)

    def picture(self, with_solution: bool = True) -> DisplayList:
        """What Export and Copy Image draw: the board as shown, without the pointer's hover."""
        solution = self._solution if with_solution else None
        return document_drawing(self.plugin, self.doc.puzzle, self.doc.entries, solution, self._overlay)

    def _draw_solution(self, solution: Solution) -> DisplayList:
        return self.plugin.draw(self.doc.puzzle, solution)

    def set_palette(self, palette: Palette) -> None:
        self.board.set_palette(palette)
        self.browser.model.set_palette(palette)
        self.tools.set_palette(palette)

    # ---- editing ----------------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        if mode == "play" and PLAY not in self.plugin.meta.capabilities:
            return
        self._mode = mode
        self.board.mode = mode
        (self.play_radio if mode == "play" else self.edit_radio).setChecked(True)
        if mode == "play":
            self.show_solution(None)
        self._refresh_tools()
        self.board.refresh()
        self._update_info()
        self.changed.emit()

    def _tool_changed(self, tool: str) -> None:
        self.board.tool = tool

    def _refresh_tools(self) -> None:
        self.tools.set_tools(self.plugin.tools(self.doc.puzzle), self._mode)
        self.board.tool = self.tools.current

    def _doc_changed(self) -> None:
        self.input.hover = None  # it described the old puzzle
        if self._overlay is not None and self._overlay_puzzle is not self.doc.puzzle:
            # A panel's overlay (a replayed step's state) indexes the old board's cells.
            self._overlay = None
            self._overlay_text = ""
        if self._job_status:  # "Solver failed: ..." belongs to the old document
            self._job_status = False
            self.status_message.emit("")
        # Any edit invalidates solutions being searched for the old puzzle.
        solving = self.tasks.solve
        if solving is not None and not solving.done:
            solving.cancel()
            self.tasks.solve = None  # its late results belong to the old puzzle
            self._job_message("Edit cancelled the running solve")
        # A verdict with no solution listed ("No solution ...") describes the old puzzle too.
        shown = self.browser.count() or self._solution is not None or self._browser_has_verdict
        if shown and self._results_for != self._solve_inputs():
            self._solution = None
            self._browser_has_verdict = False
            game = GAME in self.plugin.meta.capabilities  # a pasted or edited puzzle is no "position"
            again = "Position changed; press Analyse" if game else "Puzzle changed; press Solve"
            new_document = self._results_generation != self.doc.generation  # not an edit
            self.browser.clear(self._prompt if new_document else f"{again} (F5) again.")
        elif shown and self.doc.puzzle != self._results_drawn_for:
            # The same answers on a puzzle drawn otherwise (Flow's look): thumbnails drawn again.
            self._results_drawn_for = self.doc.puzzle
            self.browser.model.redraw()
        self._refresh_tools()
        self._update_info()
        self.board.refresh()
        self.changed.emit()
        self.title_changed.emit()

    # ---- solving ----------------------------------------------------------------------------
    def solve(self, limit: int | None = 2) -> Job | None:
        if SOLVE not in self.plugin.meta.capabilities:
            return None
        panel = self.solve_panel
        if panel is not None:
            for i in range(self.side.count()):
                tab = self.side.widget(i)
                if tab is not None and tab.isAncestorOf(panel):
                    self.side.setCurrentIndex(i)
            if isinstance(panel, SolvingPanel):
                panel.solve_requested(limit)
            return None
        if self.tasks.solve is not None and not self.tasks.solve.done:
            self.tasks.solve.cancel()
        self._solve_limit = limit
        self.show_solution(None)
        self.browser.clear("Solving…")
        self._browser_has_verdict = True
        self._results_for = self._solve_inputs()
        self._results_generation = self.doc.generation
        self._results_drawn_for = self.doc.puzzle
        self.side.setCurrentWidget(self.browser)  # results appear where the user is looking
        options = document_solve_options(self.plugin, self.doc.entries, self.doc.ui)
        if ISOLATED in self.plugin.meta.capabilities:
            work = remote_stream(stream_by_kind, self.plugin.meta.id, self.doc.puzzle, limit, options)
        else:
            work = solve_work(self.plugin, self.doc.puzzle, limit, options)
        job = Job("Analysing" if GAME in self.plugin.meta.capabilities else "Solving", work)
        job.signals.items.connect(self._solutions_arrived)
        job.signals.finished.connect(self._solve_done)
        self.tasks.start_solve(job)
        return job

    def _solve_inputs(self) -> tuple[object, ...]:
        """What a solve's results depend on: the puzzle, the solve
        options, and for a game the position (its entries). A player's pipes in Flow's Play mode
        change none of these, so the solutions stay."""
        options = document_solve_options(self.plugin, self.doc.entries, self.doc.ui)
        position = self.doc.entries if GAME in self.plugin.meta.capabilities else None
        return (self.plugin.solve_identity(self.doc.puzzle), repr(sorted(options.items())), position)

    def _is_current(self) -> bool:
        sender = self.sender()
        solving = self.tasks.solve
        return sender is None or (solving is not None and sender is solving.signals)

    def _solutions_arrived(self, batch: list[Solution]) -> None:
        if self._is_current():  # late batches of a cancelled job are dropped
            self.browser.add(batch)

    def _solve_done(self, outcome: JobOutcome) -> None:
        self.tasks.finished()
        if not self._is_current():
            return
        value = None
        if GAME in self.plugin.meta.capabilities:
            last = self.browser.model.solutions[-1] if self.browser.model.solutions else None
            value = last.label if last is not None else ""
        report = SolveReport.of_job(
            outcome, self.browser.total, self.browser.count(), self._solve_limit, value
        )
        text = report_text(report)
        self.browser.status.setText(text)
        self._job_message(text)
        self.solve_finished.emit(outcome)

    def cancel_jobs(self, quietly: bool = False) -> None:
        """Esc: every job of this document stops and says so; ``quietly`` when it is replaced."""
        self.tasks.cancel_all(said=not quietly)

    def busy(self) -> bool:
        return self.tasks.busy()


def _lay_out(view: DocumentView) -> QSplitter:
    """Board column (mode row and tools, board, the line under it) beside the side tabs, and the
    job progress row below both."""
    view.info.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    view.info.setContentsMargins(8, 0, 8, 4)
    left = QWidget()
    left_layout = QVBoxLayout(left)
    left_layout.setContentsMargins(0, 0, 0, 0)
    left_layout.addLayout(_mode_row(view))
    left_layout.addWidget(view.board_area, 1)
    left_layout.addWidget(view.info)
    splitter = QSplitter(Qt.Orientation.Horizontal)
    splitter.addWidget(left)
    splitter.addWidget(view.side)
    splitter.setStretchFactor(0, 3)
    splitter.setStretchFactor(1, 2)
    splitter.setChildrenCollapsible(False)
    splitter.setSizes([700, 400])
    layout = QVBoxLayout(view)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(splitter, 1)
    layout.addWidget(view.progress)
    return splitter


def await_warm_up(view: DocumentView) -> None:
    """The module's kernels are still loading on the warm-up thread (``workbench.warmup``): show it
    as a job, so nobody mistakes the first, slower click for a hang."""
    kind = view.plugin.meta.id

    def work(cancel: CancelToken, _progress: ProgressFn) -> None:
        while not warmup.wait(kind, 0.05):
            cancel.raise_if_cancelled()

    def done(_result: None) -> None:
        if warmup.error(kind):
            view.status_message.emit(f"{view.plugin.meta.name}: preparing failed ({warmup.error(kind)})")

    note = " (first use only)" if warmup.first_use() else ""
    view.run_job(f"Preparing {view.plugin.meta.name}{note}", work, done)


def _mode_row(view: DocumentView) -> QHBoxLayout:
    """Edit/Play radio buttons and the module's tool palette, above the board."""
    top = QHBoxLayout()
    top.setContentsMargins(4, 4, 4, 0)
    view.mode_group = QButtonGroup(view)
    view.edit_radio = QRadioButton("Edit")
    view.play_radio = QRadioButton("Play")
    view.edit_radio.setToolTip("Edit the puzzle's givens (Ctrl+E)")
    view.play_radio.setToolTip("Solve it yourself: enter moves or marks (Ctrl+P)")
    view.mode_group.addButton(view.edit_radio, 0)
    view.mode_group.addButton(view.play_radio, 1)
    view.edit_radio.setChecked(True)
    view.mode_group.idClicked.connect(lambda i: view.set_mode("play" if i else "edit"))
    # The switch starts the first tool row and the tools wrap below it as well: beside all the rows
    # it took 127 px of each (Doves' tools wrapped into 9 rows at 800x560).
    switch = QWidget()
    row = QHBoxLayout(switch)
    row.setContentsMargins(0, 0, 10, 0)
    row.addWidget(view.edit_radio)
    row.addWidget(view.play_radio)
    switch.setVisible(PLAY in view.plugin.meta.capabilities)
    view.tools.set_lead(switch)
    top.addWidget(view.tools, 1)  # a flow layout: long tool rows wrap
    return top


def _side_tabs(view: DocumentView) -> QTabWidget:
    """The Solutions (or Analysis) list, the module's panels and the Text tab."""
    side = QTabWidget()
    side.setDocumentMode(True)
    panels = create_panels(view)
    # A panel that shows the module's analysis itself (the games) takes Solve (F5): one analysis
    # tab, not the shell's results list beside the panel's own.
    view.solve_panel = next((w for _, w in panels if isinstance(w, SolvingPanel)), None)
    if SOLVE in view.plugin.meta.capabilities and view.solve_panel is None:
        side.addTab(view.browser, "Analysis" if GAME in view.plugin.meta.capabilities else "Solutions")
    for title, widget in panels:
        _click_keeps_focus(widget)
        side.addTab(_scrollable(widget), title)
    view.source_panel = SourcePanel(view)
    side.addTab(view.source_panel, "Text")
    side.setVisible(side.count() > 0)
    return side


def _click_keeps_focus(panel: QWidget) -> None:
    """A click on a panel's button leaves the keyboard where it was (the board): "Clear pipes"
    disabled itself, so Qt moved the focus on into the generator's Width box and play keys edited
    it. Tab still reaches every button."""
    for button in panel.findChildren(QAbstractButton):
        if button.focusPolicy() == Qt.FocusPolicy.StrongFocus:
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)


def _scrollable(widget: QWidget) -> QScrollArea:
    """Wrap a module panel so a tall panel scrolls vertically. Sideways it never scrolls: the side
    column is kept at least as wide as the panel needs, and the board (which zooms) gives way."""
    area = QScrollArea()
    area.setWidget(widget)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # a click on the panel must not take the board's keys
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    needed = widget.minimumSizeHint().width() + area.verticalScrollBar().sizeHint().width()
    area.setMinimumWidth(max(260, needed))
    return area
