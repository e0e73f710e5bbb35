"""PDF pages as pictures: the one place boardgen rasterises (pdfium draws, Pillow holds the
pixels). The previews, the Cricut mats, the print services' faces, the virtual tables' images
and the text-contrast check all come through here, so a page looks the same wherever it is
turned into pixels. A leaf of the pipeline: it imports nothing of boardgen (one of boardgen's
drawings becomes pixels through `boardgen.render.pdf.svg_image`).

pdfium is not thread-safe: a document is used by one thread at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when a picture is made: option checks and `--no-preview` need neither
    import pypdfium2 as pdfium
    from numpy.typing import NDArray
    from PIL import Image


@contextmanager
def opened(pdf: bytes) -> Iterator[pdfium.PdfDocument]:
    """The PDF as a pdfium document, closed when done."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        yield document
    finally:
        document.close()


def page_size(document: pdfium.PdfDocument, index: int) -> tuple[float, float]:
    """A page's width and height in points."""
    page = document[index]
    try:
        width, height = page.get_size()
        return float(width), float(height)
    finally:
        page.close()


def page_image(
    document: pdfium.PdfDocument,
    index: int,
    *,
    scale: float,
    crop: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
    annotations: bool = True,
) -> Image.Image:
    """A page (or the part of it `crop` leaves: points cut from the left, bottom, right and top)
    at `scale` pixels a point, as an RGB picture. pdfium rounds each side up to whole pixels."""
    page = document[index]
    try:
        image: Image.Image = page.render(scale=scale, crop=crop, draw_annots=annotations).to_pil()
        return image if image.mode == "RGB" else image.convert("RGB")
    finally:
        page.close()


def page_pixels(page: pdfium.PdfPage, *, scale: float) -> NDArray[Any]:
    """A page's pixels at `scale` pixels a point as one 0xRRGGBB word each (rows top down): the
    text-contrast check reads colours, not pictures. pdfium draws BGRx (the same pixels as its
    BGR, and quicker), read in place: little-endian, each pixel is 0xXXRRGGBB."""
    import numpy as np

    bitmap = page.render(scale=scale, prefer_bgrx=True)
    if bitmap.mode == "BGRX":
        words: NDArray[Any] = np.ascontiguousarray(bitmap.to_numpy()).view("<u4")[..., 0]
        return words & 0xFFFFFF
    rgb = np.asarray(bitmap.to_pil().convert("RGB"), dtype=np.uint32)
    packed: NDArray[Any] = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    return packed
