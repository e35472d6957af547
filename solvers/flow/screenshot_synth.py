"""Synthetic Flow Free app screenshots for the screenshot-import tests and benchmark.

Drawn with OpenCV in the app's look: black background, thin dim grid lines, big endpoint dots in
the app's palette, walls as thick bars, a status bar, a header, control buttons and fake ad
banners above and below the board. Deterministic for a given seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from solvers.flow.model import Cell, FlowPuzzle
from solvers.flow.screenshot import APP_PALETTE, Detection
from solvers.flow.screenshot_hex import model_centre

APP_COLOURS = APP_PALETTE

RESOLUTIONS = ((720, 1280), (1080, 1920), (1080, 2340), (1440, 3200), (1536, 2048))


@dataclass(frozen=True)
class Style:
    """What varies between screenshots besides the board."""

    width: int = 1080
    height: int = 1920
    grid_grey: int = 70  # grid line brightness
    tint: tuple[int, int, int] = (0, 0, 0)  # added to the grid colour (the app tints it per pack)
    dot_ratio: float = 0.76  # dot diameter / cell
    board_fraction: float = 0.96  # board width / screen width (portrait phones)
    wall_ratio: float = 0.13  # wall thickness / cell
    offset: int = 0  # vertical shift of the board (pixels)
    seed: int = 0


@dataclass(frozen=True)
class Scene:
    """What a screenshot shows: the board and its walls (cell-pair edges)."""

    puzzle: FlowPuzzle
    walls: tuple[tuple[Cell, Cell], ...] = ()
    holes: tuple[Cell, ...] = field(default_factory=tuple)


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return rgb[2], rgb[1], rgb[0]


def _text(img: np.ndarray, text: str, x: int, y: int, scale: float, colour: tuple[int, int, int]) -> None:
    thick = max(1, round(scale * 2))
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def _chrome(img: np.ndarray, rng: random.Random, unit: float) -> tuple[int, int]:
    """Status bar, header, ad banners and buttons; returns the free band (top, bottom) for the board."""
    h, w = img.shape[:2]
    white = (235, 235, 235)
    # status bar: clock, icons, battery
    bar = round(unit * 0.05)
    _text(
        img,
        f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
        round(unit * 0.03),
        bar - 10,
        unit / 1400,
        white,
    )
    for k in range(3):
        x = w - round(unit * (0.05 + 0.05 * k))
        cv2.rectangle(img, (x, round(bar * 0.3)), (x + round(unit * 0.03), bar - 8), white, -1)
    # top ad banner (solid, colourful, with text and a button)
    ad_top = bar + round(unit * 0.01)
    ad_h = round(unit * 0.14)
    colour = tuple(rng.randint(40, 255) for _ in range(3))
    cv2.rectangle(img, (0, ad_top), (w - 1, ad_top + ad_h), colour, -1)
    _text(img, "Play now! Best game", round(unit * 0.05), ad_top + ad_h // 2, unit / 900, (20, 20, 20))
    cv2.rectangle(
        img,
        (w - round(unit * 0.25), ad_top + ad_h // 4),
        (w - round(unit * 0.05), ad_top + 3 * ad_h // 4),
        (255, 140, 0),
        -1,
    )
    # header: level number, size, and the flows/moves counters
    y = ad_top + ad_h + round(unit * 0.08)
    _text(img, f"level {rng.randint(1, 150)}", round(unit * 0.05), y, unit / 600, white)
    _text(
        img,
        "flows: 0/9   moves: 0   pipe: 0%",
        round(unit * 0.05),
        y + round(unit * 0.06),
        unit / 1300,
        white,
    )
    top = y + round(unit * 0.1)
    # bottom: ad banner and buttons
    ad2_h = round(unit * 0.14)
    ad2_top = h - ad2_h - round(unit * 0.02)
    colour = tuple(rng.randint(40, 255) for _ in range(3))
    cv2.rectangle(img, (0, ad2_top), (w - 1, ad2_top + ad2_h), colour, -1)
    _text(img, "Install FREE", round(unit * 0.3), ad2_top + ad2_h // 2, unit / 800, (255, 255, 255))
    buttons_y = ad2_top - round(unit * 0.12)
    for k in range(4):
        cx = round(w * (k + 1) / 5)
        cv2.circle(img, (cx, buttons_y), round(unit * 0.045), white, max(2, round(unit / 300)), cv2.LINE_AA)
    bottom = buttons_y - round(unit * 0.1)
    return top, bottom


def _cell_rect(x0: float, y0: float, s: float, r: int, c: int) -> tuple[float, float]:
    return x0 + c * s, y0 + r * s


def render(scene: Scene, style: Style = Style()) -> np.ndarray:
    """A BGR screenshot of ``scene``."""
    rng = random.Random(style.seed)
    w, h = style.width, style.height
    img = np.zeros((h, w, 3), np.uint8)
    unit = min(w, h * 0.5625)  # phone-width units, so tablets get phone-sized chrome
    top, bottom = _chrome(img, rng, unit)
    puzzle = scene.puzzle
    rows, cols = puzzle.rows, puzzle.cols
    s = min(w * style.board_fraction / cols, (bottom - top) / rows)
    x0 = (w - cols * s) / 2
    y0 = top + ((bottom - top) - rows * s) / 2 + style.offset
    line = max(1, round(w / 540))
    grid = tuple(min(255, style.grid_grey + t) for t in style.tint)
    holes = set(scene.holes)
    shift = 4  # cv2 sub-pixel coordinates (fixed point, 4 fractional bits)

    def p(x: float, y: float) -> tuple[int, int]:
        return round(x * 16), round(y * 16)

    def seg(a: tuple[float, float], b: tuple[float, float], colour: tuple[int, ...], thick: int) -> None:
        cv2.line(img, p(*a), p(*b), colour, thick, cv2.LINE_AA, shift)

    # grid: every edge of a non-hole cell (so holes show as background)
    for r in range(rows):
        for c in range(cols):
            if (r, c) in holes:
                continue
            x, y = _cell_rect(x0, y0, s, r, c)
            for a, b in (
                ((x, y), (x + s, y)),
                ((x, y + s), (x + s, y + s)),
                ((x, y), (x, y + s)),
                ((x + s, y), (x + s, y + s)),
            ):
                seg(a, b, grid, line)
    wall_colour = (215, 215, 215)
    thick = max(2, round(s * style.wall_ratio))
    # The app outlines a hole like the board's edge: a bar on each side it shares with the board.
    outline = [
        ((r, c), (r + dr, c + dc))
        for r, c in holes
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if puzzle.inside(r + dr, c + dc) and (r + dr, c + dc) not in holes
    ]
    for (r1, c1), (r2, c2) in list(scene.walls) + outline:
        r, c = max(r1, r2), max(c1, c2)
        x, y = _cell_rect(x0, y0, s, r, c)
        half = thick / 2
        if r1 == r2:  # vertical bar between two cells of one row
            corners = ((x - half, y - half), (x + half, y + s + half))
        else:
            corners = ((x - half, y - half), (x + s + half, y + half))
        cv2.rectangle(img, p(*corners[0]), p(*corners[1]), wall_colour, -1, cv2.LINE_AA, shift)
    radius = s * style.dot_ratio / 2
    for i, ch in enumerate(puzzle.cells):
        if ch in APP_COLOURS:
            r, c = divmod(i, cols)
            x, y = _cell_rect(x0, y0, s, r, c)
            cv2.circle(
                img,
                p(x + s / 2, y + s / 2),
                round(radius * 16),
                _bgr(APP_COLOURS[ch]),
                -1,
                cv2.LINE_AA,
                shift,
            )
    return img


def encode(img: np.ndarray, ext: str = ".png", quality: int = 95) -> bytes:
    params = [cv2.IMWRITE_JPEG_QUALITY, quality] if ext in (".jpg", ".jpeg") else []
    ok, buf = cv2.imencode(ext, img, params)
    if not ok:
        raise ValueError(f"cannot encode {ext}")
    return buf.tobytes()


def level_scene(cols: int, rows: int, seed: int, walls: int = 0) -> Scene:
    """A real level (a unique solution) in the app's colours, with ``walls`` walls its solution
    never crosses: the importer refuses boards that have no solution."""
    from solvers.flow.generate import generate

    made = generate(cols, rows, seed=seed)
    letters = dict(zip(sorted(made.puzzle.endpoints()), APP_COLOURS, strict=False))
    puzzle = FlowPuzzle.empty(rows, cols)
    for letter, cells in made.puzzle.endpoints().items():
        for r, c in cells:
            puzzle = puzzle.with_cell(r, c, letters[letter])
    used = {frozenset(step) for path in made.paths for step in zip(path, path[1:], strict=False)}
    edges = [((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    edges += [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    free = [e for e in edges if frozenset(e) not in used]
    random.Random(seed).shuffle(free)
    return Scene(puzzle, walls=tuple(sorted(free[:walls])))


def random_scene(rows: int, cols: int, rng: random.Random, walls: int = 0, holes: int = 0) -> Scene:
    """Endpoints of up to 16 app colours (two per colour) on a rows x cols board, plus random walls."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(cells)
    hole_cells = tuple(sorted(cells[:holes]))
    free = cells[holes:]
    n = min(16, max(2, (rows * cols) // 9), len(free) // 2)
    letters = list(APP_COLOURS)
    rng.shuffle(letters)
    puzzle = FlowPuzzle.empty(rows, cols)
    for k, ch in enumerate(letters[:n]):
        for r, c in free[2 * k : 2 * k + 2]:
            puzzle = puzzle.with_cell(r, c, ch)
    edges = [((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    edges += [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    edges = [e for e in edges if e[0] not in hole_cells and e[1] not in hole_cells]
    rng.shuffle(edges)
    # No cell may end up walled in on every side (a dead cell, which reads as a hole).
    blocked: dict[Cell, int] = {
        (r, c): sum((r + dr, c + dc) in hole_cells for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
        for r in range(rows)
        for c in range(cols)
    }
    chosen: list[tuple[Cell, Cell]] = []
    for a, b in edges:
        if len(chosen) == walls:
            break
        if blocked[a] < 3 and blocked[b] < 3:
            chosen.append((a, b))
            blocked[a] += 1
            blocked[b] += 1
    return Scene(puzzle, tuple(sorted(chosen)), hole_cells)


def scene_endpoints(scene: Scene) -> dict[str, list[Cell]]:
    return scene.puzzle.endpoints()


def same_endpoints(a: Mapping[str, Iterable[Cell]], b: Mapping[str, Iterable[Cell]]) -> bool:
    """True if both pair the same cells (letters may differ)."""

    def groups(m: Mapping[str, Iterable[Cell]]) -> set[frozenset[Cell]]:
        return {frozenset(v) for v in m.values()}

    return groups(a) == groups(b)


QUALITIES = (95, 75, 50)
# (rows, cols, walls, holes): every square size, rectangles both ways, walls, holes with walls
BOARDS: tuple[tuple[int, int, int, int], ...] = (
    *((n, n, 0, 0) for n in range(5, 16)),
    (8, 5, 0, 0),
    (10, 8, 0, 0),
    (13, 10, 0, 0),
    (6, 9, 0, 0),
    (7, 7, 4, 0),
    (10, 10, 8, 0),
    (14, 14, 10, 0),
    (9, 9, 2, 3),
    (12, 12, 3, 4),
)


@dataclass(frozen=True)
class Case:
    name: str
    data: bytes  # the encoded screenshot
    scene: Scene


@dataclass(frozen=True)
class Spec:
    """One screenshot of the test set, before rendering (cheap to list)."""

    resolution: tuple[int, int]
    quality: int | None  # JPEG quality, None = lossless PNG
    board: tuple[int, int, int, int]  # rows, cols, walls, holes
    seed: int

    @property
    def name(self) -> str:
        rows, cols, walls, holes = self.board
        res = f"{self.resolution[0]}x{self.resolution[1]}"
        text = f"{res} {'png' if self.quality is None else f'q{self.quality}'} {cols}x{rows}"
        return text + f" walls={walls}" * bool(walls) + f" holes={holes}" * bool(holes)


def make_case(spec: Spec) -> Case:
    rng = random.Random(spec.seed)
    rows, cols, walls, holes = spec.board
    scene = random_scene(rows, cols, rng, walls=walls, holes=holes)
    width, height = spec.resolution
    tablet = height / width < 1.5
    style = Style(
        width=width,
        height=height,
        grid_grey=rng.randint(45, 110),
        tint=(rng.randint(0, 30), rng.randint(0, 30), rng.randint(0, 30)),
        dot_ratio=rng.uniform(0.7, 0.8),
        board_fraction=rng.uniform(0.8, 0.9) if tablet else rng.uniform(0.9, 0.98),
        wall_ratio=rng.uniform(0.11, 0.15),
        offset=rng.randint(-20, 20),
        seed=spec.seed,
    )
    img = render(scene, style)
    ext, q = (".png", 0) if spec.quality is None else (".jpg", spec.quality)
    return Case(spec.name, encode(img, ext, q), scene)


def synthetic_specs(subset: bool = False) -> list[Spec]:
    """The synthetic screenshots: every resolution x JPEG quality x board, plus lossless PNGs.

    ``subset`` gives a small spread for CI: each resolution and quality, every kind of board.
    """
    picks = _spread(len(RESOLUTIONS), len(BOARDS), 0, lossless_every=4, subset=(3, 19) if subset else None)
    return [Spec(RESOLUTIONS[i], quality, BOARDS[j], seed) for i, quality, j, seed in picks]


def _spread(
    resolutions: int, boards: int, seed: int, lossless_every: int, subset: tuple[int, int] | None
) -> list[tuple[int, int | None, int, int]]:
    """(resolution index, JPEG quality or None for lossless, board index, seed) of every picture:
    each resolution x quality x board, lossless only for every ``lossless_every``-th board;
    ``subset`` (step, modulus) keeps a small spread over all of them (for CI)."""
    out = []
    for i in range(resolutions):
        for quality in (*QUALITIES, None):
            for j in range(boards):
                seed += 1
                if quality is None and j % lossless_every:
                    continue
                if subset and (j + subset[0] * i + (quality or 0)) % subset[1]:
                    continue
                out.append((i, quality, j, seed))
    return out


def synthetic_set(subset: bool = False) -> Iterator[Case]:
    return (make_case(spec) for spec in synthetic_specs(subset))


# ---- Flow Free: Hexes ---------------------------------------------------------------------------------
# The app's Hexes look (from a real screenshot): black background, thin olive lines between the
# cells, a thicker olive outline around the board, flat-topped hexagons in columns (every other
# column half a cell lower, often one cell shorter), big dots with the pair's letter on them.

HEX_LINE = (80, 125, 130)  # BGR: the app's olive grid
APP_LETTERS = "ABCDEFGHIJKLMNOP"


@dataclass(frozen=True)
class HexStyle:
    """What varies between hex screenshots besides the board."""

    width: int = 720
    height: int = 1480
    flat: bool = True  # flat-topped hexagons (the app); False: pointy-topped rows
    flip: bool = False  # flat: the first column sits lower (the picture upside down)
    line: tuple[int, int, int] = HEX_LINE
    dot_ratio: float = 0.64  # dot diameter / cell width (flat side to flat side)
    letters: bool = True  # the pair's letter on each dot, as the app draws them
    pipes: bool = False  # the solution's pipes drawn (a solved level)
    scribbles: int = 0  # thin white hand-drawn lines over the board (notes on a shared picture)
    glow: bool = True  # the dim blurred colour bars the app shows behind the board
    seed: int = 0


@dataclass(frozen=True)
class HexScene:
    """A hex level: the puzzle (odd-r rows, holes for the shape) and its solution's paths."""

    puzzle: FlowPuzzle
    paths: tuple[tuple[Cell, ...], ...] = ()


def hex_level_scene(rows: int, cols: int, seed: int, shaped: bool = True) -> HexScene:
    """A hex level with a unique designed solution in the app's colours; ``shaped`` leaves out
    the last cell of every odd row, as the app's boards leave out the lower end of every other
    column."""
    from solvers.flow.variants import generate_variant

    board = FlowPuzzle.empty(rows, cols)
    board = FlowPuzzle(rows, cols, board.cells, hex=True)
    if shaped:
        for r in range(1, rows, 2):
            board = board.with_cell(r, cols - 1, "#")
    made = generate_variant(cols, rows, "hex", seed=seed, shape=board)
    letters = dict(zip(sorted(made.puzzle.colours), APP_COLOURS, strict=False))
    cells = [letters.get(ch, ch) for ch in made.puzzle.cells]
    puzzle = made.puzzle.with_cells(tuple(cells))
    return HexScene(puzzle, tuple(tuple(p) for p in made.paths))


def _hex_centres(puzzle: FlowPuzzle, width: float) -> dict[Cell, tuple[float, float]]:
    """Pointy-topped odd-r centres for a cell width (flat side to flat side) of ``width``."""
    side = width / np.sqrt(3)
    return {
        (r, c): ((c + 0.5 + 0.5 * (r % 2)) * width, side + 1.5 * side * r)
        for r in range(puzzle.rows)
        for c in range(puzzle.cols)
        if puzzle.is_cell(r, c)
    }


def render_hex(
    scene: HexScene, style: HexStyle = HexStyle()
) -> tuple[np.ndarray, dict[Cell, tuple[float, float]]]:
    """A BGR screenshot of a hex level in the Flow Free: Hexes look, and each cell's centre in it."""
    rng = random.Random(style.seed)
    w, h = style.width, style.height
    img = np.zeros((h, w, 3), np.uint8)
    unit = min(w, h * 0.5625)
    top, bottom = _chrome(img, rng, unit)
    puzzle = scene.puzzle
    # Lay the board out pointy-topped with a unit cell, then transpose it for flat tops.
    unit_centres = _hex_centres(puzzle, 1.0)
    side1 = 1 / np.sqrt(3)
    span_x = (puzzle.cols + 0.5) * 1.0
    span_y = 2 * side1 + 1.5 * side1 * (puzzle.rows - 1)
    if style.flat:
        span_x, span_y = span_y, span_x
    scale = min(w * 0.94 / span_x, (bottom - top) * 0.95 / span_y)
    x0, y0 = (w - span_x * scale) / 2, top + ((bottom - top) - span_y * scale) / 2

    def place(x: float, y: float) -> tuple[float, float]:
        if style.flat:
            x, y = y, x
            if style.flip:
                y = span_y - y
        return x0 + x * scale, y0 + y * scale

    centres = {cell: place(*xy) for cell, xy in unit_centres.items()}
    side = scale * side1
    angles = np.radians(np.arange(0, 360, 60) + (0 if style.flat else 30))
    corner = np.stack((np.cos(angles), np.sin(angles)), axis=1) * side

    def p(xy: tuple[float, float] | np.ndarray) -> tuple[int, int]:
        return round(float(xy[0]) * 16), round(float(xy[1]) * 16)

    if style.glow:  # dim wide bars behind the board, as the app's background glow
        for _ in range(3):
            bar_x = rng.randint(0, w - 1)
            bar = np.zeros_like(img)  # bars side by side, not on top of each other: max, not sum
            # a pair's colour at a sixth of its brightness (measured on the real screenshot)
            tone = _bgr(rng.choice(list(APP_COLOURS.values())))
            colour = tuple(round(v * rng.uniform(0.1, 0.18)) for v in tone)
            cv2.line(bar, (bar_x, top - round(unit * 0.3)), (bar_x, bottom), colour, round(unit * 0.08))
            img[:] = cv2.max(img, cv2.GaussianBlur(bar, (0, 0), unit * 0.01))
    thin = max(1, round(w / 500))
    thick = max(3, round(w / 100))
    border: list[tuple[np.ndarray, np.ndarray]] = []
    for (r, c), (x, y) in centres.items():
        pts = corner + (x, y)
        cv2.polylines(img, [np.round(pts * 16).astype(np.int32)], True, style.line, thin, cv2.LINE_AA, 4)
        for d in range(6):
            a, b = pts[d], pts[(d + 1) % 6]
            mid = (a + b) / 2
            # A side with no cell beyond it is on the board's outline.
            beyond = 2 * mid - (x, y)
            if not any(np.hypot(*(beyond - centres[n])) < side * 0.5 for n in puzzle.neighbours(r, c)):
                border.append((a, b))
    for a, b in border:
        cv2.line(img, p(a), p(b), style.line, thick, cv2.LINE_AA, 4)
    if style.pipes:
        for path in scene.paths:
            ch = puzzle.at(*path[0])
            colour = _bgr(APP_COLOURS.get(ch, (200, 200, 200)))
            pts = np.array([centres[cell] for cell in path])
            cv2.polylines(
                img, [np.round(pts * 16).astype(np.int32)], False, colour, round(0.3 * scale), cv2.LINE_AA, 4
            )
    radius = scale * style.dot_ratio / 2
    names = {ch: APP_LETTERS[k % len(APP_LETTERS)] for k, ch in enumerate(puzzle.colours)}
    for (r, c), (x, y) in centres.items():
        ch = puzzle.at(r, c)
        if ch not in APP_COLOURS:
            continue
        rgb = APP_COLOURS[ch]
        cv2.circle(img, p((x, y)), round(radius * 16), _bgr(rgb), -1, cv2.LINE_AA, 4)
        if style.letters:
            ink = (0, 0, 0) if sum(rgb) > 450 else (255, 255, 255)
            size = radius / 22
            (tw, th), _ = cv2.getTextSize(
                names[ch], cv2.FONT_HERSHEY_SIMPLEX, size, max(1, round(size * 2.5))
            )
            cv2.putText(
                img,
                names[ch],
                (round(x - tw / 2), round(y + th / 2)),
                cv2.FONT_HERSHEY_SIMPLEX,
                size,
                ink,
                max(1, round(size * 2.5)),
                cv2.LINE_AA,
            )
    for _ in range(style.scribbles):  # a wobbly white line across the board
        y = rng.uniform(top, bottom)
        xs = np.linspace(w * 0.1, w * 0.9, 40)
        ys = y + np.cumsum([rng.uniform(-8, 8) for _ in xs])
        line = np.stack((xs, ys), axis=1).round().astype(np.int32)
        cv2.polylines(img, [line], False, (255, 255, 255), 2, cv2.LINE_AA)
    return img, centres


def hex_misread(found: Detection, scene: HexScene, centres: Mapping[Cell, tuple[float, float]]) -> str:
    """Why the board read from ``render_hex(scene, ...)`` is not the scene's ("" when it is): the
    reader may turn or mirror the board, so cells are matched by where they are in the picture."""
    if not found.hex:
        return "not read as a hex board"
    a, b, c, d, e, f = found.hex_frame
    puzzle = scene.puzzle
    pitch = float(np.hypot(a, d))
    board = [(r, k) for r in range(found.rows) for k in range(found.cols) if (r, k) not in set(found.holes)]
    if len(board) != len(centres):
        return f"{len(board)} cells read, {len(centres)} drawn"

    def seen(cell: Cell) -> tuple[float, float]:
        x, y = model_centre(*cell)
        return a * x + b * y + c, d * x + e * y + f

    where: dict[Cell, Cell] = {}
    for cell in board:
        x, y = seen(cell)
        near = min(centres, key=lambda t: (centres[t][0] - x) ** 2 + (centres[t][1] - y) ** 2)
        if np.hypot(centres[near][0] - x, centres[near][1] - y) > 0.25 * pitch:
            return f"cell R{cell[0] + 1}C{cell[1] + 1} is not where a cell is drawn"
        where[cell] = near
    read = {frozenset(where[cell] for cell in cells) for cells in found.endpoints.values()}
    drawn = {frozenset(cells) for cells in puzzle.endpoints().values()}
    return "" if read == drawn else "endpoints or their pairs differ"


# (rows, cols, shaped): the app's Hexes sizes, shaped like its boards or whole rectangles
HEX_BOARDS: tuple[tuple[int, int, bool], ...] = (
    (5, 5, True),
    (6, 6, True),
    (7, 7, False),
    (8, 8, True),
    (9, 9, True),
    (10, 10, False),
    (12, 12, True),
    (8, 11, True),
    (11, 7, False),
)
HEX_RESOLUTIONS = ((720, 1480), (720, 1280), (1080, 1920), (1080, 2340), (1440, 3200))


@dataclass(frozen=True)
class HexSpec:
    """One hex screenshot of the test set, before rendering."""

    resolution: tuple[int, int]
    quality: int | None  # JPEG quality, None = lossless PNG
    board: tuple[int, int, bool]  # rows, cols, shaped
    seed: int

    @property
    def name(self) -> str:
        rows, cols, shaped = self.board
        res = f"{self.resolution[0]}x{self.resolution[1]}"
        kind = "png" if self.quality is None else f"q{self.quality}"
        return f"hex {res} {kind} {cols}x{rows}{' shaped' * shaped} #{self.seed}"


@dataclass(frozen=True)
class HexCase:
    name: str
    data: bytes
    scene: HexScene
    style: HexStyle
    centres: dict[Cell, tuple[float, float]]


def make_hex_case(spec: HexSpec) -> HexCase:
    """A hex screenshot: flat tops mostly (the app), pointy tops and upside-down pictures too,
    letters on the dots or not, some solved (pipes), some with hand-drawn lines over them."""
    rng = random.Random(spec.seed)
    rows, cols, shaped = spec.board
    scene = hex_level_scene(rows, cols, spec.seed, shaped)
    width, height = spec.resolution
    style = HexStyle(
        width=width,
        height=height,
        flat=rng.random() < 0.7,
        flip=rng.random() < 0.3,
        line=(rng.randint(60, 100), rng.randint(100, 140), rng.randint(110, 150)),
        dot_ratio=rng.uniform(0.58, 0.7),
        letters=rng.random() < 0.7,
        pipes=rng.random() < 0.25,
        scribbles=rng.choice((0, 0, 0, 2, 4)),
        seed=spec.seed,
    )
    img, centres = render_hex(scene, style)
    ext, q = (".png", 0) if spec.quality is None else (".jpg", spec.quality)
    name = spec.name + f" {'flat' if style.flat else 'pointy'}" + " flipped" * style.flip
    name += " pipes" * style.pipes + f" scribbles={style.scribbles}" * bool(style.scribbles)
    return HexCase(name, encode(img, ext, q), scene, style, centres)


def hex_specs(subset: bool = False) -> list[HexSpec]:
    """The hex screenshots: every resolution x JPEG quality x board, plus lossless PNGs;
    ``subset`` gives a small spread for CI."""
    picks = _spread(
        len(HEX_RESOLUTIONS), len(HEX_BOARDS), 1000, lossless_every=3, subset=(2, 11) if subset else None
    )
    return [HexSpec(HEX_RESOLUTIONS[i], quality, HEX_BOARDS[j], seed) for i, quality, j, seed in picks]
