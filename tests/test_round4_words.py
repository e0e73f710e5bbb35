"""Issue 40, words: a singular for one piece in the cut list, reprints by the number printed on
a token, and a theme font named like a bundled one printed as itself. Each test reads the PDF."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pdfplumber
from fontTools.ttLib import TTFont

from boardgen.kit import build_kit
from boardgen.options import KitOptions

FIXTURES = Path(__file__).parent / "fixtures"
THEMES = Path(__file__).parents[1] / "layouts" / "themes"


def _text(data: bytes) -> str:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def test_one_die_is_a_die_in_every_language():
    for lang, expected, wrong in (
        ("en", "Cut: 1 × die", "1 × dice"),
        ("fr", "1 × dé", "1 × dés"),
        ("de", "1 × Würfel", "1 × Würfeln"),
    ):
        kit = build_kit("minos", KitOptions(only=("die:1",), lang=lang, check=False, previews=False))
        text = _text(kit.pdf.data)
        assert expected in text and wrong not in text, (lang, text)
    two = _text(build_kit("minos", KitOptions(only=("dice",), check=False, previews=False)).pdf.data)
    assert "Cut: 2 × dice" in two


def test_a_token_is_reprinted_by_the_number_printed_on_it():
    kit = build_kit("master", KitOptions(only=("token:5",), check=False, previews=False))
    assert kit.plan.options.only == ("token:four-leaf-clover",)
    pieces = [p.piece for p in kit.pdf.placements if not p.piece.startswith("board:")]
    assert pieces == ["token:four-leaf-clover"]
    words = _text(kit.pdf.data)
    assert "1 × object token" in words


def test_a_theme_font_named_like_a_bundled_one_prints_as_itself(tmp_path):
    font = TTFont(str(FIXTURES / "fonts" / "LiberationMono-Regular.ttf"))
    for record in font["name"].names:  # a monospaced face that calls itself DejaVu Sans
        if record.nameID in (1, 4, 16):
            record.string = "DejaVu Sans"
        elif record.nameID == 6:
            record.string = "DejaVuSans"
    font.save(str(tmp_path / "Own.ttf"))
    theme = (THEMES / "classic.toml").read_text(encoding="utf-8")
    head, _, tail = theme.partition("[fonts]")
    tail = tail[tail.index("\n[strokes]") :]
    (tmp_path / "own.toml").write_text(
        head.replace('id = "classic"', 'id = "own"')
        + '[fonts]\ntitle = "Own.ttf"\nbody = "Own.ttf"\nlabels = "Own.ttf"\n'
        + tail,
        encoding="utf-8",
    )
    for path in (THEMES / "classic.toml").parent.glob("*.svg"):
        shutil.copy(path, tmp_path)
    kit = build_kit(
        "classic", KitOptions(only=("rules",), theme=str(tmp_path / "own.toml"), check=False, previews=False)
    )
    with pdfplumber.open(io.BytesIO(kit.pdf.data)) as pdf:
        chars = [c for page in pdf.pages for c in page.chars if c["text"].strip()]
    widths = {round(c["width"] / c["size"], 2) for c in chars}
    assert widths == {0.6}, widths  # every glyph the monospaced face's, none DejaVu Sans's
