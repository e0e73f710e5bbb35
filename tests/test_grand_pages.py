"""Le Grand Labyrinthe's printed pages: the event cards' pictures, frame and band, and what a
seam warning names; read back from the PDF and the kit's SVG files."""

from __future__ import annotations

import re

import pytest
from pdfcheck import mm, open_plumber, page_texts, rects_of_size

from boardgen.data.loader import load
from boardgen.data.pictures import icons_root
from boardgen.data.theme import load_theme
from boardgen.kits.grand import board_tiling
from boardgen.model.grand import build, label
from boardgen.options import KitOptions

# What the old cards printed in their disc: Unicode signs, Orpheus' lyre a pair of scissors.
SYMBOLS = set("✂⚄⚅⊘⇄")


@pytest.fixture(scope="module")
def layout():
    return build(load("game", "grand"))


def _paths(svg: str) -> list[str]:
    return re.findall(r'<path[^>]* d="([^"]+)"', svg)


def _hex(colour: str) -> tuple[float, float, float]:
    return tuple(round(int(colour[i : i + 2], 16) / 255, 6) for i in (1, 3, 5))  # type: ignore[return-value]


def test_every_card_design_has_a_picture_and_the_lyre_is_a_lyre(kit_factory, layout) -> None:
    pdf, result = kit_factory("grand")
    folder = pdf.parent / "svg"
    pictures: dict[str, tuple[str, ...]] = {}
    for card in layout.deck:
        drawn = (folder / f"card-{card.id}.svg").read_text()
        # The picture is drawn as the paths of a bundled icon file, whole.
        icons = {p.stem: tuple(_paths(p.read_text())) for p in icons_root().glob("*.svg")}
        matches = [key for key, paths in icons.items() if paths and all(d in drawn for d in paths)]
        assert len(matches) == 1, (card.id, matches)
        pictures[card.id] = icons[matches[0]]
        if card.id == "orpheus":
            assert matches == ["lyre"]
    assert len(set(pictures.values())) == len(layout.deck) == 16  # sixteen designs, sixteen pictures
    fronts = [t for t in page_texts(pdf) if t.startswith("Event cards")]
    assert fronts and not SYMBOLS & set("".join(fronts))


def test_card_pictures_are_credited() -> None:
    credits = (icons_root() / "ATTRIBUTION.md").read_text()
    for path in sorted(icons_root().glob("*.svg")):
        if path.stem == "fir-cone":
            continue  # boardgen's own drawing, said so in the file
        assert f"| `{path.stem}` | [" in credits, path.stem


def _card_fronts(doc, texts, layout):
    (w, h), bleed = layout.card_size_mm, layout.bleed_mm
    for index, text in enumerate(texts):
        if text.startswith("Event cards"):
            page = doc.pages[index]
            yield page, rects_of_size(page, w + 2 * bleed, h + 2 * bleed)


def test_card_frame_hangs_below_the_header_band(kit_factory, layout) -> None:
    pdf, _ = kit_factory("grand")
    theme = load_theme("classic")
    border = _hex(theme.colour("card_border"))
    colours = {_hex(theme.player(seq.colour)) for seq in layout.sequences}
    checked = 0
    with open_plumber(pdf) as doc:
        for page, cards in _card_fronts(doc, page_texts(pdf), layout):
            bands = [
                r
                for r in page.rects
                if r["fill"] and tuple(r["non_stroking_color"] or ()) in colours and mm(r["height"]) > 5
            ]
            strokes = [
                o
                for o in (*page.curves, *page.rects, *page.lines)
                if o.get("stroke") and tuple(o.get("stroking_color") or ()) == border
            ]
            for card in cards:
                inside = [
                    b
                    for b in bands
                    if abs(b["top"] - card["top"]) < 0.5 and card["x0"] - 0.5 <= b["x0"] and b["x0"] < card["x1"]
                ]
                assert inside, "no header band on a card"
                band_bottom = max(mm(b["bottom"]) for b in inside)
                frame = [
                    o
                    for o in strokes
                    if card["x0"] <= o["x0"]
                    and o["x1"] <= card["x1"]
                    and card["top"] <= o["top"]
                    and o["bottom"] <= card["bottom"]
                ]
                assert frame, "no frame on a card"
                assert min(mm(o["top"]) for o in frame) >= band_bottom - 0.05
                checked += 1
    assert checked == 32


def test_ink_saver_cards_print_no_solid_band(kit_factory, layout) -> None:
    pdf, _ = kit_factory("grand", theme="ink-saver")
    theme = load_theme("ink-saver")
    colours = {_hex(theme.player(seq.colour)) for seq in layout.sequences}
    with open_plumber(pdf) as doc:
        pages = list(_card_fronts(doc, page_texts(pdf), layout))
        assert len(pages) == 3
        for page, cards in pages:
            assert len(cards) in (12, 8)
            solid = [
                r
                for r in page.rects
                if r["fill"] and tuple(r["non_stroking_color"] or ()) in colours and mm(r["height"]) > 2
            ]
            assert not solid, [round(mm(r["height"]), 2) for r in solid]


def test_seam_warning_names_the_fields_it_cuts(layout) -> None:
    # 120 mm paper: six columns of about 55 mm for a 330 mm board; no cell edge fits them all.
    tiling = board_tiling(layout, KitOptions(paper="120x120"))
    assert tiling.warnings
    for warning in tiling.warnings:
        assert "the board's art" not in warning
        seam = float(re.search(r"seam ([0-9.]+) mm", warning).group(1))  # type: ignore[union-attr]
        column = int((seam - layout.border_mm) // layout.pitch_mm)
        axis = 1 if "vertical" in warning else 0
        fields = [n for n, cell in layout.cells.items() if cell[axis] == column]
        assert fields
        assert f"{'column' if axis else 'row'} {column + 1} (" in warning
        listed = warning.split("(", 1)[1].split(")")[0]
        assert set(listed.split(";")[0].split(", ")) == {label(n) for n in fields}
        for n in fields:
            if n in layout.names:
                assert f"{label(n)} {layout.names[n]['en']}" in listed
