"""`boardgen export GAME --for 3d`: every piece of a kit as a solid to 3D-print and play by
touch, written into ``<kit folder>/3d/`` (replaced whole, like a print service's folder).

Each solid is built from the kit's piece catalogue (its outline, its colour and marking) and
the game's model (a tile's corridors, a track's fields, a block's cells):

- corridor tiles (classic, Master): a base with walls raised along the corridors (the mask
  of the model's tile), the treasure's number in braille on the corridor floor; the board a
  plate with a rim the loose tiles sit in (open where the sliding lines run out), the fixed
  tiles built onto it;
- race boards (King Minos, Le Grand Labyrinthe): a plate, every field sunk between walls
  (whatever is no field is wall), a low ridge round each field, a full wall between touching
  fields that do not follow each other, each field's number in braille and a field with an
  effect a pattern of large dots of its own (`EFFECT_DOTS`);
- walls: every block a solid of its polyomino outline; the board with the grid engraved
  and each block's start engraved deeper;
- pawns a disc (the catalogue's outline) with a knob of their colour's shape (`SHAPES`);
  numbered pieces one small dot per unit round the knob; dice with their pips sunk in;
  cards, tokens and wands a slab of their outline with their name, value or number in
  braille.

A board larger than the bed is split along its cell edges into parts joined by dovetails.
Files: ``pieces/<file>.stl`` and ``.3mf`` (one per piece design, in its drawing's mm, y up),
``plates/plate-NN.3mf`` and ``.stl`` (every copy the game uses laid out on printer beds),
``braille/rules.brf`` (the rules, embossable), ``manifest.csv`` and ``report.json``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardgen.errors import UsageError
from boardgen.export import solids as so
from boardgen.export.braille import Translator, brf, translator
from boardgen.kits.catalogue import Catalogue, PieceDesign

if TYPE_CHECKING:
    from manifold3d import CrossSection, Manifold

    from boardgen.model.race import TrackGraph
    from boardgen.model.sliding import SlidingLayout
    from boardgen.model.tiles import Tile
    from boardgen.model.walls import WallsLayout

SERVICE = "3d"
BED_MM = (220.0, 220.0)
BED_LIMITS = (40.0, 2000.0)
PLATE_MARGIN_MM = 5.0  # kept clear round a bed's edge
PLATE_GAP_MM = 4.0  # between pieces on a plate
CLEARANCE_MM = 0.2  # each side of a loose tile in its slot, of a dovetail in its socket
RIM_MM = 1.0  # how far a board's rim stands above the loose tiles' base
RIDGE_MM = (1.0, 1.0)  # a field's ridge: width, height
PAWN_BASE_MM = 2.0
KNOB_MM = 12.0
SLAB_MM = 1.2  # a card's thickness
TOKEN_MM = 2.4  # a token's, a wand's
GROOVES_MM = ((0.6, 0.3), (1.2, 0.8))  # engraved on the walls board: grid, block starts (width, depth)
TAB_MM = (6.0, 10.0, 5.0)  # a dovetail: neck, head, depth
# A board is cut this far past a cell edge: inside a ridge or a rim, never on a face of the
# solid (a cut on a face would leave the parts touching along an edge: no longer two-manifold).
CUT_OFFSET_MM = 0.45
# A player colour's shape, felt on the pawn's knob and on its start: the theme's symbol for the
# colour (the one printed beside it), else this one.
SHAPES = {
    "red": "circle",
    "yellow": "square",
    "green": "triangle",
    "blue": "cross",
    "white": "hexagon",
    "black": "star",
}
SHAPE_ORDER = ("circle", "square", "triangle", "cross", "hexagon", "star", "diamond")
# A field effect's large dots, on a 3 x 2 grid (column, row) 3.5 mm apart.
EFFECT_DOTS: dict[str, tuple[tuple[int, int], ...]] = {
    "sanctuary": ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)),
    "jump": ((0, 1), (1, 0), (2, 1)),
    "tunnel": ((0, 0), (2, 0), (0, 1), (2, 1)),
    "lose_turns": ((0, 0), (1, 0), (2, 0)),
    "exact": ((1, 0),),
    "draw_card": ((0, 0), (2, 1)),
    "back_to_start": ((0, 0), (1, 1), (2, 0)),
    "again": ((0, 0), (1, 0)),
    "move_on": ((0, 1), (1, 1), (2, 1)),
    "stuck": ((0, 0), (1, 1)),
}
EFFECT_DOT_MM = (2.0, 3.5, 0.8)  # diameter, spacing, height: larger than braille, told apart by touch
PLA_G_CM3 = 1.24
FILAMENT_MM = 1.75


@dataclass(frozen=True)
class MeshOptions:
    """What `export --for 3d` builds: the printer's bed (mm), the tiles' base and the walls'
    height (mm), and the language of the braille (None: the kit's)."""

    bed: tuple[float, float] = BED_MM
    base: float = 1.6
    wall: float = 3.0
    braille: str | None = None


def parse_bed(text: str) -> tuple[float, float]:
    """``220x220`` (mm) as a bed; UsageError naming --bed otherwise."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*", text)
    if match is None:
        raise UsageError(f"--bed {text!r}: give the printer bed as WIDTHxHEIGHT in mm, e.g. 220x220")
    w, h = float(match.group(1)), float(match.group(2))
    low, high = BED_LIMITS
    if not (low <= w <= high and low <= h <= high):
        raise UsageError(f"--bed {text!r}: each side must be {low:g} to {high:g} mm")
    return w, h


def check_options(options: MeshOptions) -> None:
    for name, value, low, high in (("--base", options.base, 0.4, 10.0), ("--wall", options.wall, 0.5, 30.0)):
        if not math.isfinite(value) or not low <= value <= high:
            raise UsageError(f"{name} {value:g}: a height in mm from {low:g} to {high:g}")


@dataclass
class Solid:
    """One printable solid, upright (y up), in its piece's drawing mm: what a file holds."""

    id: str
    name: str
    file: str
    solid: Manifold
    count: int = 1
    notes: list[str] = field(default_factory=list)


@dataclass
class Built:
    pieces: list[Solid]
    skipped: dict[str, str]  # piece id -> why it has no solid
    notes: list[str]


class Maker:
    """Builds the solids of one kit."""

    def __init__(
        self,
        engine: str,
        layout: Any,
        catalogue: Catalogue,
        options: MeshOptions,
        tr: Translator,
        lang: str,
        corridor: float,
        symbols: dict[str, str],
    ) -> None:
        self.engine, self.layout, self.catalogue, self.options = engine, layout, catalogue, options
        self.tr, self.lang, self.corridor, self.symbols = tr, lang, corridor, symbols
        self.notes: list[str] = []

    # Labels ----------------------------------------------------------------------------------

    def label(
        self, text: str, box: tuple[float, float, float, float], z: float, *, what: str, number: bool = False
    ) -> Manifold | None:
        """`text` in braille centred in the box (x, y, w, h, drawing mm) standing at z; where it
        does not fit, a number drops its number sign and other text its capital signs (a note
        says so); None (and a note) when nothing fits."""
        x, y, w, h = box
        words = self.tr.words(text)
        lines = so.braille_lines(words, w, h)
        if lines is None and number and words and len(words[0]) > 1:
            lines = so.braille_lines([words[0][1:]], w, h)
            if lines is not None:
                self.notes.append(f"{what}: number {text} without its number sign (no room)")
        if lines is None and text != text.lower():
            lines = so.braille_lines(self.tr.words(text.lower()), w, h)
            if lines is not None:
                self.notes.append(f"{what}: {text!r} without capital signs (no room)")
        if lines is None:
            self.notes.append(f"{what}: no room for {text!r} in braille")
            return None
        return so.braille(lines, x + w / 2, y + h / 2, z)

    def shape_of(self, colour: str) -> str:
        """The tactile shape of a player colour: the theme's symbol for it (if the theme draws
        symbols and every colour has its own), else `SHAPES`'s, else the next unused one."""
        colours = sorted({p.colour for p in self.catalogue if p.colour})
        themed = [self.symbols.get(c) for c in colours]
        if all(s in SHAPE_ORDER for s in themed) and len(set(themed)) == len(themed) and colour in self.symbols:
            return self.symbols[colour]
        if colour in SHAPES:
            return SHAPES[colour]
        colours = sorted({p.colour for p in self.catalogue if p.colour} - set(SHAPES))
        return SHAPE_ORDER[(len(SHAPES) + colours.index(colour)) % len(SHAPE_ORDER)]

    # Corridor tiles --------------------------------------------------------------------------

    def treasure_numbers(self) -> dict[str, int]:
        return {t.id: k for k, t in enumerate(self.layout.treasures, start=1)}

    def tile(self, tile: Tile, size: float) -> Manifold:
        """A corridor tile in drawing mm: base, walls wherever the corridor is not, its
        treasure's number (or its start's shape) on the floor."""
        from boardgen.render.svg.sliding import corridor_outline

        base, wall = self.options.base, self.options.wall
        width = size * self.corridor
        floor = so.section(corridor_outline(tile.mask, size, width))
        parts = [
            so.prism(so.rect(0, 0, size, size), base),
            so.prism(so.rect(0, 0, size, size) - floor, wall + so.SINK_MM, base - so.SINK_MM),
        ]
        a = (size - width) / 2
        if tile.treasure is not None:
            number = self.treasure_numbers()[tile.treasure]
            mark = self.label(str(number), (a, a, width, width), base, what=f"{tile.id}", number=True)
            if mark is not None:
                parts.append(mark)
        elif tile.start is not None:
            mark_cs = so.shape_mark(self.shape_of(tile.start), width * 0.55).translate((size / 2, size / 2))
            parts.append(so.prism(mark_cs, 0.8 + so.SINK_MM, base - so.SINK_MM))
        return so.union(parts)

    def sliding_tile(self, piece: PieceDesign) -> Manifold:
        tile = next(t for t in self.layout.loose if t.id == piece.key)
        return self.tile(tile, piece.size[0])

    def sliding_board(self, piece: PieceDesign) -> Manifold:
        layout: SlidingLayout = self.layout
        size, frame, pitch, n = layout.board_mm, layout.frame_mm, layout.pitch_mm, layout.size
        plate_h = board_plate(self.options)
        rim = so.rect(0, 0, size, size) - so.rect(frame, frame, n * pitch, n * pitch)
        for line in layout.sliding_lines:  # the rim is open where a line's tiles are pushed out
            at, gap = frame + line * pitch - CLEARANCE_MM, pitch + 2 * CLEARANCE_MM
            rim = rim - so.rect(at, -1, gap, frame + 2) - so.rect(at, size - frame - 1, gap, frame + 2)
            rim = rim - so.rect(-1, at, frame + 2, gap) - so.rect(size - frame - 1, at, frame + 2, gap)
        parts = [
            so.prism(so.rect(0, 0, size, size), plate_h),
            so.prism(rim, self.options.base + RIM_MM + so.SINK_MM, plate_h - so.SINK_MM),
        ]
        inset = so.prism(
            so.rect(CLEARANCE_MM, CLEARANCE_MM, pitch - 2 * CLEARANCE_MM, pitch - 2 * CLEARANCE_MM), 100.0, -1.0
        )
        for (row, col), tile in sorted(layout.fixed.items()):
            solid = (self.tile(tile, pitch) ^ inset).translate(
                (frame + col * pitch, frame + row * pitch, plate_h - so.SINK_MM)
            )
            parts.append(solid)
        return so.union(parts)

    # Race boards -----------------------------------------------------------------------------

    def race_board(self, piece: PieceDesign, graph: TrackGraph) -> Manifold:
        from shapely.geometry import Polygon

        size_w, size_h = piece.size
        plate_h, wall = board_plate(self.options), self.options.wall
        polys = {n.index: Polygon(n.shape.outline()) for n in graph.nodes}
        path = so.union_cs([so.section(n.shape.outline()) for n in graph.nodes])
        parts = [
            so.prism(so.rect(0, 0, size_w, size_h), plate_h),
            so.prism(so.rect(0, 0, size_w, size_h) - path, wall + so.SINK_MM, plate_h - so.SINK_MM),
        ]
        ridge_w, ridge_h = RIDGE_MM
        for node in graph.nodes:
            cs = so.section(node.shape.outline())
            parts.append(
                so.prism(cs - cs.offset(-ridge_w, so.lib().JoinType.Miter), ridge_h + so.SINK_MM, plate_h - so.SINK_MM)
            )
        # A full wall between touching fields that do not follow one another.
        for a in graph.nodes:
            for b in graph.nodes:
                if b.index <= a.index or b.index in a.next or a.index in b.next:
                    continue
                shared = polys[a.index].boundary.intersection(polys[b.index].boundary)
                if shared.length > 1.0:
                    bar = shared.buffer(ridge_w, cap_style="flat")
                    parts.append(so.prism(so.from_shapely(bar), wall + so.SINK_MM, plate_h - so.SINK_MM))
        floor = plate_h
        dot_d, dot_pitch, dot_h = EFFECT_DOT_MM
        for node in graph.nodes:
            left, top, right, bottom = node.shape.box
            inner = ridge_w + 0.8
            x, y, w, h = left + inner, top + inner, right - left - 2 * inner, bottom - top - 2 * inner
            kinds = [e.kind for e in node.effects if e.kind in EFFECT_DOTS]
            if kinds:
                pattern = EFFECT_DOTS[kinds[0]]
                cx = x + w / 2
                ys = y + dot_d / 2
                points = [(cx + (c - 1) * dot_pitch, ys + r * dot_pitch) for c, r in pattern]
                parts.append(so.dots_at(points, floor, scale=dot_d / so.DOT_MM))
                pattern_h = dot_pitch + dot_d + 1.0
                y, h = y + pattern_h, h - pattern_h
            mark = self.label(node.label, (x, y, w, h), floor, what=f"field {node.label}", number=node.label.isdigit())
            if mark is not None:
                parts.append(mark)
        return so.union(parts)

    # Walls -----------------------------------------------------------------------------------

    def walls_board(self, piece: PieceDesign) -> Manifold:
        from shapely.geometry import LineString, box
        from shapely.ops import unary_union

        layout: WallsLayout = self.layout
        size, border, pitch, n = layout.board_mm, layout.border_mm, layout.pitch_mm, layout.size
        plate_h = board_plate(self.options) + GROOVES_MM[1][1]
        (grid_w, grid_d), (start_w, start_d) = GROOVES_MM
        lines = []
        for k in range(n + 1):
            at = border + k * pitch
            lines += [LineString([(at, border), (at, size - border)]), LineString([(border, at), (size - border, at)])]
        grid = unary_union([line.buffer(grid_w / 2, cap_style="flat") for line in lines])
        starts = []
        for block in layout.blocks:
            cells = unary_union(
                [
                    box(border + c * pitch, border + r * pitch, border + (c + 1) * pitch, border + (r + 1) * pitch)
                    for r, c in block.cells
                ]
            )
            starts.append(cells.exterior.buffer(start_w / 2, join_style="mitre"))
        solid = so.prism(so.rect(0, 0, size, size), plate_h)
        solid = solid - so.prism(so.from_shapely(grid), grid_d + 1.0, plate_h - grid_d)
        solid = solid - so.prism(so.from_shapely(unary_union(starts)), start_d + 1.0, plate_h - start_d)
        return solid

    # Small pieces ----------------------------------------------------------------------------

    def footprint(self, piece: PieceDesign) -> CrossSection:
        return so.section(so.outline_points(piece.outline, *piece.size))

    def pawn(self, piece: PieceDesign) -> Manifold:
        """A disc (the catalogue's outline; a standee's fold-up net has none: a disc as wide as
        the standee) with a knob of its colour's shape and a dot per unit of its number."""
        if piece.outline.shape == "circle":
            disc = self.footprint(piece)
            (x0, y0), (x1, y1) = disc.bounds()[:2], disc.bounds()[2:]
        else:
            d = min(piece.trim)
            x0, y0, x1, y1 = 0.0, 0.0, d, d
            disc = so.lib().CrossSection.circle(d / 2, so.SEGMENTS).translate((d / 2, d / 2))
        d = x1 - x0
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        knob = so.shape_mark(self.shape_of(piece.colour), d * 0.55).translate((cx, cy))
        parts = [so.prism(disc, PAWN_BASE_MM), so.prism(knob, KNOB_MM + so.SINK_MM, PAWN_BASE_MM - so.SINK_MM)]
        if piece.marking.isdigit():
            count = int(piece.marking)
            radius = d * (0.5 + 0.55 / 2) / 2
            points = [
                (
                    cx + radius * math.cos(math.pi / 2 + 2 * math.pi * k / max(count, 1)),
                    cy - radius * math.sin(math.pi / 2 + 2 * math.pi * k / max(count, 1)),
                )
                for k in range(count)
            ]
            parts.append(so.dots_at(points, PAWN_BASE_MM))
        return so.union(parts)

    def slab(self, piece: PieceDesign, thickness: float, text: str, *, number: bool = False) -> Manifold:
        cs = self.footprint(piece)
        x0, y0, x1, y1 = cs.bounds()
        margin = 3.0
        parts = [so.prism(cs, thickness)]
        if piece.colour:
            mark = so.shape_mark(self.shape_of(piece.colour), min(y1 - y0, 8.0) * 0.8)
            mark = mark.translate((x0 + margin + 4.0, (y0 + y1) / 2))
            parts.append(so.prism(mark, 0.8 + so.SINK_MM, thickness - so.SINK_MM))
            x0 += margin + 8.0
        if text:
            box = (x0 + margin, y0 + margin, x1 - x0 - 2 * margin, y1 - y0 - 2 * margin)
            mark3 = self.label(text, box, thickness, what=piece.id, number=number)
            if mark3 is not None:
                parts.append(mark3)
        return so.union(parts)

    def card_text(self, piece: PieceDesign) -> str:
        if self.engine in ("sliding",):
            numbers = self.treasure_numbers()
            treasure = next((t for t in self.layout.treasures if t.id == piece.key), None)
            if treasure is not None:
                return f"{numbers[treasure.id]} {treasure.name.get(self.lang, treasure.name['en'])}"
        if self.engine == "grand":
            card = next((c for c in self.layout.deck if c.id == piece.key), None)
            if card is not None:
                return str(card.title.get(self.lang, card.title["en"]))
        return piece.name

    def die(self, piece: PieceDesign) -> Manifold:
        """A cube as large as the net's face, its pips sunk in (opposite faces add up to 7)."""
        from boardgen.render.svg.pieces import die_net_face

        m = so.lib()
        s = die_net_face(piece.size[1])
        cube = m.Manifold.cube((s, s, s))
        pip = m.Manifold.sphere(1.4, 16)
        spots = {
            1: [(0, 0)],
            2: [(-1, -1), (1, 1)],
            3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
            5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
        }
        step, c = s * 0.27, s / 2
        holes = []
        faces = {1: (2, s), 6: (2, 0.0), 2: (1, 0.0), 5: (1, s), 3: (0, 0.0), 4: (0, s)}
        for value, (axis, at) in faces.items():
            for u, v in spots[value]:
                point = [c + u * step, c + v * step]
                point.insert(axis, at)
                holes.append(pip.translate((point[0], point[1], point[2])))
        return cube - so.union(holes)

    # All -------------------------------------------------------------------------------------

    def build(self, cut: Callable[[Manifold, PieceDesign], list[tuple[str, Manifold]]]) -> Built:
        out: list[Solid] = []
        skipped: dict[str, str] = {}
        for piece in self.catalogue:
            solid: Manifold | None = None
            kind = piece.kind
            if kind == "board":
                solid = self.board(piece)
            elif kind == "tile":
                solid = self.sliding_tile(piece)
            elif kind == "block":
                solid = so.prism(self.footprint(piece), self.options.base + self.options.wall)
            elif kind == "pawn":
                solid = self.pawn(piece)
            elif kind == "card":
                solid = self.slab(piece, SLAB_MM, self.card_text(piece))
            elif kind == "token":
                solid = self.slab(piece, TOKEN_MM, piece.marking, number=True)
            elif kind == "wand":
                solid = self.slab(piece, TOKEN_MM, "")
            elif kind == "die":
                solid = self.die(piece)
            if solid is None:
                skipped[piece.id] = "printed on paper" if piece.stock == "paper" else "no solid of this kind"
                continue
            upright = so.upright(solid, piece.size[1]) if kind != "die" else solid
            if kind == "board":
                for name, part in cut(upright, piece):
                    out.append(Solid(f"{piece.id}-{name}", f"{piece.name} {name}", f"{piece.file}-{name}", part))
            else:
                out.append(Solid(piece.id, piece.name, piece.file, upright, piece.count))
        return Built(out, skipped, self.notes)

    def board(self, piece: PieceDesign) -> Manifold:
        if self.engine in ("sliding", "master"):
            return self.sliding_board(piece)
        if self.engine == "minos":
            return self.race_board(piece, self.layout.track)
        if self.engine == "grand":
            return self.race_board(piece, self.layout.track())
        return self.walls_board(piece)

    def cell_edges(self) -> tuple[float, float, int]:
        """(offset, pitch, cells) of the board's grid: where it may be cut."""
        layout = self.layout
        offset = layout.frame_mm if self.engine in ("sliding", "master") else layout.border_mm
        if self.engine == "minos":
            return offset, layout.grid.pitch_mm, layout.grid.size
        return offset, layout.pitch_mm, layout.size


def board_plate(options: MeshOptions) -> float:
    """A board's plate: twice a tile's base, so its dovetails hold."""
    return 2 * options.base


# Splitting a board ---------------------------------------------------------------------------


def cuts(length: float, room: float, offset: float, pitch: float, cells: int, *, what: str, bed: str) -> list[float]:
    """Where to cut a board `length` mm long into parts of at most `room` mm (each cut on a cell
    edge; a part with a neighbour after it carries its dovetails' depth too)."""
    edges = [offset + k * pitch + CUT_OFFSET_MM for k in range(1, cells)]
    out = [0.0]
    while length - out[-1] > room:
        fits = [e for e in edges if e > out[-1] + 1e-6 and e - out[-1] + TAB_MM[2] <= room]
        if not fits:
            raise UsageError(
                f"--bed {bed}: {what} cannot be cut on its cell edges ({pitch:g} mm apart) into "
                f"parts that fit the bed less its {PLATE_MARGIN_MM:g} mm margin; give a larger --bed"
            )
        out.append(fits[-1])
    return [*out, length]


def _tabs(at: float, low: float, high: float, centres: list[float], vertical: bool) -> list[CrossSection]:
    """Dovetails on the cut at `at` (x for a vertical cut), pointing to the next part, between
    low and high along the cut, on every other cell centre clear of the ends."""
    neck, head, depth = TAB_MM
    chosen = [c for c in centres if low + head < c < high - head][::2] or [(low + high) / 2]
    out = []
    for c in chosen:
        pts = [
            (at - 0.01, c - neck / 2),
            (at + depth, c - head / 2),
            (at + depth, c + head / 2),
            (at - 0.01, c + neck / 2),
        ]
        out.append(so.section(pts if vertical else [(y, x) for x, y in pts]))
    return out


def split_board(
    solid: Manifold,
    piece: PieceDesign,
    bed: tuple[float, float],
    grid: tuple[float, float, int],
) -> list[tuple[str, Manifold]]:
    """The board (upright) cut on cell edges into parts that fit the bed, joined by dovetails;
    the whole board if it fits."""
    w, h = piece.size
    room_w, room_h = bed[0] - 2 * PLATE_MARGIN_MM, bed[1] - 2 * PLATE_MARGIN_MM
    if w <= room_w and h <= room_h:
        return [("whole", solid)]
    offset, pitch, cells = grid
    # The solid is upright (y up): the grid's cell edges counted from the bottom are h - edge.
    shown = f"{bed[0]:g}x{bed[1]:g}"
    xs = cuts(w, room_w, offset, pitch, cells, what=piece.id, bed=shown)
    ys = cuts(h, room_h, offset, pitch, cells, what=piece.id, bed=shown)
    centres = [offset + (k + 0.5) * pitch for k in range(cells)]
    m = so.lib()
    grown = m.JoinType.Miter
    parts = []
    for j in range(len(ys) - 1):
        for i in range(len(xs) - 1):
            region = so.rect(xs[i], ys[j], xs[i + 1] - xs[i], ys[j + 1] - ys[j])
            if i + 1 < len(xs) - 1:
                region = region + so.union_cs(_tabs(xs[i + 1], ys[j], ys[j + 1], centres, True))
            if j + 1 < len(ys) - 1:
                region = region + so.union_cs(_tabs(ys[j + 1], xs[i], xs[i + 1], centres, False))
            if i > 0:
                region = region - so.union_cs(_tabs(xs[i], ys[j], ys[j + 1], centres, True)).offset(CLEARANCE_MM, grown)
            if j > 0:
                region = region - so.union_cs(_tabs(ys[j], xs[i], xs[i + 1], centres, False)).offset(
                    CLEARANCE_MM, grown
                )
            part = solid ^ so.prism(region, 200.0, -50.0)
            parts.append((f"part-{j * (len(xs) - 1) + i + 1}", part))
    return parts


# Plates --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    piece: Solid
    copy: int
    x: float  # where the solid's origin goes on the bed
    y: float
    turned: bool  # a quarter turn about z
    box: tuple[float, float, float, float]  # on the bed: x0, y0, x1, y1


def plates(items: list[Solid], bed: tuple[float, float]) -> list[list[Placed]]:
    """Every copy of every solid on printer beds, in shelves, `PLATE_GAP_MM` apart and
    `PLATE_MARGIN_MM` from the bed's edge; a solid larger than the bed is a UsageError."""
    room_w, room_h = bed[0] - 2 * PLATE_MARGIN_MM, bed[1] - 2 * PLATE_MARGIN_MM
    copies = []
    for item in items:
        x0, y0, _, x1, y1, _ = item.solid.bounding_box()
        w, h = x1 - x0, y1 - y0
        turned = False
        if w > room_w or h > room_h:
            if h <= room_w and w <= room_h:
                turned, w, h = True, h, w
            else:
                raise UsageError(
                    f"--bed {bed[0]:g}x{bed[1]:g}: {item.id} ({w:.1f} x {h:.1f} mm) does not fit "
                    f"on the bed less its {PLATE_MARGIN_MM:g} mm margin; give a larger --bed"
                )
        for k in range(item.count):
            copies.append((item, k, w, h, turned))
    copies.sort(key=lambda c: (-round(c[3], 3), -round(c[2], 3), c[0].id, c[1]))
    out: list[list[Placed]] = []
    plate: list[Placed] = []
    x = y = shelf = 0.0
    for item, k, w, h, turned in copies:
        if x > 0 and x + w > room_w:
            x, y, shelf = 0.0, y + shelf + PLATE_GAP_MM, 0.0
        if y + h > room_h:
            out.append(plate)
            plate, x, y, shelf = [], 0.0, 0.0, 0.0
        bx, by = PLATE_MARGIN_MM + x, PLATE_MARGIN_MM + y
        x0, y0, _, x1, y1, _ = item.solid.bounding_box()
        if turned:  # (x, y) -> (-y, x): the solid's top edge to the left
            plate.append(Placed(item, k, bx + y1, by - x0, True, (bx, by, bx + w, by + h)))
        else:
            plate.append(Placed(item, k, bx - x0, by - y0, False, (bx, by, bx + w, by + h)))
        x += w + PLATE_GAP_MM
        shelf = max(shelf, h)
    if plate:
        out.append(plate)
    return out


def placed_solid(p: Placed) -> Manifold:
    solid = p.piece.solid.rotate((0.0, 0.0, 90.0)) if p.turned else p.piece.solid
    return solid.translate((p.x, p.y, 0.0))


# The export ----------------------------------------------------------------------------------


def require_manifold() -> None:
    try:
        import manifold3d  # noqa: F401
    except ImportError:
        raise UsageError("export --for 3d needs manifold3d: pip install 'boardgen[3d]'") from None


@dataclass
class MeshResult:
    folder: Path
    files: list[Path]
    report: dict[str, Any]


@dataclass(frozen=True)
class Made:
    """The solids of a kit and what they were made from."""

    built: Built
    catalogue: Catalogue
    braille: Translator
    layout: Any
    rules: list[tuple[str, str]]


def build_solids(game: str, options: Any, mesh: MeshOptions) -> Made:
    """The solids of `game`'s kit (catalogue and model) and its rules, before any file."""
    from boardgen.data.theme import load_theme
    from boardgen.engines import load_game
    from boardgen.kit import draw_kit
    from boardgen.options import check_kit_options

    require_manifold()
    check_options(mesh)
    check_kit_options(options)
    tr = translator(mesh.braille or options.lang)
    engine, layout = load_game(game)
    theme = load_theme(options.theme)
    kit = engine.kit()
    seed = layout.default_seed if options.seed is None else options.seed
    setup = kit.setup(layout, seed)
    drawings = draw_kit(kit, layout, theme, setup, seed, options.lang)
    catalogue = kit.catalogue(layout, drawings)
    maker = Maker(
        engine.name,
        layout,
        catalogue,
        mesh,
        tr,
        options.lang,
        float(theme.style["corridor_width"]),
        dict(theme.symbols),
    )
    grid = maker.cell_edges()
    built = maker.build(lambda solid, piece: split_board(solid, piece, mesh.bed, grid))
    return Made(built, catalogue, tr, layout, kit.rules_text(layout, options.lang))


def export_mesh(game: str, out_root: Path, options: Any, mesh: MeshOptions) -> MeshResult:
    """Write ``<kit>/3d/`` for `game` (see the module docstring)."""
    from boardgen.kits.output import check_output, interruptible, kit_id, write_kit

    require_manifold()
    check_options(mesh)
    from boardgen.engines import load_game

    _, layout0 = load_game(game)
    folder = out_root / kit_id(game, layout0.id)
    check_output(folder, [f"{SERVICE}/"])
    with interruptible() as interrupted:
        made = build_solids(game, options, mesh)
        built = made.built
        placed = plates(built.pieces, mesh.bed)  # a piece too large for the bed is known before any file
        files: dict[str, bytes] = {}
        rows: list[tuple[str, str, str, int]] = []
        report_pieces: dict[str, dict[str, Any]] = {}
        for item in built.pieces:
            vertices, triangles = so.arrays(item.solid)
            title = f"boardgen {made.layout.id} {item.id}"
            files[f"{SERVICE}/pieces/{item.file}.stl"] = so.stl([(vertices, triangles)], title)
            files[f"{SERVICE}/pieces/{item.file}.3mf"] = so.three_mf(
                [(item.id, vertices, triangles, (0.0, 0.0))], title
            )
            rows += [
                (f"pieces/{item.file}.stl", item.id, item.name, item.count),
                (f"pieces/{item.file}.3mf", item.id, item.name, item.count),
            ]
            volume = float(item.solid.volume())
            report_pieces[item.id] = {
                "file": item.file,
                "copies": item.count,
                "triangles": int(len(triangles)),
                "volume_mm3": round(volume, 1),
            }
            interrupted()
        plate_report = []
        for k, plate in enumerate(placed, start=1):
            objects = []
            for p in plate:
                vertices, triangles = so.arrays(placed_solid(p))
                objects.append((f"{p.piece.id}#{p.copy + 1}", vertices, triangles, (0.0, 0.0)))
            name = f"plate-{k:02d}"
            title = f"boardgen {made.layout.id} {name}"
            files[f"{SERVICE}/plates/{name}.3mf"] = so.three_mf(objects, title)
            files[f"{SERVICE}/plates/{name}.stl"] = so.stl([(v, t) for _, v, t, _ in objects], title)
            rows += [(f"plates/{name}.3mf", "plate", name, 1), (f"plates/{name}.stl", "plate", name, 1)]
            plate_report.append(
                {
                    "file": f"plates/{name}.3mf",
                    "pieces": [
                        {"piece": p.piece.id, "copy": p.copy + 1, "box": [round(v, 3) for v in p.box]} for p in plate
                    ],
                }
            )
            interrupted()
        total = sum(v["volume_mm3"] * v["copies"] for v in report_pieces.values())
        grams = total / 1000 * PLA_G_CM3
        metres = total / (math.pi * (FILAMENT_MM / 2) ** 2) / 1000
        files[f"{SERVICE}/braille/rules.brf"] = brf([("h", made.layout.title[options.lang]), *made.rules], made.braille)
        rows.append(("braille/rules.brf", "rules", "rules in braille", 1))
        report = {
            "bed_mm": list(mesh.bed),
            "base_mm": mesh.base,
            "wall_mm": mesh.wall,
            "braille": made.braille.source,
            "braille_unknown_characters": sorted(made.braille.unknown),
            "pieces": report_pieces,
            "plates": plate_report,
            "skipped": built.skipped,
            "notes": built.notes,
            "material": {
                "volume_cm3": round(total / 1000, 1),
                "pla_g_solid": round(grams, 1),
                "filament_m_1.75mm_solid": round(metres, 1),
                "note": "solid volume (100% infill); a slicer's estimate with infill is lower",
            },
        }
        files[f"{SERVICE}/manifest.csv"] = _manifest(rows)
        files[f"{SERVICE}/report.json"] = (json.dumps(report, indent=2, sort_keys=True) + "\n").encode()
        written = write_kit(folder, files, owned=(SERVICE,), before_swap=interrupted)
    return MeshResult(folder / SERVICE, written, report)


def _manifest(rows: list[tuple[str, str, str, int]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["file", "piece", "name", "quantity"])
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def cli_export(
    game: str,
    output: Path,
    options: Any,
    *,
    bed: str,
    base: float,
    wall: float,
    braille: str | None,
    cards: str | None = None,
) -> None:
    """`boardgen export GAME --for 3d`: write the folder, list its files and the notes."""
    import click

    if cards is not None:
        raise UsageError("--cards is for the card services (tgc, mpc, drivethru); --for 3d keeps the layout's sizes")
    mesh = MeshOptions(parse_bed(bed), base, wall, braille)
    result = export_mesh(game, output, options, mesh)
    for path in result.files:
        click.echo(f"{path} ({path.stat().st_size / 1024:.0f} KiB)")
    report = result.report
    material = report["material"]
    click.echo(
        f"3d: {len(report['pieces'])} solids on {len(report['plates'])} plates of {bed} mm, "
        f"{material['volume_cm3']} cm3 (about {material['pla_g_solid']} g of PLA printed solid); "
        f"braille: {report['braille']}"
    )
    for note in report["notes"]:
        click.echo(f"  note: {note}", err=True)
