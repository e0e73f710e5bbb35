"""Labyrinthe Master pieces as SVG: object tokens, recipe cards, wands and the score pad."""

from __future__ import annotations

import math

from boardgen.data import fonts
from boardgen.data.strings import word
from boardgen.data.theme import Theme
from boardgen.model.master import MagicObject, MasterLayout
from boardgen.render.svg.base import CARD_FRAME_MM, _r, draw_picture, draw_symbol, new_sheet

WAND_SIZE_MM = (12.5, 62.0)


def token_svg(obj: MagicObject, layout: MasterLayout, theme: Theme, *, lang: str) -> str:
    """A round token: picture, value and name inside a circular cut line."""
    diameter = layout.token_diameter_mm
    size = diameter + 2.0
    sheet = new_sheet(size, size, theme, lang, id=f"token-{obj.id}")
    d = sheet.drawing
    c = size / 2
    d.add(
        d.circle(
            (_r(c), _r(c)),
            _r(diameter / 2),
            id=f"token-{obj.id}-face",
            fill=sheet.colour("card_face"),
            stroke=sheet.colour("ink"),
            stroke_width=sheet.stroke("cut_line"),
        )
    )
    d.add(
        d.circle(
            (_r(c), _r(c)),
            _r(diameter / 2 - 1.3),
            id=f"token-{obj.id}-ring",
            fill="none",
            stroke=sheet.colour("card_border"),
            stroke_width=sheet.stroke("corridor_edge"),
        )
    )
    # The name sits low on the disc, where the circle narrows: two lines when it is long. Each
    # line is as wide as the ring's inside allows at its lowest point (a descender's foot),
    # less a little air, and shrinks to fit that.
    size = diameter * 0.095
    inside = diameter / 2 - 1.3 - sheet.stroke("corridor_edge") / 2 - 0.6
    six = 6 * 25.4 / 72  # the accessibility check's minimum on pieces
    # One line only while it stays at 6 pt or more.
    lines = sheet.lines(obj.name[lang], size=size, width=_chord(inside, diameter * 0.3 + size * 0.25), smallest=six)
    rows = [0.3] if len(lines) == 1 else [0.25, 0.34]
    art, art_dy = 0.38, -0.03
    scaled = size * theme.style.get("text_scale", 1.0)
    if any(
        fonts.fit_size(
            line,
            sheet.font("labels"),
            "normal",
            smallest=0,
            size=scaled,
            width=_chord(inside, diameter * dy + size * 0.25),
        )
        < six
        for line, dy in zip(lines, rows, strict=True)
    ):
        # A long word ('Blindschleiche', 'mandragore' below 'Racine de'): a smaller picture
        # makes room for the name higher on the disc, where the circle is wider.
        rows, art, art_dy = [row - 0.065 for row in rows], 0.29, -0.065
    draw_picture(
        sheet, d, obj.art, cx=c, cy=c + diameter * art_dy, size=diameter * art, fill="art", id=f"token-{obj.id}-art"
    )
    sheet.text(
        d, str(obj.value), x=c, y=c - diameter * 0.25, size=diameter * 0.15, weight="bold", id=f"token-{obj.id}-value"
    )
    for k, (line, dy) in enumerate(zip(lines, rows, strict=True)):
        sheet.text(
            d,
            line,
            x=c,
            y=c + diameter * dy,
            size=size,
            width=_chord(inside, diameter * dy + size * 0.25),
            id=f"token-{obj.id}-name-{k}",
            smallest=size * 0.4,
        )
    return str(d.tostring())


def _chord(radius: float, depth: float) -> float:
    """The width of a circle of this radius at this depth below its centre."""
    return 2 * math.sqrt(max(0.0, radius * radius - depth * depth))


def recipe_svg(index: int, card: tuple[str, ...], layout: MasterLayout, theme: Theme, *, lang: str) -> str:
    """A secret recipe card with its bleed: the objects it asks for, with their values."""
    (w, h), bleed = layout.card_size_mm, layout.bleed_mm
    ident = f"recipe-{index + 1:02d}"
    sheet = new_sheet(w + 2 * bleed, h + 2 * bleed, theme, lang, id=ident)
    d = sheet.drawing
    d.add(d.rect((0, 0), (_r(w + 2 * bleed), _r(h + 2 * bleed)), id=f"{ident}-bleed", fill=sheet.colour("card_face")))
    inset = bleed + CARD_FRAME_MM
    d.add(
        d.rect(
            (_r(inset), _r(inset)),
            (_r(w - 2 * CARD_FRAME_MM), _r(h - 2 * CARD_FRAME_MM)),
            rx=2.5,
            ry=2.5,
            id=f"{ident}-border",
            fill="none",
            stroke=sheet.colour("card_border"),
            stroke_width=sheet.stroke("card_border"),
        )
    )
    # The title and rows keep clear of the frame (CARD_FRAME_MM in from the trim).
    sheet.text(
        d,
        word(lang, "recipe"),
        x=bleed + w / 2,
        y=bleed + CARD_FRAME_MM + 5.0,
        size=3.6,
        role="title",
        weight="bold",
        width=w - 2 * CARD_FRAME_MM - 2,
        id=f"{ident}-title",
    )
    row_h = (h - 16.0) / len(card)
    for k, object_id in enumerate(card):
        obj = layout.object(object_id)
        top = bleed + 12.0 + k * row_h
        art = min(row_h - 4.0, 13.0)
        draw_picture(
            sheet,
            d,
            obj.art,
            cx=bleed + CARD_FRAME_MM + 1.0 + art / 2,
            cy=top + row_h / 2,
            size=art,
            fill="art",
            id=f"{ident}-art-{k}",
        )
        # A long name goes on two lines rather than shrinking out of reading size.
        lines = sheet.lines(obj.name[lang], size=2.7, width=w - art - 2 * CARD_FRAME_MM - 4.0)
        y0 = top + row_h / 2 - (0.6 if len(lines) == 1 else 2.0)
        for j, line in enumerate(lines):
            sheet.text(
                d,
                line,
                x=bleed + CARD_FRAME_MM + 3.0 + art,
                y=y0 + j * 3.0,
                size=2.7,
                anchor="start",
                width=w - art - 2 * CARD_FRAME_MM - 4.0,
                id=f"{ident}-name-{k}" + (f"-{j}" if j else ""),
            )
        sheet.text(
            d,
            f"{obj.value} + {layout.recipe_bonus}",
            x=bleed + CARD_FRAME_MM + 3.0 + art,
            y=y0 + (len(lines) - 1) * 3.0 + 4.2,
            size=2.6,
            anchor="start",
            weight="bold",
            fill="muted",
            id=f"{ident}-value-{k}",
        )
    return str(d.tostring())


def wand_svg(colour: str, number: int, theme: Theme, *, lang: str) -> str:
    """A wand: a long strip in the player's colour with the wand picture and its bonus."""
    w, h = WAND_SIZE_MM
    ident = f"wand-{colour}-{number}"
    sheet = new_sheet(w, h, theme, lang, id=ident)
    d = sheet.drawing
    d.add(
        d.rect(
            (0, 0),
            (_r(w), _r(h)),
            rx=2.0,
            ry=2.0,
            id=f"{ident}-body",
            fill=theme.player(colour),
            stroke=sheet.colour("ink"),
            stroke_width=sheet.stroke("cut_line"),
        )
    )
    d.add(d.circle((_r(w / 2), _r(w / 2 + 1)), _r(w * 0.42), id=f"{ident}-disc", fill=sheet.colour("paper")))
    draw_picture(sheet, d, "magic-wand", cx=w / 2, cy=w / 2 + 1, size=w * 0.62, fill="art", id=f"{ident}-art")
    draw_symbol(sheet, d, colour, cx=w / 2, cy=h - 12.0, size=w * 0.4, id=ident)
    # The word may take the strip's width but for 0.6 mm each side: 'Baguette' stays at 6 pt.
    sheet.text(
        d,
        word(lang, "wand"),
        x=w / 2,
        y=h - 5.0,
        size=2.8,
        weight="bold",
        fill=sheet.readable_on(theme.player(colour)),
        width=w - 1.2,
        id=f"{ident}-label",
    )
    return str(d.tostring())


def score_pad_svg(layout: MasterLayout, theme: Theme, *, lang: str, width: float, height: float) -> str:
    """A score sheet: one column per player, rows for the values, the recipe and the wands."""
    sheet = new_sheet(width, height, theme, lang, id=f"{layout.id}-score-pad")
    # The lines are drawn inside the sheet by half their width, so that the outer ones are not
    # cut to half their width at the sheet's edge.
    pad = sheet.stroke("cut_line") / 2
    d = sheet.drawing
    width, height = width - 2 * pad, height - 2 * pad
    inner = d.g(id=f"{layout.id}-score-pad-lines", transform=f"translate({_r(pad)} {_r(pad)})")
    rows = [
        word(lang, "score_objects"),
        word(lang, "score_recipe", bonus=layout.recipe_bonus),
        word(lang, "score_wands", bonus=layout.unused_wand),
        word(lang, "score_total"),
    ]
    games = 3
    label_w = width * 0.34
    players = layout.players[1]
    col_w = (width - label_w) / players
    block_h = (height - 6.0 * games) / games
    row_h = block_h / (len(rows) + 1)
    line = {"stroke": sheet.colour("ink"), "stroke_width": sheet.stroke("cut_line")}
    for g in range(games):
        top = g * (block_h + 6.0)
        ident = f"score-game-{g + 1}"
        inner.add(d.rect((0, _r(top)), (_r(width), _r(block_h)), id=f"{ident}-frame", fill="none", **line))
        sheet.text(
            inner,
            word(lang, "score_game", n=g + 1),
            x=2.0,
            y=top + row_h * 0.68,
            size=min(3.4, row_h * 0.5),
            anchor="start",
            weight="bold",
            width=label_w - 3,
            id=f"{ident}-title",
        )
        for p in range(players):
            x = label_w + p * col_w
            colour = layout.starts[p].colour if p < len(layout.starts) else "ink"
            inner.add(
                d.rect(
                    (_r(x + 1), _r(top + 1)),
                    (_r(col_w - 2), _r(row_h - 2)),
                    id=f"{ident}-head-{p}",
                    fill=theme.player(colour),
                )
            )
            mark = min(3.0, row_h * 0.5) if theme.symbol(colour) else 0.0
            draw_symbol(
                sheet, inner, colour, cx=x + 2.0 + mark / 2, cy=top + row_h / 2, size=mark, id=f"{ident}-head-{p}"
            )
            sheet.text(
                inner,
                word(lang, colour),
                x=x + col_w / 2 + mark / 2,
                y=top + row_h * 0.68,
                size=min(3.0, row_h * 0.45),
                weight="bold",
                fill=sheet.readable_on(theme.player(colour)),
                width=col_w - 3 - mark * 1.4,
                id=f"{ident}-player-{p}",
            )
            inner.add(d.line((_r(x), _r(top)), (_r(x), _r(top + block_h)), id=f"{ident}-col-{p}", **line))
        for r, label in enumerate(rows, start=1):
            y = top + r * row_h
            inner.add(d.line((0, _r(y)), (_r(width), _r(y)), id=f"{ident}-row-{r}", **line))
            sheet.text(
                inner,
                label,
                x=2.0,
                y=y + row_h * 0.66,
                size=min(3.0, row_h * 0.42),
                anchor="start",
                weight="bold" if r == len(rows) else "normal",
                width=label_w - 3,
                id=f"{ident}-label-{r}",
            )
    d.add(inner)
    return str(d.tostring())
