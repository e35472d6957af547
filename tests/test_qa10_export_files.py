"""QA pass 10: exported files are reproducible and say their real size.

A PDF carried its creation time (Info dictionary and XMP), a random document id and its embedded
fonts in a per-run order, so the same board exported twice never gave the same bytes. An SVG said its
size in millimetres at 72 dpi, so browsers and cairo showed a 443 px drawing 591 px wide.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from solvers.common import registry
from workbench.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOVES = ROOT / "assets" / "doves" / "samples" / "02-win-in-3.doves"  # regular and bold text


def _export_in_subprocess(out: Path) -> bytes:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run(
        [sys.executable, "-m", "workbench", "export", "doves", str(DOVES), str(out)],
        check=True,
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
    )
    return out.read_bytes()


def test_pdf_is_the_same_bytes_from_two_runs(tmp_path: Path) -> None:
    first = _export_in_subprocess(tmp_path / "a.pdf")
    second = _export_in_subprocess(tmp_path / "b.pdf")
    assert first == second
    for word in (b"/CreationDate", b"/ModDate", b"xmp:CreateDate", b"xmp:ModifyDate"):
        assert word not in first, word


def test_pdf_stays_readable_after_the_dates_are_blanked(tmp_path: Path) -> None:
    out = tmp_path / "t.pdf"
    data = _export_in_subprocess(out)
    # the cross-reference table still points at objects: every offset starts "N 0 obj"
    xref = data[data.rindex(b"\nxref\n") + 6 :]
    rows = xref.split(b"\n")[1:]
    offsets = [int(r.split()[0]) for r in rows if r.endswith(b" n") or r.endswith(b" n ")]
    assert offsets
    for number, at in enumerate(offsets, start=1):
        assert data[at:].startswith(f"{number} 0 obj".encode()), (number, data[at : at + 20])


def test_svg_size_is_in_css_pixels(tmp_path: Path) -> None:
    registry.get("doves")
    out = tmp_path / "t.svg"
    assert main(["export", "doves", str(DOVES), str(out), "--cell-size", "40", "--margin", "10"]) == 0
    root = ET.parse(out).getroot()
    _x, _y, w, h = (float(v) for v in root.get("viewBox", "").split())
    for attribute, pixels in (("width", w), ("height", h)):
        text = root.get(attribute, "")
        assert text.endswith("mm"), text
        assert abs(float(text[:-2]) - pixels * 25.4 / 96) < 0.01, (attribute, text, pixels)


def test_png_svg_and_pdf_of_one_export_print_at_one_size(tmp_path: Path) -> None:
    """QA pass 10 left this open: the PNG said 144 dpi, the PDF page was 1 pt per pixel and the SVG
    96 px to the inch, so one export printed at 7.1, 14.1 and 10.6 mm per cell. Now all three are
    pixels of 1/96 inch."""
    registry.get("doves")
    inches = {}
    for ext in ("png", "svg", "pdf"):
        out = tmp_path / f"t.{ext}"
        assert main(["export", "doves", str(DOVES), str(out), "--cell-size", "40", "--margin", "10"]) == 0
        data = out.read_bytes()
        if ext == "png":
            width = int.from_bytes(data[16:20], "big")
            phys = data.index(b"pHYs")
            per_metre = int.from_bytes(data[phys + 4 : phys + 8], "big")
            assert data[phys + 12] == 1  # the unit is the metre
            inches[ext] = width / (per_metre * 0.0254)
        elif ext == "svg":
            inches[ext] = float(ET.parse(out).getroot().get("width", "")[:-2]) / 25.4
        else:
            box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
            assert box is not None
            inches[ext] = float(box[1]) / 72
    assert inches["png"] == pytest.approx(inches["svg"], rel=0.005)
    assert inches["pdf"] == pytest.approx(inches["svg"], rel=0.005)
