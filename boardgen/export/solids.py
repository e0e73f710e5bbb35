"""Solids of boardgen's pieces, built with manifold3d (every result of its booleans is a closed
two-manifold): prisms of outlines, braille dots, tactile marks, and the mesh files (binary STL,
3MF) written from them.

Solids are built in a piece's drawing millimetres, x to the right, y down the drawing, z up
(the drawing seen from above), and turned upright (`upright`: y up) before they are written,
so a file shows the piece as the drawing does.
"""

from __future__ import annotations

import io
import math
import zipfile
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from boardgen.export.braille import dots
from boardgen.geometry import Outline, placement

if TYPE_CHECKING:
    from manifold3d import CrossSection, Manifold

Point = tuple[float, float]

SEGMENTS = 64  # of a full circle: a 12 mm radius is within 0.015 mm of the true circle
# Braille of the standard size: dots 1.5 mm across, 2.5 mm apart in a cell, cells 6 mm apart
# and lines 10 mm apart; each dot a dome about 0.6 mm high.
DOT_MM = 1.5
DOT_HEIGHT_MM = 0.6
DOT_PITCH_MM = 2.5
CELL_MM = 6.0
LINE_MM = 10.0
CELL_W_MM = DOT_PITCH_MM + DOT_MM  # one cell's dots, edge to edge
CELL_H_MM = 2 * DOT_PITCH_MM + DOT_MM
HYPHEN = "\u2824"  # dots 3-6
SINK_MM = 0.05  # how far an added feature reaches into the surface it stands on (one solid)


def lib() -> Any:
    """manifold3d, imported when a solid is first built."""
    import manifold3d

    return manifold3d


def section(points: Sequence[Point]) -> CrossSection:
    """A polygon (either orientation) as a cross-section."""
    m = lib()
    return m.CrossSection([list(points)], m.FillRule.NonZero)


def rect(x: float, y: float, w: float, h: float) -> CrossSection:
    return section([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])


def from_shapely(geom: Any) -> CrossSection:
    """A shapely polygon or multipolygon (holes kept) as a cross-section."""
    m = lib()
    parts = getattr(geom, "geoms", [geom])
    out = m.CrossSection()
    for poly in parts:
        if poly.is_empty:
            continue
        rings = [list(poly.exterior.coords)[:-1], *(list(r.coords)[:-1] for r in poly.interiors)]
        out = out + m.CrossSection(rings, m.FillRule.EvenOdd)
    return out


def outline_points(outline: Outline, w: float, h: float) -> list[Point]:
    """A piece's trim outline in its drawing's mm (arcs as points), as the PDF cuts it."""
    placed = placement("piece", "piece", outline, w, h, 0.0, 0.0, stock="card", page=0)
    if placed.shape == "circle":
        cx, cy = placed.centre
        return [
            (
                cx + placed.radius * math.cos(2 * math.pi * k / SEGMENTS),
                cy + placed.radius * math.sin(2 * math.pi * k / SEGMENTS),
            )
            for k in range(SEGMENTS)
        ]
    return [(x, y) for x, y in placed.polygon().exterior.coords[:-1]]


def prism(cs: CrossSection, height: float, z: float = 0.0) -> Manifold:
    return cs.extrude(height).translate((0.0, 0.0, z))


def union(solids: Iterable[Manifold]) -> Manifold:
    m = lib()
    items = [s for s in solids if not s.is_empty()]
    if not items:
        return m.Manifold()
    return m.Manifold.batch_boolean(items, m.OpType.Add)


def union_cs(sections: Iterable[CrossSection]) -> CrossSection:
    m = lib()
    out = m.CrossSection()
    for cs in sections:
        out = out + cs
    return out


def upright(solid: Manifold, height: float) -> Manifold:
    """A solid built in drawing mm (y down) turned so y points up, the drawing's bottom at y=0."""
    return solid.mirror((0.0, 1.0, 0.0)).translate((0.0, height, 0.0))


def _dot() -> Manifold:
    m = lib()
    radius = DOT_MM / 2
    dome = m.Manifold.sphere(radius, 16).scale((1.0, 1.0, (DOT_HEIGHT_MM + SINK_MM) / radius))
    return dome.trim_by_plane((0.0, 0.0, 1.0), 0.0).translate((0.0, 0.0, -SINK_MM))


def dot_positions(cells: str, x: float, y: float) -> list[Point]:
    """The centres of the raised dots of a row of cells whose first dot 1 is at (x, y)
    (drawing mm, y down): dots 1-3 down the left column, 4-6 down the right."""
    out = []
    for i, one in enumerate(cells):
        for d in dots(one):
            col, row = (0, d - 1) if d <= 3 else (1, d - 4)
            out.append((x + i * CELL_MM + col * DOT_PITCH_MM, y + row * DOT_PITCH_MM))
    return out


def row_width(cells: int) -> float:
    """Edge to edge, the dots of a row of `cells` cells (mm)."""
    return (cells - 1) * CELL_MM + CELL_W_MM if cells else 0.0


def braille_lines(words: list[str], width: float, height: float) -> list[str] | None:
    """Braille words set in lines no wider than `width` mm, as many lines as `height` holds, a
    word longer than a line cut with a hyphen; None if the lines do not fit."""
    per_line = int((width - CELL_W_MM) // CELL_MM) + 1 if width >= CELL_W_MM else 0
    lines: list[str] = []
    pieces: list[str] = []
    for w in words:
        while len(w) > per_line >= 3:
            pieces.append(w[: per_line - 1] + HYPHEN)
            w = w[per_line - 1 :]
        pieces.append(w)
    for w in pieces:
        if len(w) > per_line:
            return None
        if lines and len(lines[-1]) + 1 + len(w) <= per_line:
            lines[-1] += "\u2800" + w
        else:
            lines.append(w)
    if not lines or (len(lines) - 1) * LINE_MM + CELL_H_MM > height:
        return None
    return lines


def braille(lines: list[str], cx: float, cy: float, z: float) -> Manifold:
    """Lines of braille centred on (cx, cy), each centred, standing on the surface at height z."""
    block_h = (len(lines) - 1) * LINE_MM + CELL_H_MM
    top = cy - block_h / 2 + DOT_MM / 2
    points: list[Point] = []
    for k, line in enumerate(lines):
        left = cx - row_width(len(line)) / 2 + DOT_MM / 2
        points += dot_positions(line, left, top + k * LINE_MM)
    return dots_at(points, z)


def dots_at(points: list[Point], z: float, scale: float = 1.0) -> Manifold:
    template = _dot().scale((scale, scale, scale)) if scale != 1.0 else _dot()
    return union(template.translate((x, y, z)) for x, y in points)


def shape_mark(kind: str, size: float) -> CrossSection:
    """The outline of a player colour's tactile shape, `size` mm across, centred on 0."""
    m = lib()
    r = size / 2
    if kind == "circle":
        return m.CrossSection.circle(r, SEGMENTS)
    if kind == "square":
        return rect(-r * 0.9, -r * 0.9, r * 1.8, r * 1.8)
    if kind == "diamond":
        return section([(0.0, -r), (r * 0.8, 0.0), (0.0, r), (-r * 0.8, 0.0)])
    if kind == "cross":
        arm = r * 0.38
        return rect(-r, -arm, 2 * r, 2 * arm) + rect(-arm, -r, 2 * arm, 2 * r)
    sides = {"triangle": 3, "hexagon": 6, "star": 10}[kind]
    points = []
    for k in range(sides):
        a = -math.pi / 2 + 2 * math.pi * k / sides
        radius = r * (0.45 if kind == "star" and k % 2 else 1.0)
        points.append((radius * math.cos(a), radius * math.sin(a)))
    return section(points)


# Mesh files ----------------------------------------------------------------------------------


def arrays(solid: Manifold) -> tuple[np.ndarray, np.ndarray]:
    """(vertices n x 3, triangles m x 3) of a solid."""
    mesh = solid.to_mesh()
    vertices = np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3]
    return np.round(vertices, 5), np.asarray(mesh.tri_verts, dtype=np.int64)


def stl(parts: Sequence[tuple[np.ndarray, np.ndarray]], title: str) -> bytes:
    """A binary STL of one or more closed shells."""
    tris = [v[t] for v, t in parts if len(t)]
    corners = np.concatenate(tris).astype(np.float32) if tris else np.zeros((0, 3, 3), np.float32)
    normal = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    length = np.linalg.norm(normal, axis=1, keepdims=True)
    normal = np.divide(normal, length, out=np.zeros_like(normal), where=length > 0)
    record = np.zeros(len(corners), dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    record["n"], record["v"] = normal, corners
    header = title.encode("ascii", "replace")[:80].ljust(80, b" ")
    return header + np.uint32(len(corners)).tobytes() + record.tobytes()


_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<Types xmlns="http://schemas.openxmlformats.org/'
    'package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxml'
    'formats-package.relationships+xml"/><Default Extension="model" ContentType="application/'
    'vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>\n'
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/'
    'package/2006/relationships"><Relationship Target="/3D/3dmodel.model" Id="rel0" '
    'Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>\n'
)


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def three_mf(objects: Sequence[tuple[str, np.ndarray, np.ndarray, Point]], title: str) -> bytes:
    """A 3MF package of named objects, each placed on the build plate at its (x, y) offset (mm).
    Written with fixed dates and in order, so the same objects give the same bytes."""
    out = io.StringIO()
    out.write(
        '<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US" '
        'xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">\n'
    )
    out.write(
        f'<metadata name="Title">{_xml(title)}</metadata>\n'
        '<metadata name="Application">boardgen</metadata>\n<resources>\n'
    )
    for k, (name, vertices, triangles, _) in enumerate(objects, start=1):
        out.write(f'<object id="{k}" type="model" name="{_xml(name)}"><mesh><vertices>\n')
        out.writelines(f'<vertex x="{x:.5f}" y="{y:.5f}" z="{z:.5f}"/>\n' for x, y, z in vertices.tolist())
        out.write("</vertices><triangles>\n")
        out.writelines(f'<triangle v1="{a}" v2="{b}" v3="{c}"/>\n' for a, b, c in triangles.tolist())
        out.write("</triangles></mesh></object>\n")
    out.write("</resources>\n<build>\n")
    for k, (_, _, _, (dx, dy)) in enumerate(objects, start=1):
        out.write(f'<item objectid="{k}" transform="1 0 0 0 1 0 0 0 1 {dx:.5f} {dy:.5f} 0"/>\n')
    out.write("</build>\n</model>\n")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        for name, text in (
            ("[Content_Types].xml", _CONTENT_TYPES),
            ("_rels/.rels", _RELS),
            ("3D/3dmodel.model", out.getvalue()),
        ):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            package.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()
