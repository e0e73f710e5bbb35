"""A contact sheet: every picture a layout or theme can name, each with its name below it."""

from __future__ import annotations

from collections.abc import Sequence

from boardgen.data.theme import Theme
from boardgen.render.svg.base import draw_picture, new_sheet

CELL_MM = 32.0
PICTURE_MM = 20.0
COLUMNS = 6


def contact_sheet_svg(names: Sequence[str], theme: Theme, *, lang: str = "en") -> str:
    """The pictures in rows of six, as the theme draws them (its own pictures replace ours)."""
    rows = max(1, -(-len(names) // COLUMNS))
    sheet = new_sheet(COLUMNS * CELL_MM, rows * CELL_MM, theme, lang, id="contact-sheet")
    d = sheet.drawing
    d.add(d.rect((0, 0), (COLUMNS * CELL_MM, rows * CELL_MM), fill=sheet.colour("paper"), id="contact-paper"))
    for index, name in enumerate(names):
        x, y = (index % COLUMNS) * CELL_MM, (index // COLUMNS) * CELL_MM
        d.add(
            d.rect(
                (x + 1, y + 1),
                (CELL_MM - 2, CELL_MM - 2),
                fill=sheet.colour("art_backdrop"),
                stroke=sheet.colour("muted"),
                stroke_width=0.2,
                rx=2,
                id=f"cell-{name}",
            )
        )
        draw_picture(
            sheet,
            d,
            name,
            cx=x + CELL_MM / 2,
            cy=y + 3 + PICTURE_MM / 2,
            size=PICTURE_MM,
            fill="art",
            id=f"picture-{name}",
        )
        sheet.text(d, name, x=x + CELL_MM / 2, y=y + CELL_MM - 3.5, size=3.2, width=CELL_MM - 4, id=f"name-{name}")
    return str(d.tostring())
