"""Languages come from the data: an English-only layout and theme need nothing else, a render
in a language the data lacks names every missing key, house rules live beside the layout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pdfcheck import page_texts

from boardgen.data.languages import LanguageError
from boardgen.data.loader import layouts_root, load
from boardgen.errors import DataError
from boardgen.kit import render_kit
from boardgen.options import KitOptions

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")

MAZE = """extends = "classic"
[game]
id = "my-maze"
title = { en = "My maze" }
tagline = { en = "A maze of my own" }
rules = "house"
"""

HOUSE = """# Goal
Find your {treasures} treasures and bring them home.

# House rule
- Nobody may push the spare tile back in where it came out.
"""

DUSK = """[theme]
id = "dusk"
name = { en = "Dusk" }
languages = ["en"]
extends = "classic"

[palette]
floor = "#f6e7b0"
"""


def english_only(folder: Path, *, layout: str = MAZE) -> tuple[str, str]:
    (folder / "my-maze.toml").write_text(layout, encoding="utf-8")
    (folder / "house.en.md").write_text(HOUSE, encoding="utf-8")
    (folder / "dusk.toml").write_text(DUSK, encoding="utf-8")
    return str(folder / "my-maze.toml"), str(folder / "dusk.toml")


def rules_pages(pdf: Path) -> str:
    pages = [t for t in page_texts(pdf) if t.startswith(("Rules", "Règles", "Spielregel"))]
    return " ".join(" ".join(pages).replace("\u00a0", " ").split())


def test_an_english_only_layout_and_theme_render_in_english_with_their_house_rules(tmp_path):
    game, theme = english_only(tmp_path)
    result = render_kit(game, tmp_path / "out", KitOptions(theme=theme, previews=False, svg=False, check=False))
    texts = page_texts(result.pdf)
    assert texts[0].startswith("My maze") and "A maze of my own" in texts[0]
    rules = rules_pages(result.pdf)
    assert "Find your 24 treasures and bring them home." in rules
    assert "House rule" in rules
    # boardgen's notes read the classic rules (and their variant): a house text goes without them.
    assert "How boardgen reads the rules" not in rules and "younger" not in rules


def test_a_render_in_a_language_the_layout_lacks_names_each_missing_key_and_file(tmp_path):
    game, theme = english_only(tmp_path)
    with pytest.raises(LanguageError) as caught:
        render_kit(game, tmp_path / "out", KitOptions(theme=theme, lang="fr", previews=False, check=False))
    message = caught.value.format()
    lines = message.splitlines()
    assert lines[0] == f"{game} is in en; it renders with --lang en. A render in 'fr' needs:"
    assert f"{game}:4: game.title: no 'fr' text (it has en)" in lines[1]
    assert f"{game}:5: game.tagline: no 'fr' text (it has en)" in lines[2]
    # The house rules are looked for beside the layout, and reported there.
    assert (
        f"{game}:6: game.rules: house.fr.md not found beside the layout (in {tmp_path.resolve()}); "
        "it has house.en.md" in lines[3]
    )
    assert "layouts/rules" not in message
    assert not (tmp_path / "out").exists()


def test_a_layout_declaring_a_language_must_give_it_in_every_text(tmp_path):
    path = tmp_path / "both.toml"
    path.write_text(MAZE.replace('id = "my-maze"', 'id = "both"\nlanguages = ["en", "fr"]'), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load("game", str(path))
    found = [(p.key, p.line, p.message) for p in caught.value.problems]
    assert found == [
        ("game.title", 5, "missing 'fr': this file's languages are en, fr (game.languages)"),
        ("game.tagline", 6, "missing 'fr': this file's languages are en, fr (game.languages)"),
    ]


def test_a_rules_name_found_nowhere_says_where_it_was_looked_for(tmp_path):
    game, theme = english_only(tmp_path, layout=MAZE.replace('"house"', '"hosue"'))
    with pytest.raises(
        LanguageError,
        match=r"game\.rules: no rules text hosue\.en\.md beside the layout "
        r"\(in .*\), in .*boardgen/rules "
        r"nor among the bundled ones \(classic, grand",
    ):
        render_kit(game, tmp_path / "out", KitOptions(theme=theme, previews=False, check=False))


@pytest.mark.parametrize(
    "choice, printed",
    [
        ("true", ["How boardgen reads the rules", "the one on your top card. • The first player home"]),
        ("false", []),
    ],
)
def test_a_layout_with_its_own_rules_chooses_whether_boardgen_notes_print(tmp_path, choice, printed):
    layout = MAZE.replace('rules = "house"', f'rules = "house"\ninterpretations = {choice}')
    game, _ = english_only(tmp_path, layout=layout)
    result = render_kit(game, tmp_path / "out", KitOptions(previews=False, svg=False, check=False))
    rules = rules_pages(result.pdf)
    for sentence in printed:
        assert sentence in rules
    if not printed:
        assert "How boardgen reads the rules" not in rules
    # The engine's notes speak of the rules it plays, never of the classic text's variant.
    assert "younger" not in rules


def test_own_notes_beside_the_layout_follow_its_rules_text(tmp_path):
    game, _ = english_only(tmp_path)
    (tmp_path / "house.interpretations.en.md").write_text("- A pushed-out pawn waits a turn.\n", encoding="utf-8")
    result = render_kit(game, tmp_path / "out", KitOptions(previews=False, svg=False, check=False))
    rules = rules_pages(result.pdf)
    assert "How boardgen reads the rules • A pushed-out pawn waits a turn." in rules


def test_the_classic_rules_keep_their_variant_notes(kit_factory):
    pdf, _ = kit_factory("classic")
    rules = rules_pages(pdf)
    assert "In the variant for younger players, when you have agreed not to go home" in rules


def test_every_strings_file_gives_every_word_english_has():
    import tomllib

    from boardgen.data.loader import layouts_root
    from boardgen.data.strings import LANGUAGES

    folder = layouts_root() / "strings"
    english = tomllib.loads((folder / "en.toml").read_text(encoding="utf-8"))
    assert LANGUAGES[0] == "en" and {"fr", "de"} <= set(LANGUAGES)
    for lang in LANGUAGES:
        words = tomllib.loads((folder / f"{lang}.toml").read_text(encoding="utf-8"))
        assert set(english) - set(words) == set(), lang
        assert set(words) - set(english) <= {"nouns_capitalised"}, lang
        assert len(words["number_words"]) == len(english["number_words"])


def test_german_is_data_only_and_prints_the_classic_kit_in_german(kit_factory):
    pdf, _ = kit_factory("classic", lang="de")
    texts = [" ".join(t.replace("\u00a0", " ").split()) for t in page_texts(pdf)]
    cover = texts[0]
    assert "Verschiebe die Gänge, finde die Schätze" in cover
    assert "34 × Gangkarten (40 mm)" in cover and "24 × Schatzkarten" in cover  # nouns keep their capital
    assert "Oben links" in cover and "Up Left" not in cover
    rules = rules_pages(pdf)
    assert "Mischt die 34 Gangkarten verdeckt" in rules
    assert "teilt sie aus: 12 pro Person bei 2 Spielern, 8 bei 3, 6 bei 4." in rules
    assert "Wie boardgen die Regeln liest" in rules and "Variante für jüngere Spieler jeder deiner Schätze" in rules
    assert "Zauberbuch" in " ".join(texts)  # the layout's own German names on the cards


def test_a_game_without_german_says_what_german_needs(tmp_path):
    # Every bundled game speaks German now: a copy of King Minos without its German texts, with
    # its rules (English and French only) beside it, names each German text it lacks.
    bundled = layouts_root()
    text = (bundled / "games" / "minos.toml").read_text(encoding="utf-8")
    stripped = re.sub(r', de = "[^"]*"', "", text).replace('rules = "minos"', 'rules = "mine"')
    assert stripped.count("de = ") == 0 and text.count("de = ") == 17
    (tmp_path / "minos.toml").write_text(stripped, encoding="utf-8")
    for lang in ("en", "fr"):
        (tmp_path / f"mine.{lang}.md").write_bytes((bundled / "rules" / f"minos.{lang}.md").read_bytes())
    with pytest.raises(LanguageError) as caught:
        render_kit(str(tmp_path / "minos.toml"), tmp_path / "out", KitOptions(lang="de", previews=False, check=False))
    lines = caught.value.format().splitlines()
    assert lines[0].endswith("minos.toml is in en, fr; it renders with --lang en or fr. A render in 'de' needs:")
    assert lines[1].endswith("minos.toml:8: game.title: no 'de' text (it has en, fr)")
    assert sum("no 'de' text" in line for line in lines) == 17
    assert lines[-1].endswith(
        f"game.rules: mine.de.md not found beside the layout (in {tmp_path.resolve()}); it has mine.en.md, mine.fr.md"
    )
    assert not (tmp_path / "out").exists()


def test_master_in_german_keeps_its_nouns_capitalised(kit_factory):
    pdf, _ = kit_factory("master", lang="de")
    rules = rules_pages(pdf)
    assert "Sobald der letzte Gegenstand, Mistelzweig (25), genommen wird" in rules
    assert "Alle haben drei; jeder Zauberstab, den du nicht benutzt hast, zählt am Ende 3 Punkte." in rules
    assert "Wie boardgen die Regeln liest" in rules and "Mitgeschobenwerden ist nie Ankommen" in rules


def test_a_french_kit_speaks_french_only(kit_factory):
    pdf, _ = kit_factory("classic", lang="fr")
    texts = page_texts(pdf)
    board = [t for t in texts if t.startswith("Plateau")]
    assert board and all("Up" not in t and "Down" not in t for t in board)
    assert "Plateau — Haut gauche" in board[0]
    # Colour names stand alone on the pawns, capitalised as the English ones are.
    words = " ".join(texts)
    assert "Rouge" in words and "Bleu" in words
