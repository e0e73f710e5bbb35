"""Pieces as geometry, in millimetres with the origin at the top-left and y pointing down: page
rectangles, a piece's trim outline inside its own drawing, the record of a piece placed on a
page, and the offsets (kerf, bleed) of a placed outline.

Every output reads these: the PDF records a `Placement` for each piece it lays out, cut files
follow the placements' outlines (kerf compensated with `kerf`), print-shop die lines draw the
catalogue's `Outline`. A leaf module: it imports nothing of boardgen, and shapely only when a
polygon is offset or drawn as one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shapely.geometry import Polygon

Point = tuple[float, float]
Segment = tuple[Point, Point]
SHAPES = ("rect", "rounded", "circle", "polygon")
ARC_STEPS = 16  # points of a quarter circle where an outline must be a polygon (shapely, previews)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def inset(self, d: float) -> Rect:
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)


@dataclass(frozen=True)
class Outline:
    """A piece's trim outline in mm of its own drawing (origin at the drawing's top-left, y
    down): a rectangle (`rect`), a rectangle with rounded corners (`rounded`, `radius`), a
    circle (`circle`, filling the box) or a polygon (`points`), the box being the drawing
    less `inset` on every side (a card's bleed, a disc's margin). `folds` are fold or score
    lines, drawing mm."""

    shape: str = "rect"
    inset: float = 0.0
    radius: float = 0.0
    points: tuple[Point, ...] = ()
    folds: tuple[Segment, ...] = ()

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"unknown outline shape {self.shape!r}")

    def trim(self, w: float, h: float) -> tuple[float, float]:
        """The box of the trim inside a w x h drawing: the drawing less `inset` on every side
        (for a polygon, the box its points are drawn in)."""
        return w - 2 * self.inset, h - 2 * self.inset


@dataclass(frozen=True)
class Placement:
    """One piece as placed on one page of a kit: what its cut files (plotter, laser) and
    print-shop files read, so every tool cuts what the PDF prints.

    `piece` is its id as `--only` takes it (``tile:07``, ``card:book``, ``token:5``,
    ``pawn:red``, ``block:A6``, ``die:1``, ``wand:red-1``, ``board:2`` for a board sheet),
    `kind` the piece kind (the part before the colon), `stock` the stock its page is printed
    on (``card`` or ``paper``), `page` the 0-based index of the page among the kit's pages
    (before a reprint drops any). `trim` is the bounding box of the trim outline in page mm
    (origin top-left, y down); `shape` says what the outline is inside it: ``rect``,
    ``rounded`` (corner `radius`), ``circle`` (radius `radius`, centred in `trim`) or
    ``polygon`` (`points`, page mm, clockwise on the page). `bleed` is how far the art runs
    past the trim (mm), `rotation` the quarter turns the drawing was placed with (degrees,
    counter-clockwise on the page), `folds` the fold or score lines in page mm."""

    piece: str
    kind: str
    stock: str
    page: int
    shape: str
    trim: Rect
    radius: float = 0.0
    points: tuple[Point, ...] = ()
    bleed: float = 0.0
    rotation: int = 0
    folds: tuple[Segment, ...] = ()

    @property
    def x(self) -> float:
        return self.trim.x

    @property
    def y(self) -> float:
        return self.trim.y

    @property
    def w(self) -> float:
        return self.trim.w

    @property
    def h(self) -> float:
        return self.trim.h

    @property
    def right(self) -> float:
        return self.trim.right

    @property
    def bottom(self) -> float:
        return self.trim.bottom

    @property
    def centre(self) -> Point:
        return self.trim.x + self.trim.w / 2, self.trim.y + self.trim.h / 2

    def moved(self, dx: float, dy: float) -> Placement:
        t = self.trim
        return replace(
            self,
            trim=Rect(t.x + dx, t.y + dy, t.w, t.h),
            points=tuple((px + dx, py + dy) for px, py in self.points),
            folds=tuple(((a + dx, b + dy), (c + dx, d + dy)) for (a, b), (c, d) in self.folds),
        )

    def polygon(self) -> Polygon:
        """The outline as a shapely polygon (arcs as ARC_STEPS points a quarter turn)."""
        from shapely.geometry import Polygon
        from shapely.geometry.polygon import orient

        if self.shape == "polygon":
            return orient(Polygon(self.points))
        if self.shape == "circle":
            cx, cy = self.centre
            n = 4 * ARC_STEPS
            return Polygon(
                [
                    (cx + self.radius * math.cos(2 * math.pi * k / n), cy + self.radius * math.sin(2 * math.pi * k / n))
                    for k in range(n)
                ]
            )
        r = min(self.radius, self.w / 2, self.h / 2) if self.shape == "rounded" else 0.0
        if r <= 0:
            return Polygon([(self.x, self.y), (self.right, self.y), (self.right, self.bottom), (self.x, self.bottom)])
        pts: list[Point] = []
        for cx, cy, start in (
            (self.right - r, self.y + r, -90),
            (self.right - r, self.bottom - r, 0),
            (self.x + r, self.bottom - r, 90),
            (self.x + r, self.y + r, 180),
        ):
            for k in range(ARC_STEPS + 1):
                a = math.radians(start + 90 * k / ARC_STEPS)
                pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        return Polygon(pts)


def to_page(point: Point, w: float, h: float, x: float, y: float, *, rotate: int = 0, scale: float = 1.0) -> Point:
    """Where a point of a w x h drawing lands when placed with its top-left corner at (x, y)
    (PdfKit.place): turned by `rotate` (0, 90, 180, 270) and scaled."""
    u, v = point
    if rotate == 90:  # the drawing's top to the page's left
        return x + v * scale, y + (w - u) * scale
    if rotate == 180:
        return x + (w - u) * scale, y + (h - v) * scale
    if rotate == 270:  # the drawing's top to the page's right
        return x + (h - v) * scale, y + u * scale
    return x + u * scale, y + v * scale


def placement(
    piece: str,
    kind: str,
    outline: Outline,
    w: float,
    h: float,
    x: float,
    y: float,
    *,
    stock: str,
    page: int,
    rotate: int = 0,
    scale: float = 1.0,
    bleed: float = 0.0,
) -> Placement:
    """The record of a w x h drawing with this outline placed like PdfKit.place places it."""

    def move(p: Point) -> Point:
        return to_page(p, w, h, x, y, rotate=rotate, scale=scale)

    i = outline.inset
    if outline.shape == "polygon":
        points = tuple(move(p) for p in outline.points)
    else:
        points = (move((i, i)), move((w - i, h - i)))
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    trim = Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    radius = trim.w / 2 if outline.shape == "circle" else outline.radius * scale
    folds = tuple((move(a), move(b)) for a, b in outline.folds)
    return Placement(
        piece,
        kind,
        stock,
        page,
        outline.shape,
        trim,
        radius,
        points if outline.shape == "polygon" else (),
        bleed * scale,
        rotate,
        folds,
    )


def offset(placed: Placement, distance: float) -> Placement:
    """The outline moved outward by `distance` mm (inward if negative): a rectangle stays a
    rectangle with mitred (square) corners, a rounded rectangle's and a circle's radius grow by
    it (arcs stay arcs), a polygon is offset by shapely with mitred corners. Score lines stay."""
    if distance == 0:
        return placed
    d = distance
    grown_trim = Rect(placed.x - d, placed.y - d, placed.w + 2 * d, placed.h + 2 * d)
    if placed.shape in ("rect", "rounded"):
        radius = max(0.0, placed.radius + d) if placed.shape == "rounded" else 0.0
        return replace(placed, trim=grown_trim, radius=radius)
    if placed.shape == "circle":
        return replace(placed, trim=grown_trim, radius=placed.radius + d)
    from shapely.geometry import Polygon
    from shapely.geometry.polygon import orient

    grown = placed.polygon().buffer(d, join_style="mitre", mitre_limit=10.0)
    if not isinstance(grown, Polygon) or grown.is_empty:
        raise ValueError(f"the outline of {placed.piece} does not survive an offset of {d} mm")
    grown = orient(grown.simplify(1e-6))
    coords = [(round(px, 6), round(py, 6)) for px, py in grown.exterior.coords[:-1]]
    minx, miny, maxx, maxy = grown.bounds
    return replace(placed, trim=Rect(minx, miny, maxx - minx, maxy - miny), points=tuple(coords))


def kerf(placed: Placement, kerf_mm: float) -> Placement:
    """What the blade or beam must follow so the piece keeps its size: half the kerf outside."""
    return offset(placed, kerf_mm / 2)
