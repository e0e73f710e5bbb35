"""The King Minos and Labyrinthe Master kits, read back through real PDF readers."""

from __future__ import annotations

import math

import pytest
from pdfcheck import crosses, ink_bounds, mm, open_plumber, page_texts, rects_of_size
from pypdf import PdfReader

from boardgen.data.loader import load
from boardgen.model.master import build as build_master
from boardgen.model.minos import build as build_minos
from boardgen.render.imposition import CROSS_SIZE


def test_minos_board_is_tiled_two_by_two_with_places(kit_factory):
    pdf, _ = kit_factory("minos")
    layout = build_minos(load("game", "minos"))
    texts = page_texts(pdf)
    board_pages = [i for i, t in enumerate(texts) if t.startswith("Board")]
    assert len(board_pages) == 4
    for place in ("Up Left", "Up Right", "Down Left", "Down Right"):
        assert any(place in texts[i].split("\n", 1)[0] for i in board_pages), place
    with open_plumber(pdf) as doc:
        page = doc.pages[board_pages[0]]
        outline = rects_of_size(page, layout.board_mm, layout.board_mm)
        assert outline, "board outline not at its declared size"
        found = {}
        for sheet, index in enumerate(board_pages, start=1):
            p = doc.pages[index]
            o = rects_of_size(p, layout.board_mm, layout.board_mm)[0]
            found[sheet] = [(x - mm(o["x0"]), y - mm(o["top"])) for x, y in crosses(p, CROSS_SIZE)]
    for a, b in [(1, 2), (3, 4), (1, 3), (2, 4)]:
        assert sum(1 for p in found[a] if any(math.dist(p, q) < 0.1 for q in found[b])) == 1


def test_minos_seams_follow_cell_edges_when_they_fit(kit_factory):
    _, result = kit_factory("minos")
    layout = build_minos(load("game", "minos"))
    pdf = result.pdf
    with open_plumber(pdf) as doc:
        p = doc.pages[2]  # after the cover and the rules (paper), the first board sheet
        o = rects_of_size(p, layout.board_mm, layout.board_mm)[0]
        top = mm(o["top"])
        # Crosses above the board's top edge mark the vertical seam.
        seam = {round(x - mm(o["x0"]), 2) for x, y in crosses(p, CROSS_SIZE) if y < top}
    edges = {round(layout.border_mm + k * layout.pitch_mm, 2) for k in range(layout.size + 1)}
    assert len(seam) == 1 and seam <= edges


def test_minos_pieces_dice_and_rules(kit_factory):
    pdf, _ = kit_factory("minos", lang="fr")
    text = "\n".join(page_texts(pdf))
    assert "Le Labyrinthe du roi Minos" in text and "Élysée" in text
    assert "Comment boardgen lit les règles" in text  # the engine's interpretations are printed
    with open_plumber(pdf) as doc:
        # The pieces fill the room under the board parts.
        discs = [
            c
            for page in doc.pages
            for c in page.curves
            if abs(mm(c["width"]) - mm(c["height"])) < 0.05 and 20 < mm(c["width"]) < 25
        ]
        assert len(discs) >= 16


def test_master_tokens_measure_their_diameter(kit_factory):
    pdf, _ = kit_factory("master")
    layout = build_master(load("game", "master"))
    with open_plumber(pdf) as doc:
        discs = [
            c
            for page in doc.pages
            for c in page.curves
            if abs(mm(c["width"]) - layout.token_diameter_mm) < 0.2
            and abs(mm(c["height"]) - layout.token_diameter_mm) < 0.2
        ]
        assert len(discs) == 21


def test_master_recipe_cards_and_backs(kit_factory):
    pdf, _ = kit_factory("master")
    layout = build_master(load("game", "master"))
    w, h = layout.card_size_mm
    size = (w + 2 * layout.bleed_mm, h + 2 * layout.bleed_mm)
    reader = PdfReader(str(pdf))
    texts = [p.extract_text() or "" for p in reader.pages]
    fronts = [i for i, t in enumerate(texts) if t.startswith("Recipe cards")]
    assert len(fronts) == math.ceil(21 / 12)  # butted 4 x 3 a page
    with open_plumber(pdf) as doc:
        total = sum(len(rects_of_size(doc.pages[i], *size)) for i in fronts)
        assert total == 21
        for i in fronts:
            assert texts[i + 1].startswith("Card backs")  # the cover names these pages for duplex
    assert any(t.startswith("Score pad") for t in texts)


@pytest.mark.parametrize(("game", "theme"), [("minos", "minoan"), ("master", "classic"), ("classic", "minoan")])
def test_nothing_visible_in_the_margins(kit_factory, game, theme):
    pdf, _ = kit_factory(game, theme=theme)
    pixel = 25.4 / 40
    for index in range(len(PdfReader(str(pdf)).pages)):
        bounds = ink_bounds(pdf, index)
        assert bounds is not None, (index,)
        x0, y0, x1, y1 = bounds
        assert x0 >= 8 - pixel and y0 >= 8 - pixel and x1 <= 202 + pixel and y1 <= 289 + pixel, (index,)


def test_a_board_that_needs_three_by_three_sheets(kit_factory):
    # On 160 x 190 mm paper the content area is 160 - 2 * (8 + 8) = 128 mm wide and
    # 190 - 16 - 11 - 13 - 16 = 134 mm high: a 320 mm board needs 3 x 3 sheets.
    # The board's sheets alone (a reprint heads them as the kit does): the sheets are what is tested.
    pdf, _ = kit_factory("minos", paper="160x190", only=("board",))
    layout = build_minos(load("game", "minos"))
    texts = page_texts(pdf)
    board_pages = [i for i, t in enumerate(texts) if t.startswith("Board")]
    assert len(board_pages) == 9
    heads = [texts[i].split("\n", 1)[0] for i in board_pages]
    assert "Middle Centre" in heads[4] and "sheet 5 of 9" in heads[4]
    with open_plumber(pdf) as doc:
        found = {}
        for sheet, index in enumerate(board_pages):
            p = doc.pages[index]
            o = rects_of_size(p, layout.board_mm, layout.board_mm)[0]
            found[sheet] = [(x - mm(o["x0"]), y - mm(o["top"])) for x, y in crosses(p, CROSS_SIZE)]
    # Crosses sit where a seam meets the board's outer edge (paper no seam cut removes): side
    # neighbours on the board's edge share one, the centre sheet has none.
    edge = {0, 2}
    for r in range(3):
        for c in range(3):
            here = r * 3 + c
            pairs = ([(here + 1, r in edge)] if c < 2 else []) + ([(here + 3, c in edge)] if r < 2 else [])
            for there, on_edge in pairs:
                shared = [p for p in found[here] if any(math.dist(p, q) < 0.1 for q in found[there])]
                assert len(shared) == (1 if on_edge else 0), (here, there)
    assert found[4] == []
