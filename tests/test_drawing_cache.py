"""Converted drawings kept between renders: the same PDF whether a drawing was converted now or
read back, a damaged or foreign entry never used, and a reprint converts only what it prints."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

import pypdf
import pytest

from boardgen.data.theme import load_theme
from boardgen.kit import render_kit
from boardgen.kits.dice import dice_sheet
from boardgen.options import KitOptions
from boardgen.render import drawing_cache, pdf


def entries() -> list[Path]:
    return sorted((Path(os.environ["BOARDGEN_CACHE_DIR"]) / "drawings").rglob("*.bin"))


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


@pytest.mark.parametrize("damage", ["payload", "truncated", "digest", "key", "empty"])
def test_a_damaged_entry_is_converted_again(conversions: list[str], damage: str) -> None:
    first = dice_pdf()
    originals = {path: path.read_bytes() for path in entries()}
    for path, data in originals.items():
        head, _, payload = data.partition(b"\n\n")
        lines = head.split(b"\n")
        if damage == "payload":
            data = head + b"\n\n" + payload[:40] + bytes([payload[40] ^ 0xFF]) + payload[41:]
        elif damage == "truncated":
            data = data[: len(data) // 2]
        elif damage == "digest":
            data = b"\n".join((lines[0], lines[1], b"0" * 64)) + b"\n\n" + payload
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


def test_an_entry_naming_other_code_is_refused(tmp_path: Path) -> None:
    key = "ab" * 32
    marker = tmp_path / "ran"
    payload = pickle.dumps(Path.touch.__get__(marker))  # would create marker if unpickled freely
    entry = b"\n".join((drawing_cache.FORMAT, key.encode(), hashlib.sha256(payload).hexdigest().encode()))
    path = Path(os.environ["BOARDGEN_CACHE_DIR"]) / "drawings" / key[:2] / f"{key}.bin"
    path.parent.mkdir(parents=True)
    path.write_bytes(entry + b"\n\n" + payload)
    assert drawing_cache.load(key, accept=lambda _: True) is None
    assert not marker.exists()


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
        names |= set(page["/Resources"].get("/XObject", {}).keys())
    assert names == {"/FormXob.Card-back"} | {f"/FormXob.Card-{t.id}" for t in result_layout_treasures()}
    # No form of a piece it leaves out is in the file either, nor the cover's print steps and
    # verdict (drawn at the end, for the cover only): the cards and their back are all its forms.
    assert result.pdf.read_bytes().count(b"/Subtype /Form") == 25


def result_layout_treasures() -> list[object]:
    from boardgen.engines import load_game

    _, layout = load_game("classic")
    return list(layout.treasures)


# A kit's SVGs ---------------------------------------------------------------------------------

PICTURE = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
           '<rect x="1" y="1" width="8" height="{size}" fill="#000"/></svg>')


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
    path.write_text('[theme]\nid = "mine"\nname = { en = "Mine", fr = "Le mien" }\nextends = "classic"\n\n'
                    '[art]\nbook = "mine.svg"\n', encoding="utf-8")
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
    svg = "svg/card-book.svg"
    assert (first.folder / svg).read_text(encoding="utf-8") != (second.folder / svg).read_text(encoding="utf-8")
    assert 'height="6"' in (second.folder / svg).read_text(encoding="utf-8")


def test_a_damaged_kit_entry_is_drawn_again(tmp_path: Path, draws: list[str]) -> None:
    first = render_kit("classic", tmp_path / "a", KitOptions(previews=False, check=False))
    [entry] = (Path(os.environ["BOARDGEN_CACHE_DIR"]) / "kit-svgs").rglob("*.bin")
    data = entry.read_bytes()
    entry.write_bytes(data.replace(b"<svg", b"<SVG", 1))  # the digest no longer matches
    second = render_kit("classic", tmp_path / "b", KitOptions(previews=False, check=False))
    assert len(draws) == 2
    assert second.pdf.read_bytes() == first.pdf.read_bytes()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# Parsed fonts ---------------------------------------------------------------------------------

def test_a_kept_font_is_the_parsed_font(monkeypatch: pytest.MonkeyPatch) -> None:
    from reportlab.pdfbase.ttfonts import TTFont

    from boardgen.render import fonts

    path = fonts.fonts_root() / "DejaVuSans.ttf"
    parsed = fonts._ttfont("BoardgenTestFace", path)  # parsed, then kept
    assert len(list((Path(os.environ["BOARDGEN_CACHE_DIR"]) / "fonts").rglob("*.bin"))) == 1
    def parse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a kept font was parsed again")

    monkeypatch.setattr("reportlab.pdfbase.ttfonts.TTFontFile.extractInfo", parse)
    kept = fonts._ttfont("BoardgenTestFace", path)
    assert kept is not parsed and isinstance(kept, TTFont)
    text = "Trésor, ŒUVRE: 1 234 ½ ✓"
    assert kept.stringWidth(text, 12) == parsed.stringWidth(text, 12)
    codes = sorted({ord(ch) for ch in text})
    assert kept.face.makeSubset(codes) == parsed.face.makeSubset(codes)
    assert [kept.face._pdfScale(v) for v in (1, 2048)] == [parsed.face._pdfScale(v) for v in (1, 2048)]
    assert {k: v for k, v in vars(kept.face).items() if k != "_pdfScale"} == \
        {k: v for k, v in vars(parsed.face).items() if k != "_pdfScale"}


def test_a_damaged_font_entry_is_parsed_again() -> None:
    from boardgen.render import fonts

    path = fonts.fonts_root() / "DejaVuSans.ttf"
    first = fonts._ttfont("BoardgenTestFace", path)
    [entry] = (Path(os.environ["BOARDGEN_CACHE_DIR"]) / "fonts").rglob("*.bin")
    entry.write_bytes(entry.read_bytes()[:-100])
    again = fonts._ttfont("BoardgenTestFace", path)
    assert vars(again.face)["charWidths"] == vars(first.face)["charWidths"]


def test_the_cache_is_pruned_oldest_first() -> None:
    root = Path(os.environ["BOARDGEN_CACHE_DIR"])
    paths = []
    for index in range(6):
        path = root / "drawings" / f"{index:02d}" / f"{index:02d}.bin"
        path.parent.mkdir(parents=True)
        path.write_bytes(b"x" * 1000)
        os.utime(path, ns=(index * 10**9, index * 10**9))
        paths.append(path)
    verdict = root / "verdicts" / "kept.json"  # other kinds of entry are not this module's
    verdict.parent.mkdir(parents=True)
    verdict.write_text("{}", encoding="utf-8")
    drawing_cache.prune(limit=6000, keep=3000)
    assert all(p.exists() for p in paths)
    drawing_cache.prune(limit=5500, keep=3000)
    assert [p.exists() for p in paths] == [False, False, False, True, True, True]
    assert verdict.exists()
