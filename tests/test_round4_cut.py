"""Issue 40, cutting machines, read from the files a person loads: the Cricut mats (PNG, SVG)
within Design Space's documented 6.75 x 9.25 in, transparent with one island per piece and as
few as the pieces allow; the Silhouette print-and-cut PDF (pypdfium2 pixels, pdfplumber text),
its DXF files named after its pages, bleed round every piece and the kit's own board margin."""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
import pytest
from ezdxf.filemanagement import readfile
from PIL import Image

from boardgen.kit import render_kit
from boardgen.options import KitOptions

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")

SVG = "{http://www.w3.org/2000/svg}"
LIMIT_MM = (6.75 * 25.4, 9.25 * 25.4)  # Design Space's Print Then Cut image limit


def _render(tmp: Path, game: str = "classic", **options: Any) -> Any:
    return render_kit(game, tmp, KitOptions(check=False, previews=False, svg=False, **options))


def _islands(alpha: np.ndarray) -> int:
    """Connected regions of opaque pixels (4-neighbours), counted by flood fill."""
    seen = np.zeros(alpha.shape, dtype=bool)
    opaque = alpha > 0
    count = 0
    for start in zip(*np.nonzero(opaque), strict=True):
        if seen[start]:
            continue
        count += 1
        stack = [start]
        seen[start] = True
        while stack:
            y, x = stack.pop()
            for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                if 0 <= ny < alpha.shape[0] and 0 <= nx < alpha.shape[1] and opaque[ny, nx] and not seen[ny, nx]:
                    seen[ny, nx] = True
                    stack.append((ny, nx))
    return count


@pytest.fixture(scope="module")
def cricut(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _render(tmp_path_factory.mktemp("cricut"), cut="cricut")


def test_cricut_mats_are_transparent_islands_within_the_documented_limit(cricut: Any) -> None:
    mats = sorted((cricut.folder / "cut").glob("*-cricut-mat*.png"))
    cut = [p for p in cricut.placements if p.kind not in ("card-back", "board") and p.stock == "card"]
    area = 0.0
    pieces = 0
    for png in mats:
        image = Image.open(io.BytesIO(png.read_bytes()))
        assert image.mode == "RGBA"
        w, h = (v * 25.4 / 300 for v in image.size)
        assert w <= LIMIT_MM[0] + 1e-6 and h <= LIMIT_MM[1] + 1e-6, png.name  # was up to 242 mm tall
        alpha = np.asarray(image)[..., 3]
        assert not alpha[0].any() and not alpha[-1].any() and not alpha[:, 0].any() and not alpha[:, -1].any()
        shapes = list(ET.fromstring(png.with_suffix(".svg").read_bytes()).find(f"{SVG}g[@id='CUT']") or [])
        # Each piece an island of its own (a quarter of the pixels: the islands stay 3 mm apart).
        assert _islands(alpha[::4, ::4]) == len(shapes), png.name  # was 1 opaque rectangle
        opaque_mm2 = (alpha > 0).sum() * (25.4 / 300) ** 2
        outlines_mm2 = sum(
            float(s.get("width", 0)) * float(s.get("height", 0))
            if s.tag == f"{SVG}rect"
            else math.pi * float(s.get("r", 0)) ** 2
            for s in shapes
            if s.tag != f"{SVG}path"
        )
        if all(s.tag != f"{SVG}path" for s in shapes):  # opaque exactly inside the cut outlines
            assert opaque_mm2 == pytest.approx(outlines_mm2, rel=0.03), png.name
        pieces += len(shapes)
        area += sum(p.trim.w * p.trim.h for p in cut if p.piece in {s.get("id") for s in shapes})
    assert pieces == len(cut)
    # As few mats as the pieces allow: at most one more than their area needs (was 16, then 6).
    assert len(mats) <= math.ceil(area / (LIMIT_MM[0] * LIMIT_MM[1])) + 1, len(mats)
    readme = (cricut.folder / "cut" / "README.txt").read_text(encoding="utf-8")
    assert "Bleed on" in readme and "cut them by hand" in readme


@pytest.fixture(scope="module")
def silhouette(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _render(tmp_path_factory.mktemp("silhouette"), cut="silhouette")


def test_silhouette_cut_files_are_named_after_the_pages_that_print_their_names(silhouette: Any) -> None:
    cut = silhouette.folder / "cut"
    with pdfplumber.open(cut / f"{silhouette.pdf.stem}-silhouette.pdf") as pdf:
        for number, page in enumerate(pdf.pages[1:], start=2):
            name = f"{silhouette.pdf.stem}-silhouette-page{number:02}.dxf"
            assert f"cut file: {name}" in (page.extract_text() or ""), number
            outlines = readfile(cut / name).modelspace().query('*[layer=="CUT"]')
            assert len(outlines) > 0
    assert len(list(cut.glob("*.dxf"))) == len(pdf.pages) - 1


def test_the_board_keeps_the_kit_margin_and_the_pieces_have_bleed(silhouette: Any, tmp_path: Path) -> None:
    plain = _render(tmp_path, gap=2.0)
    boards = [p.trim for p in silhouette.placements if p.kind == "board"]
    assert boards == [p.trim for p in plain.placements if p.kind == "board"]  # seams where the kit has them
    pieces = [p for p in silhouette.placements if p.kind in ("tile", "pawn") and p.shape == "rect"]
    assert pieces
    document = pdfium.PdfDocument(silhouette.pdf.read_bytes())
    px = 200 / 25.4
    matched = total = 0
    try:
        for index in sorted({p.page for p in pieces}):
            image = np.asarray(document[index].render(scale=200 / 72).to_pil().convert("RGB")).astype(int)
            for p in (p for p in pieces if p.page == index):
                t = p.trim
                for k in range(1, 20):  # along each edge: just inside the trim, and 0.6 mm outside it
                    fx, fy = t.x + t.w * k / 20, t.y + t.h * k / 20
                    for (ix, iy), (ox, oy) in (
                        ((fx, t.y + 0.4), (fx, t.y - 0.6)),
                        ((fx, t.bottom - 0.4), (fx, t.bottom + 0.6)),
                        ((t.x + 0.4, fy), (t.x - 0.6, fy)),
                        ((t.right - 0.4, fy), (t.right + 0.6, fy)),
                    ):
                        inside = image[round(iy * px), round(ix * px)]
                        outside = image[round(oy * px), round(ox * px)]
                        total += 1
                        matched += int(np.abs(inside - outside).max() <= 40)
    finally:
        document.close()
    assert matched / total >= 0.9, matched / total  # the art runs on past the trim (was white)
