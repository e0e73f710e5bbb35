"""PNG previews: the board and the first page of each kind, rasterised from the PDF itself."""

from __future__ import annotations

import math
import struct
import zlib
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from boardgen.raster import opened, page_image, page_size

if TYPE_CHECKING:  # imported when a preview is made: `render --no-preview` and option checks need neither
    import pypdfium2 as pdfium
    from PIL import Image

    from boardgen.render.pdf import Showcase

PREVIEW_DPI = 60
BOARD_DPI = 150
# --preview-dpi bounds; a preview is also never more than this many pixels, whatever the paper.
MIN_DPI, MAX_DPI = 30, 600
MAX_PREVIEW_PIXELS = 40_000_000
# zlib level 1, rows unfiltered: our pages are flat colours, where filtering costs more time
# than it saves bytes (a page comes out smaller than Pillow's level-1 PNG, in half the time).
PNG_LEVEL = 1
PNG_STRIP_ROWS = 256  # rows encoded at a time: a 600 dpi page never needs three copies in memory


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(image: Image.Image) -> bytes:
    """An 8-bit RGB PNG of the image, each row with filter type 0 (none)."""
    from PIL import Image

    rgb = image if image.mode == "RGB" else image.convert("RGB")
    width, height = rgb.size
    deflate = zlib.compressobj(PNG_LEVEL)
    parts = []
    for top in range(0, height, PNG_STRIP_ROWS):
        strip = rgb.crop((0, top, width, min(height, top + PNG_STRIP_ROWS)))
        # Each row prefixed by its filter byte (0), done by Pillow in C: the strip's bytes as a
        # one-channel picture, pasted one column right of a column of zeros.
        rows = Image.new("L", (3 * width + 1, strip.height), 0)
        rows.paste(Image.frombytes("L", (3 * width, strip.height), strip.tobytes()), (1, 0))
        parts.append(deflate.compress(rows.tobytes()))
    parts.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", b"".join(parts)) + _chunk(b"IEND", b"")


def _scale(size: tuple[float, float], dpi: int) -> float:
    """dpi / 72, lowered if needed so a page of `size` (points) stays under MAX_PREVIEW_PIXELS."""
    width, height = size
    scale = dpi / 72
    if width * height * scale * scale > MAX_PREVIEW_PIXELS:
        scale = math.sqrt(MAX_PREVIEW_PIXELS / (width * height)) * 0.999  # pdfium rounds sizes up
    return scale


def _render(document: pdfium.PdfDocument, index: int, dpi: int) -> Image.Image:
    return page_image(document, index, scale=_scale(page_size(document, index), dpi))


def _render_showcase(document: pdfium.PdfDocument, spot: Showcase, dpi: int) -> Image.Image:
    """The part of a page where a drawing is shown whole, at dpi for the drawing's own size."""
    from boardgen.units import pt

    width, height = page_size(document, spot.page)
    r = spot.rect
    scale = dpi / 72 / spot.scale  # the drawing at its own size, at dpi
    area = pt(r.w) * pt(r.h)
    if area * scale * scale > MAX_PREVIEW_PIXELS:
        scale = math.sqrt(MAX_PREVIEW_PIXELS / area) * 0.999  # pdfium rounds sizes up
    # pdfium rounds the page and each crop up to whole pixels: the right and bottom crops are
    # chosen so the picture has exactly the size the drawing has on a page of its own.
    # Each edge is cut at the pixel boundary nearest to the drawing's edge.
    left, top = round(pt(r.x) * scale), round(pt(r.y) * scale)
    want_w, want_h = math.ceil(pt(r.w) * scale), math.ceil(pt(r.h) * scale)
    right = max(0, math.ceil(width * scale) - left - want_w)
    bottom = max(0, math.ceil(height * scale) - top - want_h)
    crop = tuple(max(0.0, (pixels - 0.5) / scale) for pixels in (left, bottom, right, top))
    return page_image(document, spot.page, scale=scale, crop=(crop[0], crop[1], crop[2], crop[3]))


def render_page(pdf_bytes: bytes, index: int, dpi: int = PREVIEW_DPI) -> Image.Image:
    with opened(pdf_bytes) as document:
        return _render(document, index, dpi)


def as_seen(image: Image.Image, vision: str | None) -> Image.Image:
    """The picture as seen with a colour vision deficiency or in grey (see
    boardgen.checks.accessibility.simulate); each distinct colour is worked out once, so a
    page of flat colours costs a lookup, not a colour-science sum per pixel."""
    if vision is None or vision == "normal":
        return image
    import numpy as np
    from PIL import Image

    from boardgen.checks.accessibility import simulate

    pixels = np.asarray(image.convert("RGB"), dtype=np.uint32)
    packed = (pixels[..., 0] << 16) | (pixels[..., 1] << 8) | pixels[..., 2]
    colours, where = np.unique(packed.ravel(), return_inverse=True)
    rgb = np.stack([(colours >> 16) & 255, (colours >> 8) & 255, colours & 255], axis=1)
    seen = np.rint(simulate(rgb, vision)).astype(np.uint8)
    return Image.fromarray(seen[where].reshape(pixels.shape), "RGB")


def previews(
    pdf_bytes: bytes, kinds: list[str], board: bytes | Showcase, *, dpi: int | None = None, vision: str | None = None
) -> dict[str, bytes]:
    """'board.png' plus '<kind>.png' for the first page of every kind in the kit.

    board: a one-page PDF of the board picture, or where a page of the kit shows it whole.

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
        with opened(pdf_bytes) as document:
            jobs = {}
            if isinstance(board, bytes):
                with opened(board) as alone:
                    jobs["board.png"] = encoder.submit(_png, as_seen(_render(alone, 0, dpi or BOARD_DPI), vision))
            else:
                jobs["board.png"] = encoder.submit(
                    _png, as_seen(_render_showcase(document, board, dpi or BOARD_DPI), vision)
                )
            for name, index in wanted:
                jobs[name] = encoder.submit(_png, as_seen(_render(document, index, dpi or PREVIEW_DPI), vision))
        return {name: job.result() for name, job in jobs.items()}


def png_of_pdf_page(pdf_bytes: bytes, dpi: int) -> bytes:
    """One PDF page (the first) as PNG bytes."""
    return _png(render_page(pdf_bytes, 0, dpi))
