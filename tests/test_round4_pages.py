"""Issue 40, piece pages: a cut list on every card page, and `--gap` never leaving a card alone
on a sheet and applying to every piece. Read from the PDF's pages and the placements."""

from __future__ import annotations

import io
import re

import pdfplumber
import pytest

from boardgen.geometry import Rect
from boardgen.kit import build_kit
from boardgen.options import KitOptions

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")


def test_every_card_page_carries_its_cut_list():
    kit = build_kit("classic", KitOptions(check=False, previews=False))
    with pdfplumber.open(io.BytesIO(kit.pdf.data)) as pdf:
        texts = [page.extract_text() or "" for page in pdf.pages]
    cards = [text for text, kind in zip(texts, kit.pdf.kinds, strict=True) if kind == "cards"]
    assert cards
    listed = [int(m.group(1)) for text in cards for m in [re.search(r"Cut: (\d+) × treasure cards", text)] if m]
    assert len(listed) == len(cards), cards[0][:200]
    assert sum(listed) == sum(p.count for p in kit.catalogue if p.kind == "card")


def recipe_cards_said(text: str) -> int:
    said = re.search(r"Cut: (\d+) × recipe card", text)
    assert said is not None, text
    return int(said.group(1))


def test_gap_3_leaves_no_recipe_card_alone_and_spaces_the_wands():
    kit = build_kit("master", KitOptions(gap=3.0, check=False, previews=False))
    with pdfplumber.open(io.BytesIO(kit.pdf.data)) as pdf:
        texts = [page.extract_text() or "" for page in pdf.pages]
    sheets = [i for i, kind in enumerate(kit.pdf.kinds) if kind == "cards"]
    said = [recipe_cards_said(texts[i]) for i in sheets]
    placed = [sum(p.page == i and p.kind == "card" for p in kit.pdf.placements) for i in sheets]
    assert said == placed and sum(placed) == 21 and min(placed) >= 2, (said, placed)  # was 10 + 10 + 1
    wands = [p for p in kit.pdf.placements if p.kind == "wand"]
    assert wands
    for a in wands:
        for b in wands:
            if a is b or a.page != b.page:
                continue
            grown = Rect(a.trim.x - 2.99, a.trim.y - 2.99, a.trim.w + 5.98, a.trim.h + 5.98)
            apart = (
                grown.right <= b.trim.x
                or b.trim.right <= grown.x
                or grown.bottom <= b.trim.y
                or b.trim.bottom <= grown.y
            )
            assert apart, (a.piece, b.piece)  # 3 mm apart, as --gap 3 asks (was 2 mm)


def test_split_letter_covers_keep_to_one_paper_page(tmp_path):
    from boardgen.kit import render_kit

    for game, last in (("minos", "61: Elysium"), ("grand", "Mythology: 61–82")):
        render_kit(game, tmp_path, KitOptions(paper="letter", split=True, check=False, previews=False, svg=False))
        paper = next((tmp_path / game).glob("*-paper.pdf"))
        with pdfplumber.open(paper) as pdf:
            texts = [page.extract_text() or "" for page in pdf.pages]
        covers = [k for k, text in enumerate(texts) if not text.startswith("Rules")]
        assert covers == [0], (game, [t[:60] for t in texts])  # was 2 cover pages, the second a line or two
        assert last in texts[0]
