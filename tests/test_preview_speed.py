"""Previews made cheaply: the board picture is cut from the cover where it is shown whole, and
PNGs are written by boardgen's own encoder; both must show what the slow way showed."""

from __future__ import annotations

import io
import random

import pypdfium2 as pdfium
from pdfcheck import pixel_at
from PIL import Image, ImageChops

from boardgen.data.theme import load_theme
from boardgen.render import preview
from boardgen.render.pdf import svg_page


def test_png_encoder_is_lossless() -> None:
    rng = random.Random(7)
    # An odd width, more rows than one strip, flat areas and noise.
    image = Image.new("RGB", (331, preview.PNG_STRIP_ROWS * 2 + 17), (40, 90, 70))
    for _ in range(4000):
        image.putpixel(
            (rng.randrange(image.width), rng.randrange(image.height)),
            (rng.randrange(256), rng.randrange(256), rng.randrange(256)),
        )
    data = preview._png(image)
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.mode == "RGB" and back.size == image.size
    assert ImageChops.difference(back, image).getbbox() is None
    grey = Image.new("L", (5, 3), 200)  # other modes are written as RGB
    assert Image.open(io.BytesIO(preview._png(grey))).convert("L").getpixel((4, 2)) == 200


def test_board_preview_cut_from_the_cover_matches_the_drawing(kit_factory) -> None:
    pdf, result = kit_factory("classic", previews=True)
    folder = result.folder
    cut = Image.open(next(folder.glob("preview/*/board.png"))).convert("RGB")
    # The slow way, independently: the set-up SVG on a page of its own, rasterised at 150 dpi.
    alone = pdfium.PdfDocument(
        svg_page((folder / "svg" / "setup.svg").read_text(encoding="utf-8"), load_theme("classic"))
    )
    page = alone[0]
    drawn = page.render(scale=preview.BOARD_DPI / 72).to_pil().convert("RGB")
    assert cut.size == drawn.size
    diff = ImageChops.difference(cut, drawn).convert("L")
    differing = sum(diff.histogram()[41:])  # the pixels more than 40 apart
    assert differing < 0.02 * cut.width * cut.height  # edges moved by under a pixel, nothing missing
    # Not a blank or shifted picture: the four corners' colours are the drawing's.
    for x, y in ((3, 3), (cut.width - 4, 3), (3, cut.height - 4), (cut.width - 4, cut.height - 4)):
        assert max(abs(a - b) for a, b in zip(pixel_at(cut, (x, y)), drawn.getpixel((x, y)), strict=True)) < 40
