"""Race boards as SVG, drawn from the track graph: fields of any shape, their pictures, numbers,
names and the links between them (King Minos's mosaic board is the grid case of it)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

from boardgen.data import fonts
from boardgen.data.theme import Theme
from boardgen.model.race import Grid, Link, Node, TrackGraph
from boardgen.render.svg.base import Sheet, _r, draw_picture, new_sheet

# Drawn kinds of field (a field's `kinds`), and the picture drawn on a field of each kind
# (first match wins, in this order).
ENTRANCE, GOAL, SANCTUARY, EXACT = "entrance", "goal", "sanctuary", "exact"
JUMP, TUNNEL, LOSE_TURNS, ORBIT, MILLSTONE = "jump", "tunnel", "lose-turns", "orbit", "millstone"
KIND_ART = (
    (GOAL, "elysium"),
    (LOSE_TURNS, "hourglass"),
    (TUNNEL, "tunnel"),
    (JUMP, "jump"),
    (ORBIT, "knight"),
    (MILLSTONE, "millstone"),
)
# Links drawn as curved one-way arrows (the others are straight or dotted and run both ways).
ONE_WAY = (JUMP, TUNNEL, "back_to_start", "choice")


class RaceBoard(Protocol):
    """What the drawing needs from a race layout."""

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> dict[str, str]: ...

    @property
    def track(self) -> TrackGraph: ...

    @property
    def border_mm(self) -> float: ...

    @property
    def links(self) -> tuple[Link, ...]: ...

    def kinds(self, index: int) -> tuple[str, ...]:
        """The drawn kinds of a field (see KIND_ART and the constants above)."""
        ...

    @property
    def grid(self) -> Grid | None: ...


def effect_kinds(track: TrackGraph, index: int) -> tuple[str, ...]:
    """The drawn kinds of a field of a plain track: entrance, goal and its effects."""
    node = track.node(index)
    out = [ENTRANCE] if index == track.start else []
    out += [GOAL] if index == track.goal else []
    out += [e.kind.replace("_", "-") for e in node.effects]
    return tuple(out)


def field_art(kinds: Sequence[str]) -> str | None:
    for kind, art in KIND_ART:
        if kind in kinds:
            return art
    return None


def seam_zones(board: RaceBoard) -> tuple[tuple[float, float], ...]:
    """Where sheet seams may run: on a grid only along cell edges; otherwise anywhere no
    field is (a seam never cuts through a field's number or picture)."""
    grid = board.grid
    if grid is not None:
        return tuple((grid.border_mm + k * grid.pitch_mm,) * 2 for k in range(grid.size + 1))
    return _free_intervals([(n.shape.box[0], n.shape.box[2]) for n in board.track.nodes], board.track.width_mm)


def seam_zones_y(board: RaceBoard) -> tuple[tuple[float, float], ...]:
    if board.grid is not None:
        return seam_zones(board)
    return _free_intervals([(n.shape.box[1], n.shape.box[3]) for n in board.track.nodes], board.track.height_mm)


def _free_intervals(spans: list[tuple[float, float]], length: float) -> tuple[tuple[float, float], ...]:
    out, at = [], 0.0
    for lo, hi in sorted(spans):
        if lo > at:
            out.append((at, lo))
        at = max(at, hi)
    if at < length:
        out.append((at, length))
    return tuple(out)


def board_svg(board: RaceBoard, theme: Theme, *, lang: str) -> str:
    track = board.track
    width, height, border = track.width_mm, track.height_mm, board.border_mm
    sheet = new_sheet(width, height, theme, lang, id=f"{board.id}-board")
    d = sheet.drawing
    d.add(
        d.rect(
            (0, 0),
            (_r(width), _r(height)),
            id="board-frame",
            fill=sheet.colour("frame" if sheet.style("fill_frame") else "paper"),
        )
    )
    grid = board.grid
    floor = d.g(id="board-floor")
    if grid is not None:
        _grid_floor(sheet, floor, board, grid)
    else:
        for node in track.nodes:
            _floor(sheet, floor, node)
    d.add(floor)
    d.add(_grid_walls(sheet, board, grid) if grid is not None else _outlines(sheet, track))
    links = d.g(id="board-links")
    labels = _label_boxes(sheet, track)
    for index, link in enumerate(board.links):
        _link(
            sheet,
            links,
            track,
            link,
            labels,
            id=f"link-{index}-{link.kind}-{track.node(link.start).key}-{track.node(link.end).key}",
        )
    d.add(links)
    entrance = _entrance_points(board, grid)
    d.add(
        sheet.drawing.polygon(
            [(_r(x), _r(y)) for x, y in entrance],
            id="entrance-arrow",
            fill=sheet.colour("arrow"),
            stroke=sheet.colour("ink"),
            stroke_width=sheet.stroke("corridor_edge"),
        )
    )
    fields = d.g(id="board-fields")
    for node in track.nodes:
        _field(sheet, fields, node, board.kinds(node.index))
    d.add(fields)
    # The title stays in the top-left quarter so no sheet seam runs through it; in the
    # bottom-left one when the entrance arrow stands in its way at the top.
    size = border * 0.55
    wide = min(fonts.text_width(board.title[lang], sheet.font("title"), "bold", size), width * 0.42)
    baseline = border * 0.72
    xs, ys = [x for x, _ in entrance], [y for _, y in entrance]
    if (
        min(xs) < border + wide + 1.0
        and max(xs) > border - 1.0
        and min(ys) < baseline + size * 0.25 + 1.0
        and max(ys) > baseline - size * 0.8 - 1.0
    ):
        baseline = height - border * 0.28
    sheet.text(
        d,
        board.title[lang],
        x=border,
        y=baseline,
        size=size,
        role="title",
        weight="bold",
        fill="frame_text",
        anchor="start",
        width=width * 0.42,
        id="board-title",
    )
    if grid is not None:
        # The legend in the top-right quarter, right of the middle cell edge (where a seam may run).
        left = border + math.ceil(grid.size / 2) * grid.pitch_mm + 2.0
        d.add(_legend(sheet, board, x=left, width=width - border - left, height=border))
    d.add(
        d.rect(
            (0, 0),
            (_r(width), _r(height)),
            id="board-outline",
            fill="none",
            stroke=sheet.colour("ink"),
            stroke_width=sheet.stroke("frame_edge"),
        )
    )
    text: str = d.tostring()
    return text


# What the legend explains, in its order: the field marks, then the links.
LEGEND_MARKS = (SANCTUARY, EXACT)
LEGEND_LINKS = (JUMP, TUNNEL, ORBIT, MILLSTONE)


def _legend(sheet: Sheet, board: RaceBoard, *, x: float, width: float, height: float) -> Any:
    """What the board's marks mean, in the frame: the realms (each colour named, with its
    fields), the dashed sanctuary outline, the exact-count ring and each kind of link, each
    drawn as on the board, so nothing on the board is told by colour or symbol alone."""
    from boardgen.data.strings import word

    track = board.track
    items: list[tuple[str, str, str]] = []  # (what, tint or kind, label)
    realms: dict[str, list[int]] = {}
    for node in track.nodes:
        if node.colour:
            realms.setdefault(node.colour, []).append(int(node.label) if node.label.isdigit() else node.index)
    for realm, numbers in realms.items():
        name = word(sheet.lang, f"realm_{realm}") if realm in ("earth", "sky") else realm
        items.append(("realm", realm, f"{name} {min(numbers)}–{max(numbers)}"))
    kinds = {kind for node in track.nodes for kind in board.kinds(node.index)}
    items += [("mark", kind, word(sheet.lang, f"legend_{kind}")) for kind in LEGEND_MARKS if kind in kinds]
    links = {link.kind for link in board.links}
    items += [("link", kind, word(sheet.lang, f"legend_{kind}")) for kind in LEGEND_LINKS if kind in links]
    group = sheet.drawing.g(id="board-legend")
    size = height * 0.28
    icon = size * 1.9
    family = sheet.font("labels")
    drawn = size * sheet.theme.style.get("text_scale", 1.0)  # as Sheet.text will draw it

    def sized(icon: float) -> list[tuple[str, str, str, float]]:
        return [
            (what, key, label, _icon_width(what, icon) + 1.2 + fonts.text_width(label, family, "normal", drawn) + 3.0)
            for what, key, label in items
        ]

    row = sized(icon)
    total = sum(item[3] for item in row)
    rows = [row]
    if total > width:  # two rows, smaller samples, split where the first is nearest half the length
        icon = min(icon, height / 3 * 0.92)
        size = min(size, height / 3 * 0.8)
        drawn = size * sheet.theme.style.get("text_scale", 1.0)
        row = sized(icon)
        total = sum(item[3] for item in row)
        cut, run = 0, 0.0
        while cut < len(row) - 1 and run + row[cut][3] <= total / 2:
            run += row[cut][3]
            cut += 1
        rows = [row[: max(cut, 1)], row[max(cut, 1) :]]
    return _legend_rows(sheet, group, rows, x=x, width=width, height=height, size=size, icon=icon)


def _icon_width(what: str, icon: float) -> float:
    """Links get a wider sample, long enough to show their dashes and arrowhead."""
    return icon * 2.4 if what == "link" else icon


def _legend_rows(
    sheet: Sheet,
    group: Any,
    rows: list[list[tuple[str, str, str, float]]],
    *,
    x: float,
    width: float,
    height: float,
    size: float,
    icon: float,
) -> Any:
    d = sheet.drawing
    step = height / (len(rows) + 1)
    for r, row in enumerate(rows):
        total = sum(item[3] for item in row)
        shrink = min(1.0, width / total) if total else 1.0  # narrow enough for the room
        at = x + (width - total * shrink)  # flush right, up to the board's corner
        cy = step * (r + 1) + (0.1 * step if len(rows) == 1 else 0.0)
        for what, key, label, wide in row:
            ident = f"legend-{what}-{key}"
            s = icon * shrink
            sw = _icon_width(what, icon) * shrink
            box = (at, cy - s / 2)
            fill = _tint(sheet, key) if what == "realm" else sheet.colour("special")
            group.add(
                d.rect(
                    (_r(box[0]), _r(box[1])),
                    (_r(sw), _r(s)),
                    id=f"{ident}-icon",
                    fill=fill,
                    stroke=sheet.colour("field_edge"),
                    stroke_width=sheet.stroke("corridor_edge"),
                )
            )
            link = {"stroke": sheet.colour("link"), "fill": "none"}
            if what == "mark" and key == SANCTUARY:
                group.add(
                    d.rect(
                        (_r(box[0] + s * 0.15), _r(box[1] + s * 0.15)),
                        (_r(s * 0.7), _r(s * 0.7)),
                        id=f"{ident}-mark",
                        fill="none",
                        stroke=sheet.colour("field_edge"),
                        stroke_width=sheet.stroke("tile_edge"),
                        stroke_dasharray="1.2 0.8",
                    )
                )
            elif what == "mark" and key == EXACT:
                group.add(
                    d.circle(
                        (_r(box[0] + s / 2), _r(cy)),
                        _r(s * 0.34),
                        id=f"{ident}-mark",
                        stroke_width=sheet.stroke("frame_edge") * 0.6,
                        **link,
                    )
                )
            elif what == "link":
                dash = {TUNNEL: "2.4 1.4", ORBIT: "0.6 1.2"}.get(key)
                extra = {"stroke_dasharray": dash} if dash else {}
                widths = sheet.stroke("frame_edge") * (1.6 if key == MILLSTONE else 0.8)
                x1, x2 = box[0] + s * 0.2, box[0] + sw - s * (0.45 if key in ONE_WAY else 0.2)
                group.add(
                    d.line(
                        (_r(x1), _r(cy)),
                        (_r(x2), _r(cy)),
                        id=f"{ident}-mark",
                        stroke_width=widths,
                        stroke_linecap="round",
                        **link,
                        **extra,
                    )
                )
                if key in ONE_WAY:
                    head = s * 0.45
                    group.add(
                        d.polygon(
                            [
                                (_r(x2 + head * 0.6), _r(cy)),
                                (_r(x2 - head * 0.2), _r(cy - head * 0.45)),
                                (_r(x2 - head * 0.2), _r(cy + head * 0.45)),
                            ],
                            id=f"{ident}-head",
                            fill=sheet.colour("link"),
                        )
                    )
            sheet.text(
                group,
                label,
                x=box[0] + sw + 1.2 * shrink,
                y=cy + size * shrink * 0.35,
                size=size * shrink,
                fill="frame_text",
                anchor="start",
                id=f"{ident}-label",
            )
            at += wide * shrink
    return group


def _tint(sheet: Sheet, colour: str) -> str:
    try:
        return sheet.colour(colour or "paper")
    except KeyError:
        return sheet.colour("paper")


def _floor(sheet: Sheet, parent: Any, node: Node) -> None:
    """A field of any shape: its outline filled with its colour."""
    parent.add(
        sheet.drawing.polygon(
            [(_r(x), _r(y)) for x, y in node.shape.outline()],
            id=f"field-{node.key}-floor",
            fill=_tint(sheet, node.colour),
        )
    )


def _outlines(sheet: Sheet, track: TrackGraph) -> Any:
    """Every field's edge, for a board that is not a grid."""
    group = sheet.drawing.g(
        id="board-walls", fill="none", stroke=sheet.colour("field_edge"), stroke_width=sheet.stroke("frame_edge")
    )
    for node in track.nodes:
        group.add(sheet.drawing.polygon([(_r(x), _r(y)) for x, y in node.shape.outline()], id=f"field-{node.key}-edge"))
    return group


def _grid_floor(sheet: Sheet, floor: Any, board: RaceBoard, grid: Grid) -> None:
    """Wall cells, and each field as a mosaic in its colour (King Minos: earth, then sky)."""
    at = {
        (
            round((n.shape.centre[1] - grid.border_mm) / grid.pitch_mm - 0.5),
            round((n.shape.centre[0] - grid.border_mm) / grid.pitch_mm - 0.5),
        ): n
        for n in board.track.nodes
    }
    pitch, border = grid.pitch_mm, grid.border_mm
    for row in range(grid.size):
        for col in range(grid.size):
            x, y = border + col * pitch, border + row * pitch
            node = at.get((row, col))
            if node is None:
                floor.add(
                    sheet.drawing.rect(
                        (_r(x), _r(y)),
                        (_r(pitch), _r(pitch)),
                        id=f"wall-{row}-{col}",
                        fill=sheet.colour("wall" if sheet.style("fill_walls") else "paper"),
                    )
                )
                continue
            _mosaic(sheet, floor, x, y, pitch, node.colour, id=f"field-{node.key}-mosaic")


def _mosaic(sheet: Sheet, parent: Any, x: float, y: float, pitch: float, realm: str, *, id: str) -> None:
    """A field's floor: a 3 x 3 checker of tesserae in its realm's two tints."""
    group = sheet.drawing.g(id=id)
    step = pitch / 3
    for i in range(3):
        for j in range(3):
            tint = realm if (i + j) % 2 == 0 else f"{realm}_alt"
            group.add(
                sheet.drawing.rect(
                    (_r(x + j * step), _r(y + i * step)),
                    (_r(step), _r(step)),
                    id=f"{id}-{i}{j}",
                    fill=sheet.colour(tint),
                )
            )
    parent.add(group)


def _grid_walls(sheet: Sheet, board: RaceBoard, grid: Grid) -> Any:
    """Thick lines wherever two neighbouring cells are not consecutive fields of the path."""
    pitch, border, size = grid.pitch_mm, grid.border_mm, grid.size
    track = board.track
    cells = {
        (round((n.shape.centre[1] - border) / pitch - 0.5), round((n.shape.centre[0] - border) / pitch - 0.5)): n.index
        for n in track.nodes
    }

    def linked(a: int, b: int) -> bool:
        return b in track.node(a).next or a in track.node(b).next

    segments = []
    for row in range(size):
        for col in range(size):
            here = cells.get((row, col))
            for dr, dc in ((0, 1), (1, 0)):
                r2, c2 = row + dr, col + dc
                if r2 >= size or c2 >= size:
                    continue
                there = cells.get((r2, c2))
                if here is not None and there is not None and linked(here, there):
                    continue
                if here is None and there is None:
                    continue
                if dc:
                    x = border + c2 * pitch
                    segments.append(f"M{_r(x)} {_r(border + row * pitch)}V{_r(border + (row + 1) * pitch)}")
                else:
                    y = border + r2 * pitch
                    segments.append(f"M{_r(border + col * pitch)} {_r(y)}H{_r(border + (col + 1) * pitch)}")
    edge = border + size * pitch
    segments.append(f"M{_r(border)} {_r(border)}H{_r(edge)}V{_r(edge)}H{_r(border)}Z")
    return sheet.drawing.path(
        " ".join(segments),
        id="board-walls",
        fill="none",
        stroke=sheet.colour("field_edge"),
        stroke_width=sheet.stroke("frame_edge") * 2,
        stroke_linecap="square",
    )


def _entrance_points(board: RaceBoard, grid: Grid | None) -> list[tuple[float, float]]:
    """A triangle in the border pointing into the start field, where pieces enter."""
    track, border = board.track, board.border_mm
    start = track.node(track.start).shape
    cx, cy = start.centre
    width, height = track.width_mm, track.height_mm
    if grid is not None:
        side = grid.entrance_side
    else:
        left, top, right, bottom = start.box
        side = min((("N", top), ("S", height - bottom), ("W", left), ("E", width - right)), key=lambda item: item[1])[0]
    half, depth = min(min(start.size) * 0.25, border * 0.9), border * 0.7
    edge = {"N": border * 0.15, "S": height - border * 0.15, "W": border * 0.15, "E": width - border * 0.15}[side]
    tip = edge + (depth if side in ("N", "W") else -depth)
    if side in ("N", "S"):
        points = [(cx - half, edge), (cx + half, edge), (cx, tip)]
    else:
        points = [(edge, cy - half), (edge, cy + half), (tip, cy)]
    return points


def _field(sheet: Sheet, parent: Any, node: Node, kinds: Sequence[str]) -> None:
    """A field's marks: sanctuary frame, picture on a disc, exact-count ring, label, name."""
    w, h = node.shape.size
    side = min(w, h)
    cx, cy = node.shape.centre
    x, y = cx - w / 2, cy - h / 2
    key = node.key
    group = sheet.drawing.g(id=f"field-{key}")
    art = field_art(kinds)
    if SANCTUARY in kinds:
        group.add(
            sheet.drawing.rect(
                (_r(x + 1.2), _r(y + 1.2)),
                (_r(w - 2.4), _r(h - 2.4)),
                rx=2,
                id=f"field-{key}-sanctuary",
                fill="none",
                stroke=sheet.colour("field_edge"),
                stroke_width=sheet.stroke("tile_edge"),
                stroke_dasharray="1.2 0.8",
            )
        )
    if art:
        radius = side * 0.27
        group.add(
            sheet.drawing.circle(
                (_r(cx), _r(cy + side * 0.04)),
                _r(radius),
                id=f"field-{key}-disc",
                fill=sheet.colour("special"),
                stroke=sheet.colour("field_edge"),
                stroke_width=sheet.stroke("corridor_edge"),
            )
        )
        draw_picture(
            sheet, group, art, cx=cx, cy=cy + side * 0.04, size=radius * 1.5, fill="art", id=f"field-{key}-art"
        )
    if EXACT in kinds:
        group.add(
            sheet.drawing.circle(
                (_r(cx), _r(cy + side * 0.02)),
                _r(side * 0.3),
                id=f"field-{key}-exact",
                fill="none",
                stroke=sheet.colour("link"),
                stroke_width=sheet.stroke("frame_edge"),
            )
        )
    _plate(
        sheet,
        group,
        node.label,
        x=x + 2.0,
        baseline=y + side * 0.24,
        size=side * 0.2,
        weight="bold",
        anchor="start",
        fill=_tint(sheet, node.colour),
        id=f"field-{key}-number-plate",
    )
    sheet.text(
        group,
        node.label,
        x=x + 2.0,
        y=y + side * 0.24,
        size=side * 0.2,
        weight="bold",
        fill="field_text",
        anchor="start",
        id=f"field-{key}-number",
    )
    if node.name:
        name, baseline = node.name[sheet.lang], y + h - 2.0
        _plate(
            sheet,
            group,
            name,
            x=cx,
            baseline=baseline,
            size=side * 0.1,
            width=w - 3,
            fill=_tint(sheet, node.colour),
            id=f"field-{key}-plate",
        )
        sheet.text(
            group, name, x=cx, y=baseline, size=side * 0.1, fill="field_text", width=w - 3, id=f"field-{key}-name"
        )
    parent.add(group)


def _plate(
    sheet: Sheet,
    parent: Any,
    text: str,
    *,
    x: float,
    baseline: float,
    size: float,
    fill: str,
    id: str,
    width: float | None = None,
    weight: str = "normal",
    anchor: str = "middle",
) -> None:
    """A small plate in the field's colour behind a label (placed and fitted as `Sheet.text`
    places it), so that a link line passing under the label never runs through its letters."""
    family = sheet.font("labels")
    if width is not None:
        size = fonts.fit_size(text, family, weight, width=width, size=size, smallest=size * 0.5)
    pad = size * 0.25
    wide = fonts.text_width(text, family, weight, size)
    left = x - wide / 2 if anchor == "middle" else x
    top, bottom = baseline - size * 0.8, baseline + size * 0.25
    parent.add(
        sheet.drawing.rect(
            (_r(left - pad), _r(top)), (_r(wide + 2 * pad), _r(bottom - top)), rx=_r(pad), id=id, fill=fill
        )
    )


Box = tuple[float, float, float, float]


def _label_boxes(sheet: Sheet, track: TrackGraph) -> list[Box]:
    """Where each field's number and name are printed (their plates, see `_field`), with a
    millimetre and a half of air around them: the boxes a link's line should not cross."""
    family, air = sheet.font("labels"), 1.5
    out = []
    for node in track.nodes:
        w, h = node.shape.size
        side = min(w, h)
        cx, cy = node.shape.centre
        x, y = cx - w / 2, cy - h / 2
        size = side * 0.2
        wide = fonts.text_width(node.label, family, "bold", size)
        out.append(
            (
                x + 2.0 - air,
                y + side * 0.24 - size * 0.8 - air,
                x + 2.0 + wide + air,
                y + side * 0.24 + size * 0.25 + air,
            )
        )
        if node.name:
            size = fonts.fit_size(
                node.name[sheet.lang], family, "normal", width=w - 3, size=side * 0.1, smallest=side * 0.05
            )
            half = fonts.text_width(node.name[sheet.lang], family, "normal", size) / 2
            baseline = y + h - 2.0
            out.append((cx - half - air, baseline - size * 0.8 - air, cx + half + air, baseline + size * 0.25 + air))
    return out


def _crossing(points: Sequence[tuple[float, float]], boxes: Sequence[Box]) -> float:
    """How much of a line through `points` lies inside the boxes (sampled)."""
    total = 0.0
    for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
        mx, my = (ax + bx) / 2, (ay + by) / 2
        if any(x0 <= mx <= x1 and y0 <= my <= y1 for x0, y0, x1, y1 in boxes):
            total += math.hypot(bx - ax, by - ay)
    return total


def _link_route(
    track: TrackGraph, link: Link, labels: Sequence[Box]
) -> tuple[float, float, float, float, float, float]:
    """A link's start, control point and end: leaving and entering each field 0.3 of its side
    from the centre, bent to one side for the one-way arrows. When that line crosses a printed
    number or name, the ends move round the field (and an arrow may bend the other way) to
    the variant crossing least; the first of equals, so a clear line stays as it is."""
    start, end = track.node(link.start).shape, track.node(link.end).shape
    (x1, y1), (x2, y2) = start.centre, end.centre
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    best: tuple[float, tuple[float, float, float, float, float, float]] | None = None
    bends = (0.18, -0.18) if link.kind in ONE_WAY else (0.0,)
    turns = (0.0, 0.35, -0.35, 0.7, -0.7, 1.05, -1.05)
    for bend in bends:
        shift = bend * length
        qx, qy = mx - (y2 - y1) / length * shift, my + (x2 - x1) / length * shift
        for turn_start in turns:
            for turn_end in turns:
                sx, sy = _around(x1, y1, qx, qy, min(start.size) * 0.3, turn_start)
                ex, ey = _around(x2, y2, qx, qy, min(end.size) * 0.3, turn_end)
                route = (sx, sy, qx, qy, ex, ey)
                samples = [
                    (
                        (1 - t) ** 2 * sx + 2 * (1 - t) * t * qx + t * t * ex,
                        (1 - t) ** 2 * sy + 2 * (1 - t) * t * qy + t * t * ey,
                    )
                    for t in (i / 64 for i in range(65))
                ]
                cost = _crossing(samples, labels) + 0.01 * (abs(turn_start) + abs(turn_end) + (bend < 0))
                if best is None or cost < best[0] - 1e-9:
                    best = (cost, route)
                if best[0] == 0.0:
                    return best[1]
    assert best is not None
    return best[1]


def _around(x: float, y: float, tx: float, ty: float, distance: float, turn: float) -> tuple[float, float]:
    """The point `distance` from (x, y) towards (tx, ty), turned by `turn` radians about (x, y)."""
    if turn == 0.0:
        return _towards(x, y, tx, ty, distance)
    angle = math.atan2(ty - y, tx - x) + turn
    return x + math.cos(angle) * distance, y + math.sin(angle) * distance


def _link(sheet: Sheet, parent: Any, track: TrackGraph, link: Link, labels: Sequence[Box], *, id: str) -> None:
    """Jumps and tunnels as curved arrows, Orbit hops dotted, Millstone diagonals doubled."""
    start, end = track.node(link.start).shape, track.node(link.end).shape
    (x1, y1), (x2, y2) = start.centre, end.centre
    colour = sheet.colour("link")
    width = sheet.stroke("frame_edge")
    group = sheet.drawing.g(id=id)
    if link.kind == MILLSTONE:
        group.add(
            sheet.drawing.line(
                (_r(x1), _r(y1)),
                (_r(x2), _r(y2)),
                id=f"{id}-line",
                stroke=colour,
                stroke_width=width * 2.4,
                stroke_linecap="round",
            )
        )
        parent.add(group)
        return
    dash = {TUNNEL: "2.4 1.4", ORBIT: "0.6 1.2"}.get(link.kind)
    extra = {"stroke_dasharray": dash} if dash else {}
    sx, sy, qx, qy, ex, ey = _link_route(track, link, labels)
    group.add(
        sheet.drawing.path(
            f"M{_r(sx)} {_r(sy)}Q{_r(qx)} {_r(qy)} {_r(ex)} {_r(ey)}",
            id=f"{id}-path",
            fill="none",
            stroke=colour,
            stroke_width=width * 1.6,
            stroke_linecap="round",
            **extra,
        )
    )
    if link.kind in ONE_WAY:
        angle = math.atan2(ey - qy, ex - qx)
        head = 2.6
        points = [
            (ex, ey),
            (ex - head * math.cos(angle - 0.45), ey - head * math.sin(angle - 0.45)),
            (ex - head * math.cos(angle + 0.45), ey - head * math.sin(angle + 0.45)),
        ]
        group.add(sheet.drawing.polygon([(_r(px), _r(py)) for px, py in points], id=f"{id}-head", fill=colour))
    parent.add(group)


def _towards(x: float, y: float, tx: float, ty: float, distance: float) -> tuple[float, float]:
    length = math.hypot(tx - x, ty - y) or 1.0
    return x + (tx - x) / length * distance, y + (ty - y) / length * distance
