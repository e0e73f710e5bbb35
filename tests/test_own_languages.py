"""A language of one's own: strings and rules texts beside the layout or in $XDG_DATA_HOME/boardgen,
never in the package; scripts boardgen prints (Latin, Greek, Cyrillic) and those it refuses."""

from __future__ import annotations

import io
import re
import shutil
import tomllib
from pathlib import Path
from typing import TypedDict

import pytest
from click.testing import CliRunner
from pdfcheck import page_texts

from boardgen.cli import cli
from boardgen.data.loader import layouts_root
from boardgen.kit import render_kit
from boardgen.options import KitOptions

SPANISH = Path(__file__).parent / "data" / "spanish"


class Fast(TypedDict):
    previews: bool
    svg: bool
    check: bool


FAST: Fast = {"previews": False, "svg": False, "check": False}


def tree_state(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


def words_of(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]{4,}", text)}


def spanish_copy(folder: Path) -> Path:
    for path in SPANISH.iterdir():
        shutil.copy(path, folder / path.name)
    return folder / "muros.toml"


def test_a_spanish_layout_with_its_words_and_rules_beside_it_prints_every_page_in_spanish(tmp_path):
    package = Path(__file__).resolve().parents[1] / "boardgen"
    before = tree_state(layouts_root()), tree_state(package)
    layout = spanish_copy(tmp_path)
    result = render_kit(str(layout), tmp_path / "out", KitOptions(lang="es", **FAST))
    assert result.pdf.name == "muros-a4-es.pdf"
    # English's words that Spanish does not share: none may be printed.
    english = (layouts_root() / "strings" / "en.toml").read_text(encoding="utf-8") + (
        layouts_root() / "rules" / "walls.en.md"
    ).read_text(encoding="utf-8")
    spanish = "".join(p.read_text(encoding="utf-8") for p in SPANISH.iterdir())
    only_english = words_of(english) - words_of(spanish) - {"boardgen", "force", "none", "offset", "back"}
    texts = page_texts(result.pdf)
    assert len(texts) == 8  # the wall blocks on two sheets of their own
    for number, text in enumerate(texts, start=1):
        printed = words_of(text)
        assert printed & words_of(spanish), number
        assert not printed & only_english, (number, sorted(printed & only_english))
    assert "Reglas" in texts[1] and "Preparación" in texts[1] and "Qué contiene" in texts[0]
    assert (tree_state(layouts_root()), tree_state(package)) == before


def test_a_language_in_the_users_data_folder_prints_every_game_and_list_names_it(tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    (data / "boardgen" / "strings").mkdir(parents=True)
    (data / "boardgen" / "rules").mkdir()
    shutil.copy(SPANISH / "strings.es.toml", data / "boardgen" / "strings" / "es.toml")
    shutil.copy(SPANISH / "muros.es.md", data / "boardgen" / "rules" / "walls.es.md")
    (tmp_path / "muros.toml").write_text(
        (SPANISH / "muros.toml").read_text(encoding="utf-8").replace('rules = "muros"', 'rules = "walls"'),
        encoding="utf-8",
    )
    result = render_kit(str(tmp_path / "muros.toml"), tmp_path / "out", KitOptions(lang="es", **FAST))
    assert "Los muros de este laberinto se mueven" in page_texts(result.pdf)[1]
    listed = CliRunner().invoke(cli, ["list"])
    assert listed.exit_code == 0, listed.output
    assert re.search(r"Languages: en, de, es, fr ", listed.output)
    # A bundled game prints in Spanish once its texts are: walls has en, de, fr only.
    assert re.search(r"walls .*prints in en, de, fr\)", listed.output)


def test_a_language_no_game_can_print_is_refused_naming_those_it_can(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["render", "walls", "--lang", "es", "-o", str(tmp_path), "--no-check"])
    assert result.exit_code == 2
    assert "--lang es: walls prints in en, de, fr; boardgen has no strings file for 'es'" in result.output
    assert "boardgen new language es --from en" in result.output
    bad = runner.invoke(cli, ["render", "walls", "--lang", "español", "-o", str(tmp_path)])
    assert bad.exit_code == 2 and "is not a language code" in bad.output
    # A code in any case is read as BCP 47 spells it.
    region = runner.invoke(cli, ["render", "walls", "--lang", "pt_br", "-o", str(tmp_path), "--no-check"])
    assert region.exit_code == 2 and "no strings file for 'pt-BR'" in region.output


def own_script(folder: Path, lang: str, title: str, rules_word: str) -> Path:
    """A layout in `lang` with a strings file beside it (English's words, Rules in `lang`)."""
    english = (layouts_root() / "strings" / "en.toml").read_text(encoding="utf-8")
    (folder / f"strings.{lang}.toml").write_text(
        english.replace('rules = "Rules"', f'rules = "{rules_word}"'), encoding="utf-8"
    )
    shutil.copy(SPANISH / "muros.es.md", folder / f"muros.{lang}.md")
    layout = folder / "own.toml"
    layout.write_text(
        f'extends = "walls"\n[game]\nid = "own"\nlanguages = ["{lang}"]\n'
        f'title = {{ {lang} = "{title}" }}\ntagline = {{ {lang} = "{title}" }}\nrules = "muros"\n',
        encoding="utf-8",
    )
    return layout


@pytest.mark.parametrize(
    "lang, title, rules_word",
    [
        ("el", "Ο λαβύρινθος με τους κινούμενους τοίχους", "Κανόνες"),
        ("uk", "Лабіринт рухомих стін: ґанок, їжак, єнот", "Правила"),
    ],
)
def test_greek_and_ukrainian_titles_print_with_their_letters(tmp_path, lang, title, rules_word):
    layout = own_script(tmp_path, lang, title, rules_word)
    result = render_kit(str(layout), tmp_path / "out", KitOptions(lang=lang, **FAST))
    texts = page_texts(result.pdf)
    assert texts[0].startswith(title)
    assert texts[1].startswith(rules_word)


def test_an_arabic_title_is_refused_naming_what_is_missing(tmp_path):
    layout = own_script(tmp_path, "ar", "متاهة الجدران المتحركة", "القواعد")
    result = CliRunner().invoke(cli, ["render", str(layout), "--lang", "ar", "-o", str(tmp_path / "out"), "--no-check"])
    assert result.exit_code == 2
    assert "game.title" in result.output
    assert "Arabic is written right to left: boardgen cannot yet reorder right-to-left text" in result.output
    assert "Arabic shaping" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


@pytest.mark.parametrize("text, script", [("עברית", "Hebrew"), ("हिन्दी", "Devanagari")])
def test_hebrew_and_devanagari_are_refused_by_name(text, script):
    from boardgen.data.scripts import unprintable

    said = unprintable(f"Title {text}")
    assert said is not None and said.startswith(script)
    assert unprintable("Łódź, Ελλάδα, Україна, São Paulo") is None


def test_the_bundled_fonts_draw_latin_greek_and_cyrillic():
    from fontTools.ttLib import TTFont

    fonts = Path(__file__).resolve().parents[1] / "fonts"
    letters = (
        "ąćęłńóśźżčřšžőűăâîșțãõçñ¿¡ßøåæœ"  # Latin: Polish, Czech, Hungarian, Romanian, Portuguese...
        "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩαβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ"  # Greek, monotonic
        "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдежзийклмнопрстуфхцчшщъыьэюяёЁ"  # Russian
        "ґҐєЄіІїЇўЎђћџљњ"
    )  # Ukrainian, Belarusian, Serbian
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"):
        cmap = TTFont(fonts / name).getBestCmap()
        assert [c for c in letters if ord(c) not in cmap] == [], name
    assert "Bitstream Vera" in (fonts / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")


def test_the_spanish_fixture_gives_every_word_english_has():
    english = tomllib.loads((layouts_root() / "strings" / "en.toml").read_text(encoding="utf-8"))
    spanish = tomllib.loads((SPANISH / "strings.es.toml").read_text(encoding="utf-8"))
    assert set(english) == set(spanish)


def test_new_language_then_validate_names_every_missing_key_at_its_file_and_line(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    runner = CliRunner()
    made = runner.invoke(cli, ["new", "language", "xx"])
    assert made.exit_code == 0, made.output
    folder = tmp_path / "boardgen"
    strings_file = folder / "strings" / "xx.toml"
    assert sorted(p.name for p in (folder / "rules").iterdir()) == sorted(
        p.name.replace(".en.md", ".xx.md") for p in (layouts_root() / "rules").glob("*.en.md")
    )
    lines = strings_file.read_text(encoding="utf-8").split("\n")
    english = tomllib.loads((layouts_root() / "strings" / "en.toml").read_text(encoding="utf-8"))
    assert tomllib.loads(strings_file.read_text(encoding="utf-8")) == {}  # every key a comment
    checked = runner.invoke(cli, ["validate", "--lang", "xx"])
    assert checked.exit_code == 2
    said = checked.output.splitlines()
    for key, value in english.items():  # each key, at the line of its commented copy, with the English
        line = next(n for n, text in enumerate(lines, start=1) if text.startswith(f"# {key} = "))
        assert f"  {strings_file}:{line}: {key}: not translated (en: {str(value)[:50]!r})" in said
    rules = folder / "rules" / "walls.xx.md"
    rules_lines = rules.read_text(encoding="utf-8").split("\n")
    goal = rules_lines.index("<!-- en: # The game -->") + 1
    assert f"  {rules}:{goal}: not translated: '# The game'" in said
    # Translating a key and a line takes them off the list.
    lines[lines.index('# up = "Up"')] = 'up = "Arriba"'
    strings_file.write_text("\n".join(lines), encoding="utf-8")
    rules_lines.insert(goal, "# El juego")
    rules.write_text("\n".join(rules_lines), encoding="utf-8")
    again = runner.invoke(cli, ["validate", "--lang", "xx"])
    assert f"{strings_file}:" in again.output and ": up: " not in again.output
    assert f"{rules}:{goal}: " not in again.output
    assert len(again.output.splitlines()) == len(said) - 2
    assert runner.invoke(cli, ["new", "language", "xx"]).exit_code == 2  # never overwritten without --force


def test_a_partial_strings_file_prints_only_with_a_fallback_saying_which_keys_fell_back(tmp_path):
    layout = spanish_copy(tmp_path)
    words = tmp_path / "strings.es.toml"
    kept = [
        line for line in words.read_text(encoding="utf-8").split("\n") if not line.startswith(("rules = ", "board = "))
    ]
    words.write_text("\n".join(kept), encoding="utf-8")
    runner = CliRunner()
    out = str(tmp_path / "out")
    refused = runner.invoke(cli, ["render", str(layout), "--lang", "es", "-o", out, "--no-check", "--no-preview"])
    assert refused.exit_code == 2
    assert f"{words}: board: not translated (en: 'Board')" in refused.output
    assert f"{words}: rules: not translated (en: 'Rules')" in refused.output
    done = runner.invoke(
        cli,
        [
            "render",
            str(layout),
            "--lang",
            "es",
            "--fallback",
            "en",
            "-o",
            out,
            "--no-check",
            "--no-preview",
            "--no-svg",
        ],
    )
    assert done.exit_code == 0, done.output
    assert "fallback: 2 words printed in en, not es: board, rules" in done.output
    texts = page_texts(tmp_path / "out" / "muros" / "muros-a4-es.pdf")
    assert texts[1].startswith("Rules") and "Los muros de este laberinto" in texts[1]
    assert texts[2].startswith("Board — Arriba Izquierda")


def test_the_live_preview_prints_a_strings_file_as_it_is_after_an_edit(tmp_path):
    """`boardgen serve` redraws when a file beside the layout changes: an edited strings file's
    words are the ones the next drawing prints, not those read before."""
    from pypdf import PdfReader

    from boardgen.data.strings import own_folder, use_layout_folder
    from boardgen.serve import Drawn, kit_drawer

    layout = spanish_copy(tmp_path)
    words = tmp_path / "strings.es.toml"

    def cover() -> str:
        drawn = kit_drawer(str(layout), "classic", "es", None)()
        assert isinstance(drawn, Drawn) and drawn.pdf is not None
        return PdfReader(io.BytesIO(drawn.pdf(""))).pages[0].extract_text() or ""

    use_layout_folder(own_folder(str(layout)))
    try:
        assert "Qué contiene" in cover()
        words.write_text(
            words.read_text(encoding="utf-8").replace('contents = "Qué contiene"', 'contents = "Lo que hay"'),
            encoding="utf-8",
        )
        after = cover()
        assert "Lo que hay" in after and "Qué contiene" not in after
    finally:
        use_layout_folder(None)
