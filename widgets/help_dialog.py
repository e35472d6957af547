"""Help -> How to play (the current module's rules with a diagram) and Keyboard and mouse."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout, QWidget

from solvers.common.display import DisplayList
from widgets.render import ExportOptions, render_image

DIAGRAM_SIDE = 280  # pixels on the long side


class HelpDialog(QDialog):
    """A read-only page: optional diagram on top, then rich text. Non-modal, so play can go on."""

    def __init__(
        self,
        title: str,
        html: str,
        diagram: DisplayList | None = None,
        palette: str = "light",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.resize(560, 640)
        layout = QVBoxLayout(self)
        self.diagram = QLabel()
        self.diagram.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.diagram.setAccessibleName("Example diagram")
        if diagram is not None and diagram.width > 0 and diagram.height > 0:
            cell = diagram.grid.cell if diagram.grid is not None else 40.0
            size = DIAGRAM_SIDE * cell / max(diagram.width, diagram.height)
            ratio = self.devicePixelRatioF()
            image = render_image(
                diagram, ExportOptions(cell_size=min(size * ratio, 400), margin=4, palette=palette)
            )
            pixmap = QPixmap.fromImage(image)
            pixmap.setDevicePixelRatio(ratio)
            self.diagram.setPixmap(pixmap)
            layout.addWidget(self.diagram)
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(False)
        self.text.setHtml(html)
        layout.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        layout.addWidget(buttons)


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
