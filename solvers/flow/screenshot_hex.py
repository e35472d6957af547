"""The lattice of a hex board in a picture (Flow Free: Hexes, this program's hex diagrams).

Only geometry: which cells the picture shows and where their centres are; ``screenshot.detect``
reads the dots at those centres as it does on square boards. Steps:

1. The thin lines (a white top-hat of the ink) run in three directions 60 degrees apart: 0, 60
   and 120 degrees for flat-topped hexagons, 90, 30 and 150 for pointy-topped ones. A pointy
   picture is read transposed (x and y swapped), which makes its hexagons flat-topped, so the rest
   handles one orientation.
2. In the flat-topped frame, the horizontal sides lie on lines half a cell height apart (their
   profile gives the spacing, as grid lines do on square boards), and along x they cover the
   middle of each column: the phase that best fits that profile gives the column centres. Which
   half-lines hold a column's top and bottom sides alternates from column to column.
3. A lattice position is a cell when its outline is drawn: each of its six sides has line on it
   (sampled away from its middle) or a pipe across its middle. Positions just outside the board
   share at most four sides with it; the largest group of neighbouring cells is the board. A cell filled evenly in this program's muted grey
   is a hole (its diagrams draw holes so).
4. The cells go into the solver's layout: odd-r rows of pointy-topped hexagons (odd rows half a
   cell to the right). A flat-topped picture's columns become rows (a transpose), mirrored when
   its first column sits lower than the second, so the board may show turned or mirrored; the
   puzzle (which cells neighbour which) is the same.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from solvers.common.errors import InputError
from solvers.common.palette import DARK_ROLES, LIGHT_ROLES

SQRT3 = math.sqrt(3.0)
LINE_LEVEL = 18  # as on square boards: ink above this in a thin ridge is line
HEX_SHARE = 0.1  # share of the straight runs at +-60 (or +-30) degrees
HEX_RUNS = 6  # straight runs at least in each of the two slants
MAX_CELLS = 40  # per side, as on square boards
WORK_SIDE = 800  # pixels: larger pictures are read shrunk to this shorter side
MIN_SIDE = 6.0  # pixels: a hexagon's side; smaller cells cannot hold a readable dot
SIDE_HITS = 3  # of the 6 samples along a side that must be line for the side to be drawn
CELL_SIDES = 6  # of the 6 sides that must be drawn for a position to be a cell
HOLE_TOLERANCE = 12  # largest channel difference of a hole's fill from this program's muted grey
HOLE_SPREAD = 12  # largest spread (90th - 10th percentile of ink) of an evenly filled hole
SAMPLES = np.array([0.1, 0.2, 0.3, 0.7, 0.8, 0.9])  # along a side, away from its middle
MIDDLE = np.array([0.35, 0.5, 0.65])  # across a side's middle, where a pipe crosses it
PIPE_LEVEL = 60  # ink of a pipe (as of a dot): far above lines' glow and this program's hole fill


def _thin(gray: np.ndarray, k: int) -> np.ndarray:
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    return (cv2.morphologyEx(gray, cv2.MORPH_TOPHAT, ellipse) > LINE_LEVEL).astype(np.uint8)


def _shrunk(img: np.ndarray) -> np.ndarray:
    """``img`` scaled down to a shorter side of ``WORK_SIDE`` (if longer): the lattice needs far
    fewer pixels than a phone's screenshot has, and its filters cost by the pixel."""
    factor = WORK_SIDE / min(img.shape[:2])
    if factor >= 1.0:
        return img
    return cv2.resize(img, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)


def hex_orientation(gray: np.ndarray) -> str:
    """ "flat" or "pointy" when the picture's long thin lines run in three directions 60 degrees
    apart (a lattice of hexagons) rather than across and down as on a square board, else ""."""
    gray = _shrunk(gray)
    k = max(5, round(min(gray.shape) / 90)) | 1
    thin = _thin(gray, k) * 255
    n = min(gray.shape)
    found = cv2.HoughLinesP(
        thin, 1, np.pi / 180, threshold=max(20, n // 35), minLineLength=n // 35, maxLineGap=3
    )
    if found is None:
        return ""
    x1, y1, x2, y2 = found.reshape(-1, 4).astype(np.float64).T
    angle = np.round(np.degrees(np.arctan2(y2 - y1, x2 - x1))).astype(int) % 180

    def count(direction: int) -> int:  # runs within 4 degrees of ``direction``
        return int((np.abs((angle - direction + 90) % 180 - 90) <= 4).sum())

    # Runs are counted, not measured: a banner's or a frame's long edges (across and down)
    # would outweigh a board of small hexagons. Only hexagons give many runs in both slants.
    total = len(angle)
    for name, slants, others in (("flat", (60, 120), (30, 150)), ("pointy", (30, 150), (60, 120))):
        a, b = count(slants[0]), count(slants[1])
        if (
            min(a, b) >= HEX_RUNS
            and min(a, b) >= 0.3 * max(a, b)
            and a + b >= HEX_SHARE * total
            and a + b >= 3 * (count(others[0]) + count(others[1]))
        ):
            return name
    return ""


@dataclass(frozen=True)
class HexBoard:
    """Cells of a hex board, in the solver's odd-r layout, with their centres in the *read* frame
    (the picture, transposed when ``transposed``)."""

    rows: int
    cols: int
    centres: dict[tuple[int, int], tuple[float, float]]  # board cell -> centre (x, y) in the read frame
    holes: tuple[tuple[int, int], ...]  # lattice positions inside the rows x cols box that are no cell
    pitch: float  # centre to centre of neighbouring cells (a hexagon's width, flat side to flat side)
    transposed: bool  # True for a pointy-topped picture (read with x and y swapped)
    frame: tuple[float, float, float, float, float, float]  # affine: HexGeometry(cell=1) -> picture
    mirrored: bool = False  # the picture's half-rows were counted from the bottom

    def turned(self) -> str:
        """How the board read differs from the picture ("" when it is drawn alike)."""
        if self.transposed:
            return ""
        # Columns read as rows is a mirror image across the diagonal; counted from the bottom as
        # well, it is a quarter turn.
        how = "turned a quarter turn" if self.mirrored else "mirrored across its diagonal"
        return (
            f"flat-topped hexagons: the board is {how} (the picture's columns are its rows;"
            " the solver lays hex boards out in rows)"
        )


def _lines(thin: np.ndarray, angle: float, length: int) -> np.ndarray:
    """The parts of ``thin`` that run straight at ``angle`` degrees for ``length`` pixels."""
    size = length | 1
    kernel = np.zeros((size, size), np.uint8)
    half = size // 2
    dx, dy = math.cos(math.radians(angle)) * half, math.sin(math.radians(angle)) * half
    cv2.line(kernel, (round(half - dx), round(half - dy)), (round(half + dx), round(half + dy)), 1, 1)
    return cv2.morphologyEx(thin, cv2.MORPH_OPEN, kernel)


def _sides(masks: list[np.ndarray]) -> tuple[np.ndarray, float]:
    """Middles (x, y) of the hexagons' sides, and the side length: straight runs in the three
    directions about one side long. A side ends where two others meet it, so every run of the
    lattice is one side long; a hand-drawn line's pieces, a letter's bars and sides cut by a pipe
    are shorter or longer, and spread over many lengths."""
    middles, lengths = [], []
    for mask, angle in zip(masks, (0.0, 60.0, 120.0), strict=True):
        _, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
        w = stats[1:, cv2.CC_STAT_WIDTH].astype(np.float64)
        h = stats[1:, cv2.CC_STAT_HEIGHT].astype(np.float64)
        if angle == 0.0:
            length, straight = w, h <= 0.35 * w
        else:  # a run at 60 degrees spans sqrt(3) times its width in height
            length = np.hypot(w, h)
            straight = np.abs(h - SQRT3 * w) <= 0.35 * length
        middles.append(centroids[1:][straight])
        lengths.append(length[straight])
    middle, length = np.concatenate(middles), np.concatenate(lengths)
    if len(length) < 6:
        raise InputError("unreadable hex board: too few sides of hexagons found")
    # The side length: the densest cluster of run lengths (within 8 %), weighted by length. The
    # sides agree closely; a letter's bars, JPEG specks and cut sides spread over all lengths.
    close = np.abs(length[None, :] - length[:, None]) <= 0.08 * length[:, None]
    side = float(length[int(np.argmax((close * length[None, :]).sum(axis=1)))])
    keep = (length >= 0.7 * side) & (length <= 1.4 * side)
    if keep.sum() < 6:
        raise InputError("unreadable hex board: too few sides of hexagons found")
    return middle[keep], side


def _on_board(masks: list[np.ndarray], middles: np.ndarray) -> np.ndarray:
    """The side middles within the largest connected web of lines: the hexagons' sides meet at
    their corners, while a round button's or a letter's straight bits stand apart (and would
    pull the fitted spacing off)."""
    joined = cv2.dilate(masks[0] | masks[1] | masks[2], np.ones((5, 5), np.uint8))
    _, labels = cv2.connectedComponents(joined, connectivity=8)
    ys = np.clip(np.round(middles[:, 1]).astype(int), 0, labels.shape[0] - 1)
    xs = np.clip(np.round(middles[:, 0]).astype(int), 0, labels.shape[1] - 1)
    owner = labels[ys, xs]
    counts = np.bincount(owner[owner > 0])
    if not len(counts):
        return middles
    return middles[owner == int(np.argmax(counts))]


def _fit_axis(values: np.ndarray, period: float) -> tuple[float, float]:
    """Origin and step of positions ``values`` that lie on evenly spaced lines roughly
    ``period`` apart (the guess may be 20 % off; some lines empty, a few strays): the step whose
    phases of all values agree best (their resultant vector is longest; half the step would
    agree as well, so the search stays above it), then a least-squares fit of the values that
    lie near their lines."""
    v = np.asarray(values, np.float64)
    steps = np.linspace(0.6 * period, 1.25 * period, 260)
    for _ in range(2):  # a coarse search, then a fine one around the best step
        strength = np.abs(np.exp(2j * np.pi * v[None, :] / steps[:, None]).sum(axis=1))
        best = float(steps[int(np.argmax(strength))])
        steps = np.linspace(0.99 * best, 1.01 * best, 81)
    step, first = best, float(np.angle(np.exp(2j * np.pi * v / best).sum()) / (2 * np.pi) * best) % best
    # The resultant's peak is broad on a small board: a few least-squares rounds, each taking in
    # the values that lie near their lines by the last fit, bring the far lines in.
    for _ in range(4):
        k = np.round((v - first) / step)
        near = np.abs(v - first - k * step) < 0.15 * step
        if near.sum() < 2 or len(np.unique(k[near])) < 2:
            raise InputError("unreadable hex board: too few rows of hexagons")
        step, first = (float(t) for t in np.polyfit(k[near], v[near], 1))
    return first, step


def find_hex_board(img: np.ndarray, gray: np.ndarray, orientation: str) -> HexBoard:
    """The hex board in a BGR picture (``gray`` its ink), ``orientation`` from
    ``hex_orientation``. Raises ``InputError`` when no lattice of hexagons can be fitted."""
    transposed = orientation == "pointy"
    full = min(gray.shape)
    img, gray = _shrunk(img), _shrunk(gray)
    scale = full / min(gray.shape)  # picture pixels per pixel read
    if transposed:
        img, gray = img.transpose(1, 0, 2), np.ascontiguousarray(gray.T)
    n = min(gray.shape)
    thin = _thin(gray, max(5, round(n / 90)) | 1)
    masks = [_lines(thin, a, max(8, n // 40)) for a in (0.0, 60.0, 120.0)]
    middles, length = _sides(masks)
    web = _on_board(masks, middles)  # fit on these; look for cells wherever sides are
    # The sides' middles lie on a lattice a quarter of a cell height apart in y and three
    # quarters of a side in x (horizontal sides above and below a centre, slanted ones beside).
    y_first, quarter = _fit_axis(web[:, 1], length * SQRT3 / 4)
    x_first, step_x = _fit_axis(web[:, 0], 0.75 * length)
    height = 4 * quarter  # flat side to flat side: the pitch between neighbours in a column
    side = step_x / 0.75
    if abs(height / SQRT3 - side) > 0.15 * side:  # the two spacings must describe one hexagon
        raise InputError("unreadable hex board: the hexagons' rows and columns do not agree")
    if side < MIN_SIDE or height < MIN_SIDE * SQRT3:
        raise InputError("unreadable hex board: the hexagons are too small")
    # Cells: sides drawn, tested on a line map wider than a border line and narrower than a pipe.
    edges = cv2.dilate(_thin(gray, max(5, round(0.45 * side)) | 1), np.ones((3, 3), np.uint8))
    xs, ys = middles[:, 0], middles[:, 1]
    m_lo = math.floor((xs.min() - x_first) / step_x) - 2
    m_hi = math.ceil((xs.max() - x_first) / step_x) + 2
    k_lo = math.floor((ys.min() - y_first) / quarter) - 4
    k_hi = math.ceil((ys.max() - y_first) / quarter) + 4
    if (m_hi - m_lo) > 4 * MAX_CELLS or (k_hi - k_lo) > 8 * MAX_CELLS:
        raise InputError("unreadable hex board: the lattice of hexagons is too large")
    angles = np.radians(np.arange(0, 360, 60))
    corners = np.stack((np.cos(angles) * side, np.sin(angles) * height / SQRT3), axis=1)
    # Column centres are every other x line, cell centres every fourth y line, the next column's
    # two lines lower: try the 8 ways, keep the one with the most cells drawn.
    best: tuple[int, int, np.ndarray, np.ndarray, np.ndarray] | None = None
    for px in (0, 1):
        for py in range(4):
            ms = np.arange(m_lo + px, m_hi + 1, 2)
            js = (ms - m_lo - px) // 2
            cx = np.repeat(x_first + ms * step_x, 2 * MAX_CELLS + 4)
            col = np.repeat(js, 2 * MAX_CELLS + 4)
            ks = np.tile(np.arange(k_lo + py - 4, k_lo + py - 4 + 4 * (2 * MAX_CELLS + 4), 4), len(ms))
            ks = ks + 2 * (col % 2)
            ok = ks <= k_hi
            cx, col, ks = cx[ok], col[ok], ks[ok]
            cy = y_first + ks * quarter
            drawn = _drawn_sides(edges, gray, cx, cy, corners)
            score = int((drawn >= CELL_SIDES).sum()) * 100 + int(drawn.sum())
            if best is None or score > best[0]:
                best = (score, px, np.stack((cx, cy), axis=1), np.stack((col, ks), axis=1), drawn)
    assert best is not None
    _, _, xy, index, drawn = best
    is_cell = drawn >= CELL_SIDES
    if is_cell.sum() < 4:
        raise InputError("unreadable hex board: too few hexagons found")
    # (column, half-row) -> centre; half-rows are half a cell height (two y lines) apart
    present = {
        (int(j), int(k) // 2): (float(x), float(y))
        for (j, k), (x, y) in zip(index[is_cell], xy[is_cell], strict=True)
    }
    present = _largest_group(present)
    board = {
        key: (x * scale, y * scale)
        for key, (x, y) in present.items()
        if not _filled_hole(img, gray, x, y, side)
    }
    return _layout(present, board, height * scale, transposed)


def _largest_group(
    cells: dict[tuple[int, int], tuple[float, float]],
) -> dict[tuple[int, int], tuple[float, float]]:
    """The largest group of neighbouring cells: the board is one piece; a round button or an
    icon that happens to touch five sides of a hexagon lies apart from it."""
    seen: set[tuple[int, int]] = set()
    best: list[tuple[int, int]] = []
    for start in cells:
        if start in seen:
            continue
        group, todo = [start], [start]
        seen.add(start)
        while todo:
            j, q = todo.pop()
            for step in ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)):
                other = (j + step[0], q + step[1])
                if other in cells and other not in seen:
                    seen.add(other)
                    group.append(other)
                    todo.append(other)
        if len(group) > len(best):
            best = group
    return {key: cells[key] for key in best}


def _drawn_sides(
    edges: np.ndarray, gray: np.ndarray, x: np.ndarray, y: np.ndarray, corners: np.ndarray
) -> np.ndarray:
    """How many of the six sides of the hexagons centred at (x, y) are drawn: line on enough
    samples away from the side's middle, or a pipe across its middle (a pipe leaves too little
    of a short side to see; a pipe runs only between two cells of the board)."""
    h, w = edges.shape

    def samples(where: np.ndarray, image: np.ndarray) -> np.ndarray:
        a = corners[None, :, :] + np.stack((x, y), axis=1)[:, None, :]  # cells x corners x (x, y)
        b = np.roll(a, -1, axis=1)
        pts = a[:, :, None, :] + where[None, None, :, None] * (b - a)[:, :, None, :]
        xs = np.round(pts[..., 0]).astype(int)
        ys = np.round(pts[..., 1]).astype(int)
        inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        out = np.zeros(xs.shape, image.dtype)
        out[inside] = image[ys[inside], xs[inside]]
        return out

    lined = (samples(SAMPLES, edges) > 0).sum(axis=2) >= SIDE_HITS
    piped = (samples(MIDDLE, gray) > PIPE_LEVEL).all(axis=2)
    return (lined | piped).sum(axis=1)  # type: ignore[no-any-return]


def _muted() -> np.ndarray:
    """This program's hole fill in both palettes, as BGR rows."""
    codes = (LIGHT_ROLES["muted"], DARK_ROLES["muted"])
    return np.array([(int(c[5:7], 16), int(c[3:5], 16), int(c[1:3], 16)) for c in codes], np.float64)


def _filled_hole(img: np.ndarray, gray: np.ndarray, x: float, y: float, side: float) -> bool:
    """This program draws a hole as a hexagon filled evenly in its palette's muted grey (the
    app's boards have no holes inside: their outline leaves cells out). A dim glow behind the
    app's board is even too, but coloured."""
    r = max(2, round(0.5 * side))
    cx, cy = round(x), round(y)
    patch = gray[max(0, cy - r) : cy + r + 1, max(0, cx - r) : cx + r + 1]
    if patch.size == 0:
        return False
    lo, hi = np.percentile(patch, (10, 90))
    if hi - lo > HOLE_SPREAD:
        return False
    colour = np.median(img[max(0, cy - r) : cy + r + 1, max(0, cx - r) : cx + r + 1].reshape(-1, 3), axis=0)
    return bool(np.abs(_muted() - colour).max(axis=1).min() <= HOLE_TOLERANCE)


def _layout(
    present: dict[tuple[int, int], tuple[float, float]],
    board: dict[tuple[int, int], tuple[float, float]],
    height: float,
    transposed: bool,
) -> HexBoard:
    """Columns of the flat-topped frame become the rows of the solver's odd-r layout."""
    j0 = min(j for j, _ in present)
    q0 = min(q for _, q in present)
    rows = max(j for j, _ in present) - j0 + 1
    cols = max((q - q0) // 2 for _, q in present) + 1
    if rows < 2 or cols < 2 or rows > MAX_CELLS or cols > MAX_CELLS:
        raise InputError(f"unreadable hex board: found {cols}x{rows} hexagons")
    # A column whose centres sit half a cell lower than the first column's is shifted "right" in
    # the solver's layout; odd-r wants the odd rows shifted, so the first column must be the
    # higher one, else the half-rows are counted from the bottom (a mirror image).
    low = {j: (q - q0) % 2 for j, q in present}  # 1: the column sits half a cell lower
    mirror = low[j0] == 1

    def cell(j: int, q: int) -> tuple[int, int]:
        i = (q - q0) // 2
        return j - j0, (cols - 1 - i) if mirror else i

    centres = {cell(j, q): xy for (j, q), xy in board.items()}
    holes = tuple(sorted((r, c) for r in range(rows) for c in range(cols) if (r, c) not in centres))
    frame = _frame(centres, transposed)
    return HexBoard(rows, cols, centres, holes, height, transposed, frame, mirror)


def model_centre(r: int, c: int) -> tuple[float, float]:
    """A cell's centre in the solver's hex drawing with a cell width of 1 (``draw.HexGeometry``)."""
    return c + 0.5 + 0.5 * (r % 2), (0.5 + 0.75 * r) * 2 / SQRT3


def _frame(
    centres: dict[tuple[int, int], tuple[float, float]], transposed: bool
) -> tuple[float, float, float, float, float, float]:
    """The affine map (a, b, c, d, e, f: x = a X + b Y + c, y = d X + e Y + f) from the solver's
    drawing of the board (cell width 1) to the picture's pixels, fitted to the read centres."""
    model = np.array([(*model_centre(*cell), 1.0) for cell in centres])
    seen = np.array(list(centres.values()))
    if transposed:
        seen = seen[:, ::-1]
    fit, *_ = np.linalg.lstsq(model, seen, rcond=None)  # 3 x 2
    return (
        float(fit[0, 0]),
        float(fit[1, 0]),
        float(fit[2, 0]),
        float(fit[0, 1]),
        float(fit[1, 1]),
        float(fit[2, 1]),
    )
