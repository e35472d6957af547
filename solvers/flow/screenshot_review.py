"""A screenshot read for the GUI's confirm dialog: the picture, the board read from it (or what was
found before the reading gave up), whether it may be used, and marks to draw over the picture."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

from solvers.common.cancel import CancelToken
from solvers.common.errors import InputError
from solvers.common.review import ImportReview, Mark
from solvers.flow.draw import HexGeometry
from solvers.flow.screenshot import BoardRefused, Detection, checked, detect, odd_dots, read_image, to_puzzle
from solvers.flow.screenshot_hex import model_centre

SHOW_SIDE = 1600  # the review image's longest side in pixels: plenty for a dialog, light to send


def review_screenshot(path: str | os.PathLike[str], cancel: CancelToken | None = None) -> ImportReview:
    """Read ``path`` for review. Raises ``InputError`` (naming the file) only when it is no
    readable picture; a picture without a board that may be used comes back with ``ok`` false and
    the reason as its summary, plus whatever was read (``puzzle`` is ``None`` without a grid)."""
    cancel = cancel or CancelToken()
    name = Path(path).name
    img = read_image(path)
    cancel.raise_if_cancelled()
    found: Detection | None
    try:
        found = detect(img)
    except BoardRefused as exc:
        found, reasons = exc.partial, [str(exc)]
    except InputError as exc:
        found, reasons = None, [str(exc)]
    else:
        cancel.raise_if_cancelled()
        found, reasons = checked(found, cancel=cancel)
    puzzle, notes = to_puzzle(found) if found is not None else (None, [])
    scale = min(1.0, SHOW_SIDE / max(img.shape[:2]))
    if scale < 1.0:
        size = (max(1, round(img.shape[1] * scale)), max(1, round(img.shape[0] * scale)))
        img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
    shown = np.ascontiguousarray(img[:, :, ::-1])  # BGR -> RGB
    summary = reasons[0] if reasons else _read_words(found)
    marks = _marks(found, scale) if found is not None else ()
    return ImportReview(name, shown, puzzle, not reasons, summary, tuple(notes), marks)


def _read_words(found: Detection | None) -> str:
    """ "7x7, 6 colours, every colour twice, unique designed solution" (walls, holes and bridges if
    any; on a hex board the positions its outline leaves out are named apart from its holes)."""
    if found is None:
        return ""
    n = len(found.endpoints)
    words = [f"{found.cols}x{found.rows}", f"{n} colour{'s' * (n != 1)}", "every colour twice"]
    if found.hex:
        words[0] += " hex"
    if found.walls:
        words.append(f"{len(found.walls)} wall{'s' * (len(found.walls) != 1)}")
    holes = found.holes
    if found.hex:  # a hex level's outline leaves positions of its box out: no holes the level has
        gaps = set(found.holes)
        holes = tuple(cell for cell in found.holes if _inside(found, gaps, *cell))
    if holes:
        words.append(f"{len(holes)} hole{'s' * (len(holes) != 1)}")
    outside = len(found.holes) - len(holes)
    if outside:
        words.append(f"{outside} cell{'s' * (outside != 1)} outside the board's shape")
    if found.bridges:
        words.append(f"{len(found.bridges)} bridge{'s' * (len(found.bridges) != 1)}")
    return ", ".join([*words, "unique designed solution"])


def _marks(found: Detection, scale: float) -> tuple[Mark, ...]:
    if found.hex:
        return _hex_marks(found, scale)
    x0, y0, sx, sy = (v * scale for v in found.grid)
    rows, cols = found.rows, found.cols
    marks = [Mark("grid", (x0, y0 + i * sy, x0 + cols * sx, y0 + i * sy)) for i in range(rows + 1)]
    marks += [Mark("grid", (x0 + j * sx, y0, x0 + j * sx, y0 + rows * sy)) for j in range(cols + 1)]
    marks += [Mark("hole", (x0 + c * sx, y0 + r * sy, sx, sy)) for r, c in found.holes]
    marks += [Mark("bridge", (x0 + c * sx, y0 + r * sy, sx, sy)) for r, c in found.bridges]
    for (r1, c1), (r2, c2) in found.walls:
        if r1 == r2:  # side by side: the wall is the vertical edge between them
            x = x0 + max(c1, c2) * sx
            marks.append(Mark("wall", (x, y0 + r1 * sy, x, y0 + (r1 + 1) * sy)))
        else:
            y = y0 + max(r1, r2) * sy
            marks.append(Mark("wall", (x0 + c1 * sx, y, x0 + (c1 + 1) * sx, y)))
    radius = 0.36 * min(sx, sy)
    odd = odd_dots(found)
    for letter, cells in found.endpoints.items():
        colour = found.colours.get(letter, "#ffffff")
        for r, c in cells:
            centre = (x0 + (c + 0.5) * sx, y0 + (r + 0.5) * sy, radius)
            marks.append(Mark("dot", centre, colour, letter, alert=len(cells) != 2 or (r, c) in odd))
    return tuple(marks)


def _hex_marks(found: Detection, scale: float) -> tuple[Mark, ...]:
    """A hex board's cells drawn where they were read: the solver's drawing of the board mapped
    onto the picture by the read frame (the board may be turned or mirrored there)."""
    a, b, c, d, e, f = (v * scale for v in found.hex_frame)

    def seen(point: tuple[float, float]) -> tuple[float, float]:
        x, y = point
        return a * x + b * y + c, d * x + e * y + f

    geometry = HexGeometry(0.0, 0.0, 1.0, found.rows, found.cols)
    holes = set(found.holes)
    sides: dict[tuple[float, ...], tuple[float, float, float, float]] = {}  # each side once
    marks = []
    for r in range(found.rows):
        for k in range(found.cols):
            corners = [seen(p) for p in geometry.corners(r, k)]
            if (r, k) in holes:
                if _inside(found, holes, r, k):  # a hole in the board, not a corner left out
                    marks.append(Mark("hole", tuple(v for p in corners for v in p)))
                continue
            for i in range(6):
                p, q = corners[i], corners[(i + 1) % 6]
                key = tuple(round(v, 1) for v in (*min(p, q), *max(p, q)))
                sides[key] = (*p, *q)
    marks = [Mark("grid", side) for side in sides.values()] + marks
    pitch = float(np.hypot(a, d))
    odd = odd_dots(found)
    for letter, cells in found.endpoints.items():
        colour = found.colours.get(letter, "#ffffff")
        for r, k in cells:
            x, y = seen(model_centre(r, k))
            marks.append(
                Mark("dot", (x, y, 0.32 * pitch), colour, letter, alert=len(cells) != 2 or (r, k) in odd)
            )
    return tuple(marks)


def _inside(found: Detection, holes: set[tuple[int, int]], r: int, c: int) -> bool:
    """Is the hole at (r, c) enclosed by cells along its row (so part of the board's inside)?"""
    row = [k for k in range(found.cols) if (r, k) not in holes]
    return bool(row) and row[0] < c < row[-1]
