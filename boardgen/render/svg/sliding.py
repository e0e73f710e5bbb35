"""Sliding-corridor pieces as SVG: corridor tiles, the board with its arrows, treasure cards."""

from __future__ import annotations

from typing import Any

from boardgen.data.theme import Theme
from boardgen.model.sliding import Deal, SlidingLayout, Treasure
from boardgen.model.tiles import E, N, S, Tile, W
from boardgen.render.svg.base import CARD_FRAME_MM, Sheet, _r, draw_picture, draw_symbol, new_sheet

# Tiles ---------------------------------------------------------------------------------------


def corridor_outline(mask: int, size: float, width: float) -> list[tuple[float, float]]:
    """The corridor floor of a tile as one polygon: the centre square plus an arm per open side."""
    a = (size - width) / 2
    b = a + width
    points = [(a, a)]
    points += [(a, 0), (b, 0), (b, a)] if mask & N else [(b, a)]
    points += [(size, a), (size, b), (b, b)] if mask & E else [(b, b)]
    points += [(b, size), (a, size), (a, b)] if mask & S else [(a, b)]
    points += [(0, b), (0, a)] if mask & W else []
    return points


def draw_tile(sheet: Sheet, parent: Any, tile: Tile, layout: SlidingLayout, *, x: float, y: float, id: str) -> None:
    """One corridor tile with its top-left corner at (x, y)."""
    size = layout.pitch_mm
    width = size * sheet.style("corridor_width")
    group = sheet.drawing.g(id=id, transform=f"translate({_r(x)} {_r(y)})")
    fill_walls = sheet.style("fill_walls")
    group.add(
        sheet.drawing.rect(
            (0, 0), (_r(size), _r(size)), id=f"{id}-wall", fill=sheet.colour("wall" if fill_walls else "paper")
        )
    )
    outline = corridor_outline(tile.mask, size, width)
    group.add(
        sheet.drawing.polygon([(_r(px), _r(py)) for px, py in outline], id=f"{id}-floor", fill=sheet.colour("floor"))
    )
    # Stroke the corridor walls only, not the openings on the tile's edge.
    edges = []
    for (x1, y1), (x2, y2) in zip(outline, outline[1:] + outline[:1], strict=True):
        on_border = (x1 == x2 and x1 in (0, size)) or (y1 == y2 and y1 in (0, size))
        if not on_border:
            edges.append(f"M{_r(x1)} {_r(y1)}L{_r(x2)} {_r(y2)}")
    group.add(
        sheet.drawing.path(
            " ".join(edges),
            id=f"{id}-walls",
            fill="none",
            stroke=sheet.colour("floor_edge"),
            stroke_width=sheet.stroke("corridor_edge"),
            stroke_linecap="round",
        )
    )
    centre = size / 2
    if tile.start:
        group.add(
            sheet.drawing.circle(
                (_r(centre), _r(centre)),
                _r(width * 0.42),
                id=f"{id}-start",
                fill=sheet.theme.player(tile.start),
                stroke=sheet.colour("ink"),
                stroke_width=sheet.stroke("corridor_edge"),
            )
        )
        draw_symbol(sheet, group, tile.start, cx=centre, cy=centre, size=width * 0.5, id=f"{id}-start")
    if tile.treasure:
        art_size = size * sheet.style("art_size")
        group.add(
            sheet.drawing.circle(
                (_r(centre), _r(centre)),
                _r(art_size / 2),
                id=f"{id}-backdrop",
                fill=sheet.colour("art_backdrop"),
                stroke=sheet.colour("floor_edge"),
                stroke_width=sheet.stroke("corridor_edge"),
            )
        )
        treasure = layout.treasure(tile.treasure)
        draw_picture(sheet, group, treasure.art, cx=centre, cy=centre, size=art_size * 0.72, fill="art", id=f"{id}-art")
    group.add(
        sheet.drawing.rect(
            (0, 0),
            (_r(size), _r(size)),
            id=f"{id}-edge",
            fill="none",
            stroke=sheet.colour("wall_edge"),
            stroke_width=sheet.stroke("tile_edge"),
        )
    )
    parent.add(group)


def tile_svg(tile: Tile, layout: SlidingLayout, theme: Theme, *, lang: str) -> str:
    sheet = new_sheet(layout.pitch_mm, layout.pitch_mm, theme, lang, id=f"svg-{tile.id}")
    draw_tile(sheet, sheet.drawing, tile, layout, x=0, y=0, id=tile.id)
    return str(sheet.drawing.tostring())


# Board ---------------------------------------------------------------------------------------


def board_svg(
    layout: SlidingLayout,
    theme: Theme,
    *,
    lang: str,
    deal: Deal | None = None,
    tokens: dict[tuple[int, int], tuple[str, str]] | None = None,
) -> str:
    """The printed board (fixed tiles, empty slots, arrows); with a deal, the whole set-up,
    and with tokens ((row, col) -> (picture, label)) the tokens lying on their squares."""
    size = layout.board_mm
    sheet = new_sheet(size, size, theme, lang, id=f"{layout.id}-board")
    d = sheet.drawing
    frame = layout.frame_mm
    pitch = layout.pitch_mm
    d.add(
        d.rect(
            (0, 0),
            (_r(size), _r(size)),
            id="board-frame",
            fill=sheet.colour("frame" if sheet.style("fill_frame") else "paper"),
        )
    )
    squares = d.g(id="board-squares")
    for row in range(layout.size):
        for col in range(layout.size):
            x, y = frame + col * pitch, frame + row * pitch
            tile = deal.tile_at(row, col) if deal else layout.fixed.get((row, col))
            if tile is None:
                squares.add(
                    d.rect(
                        (_r(x), _r(y)),
                        (_r(pitch), _r(pitch)),
                        id=f"slot-{row}-{col}",
                        fill=sheet.colour("slot"),
                        stroke=sheet.colour("wall_edge"),
                        stroke_width=sheet.stroke("tile_edge"),
                    )
                )
            else:
                draw_tile(sheet, squares, tile, layout, x=x, y=y, id=f"sq-{row}-{col}")
    d.add(squares)
    if tokens:
        d.add(_tokens(sheet, layout, tokens))
    arrows = d.g(id="board-arrows")
    for point in layout.insertion_points:
        _draw_arrow(sheet, arrows, layout, point.side, point.index)
    d.add(arrows)
    title = layout.title[lang]
    free_cols = [c for c in range(layout.size) if c not in layout.sliding_lines]
    middle = free_cols[len(free_cols) // 2] if free_cols else layout.size // 2
    sheet.text(
        d,
        title,
        x=frame + (middle + 0.5) * pitch,
        y=frame * 0.68,
        size=frame * 0.5,
        role="title",
        weight="bold",
        fill="frame_text",
        width=pitch * 0.95,
        id="board-title",
    )
    d.add(
        d.rect(
            (_r(frame), _r(frame)),
            (_r(layout.size * pitch), _r(layout.size * pitch)),
            id="board-grid-edge",
            fill="none",
            stroke=sheet.colour("ink"),
            stroke_width=sheet.stroke("frame_edge"),
        )
    )
    d.add(
        d.rect(
            (0, 0),
            (_r(size), _r(size)),
            id="board-outline",
            fill="none",
            stroke=sheet.colour("ink"),
            stroke_width=sheet.stroke("frame_edge"),
        )
    )
    return str(d.tostring())


def _tokens(sheet: Sheet, layout: SlidingLayout, tokens: dict[tuple[int, int], tuple[str, str]]) -> Any:
    group = sheet.drawing.g(id="board-tokens")
    pitch = layout.pitch_mm
    for (row, col), (art, label) in sorted(tokens.items()):
        cx, cy = layout.frame_mm + (col + 0.5) * pitch, layout.frame_mm + (row + 0.5) * pitch
        ident = f"token-{row}-{col}"
        group.add(
            sheet.drawing.circle(
                (_r(cx), _r(cy)),
                _r(pitch * 0.31),
                id=f"{ident}-disc",
                fill=sheet.colour("card_face"),
                stroke=sheet.colour("ink"),
                stroke_width=sheet.stroke("corridor_edge"),
            )
        )
        draw_picture(sheet, group, art, cx=cx, cy=cy + pitch * 0.03, size=pitch * 0.34, fill="art", id=f"{ident}-art")
        sheet.text(group, label, x=cx, y=cy - pitch * 0.16, size=pitch * 0.1, weight="bold", id=f"{ident}-label")
    return group


def arrow_half_width(layout: SlidingLayout) -> float:
    return min(layout.pitch_mm, layout.frame_mm * 2) * 0.28


def _draw_arrow(sheet: Sheet, parent: Any, layout: SlidingLayout, side: str, index: int) -> None:
    """A triangle in the frame pointing into the board where the spare tile is pushed in."""
    frame, pitch, size = layout.frame_mm, layout.pitch_mm, layout.board_mm
    along = frame + (index + 0.5) * pitch
    half, depth = arrow_half_width(layout), frame * 0.55
    edge = {"N": frame * 0.2, "S": size - frame * 0.2, "W": frame * 0.2, "E": size - frame * 0.2}[side]
    inward = 1 if side in ("N", "W") else -1
    tip = edge + inward * depth
    if side in ("N", "S"):
        points = [(along - half, edge), (along + half, edge), (along, tip)]
    else:
        points = [(edge, along - half), (edge, along + half), (tip, along)]
    parent.add(
        sheet.drawing.polygon(
            [(_r(px), _r(py)) for px, py in points],
            id=f"arrow-{side}{index}",
            fill=sheet.colour("arrow"),
            stroke=sheet.colour("ink"),
            stroke_width=sheet.stroke("corridor_edge"),
            stroke_linejoin="round",
        )
    )


# Cards ---------------------------------------------------------------------------------------


def card_face_svg(treasure: Treasure, layout: SlidingLayout, theme: Theme, *, lang: str) -> str:
    """A treasure card with its bleed: art fills the bleed, text stays in the safe zone."""
    (w, h), bleed = layout.card_size_mm, layout.bleed_mm
    sheet = new_sheet(w + 2 * bleed, h + 2 * bleed, theme, lang, id=f"card-{treasure.id}")
    d = sheet.drawing
    d.add(
        d.rect(
            (0, 0),
            (_r(w + 2 * bleed), _r(h + 2 * bleed)),
            id=f"card-{treasure.id}-bleed",
            fill=sheet.colour("card_face"),
        )
    )
    safe = 3.0
    inset = bleed + CARD_FRAME_MM
    d.add(
        d.rect(
            (_r(inset), _r(inset)),
            (_r(w - 2 * CARD_FRAME_MM), _r(h - 2 * CARD_FRAME_MM)),
            rx=2.5,
            ry=2.5,
            id=f"card-{treasure.id}-border",
            fill="none",
            stroke=sheet.colour("card_border"),
            stroke_width=sheet.stroke("card_border"),
        )
    )
    art = min(w, h) * 0.72
    cx, cy = bleed + w / 2, bleed + h * 0.43
    d.add(
        d.circle(
            (_r(cx), _r(cy)),
            _r(art / 2),
            id=f"card-{treasure.id}-backdrop",
            fill=sheet.colour("art_backdrop"),
            stroke=sheet.colour("card_border"),
            stroke_width=sheet.stroke("corridor_edge"),
        )
    )
    draw_picture(sheet, d, treasure.art, cx=cx, cy=cy, size=art * 0.74, fill="art", id=f"card-{treasure.id}-art")
    sheet.text(
        d,
        treasure.name[lang],
        x=cx,
        y=bleed + h - safe - 4.0,
        size=4.2,
        weight="bold",
        width=w - 2 * CARD_FRAME_MM - 2,
        id=f"card-{treasure.id}-name",
    )
    return str(d.tostring())


def card_back_svg(layout: SlidingLayout, theme: Theme, *, lang: str) -> str:
    (w, h), bleed = layout.card_size_mm, layout.bleed_mm
    sheet = new_sheet(w + 2 * bleed, h + 2 * bleed, theme, lang, id=f"{layout.id}-card-back")
    d = sheet.drawing
    full_w, full_h = w + 2 * bleed, h + 2 * bleed
    d.add(d.rect((0, 0), (_r(full_w), _r(full_h)), id="back-bleed", fill=sheet.colour("card_back")))
    if sheet.style("card_back_pattern"):
        rings = d.g(
            id="back-pattern",
            fill="none",
            stroke=sheet.colour("card_back_pattern"),
            stroke_width=sheet.stroke("card_pattern"),
        )
        for k in range(1, 12):
            # From the safe zone inwards: no line near the trim, where a cut a little off would
            # leave a visible sliver of it (or cut it) on one side of the card.
            inset = bleed + CARD_FRAME_MM + (k - 1) * 3.2
            if inset * 2 >= min(full_w, full_h):
                break
            rings.add(
                d.rect((_r(inset), _r(inset)), (_r(full_w - 2 * inset), _r(full_h - 2 * inset)), id=f"back-ring-{k}")
            )
        d.add(rings)
    else:
        d.add(
            d.rect(
                (_r(bleed + CARD_FRAME_MM), _r(bleed + CARD_FRAME_MM)),
                (_r(w - 2 * CARD_FRAME_MM), _r(h - 2 * CARD_FRAME_MM)),
                rx=2.5,
                ry=2.5,
                id="back-border",
                fill="none",
                stroke=sheet.colour("card_back_pattern"),
                stroke_width=sheet.stroke("card_border"),
            )
        )
    emblem = min(w, h) * 0.55
    d.add(
        d.circle(
            (_r(full_w / 2), _r(full_h / 2)),
            _r(emblem * 0.62),
            id="back-disc",
            fill=sheet.colour("card_back"),
            stroke=sheet.colour("card_back_art"),
            stroke_width=sheet.stroke("card_border"),
        )
    )
    draw_picture(
        sheet, d, "labyrinth", cx=full_w / 2, cy=full_h / 2, size=emblem * 0.85, fill="card_back_art", id="back-emblem"
    )
    return str(d.tostring())
