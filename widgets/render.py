"""Render a display list to an image, SVG or PDF: the export half of the painter.

Everything is drawn by ``widgets.painter.paint_display_list``, the same code as the screen.
``ExportOptions`` is the one place export defaults live (dialog, CLI, clipboard, thumbnails).
Writing files safely (atomic replace, format by extension, size limits) is ``workbench.export``;
``paint_file`` is the part of File > Export that runs in a worker process.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QHashSeed, QMarginsF, QRectF, QSize, QSizeF, QUuid
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgGenerator

from solvers.common.cancel import CancelToken
from solvers.common.display import DisplayList
from solvers.common.errors import InputError
from solvers.common.palette import PALETTES
from widgets.painter import paint_display_list, qcolor

CELL_SIZE_RANGE = (4.0, 400.0)  # what the Export dialog and the CLI offer
MARGIN_RANGE = (0.0, 400.0)
MIN_LONG_SIDE = 600.0  # the automatic size makes the drawing at least this long (pixels or points)
MIN_AUTO_CELL = 40.0  # ... and never smaller than this per grid cell


@dataclass(frozen=True)
class ExportOptions:
    # Sizes are pixels of 1/96 inch in every format (CSS pixels), so a PNG, an SVG and a PDF of
    # one export show and print at one size (PNG pixels, SVG user units, PDF page of w * 0.75 pt).
    cell_size: float | None = None  # pixels per grid cell; None = auto
    margin: float = 16.0  # around the drawing, pixels
    transparent: bool = False
    palette: str = "light"

    def __post_init__(self) -> None:
        # Thumbnails use cells under the dialog's 4 px, so only nonsense is refused here.
        if self.cell_size is not None and not (
            math.isfinite(self.cell_size) and 0 < self.cell_size <= CELL_SIZE_RANGE[1]
        ):
            raise InputError(
                f"cell size must be more than 0 and at most {CELL_SIZE_RANGE[1]:g}, got {self.cell_size}"
            )
        if not (math.isfinite(self.margin) and MARGIN_RANGE[0] <= self.margin <= MARGIN_RANGE[1]):
            raise InputError(
                f"margin must be between {MARGIN_RANGE[0]:g} and {MARGIN_RANGE[1]:g}, got {self.margin}"
            )

    def scale_for(self, dl: DisplayList) -> float:
        """Output units per display-list unit. Auto: legible cells, and a picture that is at least
        ``MIN_LONG_SIDE`` long (a 3x3 town at 40 px per cell was 164 px: too small to read)."""
        cell = dl.grid.cell if dl.grid is not None else 40.0
        if self.cell_size is not None:
            return self.cell_size / cell
        long_side = max(dl.width, dl.height, 1.0)
        return max(MIN_AUTO_CELL / cell, MIN_LONG_SIDE / long_side)


def output_size(dl: DisplayList, options: ExportOptions) -> tuple[int, int]:
    s = options.scale_for(dl)
    return (
        max(1, round(dl.width * s + 2 * options.margin)),
        max(1, round(dl.height * s + 2 * options.margin)),
    )


def _paint(painter: QPainter, dl: DisplayList, options: ExportOptions, w: float, h: float) -> None:
    palette = PALETTES[options.palette]
    if not options.transparent:
        painter.fillRect(QRectF(0, 0, w, h), qcolor(palette, "background"))
    m = options.margin
    paint_display_list(painter, dl, QRectF(m, m, w - 2 * m, h - 2 * m), palette, background=False)


def render_image(dl: DisplayList, options: ExportOptions = ExportOptions()) -> QImage:
    w, h = output_size(dl, options)
    image = QImage(QSize(w, h), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor(0, 0, 0, 0))
    dots_per_meter = round(PIXELS_PER_INCH / 0.0254)
    image.setDotsPerMeterX(dots_per_meter)
    image.setDotsPerMeterY(dots_per_meter)
    painter = QPainter(image)
    try:
        _paint(painter, dl, options, w, h)
    finally:
        painter.end()
    return image


def write_png(dl: DisplayList, path: Path, options: ExportOptions) -> None:
    if not render_image(dl, options).save(str(path), "PNG"):  # type: ignore[call-overload]
        raise InputError(f"{path}: could not write PNG")


def write_svg(dl: DisplayList, path: Path, options: ExportOptions) -> None:
    w, h = output_size(dl, options)
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    # CSS pixels: Qt writes the size in mm from this resolution (default 72 dpi), and at 72 a
    # 443 px drawing said 156 mm, which browsers and cairo showed 591 px wide (4/3 too big).
    generator.setResolution(PIXELS_PER_INCH)
    generator.setSize(QSize(w, h))
    generator.setViewBox(QRectF(0, 0, w, h))
    generator.setTitle(dl.title or "Puzzle Workbench diagram")
    generator.setDescription("Exported by Puzzle Workbench")
    painter = QPainter(generator)
    try:
        _paint(painter, dl, options, w, h)
    finally:
        painter.end()


def write_pdf(dl: DisplayList, path: Path, options: ExportOptions) -> None:
    # One page exactly the size of the drawing (w px = w * 0.75 pt), so it drops into documents
    # at the size of the PNG and SVG of the same export.
    w, h = output_size(dl, options)
    # Qt keeps the embedded fonts in a hash: with the random seed their order (and the file) changed
    # from run to run. A fixed seed only while this writer exists and paints.
    QHashSeed.setDeterministicGlobalSeed()
    try:
        _write_pdf(dl, path, options, w, h)
    finally:
        QHashSeed.resetRandomGlobalSeed()
    _drop_pdf_dates(path)


def _write_pdf(dl: DisplayList, path: Path, options: ExportOptions, w: int, h: int) -> None:
    writer = QPdfWriter(str(path))
    writer.setTitle(dl.title or "Puzzle Workbench diagram")
    writer.setCreator("Puzzle Workbench")
    writer.setDocumentId(_document_id(dl, options))
    writer.setResolution(PIXELS_PER_INCH)
    # Pages are whole points: a drawing of w px (w * 0.75 pt) gets the next whole point, and the
    # painting fills that page (at most 1 pt, 0.35 mm, larger: no unpainted strip at its edge).
    pt_w, pt_h = (math.ceil(n * 72 / PIXELS_PER_INCH - 1e-9) for n in (w, h))
    # ExactMatch: the default fuzzy match snaps a size near a standard one (a 104 pt page was 105).
    exact = QPageSize.SizeMatchPolicy.ExactMatch
    page = QPageSize(QSizeF(pt_w, pt_h), QPageSize.Unit.Point, "", exact)
    writer.setPageLayout(QPageLayout(page, QPageLayout.Orientation.Portrait, QMarginsF()))
    painter = QPainter(writer)
    try:
        _paint(painter, dl, options, pt_w * PIXELS_PER_INCH / 72, pt_h * PIXELS_PER_INCH / 72)
    finally:
        painter.end()


PIXELS_PER_INCH = 96  # CSS: an SVG of W px says W * 25.4 / 96 mm; PNG metadata; PDF page size
# The creation time Qt writes into every PDF (the Info dictionary and the XMP packet): the same
# drawing exported twice differed in 122 bytes. These optional entries are blanked out with spaces
# of the same length, so the cross-reference offsets stay right.
_PDF_DATES = re.compile(
    rb"/(?:CreationDate|ModDate) \(D:[^)]*\)| xmp:(?:CreateDate|ModifyDate|MetadataDate)=\"[^\"]*\""
)


def _document_id(dl: DisplayList, options: ExportOptions) -> QUuid:
    """The PDF's document id (/ID, XMP DocumentID) from what is drawn: Qt makes a random one."""
    digest = hashlib.sha256(repr((dl, options)).encode("utf-8")).digest()
    return QUuid(str(uuid.UUID(bytes=digest[:16], version=5)))


def _drop_pdf_dates(path: Path) -> None:
    data = path.read_bytes()
    fixed = _PDF_DATES.sub(lambda m: b" " * len(m.group(0)), data)
    if fixed != data:
        path.write_bytes(fixed)


WRITERS = {"png": write_png, "svg": write_svg, "pdf": write_pdf}

_WORKER_APP: Any = None  # a worker process's own application: painting text needs one


def paint_file(dl: DisplayList, path: str, fmt: str, options: ExportOptions, *, cancel: CancelToken) -> None:
    """Paint ``dl`` into ``path`` as ``fmt``: File > Export's painting, which the window runs in a
    worker process (``workbench.export.export_job`` writes the file safely around it). PySide keeps
    the GIL through each QPainter call (the first fill of a 4000x4000 image: 40 ms; 200 long
    antialiased lines: 25 ms), so on a thread of the GUI process painting a big board stalled the
    window 110-150 ms. A worker paints offscreen, with its own application object."""
    global _WORKER_APP
    if QGuiApplication.instance() is None:  # a worker process: no window, no display
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        _WORKER_APP = QGuiApplication(["puzzle-workbench-export"])
    cancel.raise_if_cancelled()
    WRITERS[fmt](dl, Path(path), options)
