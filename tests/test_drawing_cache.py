"""Converted drawings kept between renders: the same PDF whether a drawing was converted now or
read back, a damaged or foreign entry never used, and a reprint converts only what it prints."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pypdf
import pytest
from pdfcheck import pdf_dict

from boardgen import cache
from boardgen.data.theme import load_theme
from boardgen.kit import render_kit
from boardgen.kits.dice import dice_sheet
from boardgen.model.sliding import Treasure
from boardgen.options import KitOptions, svg_folder
from boardgen.render import drawing_cache, pdf


def entries(store: str = "drawings") -> list[Path]:
    return sorted(p for p in (Path(os.environ["BOARDGEN_CACHE_DIR"]) / store).rglob("*") if p.is_file())


@pytest.fixture
def conversions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts svglib conversions; starts with nothing converted in this process."""
    monkeypatch.setattr(pdf, "_CONVERTED", {})
    calls: list[str] = []
    real = pdf._convert

    def counted(svg: str) -> object:
        calls.append(svg)
        return real(svg)

    monkeypatch.setattr(pdf, "_convert", counted)
    return calls


def dice_pdf() -> bytes:
    data, _ = dice_sheet(load_theme("classic"), KitOptions(), count=3, face_mm=16)
    return data


def test_a_drawing_read_back_gives_the_same_pdf(conversions: list[str]) -> None:
    first = dice_pdf()
    assert len(conversions) == 3 and len(entries()) == 3  # three nets: three SVGs (their ids differ)
    pdf._CONVERTED.clear()
    second = dice_pdf()
    assert len(conversions) == 3  # all three read back from the cache, none converted again
    assert second == first


@pytest.mark.parametrize("damage", ["payload", "truncated", "signature", "key", "empty"])
def test_a_damaged_entry_is_converted_again(conversions: list[str], damage: str) -> None:
    first = dice_pdf()
    originals = {path: path.read_bytes() for path in entries()}
    for path, data in originals.items():
        head, _, payload = data.partition(b"\n")
        fields = head.split(b" ")
        if damage == "payload":  # same length, one byte changed: the signature no longer matches
            data = head + b"\n" + payload[:40] + bytes([payload[40] ^ 0x01]) + payload[41:]
        elif damage == "truncated":
            data = data[: len(data) // 2]
        elif damage == "signature":
            data = b" ".join([*fields[:4], b"0" * 64]) + b"\n" + payload
        elif damage == "key":  # a whole entry of another drawing filed under this key
            data = next(other for p, other in originals.items() if p != path)
        else:
            data = b""
        path.write_bytes(data)
    pdf._CONVERTED.clear()
    assert dice_pdf() == first
    assert len(conversions) == 6  # every drawing converted again
    pdf._CONVERTED.clear()
    assert dice_pdf() == first
    assert len(conversions) == 6  # and the rewritten entries are good


def test_an_entry_is_data_that_names_no_code(conversions: list[str]) -> None:
    dice_pdf()
    for path in entries():
        head, _, payload = path.read_bytes().partition(b"\n")
        assert head.startswith(cache.FORMAT + b" drawings ")
        tree = json.loads(payload)  # plain JSON: [kind, attributes] nodes

        def kinds(node: list[object]) -> set[str]:
            name, state = node
            assert isinstance(name, str) and isinstance(state, dict)
            return {name}.union(*(kinds(child) for child in state.get("contents", []) if name in ("Drawing", "Group")))

        assert kinds(tree) <= {
            "Drawing",
            "Group",
            "Rect",
            "Circle",
            "Path",
            "Polygon",
            "Line",
            "String",
            "NoStrokePath",
            "ClippingPath",
            "Ellipse",
            "PolyLine",
        }


def test_a_changed_font_file_or_svg_changes_the_key() -> None:
    fonts = [("DejaVu Sans|normal", "DejaVuSans|/f.ttf|100|1")]
    key = drawing_cache.drawing_key("<svg/>", fonts)
    assert key == drawing_cache.drawing_key("<svg/>", list(fonts))
    assert key != drawing_cache.drawing_key("<svg />", fonts)
    assert key != drawing_cache.drawing_key("<svg/>", [("DejaVu Sans|normal", "DejaVuSans|/f.ttf|101|1")])


def test_a_card_reprint_converts_only_the_cards(tmp_path: Path, conversions: list[str]) -> None:
    result = render_kit("classic", tmp_path, KitOptions(only=("cards",), previews=False, svg=False, check=False))
    # 24 treasure card fronts and the card back; not the board, the set-up, tiles or pawns.
    assert len(conversions) == 25
    reader = pypdf.PdfReader(result.pdf)
    names: set[str] = set()
    for page in reader.pages:
        names |= set(pdf_dict(page, "/Resources").get("/XObject", {}).keys())
    assert names == {"/FormXob.Card-back"} | {f"/FormXob.Card-{t.id}" for t in result_layout_treasures()}
    # No form of a piece it leaves out is in the file either, nor the cover's print steps and
    # verdict (drawn at the end, for the cover only): the cards and their back are all its forms.
    assert result.pdf.read_bytes().count(b"/Subtype /Form") == 25


def result_layout_treasures() -> list[Treasure]:
    from boardgen.engines import load_game

    _, layout = load_game("classic")
    return list(layout.treasures)


# A kit's SVGs ---------------------------------------------------------------------------------

PICTURE = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
    '<rect x="1" y="1" width="8" height="{size}" fill="#000"/></svg>'
)


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts the times a kit really draws its pieces."""
    from boardgen.kits import sliding

    calls: list[str] = []
    real = sliding.draw

    def counted(*args: object) -> object:
        calls.append("draw")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(sliding, "draw", counted)
    return calls


def own_theme(folder: Path, size: int) -> str:
    (folder / "mine.svg").write_text(PICTURE.format(size=size), encoding="utf-8")
    path = folder / "mine.toml"
    path.write_text(
        '[theme]\nid = "mine"\nname = { en = "Mine", fr = "Le mien" }\nextends = "classic"\n\n'
        '[art]\nbook = "mine.svg"\n',
        encoding="utf-8",
    )
    return str(path)


def test_a_kit_drawn_before_is_not_drawn_again(tmp_path: Path, draws: list[str]) -> None:
    options = KitOptions(previews=False, check=False)
    first = render_kit("classic", tmp_path / "a", options)
    assert len(draws) == 1
    second = render_kit("classic", tmp_path / "b", options)
    assert len(draws) == 1
    assert second.pdf.read_bytes() == first.pdf.read_bytes()
    assert snapshot(tmp_path / "b" / "classic" / "svg") == snapshot(tmp_path / "a" / "classic" / "svg")
    render_kit("classic", tmp_path / "c", KitOptions(previews=False, paper="letter", check=False))
    assert len(draws) == 1  # the paper is not drawn on the pieces
    render_kit("classic", tmp_path / "d", KitOptions(previews=False, lang="fr", check=False))
    assert len(draws) == 2  # the language is


def test_a_changed_picture_file_is_drawn_again(tmp_path: Path, draws: list[str]) -> None:
    theme = own_theme(tmp_path, 4)
    first = render_kit("classic", tmp_path / "a", KitOptions(previews=False, theme=theme, check=False))
    own_theme(tmp_path, 6)  # same theme file, another picture in the file it names
    second = render_kit("classic", tmp_path / "b", KitOptions(previews=False, theme=theme, check=False))
    assert len(draws) == 2
    svg = f"{svg_folder(KitOptions(theme=theme))}/card-book.svg"  # a theme's drawings have their own folder
    assert (first.folder / svg).read_text(encoding="utf-8") != (second.folder / svg).read_text(encoding="utf-8")
    assert 'height="6"' in (second.folder / svg).read_text(encoding="utf-8")


def test_a_damaged_kit_entry_is_drawn_again(tmp_path: Path, draws: list[str]) -> None:
    first = render_kit("classic", tmp_path / "a", KitOptions(previews=False, check=False))
    [entry] = entries("kit-svgs")
    data = entry.read_bytes()
    entry.write_bytes(data.replace(b"<svg", b"<SVG", 1))  # the digest no longer matches
    second = render_kit("classic", tmp_path / "b", KitOptions(previews=False, check=False))
    assert len(draws) == 2
    assert second.pdf.read_bytes() == first.pdf.read_bytes()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# Size -----------------------------------------------------------------------------------------


def test_the_cache_is_pruned_oldest_first() -> None:
    keys = [f"{index:02d}" * 32 for index in range(6)]
    for index, key in enumerate(keys):
        cache.DRAWINGS.write(key, b"x" * 1000)
        path = Path(os.environ["BOARDGEN_CACHE_DIR"]) / "drawings" / key[:2] / key
        os.utime(path, ns=(10**18 + index * 10**9, 10**18 + index * 10**9))
    sizes = sum(p.stat().st_size for p in entries())
    drawing_cache.prune(limit=sizes, keep=sizes // 2)
    assert all(cache.DRAWINGS.read(key) for key in keys)
    drawing_cache.prune(limit=sizes - 1, keep=sizes // 2)
    assert [cache.DRAWINGS.read(key) is not None for key in keys] == [False, False, False, True, True, True]
