"""Export a display list to a PNG, SVG or PDF file: format by extension, size limits, atomic write.

The rendering itself (and ``ExportOptions``) lives next to the painter in ``widgets.render``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from solvers.common.cancel import CancelToken
from solvers.common.display import DisplayList
from solvers.common.errors import InputError
from solvers.common.palette import PALETTES
from widgets.render import (
    CELL_SIZE_RANGE,
    MARGIN_RANGE,
    WRITERS,
    ExportOptions,
    output_size,
    render_image,
)
from workbench.files import atomic_output

__all__ = [
    "CELL_SIZE_RANGE",
    "FORMATS",
    "MARGIN_RANGE",
    "ExportOptions",
    "export",
    "output_size",
    "export_job",
    "prepare_export",
    "render_image",
]

FORMATS = ("png", "svg", "pdf")
MAX_PIXELS = 100_000_000  # a PNG over this (400 MB of pixels) is refused before allocating it


def export(dl: DisplayList, path: str | os.PathLike[str], options: ExportOptions | None = None) -> Path:
    """Write ``dl`` to ``path``; the format comes from the extension. Written atomically."""
    return prepare_export(dl, path, options)()


def prepare_export(
    dl: DisplayList, path: str | os.PathLike[str], options: ExportOptions | None = None
) -> Callable[[], Path]:
    """Check the request now; return the step that paints and writes the file.

    The window runs that step as a background job: QPainter may paint a QImage, an SVG generator or
    a PDF writer on any thread (not a widget or a QPixmap), and painting a 100x100 board plus
    encoding its PNG takes far longer than a frame (PNG encoding alone 1.4 s; painting the SVG of a
    Toichika 100x100 board 0.1 s). The display list is built by the caller, on the GUI thread."""
    options = options or ExportOptions()
    target = Path(path)
    fmt = target.suffix.lower().lstrip(".")
    if fmt not in WRITERS:
        raise InputError(f"{target.name}: unknown export format (use .png, .svg or .pdf)")
    if options.palette not in PALETTES:
        raise InputError(f"unknown palette '{options.palette}' (use light or dark)")
    w, h = output_size(dl, options)
    if fmt == "png" and w * h > MAX_PIXELS:
        raise InputError(f"the PNG would be {w}x{h} pixels (limit {MAX_PIXELS:,}); use a smaller cell size")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{folder}: folder does not exist")

    def write() -> Path:
        with atomic_output(target) as tmp:
            if fmt != "png":
                WRITERS[fmt](dl, tmp, options)
            elif not render_image(dl, options).save(str(tmp), "PNG"):  # type: ignore[call-overload]
                raise InputError(f"{target}: could not write PNG")
        return target

    return write


def export_job(
    dl: DisplayList, path: str | os.PathLike[str], options: ExportOptions, *, cancel: CancelToken
) -> Path:
    """Paint and write an export: the body of File > Export's job, which the window runs in a worker
    process. PySide keeps the GIL through each QPainter call (the first fill of a 4000x4000 image:
    40 ms; 200 long antialiased lines: 25 ms), so on a thread of the GUI process painting a big
    board stalled the window 110-150 ms. A worker paints offscreen, with its own QApplication."""
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:  # a worker process: no window, no display
        from workbench.qt_app import ensure_app

        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        ensure_app(headless=True)
    cancel.raise_if_cancelled()
    return prepare_export(dl, path, options)()
