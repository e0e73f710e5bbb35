"""The classic kit read back through real PDF readers: sizes, scale, marks, fonts, backs."""

from __future__ import annotations

import math

import pytest
from pdfcheck import crosses, forms_drawn, ink_bounds, mm, open_plumber, page_texts, pdf_lookup, rects_of_size
from pypdf import PdfReader

from boardgen.render.imposition import CROSS_SIZE

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")

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
        for word, kind in (
            ("Board", "board"),
            ("Playing pieces", "pieces"),
            ("Treasure cards", "cards"),
            ("Card backs", "backs"),
            ("Pawns", "pawns"),
            ("Rules", "rules"),
            ("Left blank", "blank"),
            ("Labyrinth", "cover"),
        ):
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
    # Worked by hand from the page zones (8 mm margins, 11 mm header, 13 mm footer; pieces may use
    # the 8 mm mark ring, to y = 276 on A4, 258.4 on Letter): paper first (cover, rules), then the
    # board parts at the top of the content area (y = 27), 146.92 mm high for the upper ones,
    # 169.08 for the lower. Pieces start 8 mm below, under a 6 mm cut list and, where standees
    # go, their 2-line note; a tile grid takes 6 mm of crop marks around its 40 mm rows. On A4 one
    # row of 4 tiles under each part (with a standee under the upper ones) leaves 18 tiles, 5
    # rows of 4 on one piece page; on Letter the lower parts leave 48 mm, room for standees only,
    # so 26 tiles need two piece pages. Cards butt 4 x 3 (44 x 67 mm, bleed around the block:
    # 182 x 207 mm) in the 182 x 245 mm inside the crop-mark ring on A4, 187.9 x 227.4 on
    # Letter: 12 a page.
    pieces = {"a4": ["pieces"], "letter": ["pieces"] * 2}[paper]
    expected = ["cover", "rules"] + ["board"] * 4 + pieces + ["cards", "backs"] * 2
    assert kinds(pdf) == expected


def test_print_scaling_none_and_no_raster_images(kit_factory):
    pdf, _ = kit_factory()
    reader = PdfReader(str(pdf))
    assert str(pdf_lookup(reader.trailer, "/Root", "/ViewerPreferences", "/PrintScaling")) == "/None"

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
    for label in ("Labyrinthe", "Haut gauche", "Émeraude", "Épée", "Chauve-souris", "Règles", "Crâne", "Fée"):
        assert label in text, label
    assert "\ufffd" not in text and "(cid:" not in text


@pytest.mark.parametrize(("paper", "under_board"), [("a4", [4, 4, 4, 4]), ("letter", [4, 4, 0, 0])])
def test_tiles_fill_the_room_under_the_board_parts(kit_factory, paper, under_board):
    pdf, _ = kit_factory(paper=paper)
    drawn = forms_drawn(pdf)
    tiles = [[name for name in names if name.startswith("Tile-")] for names in drawn]
    assert [len(tiles[i]) for i in range(2, 6)] == under_board  # see test_page_sizes_and_order
    every = [name for names in tiles for name in names]
    assert len(every) == len(set(every)) == 34  # each tile once
    pawns = [name for names in drawn for name in names if name.startswith("Pawn-")]
    assert sorted(pawns) == ["Pawn-blue", "Pawn-green", "Pawn-red", "Pawn-yellow"]


def test_board_outline_and_tile_measure_their_declared_size(kit_factory):
    pdf, _ = kit_factory()
    with open_plumber(pdf) as doc:
        board_page = doc.pages[2]
        outlines = rects_of_size(board_page, BOARD_MM, BOARD_MM)
        assert outlines, "board outline not found at its declared size"
        # The 18 tiles not under the board, on the piece page (edge and wall square of each:
        # count places).
        piece_page = kinds(pdf).index("pieces")
        places = {(round(r["x0"]), round(r["top"])) for r in rects_of_size(doc.pages[piece_page], 40, 40)}
        assert len(places) == 18
        card_page = doc.pages[kinds(pdf).index("cards")]
        bleeds = rects_of_size(card_page, CARD_MM[0] + 2 * BLEED_MM, CARD_MM[1] + 2 * BLEED_MM)
        assert len(bleeds) == 12


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
        for sheet, page in enumerate(doc.pages[2:6], start=1):
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
    front_pages = [i for i, kind in enumerate(kinds(pdf)) if kind == "cards"]
    assert len(front_pages) == 2
    with open_plumber(pdf) as doc:
        for front_index in front_pages:
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


@pytest.mark.parametrize(("flip", "page_shift"), [("long", (-1.0, -0.5)), ("short", (1.0, 0.5))])
def test_back_offset_moves_only_the_backs_as_seen_from_the_front(kit_factory, flip, page_shift):
    # --back-offset 1,-0.5 moves the backs 1 mm right and 0.5 mm up as seen from the front. A
    # long-edge flip mirrors x, so on the back page itself that is 1 mm left; a short-edge flip
    # mirrors y, so 0.5 mm down.
    plain, _ = kit_factory(flip=flip)
    shifted, _ = kit_factory(flip=flip, back_offset=(1.0, -0.5))
    size = (CARD_MM[0] + 2 * BLEED_MM, CARD_MM[1] + 2 * BLEED_MM)
    front = kinds(plain).index("cards")
    with open_plumber(plain) as a, open_plumber(shifted) as b:
        fa, fb = rects_of_size(a.pages[front], *size), rects_of_size(b.pages[front], *size)
        assert [(r["x0"], r["top"]) for r in fa] == [(r["x0"], r["top"]) for r in fb]
        ba, bb = rects_of_size(a.pages[front + 1], *size), rects_of_size(b.pages[front + 1], *size)
        assert len(ba) == len(bb) == 12
        for ra, rb in zip(ba, bb, strict=True):
            assert mm(rb["x0"] - ra["x0"]) == pytest.approx(page_shift[0], abs=0.01)
            assert mm(rb["top"] - ra["top"]) == pytest.approx(page_shift[1], abs=0.01)


def test_back_offset_is_bounded_by_the_printable_area(tmp_path):
    from boardgen.errors import UsageError
    from boardgen.kit import render_kit
    from boardgen.options import KitOptions

    # The 4 x 3 block with bleed is 182 mm wide, the A4 window 194: 6 mm to spare on each side.
    render_kit("classic", tmp_path, KitOptions(previews=False, svg=False, back_offset=(5.9, 0.0), check=False))
    with pytest.raises(UsageError, match="moves the card backs 0.1 mm off the printable area"):
        render_kit("classic", tmp_path, KitOptions(previews=False, svg=False, back_offset=(6.1, 0.0), check=False))


def test_fold_over_puts_backs_beside_fronts(kit_factory):
    pdf, _ = kit_factory(backs="fold")
    size = (CARD_MM[0] + 2 * BLEED_MM, CARD_MM[1] + 2 * BLEED_MM)
    with open_plumber(pdf) as doc:
        card_pages = [p for p in doc.pages if (p.extract_text() or "").startswith("Treasure cards")]
        # Inside the crop-mark ring A4 has 182 x 245 mm. A card with its back beside it takes
        # 2 x 44 mm: two such pairs and the outer bleed fill the width (2 x 88 + 6 = 182 mm),
        # three rows 3 x 67 + 6 = 207 mm: 6 a sheet (turned, one pair of 2 x 67 mm and 5 rows
        # of 44 would hold 5).
        assert len(card_pages) == math.ceil(24 / 6)
        page = card_pages[0]
        rects = rects_of_size(page, *size)
        assert len(rects) == 12
        xs = sorted({round(mm(r["x0"]), 1) for r in rects})
        assert len(xs) == 4  # front, back, front, back
        # Each back's bleed edge lies a card's width right of its front's: the two trims meet on
        # the fold line, the back mirrored across it.
        assert xs[1] - xs[0] == pytest.approx(CARD_MM[0], abs=0.05)
        assert xs[3] - xs[2] == pytest.approx(CARD_MM[0], abs=0.05)
        # The pairs butt on a shared cut line: the next front's trim starts where a back's ends.
        assert xs[2] - xs[0] == pytest.approx(2 * CARD_MM[0], abs=0.05)


def test_letter_and_a3_board_sheet_counts(kit_factory):
    letter, _ = kit_factory(paper="letter")
    a3, _ = kit_factory(paper="a3")
    assert kinds(letter).count("board") == 4
    # A3 content is 265 x 364 mm portrait, 388 x 241 landscape: a 316 mm board needs two sheets.
    assert kinds(a3).count("board") == 2


def test_reprint_of_some_sheets_is_its_own_file(tmp_path):
    from boardgen.errors import UsageError
    from boardgen.kit import render_kit
    from boardgen.options import KitOptions

    full = render_kit("classic", tmp_path, KitOptions(previews=False, check=False))
    before = full.pdf.read_bytes()
    some = render_kit("classic", tmp_path, KitOptions(previews=False, board_sheets=(2, 4), check=False))
    assert some.pdf.name == "classic-a4-sheets-2-4.pdf"
    assert full.pdf.read_bytes() == before
    assert [t.split("\n", 1)[0].split(" · ")[-1] for t in page_texts(some.pdf)] == ["sheet 2 of 4", "sheet 4 of 4"]
    with pytest.raises(UsageError, match="no sheet 5: this board has 4 sheets"):
        render_kit("classic", tmp_path, KitOptions(previews=False, board_sheets=(5,), check=False))


def test_cards_without_backs(kit_factory):
    pdf, _ = kit_factory(backs="none")
    assert "backs" not in kinds(pdf) and kinds(pdf).count("cards") == 2
