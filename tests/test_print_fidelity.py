"""Print fidelity on every paper and option (issue 13), read back from the PDFs."""

from __future__ import annotations

import re

import pytest
from pdfcheck import form_matrices, forms_drawn, ink_bounds, mm, open_plumber, page_texts, rects_of_size
from pypdf import PdfReader

from boardgen.options import KitOptions, kit_file_name
from boardgen.render.imposition import PAPERS

BOARD_MM = 7 * 40 + 2 * 18
PIXEL = 25.4 / 40  # ink_bounds renders at 40 dpi


def assert_inside_window(pdf, margin: float = 8.0) -> None:
    """Everything pdfium paints on every page stays inside the page less its margin."""
    reader = PdfReader(str(pdf))
    for index, page in enumerate(reader.pages):
        w, h = mm(float(page.mediabox.width)), mm(float(page.mediabox.height))
        box = ink_bounds(pdf, index)
        assert box is not None
        x0, y0, x1, y1 = box
        assert x0 >= margin - PIXEL and y0 >= margin - PIXEL, (pdf.name, index + 1, box)
        assert x1 <= w - margin + PIXEL and y1 <= h - margin + PIXEL, (pdf.name, index + 1, box, (w, h))


def heads(pdf) -> list[str]:
    return [t.split("\n", 1)[0] for t in page_texts(pdf)]


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_every_piece_on_the_paper_of_every_listed_size(kit_factory, paper):
    pdf, _ = kit_factory(paper=paper)
    assert_inside_window(pdf)
    drawn = [name for names in forms_drawn(pdf) for name in names]
    assert len({n for n in drawn if n.startswith("Tile-")}) == 34
    assert len({n for n in drawn if n.startswith("Card-") and n != "Card-back"}) == 24


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("classic", {"orientation": "landscape"}),  # landscape board sheets, portrait piece pages
        ("classic", {"orientation": "portrait", "paper": "legal"}),
        ("minos", {"paper": "legal"}),  # picks landscape board sheets by itself
        ("master", {"paper": "210x210"}),  # the score pad is shrunk to the page
    ],
)
def test_pieces_stay_on_the_paper_with_turned_board_sheets(kit_factory, game, options):
    pdf, _ = kit_factory(game, **options)
    assert_inside_window(pdf)
    drawn = [name for names in forms_drawn(pdf) for name in names]
    if game == "minos":
        assert len({n for n in drawn if n.startswith("Disc-piece-")}) == 16
    else:
        assert len({n for n in drawn if n.startswith("Tile-")}) == 34


def test_landscape_board_sheets_then_portrait_pages(kit_factory):
    pdf, _ = kit_factory(orientation="landscape")
    reader = PdfReader(str(pdf))
    sizes = [(round(mm(float(p.mediabox.width))), round(mm(float(p.mediabox.height)))) for p in reader.pages]
    kinds = heads(pdf)
    assert all(sizes[i] == (297, 210) for i, h in enumerate(kinds) if h.startswith("Board"))
    assert all(sizes[i] == (210, 297) for i, h in enumerate(kinds) if not h.startswith("Board"))


def test_glue_band_sheet_has_crop_marks_on_its_cut_line(kit_factory):
    pdf, result = kit_factory(joint="overlap")
    with open_plumber(pdf) as doc:
        page = doc.pages[2]  # up-left (after cover and rules): it carries the bands on its right and bottom
        outline = rects_of_size(page, BOARD_MM, BOARD_MM)[0]
        ox, oy = mm(outline["x0"]), mm(outline["top"])
        vertical_marks = {
            round(mm(line["x0"]) - ox, 1)
            for line in page.lines
            if abs(mm(line["bottom"] - line["top"]) - 5.0) < 0.05 and mm(line["bottom"]) < oy
        }
    # Crossing marks of the seam (from the crosses) and of the band's outer edge, 10 mm further.
    seam = 146.92
    assert vertical_marks == {0.0, round(seam + 10.0, 1)}
    cut = [
        line
        for line in page.lines
        if abs(mm(line["x0"]) - ox - seam - 10.0) < 0.05 and mm(line["bottom"] - line["top"]) > 100
    ]
    assert cut, "no cut line along the glue band's outer edge"
    assert result.warnings == []


def test_a_seam_that_must_cross_art_is_said(kit_factory):
    pdf, result = kit_factory(margin=15.0)
    # Margin 15: 164 mm of content a sheet, so the vertical seam must lie in [152, 164]; the
    # sliding slot's zones are [140, 147.9] and [168.1, 176]: nothing fits.
    assert len(result.warnings) == 1
    assert "vertical seam 158.0 mm" in result.warnings[0] and "insertion arrows of column 4" in result.warnings[0]
    cover = re.sub(r"\s+", " ", page_texts(pdf)[0])
    assert "Warning: the vertical seam 158.0 mm" in cover


@pytest.mark.parametrize(
    ("options", "expected", "absent"),
    [
        (
            {},
            [
                "Paper (80-120 g/m²), single-sided: pages 1-2.",
                "Card (250-300 g/m²), single-sided: pages 3-7.",
                "double-sided, flipping on the long edge: pages 8-11",  # see test_kit_pdf
                "In all: 7 sheets of card, 2 of paper.",
                "Print pages 8-9 first",
                "butt the sheets",
            ],
            ["glue band"],
        ),
        ({"flip": "short"}, ["flipping on the short edge: pages 8-11"], ["long edge"]),
        (
            {"backs": "fold"},
            ["Card (250-300 g/m²), single-sided: pages 3-", "fold each card sheet on the dashed line"],
            ["double-sided"],
        ),
        (
            {"backs": "none"},
            ["Card (250-300 g/m²), single-sided: pages 3-", "The cards have no backs"],
            ["double-sided"],
        ),
        ({"joint": "overlap"}, ["a tinted glue band stays on the sheet that carries it"], ["butt the sheets"]),
    ],
)
def test_cover_print_steps_follow_the_options(kit_factory, options, expected, absent):
    pdf, _ = kit_factory(**options)
    cover = re.sub(r"\s+", " ", page_texts(pdf)[0])
    for text in expected:
        assert text in cover, text
    for text in absent:
        assert text not in cover, text
    # The page ranges name the card pages exactly: all of them and nothing else.
    kinds = heads(pdf)
    cards = [i + 1 for i, h in enumerate(kinds) if h.startswith(("Treasure cards", "Card backs"))]
    if options.get("backs", "duplex") == "duplex":
        assert cards == list(range(cards[0], len(kinds) + 1)) and len(cards) == 4
        assert f"Card (250-300 g/m²), single-sided: pages 3-{cards[0] - 1}." in cover
        assert f"edge: pages {cards[0]}-{cards[-1]} (each card sheet" in cover


def test_french_marks_are_not_left_at_a_line_start(kit_factory):
    pdf, _ = kit_factory("master", lang="fr")
    for text in page_texts(pdf):
        for line in text.split("\n"):
            assert not re.match(r"\s*[:;!?]", line), line


@pytest.mark.parametrize(("flip", "turned"), [("long", False), ("short", True)])
def test_back_artwork_turns_with_a_short_edge_flip(kit_factory, flip, turned):
    pdf, _ = kit_factory(flip=flip)
    index = heads(pdf).index("Card backs")
    matrices = form_matrices(pdf, index, "Card-back")
    assert len(matrices) == 12
    for a, b, c, d, _, _ in matrices:
        assert (a, d) == ((-1.0, -1.0) if turned else (1.0, 1.0)) and b == c == 0


def test_file_names_are_distinct_per_variant(kit_factory):
    variants = [
        KitOptions(),
        KitOptions(lang="fr"),
        KitOptions(paper="letter"),
        KitOptions(joint="overlap"),
        KitOptions(joint="overlap", overlap=12.0),
        KitOptions(backs="fold"),
        KitOptions(backs="none"),
        KitOptions(flip="short"),
        KitOptions(back_offset=(0.5, -1.0)),
        KitOptions(margin=12.0),
        KitOptions(orientation="landscape"),
        KitOptions(theme="ink-saver"),
        KitOptions(seed=7),
        KitOptions(board_sheets=(2,)),
        KitOptions(lang="fr", paper="letter", backs="fold"),
    ]
    names = [kit_file_name("classic", v) for v in variants]
    assert len(set(names)) == len(names), names
    assert names[0] == "classic-a4.pdf"
    _, result = kit_factory(flip="short")
    assert result.pdf.name == "classic-a4-flipshort.pdf"


def test_reprinted_sheets_keep_their_neighbour_labels(kit_factory):
    pdf, _ = kit_factory(board_sheets=(2, 3))
    texts = page_texts(pdf)
    assert "joins Up Left (1)" in texts[0] and "joins Down Right (4)" in texts[0]
    assert "joins Up Left (1)" in texts[1] and "joins Down Right (4)" in texts[1]
