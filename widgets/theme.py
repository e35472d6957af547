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


def apply_scheme(app: QApplication, scheme: str) -> bool:
    """Colour every widget for ``scheme``; returns True when the result is dark."""
    dark = scheme == "dark" or (scheme == "system" and system_is_dark(app))
    if dark:
        # Fusion draws everything from the palette; native styles may ignore a dark one.
        if app.style() is None or app.style().name().lower() != "fusion":
            app.setStyle("Fusion")
        app.setPalette(dark_palette())
    else:
        style = app.style()
        app.setPalette(style.standardPalette() if style is not None else QPalette())
    return dark
