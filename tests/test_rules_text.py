"""Printed rules are templates filled from the layout: the deal, counts and names follow it."""

from __future__ import annotations

import re

import pytest
from pdfcheck import page_texts

from boardgen.data.loader import load
from boardgen.errors import DataError
from boardgen.kit import render_kit
from boardgen.kits.rules_text import fill_placeholders, rules_blocks
from boardgen.model.master import build as build_master
from boardgen.model.master import rule_values as master_values
from boardgen.model.sliding import build, rule_values
from boardgen.options import KitOptions

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")

EDITED = """extends = "classic"
[game]
id = "classic-edited"
[deal]
2 = 9
3 = 6
4 = 4
"""


def test_placeholders_are_filled_and_unknown_ones_reported_with_their_line():
    text, problems = fill_placeholders("{a} and {b}, {a}", {"a": 1, "b": "two"}, file="x.md", line=3)
    assert text == "1 and two, 1" and not problems
    text, problems = fill_placeholders("deal {deal} and {dael}", {"deal": 5}, file="x.md", line=7)
    assert text == "deal 5 and {dael}"
    assert [(p.file, p.key, p.line) for p in problems] == [("x.md", "{dael}", 7)]
    assert "{deal}" in problems[0].message  # says what the layout does fill


def test_bundled_rules_have_no_unknown_placeholder():
    classic, master = build(load("game", "classic")), build_master(load("game", "master"))
    for lang in ("en", "fr"):
        for name, values in (("classic", rule_values(classic, lang)), ("master", master_values(master, lang))):
            blocks = rules_blocks(name, lang, values)
            assert blocks and not any("{" in text or "}" in text for _, text in blocks)
    with pytest.raises(DataError, match=r"classic\.en\.md:\d+: \{tiles\}"):
        rules_blocks("classic", "en", {})


def test_rule_values_follow_the_layout():
    layout = build(load("game", "classic"))
    values = rule_values(layout, "en")
    assert values["tiles"] == len(layout.loose) == 34 and values["deal_4"] == layout.deal[4] == 6
    assert values["deal"] == "12 each with 2 players, 8 each with 3, 6 each with 4"
    assert rule_values(layout, "fr")["deal"] == "12 chacun à 2 joueurs, 8 à 3 joueurs, 6 à 4 joueurs"
    master = master_values(build_master(load("game", "master")), "fr")
    assert (master["objects"], master["wands_word"], master["last_object"], master["last_value"]) == (
        21,
        "trois",
        "gui",
        25,
    )


@pytest.mark.parametrize(
    "lang, expected",
    [
        ("en", "deal them out: 9 each with 2 players, 6 each with 3, 4 each with 4."),
        ("fr", "distribuez-les\u00a0: 9 chacun à 2 joueurs, 6 à 3 joueurs, 4 à 4 joueurs."),
    ],
)
def test_the_printed_rules_show_the_deal_of_an_edited_layout(tmp_path, lang, expected):
    path = tmp_path / "classic-edited.toml"
    path.write_text(EDITED, encoding="utf-8")
    result = render_kit(str(path), tmp_path / "out", KitOptions(lang=lang, previews=False, svg=False, check=False))
    rules = " ".join(" ".join(t.split()) for t in page_texts(result.pdf) if t.startswith(("Rules", "Règles")))
    assert " ".join(expected.split()) in rules
    assert "12 each" not in rules and "12 chacun" not in rules


def rules_text(pdf) -> str:
    """The rules pages' text, every run of white space (no-break spaces too) as one space."""
    pages = [t for t in page_texts(pdf) if t.startswith(("Rules", "Règles"))]
    return " ".join(" ".join(pages).replace("\u00a0", " ").split())


# The three rule corrections of issue 8, as printed (the old ending must be gone).
@pytest.mark.parametrize(
    "game, lang, sentences",
    [
        (
            "classic",
            "en",
            [
                "nobody has to go home: then a player whose cards are all turned must leave the labyrinth "
                "instead, by any corridor that opens off the edge of the board",
                "head back to your starting corner as usual",
            ],
        ),
        (
            "classic",
            "fr",
            [
                "personne ne doit rentrer : un joueur dont toutes les cartes sont retournées doit alors sortir "
                "du labyrinthe par n’importe quel couloir qui s’ouvre sur le bord du plateau",
                "on rentre à son coin de départ comme d’habitude",
            ],
        ),
        (
            "master",
            "en",
            [
                "Draw lots to decide who begins; play then goes clockwise.",
                "He hands the token over only if he follows the advice; if he pushes somewhere else, he owes nothing.",
            ],
        ),
        (
            "master",
            "fr",
            [
                "Tirez au sort qui commence ; on joue ensuite dans le sens des aiguilles d’une montre.",
                "Il ne donne le jeton que s’il suit le conseil ; s’il pousse ailleurs, il ne doit rien.",
            ],
        ),
    ],
)
def test_the_sheets_print_the_rule_corrections(kit_factory, game, lang, sentences):
    pdf, _ = kit_factory(game, lang=lang)
    text = rules_text(pdf)
    for sentence in sentences:
        assert sentence in text
    assert "last treasure wins" not in text and "dernier trésor trouvé fait gagner" not in text


def test_french_rules_keep_no_break_spaces_before_double_punctuation_and_inside_quotes():
    from boardgen.data.loader import layouts_root

    for path in sorted((layouts_root() / "rules").glob("*.fr.md")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"[ \t][:;!?]", text), path.name
        assert not re.search(r"«[^\u00a0]|[^\u00a0]»", text), path.name
