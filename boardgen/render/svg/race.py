"""Race-board pieces as SVG: the King Minos mosaic board with its fields, icons and links."""

from __future__ import annotations

import math

from boardgen.data.theme import Theme
from boardgen.model import minos
from boardgen.model.minos import MinosLayout
from boardgen.render.svg.base import Sheet, _r, draw_picture, new_sheet

# The picture drawn on a field of each kind (first match wins, in this order).
KIND_ART = (
    (minos.GOAL, "elysium"), (minos.LOSE_TURNS, "hourglass"), (minos.TUNNEL, "tunnel"),
    (minos.JUMP, "jump"), (minos.ORBIT, "knight"), (minos.MILLSTONE, "millstone"),
)


def field_art(kinds: tuple[str, ...]) -> str | None:
    for kind, art in KIND_ART:
        if kind in kinds:
            return art
    return None


def seam_zones(layout: MinosLayout) -> tuple[tuple[float, float], ...]:
    """Seams may run only along cell edges, never through a field's number or picture."""
    return tuple((layout.border_mm + k * layout.pitch_mm,) * 2 for k in range(layout.size + 1))


def board_svg(layout: MinosLayout, theme: Theme, *, lang: str) -> str:
    size, pitch, border = layout.board_mm, layout.pitch_mm, layout.border_mm
    sheet = new_sheet(size, size, theme, lang, id=f"{layout.id}-board")
    d = sheet.drawing
    d.add(d.rect((0, 0), (_r(size), _r(size)), id="board-frame",
                 fill=sheet.colour("frame" if sheet.style("fill_frame") else "paper")))
    half = layout.goal // 2
    floor = d.g(id="board-floor")
    for row in range(layout.size):
        for col in range(layout.size):
            x, y = border + col * pitch, border + row * pitch
            number = layout.field_at((row, col))
            if number is None:
                floor.add(d.rect((_r(x), _r(y)), (_r(pitch), _r(pitch)), id=f"wall-{row}-{col}",
                                 fill=sheet.colour("wall" if sheet.style("fill_walls") else "paper")))
                continue
            realm = "earth" if number <= half else "sky"
            _mosaic(sheet, floor, x, y, pitch, realm, id=f"field-{number}-mosaic")
    d.add(floor)
    d.add(_walls(sheet, layout))
    links = d.g(id="board-links")
    for index, link in enumerate(layout.links):
        _link(sheet, links, layout, link, id=f"link-{index}-{link.kind}-{link.start}-{link.end}")
    d.add(links)
    d.add(_entrance_arrow(sheet, layout))
    fields = d.g(id="board-fields")
    for field in layout.fields:
        _field(sheet, fields, layout, field)
    d.add(fields)
    # The title stays in the top-left quarter so no sheet seam runs through it.
    sheet.text(d, layout.title[lang], x=border, y=border * 0.72, size=border * 0.55, role="title",
               weight="bold", fill="frame_text", anchor="start", width=size * 0.42, id="board-title")
    d.add(d.rect((0, 0), (_r(size), _r(size)), id="board-outline", fill="none",
                 stroke=sheet.colour("ink"), stroke_width=sheet.stroke("frame_edge")))
    return d.tostring()


def _entrance_arrow(sheet: Sheet, layout: MinosLayout):
    """A triangle in the border pointing into field 1, where pieces enter the labyrinth."""
    border, pitch = layout.border_mm, layout.pitch_mm
    row, col = layout.cells[layout.entrance]
    side = layout.entrance_side
    cx, cy = border + (col + 0.5) * pitch, border + (row + 0.5) * pitch
    half, depth = min(pitch * 0.25, border * 0.9), border * 0.7
    edge = {"N": border * 0.15, "S": layout.board_mm - border * 0.15,
            "W": border * 0.15, "E": layout.board_mm - border * 0.15}[side]
    tip = edge + (depth if side in ("N", "W") else -depth)
    if side in ("N", "S"):
        points = [(cx - half, edge), (cx + half, edge), (cx, tip)]
    else:
        points = [(edge, cy - half), (edge, cy + half), (tip, cy)]
    return sheet.drawing.polygon([(_r(x), _r(y)) for x, y in points], id="entrance-arrow",
                                 fill=sheet.colour("arrow"), stroke=sheet.colour("ink"),
                                 stroke_width=sheet.stroke("corridor_edge"))


def _mosaic(sheet: Sheet, parent, x: float, y: float, pitch: float, realm: str, *, id: str) -> None:
    """A field's floor: a 3 x 3 checker of tesserae in its realm's two tints."""
    group = sheet.drawing.g(id=id)
    step = pitch / 3
    for i in range(3):
        for j in range(3):
            tint = realm if (i + j) % 2 == 0 else f"{realm}_alt"
            group.add(sheet.drawing.rect((_r(x + j * step), _r(y + i * step)), (_r(step), _r(step)),
                                         id=f"{id}-{i}{j}", fill=sheet.colour(tint)))
    parent.add(group)


def _walls(sheet: Sheet, layout: MinosLayout):
    """Thick lines wherever two neighbouring cells are not consecutive fields of the path."""
    pitch, border = layout.pitch_mm, layout.border_mm
    segments = []
    for row in range(layout.size):
        for col in range(layout.size):
            here = layout.field_at((row, col))
            for dr, dc in ((0, 1), (1, 0)):
                r2, c2 = row + dr, col + dc
                if r2 >= layout.size or c2 >= layout.size:
                    continue
                there = layout.field_at((r2, c2))
                if here is not None and there is not None and abs(here - there) == 1:
                    continue
                if here is None and there is None:
                    continue
                if dc:
                    x = border + c2 * pitch
                    segments.append(f"M{_r(x)} {_r(border + row * pitch)}V{_r(border + (row + 1) * pitch)}")
                else:
                    y = border + r2 * pitch
                    segments.append(f"M{_r(border + col * pitch)} {_r(y)}H{_r(border + (col + 1) * pitch)}")
    edge = border + layout.size * pitch
    segments.append(f"M{_r(border)} {_r(border)}H{_r(edge)}V{_r(edge)}H{_r(border)}Z")
    return sheet.drawing.path(" ".join(segments), id="board-walls", fill="none",
                              stroke=sheet.colour("field_edge"), stroke_width=sheet.stroke("frame_edge") * 2,
                              stroke_linecap="square")


def _centre(layout: MinosLayout, number: int) -> tuple[float, float]:
    row, col = layout.cells[number]
    return (layout.border_mm + (col + 0.5) * layout.pitch_mm, layout.border_mm + (row + 0.5) * layout.pitch_mm)


def _field(sheet: Sheet, parent, layout: MinosLayout, field) -> None:
    pitch = layout.pitch_mm
    cx, cy = _centre(layout, field.number)
    x, y = cx - pitch / 2, cy - pitch / 2
    group = sheet.drawing.g(id=f"field-{field.number}")
    art = field_art(field.kinds)
    if minos.SANCTUARY in field.kinds:
        group.add(sheet.drawing.rect((_r(x + 1.2), _r(y + 1.2)), (_r(pitch - 2.4), _r(pitch - 2.4)), rx=2,
                                     id=f"field-{field.number}-sanctuary", fill="none",
                                     stroke=sheet.colour("field_edge"), stroke_width=sheet.stroke("tile_edge"),
                                     stroke_dasharray="1.2 0.8"))
    if art:
        radius = pitch * 0.27
        group.add(sheet.drawing.circle((_r(cx), _r(cy + pitch * 0.04)), _r(radius), id=f"field-{field.number}-disc",
                                       fill=sheet.colour("special"), stroke=sheet.colour("field_edge"),
                                       stroke_width=sheet.stroke("corridor_edge")))
        draw_picture(sheet, group, art, cx=cx, cy=cy + pitch * 0.04, size=radius * 1.5, fill="art",
                     id=f"field-{field.number}-art")
    if minos.EXACT in field.kinds:
        group.add(sheet.drawing.circle((_r(cx), _r(cy + pitch * 0.02)), _r(pitch * 0.3),
                                       id=f"field-{field.number}-exact", fill="none",
                                       stroke=sheet.colour("link"), stroke_width=sheet.stroke("frame_edge")))
    sheet.text(group, str(field.number), x=x + 2.0, y=y + pitch * 0.24, size=pitch * 0.2, weight="bold",
               fill="field_text", anchor="start", id=f"field-{field.number}-number")
    if field.name:
        sheet.text(group, field.name[sheet.lang], x=cx, y=y + pitch - 2.0, size=pitch * 0.1,
                   fill="field_text", width=pitch - 3, id=f"field-{field.number}-name")
    parent.add(group)


def _link(sheet: Sheet, parent, layout: MinosLayout, link, *, id: str) -> None:
    """Jumps and tunnels as curved arrows, Orbit hops dotted, Millstone diagonals doubled."""
    (x1, y1), (x2, y2) = _centre(layout, link.start), _centre(layout, link.end)
    colour = sheet.colour("link")
    width = sheet.stroke("frame_edge")
    group = sheet.drawing.g(id=id)
    if link.kind == minos.MILLSTONE:
        group.add(sheet.drawing.line((_r(x1), _r(y1)), (_r(x2), _r(y2)), id=f"{id}-line", stroke=colour,
                                     stroke_width=width * 2.4, stroke_linecap="round"))
        parent.add(group)
        return
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    bend = 0.18 * length if link.kind in (minos.JUMP, minos.TUNNEL) else 0.0
    qx, qy = mx - (y2 - y1) / length * bend, my + (x2 - x1) / length * bend
    dash = {minos.TUNNEL: "2.4 1.4", minos.ORBIT: "0.6 1.2"}.get(link.kind)
    extra = {"stroke_dasharray": dash} if dash else {}
    trim = layout.pitch_mm * 0.3
    sx, sy = _towards(x1, y1, qx, qy, trim)
    ex, ey = _towards(x2, y2, qx, qy, trim)
    group.add(sheet.drawing.path(f"M{_r(sx)} {_r(sy)}Q{_r(qx)} {_r(qy)} {_r(ex)} {_r(ey)}", id=f"{id}-path",
                                 fill="none", stroke=colour, stroke_width=width * 1.6, stroke_linecap="round",
                                 **extra))
    if link.kind in (minos.JUMP, minos.TUNNEL):
        angle = math.atan2(ey - qy, ex - qx)
        head = 2.6
        points = [(ex, ey),
                  (ex - head * math.cos(angle - 0.45), ey - head * math.sin(angle - 0.45)),
                  (ex - head * math.cos(angle + 0.45), ey - head * math.sin(angle + 0.45))]
        group.add(sheet.drawing.polygon([(_r(px), _r(py)) for px, py in points], id=f"{id}-head", fill=colour))
    parent.add(group)


def _towards(x: float, y: float, tx: float, ty: float, distance: float) -> tuple[float, float]:
    length = math.hypot(tx - x, ty - y) or 1.0
    return x + (tx - x) / length * distance, y + (ty - y) / length * distance
