"""The Grand Labyrinthe kit, read back through real PDF readers; every theme draws it."""

from __future__ import annotations

import re

import pytest
from pdfcheck import crosses, mm, open_plumber, page_texts, rects_of_size
from pypdf import PdfReader

from boardgen.data.loader import bundled_names, layouts_root, load
from boardgen.data.theme import load_theme
from boardgen.kits import grand as kit
from boardgen.model.grand import build
from boardgen.render.imposition import CROSS_SIZE, paper


@pytest.fixture(scope="module")
def layout():
    return build(load("game", "grand"))


def test_board_is_two_by_two_with_seams_on_cell_edges(kit_factory, layout) -> None:
    pdf, _ = kit_factory("grand")
    texts = page_texts(pdf)
    board_pages = [i for i, t in enumerate(texts) if t.startswith("Board")]
    assert len(board_pages) == 4
    edges = {round(layout.border_mm + k * layout.pitch_mm, 2) for k in range(layout.size + 1)}
    with open_plumber(pdf) as doc:
        for index in board_pages:
            page = doc.pages[index]
            assert abs(mm(page.width) - 210) < 0.5 and abs(mm(page.height) - 297) < 0.5
            outline = rects_of_size(page, layout.board_mm, layout.board_mm)
            assert outline, "board outline not at its declared size"
        first = doc.pages[board_pages[0]]
        o = rects_of_size(first, layout.board_mm, layout.board_mm)[0]
        seam = {round(x - mm(o["x0"]), 2) for x, y in crosses(first, CROSS_SIZE) if y < mm(o["top"])}
    assert len(seam) == 1 and seam <= edges


def test_cards_with_duplex_backs(kit_factory, layout) -> None:
    pdf, _ = kit_factory("grand")
    texts = page_texts(pdf)
    fronts = [i for i, t in enumerate(texts) if t.startswith("Event cards")]
    backs = [i for i, t in enumerate(texts) if t.startswith("Card backs")]
    assert len(fronts) == len(backs) == 3  # 32 mini euro cards, butted 12 to a page
    assert all(b == f + 1 for f, b in zip(fronts, backs, strict=True))
    # No parity rule: the cover names the double-sided pages (fronts and their backs).
    w, h = layout.card_size_mm
    size = (w + 2 * layout.bleed_mm, h + 2 * layout.bleed_mm)
    with open_plumber(pdf) as doc:
        cards = sum(len(rects_of_size(doc.pages[i], *size)) for i in fronts)
    assert cards == 32
    body = "\n".join(texts[i] for i in fronts)
    for card in layout.deck:
        assert body.count(card.title["en"]) == card.count, card.id


@pytest.mark.parametrize("backs", ["fold", "none"])
def test_other_card_backs(kit_factory, layout, backs) -> None:
    pdf, _ = kit_factory("grand", backs=backs)
    texts = page_texts(pdf)
    assert not any(t.startswith("Card backs") for t in texts)
    pages = [i for i, t in enumerate(texts) if t.startswith("Event cards")]
    w, h = layout.card_size_mm
    size = (w + 2 * layout.bleed_mm, h + 2 * layout.bleed_mm)
    with open_plumber(pdf) as doc:
        # Fold-over cards may lie turned 90 degrees, when that fits more on a page.
        printed = sum(
            len(rects_of_size(doc.pages[i], *size)) + len(rects_of_size(doc.pages[i], size[1], size[0])) for i in pages
        )
    # Fold-over pages carry each card's back beside it.
    assert printed == (64 if backs == "fold" else 32)


def test_french_kit_rules_and_pieces(kit_factory) -> None:
    pdf, result = kit_factory("grand", lang="fr")
    text = "\n".join(page_texts(pdf))
    assert "Le Grand Labyrinthe" in text and "Antre du Minotaure" in text
    assert "Blocage général" in text and "Les cartes (32)" in text
    # No line of the rules sheet starts with the punctuation its no-break space holds back.
    rules = [t for t in page_texts(pdf) if t.startswith("Règles")]
    assert rules
    lines = [line.strip() for t in rules for line in t.split("\n")]
    assert not [line for line in lines if line[:1] in (";", ":", "!", "?", "»")]
    reader = PdfReader(str(pdf))
    assert len(reader.pages) == result.pages
    with open_plumber(pdf) as doc:
        # The pawns and dice go under the board parts, each sheet saying what to cut from it.
        pieces = [p for p in doc.pages if "À découper" in (p.extract_text() or "")]
        assert pieces
        diameter = kit.disc_diameter(build(load("game", "grand")))
        discs = [
            c
            for p in pieces
            for c in p.curves
            if abs(mm(c["width"]) - diameter) < 0.1 and abs(mm(c["width"]) - mm(c["height"])) < 0.05
        ]
        assert len(discs) == 4


def test_french_texts_keep_their_typography() -> None:
    for path in [layouts_root() / "rules" / "grand.fr.md", layouts_root() / "games" / "grand.toml"]:
        text = path.read_text(encoding="utf-8")
        french = text if path.suffix == ".md" else "\n".join(re.findall(r'fr = "([^"]*)"', text))
        assert not re.search(r" [:;!?»]", french), path
        assert not re.search(r"« ", french), path
        assert not re.search(r"\w[;!?]", french), path


@pytest.mark.parametrize("theme", bundled_names("theme"))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_theme_draws_every_piece(layout, theme: str, lang: str) -> None:
    drawings = kit.draw(layout, load_theme(theme), layout, lang)
    files = drawings.files()
    assert len([k for k in files if k.startswith("card-") and k != "card-back"]) == 16
    assert files["board"].count('id="field-') >= 119
    assert all(text.startswith("<svg") or text.startswith("<?xml") for text in files.values())


def test_board_fits_two_by_two_on_a4_and_letter(layout) -> None:
    from boardgen.options import KitOptions

    for name in ("a4", "letter"):
        tiling = kit.board_tiling(layout, KitOptions(paper=name))
        assert (tiling.rows, tiling.cols) == (2, 2), name
        assert paper(name)


def _path_points(d: str) -> list[tuple[float, float]]:
    """Points along an SVG path of absolute M, L, Q and C commands (as the board draws)."""
    points: list[tuple[float, float]] = []
    at = (0.0, 0.0)
    for command, args in re.findall(r"([MLQC])([^MLQC]*)", d):
        values = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", args)]
        pts = list(zip(values[0::2], values[1::2], strict=True))
        if command == "M":
            at = pts[-1]
        elif command == "L":
            for p in pts:
                points += [(at[0] + (p[0] - at[0]) * t / 20, at[1] + (p[1] - at[1]) * t / 20) for t in range(21)]
                at = p
        else:
            ctrl = [at, *pts]
            for t in (i / 40 for i in range(41)):
                level = ctrl
                while len(level) > 1:
                    level = [
                        (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                        for a, b in zip(level, level[1:], strict=False)
                    ]
                points.append(level[0])
            at = pts[-1]
    return points


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_arrows_cross_no_field_number_or_name(layout, lang: str) -> None:
    """The arrows (jumps and choices) keep off every printed number and name, read back from
    the board's SVG: text boxes from the font's metrics, arrow lines from their paths."""
    import xml.etree.ElementTree as ET

    from boardgen.data import fonts

    theme = load_theme("classic")
    root = ET.fromstring(kit.draw(layout, theme, layout, lang).board)
    boxes = []
    for el in root.iter("{http://www.w3.org/2000/svg}text"):
        ident = el.get("id", "")
        if ident.startswith("field-") and (ident.endswith("-number") or ident.endswith("-name")):
            x, y, size = float(el.attrib["x"]), float(el.attrib["y"]), float(el.attrib["font-size"])
            width = fonts.text_width(el.text or "", el.attrib["font-family"], el.attrib["font-weight"], size)
            left = x - width / 2 if el.get("text-anchor") == "middle" else x
            boxes.append((ident, left, y - size * 0.72, left + width, y + size * 0.1))
    assert len(boxes) > 119
    arrows = [
        el
        for el in root.iter("{http://www.w3.org/2000/svg}path")
        if el.get("id", "").endswith("-path") and el.get("id", "").startswith("arrow-")
    ]
    assert len(arrows) == 11
    crossed = {
        (arrow.get("id"), ident)
        for arrow in arrows
        for px, py in _path_points(arrow.attrib["d"])
        for ident, x0, y0, x1, y1 in boxes
        if x0 <= px <= x1 and y0 <= py <= y1
    }
    assert not crossed
