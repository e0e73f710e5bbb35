"""Cut files on their own (issue 22): DXF read back with ezdxf, SVG with an XML parser, kerf
measured with shapely, registration marks against the hand-worked specification."""

from __future__ import annotations

import io
import math
import os
import xml.etree.ElementTree as ET
from typing import Any

import ezdxf
import pytest
from ezdxf.entities.dxfentity import DXFEntity
from ezdxf.entities.lwpolyline import LWPolyline
from ezdxf.filemanagement import read
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from boardgen.cut import marks
from boardgen.cut.files import dxf, svg
from boardgen.cut.laser import bed_size, lay_out
from boardgen.errors import UsageError
from boardgen.geometry import Placement, Rect, kerf

PAGE_H = 297.0


def cut_path(piece: str, shape: str, x: float, y: float, w: float, h: float, **more: Any) -> Placement:
    """A piece placed on a card page of the kit's first page, as the kit records it."""
    return Placement(piece, piece.partition(":")[0], "card", 0, shape, Rect(x, y, w, h), **more)


CARD = cut_path("card:book", "rounded", 20.0, 30.0, 63.0, 88.0, radius=3.0)
TILE = cut_path("tile:07", "rect", 100.0, 30.0, 35.0, 35.0)
TOKEN = cut_path("token:5", "circle", 140.0, 30.0, 20.0, 20.0, radius=10.0)
BLOCK = cut_path(
    "block:a6",
    "polygon",
    100.0,
    100.0,
    40.0,
    40.0,
    points=((100.0, 100.0), (140.0, 100.0), (140.0, 120.0), (120.0, 120.0), (120.0, 140.0), (100.0, 140.0)),
)
PAWN = cut_path("pawn:red", "rect", 20.0, 150.0, 25.0, 80.0, folds=(((20.0, 190.0), (45.0, 190.0)),))
PIECES = [CARD, TILE, TOKEN, BLOCK, PAWN]


def _read(data: bytes) -> ezdxf.document.Drawing:
    return read(io.StringIO(data.decode("utf-8")))


def _dxf_polygon(entity: DXFEntity) -> Polygon:
    """A closed CUT entity back in page mm (y down), arcs flattened finely."""
    if entity.dxftype() == "CIRCLE":
        c, r = entity.dxf.center, entity.dxf.radius
        return ShapelyPoint(c.x, PAGE_H - c.y).buffer(r, quad_segs=256)
    path = ezdxf.path.make_path(entity)
    return Polygon([(v.x, PAGE_H - v.y) for v in path.flattening(0.001)])


def test_dxf_opens_audits_clean_in_mm_with_cut_and_score_layers() -> None:
    doc = _read(dxf(PIECES, PAGE_H))
    assert len(doc.audit().errors) == 0
    assert doc.header["$INSUNITS"] == 4
    assert {"CUT", "SCORE"} <= {layer.dxf.name for layer in doc.layers}
    cut = doc.modelspace().query('*[layer=="CUT"]')
    assert len(cut) == len(PIECES)
    assert all(e.dxftype() == "CIRCLE" or (isinstance(e, LWPolyline) and e.closed) for e in cut)
    scores = doc.modelspace().query('LINE[layer=="SCORE"]')
    assert [(round(s.dxf.start.x, 6), round(PAGE_H - s.dxf.start.y, 6)) for s in scores] == [(20.0, 190.0)]


def test_dxf_outlines_are_the_pieces_trims() -> None:
    """Each outline read back covers exactly its piece (symmetric difference near nothing), and
    the card's rounded corners are arcs (bulges), not many short lines."""
    doc = _read(dxf(PIECES, PAGE_H))
    for entity, piece in zip(doc.modelspace().query('*[layer=="CUT"]'), PIECES, strict=True):
        got = _dxf_polygon(entity)
        want = piece.polygon() if piece.shape != "circle" else ShapelyPoint(*piece.centre).buffer(10.0, quad_segs=256)
        if piece.shape == "rounded":  # the hand-worked area of a rounded rectangle
            area = piece.w * piece.h - (4 - math.pi) * piece.radius**2
            assert got.area == pytest.approx(area, abs=0.01)
        assert got.symmetric_difference(want).area < 0.05
        assert got.hausdorff_distance(want) < 0.05
    card = doc.modelspace().query('LWPOLYLINE[layer=="CUT"]')[0]
    bulges = [b for *_, b in card.get_points("xyseb")]
    assert sorted(round(b, 6) for b in bulges if b) == [round(math.tan(math.pi / 8), 6)] * 4


def test_same_outlines_same_bytes() -> None:
    assert dxf(PIECES, PAGE_H) == dxf(PIECES, PAGE_H)
    assert svg(PIECES, 210, PAGE_H) == svg(PIECES, 210, PAGE_H)


def test_svg_is_page_sized_in_mm_with_red_cuts_and_blue_scores() -> None:
    root = ET.fromstring(svg(PIECES, 210.0, PAGE_H))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("210mm", "297mm", "0 0 210 297")
    ns = "{http://www.w3.org/2000/svg}"
    groups = {g.get("id"): g for g in root.iter(f"{ns}g")}
    assert groups["CUT"].get("stroke") == "#ff0000" and groups["SCORE"].get("stroke") == "#0000ff"
    assert len(list(groups["CUT"])) == len(PIECES)
    card = groups["CUT"].find(f"{ns}rect[@id='card:book']")
    assert card is not None and (card.get("x"), card.get("y"), card.get("rx")) == ("20", "30", "3")


@pytest.mark.parametrize("piece", PIECES, ids=lambda p: p.piece)
def test_kerf_moves_each_outline_out_by_half_the_kerf(piece: Placement) -> None:
    """Every point of the compensated path is half the kerf from the trim, outside it."""
    k = 0.2
    grown = kerf(piece, k)
    trim = piece.polygon()
    ring = grown.polygon().exterior
    for i in range(0, len(ring.coords), 3):
        x, y = ring.coords[i]
        assert not trim.contains(ShapelyPoint(x, y))
        distance = trim.exterior.distance(ShapelyPoint(x, y))
        corner = piece.shape in ("rect", "polygon") and distance > k / 2 + 1e-6
        # a mitred corner lies half the kerf from both sides it joins: sqrt 2 times that from the corner
        assert distance == pytest.approx(k / 2, abs=2e-3) or (corner and distance <= k / 2 * math.sqrt(2) + 1e-6)
    assert grown.w == pytest.approx(piece.w + k) and grown.h == pytest.approx(piece.h + k)
    assert grown.polygon().area > trim.area


def test_silhouette_marks_where_the_specification_puts_them() -> None:
    """A4: the 5 mm square's outer corner 10 mm from the top-left edges; L marks' outer corners
    10 mm in at top-right and bottom-left, arms 5 mm long and 1 mm thick."""
    three = marks.silhouette(210.0, 297.0)
    boxes = {(b.x, b.y, b.w, b.h) for b in three.boxes}
    assert (10.0, 10.0, 5.0, 5.0) in boxes
    assert {(195.0, 10.0, 5.0, 1.0), (199.0, 10.0, 1.0, 5.0)} <= boxes  # top right
    assert {(10.0, 286.0, 5.0, 1.0), (10.0, 282.0, 1.0, 5.0)} <= boxes  # bottom left
    assert len(three.boxes) == 5
    four = marks.silhouette(210.0, 297.0, four=True)
    assert {(195.0, 286.0, 5.0, 1.0), (199.0, 282.0, 1.0, 5.0)} <= {(b.x, b.y, b.w, b.h) for b in four.boxes}


def test_scanncut_bullseyes_near_each_corner() -> None:
    m = marks.scanncut(215.9, 279.4)
    centres = sorted({(round(r.cx, 3), round(r.cy, 3)) for r in m.rings})
    assert centres == [(14.0, 14.0), (14.0, 265.4), (201.9, 14.0), (201.9, 265.4)]
    assert marks.marks_for("cricut", 210, 297) == marks.Marks("cricut")


def test_laser_layout_keeps_two_mm_between_cut_paths_on_the_bed() -> None:
    pieces = [cut_path(f"tile:{i:02}", "rect", 0, 0, 35, 35) for i in range(30)] + PIECES
    beds = lay_out(pieces, (300.0, 200.0), kerf_mm=0.15)
    placed = [o for bed in beds for o in bed]
    assert sorted(o.piece for o in placed) == sorted(p.piece for p in pieces)
    for bed in beds:
        shapes = [o.polygon() for o in bed]
        for o in bed:
            assert o.x >= 2.0 - 1e-9 and o.y >= 2.0 - 1e-9 and o.right <= 298.0 + 1e-9 and o.bottom <= 198.0 + 1e-9
        for i, a in enumerate(shapes):
            for b in shapes[i + 1 :]:
                assert a.distance(b) >= 2.0 - 1e-6
    assert all(
        o.w == pytest.approx(p.w + 0.15)
        for o, p in zip(sorted(placed, key=lambda o: o.piece), sorted(pieces, key=lambda o: o.piece), strict=True)
    )


def test_bed_too_small_or_misspelt_is_said() -> None:
    with pytest.raises(UsageError, match="card:book"):
        lay_out(PIECES, (60.0, 60.0))
    with pytest.raises(UsageError, match="WIDTHxHEIGHT"):
        bed_size("600 by 400")
    assert bed_size("600x400") == (600.0, 400.0)


def test_a_dxf_is_the_same_whatever_pythons_string_hashing() -> None:
    """ezdxf orders its CLASS entries by a set of names: a DXF must not change from run to run."""
    import subprocess
    import sys

    script = (
        "import sys\nfrom boardgen.cut.files import dxf\nfrom boardgen.geometry import Placement, Rect\n"
        "pieces = [Placement('tile:1', 'tile', 'card', 0, 'rect', Rect(10, 10, 30, 30)),\n"
        "          Placement('token:1', 'token', 'card', 0, 'circle', Rect(50, 10, 20, 20), radius=10),\n"
        "          Placement('card:a', 'card', 'card', 0, 'rounded', Rect(10, 50, 63, 88), radius=3,\n"
        "                    folds=(((10, 60), (73, 60)),))]\n"
        "sys.stdout.buffer.write(dxf(pieces, 297.0))\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in (1, 2, 3, 4, 5)
    }
    assert len(outputs) == 1 and next(iter(outputs)).startswith(b"  0\nSECTION")
