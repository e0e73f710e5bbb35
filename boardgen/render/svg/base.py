"""SVG drawing basics: a sheet in millimetre user units, fitted labels, placed pictures.

Only the modules of this package import svgwrite; every element gets an explicit id.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from boardgen.data import fonts
from boardgen.data.colours import contrast_ratio
from boardgen.data.pictures import Node
from boardgen.data.theme import Theme
from boardgen.render.art import PICTURE_DEFAULTS, picture, rename_ids

if TYPE_CHECKING:  # svgwrite is imported when something is drawn: a kit whose SVGs are kept needs none
    import svgwrite


@dataclass
class Sheet:
    """An SVG document being drawn, plus the theme and language that style it."""

    drawing: svgwrite.Drawing
    theme: Theme
    lang: str

    def text(
        self,
        parent: Any,
        content: str,
        *,
        x: float,
        y: float,
        size: float,
        role: str = "labels",
        weight: str = "normal",
        fill: str = "ink",
        anchor: str = "middle",
        width: float | None = None,
        id: str,
        smallest: float | None = None,
    ) -> None:
        """Add a label, shrunk to fit `width`; every glyph must exist in the theme's font."""
        family = self.font(role)
        fonts.check_glyphs(content, family, weight, where=f"SVG element {id!r}")
        size *= self.theme.style.get("text_scale", 1.0)
        if width is not None:
            size = fonts.fit_size(content, family, weight, width=width, size=size, smallest=smallest or size * 0.5)
        parts = fonts.runs(content, family, weight)
        if len(parts) == 1:
            parent.add(
                self.drawing.text(
                    content,
                    insert=(_r(x), _r(y)),
                    id=id,
                    font_family=family,
                    font_weight=weight,
                    font_size=_r(size),
                    fill=self.colour(fill),
                    text_anchor=anchor,
                )
            )
            return
        # Signs the font lacks come from the fallback family: one text per run, laid end to
        # end from where the whole line starts.
        widths = [fonts.text_width(chunk, used, weight, size) for chunk, used in parts]
        at = x - {"start": 0.0, "middle": sum(widths) / 2, "end": sum(widths)}[anchor]
        group = self.drawing.g(id=id)
        for k, ((chunk, used), wide) in enumerate(zip(parts, widths, strict=True)):
            shown = chunk.lstrip()  # an SVG reader drops leading spaces: the run starts after them
            lead = fonts.text_width(chunk[: len(chunk) - len(shown)], used, weight, size)
            group.add(
                self.drawing.text(
                    shown,
                    insert=(_r(at + lead), _r(y)),
                    id=f"{id}-{k}",
                    font_family=used,
                    font_weight=weight,
                    font_size=_r(size),
                    fill=self.colour(fill),
                    text_anchor="start",
                )
            )
            at += wide
        parent.add(group)

    def lines(
        self,
        content: str,
        *,
        size: float,
        width: float,
        role: str = "labels",
        weight: str = "normal",
        smallest: float = 0.0,
    ) -> list[str]:
        """One line if it fits at 80 % of size (and at `smallest`, in mm), else two lines split
        at the middlemost space."""
        family = self.font(role)
        if fonts.fit_size(content, family, weight, width=width, size=size, smallest=0) >= max(size * 0.8, smallest):
            return [content]
        spaces = [i for i, ch in enumerate(content) if ch == " "]
        if not spaces:
            return [content]
        cut = min(spaces, key=lambda i: abs(i - len(content) / 2))
        return [content[:cut], content[cut + 1 :]]

    def font(self, role: str) -> str:
        """The theme's family for a role; labels fall back to the body font in a theme
        that names none."""
        return self.theme.fonts.get(role) or self.theme.fonts["body"]

    def colour(self, key: str) -> str:
        return key if key.startswith("#") else self.theme.colour(key)

    def readable_on(self, background: str) -> str:
        """The theme's paper or ink, whichever stands out more on `background` (a theme key or
        #rrggbb): labels on player colours stay legible on yellow as on blue."""
        fill = self.colour(background)
        return max(("paper", "ink"), key=lambda key: contrast_ratio(self.colour(key), fill))

    def stroke(self, key: str) -> float:
        return self.theme.strokes[key]

    def style(self, key: str) -> Any:
        return self.theme.style[key]


def _r(value: float) -> float:
    """Round coordinates so output is stable and compact."""
    return round(value, 3)


# A card's frame lies this far inside its trim (its stroke too): outside the 1/8 in (3.175 mm) band that print
# services keep clear of lines and text (their safe_mm), where a cut a little off would show it
# unevenly; a frame there reads as a mistake on a trimmed card.
CARD_FRAME_MM = 4.0


def new_sheet(width: float, height: float, theme: Theme, lang: str, *, id: str) -> Sheet:
    import svgwrite

    drawing = svgwrite.Drawing(size=(f"{_r(width)}mm", f"{_r(height)}mm"), profile="full", debug=False, id=id)
    drawing.viewbox(0, 0, _r(width), _r(height))
    return Sheet(drawing, theme, lang)


def draw_picture(sheet: Sheet, parent: Any, key: str, *, cx: float, cy: float, size: float, fill: str, id: str) -> None:
    """Place a picture centred on (cx, cy), fitting a size x size box, keeping its proportions."""
    pic = picture(sheet.theme, key)
    vx, vy, vw, vh = pic.viewbox
    scale = size / max(vw, vh)
    x = cx - vw * scale / 2
    y = cy - vh * scale / 2
    if pic.raster_uri:
        parent.add(
            sheet.drawing.image(pic.raster_uri, insert=(_r(x), _r(y)), size=(_r(vw * scale), _r(vh * scale)), id=id)
        )
        return
    group = sheet.drawing.g(id=id, transform=f"translate({_r(x)} {_r(y)}) scale({scale:.6f}) translate({-vx} {-vy})")
    if not pic.keeps_colours:
        group["fill"] = sheet.colour(fill)
    else:
        # The picture starts from SVG's initial values, whatever the sheet around it sets.
        for name, value in (*PICTURE_DEFAULTS, *pic.root_attrs):
            group[name] = value
    # A picture may be placed many times in one sheet: its own ids get this placement's prefix.
    _add_nodes(group, rename_ids(pic.nodes, f"{id}--"), id)
    parent.add(group)


@cache
def _element_class() -> Any:
    import svgwrite.base

    class _Element(svgwrite.base.BaseElement):  # type: ignore[misc]
        """Any SVG element, with the text and tail a cleaned picture's text elements carry."""

        def __init__(self, node: Node, **extra: str) -> None:
            super().__init__(debug=False, **extra)
            self.elementname = node.tag
            self.node_text = node.text
            self.node_tail = node.tail

        def get_xml(self) -> Any:  # svgwrite builds an ElementTree element
            xml = super().get_xml()
            xml.text = self.node_text
            xml.tail = self.node_tail
            return xml

    return _Element


def _add_nodes(parent: Any, nodes: Iterable[Node], id: str) -> None:
    element_class = _element_class()
    for index, node in enumerate(nodes):
        element = element_class(node, id=f"{id}-{index}")
        for name, value in node.attrs:
            element[name] = value
        _add_nodes(element, node.children, f"{id}-{index}")
        parent.add(element)


def symbol_points(symbol: str, cx: float, cy: float, size: float) -> list[tuple[float, float]] | None:
    """The outline of a player symbol fitting a size x size box centred on (cx, cy), or None
    for the circle (drawn as one)."""
    half = size / 2
    if symbol == "circle":
        return None
    if symbol == "square":
        s = half * 0.82
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if symbol == "diamond":
        return [(cx, cy - half), (cx + half, cy), (cx, cy + half), (cx - half, cy)]
    if symbol == "triangle":
        # Equilateral, its centroid a little below the box's middle so it looks centred.
        r = half * 1.1
        return [
            (cx + r * math.cos(a), cy + half * 0.12 + r * math.sin(a))
            for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)
        ]
    if symbol == "star":
        return [
            (
                cx + (half if k % 2 == 0 else half * 0.45) * math.cos(-math.pi / 2 + k * math.pi / 5),
                cy + half * 0.06 + (half if k % 2 == 0 else half * 0.45) * math.sin(-math.pi / 2 + k * math.pi / 5),
            )
            for k in range(10)
        ]
    if symbol == "hexagon":
        return [(cx + half * math.cos(k * math.pi / 3), cy + half * math.sin(k * math.pi / 3)) for k in range(6)]
    if symbol == "cross":
        a, b = half * 0.34, half
        return [
            (cx - a, cy - b),
            (cx + a, cy - b),
            (cx + a, cy - a),
            (cx + b, cy - a),
            (cx + b, cy + a),
            (cx + a, cy + a),
            (cx + a, cy + b),
            (cx - a, cy + b),
            (cx - a, cy + a),
            (cx - b, cy + a),
            (cx - b, cy - a),
            (cx - a, cy - a),
        ]
    raise ValueError(f"unknown symbol {symbol!r}")


def draw_symbol(
    sheet: Sheet,
    parent: Any,
    colour: str,
    *,
    cx: float,
    cy: float,
    size: float,
    id: str,
    fill: str = "paper",
    stroke: str = "ink",
) -> None:
    """The theme's symbol for a player colour (the second cue beside the colour, for
    colour-blind players and greyscale prints), centred on (cx, cy); nothing when the theme
    has no symbols."""
    symbol = sheet.theme.symbol(colour)
    if symbol is None:
        return
    paint = {
        "fill": sheet.colour(fill),
        "stroke": sheet.colour(stroke),
        "stroke_width": _r(max(0.15, size * 0.06)),
        "stroke_linejoin": "round",
    }
    points = symbol_points(symbol, cx, cy, size)
    if points is None:
        parent.add(sheet.drawing.circle((_r(cx), _r(cy)), _r(size * 0.42), id=f"{id}-symbol-{symbol}", **paint))
    else:
        parent.add(sheet.drawing.polygon([(_r(x), _r(y)) for x, y in points], id=f"{id}-symbol-{symbol}", **paint))
