"""The moving-walls kit read back through real PDF readers: board sheets, blocks at the
board's exact scale, pawns, rules, every theme."""

from __future__ import annotations

import math

import pytest
from pdfcheck import crosses, ink_bounds, mm, open_plumber, page_texts, rects_of_size
from pypdf import PdfReader

from boardgen.data.loader import bundled_names, load
from boardgen.data.paths import layouts_root
from boardgen.model.walls import build
from boardgen.render.imposition import CROSS_SIZE

LAYOUT = build(load("game", "walls"))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_is_tiled_two_by_two_with_seams_on_square_edges(kit_factory, paper):
    # 21 squares of 15 mm and two 12 mm borders: 339 mm, under the 2 x 2 limit of both papers.
    assert LAYOUT.board_mm == pytest.approx(339.0)
    pdf, _ = kit_factory("walls", paper=paper)
    texts = page_texts(pdf)
    # (Text extraction ignores clipping: a sheet's text may start with the board's own text.)
    board_pages = [i for i, t in enumerate(texts) if "Board — " in t]
    assert len(board_pages) == 4
    edges = {round(LAYOUT.border_mm + k * LAYOUT.pitch_mm, 2) for k in range(LAYOUT.size + 1)}
    found = {}
    with open_plumber(pdf) as doc:
        for sheet, index in enumerate(board_pages, start=1):
            page = doc.pages[index]
            outline = rects_of_size(page, LAYOUT.board_mm, LAYOUT.board_mm)
            assert outline, "board outline not at its declared size"
            x0, top = mm(outline[0]["x0"]), mm(outline[0]["top"])
            found[sheet] = [(x - x0, y - top) for x, y in crosses(page, CROSS_SIZE)]
    seams = {round(x, 2) for sheet in found.values() for x, y in sheet if y < 0}
    assert len(seams) == 1 and seams <= edges
    # Neighbouring sheets share the registration cross where their seam meets the outer edge.
    for a, b in [(1, 2), (3, 4), (1, 3), (2, 4)]:
        assert sum(1 for p in found[a] if any(math.dist(p, q) < 0.1 for q in found[b])) == 1


def test_blocks_are_cut_out_at_the_boards_scale_with_their_labels(kit_factory):
    pdf, result = kit_factory("walls")
    texts = page_texts(pdf)
    placed = [p for p in result.placements if p.kind == "block"]
    assert sorted(p.piece for p in placed) == sorted(f"block:{b.id.lower()}" for b in LAYOUT.blocks)
    pitch = LAYOUT.pitch_mm
    wanted = {f"block:{b.id.lower()}": (b.cols * pitch, b.rows * pitch) for b in LAYOUT.blocks}
    with open_plumber(pdf) as doc:
        for p in placed:
            # Its trim is exactly its squares (turned or not), and a solid closed cut line lies
            # on it, read back from the page.
            w, h = wanted[p.piece] if p.rotation % 180 == 0 else wanted[p.piece][::-1]
            assert p.trim.w == pytest.approx(w, abs=0.01) and p.trim.h == pytest.approx(h, abs=0.01)
            page = doc.pages[p.page]
            cuts = [
                c
                for c in page.curves + page.rects
                if c["stroke"]
                and not c["fill"]
                and abs(mm(c["x0"]) - p.trim.x) < 0.05
                and abs(mm(c["top"]) - p.trim.y) < 0.05
                and abs(mm(c["width"]) - w) < 0.05
                and abs(mm(c["height"]) - h) < 0.05
            ]
            assert cuts, p.piece
    pages = sorted({p.page for p in placed})
    blocks_text = " ".join(texts[i] for i in pages)
    assert all(block.id in blocks_text.split() for block in LAYOUT.blocks)
    # Every sheet carrying blocks says so and how to assemble them.
    assert all(
        "wall blocks" in texts[i]
        and "thick card" in " ".join(texts[i].split())
        and "solid black outline" in " ".join(texts[i].split())
        for i in pages
    )
    # The board shows the same 32 labels on their outlines.
    svg = (pdf.parent / "svg" / "board.svg").read_text(encoding="utf-8")
    assert all(f'id="block-{block.id}-label"' in svg for block in LAYOUT.blocks)


def test_sixteen_pawns_in_four_colours(kit_factory):
    pdf, result = kit_factory("walls")
    placed = [p for p in result.placements if p.kind == "pawn"]
    assert len(placed) == 16 and all(p.shape == "circle" for p in placed)
    with open_plumber(pdf) as doc:
        # Each placed pawn's disc is drawn on its page exactly where its record says.
        discs = []
        for p in placed:
            found = [
                c
                for c in doc.pages[p.page].curves
                if abs(mm(c["width"]) - LAYOUT.pawn_diameter_mm) < 0.1
                and abs(mm(c["height"]) - LAYOUT.pawn_diameter_mm) < 0.1
                and abs(mm(c["x0"]) - p.trim.x) < 0.1
                and abs(mm(c["top"]) - p.trim.y) < 0.1
            ]
            assert found, p.piece
            discs.append(found[0])
        assert len({tuple(c["non_stroking_color"] or ()) for c in discs}) == 4


def test_rules_sheet_in_french_says_every_decision(kit_factory):
    pdf, _ = kit_factory("walls", lang="fr")
    text = "\n".join(page_texts(pdf))
    assert "Le Jeu du Labyrinthe" in text
    for words in (
        "2 joueurs",
        "rouge (en haut à gauche)",
        "vert (en bas à droite)",
        "par un côté ou par un coin",
        "vient de déplacer",
        "aucune case libre",
        "jouez seulement un bloc",
        "quart de tour",
    ):
        assert words in " ".join(text.split()), words
    source = (layouts_root() / "rules" / "walls.fr.md").read_text(encoding="utf-8")
    for mark in ":;!?":
        assert f" {mark}" not in source  # French typography: a no-break space before these
    assert "«\u00a0" in source and "\u00a0»" in source


@pytest.mark.parametrize("theme", bundled_names("theme"))
def test_every_theme_renders_the_kit(kit_factory, theme):
    # The classic theme is the default: that kit is shared with the tests above.
    pdf, result = kit_factory("walls", theme=theme) if theme != "classic" else kit_factory("walls")
    metadata = PdfReader(str(pdf)).metadata
    assert metadata is not None and metadata.subject is not None and metadata.subject.endswith(f"theme {theme}")
    pixel = 25.4 / 40
    for index in (0, 1, 5):
        bounds = ink_bounds(pdf, index)
        assert bounds is not None, (index,)
        x0, y0, x1, y1 = bounds
        assert x0 >= 8 - pixel and y0 >= 8 - pixel and x1 <= 202 + pixel and y1 <= 289 + pixel, (index,)
    assert result.pages == len(PdfReader(str(pdf)).pages)
