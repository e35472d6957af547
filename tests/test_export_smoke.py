"""Export smoke test per plug-in: a sample through the export path to real PNG, SVG and PDF files.

Goes through ``workbench.cli.main`` (in-process) so it follows the export code wherever it lives.
"""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

from solvers.common import registry
from solvers.common.protocol import PluginBase
from workbench.cli import main

PLUGINS = list(registry.plugins().values())
CELL, MARGIN = 20, 5


def export(plugin: PluginBase, out: Path) -> None:
    sample = plugin.sample_paths()[-1]
    code = main(
        ["export", plugin.meta.id, str(sample), str(out), "--cell-size", str(CELL), "--margin", str(MARGIN)]
    )
    assert code == 0 and out.is_file()


def expected_size(plugin: PluginBase) -> tuple[int, int]:
    """Pixel size the CLI promises: ``--cell-size`` per grid cell plus the margin on each side."""
    puzzle, entries = plugin.parse_document(plugin.sample_paths()[-1].read_text(encoding="utf-8"))
    dl = plugin.draw(puzzle, None, entries)
    scale = CELL / (dl.grid.cell if dl.grid is not None else 40.0)
    return round(dl.width * scale + 2 * MARGIN), round(dl.height * scale + 2 * MARGIN)


def png_chunks(data: bytes) -> dict[bytes, bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature"
    chunks: dict[bytes, bytes] = {}
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        chunks[kind] = chunks.get(kind, b"") + data[at + 8 : at + 8 + length]
        at += 12 + length
    assert b"IEND" in chunks, "truncated PNG"
    return chunks


@pytest.mark.parametrize("plugin", PLUGINS, ids=[p.meta.id for p in PLUGINS])
def test_export_writes_real_files(plugin: PluginBase, tmp_path: Path) -> None:
    png, svg, pdf = (tmp_path / f"out.{ext}" for ext in ("png", "svg", "pdf"))
    for out in (png, svg, pdf):
        export(plugin, out)

    chunks = png_chunks(png.read_bytes())
    width, height = struct.unpack(">II", chunks[b"IHDR"][:8])
    assert (width, height) == expected_size(plugin)
    pixels = zlib.decompress(chunks[b"IDAT"])
    assert len(set(pixels)) > 4, "the PNG is blank"

    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert sum(1 for _ in root.iter()) > 10, "the SVG has (almost) no drawing"

    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert box, "the PDF has no page"
    # one page, the size of the PNG at 96 pixels to the inch (72 points)
    for points, pixels in zip((float(box[1]), float(box[2])), (width, height), strict=True):
        assert pixels * 0.75 <= points < pixels * 0.75 + 1  # whole points, never smaller
    streams = re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S)
    drawn = b"".join(zlib.decompress(s) if s[:1] == b"x" else s for s in streams)
    assert drawn.count(b" re") + drawn.count(b" l\n") + drawn.count(b" c\n") > 10, "the PDF page is empty"
