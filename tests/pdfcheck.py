"""Reading kits back with real PDF readers (pypdf, pdfplumber, pdfium) for the tests."""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pdfplumber
import pypdfium2 as pdfium
from pdfplumber.pdf import PDF
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, PdfObject

PT_PER_MM = 72 / 25.4


def mm(points: float) -> float:
    return points / PT_PER_MM


def page_texts(path) -> list[str]:
    reader = PdfReader(str(path))
    return [page.extract_text() or "" for page in reader.pages]


def rects_of_size(page, w_mm: float, h_mm: float, tol_mm: float = 0.2) -> list[dict[str, Any]]:
    """pdfplumber rectangles (Form XObjects included) of a given size in mm."""
    return [r for r in page.rects if abs(mm(r["width"]) - w_mm) <= tol_mm and abs(mm(r["height"]) - h_mm) <= tol_mm]


def crosses(page, size_mm: float) -> list[tuple[float, float]]:
    """Centres (page mm, from top-left) of crosses made of one horizontal and one vertical
    line of the given length meeting at their midpoints."""
    horizontal, vertical = [], []
    for line in page.lines:
        w, h = mm(line["x1"] - line["x0"]), mm(line["bottom"] - line["top"])
        if abs(w - size_mm) < 0.05 and h < 0.01:
            horizontal.append((mm((line["x0"] + line["x1"]) / 2), mm(line["top"])))
        elif abs(h - size_mm) < 0.05 and w < 0.01:
            vertical.append((mm(line["x0"]), mm((line["top"] + line["bottom"]) / 2)))
    return [h for h in horizontal if any(abs(h[0] - v[0]) < 0.05 and abs(h[1] - v[1]) < 0.05 for v in vertical)]


def pixel_at(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    """The pixel at xy of a rendered page or picture of several bands (RGB, RGBA): PIL types a
    pixel as any band count's."""
    pixel = image.getpixel(xy)
    assert isinstance(pixel, tuple), pixel
    return pixel


def ink_bounds(path, index: int, dpi: int = 40) -> tuple[float, float, float, float] | None:
    """Bounding box (mm, top-left origin) of every non-white pixel pdfium renders on a page:
    what is really visible, clip paths included."""
    document = pdfium.PdfDocument(str(path))
    try:
        image = document[index].render(scale=dpi / 72).to_pil().convert("L")
    finally:
        document.close()
    box = image.point(lambda v: 255 if v < 250 else 0).getbbox()
    if box is None:
        return None
    scale = 25.4 / dpi
    return box[0] * scale, box[1] * scale, box[2] * scale, box[3] * scale


# pdfplumber's readings of the last few files, by (real path, size, mtime): kits are read by
# many tests and never changed once written, and pdfplumber keeps each page's objects once
# parsed (its slowest part), so the next test reading the same bytes parses nothing again.
_PLUMBED: OrderedDict[tuple[str, int, int], PDF] = OrderedDict()
PLUMBED_KEPT = 4


@contextmanager
def open_plumber(path) -> Iterator[PDF]:
    """pdfplumber's reading of a PDF (shared: read it, change nothing of it)."""
    info = os.stat(path)
    key = (os.path.realpath(path), info.st_size, info.st_mtime_ns)
    doc = _PLUMBED.pop(key, None)
    if doc is None:
        doc = pdfplumber.open(str(path))
    _PLUMBED[key] = doc  # the most recently used last
    while len(_PLUMBED) > PLUMBED_KEPT:
        _PLUMBED.popitem(last=False)[1].close()
    yield doc


def forms_drawn(path) -> list[list[str]]:
    """Per page, the names of the Form XObjects its content stream draws (Do), in order."""
    reader = PdfReader(str(path))
    out = []
    for page in reader.pages:
        contents = page.get_contents()
        assert contents is not None, "a page with no content stream"
        data = contents.get_data().decode("latin-1")
        out.append([name.removeprefix("FormXob.") for name in re.findall(r"/(\S+) Do", data)])
    return out


def form_matrices(path, index: int, name: str) -> list[tuple[float, ...]]:
    """The transformation matrix (a, b, c, d, e, f) in force at each drawing of a named form on
    a page, read from its content stream (q/Q/cm tracked)."""
    from pypdf.generic import ContentStream

    reader = PdfReader(str(path))
    page = reader.pages[index]
    ops = ContentStream(page.get_contents(), reader).operations
    stack: list[tuple[float, ...]] = []
    ctm: tuple[float, ...] = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    out = []
    for operands, op in ops:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif op == b"Do" and str(operands[0]).removeprefix("/FormXob.") == name:
            out.append(ctm)
    return out


def pdf_lookup(obj: PdfObject, *keys: str) -> PdfObject | None:
    """What a path of keys leads to in a PDF's object tree (pypdf), references followed: pypdf
    types every step as a bare PdfObject, each dictionary on the way is checked to be one."""
    found = obj.get_object()
    for key in keys:
        assert isinstance(found, DictionaryObject), (key, found)
        found = found[key]
    return found


def pdf_dict(obj: PdfObject, *keys: str) -> DictionaryObject:
    """The dictionary a path of keys leads to (see pdf_lookup)."""
    found = pdf_lookup(obj, *keys)
    assert isinstance(found, DictionaryObject), (keys, found)
    return found


def pdf_array(obj: PdfObject, *keys: str) -> ArrayObject:
    """The array a path of keys leads to (see pdf_lookup)."""
    found = pdf_lookup(obj, *keys)
    assert isinstance(found, ArrayObject), (keys, found)
    return found
