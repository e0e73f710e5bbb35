"""The classic kit read back through real PDF readers: sizes, scale, marks, fonts, backs."""

from __future__ import annotations

import math

import pytest
from pdfcheck import crosses, ink_bounds, mm, open_plumber, page_texts, rects_of_size
from pypdf import PdfReader

from boardgen.render.imposition import CROSS_SIZE

PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
BOARD_MM = 7 * 40 + 2 * 18  # classic.toml: 7 squares at a 40 mm pitch, an 18 mm frame
CARD_MM = (44.0, 67.0)  # mini-euro
BLEED_MM = 3.0
MARGIN_MM = 8.0


def headings(path) -> list[str]:
    return [text.split("\n", 1)[0] for text in page_texts(path)]


def kinds(path) -> list[str]:
    out = []
    for head in headings(path):
        for word, kind in (("Board", "board"), ("Corridor", "tiles"), ("Treasure cards", "cards"),
                           ("Card backs", "backs"), ("Pawns", "pawns"), ("Rules", "rules"),
                           ("Left blank", "blank"), ("Labyrinth", "cover")):
            if head.startswith(word):
                out.append(kind)
                break
        else:
            out.append(head)
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_sizes_and_order(kit_factory, paper):
    pdf, _ = kit_factory(paper=paper)
    reader = PdfReader(str(pdf))
    w, h = PAPERS_MM[paper]
    for page in reader.pages:
        assert mm(float(page.mediabox.width)) == pytest.approx(w, abs=0.1)
        assert mm(float(page.mediabox.height)) == pytest.approx(h, abs=0.1)
    # Worked by hand from the page zones (8 mm margins, 11 mm header, 13 mm footer, 8 mm mark ring):
    # A4 content 178 x 243 mm holds 4 x 6 tiles of 40 mm (24 + 10), Letter 183.9 x 223.4 holds
    # 4 x 5 (20 + 14); both hold 3 x 3 cards of 50 x 73 mm with bleed (9 + 9 + 6). Card fronts
    # start on odd pages so each back prints on the reverse of its front.
    expected = {
        "a4": ["cover"] + ["board"] * 4 + ["tiles", "tiles", "blank"] + ["cards", "backs"] * 3 + ["rules"],
        "letter": ["cover"] + ["board"] * 4 + ["tiles", "tiles", "pawns"] + ["cards", "backs"] * 3 + ["rules"],
    }[paper]
    assert kinds(pdf) == expected


def test_print_scaling_none_and_no_raster_images(kit_factory):
    pdf, _ = kit_factory()
    reader = PdfReader(str(pdf))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"

    def images(resources, seen=()):
        found = 0
        xobjects = resources.get("/XObject", {}) if resources else {}
        for ref in xobjects.values():
            obj = ref.get_object()
            if obj["/Subtype"] == "/Image":
                found += 1
            elif ref.idnum not in seen:
                found += images(obj.get("/Resources"), seen + (ref.idnum,))
        return found

    assert sum(images(page["/Resources"]) for page in reader.pages) == 0


def test_fonts_are_embedded_subsets_and_no_base14(kit_factory):
    pdf, _ = kit_factory(lang="fr")
    reader = PdfReader(str(pdf))
    fonts = {}

    def collect(resources):
        if not resources:
            return
        for ref in resources.get("/Font", {}).values():
            font = ref.get_object()
            fonts[font["/BaseFont"]] = font
        for ref in resources.get("/XObject", {}).values():
            obj = ref.get_object()
            if obj["/Subtype"] == "/Form":
                collect(obj.get("/Resources"))

    for page in reader.pages:
        collect(page["/Resources"])
    assert fonts, "no fonts found"
    for name, font in fonts.items():
        assert "+" in name, f"{name} is not a subset"
        descriptor = font["/FontDescriptor"]
        assert "/FontFile2" in descriptor, f"{name} is not an embedded TrueType font"
    assert not any("Helvetica" in n or "Times" in n or "Courier" in n for n in fonts)


def test_french_labels_have_their_accents(kit_factory):
    pdf, _ = kit_factory(lang="fr")
    text = "\n".join(page_texts(pdf))
    for label in ("Labyrinthe", "Haut gauche", "Émeraude", "Épée", "Chauve-souris", "Règles",
                  "Crâne", "Fée"):
        assert label in text, label
    assert "\ufffd" not in text and "(cid:" not in text


def test_board_outline_and_tile_measure_their_declared_size(kit_factory):
    pdf, _ = kit_factory()
    with open_plumber(pdf) as doc:
        board_page = doc.pages[1]
        outlines = rects_of_size(board_page, BOARD_MM, BOARD_MM)
        assert outlines, "board outline not found at its declared size"
        tile_page = doc.pages[5]
        tiles = rects_of_size(tile_page, 40.0, 40.0)
        assert len(tiles) >= 24  # every tile's edge rectangle on the first tile sheet
        card_page = doc.pages[8]
        bleeds = rects_of_size(card_page, CARD_MM[0] + 2 * BLEED_MM, CARD_MM[1] + 2 * BLEED_MM)
        assert len(bleeds) == 9


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_everything_visible_stays_inside_the_margins(kit_factory, paper):
    pdf, _ = kit_factory(paper=paper)
    w, h = PAPERS_MM[paper]
    pixel = 25.4 / 40
    for index in range(len(PdfReader(str(pdf)).pages)):
        box = ink_bounds(pdf, index)
        assert box is not None
        x0, y0, x1, y1 = box
        assert x0 >= MARGIN_MM - pixel and y0 >= MARGIN_MM - pixel, (index, box)
        assert x1 <= w - MARGIN_MM + pixel and y1 <= h - MARGIN_MM + pixel, (index, box)


def _board_crosses(pdf) -> dict[int, list[tuple[float, float]]]:
    """Per board sheet, its registration crosses in board coordinates (mm)."""
    out = {}
    with open_plumber(pdf) as doc:
        for sheet, page in enumerate(doc.pages[1:5], start=1):
            outline = rects_of_size(page, BOARD_MM, BOARD_MM)[0]
            ox, oy = mm(outline["x0"]), mm(outline["top"])
            out[sheet] = [(x - ox, y - oy) for x, y in crosses(page, CROSS_SIZE)]
    return out


@pytest.mark.parametrize("joint", ["butt", "overlap"])
def test_registration_crosses_match_across_neighbours(kit_factory, joint):
    pdf, _ = kit_factory(joint=joint)
    found = _board_crosses(pdf)
    neighbours = [(1, 2), (3, 4), (1, 3), (2, 4)]  # 2 x 2: up-left, up-right, down-left, down-right
    for a, b in neighbours:
        shared = [p for p in found[a] if any(math.dist(p, q) < 0.1 for q in found[b])]
        assert len(shared) == 1, (a, b, found[a], found[b])
    for sheet, points in found.items():
        # Each sheet of a 2 x 2 board has one outer end of each of its two seams; a cross there
        # lies outside the board, where no seam cut removes it before the sheets are joined.
        assert len(points) == 2, (sheet, points)
        for x, y in points:
            assert x < 0 or y < 0 or x > BOARD_MM or y > BOARD_MM, (sheet, x, y)


def test_sheets_join_on_one_seam_inside_the_sliding_slot(kit_factory):
    _, result = kit_factory()
    found = _board_crosses(result.pdf)
    seam_x = {round(x, 2) for x, y in found[1] if y < 0}  # crosses above the board's top edge
    assert len(seam_x) == 1
    seam = seam_x.pop()
    # The seam runs down column 3, a sliding line whose empty slots loose tiles cover in play
    # (board x from 18 + 3 * 40 = 138 to 178), and clear of that column's insertion arrows,
    # which are 2 x 0.28 x 36 mm wide around its middle (158).
    assert 138 < seam < 178
    assert abs(seam - 158) > 0.28 * 36


@pytest.mark.parametrize("flip", ["long", "short"])
def test_duplex_backs_mirror_their_fronts(kit_factory, flip):
    pdf, _ = kit_factory(flip=flip)
    w, h = PAPERS_MM["a4"]
    size = (CARD_MM[0] + 2 * BLEED_MM, CARD_MM[1] + 2 * BLEED_MM)
    with open_plumber(pdf) as doc:
        for front_index in (8, 10, 12):
            fronts = rects_of_size(doc.pages[front_index], *size)
            backs = rects_of_size(doc.pages[front_index + 1], *size)
            assert len(fronts) == len(backs) > 0
            back_set = {(round(mm(r["x0"]), 1), round(mm(r["top"]), 1)) for r in backs}
            for r in fronts:
                x0, top = mm(r["x0"]), mm(r["top"])
                if flip == "long":
                    expected = (round(w - x0 - size[0], 1), round(top, 1))
                else:
                    expected = (round(x0, 1), round(h - top - size[1], 1))
                assert expected in back_set


def test_back_offset_moves_only_the_backs(kit_factory):
    plain, _ = kit_factory()
    shifted, _ = kit_factory(back_offset=(1.0, -0.5))
    size = (CARD_MM[0] + 2 * BLEED_MM, CARD_MM[1] + 2 * BLEED_MM)
    with open_plumber(plain) as a, open_plumber(shifted) as b:
        fa, fb = rects_of_size(a.pages[8], *size), rects_of_size(b.pages[8], *size)
        assert [(r["x0"], r["top"]) for r in fa] == [(r["x0"], r["top"]) for r in fb]
        ba, bb = rects_of_size(a.pages[9], *size), rects_of_size(b.pages[9], *size)
        for ra, rb in zip(ba, bb, strict=True):
            assert mm(rb["x0"] - ra["x0"]) == pytest.approx(1.0, abs=0.01)
            assert mm(rb["top"] - ra["top"]) == pytest.approx(-0.5, abs=0.01)


def test_fold_over_puts_backs_beside_fronts(kit_factory):
    pdf, _ = kit_factory(backs="fold")
    size = (CARD_MM[0] + 2 * BLEED_MM, CARD_MM[1] + 2 * BLEED_MM)
    with open_plumber(pdf) as doc:
        card_pages = [p for p in doc.pages if (p.extract_text() or "").startswith("Treasure cards")]
        # A4 content is 178 mm wide: each half (87 mm less half the 4 mm fold gap) holds one
        # 50 mm column of cards with bleed, 3 rows high: 3 cards a sheet.
        assert len(card_pages) == math.ceil(24 / 3)
        page = card_pages[0]
        rects = rects_of_size(page, *size)
        assert len(rects) == 6
        xs = sorted({round(mm(r["x0"]), 1) for r in rects})
        assert len(xs) == 2  # a column of fronts, a column of backs
        fold = (xs[0] + xs[-1] + size[0]) / 2
        assert fold == pytest.approx(PAPERS_MM["a4"][0] / 2, abs=0.2)


def test_letter_and_a3_board_sheet_counts(kit_factory):
    letter, _ = kit_factory(paper="letter")
    a3, _ = kit_factory(paper="a3")
    assert kinds(letter).count("board") == 4
    # A3 content is 265 x 364 mm portrait, 388 x 241 landscape: a 316 mm board needs two sheets.
    assert kinds(a3).count("board") == 2


def test_reprint_of_some_sheets_is_its_own_file(tmp_path):
    from boardgen.errors import UsageError
    from boardgen.kit import render_kit
    from boardgen.kits.common import KitOptions

    full = render_kit("classic", tmp_path, KitOptions(previews=False), check=False)
    before = full.pdf.read_bytes()
    some = render_kit("classic", tmp_path, KitOptions(previews=False, board_sheets=(2, 4)), check=False)
    assert some.pdf.name == "classic-a4-sheets-2-4.pdf"
    assert full.pdf.read_bytes() == before
    assert [t.split("\n", 1)[0].split(" · ")[-1] for t in page_texts(some.pdf)] == ["sheet 2 of 4", "sheet 4 of 4"]
    with pytest.raises(UsageError, match="no sheet 5: this board has 4 sheets"):
        render_kit("classic", tmp_path, KitOptions(previews=False, board_sheets=(5,)), check=False)


def test_cards_without_backs(kit_factory):
    pdf, _ = kit_factory(backs="none")
    assert "backs" not in kinds(pdf) and kinds(pdf).count("cards") == 3
