"""A person's own fonts: boardgen's arrows and signs print whatever font a theme picks (the
bundled DejaVu Sans draws the ones it lacks, glyph by glyph); only letters and digits the
font lacks are an error, every one of them named at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest
import reportlab
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.data import fonts
from boardgen.data.theme import load_theme
from boardgen.kit import render_kit
from boardgen.options import KitOptions
from boardgen.render.svg.base import new_sheet

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")

VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"  # Bitstream Vera: no arrows, no ⌀


def vera_theme(folder: Path) -> Path:
    (folder / "fonts").mkdir(parents=True, exist_ok=True)
    shutil.copy(VERA, folder / "fonts" / "Vera.ttf")
    path = folder / "vera.toml"
    path.write_text(
        '[theme]\nid = "vera"\nname = { en = "Vera", fr = "Vera" }\nextends = "classic"\n\n'
        '[fonts]\nbody = "fonts/Vera.ttf"\nlabels = "fonts/Vera.ttf"\ntitle = "fonts/Vera.ttf"\n',
        encoding="utf-8",
    )
    return path


def test_vera_lacks_the_arrows_boardgen_prints() -> None:
    assert VERA.is_file()
    family = fonts.register_file(VERA)
    assert [used for _, used in fonts.runs("→ joins", family)] == [fonts.FALLBACK_FAMILY, family]


@pytest.mark.parametrize("game", ["classic", "grand"])
def test_a_theme_font_without_arrows_still_prints_the_kit(tmp_path: Path, game: str) -> None:
    theme = vera_theme(tmp_path)
    result = render_kit(game, tmp_path / "out", KitOptions(theme=str(theme), previews=False, check=False))
    with pdfplumber.open(str(result.pdf)) as doc:
        chars = [c for page in doc.pages for c in page.chars]
    arrows = [c for c in chars if c["text"] in "→←↑↓"]
    assert arrows and all("DejaVuSans" in c["fontname"] for c in arrows)  # the sheets' "→ joins ..."
    letters = [c for c in chars if c["text"].isalpha() and c["text"].isascii()]
    assert letters and all("Vera" in c["fontname"] for c in letters)  # the rest in the theme's font


def test_a_label_run_in_the_fallback_font_sits_before_the_rest(tmp_path: Path) -> None:
    from boardgen.render.pdf import svg_page

    theme = load_theme(str(vera_theme(tmp_path)))
    sheet = new_sheet(60, 20, theme, "en", id="probe")
    sheet.text(sheet.drawing, "⌀ 25 mm", x=30, y=10, size=5, id="probe-text")
    svg = sheet.drawing.tostring()
    assert svg.count("<text") == 2 and 'font-family="DejaVu Sans"' in svg
    pdf = tmp_path / "probe.pdf"
    pdf.write_bytes(svg_page(svg, theme))
    with pdfplumber.open(str(pdf)) as doc:
        chars = doc.pages[0].chars
    sign = next(c for c in chars if c["text"] == "⌀")
    two = next(c for c in chars if c["text"] == "2")
    assert "DejaVuSans" in sign["fontname"] and "Vera" in two["fontname"]
    # One line, centred on x = 30 mm as a whole: the space's width between the sign and "25".
    assert sign["x1"] < two["x0"] and abs(sign["top"] - two["top"]) < 2
    left, right = min(c["x0"] for c in chars), max(c["x1"] for c in chars)
    assert abs((left + right) / 2 - 30 * 72 / 25.4) < 1.0


def test_letters_the_font_lacks_in_ones_own_text_are_named_all_at_once(tmp_path: Path) -> None:
    theme = vera_theme(tmp_path)
    layout = tmp_path / "mine.toml"
    layout.write_text('extends = "classic"\n\n[game]\ntitle = { en = "Λαβύρινθος" }\n', encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["render", str(layout), "--theme", str(theme), "-o", str(tmp_path / "out"), "--no-check", "--no-preview"]
    )
    assert result.exit_code == 2, result.output
    said = result.output
    for letter in set("Λαβύρινθος"):
        assert f"'{letter}' (U+{ord(letter):04X}" in said, letter
    assert said.count("error:") == 1 and "Traceback" not in said
    assert "→" not in said  # boardgen's own arrows are not the user's problem
