"""Pieces any game can use, as SVG: fold-up pawn standees, round tokens, die nets."""

from __future__ import annotations

from boardgen.data.strings import word
from boardgen.data.theme import Theme
from boardgen.render.svg.base import _r, draw_symbol, new_sheet

# Pieces --------------------------------------------------------------------------------------

PAWN_TAB_MM = 12.0

# A die net's glue tab, as a share of its face.
DIE_TAB = 0.28


def pawn_size(face: tuple[float, float]) -> tuple[float, float]:
    """A fold-up standee: base tab, front, back, base tab, stacked vertically."""
    w, h = face
    return w, 2 * h + 2 * PAWN_TAB_MM


def pawn_svg(
    colour: str, face: tuple[float, float], theme: Theme, *, lang: str, label: str | None = None, id: str | None = None
) -> str:
    """A standee in a player's colour; `face` is the (width, height) of one face in mm."""
    w, h = face
    total_w, total_h = pawn_size(face)
    ident = id or f"pawn-{colour}"
    sheet = new_sheet(total_w, total_h, theme, lang, id=ident)
    d = sheet.drawing
    fill = theme.player(colour)
    tab = PAWN_TAB_MM
    d.add(
        d.rect(
            (0, 0),
            (_r(w), _r(tab)),
            id=f"{ident}-tab-top",
            fill=sheet.colour("paper"),
            stroke=sheet.colour("cut"),
            stroke_width=sheet.stroke("cut_line"),
        )
    )
    d.add(
        d.rect(
            (0, _r(tab + 2 * h)),
            (_r(w), _r(tab)),
            id=f"{ident}-tab-bottom",
            fill=sheet.colour("paper"),
            stroke=sheet.colour("cut"),
            stroke_width=sheet.stroke("cut_line"),
        )
    )
    for index, (top, flipped) in enumerate(((tab, True), (tab + h, False))):
        panel = d.g(id=f"{ident}-face-{index}")
        if flipped:
            # The upper face is upside down on the strip so both faces stand upright once folded.
            panel["transform"] = f"rotate(180 {_r(w / 2)} {_r(top + h / 2)})"
        panel.add(d.rect((0, _r(top)), (_r(w), _r(h)), id=f"{ident}-face-{index}-bg", fill=fill))
        head = w * 0.26
        cx = w / 2
        panel.add(
            d.circle(
                (_r(cx), _r(top + h * 0.3)),
                _r(head),
                id=f"{ident}-face-{index}-head",
                fill=sheet.colour("paper"),
                stroke=sheet.colour("ink"),
                stroke_width=sheet.stroke("corridor_edge"),
            )
        )
        body = [
            (cx - w * 0.36, top + h * 0.86),
            (cx + w * 0.36, top + h * 0.86),
            (cx + w * 0.16, top + h * 0.3 + head * 0.8),
            (cx - w * 0.16, top + h * 0.3 + head * 0.8),
        ]
        panel.add(
            d.polygon(
                [(_r(px), _r(py)) for px, py in body],
                id=f"{ident}-face-{index}-body",
                fill=sheet.colour("paper"),
                stroke=sheet.colour("ink"),
                stroke_width=sheet.stroke("corridor_edge"),
            )
        )
        draw_symbol(
            sheet, panel, colour, cx=cx, cy=top + h * 0.66, size=w * 0.3, fill="ink", id=f"{ident}-face-{index}"
        )
        sheet.text(
            panel,
            label or word(lang, colour),
            x=cx,
            y=top + h * 0.97,
            size=3.2,
            weight="bold",
            fill=sheet.readable_on(fill),
            width=w - 3,
            id=f"{ident}-face-{index}-name",
        )
        d.add(panel)
    folds = d.g(
        id=f"{ident}-folds", stroke=sheet.colour("cut"), stroke_width=sheet.stroke("cut_line"), stroke_dasharray="1.5 1"
    )
    for k, y in enumerate((tab, tab + h, tab + 2 * h)):
        folds.add(d.line((0, _r(y)), (_r(w), _r(y)), id=f"{ident}-fold-{k}"))
    d.add(folds)
    # The white ends are feet: named, so nobody takes them for glue tabs; the middle line is
    # named where the faces fold back to back.
    for k, y in enumerate((tab / 2, total_h - tab / 2)):
        sheet.text(
            d,
            word(lang, "foot"),
            x=w / 2,
            y=y + 0.9,
            size=2.6,
            fill="muted",
            width=w - 3,
            smallest=2.2,
            id=f"{ident}-foot-{k}",
        )
    fold_label = word(lang, "fold")
    box_w = min(w * 0.45, 8.0)
    d.add(
        d.rect(
            (_r(w - box_w - 0.6), _r(tab + h - 1.5)),
            (_r(box_w), _r(3.0)),
            id=f"{ident}-fold-label-box",
            fill=sheet.colour("paper"),
        )
    )
    # 2.2 mm: the 6 pt the accessibility check asks of any printed word.
    sheet.text(
        d,
        fold_label,
        x=w - 0.6 - box_w / 2,
        y=tab + h + 0.8,
        size=2.2,
        fill="ink",
        width=box_w - 0.4,
        smallest=2.2,
        id=f"{ident}-fold-label",
    )
    d.add(
        d.rect(
            (0, 0),
            (_r(total_w), _r(total_h)),
            id=f"{ident}-outline",
            fill="none",
            stroke=sheet.colour("ink"),
            stroke_width=sheet.stroke("cut_line"),
        )
    )
    return str(d.tostring())


def disc_svg(colour: str, label: str, diameter: float, theme: Theme, *, lang: str, id: str) -> str:
    """A round playing piece with its circular cut guide, numbered so pieces can be told apart."""
    margin = 1.0
    size = diameter + 2 * margin
    sheet = new_sheet(size, size, theme, lang, id=id)
    d = sheet.drawing
    c = size / 2
    d.add(
        d.circle(
            (_r(c), _r(c)),
            _r(diameter / 2),
            id=f"{id}-face",
            fill=theme.player(colour),
            stroke=sheet.colour("ink"),
            stroke_width=sheet.stroke("cut_line"),
        )
    )
    d.add(
        d.circle(
            (_r(c), _r(c)),
            _r(diameter * 0.34),
            id=f"{id}-ring",
            fill="none",
            stroke=sheet.colour("paper"),
            stroke_width=sheet.stroke("card_border"),
        )
    )
    if theme.symbol(colour) is None:
        sheet.text(
            d,
            label,
            x=c,
            y=c + diameter * 0.14,
            size=diameter * 0.4,
            weight="bold",
            fill=sheet.readable_on(theme.player(colour)),
            width=diameter * 0.6,
            id=f"{id}-label",
        )
    else:  # the number above, the colour's symbol below it, both inside the ring
        sheet.text(
            d,
            label,
            x=c,
            y=c + diameter * 0.02,
            size=diameter * 0.3,
            weight="bold",
            fill=sheet.readable_on(theme.player(colour)),
            width=diameter * 0.5,
            id=f"{id}-label",
        )
        draw_symbol(sheet, d, colour, cx=c, cy=c + diameter * 0.18, size=diameter * 0.2, id=id)
    return str(d.tostring())


# Which face sits where on the cross-shaped net (row, col); opposite faces add up to 7.
DIE_NET = {(1, 1): 1, (0, 1): 2, (1, 0): 3, (1, 2): 4, (2, 1): 5, (1, 3): 6}
# Glue tabs: (row, col, side) - one tab for each of the seven edges that meet when folded.
DIE_TABS = ((0, 1, "W"), (0, 1, "E"), (0, 1, "N"), (2, 1, "W"), (2, 1, "E"), (2, 1, "S"), (1, 3, "E"))
PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


def die_net_size(face: float) -> tuple[float, float]:
    tab = face * DIE_TAB
    return 4 * face + 2 * tab, 3 * face + 2 * tab


def die_net_svg(face: float, theme: Theme, *, lang: str, id: str) -> str:
    """A cube net with pips and glue tabs: cut the solid outline, fold the dashed lines, glue."""
    tab = face * DIE_TAB
    w, h = die_net_size(face)
    sheet = new_sheet(w, h, theme, lang, id=id)
    d = sheet.drawing
    width = sheet.stroke("cut_line")
    tabs = {(row, col, side) for row, col, side in DIE_TABS}
    for row, col, side in DIE_TABS:
        x, y = tab + col * face, tab + row * face
        inset = tab * 0.8
        points = {
            "N": [(x, y), (x + inset, y - tab), (x + face - inset, y - tab), (x + face, y)],
            "S": [(x, y + face), (x + inset, y + face + tab), (x + face - inset, y + face + tab), (x + face, y + face)],
            "W": [(x, y), (x - tab, y + inset), (x - tab, y + face - inset), (x, y + face)],
            "E": [(x + face, y), (x + face + tab, y + inset), (x + face + tab, y + face - inset), (x + face, y + face)],
        }[side]
        d.add(
            d.polygon(
                [(_r(px), _r(py)) for px, py in points], id=f"{id}-tab-{row}{col}{side}", fill=sheet.colour("glue_band")
            )
        )
        d.add(
            d.polyline(
                [(_r(px), _r(py)) for px, py in points],
                id=f"{id}-tab-{row}{col}{side}-cut",
                fill="none",
                stroke=sheet.colour("ink"),
                stroke_width=width,
            )
        )
    folds, cuts = [], []
    for (row, col), value in sorted(DIE_NET.items()):
        x, y = tab + col * face, tab + row * face
        d.add(d.rect((_r(x), _r(y)), (_r(face), _r(face)), id=f"{id}-face-{value}", fill=sheet.colour("paper")))
        for k, (px, py) in enumerate(PIPS[value]):
            d.add(
                d.circle(
                    (_r(x + px * face), _r(y + py * face)),
                    _r(face * 0.09),
                    id=f"{id}-pip-{value}-{k}",
                    fill=sheet.colour("ink"),
                )
            )
        edges = {
            "N": ((x, y), (x + face, y), (row - 1, col)),
            "S": ((x, y + face), (x + face, y + face), (row + 1, col)),
            "W": ((x, y), (x, y + face), (row, col - 1)),
            "E": ((x + face, y), (x + face, y + face), (row, col + 1)),
        }
        for side, (a, b, neighbour) in edges.items():
            segment = f"M{_r(a[0])} {_r(a[1])}L{_r(b[0])} {_r(b[1])}"
            if (row, col, side) in tabs:
                folds.append(segment)
            elif neighbour in DIE_NET:
                if neighbour > (row, col):  # each shared edge once
                    folds.append(segment)
            else:
                cuts.append(segment)
    d.add(
        d.path(
            " ".join(folds),
            id=f"{id}-folds",
            fill="none",
            stroke=sheet.colour("cut"),
            stroke_width=width,
            stroke_dasharray="1.5 1",
        )
    )
    d.add(d.path(" ".join(cuts), id=f"{id}-cuts", fill="none", stroke=sheet.colour("ink"), stroke_width=width))
    return str(d.tostring())


Point = tuple[float, float]


def pawn_folds(face: tuple[float, float]) -> tuple[tuple[Point, Point], ...]:
    """A standee's three fold lines (drawing mm): the two feet and the middle, where the faces
    fold back to back."""
    w, h = face
    return tuple(((0.0, y), (w, y)) for y in (PAWN_TAB_MM, PAWN_TAB_MM + h, PAWN_TAB_MM + 2 * h))


def pawn_face(size: tuple[float, float]) -> tuple[float, float]:
    """The face of a standee drawn at this size (pawn_size's inverse)."""
    w, total = size
    return w, (total - 2 * PAWN_TAB_MM) / 2


def die_net_face(height: float) -> float:
    """The face of a die net drawn `height` mm tall (three faces and two glue tabs)."""
    return height / (3 + 2 * DIE_TAB)


def die_net_outline(face: float) -> tuple[tuple[Point, ...], tuple[tuple[Point, Point], ...]]:
    """The cut outline of die_net_svg's net (clockwise, drawing mm) and its fold lines: the
    edges the faces share and the base of each glue tab."""
    f, t = face, face * DIE_TAB
    i = t * 0.8
    points = (
        (t + f, t),
        (t + f + i, 0.0),
        (t + 2 * f - i, 0.0),
        (t + 2 * f, t),  # tab N of face 2
        (2 * t + 2 * f, t + i),
        (2 * t + 2 * f, t + f - i),
        (t + 2 * f, t + f),  # tab E of face 2
        (t + 4 * f, t + f),
        (2 * t + 4 * f, t + f + i),
        (2 * t + 4 * f, t + 2 * f - i),
        (t + 4 * f, t + 2 * f),
        (t + 2 * f, t + 2 * f),
        (2 * t + 2 * f, t + 2 * f + i),
        (2 * t + 2 * f, t + 3 * f - i),  # tab E of 5
        (t + 2 * f, t + 3 * f),
        (t + 2 * f - i, 2 * t + 3 * f),
        (t + f + i, 2 * t + 3 * f),  # tab S of 5
        (t + f, t + 3 * f),
        (f, t + 3 * f - i),
        (f, t + 2 * f + i),
        (t + f, t + 2 * f),  # tab W of 5
        (t, t + 2 * f),
        (t, t + f),
        (t + f, t + f),
        (f, t + f - i),
        (f, t + i),  # face 3, tab W of 2
    )
    folds: list[tuple[Point, Point]] = []
    for row, col in sorted(DIE_NET):
        x, y = t + col * f, t + row * f
        for a, b, neighbour in (
            ((x, y + f), (x + f, y + f), (row + 1, col)),
            ((x + f, y), (x + f, y + f), (row, col + 1)),
        ):
            if neighbour in DIE_NET:
                folds.append((a, b))
    for row, col, side in DIE_TABS:
        x, y = t + col * f, t + row * f
        folds.append(
            {
                "N": ((x, y), (x + f, y)),
                "S": ((x, y + f), (x + f, y + f)),
                "W": ((x, y), (x, y + f)),
                "E": ((x + f, y), (x + f, y + f)),
            }[side]
        )
    return points, tuple(folds)
