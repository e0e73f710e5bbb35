"""Issue 40, print shops, read from the files a service receives: card frames clear of the
1/8 in safe band (PNG pixels), preflight reading what a face's bleed and safe band hold, a
round pawn's bleed made of its own colour (the press PDF rasterised), and preflight of a home
kit naming the export that makes the file the service wants."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image, ImageDraw

from boardgen.cli import cli

GS = shutil.which("gs")
INCH = 25.4


@pytest.fixture(scope="module")
def tgc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tgc")
    result = CliRunner().invoke(cli, ["export", "classic", "--for", "tgc", "--cards", "poker", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output
    return out / "classic" / "tgc" / "classic"


def _first_mark(row: np.ndarray, background: np.ndarray) -> int:
    """The first pixel of a row, from its start, that differs clearly from the background."""
    far = np.abs(row.astype(int) - background.astype(int)).max(axis=-1) > 80
    return int(np.argmax(far)) if far.any() else len(row)


def test_card_frames_lie_inside_the_safe_band(tgc: Path) -> None:
    bleed_px = round(3.175 / INCH * 300)
    safe_px = round(3.175 / INCH * 300)
    fronts = sorted(tgc.glob("front-*.png"))
    assert len(fronts) == 24
    for png in fronts:
        pixels = np.asarray(Image.open(png).convert("RGB"))
        h, w = pixels.shape[:2]
        background = pixels[h // 2, 2]
        # From each edge at mid-height / mid-width, inwards: the frame is the first line met.
        for row in (pixels[h // 2], pixels[h // 2, ::-1], pixels[:, w // 2], pixels[::-1, w // 2]):
            assert _first_mark(row, background) - bleed_px >= safe_px, png.name  # was 1.3-1.4 mm from the trim


def _preflight(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["preflight", str(path), "--for", "tgc"])
    return result.exit_code, result.output


def test_preflight_finds_a_white_bleed_and_a_line_in_the_safe_band(tgc: Path, tmp_path: Path) -> None:
    face = Image.open(tgc / "front-01-book.png").convert("RGB")
    code, output = _preflight(tgc / "front-01-book.png")
    assert code == 0 and "problems: none" in output
    bleed = round(3.175 / INCH * 300)
    white = face.copy()
    ImageDraw.Draw(white).rectangle((0, 0, white.width, bleed - 1), fill="white")  # the top bleed left blank
    white.save(tmp_path / "white.png", dpi=(300, 300))
    code, output = _preflight(tmp_path / "white.png")
    assert code == 7 and "bleed on the top is white" in output, output
    framed = face.copy()
    inset = bleed + round(1.35 / INCH * 300)  # a frame 1.35 mm inside the trim, as the cards had
    ImageDraw.Draw(framed).rectangle(
        (inset, inset, framed.width - inset, framed.height - inset), outline="#3b5b4a", width=7
    )
    framed.save(tmp_path / "framed.png", dpi=(300, 300))
    code, output = _preflight(tmp_path / "framed.png")
    assert code == 7 and output.count("lines or text within 3.175 mm of the trim") == 4, output


@pytest.mark.skipif(GS is None, reason="Ghostscript is not installed (CI installs it)")
def test_a_round_pawns_press_bleed_is_its_own_colour(grand_exports: Path) -> None:
    press = grand_exports / "press"
    with (press / "manifest.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    pawns = [k for k, row in enumerate(rows) if row["piece"].startswith("pawn:")]
    assert pawns
    document = pdfium.PdfDocument((press / "grand-press.pdf").read_bytes())
    try:
        for k in pawns:
            page = document[k]
            image = np.asarray(page.render(scale=400 / 72).to_pil().convert("RGB")).astype(int)
            px = 400 / INCH
            h, w = image.shape[:2]
            cy, cx = (h - 1) / 2, (w - 1) / 2
            yy, xx = np.mgrid[0:h, 0:w]
            rho = np.hypot(yy - cy, xx - cx) / px  # mm from the pawn's centre
            radius = w / px / 2 - 3.0  # the press page is the trim plus 3 mm of bleed round it
            face = np.median(image[(rho > radius - 1.6) & (rho < radius - 1.0)], axis=0)
            ring = image[(rho > radius + 0.8) & (rho < radius + 2.2)]
            same = (np.abs(ring - face).max(axis=-1) <= 60).mean()
            assert same >= 0.95, (rows[k]["piece"], same)  # no label or corner art from outside the disc
    finally:
        document.close()


def test_preflight_of_a_home_kit_names_the_export_that_makes_the_service_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["render", "minos", "--no-check", "--no-preview", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    kit = next((tmp_path / "minos").glob("*.pdf"))
    data = CliRunner().invoke(cli, ["preflight", str(kit), "--for", "press"])
    assert data.exit_code == 7
    assert "`boardgen export minos --for press` writes the files" in data.output.splitlines()[-1]
    plain = io.StringIO(data.output)
    assert plain.getvalue().index("problems:") < plain.getvalue().index("hint:")
