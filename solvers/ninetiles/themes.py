"""Theme names, the capture pass restated for display, and the shipped per-theme score values.

Kept apart from ``scoring`` (the numba kernels) so that panels and the CLI can show them without
importing numba, which takes most of a second.
"""

from __future__ import annotations

THEME_NAMES = (
    "Capture",
    "Surrounded",
    "Dog Roundup",
    "Finish Quickly!",
    "The Longest Road",
    "Curvy",
    "Real Estate Day",
    "Hungry Aliens",
    "Agents",
    "Many Roads",
    "No Roads",
    "Life with Dogs",
    "Same Length Roads",
    "The Safest Road",
    "Few Roads",
    "Eat It Up",
    "Extraterrestrial",
    "Abduction",
    "Alien Power",
    "The Food Chain",
    "Safe Zone",
    "Citizen Area",
    "Residential Area",
    "Walk the Dog",
    "Ladies Night",
    "Boy Scouts",
)


def capture_flags(labels: list[str]) -> list[bool]:
    """Which objects of one road (labels in reading order) the capture pass catches (for display).

    A plain-Python restatement of the pass in ``object_themes`` (themes.md §0); tests check both
    agree on theme 1."""
    caught = [False] * len(labels)
    waiting_r = free_l = free_r = -1
    for i, label in enumerate(labels):
        if label == "Ag-R":
            waiting_r = i
        elif label == "Ag-L":
            if max(free_l, free_r) >= 0:
                if free_l > free_r:
                    caught[free_l], free_l = True, -1
                else:
                    caught[free_r], free_r = True, -1
        elif label.startswith("Al"):
            if waiting_r >= 0:
                caught[i], waiting_r = True, -1
            elif label == "Al-L":
                free_l = i
            else:
                free_r = i
    return caught


def theme_values() -> dict[int, dict]:
    """Possible scores / maximum / towns at maximum per theme over all towns (shipped asset,
    produced by the full enumeration)."""
    import json

    from solvers.common.protocol import ASSETS

    doc = json.loads((ASSETS / "ninetiles" / "theme_values.json").read_text(encoding="utf-8"))
    return {int(k): v for k, v in doc["themes"].items()}
