"""Nine Tiles Panic panels: live 26-theme scores with a road inspector, and "Find best towns".

Scores come from ``solvers.ninetiles`` (the same kernels as the CLI); the best-town queries read the
enumeration store and build it first (background job with progress, cancellable) when it is missing.
"""

from __future__ import annotations

import random
import sys
import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from solvers.common.job_relay import JobStatus
from solvers.common.protocol import Solution
from solvers.ninetiles.plugin import WARMUP_TOWN, NineTilesUI, road_text, town_label
from solvers.ninetiles.themes import THEME_NAMES, capture_flags, theme_values
from solvers.ninetiles.town import Town, trace_roads, validity
from widgets.solution_browser import SolutionBrowser


class KernelWarmup(QObject):
    """The numba scoring kernels, loaded (or compiled, on a fresh install: several seconds) in a
    background thread the first time a Nine Tiles view opens, never on the GUI thread. Panels show
    "preparing" until ``ready`` fires; everything else in the view works meanwhile."""

    ready = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._thread: threading.Thread | None = None
        self.error = ""

    def is_ready(self) -> bool:
        # The module may be half-imported (the warm-up thread is importing it right now).
        kernel = getattr(sys.modules.get("solvers.ninetiles.scoring"), "score_batch", None)
        return bool(getattr(kernel, "signatures", None))

    def start(self) -> None:
        if self._thread is None and not self.is_ready():
            self._thread = threading.Thread(target=self._run, name="ninetiles-kernels", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            from solvers.ninetiles.scoring import score_town

            score_town(Town.from_code(WARMUP_TOWN))
        except Exception as exc:  # reported in the panel; scoring then runs (slowly) on demand
            self.error = f"{type(exc).__name__}: {exc}"
        self.ready.emit()  # queued to the panels on the GUI thread


TOWN_TABLE = "the table of all towns"  # the enumeration store, in the words of a player
PREPARING = "Preparing the score tables (a few seconds the first time)…"
_WARMUP: KernelWarmup | None = None


def kernels() -> KernelWarmup:
    global _WARMUP
    if _WARMUP is None:
        _WARMUP = KernelWarmup()
    return _WARMUP


def score_town(town: Town) -> list[int]:
    from solvers.ninetiles.scoring import score_town as score

    return score(town)


def scored_towns(codes: list[str]) -> list[tuple[str, Town, list[int]]]:
    """Towns and their 26 scores, computed in the query's background job: scoring a page of 200
    towns (road tracing in Python) on the GUI thread froze the window."""
    towns = [(code, Town.from_code(code)) for code in codes]
    return [(code, town, score_town(town)) for code, town in towns]


def create_panels(ctx: Any) -> list[tuple[str, QWidget]]:
    return [
        ("Scores", ScoresPanel(ctx)),
        ("Best towns", BestTownsPanel(ctx)),
        ("Statistics", StatisticsPanel(ctx)),
    ]


def _store_dir(override: Path | None) -> Path:
    from solvers.ninetiles.store import default_store_dir

    return override or default_store_dir()


def store_ready(folder: Path) -> bool:
    meta = folder / "meta.json"
    try:
        return meta.is_file() and '"complete": true' in meta.read_text(encoding="utf-8")
    except OSError:
        return False


def build_command(folder: Path, given: bool) -> str:
    """The terminal alternative to building the store in the GUI (with ``--store`` when one was set)."""
    return "python -m workbench ninetiles enumerate" + (f' --store "{folder}"' if given else "")


def parts_built(folder: Path) -> int:
    """Finished parts (shards) of an interrupted build: building again goes on from them."""
    try:
        return sum(
            1 for path in (folder / "shards").glob("shard_*.npz") if not path.name.endswith(".tmp.npz")
        )
    except OSError:
        return 0


def _not_built(folder: Path) -> str:
    # QA pass 7: a resumed build was announced as "not built yet" and started its line at 0 %.
    done = parts_built(folder)
    return (
        f"which is partly built ({done} parts done; building goes on from them)"
        if done
        else "which is not built yet"
    )


def confirm_store_build(parent: QWidget, folder: Path, given: bool) -> bool:
    """Ask before the 0.6 GB, several-minute build (the queries need the complete store)."""
    answer = QMessageBox.question(
        parent,
        "Build the table of all Nine Tiles Panic towns?",
        "Best towns and the statistics read a table of all 526,070,976 towns with their scores on every "
        f"theme, {_not_built(folder)}.\n\n"
        f"Building it writes about 0.6 GB to\n{folder}\nand takes several minutes (4-6 measured on two cores, more on a busy machine; "
        "the progress line shows the time left). You can cancel and resume later.\n\n"
        f"Or build it from a terminal:\n{build_command(folder, given)}\n\nBuild it now?",
    )
    return answer == QMessageBox.StandardButton.Yes


def _open_store(folder: Path, cancel: Any, progress: Any) -> Any:
    """The store, built first (in this background job, with progress) if it is missing."""
    from solvers.ninetiles.store import Store
    from solvers.ninetiles.store_build import build

    if not store_ready(folder):
        done = parts_built(folder)
        what = (
            f"resuming the build of {TOWN_TABLE} ({done} parts done"
            if done
            else f"building {TOWN_TABLE} (first use only"
        )
        progress({"text": f"{what}, about 0.6 GB; time left follows)"})
        build(folder, cancel=cancel, progress=progress)
    return Store(folder)


def watch_cancel(job: Any, slot: Any) -> None:
    """The shell reports only results and failures to a panel; ``slot(outcome)`` (a bound method of
    a widget, so it runs on the GUI thread) sees cancellations too."""
    signals = getattr(job, "signals", None)
    if signals is not None:
        signals.finished.connect(slot)


ROAD_LEGEND = (
    "Road objects, in road order: H hamburger, Ag agent, Al alien; -L = facing back toward the "
    "road's start, -R = facing toward its end (the yellow arrow on the tile); * = alien captured."
)


def _enable_open_on_double_click(ctx: Any, open_shown: Any) -> None:
    """Solve's completions stream into the shell's browser: double-click opens one in the editor.

    The panel API has no hook for that browser, so this reaches for ``ctx.browser`` when present."""
    browser = getattr(ctx, "browser", None)
    view = getattr(browser, "view", None)
    if view is None:
        return
    view.doubleClicked.connect(lambda _index: open_shown())


class _NumberItem(QTableWidgetItem):
    """Sorts numerically (a plain item sorts "10" before "9")."""

    def __lt__(self, other: QTableWidgetItem) -> bool:
        try:
            return float(self.text().replace(",", "")) < float(other.text().replace(",", ""))
        except ValueError:
            return super().__lt__(other)


def _item(text: Any, numeric: bool = False) -> QTableWidgetItem:
    item = _NumberItem(str(text)) if numeric else QTableWidgetItem(str(text))
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    return item


class ScoresPanel(QWidget):
    """Validity, the 26 theme scores next to each theme's maximum, and the roads of the town."""

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.maxima = {t: v["max"] for t, v in theme_values().items()}
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Town validity")
        self.table = QTableWidget(26, 4)
        self.table.setHorizontalHeaderLabels(["#", "Theme", "Score", "Max"])
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        for column in (0, 2, 3):  # narrow number columns: the theme names get the rest at 1024x768
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setAccessibleName("Theme scores")
        for t in range(26):
            self.table.setItem(t, 0, _item(t + 1, True))
            self.table.setItem(t, 1, _item(THEME_NAMES[t]))
            self.table.setItem(t, 2, _item("–"))
            self.table.setItem(t, 3, _item(self.maxima[t + 1], True))
        self.roads = QListWidget()
        self.roads.setAccessibleName("Roads")
        self.roads.setMouseTracking(True)
        self.roads.itemEntered.connect(lambda item: self.roads.setCurrentItem(item))
        self.roads.currentRowChanged.connect(self._road_selected)
        self.road_detail = QLabel("Point at a road (here or on the board) to highlight it.")
        self.road_detail.setWordWrap(True)
        self.legend = QLabel(ROAD_LEGEND)
        self.legend.setWordWrap(True)
        self.legend.setAccessibleName("Road object codes")
        self.open_button = QPushButton("Open this town in the editor")
        self.open_button.setToolTip("Replace the editor's town with the previewed one (undoable)")
        self.open_button.clicked.connect(lambda: self.open_shown())
        self.open_button.setVisible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.status)
        layout.addWidget(self.open_button)
        layout.addWidget(self.table, 3)
        layout.addWidget(QLabel("Roads (objects in the order the scoring reads them):"))
        layout.addWidget(self.roads, 1)
        layout.addWidget(self.road_detail)
        layout.addWidget(self.legend)
        ctx.changed.connect(self.refresh)
        ctx.solution_shown.connect(self.refresh)
        _enable_open_on_double_click(ctx, self.open_shown)
        if hasattr(ctx, "hover_changed"):
            ctx.hover_changed.connect(self._hovered)
        self.kernels = kernels()
        self.kernels.ready.connect(self._kernels_ready)
        self.kernels.start()
        self.refresh()
        if not self.ready():  # on the status bar too (after the view is wired to the window)
            QTimer.singleShot(0, lambda: self.ctx.status(PREPARING))

    def _kernels_ready(self) -> None:
        self.refresh()
        if self.ready() and self.ctx.puzzle() is not None:
            self.ctx.status("Nine Tiles score tables ready.")

    def ready(self) -> bool:
        """False while the scoring kernels are still being prepared (the scores show "…")."""
        return self.kernels.is_ready()

    def previewed(self) -> Town | None:
        """The town of the solution shown on the board (a completion or a best town), if any."""
        shown = self.ctx.shown_solution()
        data = getattr(shown, "data", None)
        return data if isinstance(data, Town) else None

    def town(self) -> Town | None:
        """What the board shows: the previewed town, else the editor's."""
        town = self.previewed() or self.ctx.puzzle()
        return town if isinstance(town, Town) else None

    def open_shown(self) -> None:
        town = self.previewed()
        if town is None or not self.ctx.may_replace():
            return
        self.ctx.show_solution(None)
        self.ctx.replace_untitled(town, f"Open town {town.code}")

    def refresh(self) -> None:
        town = self.town()
        if town is None:
            return
        previewing = self.previewed() is not None
        self.open_button.setVisible(previewing)
        ok, reason = validity(town)
        what = "Previewed town" if previewing else "Valid town"
        self.status.setText(f"{what} {town.code}" if ok else f"Not a valid town: {reason}")
        preparing = ok and not self.ready()
        if preparing and self.kernels.error:
            self.status.setText(f"{what} {town.code}. Scores unavailable: {self.kernels.error}")
        elif preparing:
            self.status.setText(f"{what} {town.code}. {PREPARING}")
        scores = score_town(town) if ok and not preparing else None
        for t in range(26):
            item = self.table.item(t, 2)
            if item is None:  # the table is filled in __init__: every row has its score cell
                continue
            item.setText(
                "…" if preparing and not self.kernels.error else "–" if scores is None else str(scores[t])
            )
            at_max = scores is not None and scores[t] == self.maxima[t + 1]
            font = item.font()
            font.setBold(at_max)
            item.setFont(font)
        self.roads.blockSignals(True)
        self.roads.clear()
        self._roads = trace_roads(town)
        for i, road in enumerate(self._roads, start=1):
            labels = road.object_labels()
            caught = capture_flags(labels)
            objs = (
                " ".join(f"{lb}{'*' if c else ''}" for lb, c in zip(labels, caught, strict=True))
                or "no objects"
            )
            kind = " (loop)" if road.closed else (" (open end)" if road.open_ends else "")
            self.roads.addItem(QListWidgetItem(f"Road {i}{kind}: length {road.length}; {objs}"))
        self.roads.blockSignals(False)
        self.road_detail.setText(
            "Point at a road (here or on the board) to highlight it; * = captured alien."
        )
        self.ctx.set_overlay(None)

    def _road_selected(self, row: int) -> None:
        if row < 0 or row >= len(self._roads):
            self.ctx.set_overlay(None)
            return
        self.road_detail.setText(road_text(row, self._roads[row]) + " (* = captured)")
        self.ctx.set_overlay({"road": row})

    def _hovered(self, hover: Any) -> None:
        """Pointing at a road on the board selects it here too (without re-setting the overlay)."""
        row = hover.overlay.get("road", -1) if hover is not None and isinstance(hover.overlay, dict) else -1
        if 0 <= row < len(self._roads):
            self.roads.blockSignals(True)
            self.roads.setCurrentRow(row)
            self.roads.blockSignals(False)
            self.road_detail.setText(hover.text + " (* = captured)")


class BestTownsPanel(QWidget):
    """Pick three theme cards and list the optimal towns from the enumeration store."""

    LIMIT = 200

    def __init__(self, ctx: Any, parent: QWidget | None = None, store_dir: Path | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.store_dir = store_dir
        self.ask_build = confirm_store_build  # tests replace the question
        self.job: Any = None
        self.combos: list[QComboBox] = []
        row = QVBoxLayout()  # one card per line: three combos side by side overflow at 1024x768
        for default in (1, 2, 3):
            combo = QComboBox()
            for t in range(26):
                combo.addItem(f"{t + 1} {THEME_NAMES[t]}", t + 1)
            combo.setCurrentIndex(default - 1)
            # long theme names must not widen the panel past the window at 1280x800
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(6)
            combo.currentIndexChanged.connect(self._cards_changed)
            self.combos.append(combo)
            row.addWidget(combo)
        self.draw_button = QPushButton("Random draw")
        self.draw_button.clicked.connect(self.random_draw)
        self.find_button = QPushButton("Find best towns")
        self.find_button.clicked.connect(self.find_best)
        self.limit = QSpinBox()
        self.limit.setRange(1, 10_000)
        self.limit.setValue(self.LIMIT)
        self.limit.setSuffix(" per page")
        self.limit.setToolTip("How many towns Find best towns and More towns list at a time")
        buttons = QHBoxLayout()
        buttons.addWidget(self.draw_button)
        buttons.addWidget(self.limit)
        # three cards are chosen from the start: say what Find does with them
        self.summary = QLabel("Find best towns lists the towns that score most on these three cards.")
        self.summary.setWordWrap(True)
        self.results = SolutionBrowser(lambda sol: ctx.plugin.draw(sol.data, sol))
        self._themes: tuple[int, int, int] = self.themes()
        self.results.status.setText("Optimal towns appear here (select one to preview it on the board).")
        self.results.selected.connect(self._preview)
        self.results.view.doubleClicked.connect(lambda _index: self.open_current())
        self.open_button = QPushButton("Open in editor")
        self.open_button.setToolTip("Open the selected town on the board (double-click does the same)")
        self.open_button.setEnabled(False)  # until a town is selected
        self.open_button.clicked.connect(self.open_current)
        self.more_button = QPushButton("More towns")
        self.more_button.setEnabled(False)
        self.more_button.clicked.connect(self.more)
        self._vids: list[int] = []
        self._shown = 0
        self._total = 0

        cards = QGroupBox("Theme cards")
        cards_layout = QVBoxLayout(cards)
        cards_layout.addLayout(row)
        cards_layout.addLayout(buttons)
        cards_layout.addWidget(self.find_button)  # own row: the panel must fit 1024x768
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(cards)
        layout.addWidget(self.summary)
        layout.addWidget(self.results, 2)
        result_buttons = QHBoxLayout()
        result_buttons.addWidget(self.more_button)
        result_buttons.addWidget(self.open_button)
        layout.addLayout(result_buttons)
        if hasattr(ctx, "changed"):
            ctx.changed.connect(self._cards_changed)
        self._cards_changed()

    def themes(self) -> tuple[int, int, int]:
        a, b, c = (int(combo.currentData()) for combo in self.combos)
        return a, b, c

    def _cards_changed(self) -> None:
        """Solve's completions are captioned with the scores on these cards too: they go into the
        document's UI state (a new or opened document starts a fresh one, hence ``changed``)."""
        themes = self.themes()
        ui = self.ctx.ui() if hasattr(self.ctx, "ui") else None
        if isinstance(ui, NineTilesUI) and len(set(themes)) == 3 and ui.card_themes != themes:
            ui.card_themes = themes

    def random_draw(self) -> None:
        for combo, t in zip(self.combos, random.sample(range(1, 27), 3), strict=True):
            combo.setCurrentIndex(t - 1)

    # ---- queries ---------------------------------------------------------------------------------
    def _folder(self) -> Path:
        return _store_dir(self.store_dir)

    def find_best(self) -> None:
        themes = self.themes()
        if len(set(themes)) != 3:
            self.summary.setText("Pick three different theme cards.")
            return
        folder = self._folder()
        limit = self.limit.value()

        def work(cancel: Any, progress: Any) -> dict[str, Any]:
            store = _open_store(folder, cancel, progress)
            result = store.best(themes, limit=limit)
            result["vids"] = [int(v) for v in store.best_vectors(themes)[2]]
            result["scored"] = scored_towns(result["towns"])
            return result

        if not store_ready(folder) and not self.ask_build(self, folder, self.store_dir is not None):
            self.summary.setText(
                f"{TOWN_TABLE.capitalize()} is not built yet. Build it here (press Find again) or in a terminal: "
                f"{build_command(folder, self.store_dir is not None)}"
            )
            return
        self.find_button.setEnabled(False)
        self.summary.setText("Searching…")
        self.job = self.ctx.run_job("Best Nine Tiles Panic towns", work, self.show_result, self.show_error)
        watch_cancel(self.job, self._finished)

    def _finished(self, outcome: Any) -> None:
        if outcome.status == JobStatus.CANCELLED:
            self.find_button.setEnabled(True)
            self.more_button.setEnabled(self._shown < self._total)
            self.summary.setText(
                "Cancelled."
                + (
                    f" Building {TOWN_TABLE} resumes where it stopped."
                    if not store_ready(self._folder())
                    else ""
                )
            )

    def show_error(self, message: str) -> None:
        self.find_button.setEnabled(True)
        self.more_button.setEnabled(self._shown < self._total)
        self.summary.setText(f"Failed: {message}")

    def show_result(self, result: dict[str, Any]) -> None:
        self.find_button.setEnabled(True)
        names = ", ".join(THEME_NAMES[t - 1] for t in result["themes"])
        self.summary.setText(
            f"{names}: {result['at_max']} of 3 themes at their maximum; {DISTANCE_WORDS} "
            f"{result['distance']}. {result['town_count']:,} best towns with "
            f"{result['score_vector_count']:,} different score combinations."
        )
        vectors = result["score_vectors"]
        best = (
            ", ".join(f"{THEME_NAMES[t - 1]} {vectors[0][t - 1]}" for t in result["themes"])
            if vectors and len(vectors[0]) >= 26
            else "-"
        )
        self.results.clear(f"Best scores: {best}. Select a town to preview it; double-click opens it.")
        self.open_button.setEnabled(False)
        self._vids = result["vids"]
        self._themes = tuple(result["themes"])  # type: ignore[assignment]
        self._total = result["town_count"]
        self._shown = 0
        self._add_towns(result["scored"])

    def _add_towns(self, scored: list[tuple[str, Town, list[int]]]) -> None:
        batch = [
            Solution(
                grid=town.readable().split("\n"),
                extras={"code": code},
                data=town,
                label=town_label(code, scores, self._themes),
            )
            for code, town, scores in scored
        ]
        self.results.add(batch)
        self._shown += len(scored)
        self.more_button.setEnabled(self._shown < self._total)
        self.more_button.setText(f"More ({self._shown:,} of {self._total:,})")

    def more(self) -> None:
        folder, vids, offset, page = self._folder(), list(self._vids), self._shown, self.limit.value()

        def work(cancel: Any, progress: Any) -> list[tuple[str, Town, list[int]]]:
            from solvers.ninetiles.store import Store

            return scored_towns([code for code, _ in Store(folder).towns_of_vectors(vids, offset, page)])

        self.more_button.setEnabled(False)
        self.job = self.ctx.run_job("More Nine Tiles Panic towns", work, self._add_towns, self.show_error)
        watch_cancel(self.job, self._finished)

    def _preview(self, solution: Solution | None) -> None:
        self.open_button.setEnabled(solution is not None)
        self.ctx.show_solution(solution)

    def open_current(self) -> None:
        index = self.results.view.currentIndex()
        if not index.isValid():
            return
        town = self.results.model.solutions[index.row()].data
        if not self.ctx.may_replace():
            return
        self.ctx.show_solution(None)
        self.ctx.replace_untitled(town, f"Open best town {town.code}")


def _names(themes: Any) -> str:
    """Theme numbers (1..26) as their card names."""
    return ", ".join(THEME_NAMES[int(t) - 1] for t in themes)


# What the store's "distance" is (solvers/ninetiles/store.py), in a user's words.
DISTANCE_WORDS = (
    "distance from the best possible (the sum over the three themes of (how many higher scores "
    "that theme can have) squared; 0 = every theme at its maximum)"
)


class HistogramChart(QWidget):
    """Bars of towns per score value for one theme (log-scaled heights: counts span 1..5e8)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data: list[tuple[int, int]] = []
        self.title = ""
        self.setMinimumHeight(180)
        self.setAccessibleName("Score histogram")

    def set_data(self, title: str, histogram: dict[str, int]) -> None:
        self.title = title
        self.data = sorted((int(v), int(n)) for v, n in histogram.items())
        self.update()

    def bars(self) -> list[tuple[int, int, QRectF]]:
        """(score, towns, bar rectangle) per score value, log-scaled heights (counts span 1..5e8)."""
        from math import log10

        if not self.data:
            return []
        w, h = self.width(), self.height()
        top, bottom = 30, h - 22
        top_value = max(log10(n + 1) for _, n in self.data) or 1.0
        slot = (w - 12) / len(self.data)
        out = []
        for i, (value, n) in enumerate(self.data):
            bar = (bottom - top) * log10(n + 1) / top_value
            out.append((value, n, QRectF(6 + i * slot + slot * 0.12, bottom - bar, slot * 0.76, bar)))
        return out

    def paintEvent(self, event: Any) -> None:  # noqa: N802 (Qt API)
        from PySide6.QtGui import QColor, QPainter

        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        ink = pal.text().color()
        painter.setPen(ink)
        painter.drawText(6, 16, self.title or "No statistics loaded")
        fm = painter.fontMetrics()
        bottom = self.height() - 22
        for value, n, rect in self.bars():
            slot = rect.width() / 0.76
            x = rect.x() - slot * 0.12
            painter.fillRect(rect, QColor("#5b8def"))
            painter.setPen(ink)
            painter.drawText(int(x), bottom + 2, int(slot), 18, Qt.AlignmentFlag.AlignHCenter, str(value))
            _count_label(painter, fm, f"{n:,}", rect, slot, ink)
        painter.end()

    def event(self, event: Any) -> bool:
        """Tooltip: the exact count of the bar under the pointer (labels may not fit)."""
        from PySide6.QtCore import QEvent
        from PySide6.QtWidgets import QToolTip

        if event.type() == QEvent.Type.ToolTip:
            pos = event.pos()
            for value, n, rect in self.bars():
                if rect.left() - 2 <= pos.x() <= rect.right() + 2:
                    QToolTip.showText(event.globalPos(), f"score {value}: {n:,} towns", self)
                    return True
            QToolTip.hideText()
            return True
        return super().event(event)


def _count_label(painter: Any, fm: Any, text: str, rect: QRectF, slot: float, ink: Any) -> None:
    """A count with thousands separators: level above the bar when it fits the slot, else written
    upwards inside the bar (white) or above it; left out when even that would overlap (tooltip)."""
    from PySide6.QtGui import QColor

    width, height = fm.horizontalAdvance(text), fm.height()
    cx = rect.center().x()
    if width <= slot - 2:
        painter.setPen(ink)
        painter.drawText(
            QRectF(cx - slot / 2, rect.top() - height - 1, slot, height), Qt.AlignmentFlag.AlignHCenter, text
        )
        return
    if slot < height:
        return  # too narrow even for upright text: the tooltip has it
    if rect.height() >= width + 6:
        painter.setPen(QColor("white"))
        start = rect.bottom() - 3
    elif rect.top() - 30 >= width + 3:
        painter.setPen(ink)
        start = rect.top() - 3
    else:
        return
    painter.save()
    painter.translate(cx + fm.ascent() / 2 - 1, start)
    painter.rotate(-90)
    painter.drawText(0, 0, text)
    painter.restore()


class StatisticsPanel(QWidget):
    """Per-theme score histograms and the sortable table of theme sets that have a perfect town."""

    def __init__(self, ctx: Any, parent: QWidget | None = None, store_dir: Path | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.store_dir = store_dir
        self.ask_build = confirm_store_build  # tests replace the question
        self.stats: dict[str, Any] | None = None
        self.job: Any = None
        self.load_button = QPushButton("Load statistics")
        self.load_button.clicked.connect(self.load)
        self.theme = QComboBox()
        for t in range(26):
            self.theme.addItem(f"{t + 1} {THEME_NAMES[t]}", t + 1)
        self.theme.currentIndexChanged.connect(self._show_theme)
        self.summary = QLabel(f"Statistics over every possible town come from {TOWN_TABLE}.")
        self.summary.setWordWrap(True)
        self.chart = HistogramChart()
        self.perfect = QTableWidget(0, 2)
        self.perfect.setHorizontalHeaderLabels(["Themes all at their maximum", "Towns"])
        self.perfect.verticalHeader().setVisible(False)
        self.perfect.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.perfect.setSortingEnabled(True)
        self.perfect.setAccessibleName("Perfect theme sets")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        row = QHBoxLayout()
        row.addWidget(self.load_button)
        row.addWidget(self.theme, 1)
        layout.addLayout(row)
        layout.addWidget(self.summary)
        layout.addWidget(self.chart, 1)
        layout.addWidget(QLabel("Theme sets with a perfect town (click a header to sort):"))
        layout.addWidget(self.perfect, 1)

    def load(self) -> None:
        folder = _store_dir(self.store_dir)

        def work(cancel: Any, progress: Any) -> dict[str, Any]:
            return _open_store(folder, cancel, progress).stats()

        if not store_ready(folder) and not self.ask_build(self, folder, self.store_dir is not None):
            self.summary.setText(
                f"{TOWN_TABLE.capitalize()} is not built yet. Build it here (press Load again) or in a terminal: "
                f"{build_command(folder, self.store_dir is not None)}"
            )
            return
        self.load_button.setEnabled(False)
        self.summary.setText("Loading statistics…")
        self.job = self.ctx.run_job("Nine Tiles Panic statistics", work, self.show_stats, self._error)
        watch_cancel(self.job, self._finished)

    def _finished(self, outcome: Any) -> None:
        if outcome.status == JobStatus.CANCELLED:
            self.load_button.setEnabled(True)
            self.summary.setText("Cancelled.")

    def _error(self, message: str) -> None:
        self.load_button.setEnabled(True)
        self.summary.setText(f"Failed: {message}")

    def show_stats(self, stats: dict[str, Any]) -> None:
        self.load_button.setEnabled(True)
        self.stats = stats
        most = stats["max_themes_at_max"]
        closest = stats["closest_to_all_max"]
        self.summary.setText(
            f"{stats['towns']:,} towns ({stats['synonym_towns']:,} different road layouts, turns of the whole "
            f"town not counted), {stats['score_vectors']:,} different combinations of the 26 theme scores; "
            f"{len(stats['perfect_theme_sets'])} theme sets "
            f"have a perfect town; at most {most['count']} themes at maximum at once ({_names(most['themes'])}); "
            f"closest town to every theme at maximum: {closest['towns'][0] if closest['towns'] else '-'} "
            f"(distance {closest['distance']}: the sum over the 26 themes of (how many higher scores the "
            "theme can have) squared)."
        )
        sets = stats["perfect_theme_sets"]
        self.perfect.setSortingEnabled(False)
        self.perfect.setRowCount(len(sets))
        for r, (key, n) in enumerate(sets.items()):
            self.perfect.setItem(r, 0, _item(_names(int(t) for t in key.split(","))))
            self.perfect.setItem(r, 1, _item(f"{n:,}", True))
        self.perfect.setSortingEnabled(True)
        self.perfect.sortItems(1, Qt.SortOrder.DescendingOrder)
        self._show_theme()

    def _show_theme(self) -> None:
        if self.stats is None:
            return
        t = int(self.theme.currentData())
        self.chart.set_data(
            f"{THEME_NAMES[t - 1]}: towns per score (logarithmic height)", self.stats["histograms"][str(t)]
        )
