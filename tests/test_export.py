"""`boardgen export GAME --for SERVICE`: the files each print service takes, checked against the
service's published requirements with independent readers (Pillow for pixel sizes, pypdf for
boxes and colour spaces, pdfplumber for the die line's geometry, Ghostscript's own CMYK raster
for the ink), and `boardgen preflight` on them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pdfcheck import pdf_array, pdf_dict
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import DictionaryObject, PdfObject

from boardgen.cli import cli
from boardgen.engines import load_game

GS = shutil.which("gs")
needs_gs = pytest.mark.skipif(GS is None, reason="Ghostscript is not installed (CI installs it)")
MM = 72 / 25.4


def export(out: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["export", *args, "-o", str(out)])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def tgc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tgc")
    code, said = export(out, "classic", "--for", "tgc", "--cards", "poker")
    assert code == 0, said
    return out / "classic" / "tgc"


def test_tgc_takes_one_png_per_face_at_its_exact_poker_size(tgc: Path) -> None:
    pngs = sorted((tgc / "classic").glob("*.png"))
    treasures = load_game("classic")[1].treasures
    assert len(pngs) == len(treasures) + 1  # every front and the back once
    assert (tgc / "classic" / "back.png").is_file()
    for png in pngs:
        with Image.open(png) as image:
            assert image.size == (825, 1125), png.name  # 2.75 x 3.75 in at 300 dpi
            assert round(image.info["dpi"][0]) == 300


def test_mpc_and_tgc_mini_sizes_are_the_published_pixels(tmp_path: Path) -> None:
    code, said = export(tmp_path, "classic", "--for", "mpc", "--cards", "standard")
    assert code == 0, said
    for png in (tmp_path / "classic" / "mpc" / "classic").glob("*.png"):
        with Image.open(png) as image:
            assert image.size == (815, 1110)  # 69 x 94 mm at 300 dpi: 63 x 88 with 3 mm bleed
    code, said = export(tmp_path, "grand", "--for", "tgc", "--cards", "mini-us")
    assert code == 0, said
    sizes = set()
    for png in (tmp_path / "grand" / "tgc" / "grand").glob("*.png"):
        with Image.open(png) as image:
            sizes.add(image.size)
    assert sizes == {(600, 825)}  # 2 x 2.75 in


def test_a_card_size_the_service_does_not_print_is_refused_with_the_sizes_it_does(tmp_path: Path) -> None:
    code, said = export(tmp_path, "classic", "--for", "tgc")
    assert code == 2
    assert "does not print mini-euro cards" in said
    for size in ("poker", "bridge", "mini-us", "tarot"):
        assert size in said
    assert not (tmp_path / "classic").exists()
    code, said = export(tmp_path, "minos", "--for", "mpc")
    assert code == 2 and "has no cards" in said and "--for press" in said


def test_the_card_art_is_the_face_scaled_not_cropped(tgc: Path, tmp_path: Path) -> None:
    # The front's centre picture sits where the drawing puts it: compare with the card drawn
    # at the same size by the kit itself (render --only) rasterised by pdfium.
    with Image.open(tgc / "classic" / "front-01-book.png") as image:
        face = np.asarray(image.convert("L").resize((55, 75)), dtype=float)
    assert face.std() > 10  # not blank
    left, right = face[:, :27], face[:, 28:][:, ::-1]
    assert abs(left.mean() - right.mean()) < 25  # the card's layout is centred left to right


@pytest.fixture(scope="module")
def drivethru(drivethru_deck: Path) -> Path:
    if GS is None:
        pytest.skip("Ghostscript is not installed")
    return drivethru_deck / "classic-deck.pdf"


def _render(pdf: Path, index: int, dpi: float = 30) -> np.ndarray:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return np.asarray(doc[index].render(scale=dpi / 72).to_pil().convert("RGB"), dtype=float)
    finally:
        doc.close()


@needs_gs
def test_drivethru_deck_is_back_then_front_per_card_with_eighth_inch_bleed(drivethru: Path) -> None:
    reader = PdfReader(drivethru)
    cards = len(load_game("classic")[1].treasures)
    assert len(reader.pages) == 2 * cards
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        trim = [float(v) for v in pdf_array(page, "/TrimBox")]
        bleed = [float(v) for v in pdf_array(page, "/BleedBox")]
        assert (media[2] - media[0], media[3] - media[1]) == pytest.approx((2.75 * 72, 3.75 * 72), abs=0.1)
        assert bleed == pytest.approx(media, abs=0.01)
        assert [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]] == pytest.approx(
            [9.0] * 4, abs=0.05 * MM
        )  # 1/8 in
    backs = [_render(drivethru, i) for i in (0, 2, 4)]
    fronts = [_render(drivethru, i) for i in (1, 3)]
    assert np.abs(backs[0] - backs[1]).mean() < 1 and np.abs(backs[0] - backs[2]).mean() < 1
    assert np.abs(fronts[0] - backs[0]).mean() > 5 and np.abs(fronts[0] - fronts[1]).mean() > 1


def _cmyk_ink(pdf: Path, dpi: int = 40) -> int:
    """Total ink at the worst pixel, read by Ghostscript's own CMYK raster (not boardgen's)."""
    folder = pdf.parent / "ink-check"
    folder.mkdir(exist_ok=True)
    subprocess.run(
        [
            GS or "gs",
            "-q",
            "-dBATCH",
            "-dNOPAUSE",
            "-sDEVICE=tiff32nc",
            f"-r{dpi}",
            "-o",
            str(folder / "p%03d.tif"),
            str(pdf),
        ],
        check=True,
        capture_output=True,
    )
    worst = 0
    for tif in folder.glob("*.tif"):
        with Image.open(tif) as image:
            worst = max(worst, int(np.asarray(image, dtype=np.int32).sum(axis=-1).max()))
    shutil.rmtree(folder)
    return round(worst * 100 / 255)


def _resources(reader: PdfReader) -> list[DictionaryObject]:
    """Every resource dictionary of every page, forms' included."""
    out = []
    for page in reader.pages:
        stack: list[PdfObject] = [page["/Resources"]]
        while stack:
            resources = pdf_dict(stack.pop())
            out.append(resources)
            for xobject in (resources.get("/XObject") or {}).values():
                if "/Resources" in pdf_dict(xobject):
                    stack.append(pdf_dict(xobject)["/Resources"])
    return out


def _colour_spaces(reader: PdfReader) -> set[str]:
    found = set()
    for resources in _resources(reader):
        for space in (resources.get("/ColorSpace") or {}).values():
            space = space.get_object()
            found.add(
                str(space[0]) + (" " + str(space[1]) if str(space[0]) == "/Separation" else "")
                if isinstance(space, list)
                else str(space)
            )
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if "/ColorSpace" in xobject:
                space = xobject["/ColorSpace"]
                found.add(str(space[0]) if isinstance(space, list) else str(space))
    return found


@needs_gs
def test_drivethru_deck_is_pdfx_cmyk_with_ink_at_most_240(drivethru: Path) -> None:
    reader = PdfReader(drivethru)
    intents = [str(pdf_dict(i)["/S"]) for i in pdf_array(reader.trailer, "/Root", "/OutputIntents")]
    assert "/GTS_PDFX" in intents
    assert reader.metadata is not None
    assert str(reader.metadata["/GTS_PDFXVersion"]).startswith("PDF/X-1a")
    spaces = _colour_spaces(reader)
    assert "/DeviceCMYK" in spaces and not spaces & {"/DeviceRGB", "/CalRGB"}
    assert _cmyk_ink(drivethru) <= 240


@pytest.fixture(scope="module")
def press(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if GS is None:
        pytest.skip("Ghostscript is not installed")
    out = tmp_path_factory.mktemp("press")
    code, said = export(out, "master", "--for", "press")
    assert code == 0, said
    return out / "master" / "press"


@needs_gs
def test_press_pages_have_trim_and_bleed_3_mm_apart_and_the_die_line_on_the_trim(press: Path) -> None:
    pdf = press / "master-press.pdf"
    reader = PdfReader(pdf)
    layout = load_game("master")[1]
    sizes = []
    for page in reader.pages:
        trim = [float(v) for v in pdf_array(page, "/TrimBox")]
        bleed = [float(v) for v in pdf_array(page, "/BleedBox")]
        assert [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]] == pytest.approx(
            [3 * MM] * 4, abs=0.05 * MM
        )
        sizes.append(((trim[2] - trim[0]) / MM, (trim[3] - trim[1]) / MM))
    # The cards' trim is the layout's card, the tokens' the token's diameter.
    assert sum(1 for s in sizes if s == pytest.approx(layout.card_size_mm, abs=0.05)) == len(layout.objects) + 1
    token = layout.token_diameter_mm
    assert sum(1 for s in sizes if s == pytest.approx((token, token), abs=0.05)) == len(layout.objects)
    with pdfplumber.open(pdf) as doc:
        for sheet, (w, h) in zip(doc.pages, sizes, strict=True):
            lines = [o for o in sheet.rects + sheet.curves if o.get("stroke") and o["linewidth"] < 0.5]
            die = [o for o in lines if abs(o["x0"] - 3 * MM) < 0.05 * MM and abs(o["top"] - 3 * MM) < 0.05 * MM]
            assert die, f"no die line on the trim of page {sheet.page_number}"
            assert (die[0]["x1"] - die[0]["x0"]) / MM == pytest.approx(w, abs=0.05)
            assert (die[0]["bottom"] - die[0]["top"]) / MM == pytest.approx(h, abs=0.05)


@needs_gs
def test_press_die_line_is_a_die_cut_separation_that_overprints_and_nothing_is_rgb(press: Path) -> None:
    reader = PdfReader(press / "master-press.pdf")
    spaces = _colour_spaces(reader)
    assert "/Separation /die-cut" in spaces
    assert not spaces & {"/DeviceRGB", "/CalRGB"}
    states = [s.get_object() for resources in _resources(reader) for s in (resources.get("/ExtGState") or {}).values()]
    assert any(bool(s.get("/OP")) for s in states)
    assert "/GTS_PDFX" in [str(pdf_dict(i)["/S"]) for i in pdf_array(reader.trailer, "/Root", "/OutputIntents")]
    svg = (press / "dielines" / "card-back.svg").read_text(encoding="utf-8")
    assert 'id="die-cut"' in svg and 'width="50.000mm"' in svg  # 44 x 67 mm card with 3 mm bleed


@needs_gs
def test_press_pages_are_the_pieces_as_drawn_not_turned(press: Path) -> None:
    # Ghostscript turns pages by their text unless told not to; the mirrored bleed holds upside-down
    # text, so a board page must stay as the board is drawn: compared with the board drawn alone.
    from boardgen.data.theme import load_theme
    from boardgen.render.pdf import svg_page

    engine, layout = load_game("master")
    kit = engine.kit()
    theme = load_theme("classic")
    board = kit.draw(layout, theme, kit.setup(layout, layout.default_seed), "en").board
    alone = pdfium.PdfDocument(svg_page(board, theme))
    expected = np.asarray(alone[0].render(scale=1 / MM).to_pil().convert("RGB"), dtype=float)  # 1 px a mm
    alone.close()
    page = _render(press / "master-press.pdf", 0, dpi=25.4)
    h, w = expected.shape[:2]
    got = page[3 : 3 + h, 3 : 3 + w]  # the trim, 3 mm in

    def red(image: np.ndarray) -> tuple[float, float]:
        """Where the red pawn's start is, as a share of the board's height and width."""
        rows, cols = np.nonzero((image[..., 0] > 150) & (image[..., 1] < 90) & (image[..., 2] < 90))
        assert len(rows) > 3
        return rows.mean() / image.shape[0], cols.mean() / image.shape[1]

    assert red(got) == pytest.approx(red(expected), abs=0.03)
    assert red(expected)[0] < 0.45 and red(expected)[1] < 0.45  # top left: a turned page would move it


@needs_gs
def test_preflight_passes_the_press_file_and_names_what_a_plain_kit_lacks(press: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["preflight", str(press / "master-press.pdf"), "--for", "press"])
    assert result.exit_code == 0, result.output
    assert "problems: none" in result.output
    render = CliRunner().invoke(
        cli, ["render", "classic", "-o", str(tmp_path), "--no-check", "--no-preview", "--no-svg", "--only", "cards"]
    )
    assert render.exit_code == 0, render.output
    kit_pdf = next((tmp_path / "classic").glob("*.pdf"))
    result = CliRunner().invoke(cli, ["preflight", str(kit_pdf), "--for", "drivethru"])
    assert result.exit_code == 7
    assert "no TrimBox" in result.output and "not PDF/X" in result.output and "RGB colour left" in result.output


def test_without_ghostscript_the_message_names_the_package_and_exits_6(tmp_path: Path) -> None:
    env = dict(os.environ, PATH=str(tmp_path / "nothing-here"))
    done = subprocess.run(
        [sys.executable, "-m", "boardgen", "export", "classic", "--for", "press", "-o", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 6, done.stderr
    assert "Ghostscript" in done.stderr and "apt-get install ghostscript" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_preflight_of_something_not_a_pdf_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "x.pdf"
    bad.write_bytes(b"not a pdf at all")
    result = CliRunner().invoke(cli, ["preflight", str(bad), "--for", "press"])
    assert result.exit_code == 2
    assert "not a readable PDF" in result.output


@needs_gs
def test_a_wall_block_is_cut_along_its_polyomino_not_its_box(tmp_path: Path) -> None:
    from boardgen.render.svg.walls import block_outline

    code, said = export(tmp_path, "walls", "--for", "press")
    assert code == 0, said
    layout = load_game("walls")[1]
    shaped = next(b for b in layout.blocks if len(block_outline(b, layout.pitch_mm)) > 4)  # an L or a T
    svg = (tmp_path / "walls" / "press" / "dielines" / f"block-{shaped.id}.svg").read_text(encoding="utf-8")
    corners = " ".join(f"{3 + x:.3f},{3 + y:.3f}" for x, y in block_outline(shaped, layout.pitch_mm))
    assert f'<polygon points="{corners}"' in svg
    names = [f.stem for f in sorted((tmp_path / "walls" / "press" / "dielines").glob("*.svg"))]
    assert f"block-{shaped.id}" in names


@needs_gs
def test_a_die_net_is_cut_along_its_cross_and_tabs(tmp_path: Path) -> None:
    from boardgen.render.svg.pieces import die_net_outline

    code, said = export(tmp_path, "minos", "--for", "press")
    assert code == 0, said
    svg = (tmp_path / "minos" / "press" / "dielines" / "die-1.svg").read_text(encoding="utf-8")
    assert "<polygon points=" in svg and "<rect" not in svg
    face = 57.0 / 3.56  # the bundled net is 73 x 57 mm: three faces and two tabs of 0.28 a face high
    assert svg.count(",") == len(die_net_outline(face)[0])
