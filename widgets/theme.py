"""The window's colour scheme: light, dark, or following the system, for every widget at once.

The board palette (``solvers.common.palette``) follows the same choice, so a dark window never
shows a white board or white lists.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

SCHEMES = ("system", "light", "dark")

_DARK = {
    QPalette.ColorRole.Window: "#2b2d31",
    QPalette.ColorRole.WindowText: "#e8e8ec",
    QPalette.ColorRole.Base: "#1e1f24",
    QPalette.ColorRole.AlternateBase: "#26282d",
    QPalette.ColorRole.ToolTipBase: "#1e1f24",
    QPalette.ColorRole.ToolTipText: "#e8e8ec",
    QPalette.ColorRole.PlaceholderText: "#8b9099",
    QPalette.ColorRole.Text: "#e8e8ec",
    QPalette.ColorRole.Button: "#34363c",
    QPalette.ColorRole.ButtonText: "#e8e8ec",
    QPalette.ColorRole.BrightText: "#ff6b6b",
    QPalette.ColorRole.Light: "#45484f",
    QPalette.ColorRole.Midlight: "#3b3e44",
    QPalette.ColorRole.Mid: "#2f3136",
    QPalette.ColorRole.Dark: "#1a1b1f",
    QPalette.ColorRole.Shadow: "#000000",
    QPalette.ColorRole.Highlight: "#6a4fc0",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.Link: "#b79cff",
    QPalette.ColorRole.LinkVisited: "#9d86e0",
}


def system_is_dark(app: QApplication) -> bool:
    if app.styleHints().colorScheme() == Qt.ColorScheme.Dark:
        return True
    # Some platforms report Unknown; a dark window colour in the native palette says it instead.
    return app.styleHints().colorScheme() == Qt.ColorScheme.Unknown and _light_palette_is_dark(app)


def _light_palette_is_dark(app: QApplication) -> bool:
    style = app.style()
    return style is not None and style.standardPalette().color(QPalette.ColorRole.Window).lightness() < 100


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, value in _DARK.items():
        palette.setColor(role, QColor(value))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7d818a"))
    return palette


# Fusion outlines radio buttons and check boxes with the window colour darkened, which is black on
# a dark window: the Edit/Play radio buttons were nearly invisible. A light rim and a light dot.
DARK_INDICATORS = """
QRadioButton::indicator, QCheckBox::indicator {
    width: 12px; height: 12px; border: 1px solid #9aa0aa; background: #1e1f24;
}
QRadioButton::indicator { border-radius: 7px; }
QCheckBox::indicator { border-radius: 2px; }
QRadioButton::indicator:checked {
    background: qradialgradient(cx: 0.5, cy: 0.5, radius: 0.5, fx: 0.5, fy: 0.5,
                                stop: 0 #e8e8ec, stop: 0.5 #e8e8ec, stop: 0.6 #1e1f24, stop: 1 #1e1f24);
}
QCheckBox::indicator:checked {
    background: qradialgradient(cx: 0.5, cy: 0.5, radius: 0.7, fx: 0.5, fy: 0.5,
                                stop: 0 #b79cff, stop: 0.55 #b79cff, stop: 0.6 #1e1f24, stop: 1 #1e1f24);
}
QRadioButton::indicator:disabled, QCheckBox::indicator:disabled { border-color: #5a5e66; }
QRadioButton::indicator:hover, QCheckBox::indicator:hover { border-color: #b79cff; }
"""


def apply_scheme(app: QApplication, scheme: str) -> bool:
    """Colour every widget for ``scheme``; returns True when the result is dark."""
    dark = scheme == "dark" or (scheme == "system" and system_is_dark(app))
    if dark:
        # Fusion draws everything from the palette; native styles may ignore a dark one.
        if app.style() is None or app.style().name().lower() != "fusion":
            app.setStyle("Fusion")
        app.setPalette(dark_palette())
        app.setStyleSheet(DARK_INDICATORS)
    else:
        style = app.style()
        app.setPalette(style.standardPalette() if style is not None else QPalette())
        app.setStyleSheet("")
    return dark
