"""Cut files of a rendered kit (issue 22), measured against the kit's PDF: each DXF read back with
ezdxf, each cut outline against the trim lines printed on its page (crop marks and drawn cut
lines, read with pdfplumber), the registration marks where the specification puts them."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from ezdxf.entities.lwpolyline import LWPolyline
from ezdxf.filemanagement import readfile
from PIL import Image

from boardgen.kit import render_kit
from boardgen.options import KitOptions

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")

MM = 72 / 25.4
TOL = 0.05


def _render(tmp: Path, **cut: Any) -> Any:
    return render_kit("classic", tmp, KitOptions(check=False, previews=False, svg=False, **cut))


@pytest.fixture(scope="module")
def silhouette(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _render(tmp_path_factory.mktemp("silhouette"), cut="silhouette")


def _cut(p: Any) -> bool:
    """A piece the machine cuts: not a card back (printed behind its front), nor a board sheet
    (cut by hand on its crop marks), nor what is printed on paper."""
    return p.kind not in ("card-back", "board") and p.stock == "card"


def _file(result: Any, machine: str, index: int, ext: str = "dxf") -> Path:
    """The cut file of the kit's page `index`: named after its page in the print-and-cut PDF,
    whose first page is the instructions."""
    pages = sorted({p.page for p in result.placements if _cut(p)})
    path: Path = result.folder / "cut" / f"{result.pdf.stem}-{machine}-page{pages.index(index) + 2:02}.{ext}"
    return path


def _dxf_rects(path: Path, page_h: float) -> list[tuple[float, float, float, float]]:
    doc = readfile(path)
    out = []
    for e in doc.modelspace().query('*[layer=="CUT"]'):
        assert isinstance(e, LWPolyline), e.dxftype()
        xs = [p[0] for p in e.get_points("xy")]
        ys = [page_h - p[1] for p in e.get_points("xy")]
        out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


def _trim_lines(page: Any) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """Vertical (x, y0, y1) and horizontal (y, x0, x1) lines drawn on the page, in mm: crop marks
    and the edges of drawn rectangles."""
    vertical, horizontal = [], []
    for line in page.lines:
        x0, x1, top, bottom = line["x0"] / MM, line["x1"] / MM, line["top"] / MM, line["bottom"] / MM
        if abs(x1 - x0) < 0.01:
            vertical.append((x0, top, bottom))
        elif abs(bottom - top) < 0.01:
            horizontal.append((top, x0, x1))
    for r in page.rects:
        x0, x1, top, bottom = r["x0"] / MM, r["x1"] / MM, r["top"] / MM, r["bottom"] / MM
        vertical += [(x0, top, bottom), (x1, top, bottom)]
        horizontal += [(top, x0, x1), (bottom, x0, x1)]
    return vertical, horizontal


def test_one_dxf_per_page_of_pieces_each_outline_on_its_printed_trim(silhouette: Any) -> None:
    cut = silhouette.folder / "cut"
    stem = silhouette.pdf.stem
    placed = Counter(p.page for p in silhouette.placements if _cut(p))
    dxfs = sorted(cut.glob("*.dxf"))
    assert [d.name for d in dxfs] == [f"{stem}-silhouette-page{k + 2:02}.dxf" for k in range(len(placed))]
    with pdfplumber.open(silhouette.pdf) as pdf:
        for index in sorted(placed):
            path = _file(silhouette, "silhouette", index)
            doc = readfile(path)
            assert len(doc.audit().errors) == 0
            assert doc.header["$INSUNITS"] == 4
            assert {"CUT", "SCORE"} <= {layer.dxf.name for layer in doc.layers}
            cuts = doc.modelspace().query('*[layer=="CUT"]')
            assert all(isinstance(e, LWPolyline) and e.closed for e in cuts)
            assert len(cuts) == placed[index], f"page {index + 1}"
            page = pdf.pages[index]
            vertical, horizontal = _trim_lines(page)
            for x0, y0, x1, y1 in _dxf_rects(path, page.height / MM):
                # each edge lies on a printed trim line: a crop mark extending it (a grid's marks
                # stand at the ends of its rows and columns) or a cut line drawn on the piece
                for x in (x0, x1):
                    assert any(abs(v - x) <= TOL for v, _, _ in vertical), (
                        f"page {index + 1}: no printed trim at x = {x:.2f}"
                    )
                for y in (y0, y1):
                    assert any(abs(h - y) <= TOL for h, _, _ in horizontal), (
                        f"page {index + 1}: no printed trim at y = {y:.2f}"
                    )


def test_silhouette_marks_printed_where_the_specification_puts_them(silhouette: Any) -> None:
    """On every page of the print-and-cut PDF but the first (the instructions): a filled 5 mm
    square 10 mm in from the top-left edges, L marks of 5 x 1 mm arms at top-right and
    bottom-left, their outer corners 10 mm in; no other print within 3 mm of them."""
    marked = silhouette.folder / "cut" / f"{silhouette.pdf.stem}-silhouette.pdf"
    with pdfplumber.open(marked) as pdf:
        assert "Silhouette Studio" in pdf.pages[0].extract_text()
        assert len(pdf.pages) == 1 + len({p.page for p in silhouette.placements if _cut(p)})
        for page in pdf.pages[1:]:
            w, h = page.width / MM, page.height / MM
            black = [
                (round(r["x0"] / MM, 2), round(r["top"] / MM, 2), round(r["width"] / MM, 2), round(r["height"] / MM, 2))
                for r in page.rects
                if r["fill"] and tuple(r.get("non_stroking_color") or ()) in ((0,), (0, 0, 0), (0.0, 0.0, 0.0))
            ]
            want = {
                (10.0, 10.0, 5.0, 5.0),
                (round(w - 15, 2), 10.0, 5.0, 1.0),
                (round(w - 11, 2), 10.0, 1.0, 5.0),
                (10.0, round(h - 11, 2), 5.0, 1.0),
                (10.0, round(h - 15, 2), 1.0, 5.0),
            }
            assert want <= set(black), sorted(set(black))
            for char in page.chars:  # nothing printed in the marks' corners (clipped art off the page aside)
                x, y = char["x0"] / MM, char["top"] / MM
                if not (0 <= x <= w and 0 <= y <= h):
                    continue
                assert not ((x < 18 or x > w - 18) and (y < 18 or y > h - 18)), char["text"]


def test_laser_beds_keep_kerf_and_every_piece(tmp_path: Path) -> None:
    result = _render(tmp_path, cut="laser", kerf=0.2, bed=(400.0, 300.0))
    beds = sorted((result.folder / "cut").glob("*-laser-bed*.dxf"))
    assert beds and len(beds) == len(list((result.folder / "cut").glob("*-laser-bed*.svg")))
    pieces = [p for p in result.placements if _cut(p)]
    sizes: Counter[tuple[float, float]] = Counter()
    for path in beds:
        for x0, y0, x1, y1 in _dxf_rects(path, 300.0):
            assert x0 >= 2 - 1e-6 and y0 >= 2 - 1e-6 and x1 <= 398 + 1e-6 and y1 <= 298 + 1e-6
            sizes[(round(x1 - x0, 2), round(y1 - y0, 2))] += 1
    # each trim grows by the kerf: half of it on each side
    assert sizes == Counter((round(p.trim.w + 0.2, 2), round(p.trim.h + 0.2, 2)) for p in pieces)
    assert not (result.folder / "cut" / f"{result.pdf.stem}-laser.pdf").exists()


def test_cricut_mats_at_most_6_75_by_9_25_in_at_300_dpi(tmp_path: Path) -> None:
    result = _render(tmp_path, cut="cricut")
    mats = sorted((result.folder / "cut").glob("*-cricut-mat*.png"))
    assert mats
    cut_count = 0
    for png in mats:
        image = Image.open(io.BytesIO(png.read_bytes()))
        w, h = (v * 25.4 / 300 for v in image.size)
        assert w <= 171.45 and h <= 234.95
        assert image.info["dpi"][0] == pytest.approx(300, abs=0.01)
        root = ET.fromstring(png.with_suffix(".svg").read_bytes())  # its cut lines: the same size
        assert float(root.get("width", "").removesuffix("mm")) == pytest.approx(w, abs=0.001)
        assert float(root.get("height", "").removesuffix("mm")) == pytest.approx(h, abs=0.001)
        cut_count += len(root.find("{http://www.w3.org/2000/svg}g[@id='CUT']") or [])
    readme = (result.folder / "cut" / "README.txt").read_text()
    left_out = [p for p in result.placements if _cut(p) and p.piece in readme.split("cut them by hand")[0]]
    assert all(p.trim.w > 169 or p.trim.h > 232 for p in left_out)
    assert cut_count == sum(1 for p in result.placements if _cut(p)) - len(left_out)


def test_no_cut_option_no_cut_folder_and_same_kit(tmp_path: Path) -> None:
    """Without --cut nothing is written under cut/, and the kit is the same bytes as one
    rendered with the options a cut render does not touch (laser keeps the page layout)."""
    plain = _render(tmp_path / "plain")
    laser = _render(tmp_path / "laser", cut="laser")
    assert not (plain.folder / "cut").exists()
    assert plain.pdf.read_bytes() == laser.pdf.read_bytes()


def test_round_tokens_cut_on_their_printed_circles(tmp_path: Path) -> None:
    """Master's object tokens: each CIRCLE of the DXF has a circle drawn in the PDF with the
    same box to 0.05 mm (the token's printed face)."""
    result = render_kit("master", tmp_path, KitOptions(check=False, previews=False, svg=False, cut="silhouette"))
    tokens = [p for p in result.placements if p.shape == "circle"]
    assert tokens
    with pdfplumber.open(result.pdf) as pdf:
        for index in sorted({p.page for p in tokens}):
            page = pdf.pages[index]
            h = page.height / MM
            curves = [(c["x0"] / MM, c["top"] / MM, c["x1"] / MM, c["bottom"] / MM) for c in page.curves]
            path = _file(result, "silhouette", index)
            circles = readfile(path).modelspace().query('CIRCLE[layer=="CUT"]')
            assert len(circles) == sum(1 for p in tokens if p.page == index)
            for e in circles:
                cx, cy, r = e.dxf.center.x, h - e.dxf.center.y, e.dxf.radius
                box = (cx - r, cy - r, cx + r, cy + r)
                assert any(max(abs(a - b) for a, b in zip(c, box, strict=True)) <= TOL for c in curves), box


def test_scanncut_bullseyes_measured_on_each_marked_page(tmp_path: Path) -> None:
    """A ring 8 mm across round a 3 mm dot, centred 14 mm in from both edges at each corner;
    an SVG per page whose outlines are the pieces on it."""
    result = _render(tmp_path, cut="scanncut")
    cut = result.folder / "cut"
    with pdfplumber.open(cut / f"{result.pdf.stem}-scanncut.pdf") as pdf:
        assert "CanvasWorkspace" in pdf.pages[0].extract_text()
        for page in pdf.pages[1:]:
            w, h = page.width / MM, page.height / MM
            found: Counter[tuple[float, float, float]] = Counter()
            for c in page.curves:
                cx, cy = (c["x0"] + c["x1"]) / 2 / MM, (c["top"] + c["bottom"]) / 2 / MM
                # a stroked ring's outer size is its path's plus the stroke; a filled dot's its path's
                size = (c["x1"] - c["x0"]) / MM + (c["linewidth"] / MM if c["stroke"] and not c["fill"] else 0.0)
                found[(round(cx, 2), round(cy, 2), round(size, 2))] += 1
            for cx in (14.0, round(w - 14, 2)):
                for cy in (14.0, round(h - 14, 2)):
                    assert found[(cx, cy, 8.0)] >= 1 and found[(cx, cy, 3.0)] >= 1, (cx, cy, sorted(found)[:6])
    placed = Counter(p.page for p in result.placements if _cut(p))
    for index, count in placed.items():
        root = ET.fromstring(_file(result, "scanncut", index, "svg").read_bytes())
        assert len(root.find("{http://www.w3.org/2000/svg}g[@id='CUT']") or []) == count


def test_cut_with_a_reprint_is_refused_by_name(tmp_path: Path) -> None:
    from boardgen.errors import UsageError

    with pytest.raises(UsageError, match="--cut .* not with --only or --sheets"):
        _render(tmp_path, cut="silhouette", only=("cards",))
    assert not any(tmp_path.iterdir())


def test_fold_over_cards_cut_round_front_and_back_with_the_fold_scored(tmp_path: Path) -> None:
    """--backs fold: each card is cut as one piece, front and back beside it (twice the card's
    width), and the fold between them is on the SCORE layer, on the printed fold mark's x."""
    result = _render(tmp_path, cut="silhouette", backs="fold")
    fronts = [p for p in result.placements if p.kind == "card"]
    assert fronts and all(
        any(b.kind == "card-back" and b.page == p.page and b.piece == p.piece for b in result.placements)
        for p in fronts
    )
    with pdfplumber.open(result.pdf) as pdf:
        for index in sorted({p.page for p in fronts}):
            path = _file(result, "silhouette", index)
            page = pdf.pages[index]
            h = page.height / MM
            cards = {(round(t.x, 3), round(t.y, 3)): t for t in (p.trim for p in fronts if p.page == index)}
            for x0, y0, x1, y1 in _dxf_rects(path, h):
                trim = cards[(round(x0, 3), round(y0, 3))]
                assert x1 - x0 == pytest.approx(2 * trim.w, abs=TOL) and y1 - y0 == pytest.approx(trim.h, abs=TOL)
            folds = {round(e.dxf.start.x, 2) for e in readfile(path).modelspace().query('LINE[layer=="SCORE"]')}
            assert folds == {round(t.x + t.w, 2) for t in cards.values()}
            vertical, _ = _trim_lines(page)  # the fold is printed too (its dashed line or marks)
            assert all(any(abs(v - x) <= TOL for v, _, _ in vertical) for x in folds)
