"""Reprints: --only and --sheets make a file of their own and leave the kit as it was."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from pdfcheck import pdf_lookup

from boardgen.errors import UsageError
from boardgen.kit import render_kit
from boardgen.options import KitOptions, parts, sheets

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")


def headings(pdf: Path) -> list[str]:
    """The heading of each page: the first line of its text."""
    return [(page.extract_text() or "").split("\n")[0] for page in pypdf.PdfReader(pdf).pages]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("reprint")
    result = render_kit("classic", root, KitOptions(previews=True, check=False))
    return root, result.pdf


def test_only_cards_and_rules(kit: tuple[Path, Path]) -> None:
    root, full = kit
    before = snapshot(full.parent)
    result = render_kit("classic", root, KitOptions(only=("cards", "rules"), check=False))
    assert result.pdf.name == "classic-a4-only-cards-rules.pdf"
    # The kit, its SVG, previews and report are untouched; only the reprint is new.
    after = snapshot(full.parent)
    assert {k: v for k, v in after.items() if k != result.pdf.name} == before
    whole = headings(full)
    # Card pages are headed with their cut list ("Treasure cards — Cut: 12 × treasure cards").
    wanted = [h for h in whole if h.split(" — ")[0] in ("Treasure cards", "Card backs", "Rules")]
    got = headings(result.pdf)
    # A blank page may be kept to put the fronts on odd pages, for a duplex print of the file.
    assert [h for h in got if not h.startswith("Left blank")] == wanted and result.pages == len(got)
    fronts = [i for i, h in enumerate(got) if h.startswith("Treasure cards")]
    assert fronts and all(i % 2 == 0 and got[i + 1] == "Card backs" for i in fronts)
    reader = pypdf.PdfReader(result.pdf)
    assert str(pdf_lookup(reader.trailer, "/Root", "/ViewerPreferences", "/PrintScaling")) == "/None"
    assert reader.pages[0].mediabox.width == pytest.approx(210 * 72 / 25.4, abs=0.01)


def test_only_board_keeps_every_sheet(kit: tuple[Path, Path]) -> None:
    root, full = kit
    result = render_kit("classic", root, KitOptions(only=("board",), check=False))
    got = headings(result.pdf)
    assert got == [h for h in headings(full) if h.startswith("Board")] and len(got) == 4


def test_sheets_take_ranges_and_leave_the_kit(kit: tuple[Path, Path]) -> None:
    root, full = kit
    before = snapshot(full.parent)
    result = render_kit("classic", root, KitOptions(board_sheets=sheets("2-3"), check=False))
    assert result.pdf.name == "classic-a4-sheets-2-3.pdf"
    assert len(pypdf.PdfReader(result.pdf).pages) == 2
    assert {k: v for k, v in snapshot(full.parent).items() if k != result.pdf.name} == before


def test_part_and_sheet_parsing() -> None:
    assert sheets("1,3-4") == (1, 3, 4) and sheets("2-2") == (2,) and sheets(None) is None
    for bad in ("3-1", "0", "1-", "a", "1,,2", "2-99999999"):
        with pytest.raises(UsageError):
            sheets(bad)
    assert parts("rules, Cards") == ("cards", "rules")
    with pytest.raises(UsageError, match="unknown part 'flags'"):
        parts("flags")


def test_a_part_the_game_lacks_is_named(kit: tuple[Path, Path]) -> None:
    root, _ = kit
    with pytest.raises(UsageError, match="classic has no dice; its parts: cover, board, tiles, pawns, cards, rules"):
        render_kit("classic", root, KitOptions(only=("dice",), check=False))
    with pytest.raises(UsageError, match="minos has no tiles.*; its parts: cover, board, pawns, dice, rules"):
        render_kit("minos", root, KitOptions(only=("tiles",), check=False))


def test_previews_belong_to_the_pdf_they_show(tmp_path: Path) -> None:
    a4 = render_kit("classic", tmp_path, KitOptions(previews=True, svg=False, check=False))
    letter = render_kit("classic", tmp_path, KitOptions(paper="letter", previews=True, svg=False, check=False))
    folder = a4.folder / "preview"
    assert sorted(p.name for p in folder.iterdir()) == ["classic-a4", "classic-letter"]
    assert (folder / "classic-a4" / "board.png").is_file() and letter.pdf.is_file() and a4.pdf.is_file()
    # A new a4 kit without previews drops the a4 previews only: none is left stale.
    render_kit("classic", tmp_path, KitOptions(previews=False, svg=False, check=False))
    assert sorted(p.name for p in folder.iterdir()) == ["classic-letter"]
