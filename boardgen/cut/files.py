"""Cut files: DXF (ezdxf) and SVG, in millimetres, drawn in page coordinates so a cut file lines
up with the printed page (and its registration marks) it belongs to.

DXF: layers CUT (closed outlines: LWPOLYLINEs, rounded corners as bulge arcs, CIRCLEs) and
SCORE (fold lines), $INSUNITS 4 (millimetres); y turned upward as DXF has it, the page's
bottom-left corner at (0, 0). SVG: a page-sized drawing (width and height in mm, one user unit
a millimetre) with groups CUT and SCORE (and ENGRAVE for a laser), hairline strokes: red cut,
blue score, black engrave, the colours laser software maps to its operations."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from xml.sax.saxutils import escape

from ezdxf import units
from ezdxf._options import options as dxf_options  # ezdxf.options, named where it is defined
from ezdxf.filemanagement import new as new_dxf

from boardgen.geometry import Placement

CUT, SCORE, ENGRAVE = "CUT", "SCORE", "ENGRAVE"
COLOURS = {CUT: "#ff0000", SCORE: "#0000ff", ENGRAVE: "#000000"}
ACI = {CUT: 1, SCORE: 5, ENGRAVE: 7}  # AutoCAD colour numbers: red, blue, black/white
HAIRLINE = 0.025  # mm: the stroke lasers read as a vector cut (0.001 in)
QUARTER_BULGE = math.tan(math.radians(90) / 4)  # an LWPOLYLINE segment bulging a quarter circle


@contextmanager
def _fixed_metadata() -> Iterator[None]:
    """ezdxf stamps the time and random GUIDs into every file: fixed ones keep a render's
    output the same from run to run."""
    before = dxf_options.write_fixed_meta_data_for_testing
    dxf_options.write_fixed_meta_data_for_testing = True
    try:
        yield
    finally:
        dxf_options.write_fixed_meta_data_for_testing = before


def _rounded_vertices(o: Placement, flip: float) -> list[tuple[float, float, float]]:
    """(x, y, bulge) of a rounded rectangle, DXF coordinates (y up), counter-clockwise: each
    straight side then a quarter arc to the next."""
    r = min(o.radius, o.w / 2, o.h / 2)
    x0, x1 = o.x, o.right
    y0, y1 = flip - o.bottom, flip - o.y  # bottom and top, y up
    return [
        (x0 + r, y0, 0.0),
        (x1 - r, y0, QUARTER_BULGE),
        (x1, y0 + r, 0.0),
        (x1, y1 - r, QUARTER_BULGE),
        (x1 - r, y1, 0.0),
        (x0 + r, y1, QUARTER_BULGE),
        (x0, y1 - r, 0.0),
        (x0, y0 + r, QUARTER_BULGE),
    ]


def dxf(outlines: Sequence[Placement], page_h: float, *, engrave: Sequence[Placement] = ()) -> bytes:
    """A DXF of these outlines; `page_h` (mm) turns the page's y (down) into DXF's (up)."""
    with _fixed_metadata():
        return _dxf(outlines, page_h, engrave)


def _dxf(outlines: Sequence[Placement], page_h: float, engrave: Sequence[Placement]) -> bytes:
    doc = new_dxf("R2010", setup=False)
    doc.units = units.MM
    doc.header["$INSUNITS"] = units.MM
    doc.header["$MEASUREMENT"] = 1  # metric
    for name in (CUT, SCORE, *((ENGRAVE,) if engrave else ())):
        doc.layers.add(name, color=ACI[name])
    msp = doc.modelspace()

    def closed(o: Placement, layer: str) -> None:
        attribs = {"layer": layer}
        if o.shape == "circle":
            cx, cy = o.centre
            msp.add_circle((cx, page_h - cy), o.radius, dxfattribs=attribs)
        elif o.shape == "rounded" and o.radius > 0:
            msp.add_lwpolyline(_rounded_vertices(o, page_h), format="xyb", close=True, dxfattribs=attribs)
        else:
            corners = (
                o.points if o.shape == "polygon" else ((o.x, o.y), (o.right, o.y), (o.right, o.bottom), (o.x, o.bottom))
            )
            msp.add_lwpolyline([(x, page_h - y) for x, y in corners], format="xy", close=True, dxfattribs=attribs)

    for o in outlines:
        closed(o, CUT)
        for (x1, y1), (x2, y2) in o.folds:
            msp.add_line((x1, page_h - y1), (x2, page_h - y2), dxfattribs={"layer": SCORE})
    for o in engrave:
        closed(o, ENGRAVE)
    # ezdxf lists the CLASS entries of the entity types in use in the order of a set of names,
    # which changes with Python's string hashing from run to run: named first, in sorted order,
    # they keep the file the same (ezdxf adds only what is missing when it writes).
    for dxftype in sorted(doc.entitydb.dxf_types_in_use()):
        doc.classes.add_class(dxftype)
    stream = io.StringIO()
    doc.write(stream)
    return stream.getvalue().encode("utf-8")


def _mm(v: float) -> str:
    text = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def svg_path(o: Placement) -> str:
    """One closed outline as an SVG element (page mm)."""
    if o.shape == "circle":
        cx, cy = o.centre
        return f'<circle id="{escape(o.piece)}" cx="{_mm(cx)}" cy="{_mm(cy)}" r="{_mm(o.radius)}"/>'
    if o.shape == "polygon":
        d = "M" + " L".join(f"{_mm(x)},{_mm(y)}" for x, y in o.points) + " Z"
        return f'<path id="{escape(o.piece)}" d="{d}"/>'
    r = min(o.radius, o.w / 2, o.h / 2) if o.shape == "rounded" else 0.0
    rounded = f' rx="{_mm(r)}" ry="{_mm(r)}"' if r > 0 else ""
    return (
        f'<rect id="{escape(o.piece)}" x="{_mm(o.x)}" y="{_mm(o.y)}" width="{_mm(o.w)}" height="{_mm(o.h)}"{rounded}/>'
    )


def svg(
    outlines: Sequence[Placement],
    page_w: float,
    page_h: float,
    *,
    engrave: Sequence[Placement] = (),
    stroke: float = HAIRLINE,
) -> bytes:
    """An SVG of these outlines, page-sized, one user unit a millimetre."""

    def group(name: str, body: list[str]) -> str:
        return (
            f'<g id="{name}" inkscape:groupmode="layer" inkscape:label="{name}" fill="none" '
            f'stroke="{COLOURS[name]}" stroke-width="{_mm(stroke)}">\n' + "".join(f"  {b}\n" for b in body) + "</g>\n"
        )

    cuts = [svg_path(o) for o in outlines]
    scores = [
        f'<line x1="{_mm(a)}" y1="{_mm(b)}" x2="{_mm(c)}" y2="{_mm(d)}"/>'
        for o in outlines
        for (a, b), (c, d) in o.folds
    ]
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
        f'width="{_mm(page_w)}mm" height="{_mm(page_h)}mm" viewBox="0 0 {_mm(page_w)} {_mm(page_h)}">\n'
        + group(CUT, cuts)
        + group(SCORE, scores)
        + (group(ENGRAVE, [svg_path(o) for o in engrave]) if engrave else "")
        + "</svg>\n"
    )
    return text.encode("utf-8")
