"""Help -> How to play (the current module's rules with a diagram) and Keyboard and mouse."""

from __future__ import annotations

from html import escape
from typing import TypeGuard

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from solvers.common.display import DisplayList
from widgets.render import ExportOptions, render_image

DIAGRAM_SIDE = 280  # pixels on the long side
PAIR_SIDE = 240  # each of two diagrams side by side (the puzzle and its answer)


class HelpDialog(QDialog):
    """A read-only page: optional diagram on top, then rich text. Non-modal, so play can go on."""

    def __init__(
        self,
        title: str,
        html: str,
        diagram: DisplayList | None = None,
        palette: str = "light",
        parent: QWidget | None = None,
        answer: DisplayList | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.resize(560, 640)
        layout = QVBoxLayout(self)
        self.diagram = QLabel()  # the example; ``answer`` shows it solved where the module has one
        self.answer = QLabel()
        shown = [
            (label, picture, caption)
            for label, picture, caption in (
                (self.diagram, diagram, "The puzzle"),
                (self.answer, answer, "Solved"),
            )
            if _drawable(picture) and _drawable(diagram)
        ]
        pictures = QHBoxLayout()
        for label, picture, caption in shown:
            label.setPixmap(self._pixmap(picture, DIAGRAM_SIDE if len(shown) == 1 else PAIR_SIDE, palette))
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            column = QVBoxLayout()
            column.addWidget(label)
            label.setAccessibleName("Example diagram")
            if len(shown) > 1:
                label.setAccessibleName(f"Example diagram: {caption.lower()}")
                words = QLabel(caption)
                words.setAlignment(Qt.AlignmentFlag.AlignCenter)
                column.addWidget(words)
            pictures.addLayout(column)
        if shown:
            layout.addLayout(pictures)
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(False)
        self.text.setHtml(html)
        layout.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        layout.addWidget(buttons)

    def _pixmap(self, picture: DisplayList, side: int, palette: str) -> QPixmap:
        cell = picture.grid.cell if picture.grid is not None else 40.0
        size = side * cell / max(picture.width, picture.height)
        ratio = self.devicePixelRatioF()
        options = ExportOptions(cell_size=min(size * ratio, 400), margin=4, palette=palette)
        pixmap = QPixmap.fromImage(render_image(picture, options))
        pixmap.setDevicePixelRatio(ratio)
        return pixmap


def _drawable(picture: DisplayList | None) -> TypeGuard[DisplayList]:
    return picture is not None and picture.width > 0 and picture.height > 0


def rules_html(name: str, rules: str) -> str:
    paragraphs = "".join(f"<p>{escape(p.strip())}</p>" for p in rules.split("\n\n") if p.strip())
    return f"<h2>{escape(name)}</h2>{paragraphs}"


def keys_html(name: str, sections: list[tuple[str, list[tuple[str, str]]]]) -> str:
    out = [f"<h2>{escape(name)}: keyboard and mouse</h2>"]
    for heading, rows in sections:
        if not rows:
            continue
        out.append(f"<h3>{escape(heading)}</h3><table cellspacing='0' cellpadding='3'>")
        out.extend(f"<tr><td><b>{escape(key)}</b></td><td>{escape(what)}</td></tr>" for key, what in rows)
        out.append("</table>")
    return "".join(out)
