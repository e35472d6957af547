"""Tool palette built from a plug-in's ``tools()``: one checkable button per tool, with shortcuts."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QButtonGroup, QSizePolicy, QToolButton, QWidget

from solvers.common.palette import LIGHT, Palette
from solvers.common.protocol import Tool
from widgets.flow_layout import FlowLayout
from widgets.painter import qcolor

GLYPH_SIZE = 24  # a swatch with a label on it (three digits must stay legible)


def swatch(palette: Palette, color: str, size: int = 14, glyph: str = "") -> QIcon:
    """A dot of ``color``; with a ``glyph``, the label drawn on it as the board draws it."""
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(0, 0, 0, 0))
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setBrush(qcolor(palette, color))
    painter.setPen(qcolor(palette, "ink"))
    painter.drawEllipse(1, 1, size - 2, size - 2)
    if glyph:
        font = QFont()
        font.setBold(True)
        font.setPixelSize(round(size * (0.5 if len(glyph) < 3 else 0.38)))
        painter.setFont(font)
        painter.setPen(qcolor(palette, f"on:{color}"))
        painter.drawText(QRect(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, glyph)
    painter.end()
    return QIcon(pixmap)


def _icon(palette: Palette, tool: Tool) -> QIcon:
    assert tool.color is not None
    return swatch(palette, tool.color, GLYPH_SIZE, tool.glyph) if tool.glyph else swatch(palette, tool.color)


class ToolPalette(QWidget):
    tool_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.layout_ = FlowLayout(self)  # long rows wrap instead of needing a scrollbar
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.tools: list[Tool] = []
        self.current = ""
        self.palette_: Palette = LIGHT
        self._reserved_for: list[Tool] = []  # the tools the rows' height is kept for
        self.group.idClicked.connect(self._clicked)

    def set_tools(self, tools: list[Tool], mode: str) -> None:
        shown = [t for t in tools if t.mode in (mode, "both")]
        self._reserve_every_mode(tools)
        if [(t.id, t.label, t.color) for t in shown] == [(t.id, t.label, t.color) for t in self.tools]:
            return
        for button in self.group.buttons():
            self.group.removeButton(button)
            # Out of the layout and hidden now: deleteLater alone leaves the old row on screen (and
            # in screenshots) until the event loop runs again.
            self.layout_.removeWidget(button)
            button.hide()
            button.deleteLater()
        self.tools = shown
        for i, tool in enumerate(shown):
            button = _tool_button(tool, self.palette_)
            self.group.addButton(button, i)
            self.layout_.addWidget(button)
        if shown:
            keep = next((i for i, t in enumerate(shown) if t.id == self.current), 0)
            self.group.button(keep).setChecked(True)
            self._clicked(keep)
        else:
            self.current = ""
            self.tool_changed.emit("")

    def _reserve_every_mode(self, tools: list[Tool]) -> None:
        """The rows keep the height of the tallest mode's tools: switching Edit/Play changed the
        rows' height, and the board below moved and rescaled by 13-69 px (Doves, Flow, X-ceter-O)."""
        if tools == self._reserved_for:
            return
        self._reserved_for = list(tools)
        rows = []
        for mode in ("edit", "play"):
            sizes: list[QSize] = []
            for tool in tools:
                if tool.mode in (mode, "both"):
                    button = _tool_button(tool, self.palette_)
                    button.setParent(self)  # hidden, styled as the row's own buttons
                    sizes.append(button.sizeHint())
                    button.setParent(None)  # gone with the last reference
            rows.append(sizes)
        self.layout_.reserve(rows)

    def set_palette(self, palette: Palette) -> None:
        """Swatches follow the board palette (a dark board must not keep light swatches)."""
        self.palette_ = palette
        for i, tool in enumerate(self.tools):
            button = self.group.button(i)
            if tool.color is not None and button is not None:
                button.setIcon(_icon(palette, tool))

    def _clicked(self, index: int) -> None:
        if 0 <= index < len(self.tools):
            self.current = self.tools[index].id
            self.tool_changed.emit(self.current)

    def select(self, tool_id: str) -> bool:
        for i, tool in enumerate(self.tools):
            if tool.id == tool_id:
                self.group.button(i).setChecked(True)
                self._clicked(i)
                return True
        return False

    def select_by_shortcut(self, key: str) -> bool:
        for tool in self.tools:
            if tool.shortcut and tool.shortcut.lower() == key.lower():
                return self.select(tool.id)
        return False


def _tool_button(tool: Tool, palette: Palette) -> QToolButton:
    button = QToolButton()
    button.setCheckable(True)
    button.setAutoRaise(True)
    # The button names the tool; details in parentheses go to the tooltip (compact rows).
    button.setText(tool.label.split(" (")[0] if tool.color is None else "")
    if tool.color is not None:
        button.setIcon(_icon(palette, tool))
        side = GLYPH_SIZE if tool.glyph else 16
        button.setIconSize(QSize(side, side))
    tip = (tool.tip or tool.label) + (f" ({tool.shortcut})" if tool.shortcut else "")
    button.setToolTip(tip)
    button.setAccessibleName(tool.label)
    button.setToolButtonStyle(
        Qt.ToolButtonStyle.ToolButtonTextOnly if tool.color is None else Qt.ToolButtonStyle.ToolButtonIconOnly
    )
    return button
