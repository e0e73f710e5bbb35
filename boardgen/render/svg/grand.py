"""Le Grand Labyrinthe as SVG: the board (central maze, four corner labyrinths, arrows) and the
event cards with their back."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardgen.data import fonts
from boardgen.data.colours import tint
from boardgen.data.theme import Theme, sequence_fill
from boardgen.model.grand import PERIPHERAL, Card, GrandLayout, label
from boardgen.render.svg.base import CARD_FRAME_MM, Sheet, _r, draw_picture, draw_symbol, new_sheet

# Pictures from the bundled icons, by what a field does (first match wins).
KIND_ART = (
    ("goal", "minotaur"),
    ("rooster", "black-rooster"),
    ("prison", "keys"),
    ("petrified", "skull"),
    ("jump", "jump"),
)


def seam_zones(layout: GrandLayout) -> tuple[tuple[float, float], ...]:
    """Seams may run only along cell edges, never through a field's number or picture."""
    return tuple((layout.border_mm + k * layout.pitch_mm,) * 2 for k in range(layout.size + 1))


def seam_cuts(layout: GrandLayout, axis: str, position: float) -> str:
    """What a seam at this board position runs through, for the warning when no cell edge
    fits: the fields of that column ("x") or row, by their printed numbers and names."""
    k = math.floor((position - layout.border_mm) / layout.pitch_mm)
    if not 0 <= k < layout.size:
        return "the board's border"
    owner = {cell: n for n, cell in layout.cells.items()}
    cells = [(row, k) if axis == "x" else (k, row) for row in range(layout.size)]
    fields = [owner[cell] for cell in cells if cell in owner]
    named = [f"{label(n)} {layout.names[n]['en']}" for n in fields if n in layout.names]
    line = "column" if axis == "x" else "row"
    if not fields:
        return f"the walls of {line} {k + 1}"
    return (
        f"the fields of {line} {k + 1} ({', '.join(label(n) for n in fields)}"
        + (f"; named: {', '.join(named)}" if named else "")
        + ")"
    )


def centre(layout: GrandLayout, field: int) -> tuple[float, float]:
    row, col = layout.cells[field]
    return (layout.border_mm + (col + 0.5) * layout.pitch_mm, layout.border_mm + (row + 0.5) * layout.pitch_mm)


def field_fill(sheet: Sheet, layout: GrandLayout, field: int) -> str:
    seq = layout.sequences[layout.sequence_of(field)]
    return sequence_fill(sheet.theme, seq.colour, central=field > PERIPHERAL)


SYMBOL_SHARE = 0.17  # a sequence's symbol on each of its fields, as a share of the pitch


def blue_fill(sheet: Sheet) -> str:
    """The blue fields: the theme's blue, or a light tint of it where the theme saves ink."""
    blue = sheet.theme.player("blue")
    return blue if sheet.style("fill_walls") else tint(blue, sheet.colour("paper"), 0.45)


def board_svg(layout: GrandLayout, theme: Theme, *, lang: str) -> str:
    size, pitch, border = layout.board_mm, layout.pitch_mm, layout.border_mm
    sheet = new_sheet(size, size, theme, lang, id=f"{layout.id}-board")
    d = sheet.drawing
    d.add(
        d.rect(
            (0, 0),
            (_r(size), _r(size)),
            id="board-frame",
            fill=sheet.colour("frame" if sheet.style("fill_frame") else "paper"),
        )
    )
    owner = {cell: n for n, cell in layout.cells.items()}
    floor = d.g(id="board-floor")
    for row in range(layout.size):
        for col in range(layout.size):
            x, y = border + col * pitch, border + row * pitch
            field = owner.get((row, col))
            if field is None:
                fill = sheet.colour("wall" if sheet.style("fill_walls") else "paper")
                floor.add(d.rect((_r(x), _r(y)), (_r(pitch), _r(pitch)), id=f"wall-{row}-{col}", fill=fill))
                if sheet.style("fill_walls"):
                    floor.add(_bricks(sheet, x, y, pitch, id=f"wall-{row}-{col}-bricks"))
            else:
                fill = field_fill(sheet, layout, field)
                if field in layout.jumps and field < PERIPHERAL:
                    fill = blue_fill(sheet)
                floor.add(d.rect((_r(x), _r(y)), (_r(pitch), _r(pitch)), id=f"floor-{label(field)}", fill=fill))
    d.add(floor)
    d.add(_walls(sheet, layout, owner))
    fields = d.g(id="board-fields")
    for field in sorted(layout.cells):
        _field(sheet, fields, layout, field)
    d.add(fields)
    d.add(_entrance(sheet, layout))
    arrows = d.g(id="board-arrows")
    boxes = _label_boxes(sheet, layout)
    listed = arrow_list(layout)
    for index, (start, end, forced), route in zip(
        range(len(listed)), listed, _arrow_routes(layout, boxes, listed), strict=True
    ):
        _arrow(sheet, arrows, route, forced, id=f"arrow-{index}-{label(start)}-{label(end)}")
    d.add(arrows)
    # The title runs up the left border below the entrance, where no arrow goes, clear of the
    # seam in the middle of the board.
    title_x, title_y = border * 0.72, border + layout.pitch_mm * (layout.size - 0.2)
    title = d.g(id="board-title", transform=f"rotate(-90 {_r(title_x)} {_r(title_y)})")
    sheet.text(
        title,
        layout.title[lang],
        x=title_x,
        y=title_y,
        size=border * 0.55,
        role="title",
        weight="bold",
        fill="frame_text",
        anchor="start",
        width=layout.pitch_mm * (layout.size / 2 - 1.6),
        id="board-title-text",
    )
    d.add(title)
    d.add(_sequence_legend(sheet, layout))
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


def _sequence_legend(sheet: Sheet, layout: GrandLayout) -> Any:
    """The four sequences named, each with its colour and fields, up the left border above the
    entrance (where no route runs), so the sequences are told apart without their colours."""
    border, pitch = layout.border_mm, layout.pitch_mm
    _, entrance_y = centre(layout, 1)
    top, bottom = border + 2.0, entrance_y - pitch * 0.5 - 2.0
    # Local x runs up the border from `bottom`, local y across it (rotated a quarter turn).
    group = sheet.drawing.g(id="board-sequences", transform=f"rotate(-90 0 {_r(bottom)}) translate(0 {_r(bottom)})")
    size, swatch = border * 0.24, border * 0.26
    family = sheet.font("labels")
    entries = [(seq, f"{seq.name[sheet.lang]} {seq.central[0]}–{seq.central[1]}") for seq in layout.sequences]
    rows = [entries[: (len(entries) + 1) // 2], entries[(len(entries) + 1) // 2 :]]
    length = bottom - top
    for r, row in enumerate(rows):
        baseline = border * (0.42 if r == 0 else 0.84)
        widths = [swatch + 1.0 + fonts.text_width(text, family, "normal", size) + 3.0 for _, text in row]
        shrink = min(1.0, length / sum(widths)) if widths else 1.0
        at = 0.0
        for (seq, text), wide in zip(row, widths, strict=True):
            ident = f"sequence-{seq.colour}"
            s = swatch * shrink
            group.add(
                sheet.drawing.rect(
                    (_r(at), _r(baseline - s * 0.85)),
                    (_r(s), _r(s)),
                    id=f"{ident}-swatch",
                    fill=sequence_fill(sheet.theme, seq.colour),
                    stroke=sheet.colour("ink"),
                    stroke_width=sheet.stroke("corridor_edge"),
                )
            )
            draw_symbol(
                sheet, group, seq.colour, cx=at + s / 2, cy=baseline - s * 0.35, size=s * 0.7, fill="paper", id=ident
            )
            sheet.text(
                group,
                text,
                x=at + s + 1.0 * shrink,
                y=baseline,
                size=size * shrink,
                fill="frame_text",
                anchor="start",
                id=f"{ident}-name",
            )
            at += wide * shrink
    return group


def arrow_list(layout: GrandLayout) -> list[tuple[int, int, bool]]:
    """Every arrow drawn: forced jumps (True) and choices other than the next field (False)."""
    out = [(a, b, True) for a, b in sorted(layout.jumps.items())]
    for at, options in sorted(layout.branches.items()):
        for to in options:
            if at not in layout.exact and to == at + 1:
                continue
            out.append((at, to, False))
    return out


def _bricks(sheet: Sheet, x: float, y: float, pitch: float, *, id: str) -> Any:
    """Mortar lines on a wall cell: four courses of bricks, every other one offset."""
    courses, parts = 4, []
    step = pitch / courses
    for k in range(1, courses):
        parts.append(f"M{_r(x)} {_r(y + k * step)}H{_r(x + pitch)}")
    for k in range(courses):
        for j in (0.5,) if k % 2 else (0.25, 0.75):
            parts.append(f"M{_r(x + j * pitch)} {_r(y + k * step)}V{_r(y + (k + 1) * step)}")
    mortar = tint(sheet.colour("wall"), sheet.colour("paper"), 0.7)
    return sheet.drawing.path(
        " ".join(parts), id=id, fill="none", stroke=mortar, stroke_width=sheet.stroke("corridor_edge"), opacity=0.6
    )


def _walls(sheet: Sheet, layout: GrandLayout, owner: dict[tuple[int, int], int]) -> Any:
    """Thick lines between neighbouring cells that are not consecutive on a route."""
    pitch, border = layout.pitch_mm, layout.border_mm
    linked = set()
    for field in layout.cells:
        for nxt in layout.forward(field):
            linked.add(frozenset((field, nxt)))
    segments = []
    for row in range(layout.size):
        for col in range(layout.size):
            here = owner.get((row, col))
            for dr, dc in ((0, 1), (1, 0)):
                r2, c2 = row + dr, col + dc
                if r2 >= layout.size or c2 >= layout.size:
                    continue
                there = owner.get((r2, c2))
                if here is None and there is None:
                    continue
                if here is not None and there is not None and frozenset((here, there)) in linked:
                    continue
                if dc:
                    x = border + c2 * pitch
                    segments.append(f"M{_r(x)} {_r(border + row * pitch)}V{_r(border + (row + 1) * pitch)}")
                else:
                    y = border + r2 * pitch
                    segments.append(f"M{_r(border + col * pitch)} {_r(y)}H{_r(border + (col + 1) * pitch)}")
    edge = border + layout.size * pitch
    segments.append(f"M{_r(border)} {_r(border)}H{_r(edge)}V{_r(edge)}H{_r(border)}Z")
    return sheet.drawing.path(
        " ".join(segments),
        id="board-walls",
        fill="none",
        stroke=sheet.colour("field_edge"),
        stroke_width=sheet.stroke("frame_edge") * 2.4,
        stroke_linecap="square",
    )


def _field(sheet: Sheet, parent: Any, layout: GrandLayout, field: int) -> None:
    d = sheet.drawing
    pitch = layout.pitch_mm
    cx, cy = centre(layout, field)
    x, y = cx - pitch / 2, cy - pitch / 2
    name = label(field)
    group = d.g(id=f"field-{name}")
    kinds = layout.kinds(field)
    blue = field in layout.jumps and field < PERIPHERAL
    text_fill = "paper" if blue and sheet.style("fill_walls") else "field_text"
    art = next((pic for kind, pic in KIND_ART if kind in kinds), None)
    art_cy = cy + pitch * 0.06
    radius = pitch * 0.26
    title = layout.names.get(field)
    if "exact" in kinds:
        ring_cy, ring_r = _exact_ring(sheet, pitch, y, named=bool(title))
        group.add(
            d.circle(
                (_r(cx), _r(ring_cy)),
                _r(ring_r),
                id=f"field-{name}-exact",
                fill="none",
                stroke=sheet.colour("link"),
                stroke_width=sheet.stroke("frame_edge") * 1.6,
            )
        )
        if art is not None:  # the picture's disc inside the ring
            art_cy, radius = ring_cy, min(radius, ring_r - sheet.stroke("frame_edge") * 1.6 - 0.5)
    if art is not None:
        group.add(
            d.circle(
                (_r(cx), _r(art_cy)),
                _r(radius),
                id=f"field-{name}-disc",
                fill=sheet.colour("special"),
                stroke=sheet.colour("field_edge"),
                stroke_width=sheet.stroke("corridor_edge"),
            )
        )
        draw_picture(sheet, group, art, cx=cx, cy=art_cy, size=radius * 1.5, fill="art", id=f"field-{name}-art")
    elif "card" in kinds or "pun" in kinds:
        _card_mark(sheet, group, cx, art_cy, pitch, pun="pun" in kinds, id=f"field-{name}-mark")
    elif "drowning" in kinds:
        _waves(sheet, group, cx, art_cy, pitch, id=f"field-{name}-waves")
    seq = layout.sequences[layout.sequence_of(field)]
    if not blue:  # the sequence's symbol, top right: its second cue beside the tint
        draw_symbol(
            sheet,
            group,
            seq.colour,
            cx=x + pitch * 0.86,
            cy=y + pitch * 0.14,
            size=pitch * SYMBOL_SHARE,
            fill="paper",
            id=f"field-{name}-sequence",
        )
    number_size = pitch * (0.2 if field < PERIPHERAL else 0.19)
    sheet.text(
        group,
        name,
        x=x + 1.8,
        y=y + pitch * 0.25,
        size=number_size,
        weight="bold",
        fill=text_fill,
        anchor="start",
        width=pitch * 0.8,
        id=f"field-{name}-number",
    )
    if title:
        sheet.text(
            group,
            title[sheet.lang],
            x=cx,
            y=y + pitch - 1.6,
            size=pitch * 0.115,
            fill=text_fill,
            width=pitch - 2.4,
            id=f"field-{name}-name",
        )
    parent.add(group)


def _exact_ring(sheet: Sheet, pitch: float, top: float, *, named: bool) -> tuple[float, float]:
    """The exact-count ring's centre (y) and radius: between the field's number (its baseline)
    and its name (the name's ascent) or the cell's bottom edge, clear of both."""
    gap = 0.5 + sheet.stroke("frame_edge") * 0.8  # half the ring's stroke and a little air
    above = top + pitch * 0.25 + gap
    below = (top + pitch - 1.6 - pitch * 0.115 * 0.8 if named else top + pitch - 1.0) - gap
    return (above + below) / 2, (below - above) / 2


def _card_mark(sheet: Sheet, parent: Any, cx: float, cy: float, pitch: float, *, pun: bool, id: str) -> None:
    """A small card ("?") for the open fields; a speech bubble ("!?") for the pun fields."""
    d = sheet.drawing
    w, h = pitch * 0.34, pitch * 0.46
    ink = sheet.colour("field_edge")
    if pun:
        parent.add(
            d.ellipse(
                (_r(cx), _r(cy)),
                (_r(pitch * 0.3), _r(pitch * 0.2)),
                id=f"{id}-bubble",
                fill=sheet.colour("special"),
                stroke=ink,
                stroke_width=sheet.stroke("tile_edge"),
            )
        )
        tail = [
            (cx - pitch * 0.12, cy + pitch * 0.15),
            (cx - pitch * 0.2, cy + pitch * 0.3),
            (cx - pitch * 0.02, cy + pitch * 0.19),
        ]
        parent.add(
            d.polygon(
                [(_r(a), _r(b)) for a, b in tail],
                id=f"{id}-tail",
                fill=sheet.colour("special"),
                stroke=ink,
                stroke_width=sheet.stroke("tile_edge"),
            )
        )
        sheet.text(
            parent, "!?", x=cx, y=cy + pitch * 0.08, size=pitch * 0.22, weight="bold", fill="art", id=f"{id}-text"
        )
        return
    parent.add(
        d.rect(
            (_r(cx - w / 2), _r(cy - h / 2)),
            (_r(w), _r(h)),
            rx=1.2,
            id=f"{id}-card",
            fill=sheet.colour("card_back"),
            stroke=ink,
            stroke_width=sheet.stroke("tile_edge"),
        )
    )
    sheet.text(
        parent, "?", x=cx, y=cy + pitch * 0.09, size=pitch * 0.28, weight="bold", fill="card_back_art", id=f"{id}-text"
    )


def _waves(sheet: Sheet, parent: Any, cx: float, cy: float, pitch: float, *, id: str) -> None:
    """Three wavy lines: the drowning fields."""
    w = pitch * 0.56
    step = w / 4
    for k in range(3):
        y = cy - pitch * 0.13 + k * pitch * 0.13
        x = cx - w / 2
        path = f"M{_r(x)} {_r(y)}"
        for i in range(4):
            bend = -1 if i % 2 == 0 else 1
            path += f"Q{_r(x + step * (i + 0.5))} {_r(y + bend * pitch * 0.07)} {_r(x + step * (i + 1))} {_r(y)}"
        parent.add(
            sheet.drawing.path(
                path,
                id=f"{id}-{k}",
                fill="none",
                stroke=sheet.theme.player("blue"),
                stroke_width=sheet.stroke("frame_edge") * 1.6,
                stroke_linecap="round",
            )
        )


def _entrance(sheet: Sheet, layout: GrandLayout) -> Any:
    """A triangle in the left border pointing into field 1, where pawns wait to start."""
    border = layout.border_mm
    _, cy = centre(layout, 1)
    half = layout.pitch_mm * 0.25
    points = [(border * 0.12, cy - half), (border * 0.12, cy + half), (border * 0.88, cy)]
    return sheet.drawing.polygon(
        [(_r(x), _r(y)) for x, y in points],
        id="entrance-arrow",
        fill=sheet.colour("arrow"),
        stroke=sheet.colour("ink"),
        stroke_width=sheet.stroke("corridor_edge"),
    )


def _edge_point(layout: GrandLayout, field: int, towards: tuple[float, float], reach: float) -> tuple[float, float]:
    """The point `reach` pitches from the field's centre towards a point."""
    cx, cy = centre(layout, field)
    dx, dy = towards[0] - cx, towards[1] - cy
    length = math.hypot(dx, dy) or 1.0
    return cx + dx / length * reach * layout.pitch_mm, cy + dy / length * reach * layout.pitch_mm


def _label_boxes(sheet: Sheet, layout: GrandLayout) -> list[Box]:
    """Where each field's printed number, name and picture are, as (left, top, right, bottom,
    weight): a curve crossing a number or a name costs more than one crossing a picture."""
    pitch, boxes = layout.pitch_mm, []
    family = sheet.font("labels")
    for field in layout.cells:
        cx, cy = centre(layout, field)
        x, y = cx - pitch / 2, cy - pitch / 2
        size = pitch * (0.2 if field < PERIPHERAL else 0.19)
        width = min(fonts.text_width(label(field), family, "bold", size), pitch * 0.8)
        # Padded: the arrow's white casing and its head reach beyond the sampled line.
        boxes.append((x, y, x + 3.6 + width, y + pitch * 0.31 + 1.2, 3.0))
        name = layout.names.get(field)
        if name:
            half = min(fonts.text_width(name[sheet.lang], family, "normal", pitch * 0.115), pitch - 2.4) / 2 + 3.0
            boxes.append((cx - half, y + pitch * 0.7, cx + half, y + pitch, 3.0))
        if set(layout.kinds(field)) - {"branch", "exact"} or field in layout.puns:
            r = pitch * 0.28
            boxes.append((cx - r, cy + pitch * 0.06 - r, cx + r, cy + pitch * 0.06 + r, 2.0))
    return boxes


Box = tuple[float, float, float, float, float]


class _Boxes:
    """The label boxes, filed by the board cells they overlap, so that a line only looks at
    the boxes of the cells it crosses."""

    def __init__(self, layout: GrandLayout, boxes: list[Box]):
        self.layout = layout
        self.cells: dict[tuple[int, int], list[Box]] = {}
        for box in boxes:
            rows, cols = self._span(box[1], box[3]), self._span(box[0], box[2])
            for row in rows:
                for col in cols:
                    self.cells.setdefault((row, col), []).append(box)

    def _span(self, low: float, high: float) -> range:
        pitch, border = self.layout.pitch_mm, self.layout.border_mm
        return range(math.floor((low - border) / pitch), math.floor((high - border) / pitch) + 1)

    def cost(self, route: Route) -> float:
        """How much of the line lies on printed numbers, names and pictures (length inside
        each box, times its weight)."""
        points = route.samples
        # A line must not start on a word or a picture (its round cap and casing show there).
        (px, py) = points[0]
        total = sum(
            20 * box[4]
            for box in self.cells.get((self._span(py, py)[0], self._span(px, px)[0]), ())
            if box[0] <= px <= box[2] and box[1] <= py <= box[3]
        )
        for a, b in zip(points, points[1:], strict=False):
            seen: set[Box] = set()
            for row in self._span(min(a[1], b[1]), max(a[1], b[1])):
                for col in self._span(min(a[0], b[0]), max(a[0], b[0])):
                    for box in self.cells.get((row, col), ()):
                        if box not in seen:
                            seen.add(box)
                            total += box[4] * _inside(a, b, box)
        return total


def _inside(a: Point, b: Point, box: Box) -> float:
    """The length of the segment a-b inside the box (Liang-Barsky clipping)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    low, high = 0.0, 1.0
    for p, q in ((-dx, a[0] - box[0]), (dx, box[2] - a[0]), (-dy, a[1] - box[1]), (dy, box[3] - a[1])):
        if p == 0:
            if q < 0:
                return 0.0
        else:
            t = q / p
            if p < 0:
                low = max(low, t)
            else:
                high = min(high, t)
    return max(0.0, high - low) * math.hypot(dx, dy)


def _arrow_routes(layout: GrandLayout, boxes: list[Box], arrows: list[tuple[int, int, bool]]) -> list[Route]:
    """The route of every arrow: the candidate (`_routes`) crossing the fewest printed numbers,
    names and pictures, the first of equals; two long arrows out of one field run in the two
    lanes of the border, whichever way round costs less."""
    filed = _Boxes(layout, boxes)
    best: dict[tuple[int, int], tuple[float, Route]] = {}
    for k, (start, end, _) in enumerate(arrows):
        for lane in (0, 1):
            if lane and (k, 0) in best and not _along_edge(layout, start, end):
                best[k, lane] = best[k, 0]  # a curve inside the board has no lane
                continue
            routes = _routes(layout, start, end, lane, filed.cost)
            costs = [filed.cost(route) for route in routes]
            best[k, lane] = (min(costs), routes[costs.index(min(costs))])
    chosen: list[Route] = []
    for k, (start, _, _) in enumerate(arrows):
        sharing = [j for j, arrow in enumerate(arrows) if arrow[0] == start]
        if len(sharing) == 2:
            a, b = sharing
            swap = best[a, 1][0] + best[b, 0][0] < best[a, 0][0] + best[b, 1][0]
            lane = (sharing.index(k) + swap) % 2
        else:
            lane = min((0, 1), key=lambda n: best[k, n][0])
        chosen.append(best[k, lane][1])
    return chosen


def _cubic(
    p0: tuple[float, float], c1: tuple[float, float], c2: tuple[float, float], p1: tuple[float, float], n: int = 24
) -> list[tuple[float, float]]:
    out = []
    for t in (i / n for i in range(n + 1)):
        u = 1 - t
        out.append(
            (
                u**3 * p0[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t**3 * p1[0],
                u**3 * p0[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t**3 * p1[1],
            )
        )
    return out


Point = tuple[float, float]


@dataclass(frozen=True)
class Route:
    """An arrow's line: its SVG path, points along it (to see what it covers), its end and a
    point just before the end (the head points from there)."""

    path: str
    samples: tuple[Point, ...]
    end: Point
    before: Point


def _bezier(p0: Point, c1: Point, c2: Point, p1: Point) -> Route:
    path = f"M{_r(p0[0])} {_r(p0[1])}C{_r(c1[0])} {_r(c1[1])} {_r(c2[0])} {_r(c2[1])} {_r(p1[0])} {_r(p1[1])}"
    return Route(path, tuple(_cubic(p0, c1, c2, p1)), p1, c2)


def _orthogonal(points: list[Point], radius: float = 6.0) -> Route:
    """A line through `points` (each segment upright or level), its corners rounded."""
    path = f"M{_r(points[0][0])} {_r(points[0][1])}"
    samples: list[Point] = []
    last = points[0]
    for k in range(1, len(points) - 1):
        prev, corner, nxt = points[k - 1], points[k], points[k + 1]
        r = min(radius, math.dist(prev, corner) / 2, math.dist(corner, nxt) / 2)
        into = _towards(corner, prev, r)
        out = _towards(corner, nxt, r)
        path += f"L{_r(into[0])} {_r(into[1])}Q{_r(corner[0])} {_r(corner[1])} {_r(out[0])} {_r(out[1])}"
        samples += _segment(last, into)
        last = out
    end = points[-1]
    path += f"L{_r(end[0])} {_r(end[1])}"
    samples += _segment(last, end)
    return Route(path, tuple(samples), end, _towards(end, last, 1.0) if last != end else points[-2])


def _towards(a: Point, b: Point, distance: float) -> Point:
    length = math.dist(a, b) or 1.0
    return a[0] + (b[0] - a[0]) / length * distance, a[1] + (b[1] - a[1]) / length * distance


def _segment(a: Point, b: Point) -> list[Point]:
    return [a, b]


def _along_edge(layout: GrandLayout, start: int, end: int) -> str:
    """The edge whose border a long arrow between two fields near it runs along ("" if none)."""
    (x1, y1), (x2, y2) = centre(layout, start), centre(layout, end)
    size = layout.board_mm
    sides = {"top": max(y1, y2), "bottom": size - min(y1, y2), "left": max(x1, x2), "right": size - min(x1, x2)}
    side, depth = min(sides.items(), key=lambda kv: kv[1])
    long = math.hypot(x2 - x1, y2 - y1) > layout.pitch_mm * 2.5
    return side if long and depth <= layout.border_mm + 3 * layout.pitch_mm else ""


def _routes(layout: GrandLayout, start: int, end: int, lane: int, cost: Callable[[Route], float]) -> list[Route]:
    """Candidate lines for an arrow: long ones between fields near one edge run along that
    edge's border (in `lane` 0, the outer, or 1), leaving and entering square to it from
    several points of the two fields; the others are curves bending one way or the other,
    leaving towards the bend or from a corner or side of their field."""
    (x1, y1), (x2, y2) = centre(layout, start), centre(layout, end)
    pitch, size = layout.pitch_mm, layout.board_mm
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(x2 - x1, y2 - y1)
    side = _along_edge(layout, start, end)
    out: list[Route] = []
    if side:
        peak = layout.border_mm * (0.3 + 0.4 * (lane % 2))
        line = {"top": peak, "bottom": size - peak, "left": peak, "right": size - peak}[side]
        # In (along the edge, across it) coordinates: out of the start to the border's line,
        # along it, then in to the end square to the edge, or along a gap beside the end
        # field and into it from that side.
        flip = side in ("left", "right")
        (su, sv), (eu, ev) = ((y1, x1), (y2, x2)) if flip else ((x1, y1), (x2, y2))
        out_dir = 1.0 if side in ("bottom", "right") else -1.0

        def uv(points: list[Point]) -> list[Point]:
            return [(v, u) for u, v in points] if flip else points

        # The way out and the way in cost what they cross, independently (the border is
        # bare): pick the way out first, with a plain way in, then the way in.
        starts = [(su + ds * pitch, sv + out_dir * pitch * 0.3) for ds in (0.0, -0.3, 0.3, -0.42, 0.42)]
        plain = (eu, ev + out_dir * pitch * 0.12)
        outs = [_orthogonal(uv([p, (p[0], line), (plain[0], line), plain])) for p in starts]
        costs = [cost(route) for route in outs]
        first = starts[costs.index(min(costs))]
        for de in (0.0, -0.36, 0.36, -0.42, 0.42):
            end_point = (eu + de * pitch, ev + out_dir * pitch * 0.12)
            out.append(_orthogonal(uv([first, (first[0], line), (end_point[0], line), end_point])))
            for gap in (-1.0, 1.0):
                beside = eu + gap * (pitch / 2 + 1.6)
                enter = (eu - gap * pitch * 0.12, ev + de * pitch)
                out.append(_orthogonal(uv([first, (first[0], line), (beside, line), (beside, enter[1]), enter])))
        return out
    bends = (0.35, -0.35, 0.6, -0.6) if length <= pitch * 2.5 else (0.12, -0.12, 0.25, -0.25, 0.4, -0.4)
    for bend in bends:
        q = (mx - (y2 - y1) / (length or 1) * bend * length, my + (x2 - x1) / (length or 1) * bend * length)
        # Leave towards the bend, or from a corner or the left or right side of the field.
        starts = [_edge_point(layout, start, q, 0.3)]
        starts += [
            (x1 + dx * pitch, y1 + dy * pitch)
            for dx, dy in ((0.42, 0.0), (-0.42, 0.0), (0.36, 0.36), (0.36, -0.36), (-0.36, 0.36), (-0.36, -0.36))
        ]
        for sx, sy in starts:
            ex, ey = _edge_point(layout, end, q, 0.12)
            # The quadratic curve as a cubic one.
            out.append(
                _bezier(
                    (sx, sy),
                    (sx + 2 / 3 * (q[0] - sx), sy + 2 / 3 * (q[1] - sy)),
                    (ex + 2 / 3 * (q[0] - ex), ey + 2 / 3 * (q[1] - ey)),
                    (ex, ey),
                )
            )
    return out


def _arrow(sheet: Sheet, parent: Any, route: Route, forced: bool, *, id: str) -> None:
    """An arrow along `route`: forced moves solid, choices dashed; the head ends near the
    middle of the field it leads to."""
    curve = route.path
    (ex2, ey2), c2 = route.end, route.before
    colour = sheet.colour("link")
    width = sheet.stroke("frame_edge") * 2.2
    group = sheet.drawing.g(id=id)
    extra = {} if forced else {"stroke_dasharray": "3 1.6"}
    group.add(
        sheet.drawing.path(
            curve,
            id=f"{id}-casing",
            fill="none",
            stroke=sheet.colour("paper"),
            stroke_width=width * 2.2,
            stroke_linecap="round",
            opacity=0.8,
        )
    )
    group.add(
        sheet.drawing.path(
            curve, id=f"{id}-path", fill="none", stroke=colour, stroke_width=width, stroke_linecap="round", **extra
        )
    )
    angle = math.atan2(ey2 - c2[1], ex2 - c2[0])
    head = 3.4
    points = [
        (ex2, ey2),
        (ex2 - head * math.cos(angle - 0.45), ey2 - head * math.sin(angle - 0.45)),
        (ex2 - head * math.cos(angle + 0.45), ey2 - head * math.sin(angle + 0.45)),
    ]
    group.add(
        sheet.drawing.polygon(
            [(_r(px), _r(py)) for px, py in points],
            id=f"{id}-head",
            fill=colour,
            stroke=sheet.colour("paper"),
            stroke_width=0.2,
        )
    )
    parent.add(group)


# Cards ------------------------------------------------------------------------------------

# The picture of each bundled card design, and of any other card by what it does.
CARD_ART = {
    "first-light": "sun",
    "fire": "campfire",
    "primeval-night": "night-sky",
    "long-sleep": "night-sleep",
    "eureka": "light-bulb",
    "lever": "lever",
    "tortoise": "tortoise",
    "doubt": "thinker",
    "muse": "masks",
    "orpheus": "lyre",
    "sketch": "quill",
    "masterpiece": "mona-lisa",
    "ariadne": "yarn",
    "icarus": "wing",
    "sirens": "siren-song",
    "pegasus": "wings",
}
EFFECT_ART = {
    "advance": "sun",
    "back": "tortoise",
    "goto": "wings",
    "lose_turns": "night-sleep",
    "roll_again": "campfire",
    "free_all": "keys",
    "swap_leader": "lever",
}


def card_picture(card: Card) -> str:
    return CARD_ART.get(card.id) or EFFECT_ART[card.effect.kind]


def effect_badge(card: Card, layout: GrandLayout) -> str:
    """The count a card moves by or the field it sends to (+3, −4, 61), beside its picture;
    "" for the cards whose text alone says what they do."""
    e = card.effect
    return {"advance": f"+{e.steps}", "back": f"−{e.steps}", "goto": layout.track().label(e.to) if e.to else ""}.get(
        e.kind, ""
    )


def wrap(sheet: Sheet, text: str, *, size: float, width: float, role: str = "labels") -> list[str]:
    """Greedy line breaking at spaces (no-break spaces hold words together)."""
    family = sheet.font(role)
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}" if current else word
        if current and fonts.text_width(trial, family, "normal", size) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def card_face_svg(card: Card, layout: GrandLayout, theme: Theme, *, lang: str) -> str:
    """An event card with its bleed: the sequence's colour band fills the bleed at the top;
    the text stays in the safe zone."""
    (w, h), bleed = layout.card_size_mm, layout.bleed_mm
    cid = f"card-{card.id}"
    sheet = new_sheet(w + 2 * bleed, h + 2 * bleed, theme, lang, id=cid)
    d = sheet.drawing
    seq = layout.sequences[card.sequence - 1]
    colour = theme.player(seq.colour)
    d.add(d.rect((0, 0), (_r(w + 2 * bleed), _r(h + 2 * bleed)), id=f"{cid}-bleed", fill=sheet.colour("card_face")))
    # Drawn for a poker card (88.9 mm high) and scaled to the layout's card size.
    k = h / 88.9
    kf = min(k, w / 63.5)
    band = bleed + 15.0 * k
    solid = sheet.style("fill_frame")
    if solid:
        d.add(d.rect((0, 0), (_r(w + 2 * bleed), _r(band)), id=f"{cid}-band", fill=colour))
    else:  # the ink saver: a rule in the sequence's colour under its name, no solid band
        d.add(d.rect((0, _r(band - 1.2)), (_r(w + 2 * bleed), 1.2), id=f"{cid}-band", fill=colour))
    inset = bleed + CARD_FRAME_MM
    # The frame hangs from the band's lower edge: its sides and rounded foot only.
    left, right, foot, round_ = inset, bleed + w - CARD_FRAME_MM, bleed + h - CARD_FRAME_MM, 2.5
    d.add(
        d.path(
            f"M{_r(left)} {_r(band)}V{_r(foot - round_)}Q{_r(left)} {_r(foot)} {_r(left + round_)} {_r(foot)}"
            f"H{_r(right - round_)}Q{_r(right)} {_r(foot)} {_r(right)} {_r(foot - round_)}V{_r(band)}",
            id=f"{cid}-border",
            fill="none",
            stroke=sheet.colour("card_border"),
            stroke_width=sheet.stroke("card_border"),
        )
    )
    inner = w - 2 * CARD_FRAME_MM - 2.0  # the text keeps a millimetre inside the frame
    sheet.text(
        d,
        seq.name[lang],
        x=bleed + w / 2,
        y=bleed + 8.5 * k,
        size=3.4 * kf,
        fill=sheet.readable_on(colour) if solid else "ink",
        width=inner,
        id=f"{cid}-sequence",
    )
    sheet.text(
        d,
        card.title[lang],
        x=bleed + w / 2,
        y=band + 9.0 * k,
        size=5.2 * kf,
        role="title",
        weight="bold",
        width=inner,
        id=f"{cid}-title",
    )
    cx, cy, radius = bleed + w / 2, band + 29.0 * k, 12.5 * k
    d.add(
        d.circle(
            (_r(cx), _r(cy)),
            _r(radius),
            id=f"{cid}-badge-disc",
            fill=tint(colour, sheet.colour("paper"), 0.25),
            stroke=colour,
            stroke_width=sheet.stroke("card_border"),
        )
    )
    draw_picture(sheet, d, card_picture(card), cx=cx, cy=cy, size=radius * 1.4, fill="art", id=f"{cid}-picture")
    badge = effect_badge(card, layout)
    if badge:
        # A small disc on the picture's rim, lower right, holding the count.
        bx, by, br = cx + radius * 0.78, cy + radius * 0.62, radius * 0.42
        d.add(
            d.circle(
                (_r(bx), _r(by)),
                _r(br),
                id=f"{cid}-badge-tag",
                fill=colour if solid else sheet.colour("paper"),
                stroke=sheet.colour("paper") if solid else colour,
                stroke_width=sheet.stroke("card_border"),
            )
        )
        sheet.text(
            d,
            badge,
            x=bx,
            y=by + br * 0.36,
            size=br * 1.0,
            weight="bold",
            fill=sheet.readable_on(colour) if solid else "ink",
            width=br * 1.7,
            id=f"{cid}-badge",
        )
    size = 3.5 * kf
    lines = wrap(sheet, card.text[lang], size=size, width=inner)
    top = band + 48.0 * k
    for i, line in enumerate(lines):
        sheet.text(d, line, x=bleed + w / 2, y=top + i * size * 1.3, size=size, width=inner, id=f"{cid}-text-{i}")
    return str(d.tostring())


def card_back_svg(layout: GrandLayout, theme: Theme, *, lang: str) -> str:
    """The back of every card: rings, the labyrinth emblem and the game's name."""
    (w, h), bleed = layout.card_size_mm, layout.bleed_mm
    sheet = new_sheet(w + 2 * bleed, h + 2 * bleed, theme, lang, id=f"{layout.id}-card-back")
    d = sheet.drawing
    full_w, full_h = w + 2 * bleed, h + 2 * bleed
    d.add(d.rect((0, 0), (_r(full_w), _r(full_h)), id="back-bleed", fill=sheet.colour("card_back")))
    stripes = d.g(id="back-sequences")
    for i, seq in enumerate(layout.sequences):
        stripes.add(
            d.rect(
                (_r(bleed + 4 + i * (w - 8) / 4), _r(bleed + 4)),
                (_r((w - 8) / 4), _r(3.0)),
                id=f"back-seq-{i}",
                fill=theme.player(seq.colour),
            )
        )
    d.add(stripes)
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
    sheet.text(
        d,
        layout.title[lang],
        x=full_w / 2,
        y=full_h - bleed - 9.0,
        size=4.2,
        role="title",
        weight="bold",
        fill="card_back_art",
        width=w - 10,
        id="back-title",
    )
    return str(d.tostring())
