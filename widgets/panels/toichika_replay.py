"""Toichika's step replay: the explanation's step list with First/Previous/Next/Last, Back to the
board and Export step. Each row draws the candidates after that step on the board through the
overlay (cells the step used in the highlight colour, its conclusions outlined)."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QToolButton,
    QWidget,
)

from solvers.common.errors import InputError
from solvers.toichika.explain import Explanation, step_overlay
from solvers.toichika.techniques import BY_ID
from widgets.fonts import optional_text
from widgets.text_well import TextWell


class StepReplay(QObject):
    """Owns the replay's widgets and state; the panel lays the widgets out.

    ``detail`` is the panel's text line under the list (a hint writes there too); ``on_cleared``
    gives the board back to the panel's own overlay once no step is shown."""

    def __init__(self, ctx: Any, detail: QLabel, on_cleared: Callable[[], None], owner: QWidget) -> None:
        super().__init__(owner)
        self.ctx = ctx
        self.detail = detail
        self.owner = owner
        self.on_cleared = on_cleared
        self.explanation: Explanation | None = None
        self.steps = StepList()
        self.steps.setAccessibleName("Explanation steps")
        self.steps.setWordWrap(True)  # long step texts wrap instead of scrolling sideways
        self.steps.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Rows are measured for the width at layout time: the vertical scroll bar arriving later
        # narrowed the list and left some rows cut off until a navigation re-laid them out. A
        # constant width and a re-layout on every resize keep every row whole.
        self.steps.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.steps.setResizeMode(QListView.ResizeMode.Adjust)
        self.steps.currentRowChanged.connect(self._show_row)

        # Short labels so the row fits the side panel at 1024 px wide; tooltips say what they do.
        self.first_button = _glyph_button("|<", "First step")
        self.back_button = _glyph_button("<", "Previous step")
        self.forward_button = _glyph_button(">", "Next step")
        self.last_button = _glyph_button(">|", "Last step")
        self.first_button.clicked.connect(lambda: self.go(0))
        self.back_button.clicked.connect(lambda: self.go(self.steps.currentRow() - 1))
        self.forward_button.clicked.connect(lambda: self.go(self.steps.currentRow() + 1))
        self.last_button.clicked.connect(lambda: self.go(self.steps.count() - 1))
        self.clear_button = QPushButton("Back to the board")
        self.clear_button.clicked.connect(self.clear)
        self.export_button = QPushButton("Export step…")
        self.export_button.setToolTip("Save the board as shown at this step (PNG, SVG or PDF)")
        self.export_button.clicked.connect(lambda: self.export_step())

    def nav_row(self) -> QHBoxLayout:
        nav = QHBoxLayout()
        for button in (self.first_button, self.back_button, self.forward_button, self.last_button):
            nav.addWidget(button)
        return nav

    def reset(self) -> None:
        """No explanation (a new puzzle): the list empties at once."""
        self.explanation = None
        self.steps.clear()

    def show_explanation(self, ex: Explanation) -> None:
        self.explanation = ex
        self.steps.blockSignals(True)
        self.steps.clear()
        self.steps.addItem(QListWidgetItem("0. Start: givens only"))
        for k, step in enumerate(ex.steps, start=1):
            tech = BY_ID[step.rule]
            # The row says what the step concludes, then its technique; why, and the technique's
            # Japanese name, are in the text below the list and the tooltip (whole texts made rows
            # of 4-5 lines: 2 steps in view at 1024x768, QA pass 7).
            item = QListWidgetItem(f"{k}. {step_headline(step.text)} — {tech.name}")
            item.setToolTip(step.text)
            self.steps.addItem(item)
        self.steps.blockSignals(False)
        self.update_buttons()

    def replaying(self) -> bool:
        """A step is shown: it owns the board's overlay."""
        return self.steps.currentRow() >= 0

    def go(self, row: int) -> None:
        if self.steps.count():
            self.steps.setCurrentRow(max(0, min(row, self.steps.count() - 1)))

    def _show_row(self, row: int) -> None:
        ex = self.explanation
        if ex is None or row < 0:
            self.detail.setText("")
            return
        overlay = step_overlay(ex, row)
        if row > 0:
            step = ex.steps[row - 1]
            tech = BY_ID[step.rule]
            self.detail.setText(f"<b>{esc(tech.name)}</b>{japanese_suffix(tech.name_ja)}<br>{esc(step.text)}")
        else:
            self.detail.setText("The candidates before any deduction.")
        what = f"after step {row} of {len(ex.steps)}" if row else "before any step"
        self.ctx.set_overlay(
            overlay, describe=f"Replaying the explanation: the candidates {what} (Back to the board returns)"
        )
        self.update_buttons()

    def clear(self) -> None:
        """Back to the board: no step shown."""
        self.steps.setCurrentRow(-1)
        self.detail.setText("")
        self.ctx.set_overlay(None)
        self.on_cleared()
        self.update_buttons()

    def export_step(self, path: str | None = None) -> Path | None:
        """Write the board as shown at the current step (for teaching material)."""
        ex, row = self.explanation, self.steps.currentRow()
        if ex is None or row < 0:
            self.ctx.status("Pick a step first")
            return None
        if path is None:
            path = self.ctx.ask_export_path(f"toichika-step-{row}.png", "Images (*.png *.svg *.pdf)")
            if not path:
                return None
        try:
            target = self.ctx.export(self.ctx.plugin.draw(ex.puzzle, overlay=step_overlay(ex, row)), path)
        except InputError as exc:
            self.ctx.status(f"Export failed: {exc}")
            return None
        self.ctx.status(f"Exported step {row} to {target}")
        return target

    def update_buttons(self) -> None:
        row, count = self.steps.currentRow(), self.steps.count()
        self.first_button.setEnabled(count > 0 and row != 0)
        self.back_button.setEnabled(row > 0)
        self.forward_button.setEnabled(count > 0 and row < count - 1)
        self.last_button.setEnabled(count > 0 and row != count - 1)
        self.export_button.setEnabled(self.explanation is not None and row >= 0)
        # QA: it stayed enabled with the board already shown; a hint's text and marks count too
        self.clear_button.setEnabled(row >= 0 or bool(self.detail.text()))


def step_headline(text: str) -> str:
    """A step's conclusion without its reason: "R1C3 cannot point ↑ or ←: every cell that way is
    ..." gives "R1C3 cannot point ↑ or ←"; a text with no such break stays whole."""
    head, colon, _reason = text.partition(": ")
    return head if colon and len(head) <= 60 else text


class StepList(QListWidget):
    """The list takes the panel's spare height; it asks for a few lines only (Qt's default is 192
    px), so the panel fits 1024x768 without scrolling beside the step text's room.

    The step text (``dock``) sits inside the list's frame, at its bottom, while it has a text: with
    no step or hint shown, its room goes to the rows (an empty box of 80-90 px stayed under a list
    of two steps), and the list's edges, and the buttons below, never move."""

    def __init__(self) -> None:
        super().__init__()
        self.well: TextWell | None = None
        self._rule = QFrame(self)  # a line between the rows and the step text
        self._rule.setFrameShape(QFrame.Shape.HLine)
        self._rule.setFrameShadow(QFrame.Shadow.Sunken)

    def dock(self, well: TextWell) -> None:
        self.well = well
        well.setParent(self)
        # Under the rows' viewport: without a text the viewport reaches down over it and hides it
        # (a hidden well would not lay its text out, and the text's first showing would move it).
        well.stackUnder(self.viewport())
        self._rule.stackUnder(self.viewport())
        well.show()
        well.text_changed.connect(lambda _text: self._place_well())
        self._place_well()

    def _room(self) -> int:
        return 0 if self.well is None else self.well.height() + WELL_GAP

    def _place_well(self) -> None:
        well = self.well
        if well is None:
            return
        shown = bool(well.label.text())
        self.setViewportMargins(0, 0, 0, self._room() if shown else 0)
        frame = self.frameWidth()
        bar = self.verticalScrollBar().sizeHint().width()
        width = self.width() - 2 * frame - bar
        well.setGeometry(frame + 4, self.height() - frame - well.height(), width - 8, well.height())
        self._rule.setGeometry(frame, well.y() - WELL_GAP, width, WELL_GAP)
        if shown and self.currentItem() is not None:
            self.scrollToItem(self.currentItem())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self._place_well()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        hint = super().sizeHint()
        return QSize(
            hint.width(), min(hint.height(), LIST_LINES * self.fontMetrics().lineSpacing()) + self._room()
        )

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        hint = super().minimumSizeHint()
        return QSize(hint.width(), hint.height() + self._room())


LIST_LINES = 8
WELL_GAP = 4  # between the last row shown and the step text


def esc(text: str) -> str:
    """Step texts hold "<" and ">" arrows: the rich-text label would swallow them as tags."""
    return html.escape(str(text), quote=False)


def _glyph_button(text: str, tip: str) -> QToolButton:
    """A compact button: a push button's style minimum (80 px) made four of them overflow at 1024x768."""
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    button.setMinimumWidth(40)
    return button


def japanese_suffix(name_ja: str) -> str:
    """The technique's Japanese name after a middle dot where a font draws it, else "" (escaped)."""
    ja = _japanese(name_ja)
    return f" · {esc(ja)}" if ja else ""


@functools.cache
def _japanese(name: str) -> str:
    """The technique's Japanese name where a font can draw it, else "" (never empty boxes)."""
    return optional_text(name)
