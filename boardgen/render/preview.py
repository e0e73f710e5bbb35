"""PNG previews: the board and the first page of each kind, rasterised from the PDF itself."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from PIL import Image

PREVIEW_DPI = 60
BOARD_DPI = 72


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def render_page(pdf_bytes: bytes, index: int, dpi: int = PREVIEW_DPI) -> Image.Image:
    document = pdfium.PdfDocument(pdf_bytes)
    try:
        bitmap = document[index].render(scale=dpi / 72)
        return bitmap.to_pil().convert("RGB")
    finally:
        document.close()


def previews(pdf_bytes: bytes, kinds: list[str], board_pdf: bytes) -> dict[str, bytes]:
    """'board.png' plus '<kind>.png' for the first page of every kind in the kit."""
    out = {"board.png": _png(render_page(board_pdf, 0, BOARD_DPI))}
    seen: set[str] = set()
    for index, kind in enumerate(kinds):
        if kind in seen or kind == "blank":
            continue
        seen.add(kind)
        out[f"page-{index + 1:02d}-{kind}.png"] = _png(render_page(pdf_bytes, index))
    return out


def png_of_pdf_page(pdf_bytes: bytes, dpi: int) -> bytes:
    """One PDF page (the first) as PNG bytes."""
    return _png(render_page(pdf_bytes, 0, dpi))
