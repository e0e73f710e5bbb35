"""A person's own pictures print as they look: each real-world-style fixture is rendered through
the same SVG -> PDF path as a kit and compared, pixel by pixel, with a reference raster drawn
here independently with PIL from the shapes and colours the file describes."""

from __future__ import annotations

import io
import logging
import shutil
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
from pdfcheck import pdf_dict, pixel_at
from PIL import Image, ImageDraw
from pypdf import PdfReader

from boardgen.data import pictures
from boardgen.data.theme import load_theme
from boardgen.errors import BoardgenError, DataError
from boardgen.kit import render_kit
from boardgen.options import KitOptions
from boardgen.render import art
from boardgen.render.pdf import svg_page

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")

FIXTURES = Path(__file__).parent / "fixtures"
PICTURES = FIXTURES / "pictures"
HOSTILE = FIXTURES / "hostile-pictures"
SIZE = 200  # reference rasters are SIZE x SIZE pixels for a 100 x 100 viewBox


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def rendered(name: str) -> Image.Image:
    """The picture alone, through art.py, svglib and reportlab, rasterised by pdfium."""
    pic = pictures.load_picture(PICTURES / name, "book")
    pdf = svg_page(art.picture_document(pic), load_theme("classic"))
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[0]
        width, _ = page.get_size()
        image: Image.Image = page.render(scale=SIZE / width).to_pil().convert("RGB").resize((SIZE, SIZE))
        return image
    finally:
        document.close()


def mismatch(
    image: Image.Image, reference: Image.Image, ignore: tuple[int, int, int, int] | None = None, tolerance: int = 40
) -> float:
    """Share of pixels whose colour differs by more than tolerance on some channel."""
    bad = total = 0
    for y in range(SIZE):
        for x in range(SIZE):
            if ignore and ignore[0] <= x < ignore[2] and ignore[1] <= y < ignore[3]:
                continue
            total += 1
            a, b = pixel_at(image, (x, y)), pixel_at(reference, (x, y))
            if max(abs(p - q) for p, q in zip(a, b, strict=True)) > tolerance:
                bad += 1
    return bad / total


def near(actual: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 12) -> bool:
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected, strict=False))


def mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(p + (q - p) * t) for p, q in zip(a, b, strict=True))  # type: ignore[return-value]


# Real-world style pictures -----------------------------------------------------------------


def test_inkscape_svg_keeps_its_colours_gradient_and_text():
    """Inkscape writes colours in style=, a gradient in <defs> reached through an href chain
    with a gradientTransform, and text in a tspan."""
    image = rendered("inkscape-medal.svg")
    s = SIZE / 100
    gold, red, navy, green = rgb("#ffd700"), rgb("#c0392b"), rgb("#1d3557"), rgb("#2e8b57")
    reference = Image.new("RGB", (SIZE, SIZE), (255, 255, 255))
    draw = ImageDraw.Draw(reference)
    draw.rectangle((0, 80 * s, SIZE, SIZE), fill=green)
    for y in range(SIZE):
        for x in range(SIZE):
            ux, uy = (x + 0.5) / s, (y + 0.5) / s
            distance = ((ux - 50) ** 2 + (uy - 40) ** 2) ** 0.5
            if distance <= 29:
                # gradientTransform translate(20, 0) moves the axis 0..60 to 20..80.
                reference.putpixel((x, y), mix(gold, red, min(max((ux - 20) / 60, 0), 1)))
            elif distance <= 31:
                reference.putpixel((x, y), navy)
    text_box = (int(25 * s), int(82 * s), int(75 * s), SIZE)
    assert mismatch(image, reference, ignore=text_box) < 0.03
    assert near(pixel_at(image, (int(30 * s), int(40 * s))), mix(gold, red, 1 / 6))
    assert near(pixel_at(image, (int(70 * s), int(40 * s))), mix(gold, red, 5 / 6))
    # The white text is drawn on the green band: white pixels inside the text box.
    whites = sum(
        1
        for x in range(text_box[0], text_box[2])
        for y in range(text_box[1], text_box[3])
        if min(pixel_at(image, (x, y))) > 235
    )
    assert whites > 150


def test_inkscape_text_is_real_text_in_a_bundled_font():
    pic = pictures.load_picture(PICTURES / "inkscape-medal.svg", "book")
    pdf = svg_page(art.picture_document(pic), load_theme("classic"))
    reader = PdfReader(io.BytesIO(pdf))
    assert "GOLD" in reader.pages[0].extract_text()
    fonts = {
        str(f["/BaseFont"])
        for f in pdf_dict(reader.pages[0], "/Resources", "/Font").values()
        if "/BaseFont" in f.get_object()
    }
    assert any("DejaVuSans-Bold" in f for f in fonts), fonts  # font-weight:bold, font-family:sans-serif


def test_illustrator_style_classes_clip_path_and_symbols():
    """Illustrator writes a <style> sheet of classes (.st0...), an id+class rule, a clip path and
    <use> of a <symbol>."""
    image = rendered("illustrator-shield.svg")
    s = SIZE / 100
    blue, white, red = rgb("#1f4e79"), (255, 255, 255), rgb("#c8312b")
    yellow, star = rgb("#f0c75e"), rgb("#e3b21c")
    reference = Image.new("RGB", (SIZE, SIZE), blue)
    draw = ImageDraw.Draw(reference)
    draw.ellipse((17 * s, 17 * s, 83 * s, 83 * s), fill=red)  # stroke 6 around r 30
    draw.ellipse((23 * s, 23 * s, 77 * s, 77 * s), fill=white)
    draw.pieslice((35 * s, 35 * s, 65 * s, 65 * s), 180, 360, fill=yellow)  # clipped to y < 50
    draw.ellipse((5 * s, 85 * s, 15 * s, 95 * s), fill=yellow)
    draw.ellipse((85 * s, 85 * s, 95 * s, 95 * s), fill=yellow)
    draw.polygon([(50 * s, 80 * s), (53 * s, 88 * s), (47 * s, 88 * s)], fill=star)
    assert mismatch(image, reference) < 0.03
    assert near(pixel_at(image, (int(50 * s), int(40 * s))), yellow)  # above the clip line
    assert near(pixel_at(image, (int(50 * s), int(60 * s))), white)  # below it: clipped away
    assert near(pixel_at(image, (int(50 * s), int(86 * s))), star, 20)  # #star.st2 beats .st2


def test_icon_site_single_path_keeps_its_colour():
    image = rendered("icon-site-heart.svg")
    s = SIZE / 24
    pink = rgb("#e91e63")
    inside = [(12, 12), (7, 8), (17, 8), (12, 18)]
    outside = [(12, 2), (1, 1), (23, 23), (2, 20), (22, 20), (12, 23)]
    for x, y in inside:
        assert near(pixel_at(image, (int(x * s), int(y * s))), pink), (x, y)
    for x, y in outside:
        assert near(pixel_at(image, (int(x * s), int(y * s))), (255, 255, 255)), (x, y)


def test_picture_ids_are_prefixed_per_placement():
    pic = pictures.load_picture(PICTURES / "inkscape-medal.svg", "book")
    nodes = art.rename_ids(pic.nodes, "card-book-art--")
    text = repr(nodes)
    assert "url(#card-book-art--linearGradient1018)" in text
    assert "'linearGradient1018'" not in text


# A user theme: pictures, a font and colours, in a real kit ---------------------------------


@pytest.fixture(scope="module")
def user_kit(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("user-theme")
    for name in ("inkscape-medal.svg", "transparent-disc.png"):
        shutil.copy(PICTURES / name, folder / name)
    (folder / "fonts").mkdir()
    shutil.copy(FIXTURES / "fonts" / "LiberationMono-Regular.ttf", folder / "fonts" / "Mono.ttf")
    theme = folder / "mine.toml"
    theme.write_text(
        '[theme]\nid = "mine"\nname = { en = "Mine", fr = "Le mien" }\nextends = "classic"\n\n'
        '[palette]\nframe = "navy"\narrow = "#fc0"\nfloor = "rgb(250, 240, 220)"\n\n'
        '[fonts]\ntitle = "fonts/Mono.ttf"\n\n'
        '[art]\nbook = "inkscape-medal.svg"\npurse = "transparent-disc.png"\n',
        encoding="utf-8",
    )
    result = render_kit("classic", folder / "out", KitOptions(theme=str(theme), previews=False, check=False))
    return result.pdf, theme


def card_page(pdf: Path, name: str) -> int:
    reader = PdfReader(str(pdf))
    for index, page in enumerate(reader.pages):
        if name in page.extract_text() and "Treasure cards" in page.extract_text():
            return index
    raise AssertionError(f"no card page shows {name!r}")


def test_transparent_png_stays_transparent_in_the_pdf(user_kit):
    pdf, _ = user_kit
    index = card_page(pdf, "Purse of gold")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[index]
        images = [im for im in page.images if abs((im["x1"] - im["x0"]) - (im["bottom"] - im["top"])) < 0.5]
        assert len(images) == 1, page.images
        box = images[0]
        height = page.height
    scale = 4
    document = pdfium.PdfDocument(str(pdf))
    try:
        raster = document[index].render(scale=scale).to_pil().convert("RGB")
    finally:
        document.close()
    x0, x1, top, bottom = (box["x0"] * scale, box["x1"] * scale, box["top"] * scale, box["bottom"] * scale)
    width = x1 - x0
    del height
    # The PNG is 64 px with a disc from 16 to 47: corners are transparent, the middle is red.
    centre = raster.getpixel((int(x0 + width / 2), int(top + (bottom - top) / 2)))
    assert near(centre, (200, 30, 40), 20)
    backdrop = rgb(load_theme("classic").colour("art_backdrop"))
    for fx, fy in ((0.08, 0.08), (0.92, 0.08), (0.08, 0.92), (0.92, 0.92), (0.5, 0.1)):
        pixel = raster.getpixel((int(x0 + width * fx), int(top + (bottom - top) * fy)))
        assert near(pixel, backdrop, 10), (fx, fy, pixel)  # what lies under it, never black


def test_inkscape_picture_keeps_its_gradient_inside_the_kit(user_kit):
    """Card pictures are PDF forms: the gradient (a shading) must reach the form's resources."""
    pdf, _ = user_kit
    index = card_page(pdf, "Book")
    document = pdfium.PdfDocument(str(pdf))
    try:
        raster = document[index].render(scale=2).to_pil().convert("RGB")
    finally:
        document.close()
    colours = raster.getcolors(maxcolors=1 << 20) or []
    gold_like = sum(count for count, c in colours if near(c, rgb("#ffd700"), 30))
    red_like = sum(count for count, c in colours if near(c, rgb("#c0392b"), 30))
    assert gold_like > 20 and red_like > 20


def test_theme_font_is_embedded_as_a_subset_and_used(user_kit):
    pdf, _ = user_kit
    reader = PdfReader(str(pdf))
    cover = reader.pages[0]
    fonts = {}
    for font in pdf_dict(cover, "/Resources", "/Font").values():
        font = font.get_object()
        fonts[str(font["/BaseFont"]).lstrip("/")] = font
    mono = [name for name in fonts if "LiberationMono" in name]
    assert mono, sorted(fonts)
    name = mono[0]
    assert "+" in name  # a subset: six letters + the font's name
    descriptor = (
        fonts[name].get("/DescendantFonts", [fonts[name]])[0].get_object()
        if "/DescendantFonts" in fonts[name]
        else fonts[name]
    )
    descriptor = descriptor.get("/FontDescriptor").get_object()
    assert "/FontFile2" in descriptor  # the TrueType program is embedded
    # The title is drawn with it: pdfplumber reports that font for the title's characters.
    with pdfplumber.open(pdf) as doc:
        title_chars = [c for c in doc.pages[0].chars if c["fontname"] == name]
    assert "".join(c["text"] for c in title_chars).startswith("Labyrinth")


def test_theme_colours_in_css_forms(user_kit):
    _, theme_path = user_kit
    theme = load_theme(str(theme_path))
    assert theme.colour("frame") == "#000080"
    assert theme.colour("arrow") == "#ffcc00"
    assert theme.colour("floor") == "#faf0dc"


# Warnings: what cannot be drawn is named, never silently black -----------------------------


def test_unsupported_features_warn_naming_file_and_element(tmp_path, caplog):
    path = tmp_path / "effects.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<defs><filter id="blur"><feGaussianBlur stdDeviation="2"/></filter>'
        '<pattern id="dots" width="2" height="2"><circle cx="1" cy="1" r="1"/></pattern>'
        '<mask id="fade"><rect width="10" height="10" fill="#808080"/></mask>'
        '<mask id="cut"><rect width="5" height="10" fill="white"/></mask></defs>'
        '<rect id="shadow" width="10" height="10" fill="#ff0000" filter="url(#blur)"/>'
        '<rect id="dotted" width="10" height="10" fill="url(#dots) #00ff00"/>'
        '<rect id="faded" width="10" height="10" fill="#0000ff" mask="url(#fade)"/>'
        '<rect id="half" width="10" height="10" fill="#ffff00" mask="url(#cut)"/>'
        "</svg>",
        encoding="utf-8",
    )
    with caplog.at_level(logging.WARNING, logger="boardgen"):
        pic = pictures.load_picture(path, "book")
    text = "\n".join(pic.warnings)
    assert "effects.svg: <rect id='shadow'> (line 1) filter" in text
    assert "<rect id='dotted'> (line 1) fill is a pattern" in text and "fallback colour" in text
    assert "<rect id='faded'> (line 1) mask is not applied" in text
    assert "'half'" not in text  # an opaque white mask is a clip path, drawn exactly
    assert any("effects.svg" in record.getMessage() for record in caplog.records)
    document = art.picture_document(pic)
    assert 'fill="#00ff00"' in document  # the pattern's fallback colour
    assert 'clip-path="url(#cut)"' in document


# Theme keys --------------------------------------------------------------------------------


def write_theme(folder: Path, body: str) -> Path:
    path = folder / "t.toml"
    path.write_text(
        '[theme]\nid = "t"\nname = { en = "T", fr = "T" }\nextends = "classic"\n\n' + body, encoding="utf-8"
    )
    return path


def test_misspelt_art_key_is_an_error_with_a_hint(tmp_path):
    shutil.copy(PICTURES / "icon-site-heart.svg", tmp_path / "heart.svg")
    path = write_theme(tmp_path, '[art]\nboook = "heart.svg"\n')
    with pytest.raises(DataError) as caught:
        load_theme(str(path))
    (problem,) = caught.value.problems
    assert problem.key == "art.boook" and problem.line == 7
    assert "did you mean 'book'?" in problem.message


def test_an_art_key_no_game_uses_is_an_error_before_the_check(tmp_path):
    shutil.copy(PICTURES / "icon-site-heart.svg", tmp_path / "heart.svg")
    path = write_theme(tmp_path, '[art]\nunicorn = "heart.svg"\n')
    theme = load_theme(str(path))  # a layout of the user's might use it...
    from boardgen.engines import load_game

    _, layout = load_game("classic")
    with pytest.raises(DataError) as caught:
        art.require_pictures(theme, layout)  # ... but the classic game does not
    assert "unknown picture key 'unicorn'" in caught.value.problems[0].message


def test_every_theme_problem_at_once(tmp_path):
    path = write_theme(
        tmp_path,
        '[palette]\nflor = "#ffffff"\nink = "bleu"\nframe = "#12"\n\n'
        '[fonts]\nbody = "Comic Sans"\n\n'
        "[strokes]\ncut_line = 9.0\n\n"
        "[style]\nart_sise = 0.5\n\n"
        '[art]\nbook = "missing.svg"\ncrwn = "missing.png"\n',
    )
    with pytest.raises(DataError) as caught:
        load_theme(str(path))
    found = {(p.key, p.message) for p in caught.value.problems}
    keys = {key for key, _ in found}
    assert {
        "palette.flor",
        "palette.ink",
        "palette.frame",
        "fonts.body",
        "strokes.cut_line",
        "style.art_sise",
        "art.book",
        "art.crwn",
    } <= keys, found
    messages = " ".join(message for _, message in found)
    assert "did you mean 'floor'?" in messages and "did you mean 'blue'?" in messages
    assert "did you mean 'art_size'?" in messages and "did you mean 'crown'?" in messages
    assert "^#" not in messages  # no regular expression shown
    assert "picture file not found" in messages


def test_font_file_outside_the_theme_folder_is_refused(tmp_path):
    inner = tmp_path / "theme"
    inner.mkdir()
    shutil.copy(FIXTURES / "fonts" / "LiberationMono-Regular.ttf", tmp_path / "Mono.ttf")
    path = write_theme(inner, '[fonts]\nbody = "../Mono.ttf"\n')
    with pytest.raises(DataError) as caught:
        load_theme(str(path))
    (problem,) = caught.value.problems
    assert problem.key == "fonts.body" and "leads outside this file's folder" in problem.message


def test_font_file_that_is_not_a_font(tmp_path):
    (tmp_path / "fake.ttf").write_bytes(b"not a font at all")
    path = write_theme(tmp_path, '[fonts]\ntitle = "fake.ttf"\n')
    with pytest.raises(DataError) as caught:
        load_theme(str(path))
    assert "cannot be read as a TrueType font" in caught.value.problems[0].message


def test_glyph_check_still_reports_what_a_theme_font_cannot_draw(tmp_path):
    from boardgen.data import fonts

    shutil.copy(FIXTURES / "fonts" / "LiberationMono-Regular.ttf", tmp_path / "Mono.ttf")
    theme = load_theme(str(write_theme(tmp_path, '[fonts]\nbody = "Mono.ttf"\n')))
    family = theme.fonts["body"]
    fonts.check_glyphs("Dédale", family)
    fonts.check_glyphs("King ♔", family)  # a sign the font lacks: drawn from the bundled fallback
    with pytest.raises(fonts.MissingGlyphError, match="U\\+8FF7"):  # letters are the text's own
        fonts.check_glyphs("迷宮 King", family)


# Hostile pictures --------------------------------------------------------------------------

REFUSED = sorted(
    p.name
    for p in HOSTILE.iterdir()
    if p.name
    not in {"remote-paint.svg", "script-and-events.svg", "outside-image.svg", "outside-use.svg", "css-import.svg"}
)


@pytest.mark.parametrize("name", REFUSED)
def test_hostile_picture_is_a_clear_error(name):
    with pytest.raises(BoardgenError) as caught:
        pictures.load_picture(HOSTILE / name, "book")
    assert name in str(caught.value)
    assert len(str(caught.value)) < 400


@pytest.mark.parametrize(
    "name", ["remote-paint.svg", "script-and-events.svg", "outside-image.svg", "outside-use.svg", "css-import.svg"]
)
def test_hostile_picture_is_cleaned_and_warned_about(name):
    pic = pictures.load_picture(HOSTILE / name, "book")
    document = art.picture_document(pic)
    for banned in ("example.com", "<script", "alert(", "onload", "onclick", "passwd", "foreignObject", "other.svg"):
        assert banned not in document, banned
    assert pic.warnings and all(name in w for w in pic.warnings)


def test_remote_paint_keeps_its_fallback_colour():
    document = art.picture_document(pictures.load_picture(HOSTILE / "remote-paint.svg", "book"))
    assert 'fill="#336699"' in document


def test_limits_on_bytes_and_elements(tmp_path):
    many = tmp_path / "many.svg"
    many.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
        + '<rect width="1" height="1"/>' * (pictures.MAX_ELEMENTS + 1)
        + "</svg>",
        encoding="utf-8",
    )
    with pytest.raises(BoardgenError, match=f"over {pictures.MAX_ELEMENTS:,} elements"):
        pictures.load_picture(many, "book")
    big = tmp_path / "big.svg"
    big.write_bytes(b"<svg" + b" " * pictures.MAX_SVG_BYTES + b"/>")
    with pytest.raises(BoardgenError, match="big.svg is .* bytes; the limit"):
        pictures.load_picture(big, "book")


def test_hostile_picture_in_a_theme_is_a_data_error_naming_key_and_file(tmp_path):
    shutil.copy(HOSTILE / "width-1e999.svg", tmp_path / "w.svg")
    with pytest.raises(DataError) as caught:
        load_theme(str(write_theme(tmp_path, '[art]\nbook = "w.svg"\n')))
    (problem,) = caught.value.problems
    assert problem.key == "art.book" and "w.svg" in problem.message and "1e999" in problem.message


def test_picture_text_a_font_cannot_draw_is_warned_about(tmp_path):
    path = tmp_path / "king.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<text id="label" x="1" y="8" style="font-family:serif">Roi \u2654 \u4e2d</text></svg>',
        encoding="utf-8",
    )
    pic = pictures.load_picture(path, "book")
    (warning,) = [w for w in pic.warnings if "label" in w]
    assert "king.svg: <text id='label'>" in warning and "U+4E2D" in warning


def test_group_opacity_nested_svg_hidden_layer_and_current_colour():
    """Icon sites use currentColor; editors write group opacity and hidden layers (display:none)."""
    image = rendered("opacity-nesting-currentcolor.svg")
    s = SIZE / 100
    expected = {
        (25, 25): (255, 128, 128),  # red under a group at opacity 0.5, on white
        (75, 25): (128, 128, 255),  # blue at fill-opacity 0.5
        (25, 60): (255, 255, 255),  # a hidden layer draws nothing
        (75, 75): (0, 128, 0),  # a nested <svg> with its own viewBox
        (25, 75): (255, 136, 0),  # stroke="currentColor" with color="#ff8800"
    }
    for (x, y), colour in expected.items():
        assert near(pixel_at(image, (int(x * s), int(y * s))), colour, 6), (x, y)


def test_white_mask_and_group_clip_cut_where_a_browser_cuts():
    image = rendered("mask-and-group-clip.svg")
    s = SIZE / 100
    expected = {
        (25, 25): (255, 255, 255),
        (75, 25): (255, 0, 0),  # the mask's rect is moved right
        (25, 75): (0, 0, 255),
        (75, 75): (255, 255, 255),
    }  # the group is clipped to the left half
    for (x, y), colour in expected.items():
        assert near(pixel_at(image, (int(x * s), int(y * s))), colour, 6), (x, y)


# Colour profiles ---------------------------------------------------------------------------


def _icc_swapping_red_and_blue() -> bytes:
    """A minimal ICC v2 RGB profile (matrix/TRC) whose red channel is sRGB's blue light and the
    reverse: a picture carrying it must print red pixels blue, or its profile was ignored."""
    import struct

    def s15(v: float) -> bytes:
        return struct.pack(">i", round(v * 65536))

    def xyz(x: float, y: float, z: float) -> bytes:
        return b"XYZ " + b"\0" * 4 + s15(x) + s15(y) + s15(z)

    curve = b"curv" + b"\0" * 4 + struct.pack(">IH", 1, round(2.2 * 256)) + b"\0\0"
    text = b"swapped\0"
    desc = b"desc" + b"\0" * 4 + struct.pack(">I", len(text)) + text + struct.pack(">IIHB", 0, 0, 0, 0) + b"\0" * 67
    desc += b"\0" * (-len(desc) % 4)
    red, green, blue = (0.4361, 0.2225, 0.0139), (0.3851, 0.7169, 0.0971), (0.1431, 0.0606, 0.7141)  # sRGB, D50
    tags = [
        (b"desc", desc),
        (b"wtpt", xyz(0.9642, 1.0, 0.8249)),
        (b"rXYZ", xyz(*blue)),
        (b"gXYZ", xyz(*green)),
        (b"bXYZ", xyz(*red)),
        (b"rTRC", curve),
        (b"gTRC", curve),
        (b"bTRC", curve),
        (b"cprt", b"text" + b"\0" * 4 + b"none\0\0\0\0"),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table = data = b""
    for signature, body in tags:
        table += signature + struct.pack(">II", offset + len(data), len(body))
        data += body
    header = (
        struct.pack(">I", offset + len(data))
        + b"\0" * 4
        + struct.pack(">I", 0x02100000)
        + b"mntrRGB XYZ "
        + b"\0" * 12
        + b"acsp"
        + b"\0" * 24
        + struct.pack(">I", 0)
        + s15(0.9642)
        + s15(1.0)
        + s15(0.8249)
        + b"\0" * 48
    )
    return header + struct.pack(">I", len(tags)) + table + data


@pytest.mark.parametrize("kind", ["PNG", "JPEG"])
def test_colour_profile_is_applied_and_alpha_kept(tmp_path, kind):
    import base64

    mode = "RGBA" if kind == "PNG" else "RGB"
    image = Image.new(mode, (20, 20), (255, 0, 0, 255) if kind == "PNG" else (255, 0, 0))
    if kind == "PNG":
        for x in range(10):
            image.putpixel((x, 0), (255, 0, 0, 0))  # a transparent row start
    path = tmp_path / f"profiled.{kind.lower()}"
    image.save(
        path, format=kind, icc_profile=_icc_swapping_red_and_blue(), **({"quality": 95} if kind == "JPEG" else {})
    )
    pic = pictures.load_picture(path, "book")
    assert pic.raster_uri is not None
    decoded = Image.open(io.BytesIO(base64.b64decode(pic.raster_uri.split(",", 1)[1])))
    assert decoded.mode == mode
    assert near(pixel_at(decoded, (10, 10))[:3], (0, 0, 255), 8)  # the profile's meaning of "red", in sRGB
    if kind == "PNG":
        assert pixel_at(decoded, (3, 0))[3] == 0 and pixel_at(decoded, (10, 10))[3] == 255
