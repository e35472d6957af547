"""Show text in a script only when an installed font has its glyphs (never empty boxes).

Toichika's technique names carry Japanese names (e.g. 孤立禁); a machine without a CJK font
would draw them as boxes, so panels ask ``optional_text`` and leave such names out.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics, QRawFont
from PySide6.QtWidgets import QApplication


@lru_cache(maxsize=512)
def has_glyphs(text: str) -> bool:
    """True when the application font, or an installed font Qt falls back to, draws every character."""
    chars = {ord(ch) for ch in text if not ch.isspace()}
    if not chars:
        return True
    font = QApplication.font()
    metrics = QFontMetrics(font)
    if all(metrics.inFontUcs4(code) for code in chars):
        return True
    for family in QFontDatabase.families():
        raw = QRawFont.fromFont(QFont(family))
        if raw.isValid() and all(raw.supportsCharacter(code) for code in chars):
            return True
    return False


def optional_text(text: str) -> str:
    """``text`` if it can be drawn, else "" (the caller shows only its other-language name)."""
    return text if has_glyphs(text) else ""
