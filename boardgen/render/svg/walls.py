"""Moving-walls pieces as SVG: the board with its white centre, coloured corners and labelled
block outlines, and each wall block as a cut-out piece at the board's exact scale."""

from __future__ import annotations

from typing import Any

from boardgen.data.colours import contrast_ratio
from boardgen.data.theme import Theme
from boardgen.model.walls import Block, Cell, WallsLayout
from boardgen.render.svg.base import Sheet, _r, draw_symbol, new_sheet

# The block outlines are mauve, as in the source; a theme may set its own `block_outline`.
MAUVE = "#8e5aa6"


def outline_colour(theme: Theme) -> str:
    colour: str = theme.palette.get("block_outline", MAUVE)
    return colour


LABEL_CONTRAST = 4.5  # WCAG AA for text: a block's label against its tinted outline on the board


def legible(colour: str, background: str, ink: str, ratio: float = LABEL_CONTRAST) -> str:
    """`colour`, darkened towards `ink` just enough to stand `ratio` : 1 against `background`
    (the same hue, so the label still reads as its outline's)."""
    for step in range(21):
        found = mix(ink, colour, step / 20)
        if contrast_ratio(found, background) >= ratio:
            return found
    return ink


def mix(colour: str, base: str, share: float) -> str:
    """`share` of `colour` over `base` (both #rrggbb), as one opaque colour: PDF converters
    do not all keep SVG opacity."""
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(base[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * share + y * (1 - share)):02x}" for x, y in zip(a, b, strict=True))


def outline_loops(cells: tuple[Cell, ...] | list[Cell]) -> list[list[Cell]]:
    """The outer edge of a polyomino (cell edges the block does not share with itself) as
    loops of (row, col) corners, clockwise, without the corners where the edge goes straight on."""
    own = set(cells)
    edges: dict[tuple[int, int], tuple[int, int]] = {}
    for r, c in own:
        # Each edge runs clockwise around its cell, so the outline comes out clockwise.
        if (r - 1, c) not in own:
            edges[(r, c)] = (r, c + 1)
        if (r, c + 1) not in own:
            edges[(r, c + 1)] = (r + 1, c + 1)
        if (r + 1, c) not in own:
            edges[(r + 1, c + 1)] = (r + 1, c)
        if (r, c - 1) not in own:
            edges[(r + 1, c)] = (r, c)
    loops = []
    while edges:
        start = min(edges)
        point = start
        corners = [start]
        while True:
            point = edges.pop(point)
            if point == start:
                break
            corners.append(point)
        loops.append(
            [p for i, p in enumerate(corners) if not _collinear(corners[i - 1], p, corners[(i + 1) % len(corners)])]
        )
    return loops


BLOCK_MARGIN_MM = 0.5  # room around a block's squares in its drawing, for the whole cut line
BEVEL_MM = 1.0  # the light band inside a block's edge that marks its top


def block_outline(block: Block, pitch: float) -> tuple[tuple[float, float], ...]:
    """A block's cut outline in mm of its drawing (block_svg), clockwise."""
    top = min(r for r, _ in block.cells)
    left = min(c for _, c in block.cells)
    loop = outline_loops([(r - top, c - left) for r, c in block.cells])[0]
    m = BLOCK_MARGIN_MM
    return tuple((m + c * pitch, m + r * pitch) for r, c in loop)


def outline_path(cells: tuple[Cell, ...] | list[Cell], pitch: float, x0: float, y0: float) -> str:
    """The outer edge of a polyomino as one closed path, walked corner to corner."""
    parts = []
    for kept in outline_loops(cells):
        parts.append("M" + "L".join(f"{_r(x0 + c * pitch)} {_r(y0 + r * pitch)}" for r, c in kept) + "Z")
    return "".join(parts)


def _collinear(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> bool:
    return (a[0] == b[0] == c[0]) or (a[1] == b[1] == c[1])


def seam_zones(layout: WallsLayout) -> tuple[tuple[float, float], ...]:
    """Sheet seams may run only along square edges, never through a label."""
    return tuple((layout.border_mm + k * layout.pitch_mm,) * 2 for k in range(layout.size + 1))


def board_svg(layout: WallsLayout, theme: Theme, *, lang: str, start: bool = False) -> str:
    """The printed board; with `start`, the blocks and pawns drawn on it as at the start."""
    size, pitch, border = layout.board_mm, layout.pitch_mm, layout.border_mm
    ident = f"{layout.id}-{'start' if start else 'board'}"
    sheet = new_sheet(size, size, theme, lang, id=ident)
    d = sheet.drawing
    d.add(
        d.rect(
            (0, 0),
            (_r(size), _r(size)),
            id="board-frame",
            fill=sheet.colour("frame" if sheet.style("fill_frame") else "paper"),
        )
    )
    inner = layout.size * pitch
    d.add(d.rect((_r(border), _r(border)), (_r(inner), _r(inner)), id="board-floor", fill=sheet.colour("floor")))
    corners = d.g(id="board-corners")
    for colour in layout.colours:
        for r, c in layout.corner(colour):
            corners.add(
                d.rect(
                    (_r(border + c * pitch), _r(border + r * pitch)),
                    (_r(pitch), _r(pitch)),
                    id=f"corner-{colour}-{r}-{c}",
                    fill=theme.player(colour),
                )
            )
            draw_symbol(
                sheet,
                corners,
                colour,
                cx=border + (c + 0.5) * pitch,
                cy=border + (r + 0.5) * pitch,
                size=pitch * 0.36,
                id=f"corner-{colour}-{r}-{c}",
            )
    d.add(corners)
    centre = sorted(layout.centre)
    (top, left), span = centre[0], layout.centre_size * pitch
    d.add(
        d.rect(
            (_r(border + left * pitch), _r(border + top * pitch)),
            (_r(span), _r(span)),
            id="board-centre",
            fill=sheet.colour("paper"),
        )
    )
    d.add(_grid(sheet, layout))
    d.add(
        d.rect(
            (_r(border + left * pitch), _r(border + top * pitch)),
            (_r(span), _r(span)),
            id="board-centre-edge",
            fill="none",
            stroke=sheet.colour("ink"),
            stroke_width=sheet.stroke("frame_edge") * 2,
        )
    )
    outlines = d.g(id="board-blocks")
    for block in layout.blocks:
        _outline(sheet, outlines, layout, block, filled=start)
    d.add(outlines)
    if start:
        d.add(_pawns(sheet, layout))
    sheet.text(
        d,
        layout.title[lang],
        x=border,
        y=border * 0.72,
        size=border * 0.55,
        role="title",
        weight="bold",
        fill="frame_text",
        anchor="start",
        width=size * 0.42,
        id="board-title",
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


def _grid(sheet: Sheet, layout: WallsLayout) -> Any:
    pitch, border, n = layout.pitch_mm, layout.border_mm, layout.size
    end = border + n * pitch
    lines = [f"M{_r(border + k * pitch)} {_r(border)}V{_r(end)}" for k in range(n + 1)]
    lines += [f"M{_r(border)} {_r(border + k * pitch)}H{_r(end)}" for k in range(n + 1)]
    return sheet.drawing.path(
        " ".join(lines),
        id="board-grid",
        fill="none",
        stroke=sheet.colour("floor_edge"),
        stroke_width=sheet.stroke("tile_edge"),
    )


def _outline(sheet: Sheet, parent: Any, layout: WallsLayout, block: Block, *, filled: bool) -> None:
    """A block's place on the board: its mauve outline (or, at the start, the block itself)
    and its label on the square nearest its middle."""
    pitch, border = layout.pitch_mm, layout.border_mm
    mauve = outline_colour(sheet.theme)
    group = sheet.drawing.g(id=f"block-{block.id}")
    path = outline_path(block.cells, pitch, border, border)
    tint = mix(mauve, sheet.colour("floor"), 0.18)
    if filled:
        group.add(
            sheet.drawing.path(
                path,
                id=f"block-{block.id}-piece",
                fill=_block_fill(sheet),
                stroke=sheet.colour("wall_edge"),
                stroke_width=sheet.stroke("frame_edge"),
            )
        )
    else:
        group.add(sheet.drawing.path(path, id=f"block-{block.id}-tint", fill=tint))
        inset = sheet.stroke("frame_edge") * 1.5
        group.add(
            sheet.drawing.path(
                path,
                id=f"block-{block.id}-outline",
                fill="none",
                stroke=mauve,
                stroke_width=inset * 2,
                stroke_linejoin="miter",
            )
        )
    r, c = block.label_cell
    label = _label_colour(sheet) if filled else legible(mauve, tint, sheet.colour("ink"))
    sheet.text(
        group,
        block.id,
        x=border + (c + 0.5) * pitch,
        y=border + (r + 0.5) * pitch + pitch * 0.14,
        size=pitch * 0.4,
        weight="bold",
        fill=label,
        width=pitch * 0.8,
        id=f"block-{block.id}-label",
    )
    parent.add(group)


def _block_fill(sheet: Sheet) -> str:
    return sheet.colour("wall" if sheet.style("fill_walls") else "paper")


def _label_colour(sheet: Sheet) -> str:
    return "frame_text" if sheet.style("fill_walls") else "ink"


def _pawns(sheet: Sheet, layout: WallsLayout) -> Any:
    pitch, border = layout.pitch_mm, layout.border_mm
    group = sheet.drawing.g(id="board-pawns")
    for colour in layout.colours:
        for k, (r, c) in enumerate(layout.starts(colour), start=1):
            cx, cy = border + (c + 0.5) * pitch, border + (r + 0.5) * pitch
            group.add(
                sheet.drawing.circle(
                    (_r(cx), _r(cy)),
                    _r(layout.pawn_diameter_mm / 2),
                    id=f"pawn-{colour}-{k}",
                    fill=sheet.theme.player(colour),
                    stroke=sheet.colour("ink"),
                    stroke_width=sheet.stroke("corridor_edge"),
                )
            )
            draw_symbol(
                sheet, group, colour, cx=cx, cy=cy, size=layout.pawn_diameter_mm * 0.45, id=f"pawn-{colour}-{k}"
            )
    return group


def block_svg(block: Block, layout: WallsLayout, theme: Theme, *, lang: str) -> str:
    """A block to cut out: exactly its squares at the board's pitch, filled like a wall, with
    its label (the same as on its outline on the board) and a solid cut line, whole on every
    edge (the drawing reaches BLOCK_MARGIN_MM past the squares so no half of it is clipped)."""
    pitch = layout.pitch_mm
    top = min(r for r, _ in block.cells)
    left = min(c for _, c in block.cells)
    cells = [(r - top, c - left) for r, c in block.cells]
    ident = f"piece-{block.id}"
    m = BLOCK_MARGIN_MM
    sheet = new_sheet(block.cols * pitch + 2 * m, block.rows * pitch + 2 * m, theme, lang, id=ident)
    d = sheet.drawing
    d.viewbox(_r(-m), _r(-m), _r(block.cols * pitch + 2 * m), _r(block.rows * pitch + 2 * m))
    path = outline_path(cells, pitch, 0, 0)
    d.add(d.path(path, id=f"{ident}-face", fill=_block_fill(sheet)))
    # Faint square lines help to line the block up with its outline.
    inner = [f"M{_r(c * pitch)} {_r(r * pitch)}h{_r(pitch)}v{_r(pitch)}h{_r(-pitch)}Z" for r, c in cells]
    d.add(
        d.path(
            "".join(inner),
            id=f"{ident}-squares",
            fill="none",
            stroke=sheet.colour("wall_edge"),
            stroke_width=sheet.stroke("corridor_edge"),
            stroke_opacity=0.5,
        )
    )
    # Its top: a light bevel inside the edge (half the stroke; the other half is cut away),
    # so the printed side is the one that lies up, as its outline on the board shows it.
    wall = _block_fill(sheet)
    d.add(
        d.path(
            path,
            id=f"{ident}-bevel",
            fill="none",
            stroke=mix(sheet.colour("paper"), wall, 0.45) if sheet.style("fill_walls") else sheet.colour("muted"),
            stroke_width=BEVEL_MM * 2,
        )
    )
    label_r, label_c = block.label_cell
    sheet.text(
        d,
        block.id,
        x=(label_c - left + 0.5) * pitch,
        y=(label_r - top + 0.5) * pitch + pitch * 0.14,
        size=pitch * 0.4,
        weight="bold",
        fill=_label_colour(sheet),
        width=pitch * 0.8,
        id=f"{ident}-label",
    )
    d.add(
        d.path(path, id=f"{ident}-cut", fill="none", stroke=sheet.colour("ink"), stroke_width=sheet.stroke("cut_line"))
    )
    return str(d.tostring())
