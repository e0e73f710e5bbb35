"""Issue 40, the moving-walls kit as printed: pawns large enough to pick up, the wall blocks all
on sheets of their own with a marked top, the block labels on the board readable (WCAG 4.5:1).
Read from the kit's SVG files (an XML parser) and its PDF (pdfplumber)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pdfplumber
import pytest

from boardgen.kit import render_kit
from boardgen.options import KitOptions

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def walls(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return render_kit("walls", tmp_path_factory.mktemp("walls"), KitOptions(check=False, previews=False))


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_pawns_are_nearly_a_square_wide(walls: Any) -> None:
    svgs = sorted((walls.folder / "svg").glob("pawn-*.svg"))
    assert len(svgs) == 16
    for path in svgs:
        face = next(c for c in ET.parse(path).getroot().iter(f"{SVG}circle") if c.get("id", "").endswith("-face"))
        assert 14.0 <= 2 * float(face.get("r", 0)) <= 15.0, path.name  # was 11 mm in 15 mm squares


def test_block_labels_on_the_board_stand_out_from_their_outline(walls: Any) -> None:
    root = ET.parse(walls.folder / "svg" / "board.svg").getroot()
    fills = {e.attrib["id"]: e.get("fill") for e in root.iter() if e.get("id")}
    labels = [key for key in fills if key.startswith("block-") and key.endswith("-label")]
    assert len(labels) == 32
    for key in labels:
        label, tint = fills[key], fills[key.removesuffix("-label") + "-tint"]
        assert label is not None and tint is not None, key
        assert _contrast(label, tint) >= 4.5, (key, round(_contrast(label, tint), 2))  # was 3.19


def test_the_blocks_lie_on_sheets_of_their_own_each_with_a_marked_top(walls: Any) -> None:
    pages: dict[int, set[str]] = {}
    for p in walls.placements:
        pages.setdefault(p.page, set()).add(p.kind)
    with_blocks = [k for k, kinds in pages.items() if "block" in kinds]
    assert with_blocks and all(pages[k] == {"block"} for k in with_blocks), pages  # were on board sheets too
    with pdfplumber.open(walls.pdf) as pdf:
        for k in with_blocks:
            text = pdf.pages[k].extract_text() or ""
            assert "Cut:" in text and "printed side up" in text.replace("\n", " ")
    for path in sorted((walls.folder / "svg").glob("block-*.svg")):
        paths = {e.get("id", ""): e for e in ET.parse(path).getroot().iter(f"{SVG}path")}
        face = next(e for key, e in paths.items() if key.endswith("-face"))
        bevel = next(e for key, e in paths.items() if key.endswith("-bevel"))
        # The top is marked by a band lighter than the wall's own colour, along its whole edge.
        assert bevel.get("d") == face.get("d")
        assert _luminance(bevel.get("stroke", "")) > _luminance(face.get("fill", ""))
