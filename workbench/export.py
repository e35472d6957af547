"""Export a display list to a PNG, SVG or PDF file: format by extension, size limits, atomic write.

The rendering itself (and ``ExportOptions``) lives next to the painter in ``widgets.render``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from solvers.common.cancel import CancelToken
from solvers.common.display import DisplayList
from solvers.common.errors import InputError
from solvers.common.palette import PALETTES
from solvers.common.process_jobs import remote
from solvers.common.protocol import ProgressFn
from widgets.render import (
    CELL_SIZE_RANGE,
    MARGIN_RANGE,
    WRITERS,
    ExportOptions,
    output_size,
    paint_file,
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


def titled(dl: DisplayList, name: str, module: str) -> DisplayList:
    """``dl`` with the exported file's title (PDF /Title, SVG <title>): the puzzle's name and its
    module, where every file used to say "Puzzle Workbench diagram"."""
    return replace(dl, title=f"{name} ({module})" if name else module)


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
    if target.is_dir():  # was "tmp: unknown export format"
        raise InputError(f"{target}: is a folder; give a file name ending in .png, .svg or .pdf")
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
            WRITERS[fmt](dl, tmp, options)
        return target

    return write


def export_job(
    dl: DisplayList, path: str | os.PathLike[str], options: ExportOptions
) -> Callable[[CancelToken, ProgressFn], Path]:
    """File > Export's job body, for a request ``prepare_export`` has checked: a worker process
    paints (``widgets.render.paint_file``: no shell code runs there) into the temporary file that
    this side then puts in place (``atomic_output``, on the pool thread)."""
    target = Path(path)
    fmt = target.suffix.lower().lstrip(".")

    def work(cancel: CancelToken, progress: ProgressFn) -> Path:
        with atomic_output(target) as tmp:
            remote(paint_file, dl, str(tmp), fmt, options)(cancel, progress)
        return target

    return work
