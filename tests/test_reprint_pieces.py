"""Single cards and tiles reprinted by id: `render GAME --only card:book,tile:07`."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.data.loader import layouts_root
from boardgen.errors import UsageError
from boardgen.kit import render_kit
from boardgen.options import KitOptions, parts

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")

sys.path.insert(0, str(Path(__file__).parent))
from pdfcheck import forms_drawn  # noqa: E402

CLASSIC = tomllib.loads((layouts_root() / "games" / "classic.toml").read_text(encoding="utf-8"))
NAMES = {t["id"]: t["name"]["en"] for t in CLASSIC["treasures"]}


def reprint(root: Path, only: str, game: str = "classic", **options: object) -> tuple[Path, list[list[str]], str]:
    result = render_kit(game, root, KitOptions(only=parts(only), previews=False, svg=False, check=False, **options))  # type: ignore[arg-type]
    reader = pypdf.PdfReader(result.pdf)
    assert result.pages == len(reader.pages)
    text = "\n".join(page.extract_text() or "" for page in reader.pages)
    return result.pdf, forms_drawn(result.pdf), text


def pieces(forms: list[list[str]]) -> list[str]:
    """Every piece drawn, in order (the board and page furniture are not pieces)."""
    return [
        name
        for page in forms
        for name in page
        if name.split("-")[0] in ("Card", "Tile", "Pawn", "Token", "Wand", "Score")
    ]


def test_one_card_and_one_tile_with_the_card_back(tmp_path: Path) -> None:
    pdf, forms, text = reprint(tmp_path, "card:book,tile:07")
    assert pdf.name == "classic-a4-only-card_book-tile_07.pdf"
    # A tiles page, a blank that puts the front on an odd page, the front, its back (duplex).
    assert len(forms) == 4
    assert pieces(forms) == ["Tile-tile-07", "Card-book", "Card-back"]
    assert forms[2] == ["Card-book"] and forms[3] == ["Card-back"]
    assert NAMES["book"] in text
    assert not [name for tid, name in NAMES.items() if tid != "book" and name in text]


def test_without_backs_only_the_pieces(tmp_path: Path) -> None:
    _, forms, text = reprint(tmp_path, "card:crown,card:owl", backs="none")
    assert len(forms) == 1 and pieces(forms) == ["Card-crown", "Card-owl"]
    assert NAMES["crown"] in text and NAMES["owl"] in text and NAMES["book"] not in text


def test_a_tile_number_may_drop_its_leading_zero(tmp_path: Path) -> None:
    pdf, forms, _ = reprint(tmp_path, "tile:7")
    assert pdf.name == "classic-a4-only-tile_07.pdf" and pieces(forms) == ["Tile-tile-07"]


def test_a_whole_kind_with_a_single_piece(tmp_path: Path) -> None:
    """Every card with their backs, and tile 13 alone (no other tile, no pawn)."""
    _, forms, text = reprint(tmp_path, "cards,tile:13")
    drawn = pieces(forms)
    assert [n for n in drawn if n.startswith("Tile")] == ["Tile-tile-13"]
    assert not [n for n in drawn if n.startswith("Pawn")]
    assert sorted(n.removeprefix("Card-") for n in drawn if n.startswith("Card-") and n != "Card-back") == sorted(NAMES)
    assert all(name in text for name in NAMES.values())


def test_only_tiles_reprints_every_tile(tmp_path: Path) -> None:
    """The kit puts some tiles under the board and beside the rules; a reprint of the tiles
    alone must not lose them with those pages."""
    _, forms, _ = reprint(tmp_path, "tiles")
    assert sorted(n for n in pieces(forms) if n.startswith("Tile")) == [f"Tile-tile-{k:02d}" for k in range(1, 35)]


def test_the_kit_is_left_alone(tmp_path: Path) -> None:
    full = render_kit("classic", tmp_path, KitOptions(previews=False, check=False))
    before = {p: p.read_bytes() for p in sorted(full.folder.rglob("*")) if p.is_file()}
    pdf, _, _ = reprint(tmp_path, "card:book")
    after = {p: p.read_bytes() for p in sorted(full.folder.rglob("*")) if p.is_file()}
    assert {p: b for p, b in after.items() if p != pdf} == before and pdf in after


def test_master_recipe_card_and_grand_event_card(tmp_path: Path) -> None:
    _, forms, _ = reprint(tmp_path, "card:recipe-03,tile:1", game="master", backs="none")
    # The tokens, wands and score pad share the tiles' pages in the kit: not in this reprint.
    assert pieces(forms) == ["Tile-tile-01", "Card-recipe-03"]
    # A card the grand deck holds twice is reprinted once.
    _, forms, text = reprint(tmp_path, "card:fire", game="grand", backs="none")
    assert pieces(forms) == ["Card-fire"] and len(forms) == 1


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_unknown_ids_are_named_before_anything_is_drawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.kits import sliding

    def no_drawing(*args: object, **kwargs: object) -> None:
        raise AssertionError("drawn before the ids were checked")

    monkeypatch.setattr(sliding, "draw", no_drawing)
    code, out = run("render", "classic", "-o", str(tmp_path), "--only", "card:bok")
    assert code != 0 and "classic has no card 'bok' (did you mean 'book'?)" in out and "book, purse" in out
    assert "Traceback" not in out
    code, out = run("render", "classic", "-o", str(tmp_path), "--only", "tile:35")
    assert code != 0 and "tile ids: 01, 02" in out
    code, out = run("render", "minos", "-o", str(tmp_path), "--only", "card:x")
    assert code != 0 and "minos has no cards to reprint one by one" in out
    code, out = run("render", "classic", "-o", str(tmp_path), "--only", "token:x")
    assert code != 0 and "classic has no tokens to reprint one by one" in out and "card:ID, tile:ID, pawn:ID" in out
    code, out = run("render", "classic", "-o", str(tmp_path), "--only", "tokn:x")
    assert code != 0 and "unknown piece 'tokn:x' (did you mean 'token'?)" in out
    code, out = run("render", "classic", "-o", str(tmp_path), "--only", "pawn:rde")
    assert code != 0 and "(did you mean 'red'?)" in out
    assert not any(tmp_path.iterdir())


def test_many_pieces_keep_a_short_file_name() -> None:
    from boardgen.options import kit_file_name

    many = parts(",".join(f"card:{name}" for name in NAMES))
    assert many is not None
    name = kit_file_name("classic", KitOptions(only=many))
    assert len(name) < 100 and name.startswith("classic-a4-only-24-parts-")
    assert name != kit_file_name("classic", KitOptions(only=many[:-1]))


def test_part_parsing_keeps_kinds_then_pieces() -> None:
    assert parts("tile:07, CARDS ,card:book,tile:07") == ("cards", "tile:07", "card:book")
    for bad in ("card:", "card:../x", "card:a b", "dice:1", "token:A B"):
        with pytest.raises(UsageError):
            parts(bad)


def test_show_lists_the_ids() -> None:
    code, out = run("show", "classic")
    assert code == 0
    assert "card ids (24): book, purse" in out
    assert "tile ids (34): 01-12 straight, 13 corner: rat" in out
    code, out = run("show", "master")
    assert "recipe-21" in out and "tile ids (34): 01-12 straight, 13-28 corner, 29-34 tee" in out
