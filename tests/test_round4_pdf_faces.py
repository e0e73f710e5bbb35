"""Issue 40, round 4: preflight reads the bleed and safe band of the PDFs a print service
receives (the DriveThru deck and the press file), rasterised, as it reads a PNG face: a real
export passes, and a face whose bleed is left white, or with words inside the safe band, is
named by file, page and piece, with exit 7 and no traceback."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli

GS = shutil.which("gs")
MM = 72 / 25.4
pytestmark = pytest.mark.skipif(GS is None, reason="Ghostscript is not installed (CI installs it)")


def _faces_pdf(kinds: list[str], *, w: float, h: float, bleed: float, shape: str = "rect") -> bytes:
    """A PDF of faces as a service takes them (trim plus bleed a page, TrimBox and BleedBox, a
    die line in the die-cut spot colour on the trim), drawn with reportlab: "ok" paints the art
    over the whole bleed, "white" leaves the bleed white (the top one of a card, all round a
    disc), "text" writes a line of words 1 mm inside the bottom of the trim."""
    from reportlab.lib.colors import CMYKColor, CMYKColorSep
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out, invariant=1)
    for kind in kinds:
        width, height = (w + 2 * bleed) * MM, (h + 2 * bleed) * MM
        c.setPageSize((width, height))
        c.setTrimBox((bleed * MM, bleed * MM, (bleed + w) * MM, (bleed + h) * MM))
        c.setBleedBox((0, 0, width, height))
        art, paper = CMYKColor(0.6, 0.2, 0, 0), CMYKColor(0, 0, 0, 0)
        c.setFillColor(art)
        radius = min(w, h) / 2 * MM
        if shape == "rect":
            c.rect(0, 0, width, height, stroke=0, fill=1)
        else:
            c.circle(width / 2, height / 2, radius + bleed * MM, stroke=0, fill=1)
        if kind == "white":
            c.setFillColor(paper)
            if shape == "rect":
                c.rect(0, height - bleed * MM, width, bleed * MM, stroke=0, fill=1)
            else:
                c.setStrokeColor(paper)
                c.setLineWidth(bleed * MM + 2)
                c.circle(width / 2, height / 2, radius + bleed * MM / 2 + 1, stroke=1, fill=0)
        elif kind == "text":
            c.setFillColor(CMYKColor(0, 0, 0, 1))
            c.setFont("Helvetica", 9)
            c.drawCentredString(width / 2, (bleed + 1.0) * MM, "Move forward 3 fields")
        c.setStrokeColor(CMYKColorSep(0, 1, 0, 0, spotName="die-cut", density=1))
        c.setLineWidth(0.25)
        if shape == "rect":
            c.rect(bleed * MM, bleed * MM, w * MM, h * MM, stroke=1, fill=0)
        else:
            c.circle(width / 2, height / 2, radius, stroke=1, fill=0)
        c.showPage()
    c.save()
    return out.getvalue()


def _preflight(path: Path, service: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["preflight", str(path), "--for", service])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def deck(drivethru_deck: Path) -> Path:
    return drivethru_deck


def test_a_real_deck_pdf_passes_and_a_bad_one_is_named_page_by_page(deck: Path, tmp_path: Path) -> None:
    code, output = _preflight(deck / "classic-deck.pdf", "drivethru")
    assert code == 0 and "problems: none" in output, output
    bad = tmp_path / "bad-deck.pdf"
    bad.write_bytes(_faces_pdf(["ok", "white", "text"], w=63.5, h=88.9, bleed=3.175))
    code, output = _preflight(bad, "drivethru")
    assert code == 7 and "Traceback" not in output, output
    assert "bad-deck.pdf page 2: the bleed on the top is white where the art reaches the trim" in output
    assert "bad-deck.pdf page 3: lines or text within 3.175 mm of the trim on the bottom" in output
    assert "page 1:" not in output and output.count("page 2:") == 1 and output.count("page 3:") == 1, output


def test_a_deck_beside_its_manifest_names_the_card(deck: Path, tmp_path: Path) -> None:
    rows = list(csv.DictReader(io.StringIO((deck / "manifest.csv").read_text(encoding="utf-8"))))
    folder = tmp_path / "drivethru"
    folder.mkdir()
    shutil.copy(deck / "manifest.csv", folder / "manifest.csv")
    # Page 1 is the back, page 2 the first front, page 3 the back again, page 4 the first front
    # again (or the second one), as the export lays the deck out.
    pages = sum(2 * int(row["quantity"]) for row in rows[:-1])
    kinds = ["ok"] * pages
    kinds[1], kinds[2] = "text", "white"
    (folder / "classic-deck.pdf").write_bytes(_faces_pdf(kinds, w=63.5, h=88.9, bleed=3.175))
    code, output = _preflight(folder / "classic-deck.pdf", "drivethru")
    assert code == 7, output
    first, back = rows[0], rows[-1]
    assert f"page 2 ({first['piece']}, {first['name']}): lines or text within 3.175 mm" in output, output
    assert f"page 3 ({back['piece']}, {back['name']}): the bleed on the top is white" in output, output


def test_a_real_press_file_passes_and_a_pawn_with_a_white_bleed_is_named(tmp_path: Path, grand_exports: Path) -> None:
    press = grand_exports / "press"
    code, output = _preflight(press / "grand-press.pdf", "press")
    assert code == 0 and "problems: none" in output, output
    rows = list(csv.DictReader(io.StringIO((press / "manifest.csv").read_text(encoding="utf-8"))))
    # The same pages as the press file (board, pawns, dice, cards), the second one a round pawn
    # whose bleed is white all round and the last card one with words in its safe band.
    assert rows[1]["piece"].startswith("pawn:") and rows[-2]["piece"].startswith("card:")
    pdf = _faces_pdf(["ok"], w=330, h=330, bleed=3.0)
    pawn = _faces_pdf(["white"], w=15.5, h=15.5, bleed=3.0, shape="circle")
    card = _faces_pdf(["text"], w=44, h=67, bleed=3.0)
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for source in (pdf, pawn, *[pdf] * (len(rows) - 4), card, pdf):
        writer.add_page(PdfReader(io.BytesIO(source)).pages[0])
    bad = tmp_path / "bad" / "grand-press.pdf"
    bad.parent.mkdir()
    shutil.copy(press / "manifest.csv", bad.parent / "manifest.csv")
    with bad.open("wb") as handle:
        writer.write(handle)
    code, output = _preflight(bad, "press")
    assert code == 7 and "Traceback" not in output, output
    pawn_name = f"page 2 ({rows[1]['piece']}, {rows[1]['name']})"
    for side in ("top", "bottom", "left", "right"):
        assert f"{pawn_name}: the bleed on the {side} is white" in output, output
    card_name = f"page {len(rows) - 1} ({rows[-2]['piece']}, {rows[-2]['name']})"
    assert f"{card_name}: lines or text within 3 mm of the trim on the bottom" in output, output
    assert output.count("lines or text") == 1 and output.count("is white") == 4, output
