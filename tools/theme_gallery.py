"""The theme gallery of the README: every bundled theme on the same board, side by side.

    python tools/theme_gallery.py [OUT.png]      (default: docs/theme-gallery.png)

Each board is the classic game's starting layout (seed 1) drawn by the kit's own code, turned
into a PDF page and rasterised by pdfium, exactly as board.png is made; the strip is kept
small (a palette PNG, under 300 KB) so the README stays light.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from boardgen.data.fonts import face
from boardgen.data.loader import bundled_names
from boardgen.data.theme import load_theme
from boardgen.engines import load_game
from boardgen.kits import sliding
from boardgen.render.pdf import svg_page
from boardgen.render.preview import render_page

BOARD_PX = 300
GAP = 16
LABEL = 30


def board_image(theme_name: str) -> Image.Image:
    _, layout = load_game("classic")
    theme = load_theme(theme_name)
    drawings = sliding.draw(layout, theme, sliding.setup(layout, layout.default_seed), "en")
    page = render_page(svg_page(drawings.setup, theme), 0, dpi=72)
    return page.resize((BOARD_PX, BOARD_PX), Image.Resampling.LANCZOS)


def gallery() -> Image.Image:
    names = bundled_names("theme")
    width = len(names) * BOARD_PX + (len(names) + 1) * GAP
    out = Image.new("RGB", (width, BOARD_PX + LABEL + 2 * GAP), (255, 255, 255))
    draw = ImageDraw.Draw(out)
    font = ImageFont.truetype(str(face("DejaVu Sans", "bold").path), 16)
    for index, name in enumerate(names):
        x = GAP + index * (BOARD_PX + GAP)
        out.paste(board_image(name), (x, GAP))
        title = load_theme(name).name["en"]
        draw.text(
            (x + BOARD_PX / 2, GAP + BOARD_PX + LABEL / 2 + 2),
            f"{title} ({name})",
            fill=(29, 29, 27),
            font=font,
            anchor="mm",
        )
    return out


def main() -> None:
    target = (
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(__file__).resolve().parent.parent / "docs" / "theme-gallery.png"
    )
    image = gallery().quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(buffer.getvalue())
    print(f"{target} ({len(buffer.getvalue()) // 1024} KB, {image.width}x{image.height})")


if __name__ == "__main__":
    main()
