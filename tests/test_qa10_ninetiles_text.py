"""QA pass 10: Nine Tiles Panic's texts on a partial town ("empty", the tray's caption) were drawn in
the faint "muted" role, 1.6:1 against the background in both palettes: unreadable in every export."""

from __future__ import annotations

import pytest

from solvers.common import registry
from solvers.common.display import Text
from solvers.common.palette import PALETTES, Palette

MIN_CONTRAST = 3.5


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(palette: Palette, fg: str, bg: str) -> float:
    a, b = sorted((_luminance(palette.resolve(fg)[:7]), _luminance(palette.resolve(bg)[:7])), reverse=True)
    return (a + 0.05) / (b + 0.05)


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_partial_town_texts_are_readable(name: str) -> None:
    plugin = registry.get("ninetiles")
    sample = next(p for p in plugin.sample_paths() if p.stem == "partial_town")
    puzzle, entries = plugin.parse_document(sample.read_text(encoding="utf-8"))
    dl = plugin.draw(puzzle, None, entries)
    texts = [
        item
        for item in dl.items
        if isinstance(item, Text) and item.text.lower().startswith(("empty", "tray"))
    ]
    assert {t.text.split()[0] for t in texts} == {"empty", "Tray"}
    palette = PALETTES[name]
    for text in texts:
        for bg in ("background", "cell"):
            assert _contrast(palette, text.color, bg) >= MIN_CONTRAST, (text.text, text.color, bg)


def test_the_tray_caption_says_what_the_tray_is_not_a_mouse_gesture() -> None:
    # The caption is part of every export, where "(drag a tile onto the board)" meant nothing.
    plugin = registry.get("ninetiles")
    sample = next(p for p in plugin.sample_paths() if p.stem == "partial_town")
    puzzle, entries = plugin.parse_document(sample.read_text(encoding="utf-8"))
    texts = [item.text for item in plugin.draw(puzzle, None, entries).items if isinstance(item, Text)]
    assert "Tray (tiles not yet on the board)" in texts
    assert not any("drag" in text.lower() for text in texts)
