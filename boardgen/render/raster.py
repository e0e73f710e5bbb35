"""PDF pages as pictures: the one place boardgen rasterises (pdfium draws, Pillow holds the
pixels). The previews, the Cricut mats, the print services' faces and the virtual tables'
images all come through here, so a page looks the same wherever it is turned into pixels.

pdfium is not thread-safe: a document is used by one thread at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported when a picture is made: option checks and `--no-preview` need neither
    import pypdfium2 as pdfium
    from PIL import Image

    from boardgen.data.theme import Theme


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


def page_image(document: pdfium.PdfDocument, index: int, *, scale: float,
               crop: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0), annotations: bool = True) -> Image.Image:
    """A page (or the part of it `crop` leaves: points cut from the left, bottom, right and top)
    at `scale` pixels a point, as an RGB picture. pdfium rounds each side up to whole pixels."""
    page = document[index]
    try:
        image: Image.Image = page.render(scale=scale, crop=crop, draw_annots=annotations).to_pil()
        return image if image.mode == "RGB" else image.convert("RGB")
    finally:
        page.close()


def svg_image(svg: str, theme: Theme, pixels: tuple[int, int]) -> Image.Image:
    """One of boardgen's drawings as exactly `pixels` (RGB), drawn through a page of its own so
    it looks as it prints (the PDF renderer's fonts and pictures)."""
    from PIL import Image

    from boardgen.render.pdf import svg_page

    with opened(svg_page(svg, theme)) as document:
        width_pt, _ = page_size(document, 0)
        image = page_image(document, 0, scale=pixels[0] / width_pt, annotations=False)
    if image.size != pixels:  # pdfium rounds each side up: at most a pixel to take back
        image = image.resize(pixels, Image.Resampling.LANCZOS)
    return image
