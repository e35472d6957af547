"""Tool palette built from a plug-in's ``tools()``: one checkable button per tool, with shortcuts."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QColor, QFont, QIcon, QKeyEvent, QPainter, QShowEvent
from PySide6.QtWidgets import QButtonGroup, QMenu, QSizePolicy, QToolButton, QWidget

from solvers.common.palette import LIGHT, Palette
from solvers.common.protocol import Tool
from widgets.flow_layout import FlowLayout
from widgets.hidpi import sharp_pixmap
from widgets.painter import qcolor
from widgets.tool_keys import ARROWS, neighbour

GLYPH_SIZE = 24  # a swatch with a label on it (three digits must stay legible)
# The tool rows take at most this share of the board column's height (but two rows always): at
# 800x560 Doves' set-up tools took 9 rows and left the board 147x216 px; the rest wait in "More".
ROWS_SHARE = 8
MORE = "More"


def swatch(palette: Palette, color: str, size: int = 14, glyph: str = "") -> QIcon:
    """A dot of ``color``; with a ``glyph``, the label drawn on it as the board draws it."""
    pixmap = sharp_pixmap(size, size)  # a ratio-1 dot was blurred at 200 % (QA pass 9)
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
        self._watched: QWidget | None = None  # the board column whose height sets the row limit
        # The tools that do not fit in the rows wait in its menu; it shows the current one of them.
        self.more = QToolButton(self)
        self.more.setAutoRaise(True)
        self.more.setCheckable(True)  # checked while the current tool is one of its menu's
        self.more.setAccessibleName("More tools")
        self.menu = QMenu(self.more)
        self.menu.setToolTipsVisible(True)
        self.more.clicked.connect(self._open_menu)
        self._probe = QToolButton(self)  # measures the "More" button as it shows a tool
        self._probe.hide()
        self._more_plain = QSize()  # the "More" button's size showing "More"
        self._waiting: list[int] = []  # indices of the tools in the menu
        self._more_widths: list[int] = []  # the "More" button's width while it shows each tool
        self.layout_.set_overflow(self.more, self._more_size, self._split)
        self._dress_more()
        self.group.idClicked.connect(self._clicked)

    def set_lead(self, widget: QWidget) -> None:
        """``widget`` (the Edit/Play switch) starts the first row; tools wrap below it too."""
        self.layout_.insert_first(widget)
        self.layout_.keep = 1

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
        self._split([])  # the old tools' menu goes with them
        _dress(self._probe, None, self.palette_, menu=True)
        self._more_plain, self._more_widths = self._probe.sizeHint(), []
        for i, tool in enumerate(shown):
            button = _tool_button(tool, self.palette_)
            button.installEventFilter(self)  # arrow keys (``tool_keys``)
            self.group.addButton(button, i)
            self.layout_.addWidget(button)
            _dress(self._probe, tool, self.palette_, menu=True)
            self._more_widths.append(self._probe.sizeHint().width())
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

    # ---- the tools that do not fit: a "More" menu ------------------------------------------------
    def _more_size(self, waiting: list[QWidget]) -> QSize:
        """The "More" button's size while these buttons wait in its menu: as wide as it gets when
        it shows any of them, so choosing one never moves the others."""
        size = self._more_plain
        indices = [self.group.id(b) for b in waiting if isinstance(b, QToolButton)]
        widths = [self._more_widths[i] for i in indices if 0 <= i < len(self._more_widths)]
        return QSize(max([size.width()] + widths), size.height())

    def _split(self, waiting: list[QWidget]) -> None:
        """The layout moved buttons into (or out of) the menu: the menu lists them, in order."""
        self._waiting = [i for b in waiting if isinstance(b, QToolButton) and (i := self.group.id(b)) >= 0]
        menu = self.menu
        menu.clear()
        actions = QActionGroup(menu)
        for i in self._waiting:
            tool = self.tools[i]
            text = tool.label + (f"\t{tool.shortcut}" if tool.shortcut else "")
            action = QAction(_icon(self.palette_, tool) if tool.color else QIcon(), text, menu)
            action.setCheckable(True)
            action.setChecked(tool.id == self.current)
            action.setToolTip(tool.tip or tool.label)
            action.triggered.connect(lambda _checked=False, tool_id=tool.id: self.select(tool_id))
            actions.addAction(action)
            menu.addAction(action)
        self._dress_more()

    def _open_menu(self) -> None:
        self._dress_more()  # a click does not choose a tool: the button's look stays the current tool's
        self.menu.popup(self.more.mapToGlobal(self.more.rect().bottomLeft()))

    def _dress_more(self) -> None:
        """The "More" button names the current tool when it is one of its menu's, and looks chosen then."""
        index = next((i for i in self._waiting if self.tools[i].id == self.current), None)
        tool = None if index is None else self.tools[index]
        _dress(self.more, tool, self.palette_, menu=True)
        self.more.setChecked(tool is not None)
        names = ", ".join(self.tools[i].label.split(" (")[0] for i in self._waiting)
        self.more.setToolTip(
            f"More tools: {names}" if tool is None else f"{tool.tip or tool.label}; more tools: {names}"
        )
        for action in self.menu.actions():
            action.setChecked(tool is not None and action.text().split("\t")[0] == tool.label)

    def _row_limit(self) -> int:
        column = self._watched.height() if self._watched is not None else 0
        pitch = max([21] + [b.sizeHint().height() for b in self.group.buttons()]) + 2
        return max(2, column // ROWS_SHARE // pitch)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt API)
        column = self.parentWidget()
        if self._watched is None and column is not None:
            self._watched = column
            column.installEventFilter(self)
            self._update_row_limit()
        super().showEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if watched is self._watched and event.type() == QEvent.Type.Resize:
            self._update_row_limit()
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.key() in ARROWS and watched in self.group.buttons():
                shown = [b for b in self.group.buttons() if b.isVisibleTo(self)]
                target = neighbour(shown, watched, event.key())  # type: ignore[arg-type]
                if target is not None:
                    target.setFocus(Qt.FocusReason.TabFocusReason)
                    target.setChecked(True)
                    self._clicked(self.group.id(target))
                return True  # at the edge nothing moves (Qt's own rules would jump)
        return False

    def _update_row_limit(self) -> None:
        limit = self._row_limit()
        if limit != self.layout_.max_rows:
            self.layout_.max_rows = limit
            self.layout_.invalidate()
            self.updateGeometry()

    def set_palette(self, palette: Palette) -> None:
        """Swatches follow the board palette (a dark board must not keep light swatches)."""
        self.palette_ = palette
        for i, tool in enumerate(self.tools):
            button = self.group.button(i)
            if tool.color is not None and button is not None:
                button.setIcon(_icon(palette, tool))
        self._split([self.group.button(i) for i in self._waiting])

    def _clicked(self, index: int) -> None:
        if 0 <= index < len(self.tools):
            self.current = self.tools[index].id
            self._dress_more()
            self.tool_changed.emit(self.current)

    def select(self, tool_id: str) -> bool:
        for i, tool in enumerate(self.tools):
            if tool.id == tool_id:
                self.group.button(i).setChecked(True)
                self._clicked(i)
                return True
        return False

    def select_by_shortcut(self, key: str) -> bool:
        """Select the tool whose shortcut ``key`` is. Case counts where a module tells the cases
        apart (Tokyo Doves: "b" is the green Boss, "Shift+B", typed "B", the red one); otherwise
        either case does ("v" or "V" for a tool on V)."""
        typed = {key, f"Shift+{key}"} if len(key) == 1 and key.isupper() else {key}
        exact = next((tool for tool in self.tools if tool.shortcut in typed), None)
        loose = (tool for tool in self.tools if tool.shortcut and tool.shortcut.lower() == key.lower())
        tool = exact or next(loose, None)
        return tool is not None and self.select(tool.id)


def _tool_button(tool: Tool, palette: Palette) -> QToolButton:
    button = QToolButton()
    button.setCheckable(True)
    button.setAutoRaise(True)
    _dress(button, tool, palette)
    tip = (tool.tip or tool.label) + (f" ({tool.shortcut})" if tool.shortcut else "")
    button.setToolTip(tip)
    button.setAccessibleName(tool.label)
    return button


def _dress(button: QToolButton, tool: Tool | None, palette: Palette, menu: bool = False) -> None:
    """The button shows ``tool`` (no tool: "More"); a "More" button shows it with an arrow."""
    # The button names the tool; details in parentheses go to the tooltip (compact rows).
    text = MORE if tool is None else tool.label.split(" (")[0] if tool.color is None else ""
    button.setText(text + (" \N{BLACK DOWN-POINTING SMALL TRIANGLE}" if menu else ""))
    if tool is not None and tool.color is not None:
        button.setIcon(_icon(palette, tool))
        side = GLYPH_SIZE if tool.glyph else 16
        button.setIconSize(QSize(side, side))
    else:
        button.setIcon(QIcon())
    swatch = tool is not None and tool.color is not None
    button.setToolButtonStyle(
        (Qt.ToolButtonStyle.ToolButtonTextBesideIcon if menu else Qt.ToolButtonStyle.ToolButtonIconOnly)
        if swatch
        else Qt.ToolButtonStyle.ToolButtonTextOnly
    )
