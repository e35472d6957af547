"""Colour palettes that resolve display-list roles. Plain data so exports and tests share it."""

from __future__ import annotations

from dataclasses import dataclass

LIGHT_ROLES: dict[str, str] = {
    "background": "#ffffff",
    "cell": "#ffffff",
    "ink": "#1b1b1f",
    "grid": "#9aa0a8",
    "wall": "#1b1b1f",
    "given": "#1b1b1f",
    "solution": "#1f5fbf",
    "entry": "#2d7d46",
    "mark": "#7a7f87",
    "error": "#d0312d",
    "error-fill": "#f8d4d2",
    "highlight": "#f5c542",
    "highlight-fill": "#fdf0c4",
    "muted": "#c9cdd3",
    "accent": "#6a3fb5",
    "player-a": "#c8453c",
    "player-b": "#2f8f4e",
}

DARK_ROLES: dict[str, str] = {
    "background": "#1e1f24",
    "cell": "#26282e",
    "ink": "#e8e8ec",
    "grid": "#5b606a",
    "wall": "#e8e8ec",
    "given": "#e8e8ec",
    "solution": "#7fb2ff",
    "entry": "#7fd396",
    "mark": "#9aa0a8",
    "error": "#ff6b63",
    "error-fill": "#5a2523",
    "highlight": "#e0b43a",
    "highlight-fill": "#4d4220",
    "muted": "#3d4048",
    "accent": "#b79cff",
    "player-a": "#ff7f73",
    "player-b": "#6fd08f",
}

# A categorical palette of clearly distinct hues (Flow pipes, countries, roads). The first 16 follow
# the Flow Free app's familiar order (red, blue, yellow, green, orange, cyan, magenta, maroon,
# purple, grey, white-ish, bright green, tan, dark blue, dark cyan, pink).
CATEGORICAL_LIGHT: tuple[str, ...] = (
    "#e5231f",
    "#1a45e0",
    "#e8c619",
    "#138a36",
    "#f28a1c",
    "#2fc6d6",
    "#d61ec9",
    "#8a1f2c",
    "#7a2fb5",
    "#8e8e8e",
    "#b8b8a8",
    "#6fe04a",
    "#b59562",
    "#24308f",
    "#13807f",
    "#f28ab8",
    "#5d4037",
    "#9e9d24",
    "#00695c",
    "#ad1457",
    "#283593",
    "#ef6c00",
    "#4e342e",
    "#558b2f",
)
CATEGORICAL_DARK: tuple[str, ...] = (
    "#ff4b45",
    "#4d7bff",
    "#ffe14a",
    "#2fbf5a",
    "#ffa040",
    "#57e4f0",
    "#ff4df0",
    "#c0394d",
    "#a55cf0",
    "#b0b0b0",
    "#f2f2e6",
    "#8cff66",
    "#d9b98a",
    "#5563d6",
    "#2bb5b3",
    "#ffadd2",
    "#a1887f",
    "#d4d35a",
    "#4db6ac",
    "#f06292",
    "#7986cb",
    "#ffb74d",
    "#bcaaa4",
    "#9ccc65",
)


@dataclass(frozen=True)
class Palette:
    name: str
    roles: dict[str, str]
    categorical: tuple[str, ...]

    def resolve(self, color: str) -> str:
        """Turn a role, ``color:N``, literal ``#hex`` or ``on:COLOR`` (black or white, whichever
        reads better on COLOR) into a ``#hex`` string."""
        if color.startswith("on:"):
            return "#000000" if luminance(self.resolve(color[3:])) > 0.36 else "#ffffff"
        if color.startswith("#"):
            return color
        if color.startswith("color:"):
            index = int(color[6:])
            return self.categorical[index % len(self.categorical)]
        return self.roles.get(color, self.roles["ink"])


def luminance(hex_colour: str) -> float:
    """Relative luminance (WCAG) of a ``#rrggbb`` colour, 0 (black) .. 1 (white)."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


LIGHT = Palette("light", LIGHT_ROLES, CATEGORICAL_LIGHT)
DARK = Palette("dark", DARK_ROLES, CATEGORICAL_DARK)
PALETTES = {"light": LIGHT, "dark": DARK}
