"""The declared pixel size of an image file, read from its header without decoding it.

A decoder allocates what the header declares before it reads a single pixel, so a few hundred
bytes can ask for gigabytes (a decompression bomb). Every format OpenCV's ``imdecode`` would accept
is either sized here (PNG with its APNG frames, JPEG, TIFF and BigTIFF, BMP, GIF with every frame,
WebP with every frame, PNM) or named and refused: a format we cannot size never reaches a decoder.

Every reader walks the file once, front to back, in steps it takes from the file's own lengths:
linear in the file size whatever the lengths say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


class HeaderError(ValueError):
    """The file is no image we can size: the message says what it is or what is wrong."""


@dataclass(frozen=True)
class Header:
    format: str  # "PNG", "JPEG", ...
    width: int  # the largest width and height the file declares (canvas or any frame)
    height: int
    alpha: bool = False  # may hold transparency (decode it unchanged, blend it ourselves)
    wide_samples: bool = False  # more than 8 bits per sample


SUPPORTED = "PNG, JPEG, WebP, BMP, TIFF, GIF, PNM"

# Formats OpenCV decodes that we do not size: named so the refusal says what the file is.
_REFUSED = (
    (b"\x59\xa6\x6a\x95", "Sun raster"),
    (b"#?RADIANCE", "Radiance HDR"),
    (b"#?RGBE", "Radiance HDR"),
    (b"PF", "PFM"),
    (b"Pf", "PFM"),
    (b"\x76\x2f\x31\x01", "OpenEXR"),
    (b"\x00\x00\x00\x0cjP  \r\n\x87\n", "JPEG 2000"),
    (b"\xff\x4f\xff\x51", "JPEG 2000"),
)


def _u16be(data: bytes, i: int) -> int:
    return int.from_bytes(data[i : i + 2], "big")


def _u32be(data: bytes, i: int) -> int:
    return int.from_bytes(data[i : i + 4], "big")


def _u16le(data: bytes, i: int) -> int:
    return int.from_bytes(data[i : i + 2], "little")


def _need(data: bytes, end: int, what: str) -> None:
    if end > len(data):
        raise HeaderError(f"truncated {what} header")


def read_header(data: bytes) -> Header:
    """The format and declared size of ``data``; ``HeaderError`` for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return _png(data)
    if data[:3] == b"\xff\xd8\xff":
        return _jpeg(data)
    if data[:4] in (b"II*\0", b"MM\0*", b"II+\0", b"MM\0+"):
        return _tiff(data)
    if data[:2] == b"BM":
        return _bmp(data)
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return _gif(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    if len(data) >= 2 and data[0:1] == b"P" and data[1:2] in b"1234567":
        return _pnm(data)
    for magic, name in _REFUSED:
        if data.startswith(magic):
            raise HeaderError(f"{name} images are not supported (use {SUPPORTED})")
    if data[4:8] == b"ftyp":
        raise HeaderError(f"AVIF/HEIF images are not supported (use {SUPPORTED})")
    raise HeaderError(f"not an image in a supported format ({SUPPORTED})")


def _checked(fmt: str, width: int, height: int, **flags: bool) -> Header:
    if width <= 0 or height <= 0:
        raise HeaderError(f"corrupt {fmt} header (declares {width}x{height} pixels)")
    return Header(fmt, width, height, **flags)


# ---- PNG ---------------------------------------------------------------------------------------------


def _png(data: bytes) -> Header:
    _need(data, 33, "PNG")
    if data[12:16] != b"IHDR":
        raise HeaderError("corrupt PNG header (no IHDR chunk first)")
    width, height = _u32be(data, 16), _u32be(data, 20)
    depth, colour = data[24], data[25]
    alpha = colour in (4, 6)
    # APNG frames (fcTL) carry their own size and offset; tRNS makes a palette or grey image
    # transparent. Every chunk must fit in the file: a decoder allocates what a length says.
    i = 8
    while True:
        _need(data, i + 8, "PNG")
        length, kind = _u32be(data, i), data[i + 4 : i + 8]
        if i + 12 + length > len(data):
            name = kind.decode("latin-1") if kind.isalpha() else "?"
            raise HeaderError(f"corrupt PNG (chunk {name!r} at byte {i} runs past the end of the file)")
        if kind == b"fcTL" and length >= 20:
            w, h = _u32be(data, i + 12), _u32be(data, i + 16)
            x, y = _u32be(data, i + 20), _u32be(data, i + 24)
            width, height = max(width, x + w), max(height, y + h)
        elif kind == b"tRNS":
            alpha = True
        elif kind == b"IEND":
            break
        i += 12 + length
    return _checked("PNG", width, height, alpha=alpha, wide_samples=depth > 8)


# ---- JPEG --------------------------------------------------------------------------------------------

_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg(data: bytes) -> Header:
    """Walk the marker segments (any length, any number of 0xFF fill bytes) to the frame header."""
    i = 2
    n = len(data)
    while True:
        if i >= n:
            raise HeaderError("truncated JPEG header (no frame header)")
        if data[i] != 0xFF:
            raise HeaderError(f"corrupt JPEG header (no marker at byte {i})")
        while i < n and data[i] == 0xFF:  # fill bytes: any number of 0xFF may precede a marker
            i += 1
        if i >= n:
            raise HeaderError("truncated JPEG header (no frame header)")
        marker = data[i]
        i += 1
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # markers without a length
            continue
        if marker in (0xD8, 0xD9, 0xDA) or marker == 0x00:
            raise HeaderError("corrupt JPEG header (image data before the frame header)")
        _need(data, i + 2, "JPEG")
        length = _u16be(data, i)
        if length < 2:
            raise HeaderError(f"corrupt JPEG header (segment length {length})")
        if marker in _SOF:
            _need(data, i + 7, "JPEG")
            height, width = _u16be(data, i + 3), _u16be(data, i + 5)
            if height == 0:
                raise HeaderError("unsupported JPEG (height given after the image data)")
            return _checked("JPEG", width, height, wide_samples=data[i + 2] > 8)
        i += length


# ---- TIFF --------------------------------------------------------------------------------------------

_TIFF_WIDTH, _TIFF_LENGTH, _TIFF_BITS, _TIFF_SAMPLES = 256, 257, 258, 277
_TIFF_EXTRA = 338  # ExtraSamples: an alpha channel


def _tiff(data: bytes) -> Header:
    """ImageWidth and ImageLength of the first IFD (the page a decoder reads), either byte order."""
    order: Literal["little", "big"] = "little" if data[:2] == b"II" else "big"
    big = data[2:4] in (b"+\0", b"\0+")

    def num(i: int, size: int) -> int:
        return int.from_bytes(data[i : i + size], order)

    if big:
        _need(data, 16, "TIFF")
        if num(4, 2) != 8:
            raise HeaderError("corrupt BigTIFF header")
        ifd, count_size, entry_size, value_at = num(8, 8), 8, 20, 12
    else:
        _need(data, 8, "TIFF")
        ifd, count_size, entry_size, value_at = num(4, 4), 2, 12, 8
    _need(data, ifd + count_size, "TIFF")
    if ifd < 8:
        raise HeaderError("corrupt TIFF header (directory offset inside the header)")
    entries = num(ifd, count_size)
    first = ifd + count_size
    _need(data, first + entries * entry_size, "TIFF")
    found: dict[int, int] = {}
    for k in range(entries):
        at = first + k * entry_size
        tag, kind = num(at, 2), num(at + 2, 2)
        size = {3: 2, 4: 4, 16: 8}.get(kind)  # SHORT, LONG, LONG8
        if size is None or tag not in (_TIFF_WIDTH, _TIFF_LENGTH, _TIFF_BITS, _TIFF_SAMPLES, _TIFF_EXTRA):
            continue
        where, slot = at + value_at, entry_size - value_at  # the count and the value take a slot each
        if num(at + 4, slot) * size > slot:
            where = num(where, slot)  # the values do not fit: an offset to them
        if where + size <= len(data):  # the first value; of a repeated tag, the largest
            found[tag] = max(found.get(tag, 0), num(where, size))
    if _TIFF_WIDTH not in found or _TIFF_LENGTH not in found:
        raise HeaderError("corrupt TIFF header (no image width or length)")
    bits = found.get(_TIFF_BITS, 1)
    alpha = _TIFF_EXTRA in found or found.get(_TIFF_SAMPLES, 1) in (2, 4)
    return _checked("TIFF", found[_TIFF_WIDTH], found[_TIFF_LENGTH], alpha=alpha, wide_samples=bits > 8)


# ---- BMP ---------------------------------------------------------------------------------------------


def _bmp(data: bytes) -> Header:
    _need(data, 26, "BMP")
    info = int.from_bytes(data[14:18], "little")
    if info == 12:  # OS/2 BITMAPCOREHEADER: unsigned 16-bit sizes
        return _checked("BMP", _u16le(data, 18), _u16le(data, 20))
    if info < 40:
        raise HeaderError(f"corrupt BMP header (info header of {info} bytes)")
    _need(data, 32, "BMP")
    width = int.from_bytes(data[18:22], "little", signed=True)
    height = int.from_bytes(data[22:26], "little", signed=True)  # negative: rows top-down
    bits = _u16le(data, 28)
    return _checked("BMP", width, abs(height), alpha=bits == 32)


# ---- GIF ---------------------------------------------------------------------------------------------


def _skip_sub_blocks(data: bytes, i: int) -> int:
    """The offset after a chain of data sub-blocks (length byte, data; a zero length ends it)."""
    while True:
        _need(data, i + 1, "GIF")
        size = data[i]
        i += 1 + size
        if size == 0:
            return i


def _gif(data: bytes) -> Header:
    """The logical screen and every image descriptor (a decoder allocates a frame's own size)."""
    _need(data, 13, "GIF")
    width, height = _u16le(data, 6), _u16le(data, 8)
    flags = data[10]
    i = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
    frames = 0
    while i < len(data):
        block = data[i]
        if block == 0x3B:  # trailer
            break
        if block == 0x21:  # extension: label, sub-blocks
            _need(data, i + 2, "GIF")
            i = _skip_sub_blocks(data, i + 2)
        elif block == 0x2C:  # image descriptor
            _need(data, i + 10, "GIF")
            left, top = _u16le(data, i + 1), _u16le(data, i + 3)
            w, h = _u16le(data, i + 5), _u16le(data, i + 7)
            width, height = max(width, left + w), max(height, top + h)
            local = data[i + 9]
            i += 10 + (3 << ((local & 7) + 1) if local & 0x80 else 0)
            frames += 1
            _need(data, i + 1, "GIF")
            i = _skip_sub_blocks(data, i + 1)  # the LZW minimum code size, then the data
        else:
            raise HeaderError(f"corrupt GIF (unknown block 0x{block:02x} at byte {i})")
    if not frames:
        raise HeaderError("corrupt GIF (no image in the file)")
    return _checked("GIF", width, height, alpha=True)


# ---- WebP --------------------------------------------------------------------------------------------


def _webp(data: bytes) -> Header:
    """The VP8X canvas, every VP8/VP8L bitstream and every animation frame (ANMF)."""
    width = height = 0
    alpha = False
    seen = False
    i = 12
    end = min(len(data), 8 + int.from_bytes(data[4:8], "little"))

    def chunks(start: int, stop: int) -> list[tuple[bytes, int, int]]:
        out = []
        while start + 8 <= stop:
            size = int.from_bytes(data[start + 4 : start + 8], "little")
            out.append((data[start : start + 4], start + 8, size))
            start += 8 + size + (size & 1)
        return out

    todo = chunks(i, end)
    while todo:
        kind, at, size = todo.pop(0)
        if kind == b"VP8X":
            _need(data, at + 10, "WebP")
            alpha = alpha or bool(data[at] & 0x10)
            w = 1 + int.from_bytes(data[at + 4 : at + 7], "little")
            h = 1 + int.from_bytes(data[at + 7 : at + 10], "little")
        elif kind == b"VP8 ":
            _need(data, at + 10, "WebP")
            if data[at + 3 : at + 6] != b"\x9d\x01\x2a":
                raise HeaderError("corrupt WebP (VP8 frame without its start code)")
            w, h = _u16le(data, at + 6) & 0x3FFF, _u16le(data, at + 8) & 0x3FFF
            seen = True
        elif kind == b"VP8L":
            _need(data, at + 5, "WebP")
            if data[at] != 0x2F:
                raise HeaderError("corrupt WebP (VP8L frame without its signature)")
            bits = int.from_bytes(data[at + 1 : at + 5], "little")
            w, h = 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
            alpha = alpha or bool(bits >> 28 & 1)
            seen = True
        elif kind == b"ANMF":
            _need(data, at + 16, "WebP")
            x = 2 * int.from_bytes(data[at : at + 3], "little")
            y = 2 * int.from_bytes(data[at + 3 : at + 6], "little")
            w = x + 1 + int.from_bytes(data[at + 6 : at + 9], "little")
            h = y + 1 + int.from_bytes(data[at + 9 : at + 12], "little")
            todo.extend(chunks(at + 16, min(end, at + size)))
        else:
            continue
        width, height = max(width, w), max(height, h)
    if not seen:
        raise HeaderError("corrupt WebP (no image data)")
    return _checked("WebP", width, height, alpha=alpha)


# ---- PNM ---------------------------------------------------------------------------------------------

_PNM_HEADER = 4096  # no real header is longer; comments cannot stretch the scan


def _pnm(data: bytes) -> Header:
    head = data[:_PNM_HEADER]
    if head[1:2] == b"7":  # PAM: "WIDTH n" ... "ENDHDR" lines
        fields: dict[bytes, int] = {}
        for line in head.split(b"\n")[1:]:
            words = line.split()
            if words == [b"ENDHDR"]:
                break
            if len(words) == 2 and words[0] in (b"WIDTH", b"HEIGHT", b"DEPTH", b"MAXVAL"):
                if not words[1].isdigit() or len(words[1]) > 9:
                    raise HeaderError("corrupt PAM header")
                fields[words[0]] = max(fields.get(words[0], 0), int(words[1]))  # a repeat: the larger
        else:
            raise HeaderError("corrupt PAM header (no ENDHDR line)")
        if b"WIDTH" not in fields or b"HEIGHT" not in fields:
            raise HeaderError("corrupt PAM header (no WIDTH or HEIGHT)")
        alpha = fields.get(b"DEPTH", 1) in (2, 4)
        wide = fields.get(b"MAXVAL", 255) > 255
        return _checked("PNM", fields[b"WIDTH"], fields[b"HEIGHT"], alpha=alpha, wide_samples=wide)
    numbers: list[int] = []
    want = 2 if head[1:2] in b"14" else 3  # bitmaps have no maximum value
    i = 2
    while len(numbers) < want:
        while i < len(head) and head[i : i + 1] in b" \t\r\n\x0b\x0c#":
            if head[i : i + 1] == b"#":
                stop = head.find(b"\n", i)
                i = len(head) if stop < 0 else stop
            i += 1
        start = i
        while i < len(head) and head[i : i + 1].isdigit():
            i += 1
        if start == i or i - start > 9:
            raise HeaderError("corrupt PNM header")
        numbers.append(int(head[start:i]))
    wide = want == 3 and numbers[2] > 255
    return _checked("PNM", numbers[0], numbers[1], wide_samples=wide)
