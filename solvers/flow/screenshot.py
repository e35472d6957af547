"""Read a Flow Free app screenshot: grid size, endpoints paired by colour, walls and holes.

The app draws a black background, thin dim grid lines and big round dots (about 3/4 of a cell).
Steps (OpenCV + numpy throughout):

1. Ink: each pixel's distance from the background colour (the image's median colour), so the
   app's black screens and this program's white diagrams read alike.
2. Lines: thin bright ridges (a white top-hat narrower than a pipe) that run on for a good part
   of a cell, horizontal and vertical apart. The game's blurred glow bars are too wide, text and
   icons too short, dots too round, pipes too wide; so the board is the largest connected lattice
   of such lines, whatever glows around it.
3. Per column (row) of that lattice, the share of vertical (horizontal) line gives a profile whose
   peaks are the grid lines. The line count is the regular spacing that best explains the peaks
   (walls and holes may hide parts of lines, so a few may be missing). A crop that cut the outer
   border line off, or a light margin that swallowed it, keeps its last cell row (column) when the
   lines run on a cell to the picture's edge or the lattice's end; a picture that ends in a sliver
   of a cell, the lines running on across it, is refused as cut.
4. A cell holds a dot when a square patch around its centre is almost all ink and a ring around
   the centre is too (a pipe crosses the ring only twice); its colour is the patch median. Dots are
   grouped by colour distance (CIE Lab) and named by the nearest known colour.
   Lone dots of near colours pair up (a dimmed part of a screenshot).
5. Each cell edge is measured across the line (width at half height above the local floor): a
   wall is a clearly thicker grey bar than a grid line (a coloured one is a pipe, ignored and
   noted), and a bright one: a bar no brighter than the grid lines is a widened line of a blurred
   or recompressed picture as likely as a wall, and the board is refused; an edge with no line at
   all borders a hole, and so does a cell shaded and hatched as this program draws holes.
6. ``check`` decides whether the read board may be the level in the picture: every colour exactly
   twice, no outer row or column that is mostly holes without a dot (a grid grown into a header),
   and exactly one solution under the designed rules (the solver, with a short budget). ``flow import``
   refuses any board that fails, with the reason; the GUI shows it for the user to correct.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from itertools import product
from pathlib import Path

import cv2
import numpy as np

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.errors import InputError
from solvers.common.kernels import forced
from solvers.common.palette import CATEGORICAL_DARK, CATEGORICAL_LIGHT
from solvers.common.words import cell_name
from solvers.flow.image_header import Header, HeaderError, read_header
from solvers.flow.model import (
    BRIDGE,
    EMPTY,
    EXTRA,
    HOLE,
    LABELS,
    LETTERS,
    MNEMONIC,
    Cell,
    FlowPuzzle,
    colour_index,
    colour_name,
    is_label_form,
    wall,
)
from solvers.flow.screenshot_hex import find_hex_board, hex_orientation

MAX_FILE_BYTES = 50 * 1024 * 1024  # a phone screenshot is a few MB
MAX_PIXELS = 40_000_000  # 8K is 33 MP; a decompression bomb is refused before decoding
# OpenCV's GIF decoder holds about 12 bytes a pixel (a 29 MP GIF peaked at 477 MB).
FORMAT_MAX_PIXELS = {"GIF": 16_000_000}
WORK_PIXELS = 12_000_000  # larger images are read shrunk: a board needs far fewer pixels
UNCHANGED_BYTES = 64_000_000  # up to this, decode with alpha and 16 bits (else 8-bit BGR)
MIN_SIDE = 64
MAX_CELLS = 40  # per side; the app's boards stop at 15, puzzle packs at about 30
MIN_CELL = 8  # pixels: smaller cells cannot hold a readable dot

# The app's colours (RGB) by our mnemonic letter, used to name the colour groups.
APP_PALETTE: dict[str, tuple[int, int, int]] = {
    "R": (255, 0, 0),
    "B": (0, 0, 255),
    "Y": (238, 238, 0),
    "G": (0, 141, 0),
    "O": (255, 137, 0),
    "C": (0, 255, 255),
    "M": (255, 0, 255),
    "m": (165, 44, 42),
    "P": (128, 0, 128),
    "A": (160, 160, 160),
    "W": (255, 255, 255),
    "g": (0, 255, 0),
    "T": (189, 183, 107),
    "b": (0, 0, 139),
    "c": (0, 128, 128),
    "p": (255, 105, 180),
}
SAME_COLOUR = 6.0  # Lab distance below which two dots are one colour (app blue and dark blue: 12.8)
LONE_COLOUR = 25.0  # Lab distance up to which two lone dots may still be one colour (see _pair_singles)
NAME_COLOUR = 45.0  # Lab distance up to which a group takes the nearest known colour's letter
# Distance from the background colour (0..255, largest channel) for a pixel to count as part of a
# grid line, and as part of a dot (the app's darkest colour, dark blue, is at 139).
LINE_LEVEL = 18
DOT_LEVEL = 60
# Share of a board column (row) that must be line for it to be a grid line: low enough for an edge
# line that holes interrupt, far above a cell's column (which crosses only the other lines).
LINE_SHARE = 0.3
HOLE_FILL = 20  # a hole's shading: its distance from the background, and at most this grey
HOLE_CHROMA = 24
LINE_CHROMA = 100  # largest minus smallest channel from which a thin ridge is a pipe, not a grid line
GREY_CHROMA = 50  # largest minus smallest channel below which ink is grey (lines, walls)
GREY_SHARE = 0.001  # share of coloured pixels below which a picture with grey dots is grayscale

Edge = tuple[Cell, Cell]


@dataclass(frozen=True)
class DotShape:
    """A dot's radius and its centre's offset from the cell centre (dx right, dy down), in cells."""

    radius: float
    dx: float
    dy: float


class BoardRefused(InputError):
    """``detect`` found a grid but no board it can read on it; ``partial`` is what was read
    (the grid, and the dots if any) for showing the user what went wrong."""

    def __init__(self, message: str, partial: Detection) -> None:
        super().__init__(message)
        self.partial = partial


@dataclass(frozen=True)
class Detection:
    """What was read from a screenshot. Cells are 0-based (row, column)."""

    rows: int
    cols: int
    endpoints: Mapping[str, tuple[Cell, ...]]  # letter -> its dots, in row-major order
    colours: Mapping[str, str] = field(default_factory=dict)  # letter -> measured "#rrggbb"
    walls: tuple[Edge, ...] = ()
    holes: tuple[Cell, ...] = ()
    warnings: tuple[str, ...] = ()
    board: tuple[int, int, int, int] = (0, 0, 0, 0)  # x, y, width, height in pixels
    # The fitted grid: left and top line, cell width and height in pixels (for drawing the read
    # board over the picture).
    grid: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    shapes: Mapping[Cell, DotShape] = field(default_factory=dict)  # each dot's size and centring
    bridges: tuple[Cell, ...] = ()  # cells drawn as a bridge (Flow Free: Bridges)
    # A hex board (odd-r rows, as the solver lays them out): the affine map (a, b, c, d, e, f:
    # x = aX + bY + c, y = dX + eY + f) from the solver's drawing with a cell width of 1 to the
    # picture's pixels; () on a square board.
    hex_frame: tuple[float, ...] = ()

    @property
    def hex(self) -> bool:
        return bool(self.hex_frame)

    def problems(self) -> list[str]:
        """Colours that do not come as a pair (one dot, or three and more)."""
        out = []
        for letter, cells in self.endpoints.items():
            if len(cells) != 2:
                where = ", ".join(f"R{r + 1}C{c + 1}" for r, c in cells)
                name = _name(letter, is_label_form(set(self.endpoints)))
                out.append(
                    f"colour {letter!r} ({name}) has {len(cells)} dot{'s' * (len(cells) > 1)} ({where})"
                )
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "rows": self.rows,
            "cols": self.cols,
            "size": f"{self.cols}x{self.rows}",
            "shape": "hex" if self.hex else "square",
            "endpoints": {k: [list(c) for c in v] for k, v in self.endpoints.items()},
            "colours": dict(self.colours),
            "walls": [[list(a), list(b)] for a, b in self.walls],
            "holes": [list(c) for c in self.holes],
            "bridges": [list(c) for c in self.bridges],
            "warnings": list(self.warnings),
            "problems": self.problems(),
        }


def _name(letter: str, label_form: bool) -> str:
    index = colour_index(letter, label_form)
    return colour_name(index) if index < len(MNEMONIC) else "unnamed colour"


# ---- reading the file ------------------------------------------------------------------------------


def _looks_complete(data: bytes) -> str | None:
    """Why an image file is cut short (JPEG without its end marker, PNG without IEND), else None."""
    if data[:3] == b"\xff\xd8\xff":
        return None if b"\xff\xd9" in data[-4096:] else "truncated JPEG (no end-of-image marker)"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return None if b"IEND" in data[-4096:] else "truncated PNG (no IEND chunk)"
    return None


def decode(data: bytes, name: str = "image") -> np.ndarray:
    """A BGR image from file bytes, or ``InputError`` naming what is wrong with them.

    The header's declared size is checked before any decoder runs (every accepted format is sized
    by ``image_header``); an image larger than ``WORK_PIXELS`` is read at a reduced size, so no
    accepted file needs more than a few hundred MB.
    """
    if not data:
        raise InputError(f"{name}: empty file")
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{name}: file too large ({len(data):,} bytes; limit {MAX_FILE_BYTES:,})")
    cut = _looks_complete(data)
    if cut:
        raise InputError(f"{name}: {cut}")
    try:
        header = read_header(data)
    except HeaderError as exc:
        raise InputError(f"{name}: {exc}") from None
    width, height = header.width, header.height
    limit = FORMAT_MAX_PIXELS.get(header.format, MAX_PIXELS)
    if width * height > limit:
        raise InputError(f"{name}: image too large ({width}x{height} pixels; limit {limit:,} pixels)")
    if min(width, height) < MIN_SIDE:
        raise InputError(f"{name}: image too small ({width}x{height} pixels)")
    flags, factor = _decode_flags(header)
    with _decoder_messages() as complaints:
        try:
            img = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
        except cv2.error:
            img = None
    if img is not None and complaints:
        raise InputError(f"{name}: damaged image data ({complaints[0]})")
    if img is None:
        raise InputError(f"{name}: damaged {header.format} image (the decoder could not read it)")
    # The header gives the largest frame; the decoder may return a smaller first frame.
    if img.shape[0] * img.shape[1] * factor**2 > MAX_PIXELS:
        raise InputError(f"{name}: image too large ({img.shape[1]}x{img.shape[0]} pixels)")
    if min(img.shape[:2]) * factor < MIN_SIDE:
        raise InputError(f"{name}: image too small ({img.shape[1]}x{img.shape[0]} pixels)")
    img = _to_bgr(_fit(img))  # shrink first, then convert the smaller copy
    if img is None:
        raise InputError(f"{name}: unsupported {header.format} pixel format")
    return img


def _decode_flags(header: Header) -> tuple[int, int]:
    """How to call the decoder, and by what factor it shrinks. An image over ``WORK_PIXELS`` is
    read at 1/2, 1/4 or 1/8 of its size as 8-bit BGR (libjpeg scales while decoding; for other
    formats OpenCV shrinks the 8-bit result at once, where unchanged it would hold two full copies
    with alpha). A smaller one is read unchanged, its transparency blended by us, unless its
    samples would take too much room."""
    pixels = header.width * header.height
    for factor, flag in (
        (8, cv2.IMREAD_REDUCED_COLOR_8),
        (4, cv2.IMREAD_REDUCED_COLOR_4),
        (2, cv2.IMREAD_REDUCED_COLOR_2),
    ):
        if pixels > WORK_PIXELS * (factor // 2) ** 2:
            return flag, factor
    # A phone photo's JPEG may be stored turned, with an EXIF tag saying how to show it: read as
    # the pictures are shown (IMREAD_UNCHANGED would ignore the tag, and a board turned a quarter
    # is another board: QA found 30 of 30 such photos accepted turned). JPEG has no alpha.
    if header.format == "JPEG":
        return cv2.IMREAD_COLOR, 1
    if pixels * 4 * (2 if header.wide_samples else 1) <= UNCHANGED_BYTES:
        return cv2.IMREAD_UNCHANGED, 1
    return cv2.IMREAD_COLOR, 1


def _fit(img: np.ndarray) -> np.ndarray:
    """``img`` shrunk (area average) to at most ``WORK_PIXELS``: a board needs far fewer."""
    h, w = img.shape[:2]
    if h * w <= WORK_PIXELS:
        return img
    scale = (WORK_PIXELS / (h * w)) ** 0.5
    size = (max(1, int(w * scale)), max(1, int(h * scale)))
    return cv2.resize(img, size, interpolation=cv2.INTER_AREA)


@contextmanager
def _decoder_messages() -> Iterator[list[str]]:
    """Collect what libjpeg/libpng print on stderr (fd 2) while decoding, instead of letting it
    reach the terminal: a damaged file becomes one clear error. The list fills on exit."""
    found: list[str] = []
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no usable stderr (a GUI without a console): nothing to catch
        yield found
        return
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield found
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            text = sink.read(4096).decode("utf-8", "replace")
            # libtiff's warnings are about tags it repairs itself (OpenCV's own RGBA TIFFs give
            # one); its errors, and libpng's and libjpeg's messages, mean damaged pixel data.
            lines = (line.strip() for line in text.splitlines())
            found.extend(line for line in lines if line and "TIFF_Warning" not in line)


def _to_bgr(img: np.ndarray) -> np.ndarray | None:
    """8-bit BGR; transparent pixels (an exported diagram) take the opaque pixels' median colour."""
    if img.dtype == np.uint16:
        img = cv2.convertScaleAbs(img, alpha=1 / 257)  # one 8-bit copy, no wider temporaries
    if img.dtype != np.uint8 or img.ndim not in (2, 3):
        return None
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.shape[2] == 4:
        return _blend(img)
    return img if img.shape[2] == 3 else None


def _blend(img: np.ndarray) -> np.ndarray:
    """BGRA over the opaque pixels' median colour, in 16-bit integers a strip of rows at a time:
    a float copy of a 40-megapixel image alone would take 640 MB."""
    alpha = img[:, :, 3]
    if int(alpha.min()) == 255:
        return np.ascontiguousarray(img[:, :, :3])
    step = max(1, min(img.shape[:2]) // 256)  # a sample is plenty for a median colour
    sample = img[::step, ::step][alpha[::step, ::step] > 127][:, :3]
    under = (np.median(sample, axis=0) if len(sample) else np.zeros(3)).round().astype(np.uint16)
    out = np.empty(img.shape[:2] + (3,), np.uint8)
    rows = max(1, (1 << 20) // img.shape[1])
    for top in range(0, img.shape[0], rows):
        part = img[top : top + rows]
        a = part[:, :, 3:].astype(np.uint16)
        mixed = part[:, :, :3] * a + under * (255 - a) + 127
        out[top : top + rows] = mixed // 255
    return out


def read_image(path: str | os.PathLike[str]) -> np.ndarray:
    p = Path(path)
    try:
        if not p.is_file():
            raise InputError(f"{p}: {'no such file' if not p.exists() else 'not a regular file'}")
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(f"{p.name}: file too large ({size:,} bytes; limit {MAX_FILE_BYTES:,})")
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"{p}: cannot read file ({exc.strerror or exc})") from None
    return decode(data, p.name)


# ---- the grid ----------------------------------------------------------------------------------------


def _ink(img: np.ndarray) -> np.ndarray:
    """How far each pixel is from the background colour (the image's median colour): 0 on the
    background, so light diagrams read like the app's black screen."""
    background = _background(img)
    # A Scalar second operand (no full-size copy of the colour); OpenCV's stubs only list arrays.
    scalar = (float(background[0]), float(background[1]), float(background[2]), 0.0)
    diff = cv2.absdiff(img, scalar)  # type: ignore[call-overload]
    return cv2.max(cv2.max(diff[:, :, 0], diff[:, :, 1]), diff[:, :, 2])


def _background(img: np.ndarray) -> np.ndarray:
    """The background colour (BGR): the image's median colour."""
    small = img[:: max(1, img.shape[0] // 256), :: max(1, img.shape[1] // 256)].reshape(-1, 3)
    return np.median(small, axis=0).round().astype(np.uint8)  # type: ignore[no-any-return]


def _peaks(profile: np.ndarray, threshold: float) -> list[float]:
    """Centres of the runs where ``profile`` is at least ``threshold``."""
    on = np.concatenate(([False], profile >= threshold, [False]))
    edges = np.flatnonzero(on[1:] != on[:-1])
    out = []
    for a, b in zip(edges[::2], edges[1::2], strict=True):
        weights = profile[a:b]
        out.append(float(np.average(np.arange(a, b), weights=weights)))
    return out


def _fit_count(peaks: list[float]) -> tuple[int, float, float]:
    """Cell count, first line and spacing that best explain the line positions ``peaks``."""
    if len(peaks) < 2:
        return 0, 0.0, 0.0
    found = np.array(peaks)
    lo, hi = found[0], found[-1]
    best = (-(10**9), 0)
    for n in range(1, MAX_CELLS + 1):
        step = (hi - lo) / n
        if step < MIN_CELL:
            break
        expected = lo + step * np.arange(n + 1)
        dist = np.abs(expected[:, None] - found[None, :])
        tol = max(2.0, 0.2 * step)
        matched = int((dist.min(axis=1) < tol).sum())
        stray = int((dist.min(axis=0) >= tol).sum())
        score = 2 * matched - (n + 1) - 2 * stray
        if score > best[0]:
            best = (score, n)
    n = best[1]
    return n, float(lo), float((hi - lo) / n) if n else 0.0


@dataclass(frozen=True)
class _Grid:
    x0: float
    y0: float
    sx: float
    sy: float
    rows: int
    cols: int
    # Sides whose outline was cut off by the picture's edge (the cell row or column there was
    # inferred from the lattice): the board may go on past that edge.
    cut_outline: tuple[str, ...] = ()


def _chroma(img: np.ndarray) -> np.ndarray:
    """Largest minus smallest channel: low on grey lines and walls, high on dots and pipes."""
    return cv2.subtract(
        cv2.max(cv2.max(img[:, :, 0], img[:, :, 1]), img[:, :, 2]),
        cv2.min(cv2.min(img[:, :, 0], img[:, :, 1]), img[:, :, 2]),
    )


def _line_maps(img: np.ndarray, gray: np.ndarray, grey_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the long thin horizontal and vertical lines: the grid's own structure. A thin
    bright ridge (a white top-hat narrower than a pipe) that runs on for a good part of a cell;
    the game's blurred glow bars are too wide, text and icons too short, dots too round."""
    k = max(5, round(min(gray.shape) / 90)) | 1  # wider than a grid line, narrower than a pipe
    rect = cv2.MORPH_RECT
    thin_y = cv2.morphologyEx(gray, cv2.MORPH_TOPHAT, cv2.getStructuringElement(rect, (1, k))) > LINE_LEVEL
    thin_x = cv2.morphologyEx(gray, cv2.MORPH_TOPHAT, cv2.getStructuringElement(rect, (k, 1))) > LINE_LEVEL
    if grey_only:  # (see ``detect``)
        grey = _chroma(img) < LINE_CHROMA
        thin_y &= grey
        thin_x &= grey
    # Long enough to skip text, short enough to survive between the pipes crossing a line.
    length = max(MIN_CELL, min(gray.shape) // 40)
    horizontal = cv2.morphologyEx(thin_y.astype(np.uint8), cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    vertical = cv2.morphologyEx(thin_x.astype(np.uint8), cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    return horizontal, vertical


def _line_box(horizontal: np.ndarray, vertical: np.ndarray) -> tuple[int, int, int, int]:
    """Bounding box (x, y, w, h) of the largest connected lattice of long lines."""
    joined = cv2.dilate(horizontal | vertical, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    if count < 2:
        raise InputError("no Flow board found: no grid of lines in the image")
    w = stats[1:, cv2.CC_STAT_WIDTH].astype(np.int64)
    h = stats[1:, cv2.CC_STAT_HEIGHT].astype(np.int64)
    big = (w >= 2 * MIN_CELL) & (h >= 2 * MIN_CELL)
    if not big.any():
        raise InputError("no Flow board found: no grid of lines in the image")
    # A window's frames and toolbars are lines too: a screenshot of this program's own window
    # (board, a solution list's frame, a toolbar) was refused as two boards. Where some line
    # structure is a lattice (inner lines both ways), only lattices count as boards.
    lattice = np.array(
        [
            bool(b) and _is_lattice(labels, stats[i + 1], i + 1, horizontal, vertical)
            for i, b in enumerate(big)
        ]
    )
    if lattice.any():
        big &= lattice
    area = np.where(big, w * h, -1)
    best = 1 + int(np.argmax(area))
    if np.count_nonzero(area >= SECOND_BOARD * area.max()) > 1:
        # Two screenshots side by side gave the larger board, accepted without a word (QA).
        # Blur and heavy compression also break one board's lines into pieces (QA: blurred real
        # screenshots were refused as two boards), so both are named.
        raise InputError(
            "the picture holds more than one board, or one board's lines broken into pieces by blur "
            "or compression: crop it to one sharp board"
        )
    return tuple(int(v) for v in stats[best, :4])  # type: ignore[return-value]


SECOND_BOARD = 0.25  # a second lattice at least this large (by area) is another board


def _is_lattice(
    labels: np.ndarray, stat: np.ndarray, label: int, horizontal: np.ndarray, vertical: np.ndarray
) -> bool:
    """Whether line component ``label`` has at least three lines each way (a frame has two)."""
    x, y, w, h = (int(v) for v in stat[:4])
    own = labels[y : y + h, x : x + w] == label
    across = len(_peaks((vertical[y : y + h, x : x + w].astype(bool) & own).mean(axis=0), LINE_SHARE))
    down = len(_peaks((horizontal[y : y + h, x : x + w].astype(bool) & own).mean(axis=1), LINE_SHARE))
    return across >= 3 and down >= 3


def _find_grid(
    img: np.ndarray, gray: np.ndarray, grey_only: bool = False
) -> tuple[_Grid, tuple[int, int, int, int]]:
    if int(gray.max()) <= LINE_LEVEL:
        raise InputError("no Flow board found: the image is blank")
    horizontal, vertical = _line_maps(img, gray, grey_only)
    x, y, w, h = _line_box(horizontal, vertical)
    # A grid line column is (nearly) all line; a cell's column only crosses the horizontal lines.
    cols, gx, sx = _fit_count(_peaks(vertical[y : y + h, x : x + w].mean(axis=0), LINE_SHARE))
    rows, gy, sy = _fit_count(_peaks(horizontal[y : y + h, x : x + w].mean(axis=1), LINE_SHARE))
    if cols < 1 or rows < 1:
        raise InputError("unreadable grid: could not find evenly spaced grid lines on the board")
    # The outer border line can be lost: a crop cuts it, or a light margin round a dark screen
    # swallows it (it is no thin ridge beside the margin). Where the lattice's lines run on about
    # one cell past the last line found, to the picture's edge or to the lattice's own end, that
    # cell row (column) is part of the board.
    height, width = gray.shape
    x0, y0 = x + gx, y + gy

    def one_cell(gap: float, pitch: float) -> bool:
        return 0.75 * pitch <= gap <= 1.3 * pitch

    cut: list[str] = []  # an inferred row or column whose outline lies at the picture's edge
    if one_cell(x0 if x <= 2 else x0 - x, sx):
        x0, cols = x0 - sx, cols + 1
        cut += ["left"] * (x <= 2)
    if one_cell((width if x + w >= width - 2 else x + w) - (x0 + cols * sx), sx):
        cols += 1
        cut += ["right"] * (x + w >= width - 2)
    if one_cell(y0 if y <= 2 else y0 - y, sy):
        y0, rows = y0 - sy, rows + 1
        cut += ["top"] * (y <= 2)
    if one_cell((height if y + h >= height - 2 else y + h) - (y0 + rows * sy), sy):
        rows += 1
        cut += ["bottom"] * (y + h >= height - 2)
    return _Grid(x0, y0, sx, sy, rows, cols, tuple(cut)), (x, y, w, h)


# Of Flow Free's 1,748 square levels with walls (its own packs), none has 1 or 3 walls and 2 have
# 2; blurred and recompressed real screenshots gave single spurious walls (a widened line). Such a
# read is said, not refused: this program's own diagrams of hand-made boards may have one.
FEWEST_WALLS = 4

# A wall is a bright bar: this program's diagrams and the synthetic set draw it at 1.6x the grid
# lines' brightness or more. Perturbed real screenshots (scaled to 35-50 % and recompressed,
# blurred, contrast raised) widened single grid lines into bars of 0.6-1.3x: such a wall is doubtful.
WALL_BRIGHTER = 1.4


def _edge_names(walls: list[Edge]) -> str:
    shown = ", ".join(f"{cell_name(*a)}|{cell_name(*b)}" for a, b in walls[:3])
    return shown + (", ..." if len(walls) > 3 else "")


CUT_SHARE = 0.07  # of a cell: grid lines running on this far past the last line found, to the edge


def _cut_sides(grid: _Grid, box: tuple[int, int, int, int], shape: tuple[int, ...]) -> list[str]:
    """The picture's edges that cut a cell row or column of the board in part: the lattice runs on
    to the edge, more than a sliver past its last line. That part may hold a pair's dot, so the
    board read without it could be a complete, solvable board and still not the one shown (real
    screenshots cropped 4-9 % into the board were read as 9x8 with a pair missing, and accepted)."""
    x, y, w, h = box
    height, width = shape[:2]
    right = width - (grid.x0 + grid.cols * grid.sx)
    bottom = height - (grid.y0 + grid.rows * grid.sy)
    near_x, near_y = max(2.0, 0.05 * grid.sx), max(2.0, 0.05 * grid.sy)  # "at the edge"
    cut = {
        "left": x <= near_x and grid.x0 > CUT_SHARE * grid.sx,
        "right": x + w >= width - near_x and right > CUT_SHARE * grid.sx,
        "top": y <= near_y and grid.y0 > CUT_SHARE * grid.sy,
        "bottom": y + h >= height - near_y and bottom > CUT_SHARE * grid.sy,
    }
    # A lattice that stops a few pixels short of the edge, within a sliver of its last line, is
    # a whole board cropped tight (this program's thick frame ends past its last line: a tight
    # crop of our own diagram was refused as cut). ``_runs_on`` looks at such strips itself.
    short = {
        "left": x > 1 and grid.x0 <= RUN_ON_REACH * grid.sx,
        "right": x + w < width - 1 and right <= RUN_ON_REACH * grid.sx,
        "top": y > 1 and grid.y0 <= RUN_ON_REACH * grid.sy,
        "bottom": y + h < height - 1 and bottom <= RUN_ON_REACH * grid.sy,
    }
    return [side for side, yes in cut.items() if yes and not short[side]]


RUN_ON_REACH = 0.3  # of a cell: how near the picture's edge a last line must be to look past it


def _runs_on(gray: np.ndarray, grid: _Grid) -> list[str]:
    """The sides where the picture ends just past the last grid line found and the lattice's
    lines run on across that strip: a crop that left a sliver of a cell row or column (the line
    found last was an inner one; the line map drops the sliver's short pieces). At the board's
    real outline the lines stop; a tight crop leaves no strip to look at."""
    across = (grid.x0, grid.sx, grid.cols, grid.y0, grid.sy, grid.rows)  # lines across x, then y
    down = (grid.y0, grid.sy, grid.rows, grid.x0, grid.sx, grid.cols)
    sides = _lines_run_on(gray, *across), _lines_run_on(gray.T, *down)
    return [
        name
        for (before, after), names in zip(sides, (("left", "right"), ("top", "bottom")), strict=True)
        for name, yes in zip(names, (before, after), strict=True)
        if yes
    ]


def _lines_run_on(
    gray: np.ndarray, x0: float, sx: float, cols: int, y0: float, sy: float, rows: int
) -> tuple[bool, bool]:
    """Whether the horizontal grid lines (at y0 + k sy) run on past the first and the last
    vertical line (x0, x0 + cols sx) across a strip that ends at the picture's edge."""
    width = gray.shape[1]
    lines = np.clip(np.round(y0 + np.arange(1, rows) * sy), 0, gray.shape[0] - 1).astype(int)
    middles = np.clip(np.round(y0 + (np.arange(1, rows + 1) - 0.5) * sy), 0, gray.shape[0] - 1).astype(int)
    clear = max(2, round(0.02 * sx))  # past the line itself
    out = []
    for edge, step in ((x0, -1), (x0 + cols * sx, 1)):
        at = round(edge)
        gap = at if step < 0 else width - 1 - at  # pixels between the line and the picture's edge
        if not len(lines) or not clear + 3 <= gap <= RUN_ON_REACH * sx:
            out.append(False)
            continue
        near, far = sorted((at + step * (clear + 1), at + step * gap))
        strip = gray[lines, near : far + 1]
        beside = gray[middles[: len(lines)], near : far + 1].astype(np.int16)  # the cells' middles
        # A line runs on where most of the strip's depth is ink, clearly brighter than beside it.
        running = (strip >= np.maximum(LINE_LEVEL, beside + 10)).mean(axis=1) >= 0.8
        out.append(bool(running.mean() >= 0.6))
    return out[0], out[1]


# ---- dots ---------------------------------------------------------------------------------------------


def _is_grey(img: np.ndarray, dots: np.ndarray) -> bool:
    """True for a (near-)grayscale picture: every dot is grey and hardly a pixel has a colour."""
    if len(dots) and float((dots.max(axis=1) - dots.min(axis=1)).max()) >= GREY_CHROMA:
        return False
    step = max(1, round((img.shape[0] * img.shape[1] / 1_000_000) ** 0.5))
    small = img[::step, ::step]
    spread = cv2.subtract(
        cv2.max(cv2.max(small[:, :, 0], small[:, :, 1]), small[:, :, 2]),
        cv2.min(cv2.min(small[:, :, 0], small[:, :, 1]), small[:, :, 2]),
    )
    return float((spread > GREY_CHROMA).mean()) < GREY_SHARE


def _lab(rgb: np.ndarray) -> np.ndarray:
    """CIE Lab (D65, L 0..100) of RGB rows (0..255); plain numpy (OpenCV's float table setup costs
    more than the few colours here)."""
    c = np.asarray(rgb, np.float64).reshape(-1, 3) / 255.0
    lin = np.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)
    xyz = (
        lin
        @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
        / np.array([0.95047, 1.0, 1.08883])
    )
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack((116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])), axis=1)


def _dots(img: np.ndarray, ink: np.ndarray, grid: _Grid) -> tuple[list[Cell], np.ndarray]:
    """Cells holding a dot and their colours (RGB rows)."""
    centres = {
        (r, c): (grid.x0 + (c + 0.5) * grid.sx, grid.y0 + (r + 0.5) * grid.sy)
        for r in range(grid.rows)
        for c in range(grid.cols)
    }
    return _dots_at(img, ink, centres, grid.sx, grid.sy)


def _dots_at(
    img: np.ndarray,
    ink: np.ndarray,
    centres: Mapping[Cell, tuple[float, float]],
    sx: float,
    sy: float,
    ring_radius: float = 0.28,
    letters: bool = False,
) -> tuple[list[Cell], np.ndarray]:
    """Which of the cells centred at ``centres`` (cells ``sx`` by ``sy`` pixels) hold a dot, and
    the dots' colours (RGB rows). ``ring_radius`` (in cells) lies inside the smallest dot;
    ``letters``: dots carry big letters (the app's Hexes), whose strokes may cross the ring."""
    s = min(sx, sy)
    half = max(2, round(0.2 * s))
    angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    ring = ring_radius * np.stack((np.sin(angles), np.cos(angles)), axis=1)  # inside a dot of 70 %
    # A letter drawn in a dot (this program labels colours it repeats) is a few thin strokes: a
    # closing as wide as a stroke fills them, and widens no pipe (a band stays a band).
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, round(0.1 * s)) | 1,) * 2)
    cells: list[Cell] = []
    colours = []
    for cell, (x, y) in centres.items():
        cx, cy = round(x), round(y)
        if cy - half < 0 or cx - half < 0:
            continue
        patch = ink[cy - half : cy + half + 1, cx - half : cx + half + 1]
        if patch.size == 0 or not _filled(patch > DOT_LEVEL, close):
            continue
        # A dot is round: ink all around a ring; a pipe through the centre crosses it twice.
        ring_y = np.clip(cy + np.round(ring[:, 0] * sy).astype(int), 0, ink.shape[0] - 1)
        ring_x = np.clip(cx + np.round(ring[:, 1] * sx).astype(int), 0, ink.shape[1] - 1)
        on_ring = ink[ring_y, ring_x] > DOT_LEVEL
        if letters and on_ring.mean() < 0.85:  # the strokes filled as in the centre patch
            pad = close.shape[0]  # room outside the ring for the closing to see the dot go on
            y0, x0 = max(0, int(ring_y.min()) - pad), max(0, int(ring_x.min()) - pad)
            window = ink[y0 : int(ring_y.max()) + pad + 1, x0 : int(ring_x.max()) + pad + 1] > DOT_LEVEL
            # Outside the window is no ink: a pipe's band must not be closed against the border.
            shut = cv2.morphologyEx(
                window.astype(np.uint8), cv2.MORPH_CLOSE, close, borderType=cv2.BORDER_CONSTANT, borderValue=0
            )
            on_ring = shut[ring_y - y0, ring_x - x0] > 0
        if on_ring.mean() < 0.85:
            continue
        pixels = img[cy - half : cy + half + 1, cx - half : cx + half + 1].reshape(-1, 3)
        colour = np.median(pixels, axis=0)[::-1]  # BGR -> RGB
        if letters:  # the ring is the dot's colour (but for a letter's strokes), not a pipe's and a line's
            near = np.linalg.norm(_lab(img[ring_y, ring_x][:, ::-1]) - _lab(colour), axis=1) < SHAPE_COLOUR
            if near.mean() < RING_COLOUR_SHARE:
                continue
        cells.append(cell)
        colours.append(colour)
    return cells, np.array(colours, np.float64).reshape(-1, 3)


def _filled(mask: np.ndarray, close: np.ndarray) -> bool:
    """True when a dot's centre patch is (almost) all ink, the strokes of a letter in it filled."""
    share = float(mask.mean())
    if share >= 0.8:
        return True
    if share < 0.5:
        return False
    return float(cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, close).mean()) >= 0.8


# Directions (degrees) in which a dot's edge is measured: 30-60 degrees off the axes, where a pipe
# leaving the dot along an axis stays inside the dot's outline.
SHAPE_ANGLES = np.radians([a + q for q in (0, 90, 180, 270) for a in (30, 45, 60)])
SHAPE_COLOUR = 30.0  # Lab distance from a dot's colour up to which a pixel is part of the dot
# Share of a lettered dot's test ring in the dot's own colour: measured on 1,892 hex dots at least
# 0.71 (big letters cross the ring), a pipe's corner under a hand-drawn line at most 0.58.
RING_COLOUR_SHARE = 0.65


def _dot_shapes(
    img: np.ndarray,
    centres: np.ndarray,
    sx: float,
    sy: float,
    rgb: np.ndarray,
    angles: np.ndarray = SHAPE_ANGLES,
    reach: float = 0.5,
) -> list[DotShape]:
    """Each dot's radius and its centre's offset from the cell centre (``centres``: N x (x, y)
    pixels; cells ``sx`` by ``sy``), in cells. Along each of ``angles`` (between the directions
    a pipe may leave in) the dot's edge is the outermost pixel of its colour within ``reach`` of a
    cell (a label drawn inside the dot does not cut it short); a circle's edge distances are
    ``radius + dx cos(a) + dy sin(a)``, fitted by least squares."""
    if not len(centres):
        return []
    steps = np.linspace(0.0, reach, max(8, round(2 * reach * min(sx, sy))))  # about a pixel apart
    cos, sin = np.cos(angles), np.sin(angles)
    xs = centres[:, 0, None, None] + steps[None, None, :] * cos[None, :, None] * sx
    ys = centres[:, 1, None, None] + steps[None, None, :] * sin[None, :, None] * sy
    xs = np.clip(np.round(xs).astype(int), 0, img.shape[1] - 1)
    ys = np.clip(np.round(ys).astype(int), 0, img.shape[0] - 1)
    samples = img[ys, xs][..., ::-1]  # dots x directions x steps x RGB
    lab = _lab(samples.reshape(-1, 3)).reshape(samples.shape)
    dist = np.linalg.norm(lab - _lab(rgb)[:, None, None, :], axis=-1)
    # Closer to the dot than to the background too: a light grey dot on a white diagram is
    # within SHAPE_COLOUR of the background.
    under = np.linalg.norm(lab - _lab(_background(img)[::-1])[0], axis=-1)
    inside = (dist < SHAPE_COLOUR) & (dist < under)
    # The outermost step inside the dot (0 where none is: then the fit says "tiny").
    last = np.where(inside.any(axis=2), len(steps) - 1 - np.argmax(inside[:, :, ::-1], axis=2), 0)
    edge = steps[last]  # dots x directions
    design = np.stack((np.ones_like(cos), cos, sin), axis=1)
    fit, *_ = np.linalg.lstsq(design, edge.T, rcond=None)  # 3 x dots
    return [DotShape(float(r), float(dx), float(dy)) for r, dx, dy in fit.T]


def _group(lab: np.ndarray) -> list[list[int]]:
    """Single-linkage groups of colours closer than ``SAME_COLOUR``."""
    n = len(lab)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if n:
        dist = np.linalg.norm(lab[:, None, :] - lab[None, :, :], axis=2)
        for i, j in zip(*np.nonzero(np.triu(dist < SAME_COLOUR, 1)), strict=True):
            parent[root(int(i))] = root(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return _pair_singles(lab, list(groups.values()))


def _pair_singles(lab: np.ndarray, groups: list[list[int]]) -> list[list[int]]:
    """Join lone dots two by two when each is the other's nearest lone dot and their colours are
    close: a dimmed or tinted part of a screenshot (a notification sliding in, the glow behind
    the board) shifts a dot's colour more than ``SAME_COLOUR``. ``check`` still has the last word."""
    singles = [g[0] for g in groups if len(g) == 1]
    if len(singles) < 2:
        return groups
    dist = np.linalg.norm(lab[singles][:, None, :] - lab[singles][None, :, :], axis=2)
    np.fill_diagonal(dist, np.inf)
    nearest = dist.argmin(axis=1)
    joined: set[int] = set()
    pairs = []
    for a, b in enumerate(nearest):
        if a < b and nearest[b] == a and dist[a, b] < LONE_COLOUR:
            pairs.append([singles[a], singles[int(b)]])
            joined.update((singles[a], singles[int(b)]))
    return [g for g in groups if g[0] not in joined or len(g) > 1] + pairs


def _hex_rgb(code: str) -> tuple[int, int, int]:
    return int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16)


def _known_colours() -> tuple[list[str], np.ndarray]:
    """Letters and Lab values of the colours we can name: the app's, and this program's own
    diagram palettes (so its exported PNGs read back with their letters)."""
    names = list(APP_PALETTE)
    rgb = list(APP_PALETTE.values())
    for palette in (CATEGORICAL_LIGHT, CATEGORICAL_DARK):
        for letter, code in zip(MNEMONIC, palette, strict=False):
            names.append(letter)
            rgb.append(_hex_rgb(code))
    return names, _lab(np.array(rgb))


def _letters(means: np.ndarray) -> list[str]:
    """A colour letter per group: the nearest known colour's mnemonic where close and unclaimed."""
    names, palette = _known_colours()
    dist = np.linalg.norm(means[:, None, :] - palette[None, :, :], axis=2)
    out = [""] * len(means)
    used: set[str] = set()
    for flat in np.argsort(dist, axis=None):
        g, k = divmod(int(flat), len(names))
        if out[g] or names[k] in used or dist[g, k] > NAME_COLOUR:
            continue
        out[g] = names[k]
        used.add(names[k])
    spare = iter(ch for ch in EXTRA if ch not in used)
    return [ch or next(spare) for ch in out]


# ---- bridges -----------------------------------------------------------------------------------------


def _bridges(gray: np.ndarray, chroma: np.ndarray, grid: _Grid, dots: set[Cell]) -> list[Cell]:
    """Cells drawn as a bridge: two thin grey rails across the cell about a third of a cell apart
    (Flow Free: Bridges draws each with a hump in the middle, this program's diagrams with end
    ticks), at least as bright as the grid lines."""
    _, vp, _, hp = _edge_widths(gray, grid)
    peaks = np.concatenate((vp.ravel(), hp.ravel()))
    line = float(np.median(peaks[peaks >= 25])) if (peaks >= 25).any() else 0.0
    level = max(2 * LINE_LEVEL, 0.6 * line)  # the app's light rails and our grid-grey ones
    out = []
    for r in range(grid.rows):
        for c in range(grid.cols):
            if (r, c) in dots:
                continue
            # The cell inside its grid lines.
            x0 = round(grid.x0 + (c + 0.12) * grid.sx)
            x1 = round(grid.x0 + (c + 0.88) * grid.sx)
            y0 = round(grid.y0 + (r + 0.12) * grid.sy)
            y1 = round(grid.y0 + (r + 0.88) * grid.sy)
            if x0 < 0 or y0 < 0 or x1 > gray.shape[1] or y1 > gray.shape[0] or min(x1 - x0, y1 - y0) < 8:
                continue
            inside = gray[y0:y1, x0:x1]
            rails = (inside > level) & (chroma[y0:y1, x0:x1] < GREY_CHROMA)
            ink = inside > LINE_LEVEL
            if _two_rails(rails, ink, grid.sy) or _two_rails(rails.T, ink.T, grid.sx):
                out.append((r, c))
    return out


def _two_rails(rails: np.ndarray, ink: np.ndarray, cell: float) -> bool:
    """True when ``rails`` (rows x columns of a cell's inside) is two thin lines across the cell
    (rows at least half rail) a fifth to three fifths of a cell apart, with rail in almost every
    column (the humps fill the rails' gaps) and little else: no text, no glow, no filled shape;
    and ``ink`` (anything drawn) leaves the band between them mostly empty (a pipe's two edges
    are no rails: the pipe fills the band)."""
    if not 0.02 <= float(rails.mean()) <= 0.3 or float(rails.any(axis=0).mean()) < 0.9:
        return False
    full = np.concatenate(([False], rails.mean(axis=1) >= 0.5, [False]))
    edges = np.flatnonzero(full[1:] != full[:-1])
    runs = list(zip(edges[::2], edges[1::2], strict=True))
    if len(runs) != 2 or any(b - a > 0.1 * cell for a, b in runs):
        return False
    gap = (runs[1][0] + runs[1][1] - runs[0][0] - runs[0][1]) / 2
    band = ink[runs[0][1] : runs[1][0]]
    return 0.2 * cell <= gap <= 0.6 * cell and band.size > 0 and float(band.mean()) < 0.3


# ---- walls and holes ------------------------------------------------------------------------------------


def _edge_widths(gray: np.ndarray, grid: _Grid) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Bright width (pixels) and peak brightness across every vertical and horizontal cell edge.

    Vertical edges: arrays of shape (rows, cols + 1); horizontal edges: (rows + 1, cols). Measured
    on two short stretches away from the edge's middle (where round dots come closest to it) and
    from its corners (where the crossing line is).
    """
    s = min(grid.sx, grid.sy)
    reach = max(2, round(0.15 * s))
    offsets = np.linspace(0.25, 0.38, 4)
    along = np.concatenate((-offsets[::-1], offsets))
    h, w = gray.shape
    span = np.arange(-reach, reach + 1)

    def measure(strips: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # strips: (..., samples along the edge, pixels across it)
        peak = strips.max(axis=-1)
        # Width at half height above the strip's floor: the app's glow behind the board lifts
        # the floor, and measured from zero a whole glowing strip would pass for a wall.
        level = np.maximum((peak + strips.min(axis=-1)) / 2, 25)
        width = (strips > level[..., None]).sum(axis=-1)
        return np.median(width, axis=-1), np.median(peak, axis=-1)

    # vertical edges: rows x (cols + 1) x samples x across
    ys = np.round(grid.y0 + (np.arange(grid.rows)[:, None] + 0.5 + along) * grid.sy).astype(int)
    xs = np.round(grid.x0 + np.arange(grid.cols + 1) * grid.sx).astype(int)[:, None] + span
    vw, vp = measure(gray[np.clip(ys, 0, h - 1)[:, None, :, None], np.clip(xs, 0, w - 1)[None, :, None, :]])
    # horizontal edges: (rows + 1) x cols x samples x across
    xs = np.round(grid.x0 + (np.arange(grid.cols)[:, None] + 0.5 + along) * grid.sx).astype(int)
    ys = np.round(grid.y0 + np.arange(grid.rows + 1) * grid.sy).astype(int)[:, None] + span
    hw, hp = measure(gray[np.clip(ys, 0, h - 1)[:, None, None, :], np.clip(xs, 0, w - 1)[None, :, :, None]])
    return vw, vp, hw, hp


def _hatched(gray: np.ndarray, chroma: np.ndarray, grid: _Grid, r: int, c: int) -> bool:
    """True for a hole as this program draws it: a flat grey fill crossed by diagonal hatch lines
    (a smooth glow or a pipe has no such lines; an empty cell has no fill)."""
    x0 = round(grid.x0 + (c + 0.25) * grid.sx)
    y0 = round(grid.y0 + (r + 0.25) * grid.sy)
    x1 = round(grid.x0 + (c + 0.75) * grid.sx)
    y1 = round(grid.y0 + (r + 0.75) * grid.sy)
    patch = gray[max(0, y0) : y1, max(0, x0) : x1].astype(np.int16)
    if patch.size < 36:
        return False
    fill = int(np.median(patch))
    if fill < HOLE_FILL or int(np.median(chroma[max(0, y0) : y1, max(0, x0) : x1])) > HOLE_CHROMA:
        return False
    off = np.abs(patch - fill) > 12
    share = float(off.mean())
    if not 0.02 <= share <= 0.4:  # hatch lines are a small part of the fill
        return False
    ys, xs = np.nonzero(off)

    width = max(5, round(0.06 * min(grid.sx, grid.sy)))  # a hatch line's spread, scaled

    def gathered(key: np.ndarray) -> float:
        counts = np.bincount(key - key.min())
        window = np.convolve(counts, np.ones(width), mode="same")
        return float(window.max()) / len(key)

    along, across = gathered(xs + ys), gathered(xs - ys)  # "/" lines share x + y
    return max(along, across) >= 0.5 and min(along, across) < 0.35


@dataclass(frozen=True)
class _EdgeReading:
    walls: list[Edge]
    faint: list[Edge]  # walls whose bar is no brighter than the grid lines (see WALL_BRIGHTER)
    holes: list[Cell]
    pipes: int  # thick coloured bars taken for pipes, not walls


def _walls_and_holes(gray: np.ndarray, chroma: np.ndarray, grid: _Grid, dots: set[Cell]) -> _EdgeReading:
    """Walls (and which of them are faint), holes, and how many thick coloured bars were pipes."""
    vw, vp, hw, hp = _edge_widths(gray, grid)
    # Walls are grey bars; a coloured one is a pipe drawn across the edge (a partly solved board).
    _, vc, _, hc = _edge_widths(chroma, grid)
    s = min(grid.sx, grid.sy)
    present = np.concatenate((vp.ravel(), hp.ravel())) >= 25
    widths = np.concatenate((vw.ravel(), hw.ravel()))[present]
    if not len(widths):
        return _EdgeReading([], [], [], 0)
    line = float(np.percentile(widths, 25))  # most edges are plain lines, but walls may be many
    wall_at = line + max(2.0, 0.035 * s)  # a wall is a bar of at least a tenth of a cell
    vthick = (vw >= wall_at) & (vp >= 25)
    hthick = (hw >= wall_at) & (hp >= 25)
    vwall = vthick & (vc < GREY_CHROMA)
    hwall = hthick & (hc < GREY_CHROMA)
    pipes = int((vthick & ~vwall)[:, 1:-1].sum() + (hthick & ~hwall)[1:-1, :].sum())
    vopen = (vp >= 25) & ~vwall  # an ordinary grid line
    hopen = (hp >= 25) & ~hwall
    holes = [
        (r, c)
        for r in range(grid.rows)
        for c in range(grid.cols)
        if (r, c) not in dots
        and (
            not (vopen[r, c] or vopen[r, c + 1] or hopen[r, c] or hopen[r + 1, c])
            or _hatched(gray, chroma, grid, r, c)
        )
    ]
    hole_set = set(holes)
    faint_at = WALL_BRIGHTER * float(np.median(np.concatenate((vp.ravel(), hp.ravel()))[present]))
    walls: list[Edge] = []
    faint: list[Edge] = []
    for r in range(grid.rows):
        for c in range(1, grid.cols):
            if vwall[r, c] and (r, c - 1) not in hole_set and (r, c) not in hole_set:
                walls.append(((r, c - 1), (r, c)))
                if vp[r, c] < faint_at:
                    faint.append(walls[-1])
    for r in range(1, grid.rows):
        for c in range(grid.cols):
            if hwall[r, c] and (r - 1, c) not in hole_set and (r, c) not in hole_set:
                walls.append(((r - 1, c), (r, c)))
                if hp[r, c] < faint_at:
                    faint.append(walls[-1])
    return _EdgeReading(sorted(walls), sorted(faint), holes, pipes)


def _line_distance(size: int, first: float, pitch: float) -> np.ndarray:
    """(size,) distance in pixels from each pixel row (column) to the nearest grid line."""
    offset = (np.arange(size, dtype=np.float32) - np.float32(first)) % np.float32(pitch)
    return np.minimum(offset, np.float32(pitch) - offset)


def _without_short_strokes(img: np.ndarray, gray: np.ndarray, grid: _Grid) -> tuple[np.ndarray, np.ndarray]:
    """The picture with short thin coloured strokes painted over in the background colour.

    This program's keyboard cursor, a dashed 2 px box just inside a cell, read as a pipe across
    that cell's edges ("pipes drawn ... were ignored" on a board without pipes) and, round a dot
    of a like colour, as part of the dot (the 14x14 sample refused: "the dot at R1C1 is much
    larger"). Thin = gone after an opening a tenth of a cell wide (pipes and dots are a third of a
    cell and more); short = no longer than a cell, so the long lines other solvers draw over the
    grid (and the grid's own lines, which are grey) stay."""
    s = min(grid.sx, grid.sy)
    k = max(3, round(0.1 * s)) | 1
    coloured = (_chroma(img) > GREY_CHROMA).astype(np.uint8)
    thick = cv2.morphologyEx(coloured, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    thin = cv2.subtract(coloured, thick)
    if not thin.any():
        return img, gray
    count, labels, stats, _ = cv2.connectedComponentsWithStats(thin, connectivity=8)
    short = np.zeros(count, bool)
    short[1:] = np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]) <= s
    # Only pieces along the grid lines (the cursor runs 1-4 px inside a cell's sides): the slivers
    # of a dot between the strokes of the letter drawn in it (a many-coloured export lost 11 of
    # its 50 dots) lie further in, or touch the dot's body.
    short[np.unique(labels[cv2.dilate(thick, np.ones((3, 3), np.uint8)) > 0])] = False
    off_line = np.minimum(
        _line_distance(thin.shape[0], grid.y0, grid.sy)[:, None],
        _line_distance(thin.shape[1], grid.x0, grid.sx)[None, :],
    )
    short[np.unique(labels[(thin > 0) & (off_line > max(5.0, 0.13 * s))])] = False
    strokes = short[labels]
    if not strokes.any():
        return img, gray
    img = img.copy()
    img[strokes] = _background(img)
    gray = gray.copy()
    gray[strokes] = 0
    return img, gray


# ---- the whole reading ----------------------------------------------------------------------------------


def detect(img: np.ndarray) -> Detection:
    """Read a BGR screenshot. Raises ``InputError`` when no board can be read at all.

    A board that cannot be read is read again with coloured thin ridges left out of the grid
    lines: this program's own window at 1024 px draws a 20x12 answer with 8 px pipes, thin ridges
    at the cells' centres that doubled the lattice (40x24, no dots). Not on the first reading:
    the Flow app tints grid lines by pack and other solvers draw red lines over them (150 real
    pictures of the benchmark lost their grid that way)."""
    try:
        return _detect(img, grey_only=False)
    except InputError as first:
        try:
            return _detect(img, grey_only=True)
        except InputError:
            raise first from None


def _detect(img: np.ndarray, grey_only: bool) -> Detection:
    if img.ndim != 3 or img.shape[2] != 3:
        raise InputError("not a colour image")
    gray = _ink(img)
    if int(gray.max()) > LINE_LEVEL:
        orientation = hex_orientation(gray)
        if orientation:
            return _detect_hex(img, gray, orientation)
    grid, box = _find_grid(img, gray, grey_only)
    if grid.rows < 2 or grid.cols < 2:
        raise InputError(f"unreadable grid: found only {grid.cols}x{grid.rows} cells")
    skew = abs(grid.sx - grid.sy) / max(grid.sx, grid.sy)
    cell_size = f"{grid.sx:.0f}x{grid.sy:.0f} px"
    if skew > 0.25:  # Flow cells are square: this is some other grid (a photo, a table)
        raise InputError(
            f"unreadable grid: a {grid.cols}x{grid.rows} grid of {cell_size} cells is no Flow board "
            "(a photo, a phone frame or a table?): crop the picture to the board"
        )
    warnings: list[str] = []
    if skew > 0.12:
        warnings.append(f"cells are not square ({cell_size}): the grid size may be wrong")
    img, gray = _without_short_strokes(img, gray, grid)
    cells, rgb = _dots(img, gray, grid)
    endpoints, colours = _named(cells, rgb)
    geometry = (grid.x0, grid.y0, grid.sx, grid.sy)
    if not cells or _is_grey(img, rgb):
        partial = Detection(grid.rows, grid.cols, endpoints, colours, (), (), tuple(warnings), box, geometry)
        _refuse_dots(img, cells, rgb, partial)
    chroma = _chroma(img)
    bridges = _bridges(gray, chroma, grid, set(cells))
    edges = _walls_and_holes(gray, chroma, grid, set(cells) | set(bridges))
    walls, holes, pipes = edges.walls, edges.holes, edges.pipes
    if pipes:
        warnings.append(f"pipes drawn across {pipes} cell edge{'s' * (pipes > 1)} were ignored")
    if grid.cut_outline:  # said, not refused: tight crops that cut the outline are read right
        sides = " and ".join(grid.cut_outline)
        warnings.append(
            f"the picture cuts the board's outline off at its {sides} edge: if the board goes on past "
            "that edge, this is not the whole board"
        )
    if 0 < len(walls) < FEWEST_WALLS:  # said, not refused: this program's own diagrams may have one
        warnings.append(
            f"{len(walls)} wall{'s' * (len(walls) > 1)} read ({_edge_names(walls)}), and Flow Free's levels "
            f"with walls have {FEWEST_WALLS} or more: in a blurred or compressed picture a widened grid "
            "line reads as a wall; check it"
        )
    centres = np.array([(grid.x0 + (c + 0.5) * grid.sx, grid.y0 + (r + 0.5) * grid.sy) for r, c in cells])
    shapes = dict(zip(cells, _dot_shapes(img, centres.reshape(-1, 2), grid.sx, grid.sy, rgb), strict=True))
    found = Detection(
        grid.rows,
        grid.cols,
        endpoints,
        colours,
        tuple(walls),
        tuple(holes),
        tuple(warnings),
        box,
        geometry,
        shapes,
        tuple(bridges),
    )
    cut = _cut_sides(grid, box, img.shape) or _runs_on(gray, grid)
    if cut:
        where = " and ".join(cut)
        raise BoardRefused(
            f"the picture cuts the board off at its {where} edge (part of a cell shows there): "
            "take a picture with the whole board",
            found,
        )
    if edges.faint:
        many = len(edges.faint) > 1
        raise BoardRefused(
            f"{len(edges.faint)} wall{'s' * many} read ({_edge_names(edges.faint)}) {'are' if many else 'is'} "
            "no brighter than the grid lines: in a blurred, scaled or compressed picture a widened grid line "
            "looks like that; check the walls against the picture",
            found,
        )
    return found


def _named(cells: list[Cell], rgb: np.ndarray) -> tuple[dict[str, tuple[Cell, ...]], dict[str, str]]:
    """The dots grouped by colour under the colours' letters, and each letter's measured colour."""
    lab = _lab(rgb) if len(rgb) else np.zeros((0, 3))
    groups = _group(lab)
    means = np.array([lab[g].mean(axis=0) for g in groups]).reshape(-1, 3)
    letters = _letters(means)
    if is_label_form(set(letters)):
        # Letters all in A..P would be read as colour indices (C = yellow, not cyan): write the
        # same colours in that form instead.
        letters = [LABELS[MNEMONIC.index(ch)] for ch in letters]
    endpoints: dict[str, tuple[Cell, ...]] = {}
    colours: dict[str, str] = {}
    for letter, members in sorted(
        zip(letters, groups, strict=True), key=lambda t: min(cells[i] for i in t[1])
    ):
        endpoints[letter] = tuple(sorted(cells[i] for i in members))
        mean = rgb[members].mean(axis=0).round().astype(int)
        colours[letter] = "#{:02x}{:02x}{:02x}".format(*(int(v) for v in mean))
    return endpoints, colours


def _refuse_dots(img: np.ndarray, cells: list[Cell], rgb: np.ndarray, partial: Detection) -> None:
    """Raise ``BoardRefused`` for a board without dots or with grey ones only."""
    if not cells:
        raise BoardRefused(f"no endpoint dots found on the {partial.cols}x{partial.rows} grid", partial)
    if _is_grey(img, rgb):  # grey dots differ only in brightness: any pairing would be a guess
        raise BoardRefused("not a colour image: a Flow board's dots are paired by their colours", partial)


# Directions in which a dot's edge is measured on a hex board (degrees, in the flat-topped frame
# the reading uses): between the six directions a pipe may leave in (30, 90, 150, ...).
HEX_SHAPE_ANGLES = np.radians([a + d for a in range(0, 360, 60) for d in (-6, 0, 6)])


def _detect_hex(img: np.ndarray, gray: np.ndarray, orientation: str) -> Detection:
    """Read a hex board (see ``screenshot_hex``): its cells in the solver's odd-r layout, the dots
    at their centres. Dots are measured in the frame the lattice was read in."""
    board = find_hex_board(img, gray, orientation)
    if board.transposed:
        img, gray = np.ascontiguousarray(img.transpose(1, 0, 2)), np.ascontiguousarray(gray.T)
    # The app's hex dots are smaller (radius 0.32 of a cell): the ring test stays inside them.
    cells, rgb = _dots_at(img, gray, board.centres, board.pitch, board.pitch, ring_radius=0.22, letters=True)
    endpoints, colours = _named(cells, rgb)
    xs = [x for x, _ in board.centres.values()]
    ys = [y for _, y in board.centres.values()]
    x0, y0 = min(xs) - board.pitch / 2, min(ys) - board.pitch / 2
    box = (x0, y0, max(xs) - x0 + board.pitch / 2, max(ys) - y0 + board.pitch / 2)
    if board.transposed:
        box = (box[1], box[0], box[3], box[2])
    found = Detection(
        board.rows,
        board.cols,
        endpoints,
        colours,
        holes=board.holes,
        warnings=(board.turned(),) if board.turned() else (),
        board=tuple(round(v) for v in box),  # type: ignore[arg-type]
        hex_frame=board.frame,
    )
    if not cells or _is_grey(img, rgb):
        _refuse_dots(img, cells, rgb, found)
    centres = np.array([board.centres[cell] for cell in cells]).reshape(-1, 2)
    # Short of the hexagon's side (half a cell away): a grey dot is near the olive outline's colour.
    shapes = _dot_shapes(img, centres, board.pitch, board.pitch, rgb, HEX_SHAPE_ANGLES, reach=0.42)
    return replace(found, shapes=dict(zip(cells, shapes, strict=True)))


def to_puzzle(found: Detection) -> tuple[FlowPuzzle, list[str]]:
    """The puzzle with its endpoints, walls and holes, and the detection's warnings."""
    cells = [EMPTY] * (found.rows * found.cols)
    for r, c in found.holes:
        cells[r * found.cols + c] = HOLE
    for r, c in found.bridges:
        cells[r * found.cols + c] = BRIDGE
    for letter, where in found.endpoints.items():
        for r, c in where:
            cells[r * found.cols + c] = letter
    walls = frozenset(wall(a, b) for a, b in found.walls)
    puzzle = FlowPuzzle(found.rows, found.cols, tuple(cells), walls=walls, hex=found.hex)
    return puzzle, list(found.warnings)


def import_screenshot(path: str | os.PathLike[str]) -> tuple[FlowPuzzle, list[str]]:
    """Read an image file into a puzzle plus notes: what could not be read or imported.

    Raises ``InputError`` (naming the file) when the file is no readable image or holds no board.
    A colour with one or three dots, or a board that fails ``check``, is no error here: the editor
    shows the board with the reason for the user to confirm or correct.
    """
    name = Path(path).name
    img = read_image(path)
    try:
        found = detect(img)
    except InputError as exc:
        raise InputError(f"{name}: {exc}") from None
    paired, why = pair_repeats(found)
    puzzle, notes = to_puzzle(paired)
    problems = ([why] if why else []) + paired.problems()
    return puzzle, (problems or check(paired)) + notes


# ---- is it a level? --------------------------------------------------------------------------------

SOLVE_BUDGET = 2.0  # seconds (wall) to confirm a read board is a level; real ones take milliseconds


def check(found: Detection, budget: float = SOLVE_BUDGET, cancel: CancelToken | None = None) -> list[str]:
    """Why the read board cannot be the level in the picture (empty when it may be): a real level
    has every colour exactly twice and exactly one solution. A misread grid or dot makes one of
    these fail far more often than not, so the board is refused rather than answered wrongly.
    ``cancel`` (the GUI's Cancel) stops the solver and raises ``Cancelled``."""
    problems = found.problems()
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return [f"{problems[0]}{more}; endpoints must come in pairs"]
    odd = odd_dots(found)
    if odd:
        more = f" (and {len(odd) - 1} more)" if len(odd) > 1 else ""
        return [f"{next(iter(odd.values()))}{more}: the grid or a dot was probably misread"]
    edge = "" if found.hex else _empty_edge(found)  # hex levels are shaped: their outline is read
    if edge:
        return [
            f"{edge} of the read {found.cols}x{found.rows} grid is mostly holes without a dot: the grid reaches past the board"
        ]
    puzzle, _ = to_puzzle(found)
    try:
        puzzle.require_valid()
    except InputError as exc:
        return [f"the read board is no valid level ({exc})"]
    solutions, timed_out = count_solutions(puzzle, budget, cancel)
    size = f"{found.cols}x{found.rows}"
    if solutions == 1 and not timed_out:
        return []
    if solutions > 1:  # the app's levels have one solution (all 661 real ones measured): a missed pair
        return [f"the read {size} board has more than one solution: a pair of dots was probably missed"]
    if timed_out:  # not confirmed: refused too, a wrong board costs more than a retry
        return [f"could not confirm within {budget:g} s that the read {size} board has one solution"]
    return [f"the read {size} board has no solution: the grid or a dot was misread (warps are not read)"]


def count_solutions(puzzle: FlowPuzzle, budget: float, cancel: CancelToken | None = None) -> tuple[int, bool]:
    """How many designed solutions ``puzzle`` has, counted up to 2, and whether ``budget``
    seconds (wall) ran out first (then the count is a lower bound). ``cancel`` (the GUI's
    Cancel) stops the solver and raises ``Cancelled``."""
    from solvers.flow.solve import solve  # the solver loads only when a board was read

    # Below this size the solver's kernels run as plain Python (50 ms at 15x15), even where numba
    # is imported (the GUI's worker processes): loading the kernels takes a second or more, which
    # would eat the budget (real levels were refused under load).
    plain = puzzle.rows * puzzle.cols <= 400
    token = CancelToken(timeout=budget)
    unhook = cancel.on_cancel(lambda: token.cancel("cancelled")) if cancel is not None else None
    solutions = 0
    try:
        with forced("python") if plain else nullcontext():
            for _ in solve(puzzle, limit=2, cancel=token, rules="designed"):
                solutions += 1
    except Cancelled:
        pass
    finally:
        if unhook is not None:
            unhook()
    if cancel is not None:
        cancel.raise_if_cancelled()
    return solutions, token.cancelled


# ---- colours drawn for more than one pair -------------------------------------------------------------
# A board with more pairs than its palette has colours draws some colours twice (this program's
# diagrams repeat their 24 colours), so the reader finds four (six, ...) dots of one colour and
# cannot tell which two belong together. Every way to pair them is solved: the dots are paired
# only when exactly one way gives a level with one solution and every other way provably has none,
# which is what a unique level with those dots must satisfy anyway. Anything less (two ways that
# solve, a solve that runs out of time, too many ways to try) leaves the board refused, with why.

MAX_PAIRINGS = 27  # ways tried at most: three colours of 4 dots, or one of 6 (15)
PAIRING_BUDGET = 4 * SOLVE_BUDGET  # seconds (wall) for all the ways together


def pairings(cells: tuple[Cell, ...]) -> Iterator[list[tuple[Cell, Cell]]]:
    """Every way to split an even number of dots into pairs (3 for 4 dots, 15 for 6)."""
    if not cells:
        yield []
        return
    first, rest = cells[0], cells[1:]
    for i, other in enumerate(rest):
        for more in pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


def _count(n: int) -> int:
    """How many ways ``n`` dots pair up: (n - 1)(n - 3)...1."""
    return 1 if n <= 0 else (n - 1) * _count(n - 2)


def pair_repeats(
    found: Detection, budget: float = PAIRING_BUDGET, cancel: CancelToken | None = None
) -> tuple[Detection, str]:
    """``found`` with each colour of 4, 6, ... dots split into pairs under letters of their own
    (the same measured colour), and "" when that pairing is proven; else ``found`` unchanged and
    why the dots could not be paired ("" too when no colour has more than two dots, or some
    colour has an odd number: ``check`` refuses those). ``cancel`` raises ``Cancelled``."""
    repeated = {k: v for k, v in found.endpoints.items() if len(v) > 2}
    if not repeated or any(len(v) % 2 for v in found.endpoints.values()):
        return found, ""
    names = ", ".join(f"{k!r} ({len(v)} dots)" for k, v in repeated.items())
    ways = 1
    for cells in repeated.values():
        ways *= _count(len(cells))
    if ways > MAX_PAIRINGS:
        return found, (
            f"colours drawn for more than one pair: {names}; {ways} ways to pair them are too many to prove one"
        )
    start = time.monotonic()
    proven: list[Detection] = []
    for choice in product(*(pairings(cells) for cells in repeated.values())):
        endpoints = {k: v for k, v in found.endpoints.items() if k not in repeated}
        colours = dict(found.colours)
        spare = iter(ch for ch in LETTERS if ch not in found.endpoints)  # the same letters each way
        for letter, pairs in zip(repeated, choice, strict=True):
            endpoints[letter] = pairs[0]
            for pair in pairs[1:]:
                extra = next(spare, None)
                if extra is None:
                    return (
                        found,
                        f"colours drawn for more than one pair: {names}; no letters left for the pairs",
                    )
                endpoints[extra] = pair
                colours[extra] = found.colours.get(letter, "#ffffff")
        trial = replace(found, endpoints=endpoints, colours=colours)
        puzzle, _ = to_puzzle(trial)
        try:
            puzzle.require_valid()
        except InputError:
            continue  # no level: this way is out
        left = budget - (time.monotonic() - start)
        solutions, timed_out = count_solutions(puzzle, max(0.0, left), cancel)
        if timed_out:
            return (
                found,
                f"colours drawn for more than one pair: {names}; could not prove within {budget:g} s which dots pair",
            )
        if solutions > 1:
            return (
                found,
                f"colours drawn for more than one pair: {names}; a way to pair them has several solutions",
            )
        if solutions == 1:
            proven.append(trial)
    if len(proven) != 1:
        how = "no way to pair them gives" if not proven else f"{len(proven)} ways to pair them give"
        return found, f"colours drawn for more than one pair: {names}; {how} a level"
    note = f"dots of a colour drawn for more than one pair ({names}) paired by the only way that solves"
    return replace(proven[0], warnings=(*found.warnings, note)), ""


def checked(
    found: Detection, budget: float | None = None, cancel: CancelToken | None = None
) -> tuple[Detection, list[str]]:
    """The board as it may be used (colours drawn twice paired, see ``pair_repeats``) and why it
    cannot be the level in the picture (``check``; empty when it may be)."""
    paired, why = pair_repeats(found, cancel=cancel)
    if why:
        return found, [why]
    return paired, check(paired, cancel=cancel) if budget is None else check(paired, budget, cancel)


# A dot whose radius differs from the others' median by more than this share, or whose centre is
# further than this from its cell's centre (in cells), is no dot the app drew in that cell: a misread
# grid shifts the dots off their cells' centres, an icon or a blob read as a dot has its own size.
# Measured: real screenshots within 1.5 % and 0.006 cell, the synthetic set within 15 % and 0.05.
DOT_SIZE_SPREAD = 0.25
DOT_OFF_CENTRE = 0.08


def odd_dots(found: Detection) -> dict[Cell, str]:
    """Dots whose size or centring is unlike an endpoint's, each with why (row-major order)."""
    if not found.shapes:
        return {}
    usual = float(np.median([shape.radius for shape in found.shapes.values()]))
    out: dict[Cell, str] = {}
    for (r, c), shape in sorted(found.shapes.items()):
        where = f"the dot at R{r + 1}C{c + 1}"
        off = float(np.hypot(shape.dx, shape.dy))
        if len(found.shapes) >= 3 and abs(shape.radius - usual) > DOT_SIZE_SPREAD * usual:
            size = "smaller" if shape.radius < usual else "larger"
            out[(r, c)] = (
                f"{where} is much {size} than the others"
                f" (radius {shape.radius:.2f} of a cell, the others {usual:.2f})"
            )
        elif off > DOT_OFF_CENTRE:
            out[(r, c)] = f"{where} sits {off:.2f} of a cell off its cell's centre"
    return out


def _empty_edge(found: Detection) -> str:
    """The first outer row or column without a dot and half or more of it holes ("row 1"), else
    "": a real board would simply be smaller, so such a row is header, footer or margin read as
    board (the app's shaped levels leave out corners, not most of a side)."""
    holes = set(found.holes)
    dots = {cell for cells in found.endpoints.values() for cell in cells}
    lines = [(f"row {r + 1}", [(r, c) for c in range(found.cols)]) for r in (0, found.rows - 1)]
    lines += [(f"column {c + 1}", [(r, c) for r in range(found.rows)]) for c in (0, found.cols - 1)]
    for name, cells in lines:
        if not dots.intersection(cells) and 2 * sum(cell in holes for cell in cells) >= len(cells):
            return name
    return ""
