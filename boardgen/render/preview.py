"""PNG previews: the board and the first page of each kind, rasterised from the PDF itself."""

from __future__ import annotations

import io
import math
from concurrent.futures import ThreadPoolExecutor

import pypdfium2 as pdfium
from PIL import Image

PREVIEW_DPI = 60
BOARD_DPI = 150
# --preview-dpi bounds; a preview is also never more than this many pixels, whatever the paper.
MIN_DPI, MAX_DPI = 30, 600
MAX_PREVIEW_PIXELS = 40_000_000
# zlib level 1: within a third of the default's size, in half its time (encoding dominates).
PNG_LEVEL = 1


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=PNG_LEVEL)
    return buffer.getvalue()


def _scale(page: pdfium.PdfPage, dpi: int) -> float:
    """dpi / 72, lowered if needed so the picture stays under MAX_PREVIEW_PIXELS."""
    width, height = page.get_size()
    scale = dpi / 72
    if width * height * scale * scale > MAX_PREVIEW_PIXELS:
        scale = math.sqrt(MAX_PREVIEW_PIXELS / (width * height)) * 0.999  # pdfium rounds sizes up
    return scale


def _render(document: pdfium.PdfDocument, index: int, dpi: int) -> Image.Image:
    page = document[index]
    try:
        image: Image.Image = page.render(scale=_scale(page, dpi)).to_pil().convert("RGB")
        return image
    finally:
        page.close()


def render_page(pdf_bytes: bytes, index: int, dpi: int = PREVIEW_DPI) -> Image.Image:
    document = pdfium.PdfDocument(pdf_bytes)
    try:
        return _render(document, index, dpi)
    finally:
        document.close()


def previews(pdf_bytes: bytes, kinds: list[str], board_pdf: bytes, *, dpi: int | None = None) -> dict[str, bytes]:
    """'board.png' plus '<kind>.png' for the first page of every kind in the kit.

    The board is drawn at BOARD_DPI and pages at PREVIEW_DPI, unless dpi is given for all.
    Pages are rasterised one after the other (pdfium is not thread-safe) while the PNGs of
    the earlier ones are encoded on a second thread (zlib releases the GIL)."""
    wanted: list[tuple[str, int]] = []
    seen: set[str] = set()
    for index, kind in enumerate(kinds):
        if kind in seen or kind == "blank":
            continue
        seen.add(kind)
        wanted.append((f"page-{index + 1:02d}-{kind}.png", index))
    with ThreadPoolExecutor(max_workers=1) as encoder:
        board = pdfium.PdfDocument(board_pdf)
        try:
            jobs = {"board.png": encoder.submit(_png, _render(board, 0, dpi or BOARD_DPI))}
        finally:
            board.close()
        document = pdfium.PdfDocument(pdf_bytes)
        try:
            for name, index in wanted:
                jobs[name] = encoder.submit(_png, _render(document, index, dpi or PREVIEW_DPI))
        finally:
            document.close()
        return {name: job.result() for name, job in jobs.items()}


def png_of_pdf_page(pdf_bytes: bytes, dpi: int) -> bytes:
    """One PDF page (the first) as PNG bytes."""
    return _png(render_page(pdf_bytes, 0, dpi))
