"""Screenshot import against hostile files: tiny files declaring huge images in every container
OpenCV reads, formats we cannot size, peak memory of large accepted images, and random damage.

The crafted files are made here, in a few hundred bytes each; a refusal must come from the header,
before any decoder runs (``cv2.imdecode`` is replaced by a tripwire), as one line, never a traceback.
"""

from __future__ import annotations

import json
import random
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from solvers.common.errors import InputError
from solvers.flow import PLUGIN, screenshot
from solvers.flow.image_header import read_header
from solvers.flow.model import FlowPuzzle
from solvers.flow.screenshot import decode, detect
from solvers.flow.screenshot_synth import Scene, Style, encode, random_scene, render

ROOT = Path(__file__).resolve().parents[2]
HUGE = 30000


# ---- crafted containers ----------------------------------------------------------------------------


def tiff(width: int, height: int, order: str = "<", big: bool = False, decoy: int = 0) -> bytes:
    """An uncompressed 8-bit grey TIFF (valid when small), little ('<') or big ('>') endian;
    ``decoy``: a second ImageWidth entry of that value after the real one (libtiff reads the first)."""
    entries = [(256, 4, width)] + ([(256, 4, decoy)] if decoy else [])
    entries += [(257, 4, height), (258, 3, 8), (259, 3, 1), (262, 3, 1)]
    entries += [(273, 4, 0), (277, 3, 1), (278, 4, height), (279, 4, width * height)]
    if big:
        head = (b"II+\0" if order == "<" else b"MM\0+") + struct.pack(order + "HHQ", 8, 0, 16)
        ifd_size = 8 + 20 * len(entries) + 8
        pixels_at = 16 + ifd_size
        body = struct.pack(order + "Q", len(entries))
        for tag, kind, value in entries:
            value = pixels_at if tag == 273 else value
            kind = 16 if kind == 4 else kind
            body += struct.pack(order + "HHQ", tag, kind, 1) + struct.pack(
                order + ("Q" if kind == 16 else "H6x"), value
            )
        body += struct.pack(order + "Q", 0)
    else:
        head = (b"II*\0" if order == "<" else b"MM\0*") + struct.pack(order + "I", 8)
        pixels_at = 8 + 2 + 12 * len(entries) + 4
        body = struct.pack(order + "H", len(entries))
        for tag, kind, value in entries:
            value = pixels_at if tag == 273 else value
            body += struct.pack(order + "HHI", tag, kind, 1) + struct.pack(
                order + ("I" if kind == 4 else "H2x"), value
            )
        body += struct.pack(order + "I", 0)
    pixels = bytes((x * 7 + y * 3) & 255 for y in range(min(height, 200)) for x in range(min(width, 200)))
    return head + body + (pixels if width * height <= 40000 else b"\0" * 1000)


def bmp_rle8(width: int, height: int, rle4: bool = False) -> bytes:
    """An RLE8 (or RLE4) BMP: two runs per row, valid when small."""
    colours = 16 if rle4 else 256
    palette = b"".join(bytes((i, 255 - i, (i * 5) & 255, 0)) for i in range(colours))
    rows = b""
    for y in range(min(height, 300)):
        run = min(width, 255)
        rows += bytes((run, (y & 15) * (17 if rle4 else 1))) + b"\x00\x00"
    data = rows + b"\x00\x01"
    offset = 14 + 40 + len(palette)
    info = struct.pack(
        "<IiiHHIIiiII", 40, width, height, 1, 4 if rle4 else 8, 2 if rle4 else 1, len(data), 0, 0, colours, 0
    )
    return b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset) + info + palette + data


def bmp_top_down(width: int, height: int) -> bytes:
    """A 24-bit BMP with a negative height (rows top-down)."""
    stride = (width * 3 + 3) & ~3
    data = b"\x40" * stride * (height if width * height <= 1_000_000 else 1)
    info = struct.pack("<IiiHHIIiiII", 40, width, -height, 1, 24, 0, len(data), 0, 0, 0, 0)
    return b"BM" + struct.pack("<IHHI", 54 + len(data), 0, 0, 54) + info + data


def gif(screen: int, frame: int) -> bytes:
    """A GIF whose logical screen is ``screen``² and whose one frame is ``frame``²."""
    head = b"GIF89a" + struct.pack("<HHBBB", screen, screen, 0x80, 0, 0) + b"\0\0\0\xff\xff\xff"
    image = b"," + struct.pack("<HHHHB", 0, 0, frame, frame, 0) + b"\x02\x02\x44\x01\x00"
    return head + image + b";"


def webp(kind: str, side: int = 16383) -> bytes:
    def chunk(name: bytes, data: bytes) -> bytes:
        return name + struct.pack("<I", len(data)) + data + b"\0" * (len(data) & 1)

    lossless = chunk(b"VP8L", b"\x2f" + struct.pack("<I", (side - 1) | (side - 1) << 14) + b"\0" * 8)
    if kind == "VP8L":
        body = lossless
    elif kind == "VP8":
        body = chunk(b"VP8 ", b"\x50\x02\x00\x9d\x01\x2a" + struct.pack("<HH", side, side) + b"\0" * 20)
    else:  # VP8X canvas of side², a 1x1 image inside
        canvas = struct.pack("<I", 0) + (side - 1).to_bytes(3, "little") + (side - 1).to_bytes(3, "little")
        small = chunk(b"VP8L", b"\x2f" + struct.pack("<I", 0) + b"\0" * 8)
        body = chunk(b"VP8X", canvas) + small
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body


def jpeg_padded(height: int, width: int, padding: int = 1_100_000, fill: int = 3) -> bytes:
    """SOI, ``padding`` bytes of APP1 segments, fill bytes, a frame header declaring the size."""
    out = bytearray(b"\xff\xd8")
    while padding > 0:
        size = min(padding, 65533)
        out += b"\xff\xe1" + struct.pack(">H", size + 2) + b"\0" * size
        padding -= size
    out += b"\xff" * fill + b"\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3)
    out += b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    return bytes(out) + b"\xff\xda\x00\x0c\x03\x01\x00\x02\x11\x03\x11\x00\x3f\x00" + b"\0" * 64 + b"\xff\xd9"


def apng(frame: int) -> bytes:
    """A 100x100 PNG whose animation control chunk declares a ``frame``² frame."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = chunk(b"IHDR", struct.pack(">IIBBBBB", 100, 100, 8, 2, 0, 0, 0))
    control = chunk(b"acTL", struct.pack(">II", 1, 0))
    frame_control = chunk(b"fcTL", struct.pack(">IIIIIHHBB", 0, frame, frame, 0, 0, 1, 1, 0, 0))
    data = chunk(b"IDAT", zlib.compress(b"\0" * (1 + 300) * 100))
    return b"\x89PNG\r\n\x1a\n" + header + control + frame_control + data + chunk(b"IEND", b"")


BOMBS = {
    "tiff-le": tiff(HUGE, HUGE, "<"),
    "tiff-be": tiff(HUGE, HUGE, ">"),
    "bigtiff": tiff(HUGE, HUGE, "<", big=True),
    "tiff-repeated-tag": tiff(HUGE, HUGE, ">", decoy=100),
    "bmp-rle8": bmp_rle8(HUGE, HUGE),
    "bmp-rle4": bmp_rle8(HUGE, HUGE, rle4=True),
    "bmp-top-down": bmp_top_down(HUGE, HUGE),
    "gif-screen": gif(12000, 100),
    "gif-frame": gif(100, 12000),
    "webp-vp8l": webp("VP8L"),
    "webp-vp8": webp("VP8"),
    "webp-vp8x": webp("VP8X"),
    "ppm": b"P6\n# made by hand\n30000 30000\n255\n" + b"\0" * 300,
    "pgm": b"P5 30000 30000 65535 " + b"\0" * 300,
    "pam": b"P7\nWIDTH 30000\nHEIGHT 30000\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" + b"\0" * 9,
    "pam-repeated": b"P7\nWIDTH 30000\nWIDTH 100\nHEIGHT 30000\nDEPTH 3\nMAXVAL 255\nENDHDR\n" + b"\0" * 9,
    "jpeg-app-padding": jpeg_padded(HUGE, HUGE),
    "apng-frame": apng(12000),
}


@pytest.fixture
def tripwire(monkeypatch) -> list[int]:
    """Fails the test if anything reaches a decoder."""
    calls: list[int] = []

    def never(*args, **kwargs):
        calls.append(1)
        raise AssertionError("the decoder ran")

    monkeypatch.setattr(screenshot.cv2, "imdecode", never)
    return calls


@pytest.mark.parametrize("name", list(BOMBS))
def test_huge_declared_sizes_are_refused_from_the_header(name: str, tripwire, tmp_path) -> None:
    path = tmp_path / f"bomb-{name}.img"
    path.write_bytes(BOMBS[name])
    assert path.stat().st_size < 1_200_000
    start = time.process_time()
    with pytest.raises(InputError) as info:
        screenshot.import_screenshot(path)
    message = str(info.value)
    limit = "16,000,000" if name.startswith("gif") else "40,000,000"
    assert "image too large (" in message and f"limit {limit} pixels" in message, message
    assert "\n" not in message and message.startswith(f"bomb-{name}.img: ")
    assert not tripwire
    assert time.process_time() - start < 1.0  # a header walk, not a decode (CPU time: no flake)


@pytest.mark.parametrize(
    "ext,name",
    [
        (".ras", "Sun raster"),
        (".hdr", "Radiance HDR"),
        (".pfm", "PFM"),
        (".jp2", "JPEG 2000"),
        (".avif", "AVIF"),
    ],
)
def test_formats_we_cannot_size_are_refused_even_when_valid(ext: str, name: str, tripwire) -> None:
    img = render(random_scene(5, 5, random.Random(1)), Style(width=360, height=640))
    data = encode(img.astype(np.float32) / 255 if ext in (".hdr", ".pfm") else img, ext)
    with pytest.raises(InputError, match=f"shot: {name}.* not supported"):
        decode(data, "shot")
    assert not tripwire


def test_a_small_first_frame_behind_a_large_later_one_is_too_small() -> None:
    """The header counts every frame; the decoder returns the first, which is checked again."""
    first = encode(np.full((20, 30, 3), 200, np.uint8), ".gif")
    later = b"," + struct.pack("<HHHHB", 0, 0, 100, 100, 0) + b"\x02\x02\x44\x01\x00"
    data = first[:-1] + later + b";"
    assert (read_header(data).width, read_header(data).height) == (100, 100)
    with pytest.raises(InputError, match=r"^g.gif: image too small \(30x20 pixels\)$"):
        decode(data, "g.gif")


# ---- the header readers agree with the decoders on real files ----------------------------------------


def _real_files() -> dict[str, bytes]:
    img = render(random_scene(6, 6, random.Random(7)), Style(width=720, height=1280))
    small = img[::4, ::4].copy()  # 180x320
    out = {
        ext: encode(small, ext) for ext in (".png", ".jpg", ".tiff", ".bmp", ".webp", ".ppm", ".pam", ".gif")
    }
    out[".pgm"] = encode(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), ".pgm")
    out["rgba.png"] = encode(cv2.cvtColor(small, cv2.COLOR_BGR2BGRA), ".png")
    out["rgba16.tiff"] = encode(cv2.cvtColor(small, cv2.COLOR_BGR2BGRA).astype(np.uint16) * 257, ".tiff")
    out["tiff-be"] = tiff(150, 90, ">")
    out["tiff-le"] = tiff(150, 90, "<")
    out["bigtiff"] = tiff(150, 90, "<", big=True)
    out["bmp-rle8"] = bmp_rle8(200, 100)
    out["bmp-rle4"] = bmp_rle8(200, 100, rle4=True)
    out["bmp-top-down"] = bmp_top_down(120, 70)
    return out


@pytest.mark.parametrize("name,data", list(_real_files().items()))
def test_declared_size_matches_what_opencv_decodes(name: str, data: bytes) -> None:
    header = read_header(data)
    with screenshot._decoder_messages():  # libtiff warns about OpenCV's own RGBA TIFFs
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert img is not None, name
    assert (header.height, header.width) == img.shape[:2], name
    assert decode(data, name).shape[:2] == img.shape[:2]


@pytest.mark.parametrize("padding", [0, 18], ids=["fill-bytes", "fill-bytes-and-1.2-MB-of-APP2"])
def test_jpeg_with_fill_bytes_reads_right(padding: int) -> None:
    scene = random_scene(7, 7, random.Random(11))
    data = encode(render(scene, Style(width=720, height=1280)), ".jpg", 90)
    # Any number of 0xFF fill bytes may precede a marker; APP segments come in any number.
    app = b"".join(b"\xff\xe2" + struct.pack(">H", 65535) + b"\x20" * 65533 for _ in range(padding))
    body = data[2:].replace(b"\xff\xdb", b"\xff\xff\xff\xdb").replace(b"\xff\xc0", b"\xff\xff\xc0")
    filled = data[:2] + app + body
    assert filled.count(b"\xff\xff\xff\xdb") >= 1 and filled.count(b"\xff\xff\xc0") == 1
    assert read_header(filled).width == 720
    found = detect(decode(filled, "filled.jpg"))
    assert (found.rows, found.cols) == (7, 7)
    assert found.endpoints == {k: tuple(v) for k, v in scene.puzzle.endpoints().items()}


def test_a_grayscale_screenshot_is_not_a_colour_image() -> None:
    scene = Scene(FlowPuzzle.from_rows(["R...B", ".....", "..C..", "C....", "Y.R.Y", "B...."]))
    grey = cv2.cvtColor(render(scene, Style(width=720, height=1280)), cv2.COLOR_BGR2GRAY)
    for data in (
        encode(grey, ".png"),
        encode(grey, ".jpg", 80),
        encode(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)),
    ):
        with pytest.raises(InputError, match="^not a colour image"):
            detect(decode(data))


def test_a_large_screenshot_inside_the_limit_still_reads_right() -> None:
    scene = random_scene(8, 8, random.Random(21))
    img = cv2.resize(
        render(scene, Style(width=1080, height=1920)), (3240, 5760), interpolation=cv2.INTER_NEAREST
    )
    for data in (encode(img, ".jpg", 90), encode(cv2.cvtColor(img, cv2.COLOR_BGR2BGRA), ".png")):
        shown = decode(data)
        assert shown.shape[0] * shown.shape[1] <= screenshot.WORK_PIXELS
        found = detect(shown)
        assert found.endpoints == {k: tuple(v) for k, v in scene.puzzle.endpoints().items()}


# ---- peak memory ---------------------------------------------------------------------------------------

_PEAK = """
import json, resource, sys
from solvers.common.errors import InputError
from solvers.flow.screenshot import import_screenshot
out = []
for path in sys.argv[1:]:
    try:
        puzzle, notes = import_screenshot(path)
        result = f"{puzzle.cols}x{puzzle.rows}"
    except InputError as exc:
        result = str(exc)
    out.append([result, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024])
print(json.dumps(out))
"""

# A child's ru_maxrss starts at its parent's peak (Linux hands the high-water mark on through
# vfork and exec): a small launcher in between makes the figure the import's own.
_LAUNCH = "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]))"


def _peaks(*paths: Path) -> list[tuple[str, int]]:
    """Each import's result and the process's peak memory so far (bytes), in one process."""
    command = [sys.executable, "-c", _LAUNCH, sys.executable, "-c", _PEAK, *map(str, paths)]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    return [(result, peak) for result, peak in json.loads(run.stdout)]


def test_peak_memory_of_large_accepted_images(tmp_path: Path) -> None:
    """40-megapixel images just inside the limit (the RGBA PNG peaked at 2.3 GB with a float blend)."""
    scene = random_scene(9, 9, random.Random(5))
    small = render(scene, Style(width=1080, height=1480))
    big = cv2.resize(small, (5400, 7400), interpolation=cv2.INTER_NEAREST)  # 39.96 MP
    rgba = cv2.cvtColor(big, cv2.COLOR_BGR2BGRA)
    rgba[:50, :50, 3] = 0  # some transparency
    files = {
        "rgba.png": cv2.imencode(".png", rgba, [cv2.IMWRITE_PNG_COMPRESSION, 1])[1].tobytes(),
        # progressive 4:4:4 is libjpeg's costliest: it keeps every coefficient (395 MB measured)
        "big.jpg": cv2.imencode(
            ".jpg",
            big,
            [
                cv2.IMWRITE_JPEG_PROGRESSIVE,
                1,
                cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
                cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444,
            ],
        )[1].tobytes(),
        # GIF's own limit is lower: its decoder holds about 12 bytes a pixel
        "big.gif": encode(cv2.resize(small, (3240, 4440), interpolation=cv2.INTER_NEAREST), ".gif"),
    }
    del small, big, rgba
    paths = []
    for name, data in files.items():
        paths.append(tmp_path / name)
        paths[-1].write_bytes(data)
    for name, (result, peak) in zip(files, _peaks(*paths), strict=True):
        assert result == "9x9", (name, result)
        assert peak < 500_000_000, f"{name}: peak {peak / 1e6:.0f} MB"


def test_refused_bombs_stay_small_in_a_real_process(tmp_path: Path) -> None:
    paths = []
    for name in ("jpeg-app-padding", "tiff-le", "bmp-rle8", "gif-frame", "webp-vp8x"):
        paths.append(tmp_path / name)
        paths[-1].write_bytes(BOMBS[name])
    for result, peak in _peaks(*paths):
        assert "image too large (" in result and peak < 200_000_000, (result, peak)


# ---- the command line ------------------------------------------------------------------------------


def test_import_refuses_a_bomb_with_one_line(tmp_path: Path, capfd) -> None:
    path = tmp_path / "scan.tiff"
    path.write_bytes(BOMBS["tiff-be"])
    assert PLUGIN.cli(["import", str(path)]) == 2
    err = capfd.readouterr().err
    assert err == (
        "workbench flow: scan.tiff: image too large (30000x30000 pixels; limit 40,000,000 pixels)\n"
    )


def test_import_timeout_ends_with_exit_3(tmp_path: Path, capfd, monkeypatch) -> None:
    from solvers.flow import screenshot_cli

    shot = tmp_path / "shot.png"
    shot.write_bytes(encode(render(random_scene(5, 5, random.Random(1)), Style(width=720, height=1280))))

    def slow(img):  # a detection that overruns: the deadline passes while it runs
        time.sleep(0.6)
        return detect(img)

    monkeypatch.setattr(screenshot_cli, "detect", slow)
    assert PLUGIN.cli(["import", str(shot), "--timeout", "0.2"]) == 3
    captured = capfd.readouterr()
    assert captured.err == "workbench flow: timed out after 0.2 s\n" and captured.out == ""
    assert PLUGIN.cli(["import", str(shot), "--timeout", "0"]) == 2
    assert "--timeout" in capfd.readouterr().err


# ---- random damage -------------------------------------------------------------------------------------


def _mutants(data: bytes, rng: random.Random, count: int) -> list[bytes]:
    out = []
    for k in range(count):
        b = bytearray(data)
        kind = k % 4
        if kind == 0:  # a few bit flips anywhere
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(len(b))
                b[i] ^= 1 << rng.randrange(8)
        elif kind == 1:  # bit flips in the header, where the sizes are
            for _ in range(rng.randint(1, 4)):
                i = rng.randrange(min(len(b), 700))
                b[i] ^= 1 << rng.randrange(8)
        elif kind == 2:  # cut short
            b = b[: rng.randrange(len(b))]
        else:  # a run of random bytes overwritten
            i = rng.randrange(len(b))
            n = rng.randint(1, 64)
            b[i : i + n] = bytes(rng.randrange(256) for _ in range(n))
        out.append(bytes(b))
    return out


@pytest.mark.parametrize("ext", [".png", ".jpg"])
def test_random_damage_never_gives_a_traceback(ext: str, capfd) -> None:
    scene = random_scene(6, 6, random.Random(3))
    data = encode(render(scene, Style(width=540, height=960)), ext, 80)
    rng = random.Random(ext)
    outcomes = {"read": 0, "refused": 0}
    for mutant in _mutants(data, rng, 200):
        try:
            detect(decode(mutant, "m"))
            outcomes["read"] += 1
        except InputError as exc:
            assert "\n" not in str(exc) and str(exc)
            outcomes["refused"] += 1
    assert outcomes["refused"] > 0 and sum(outcomes.values()) == 200
    assert capfd.readouterr().err == ""
