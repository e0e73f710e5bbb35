"""A piece's cut outline as data: a closed rectangle, rounded rectangle, circle or polygon in
millimetres (origin at the page's top-left, y down, as the PDF is laid out), with its score
lines. Kerf compensation moves an outline outward by half the kerf (shapely for polygons)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Protocol

from shapely.geometry import Polygon
from shapely.geometry.polygon import orient

Point = tuple[float, float]
Segment = tuple[Point, Point]
SHAPES = ("rect", "rounded", "circle", "polygon")
ARC_STEPS = 16  # points of a quarter circle where an outline must be a polygon (shapely, previews)


@dataclass(frozen=True)
class Outline:
    """One piece's closed cut path. (x, y, w, h) is its bounding box; `radius` the corner radius
    of a rounded rectangle or a circle's radius (a circle fills its box); `points` a polygon's
    corners in order; `folds` its score lines."""

    piece: str
    shape: str
    x: float
    y: float
    w: float
    h: float
    radius: float = 0.0
    points: tuple[Point, ...] = ()
    folds: tuple[Segment, ...] = ()

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"unknown outline shape {self.shape!r}")

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def centre(self) -> Point:
        return self.x + self.w / 2, self.y + self.h / 2

    def moved(self, dx: float, dy: float) -> Outline:
        return replace(self, x=self.x + dx, y=self.y + dy,
                       points=tuple((px + dx, py + dy) for px, py in self.points),
                       folds=tuple(((a + dx, b + dy), (c + dx, d + dy)) for (a, b), (c, d) in self.folds))

    def polygon(self) -> Polygon:
        """The outline as a shapely polygon (arcs as ARC_STEPS points a quarter turn)."""
        if self.shape == "polygon":
            return orient(Polygon(self.points))
        if self.shape == "circle":
            cx, cy = self.centre
            n = 4 * ARC_STEPS
            return Polygon([(cx + self.radius * math.cos(2 * math.pi * k / n),
                             cy + self.radius * math.sin(2 * math.pi * k / n)) for k in range(n)])
        r = min(self.radius, self.w / 2, self.h / 2) if self.shape == "rounded" else 0.0
        if r <= 0:
            return Polygon([(self.x, self.y), (self.right, self.y), (self.right, self.bottom), (self.x, self.bottom)])
        pts: list[Point] = []
        for cx, cy, start in ((self.right - r, self.y + r, -90), (self.right - r, self.bottom - r, 0),
                              (self.x + r, self.bottom - r, 90), (self.x + r, self.y + r, 180)):
            for k in range(ARC_STEPS + 1):
                a = math.radians(start + 90 * k / ARC_STEPS)
                pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        return Polygon(pts)


class Placed(Protocol):
    """What the kit records of a piece placed on a page (render.imposition.Placement)."""

    @property
    def piece(self) -> str: ...
    @property
    def shape(self) -> str: ...
    @property
    def radius(self) -> float: ...
    @property
    def points(self) -> tuple[Point, ...]: ...
    @property
    def folds(self) -> tuple[Segment, ...]: ...
    @property
    def page(self) -> int: ...


def from_placement(placed: Placed, trim: tuple[float, float, float, float]) -> Outline:
    """The outline of a placed piece; `trim` is its bounding box (x, y, w, h) in page mm."""
    x, y, w, h = trim
    radius = min(w, h) / 2 if placed.shape == "circle" and not placed.radius else placed.radius
    return Outline(placed.piece, placed.shape, x, y, w, h, radius=radius, points=tuple(placed.points),
                   folds=tuple(placed.folds))


def offset(outline: Outline, distance: float) -> Outline:
    """The outline moved outward by `distance` mm (inward if negative): a rectangle stays a
    rectangle with mitred (square) corners, a rounded rectangle's and a circle's radius grow by
    it (arcs stay arcs), a polygon is offset by shapely with mitred corners. Score lines stay."""
    if distance == 0:
        return outline
    d = distance
    if outline.shape in ("rect", "rounded"):
        radius = max(0.0, outline.radius + d) if outline.shape == "rounded" else 0.0
        return replace(outline, x=outline.x - d, y=outline.y - d, w=outline.w + 2 * d, h=outline.h + 2 * d,
                       radius=radius)
    if outline.shape == "circle":
        return replace(outline, x=outline.x - d, y=outline.y - d, w=outline.w + 2 * d, h=outline.h + 2 * d,
                       radius=outline.radius + d)
    grown = outline.polygon().buffer(d, join_style="mitre", mitre_limit=10.0)
    if not isinstance(grown, Polygon) or grown.is_empty:
        raise ValueError(f"the outline of {outline.piece} does not survive an offset of {d} mm")
    grown = orient(grown.simplify(1e-6))
    coords = [(round(px, 6), round(py, 6)) for px, py in grown.exterior.coords[:-1]]
    minx, miny, maxx, maxy = grown.bounds
    return replace(outline, x=minx, y=miny, w=maxx - minx, h=maxy - miny, points=tuple(coords))


def kerf(outline: Outline, kerf_mm: float) -> Outline:
    """What the blade or beam must follow so the piece keeps its size: half the kerf outside."""
    return offset(outline, kerf_mm / 2)
