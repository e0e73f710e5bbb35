"""Issue 40, round 4: Le Grand Labyrinthe's rules sheet prints every number of its routes from
the layout (players, the sequences' ranges, the crossroads, the peripheral labyrinths and
centres, the blue fields' jumps, the corner fields, counting back, "at most N turns"), read
back from the rendered PDF in every language the bundled texts have; and the bundled
layout's sheet says what the source (seed 001) says."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.data.paths import layouts_root

SEED = next((Path(__file__).resolve().parents[2] / "shared" / "seeds").glob("001_*.txt"), None)


def _rules_text(game: str, lang: str, out: Path) -> str:
    """The text of the rules sheet (`render --only rules`) as a PDF reader reads it, white
    space (line breaks, no-break spaces) made single spaces."""
    result = CliRunner().invoke(cli, ["render", game, "--only", "rules", "--lang", lang, "--no-check", "-o", str(out)])
    assert result.exit_code == 0, result.output
    (pdf,) = out.rglob("*-only-rules.pdf")
    document = pdfium.PdfDocument(pdf.read_bytes())
    try:
        text = " ".join(document[k].get_textpage().get_text_range() for k in range(len(document)))
    finally:
        document.close()
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ").replace("\u202f", " "))


def _changed_layout(folder: Path) -> Path:
    """A copy of the bundled layout with the routes' numbers changed (each change checked to
    apply): 3-4 players, Origin 1-19 and Science 20-40, the blue field 18 (not 20) to X, IX on
    to X or 20, XXXVI on to 81, corner fields 11 and 27, at most 3 extra turns."""
    text = (layouts_root() / "games" / "grand.toml").read_text(encoding="utf-8")
    for old, new in (
        ('id = "grand"', 'id = "grand-changed"'),
        ("players = { min = 2, max = 4 }", "players = { min = 3, max = 4 }"),
        ("max_extra_turns = 5", "max_extra_turns = 3"),
        ("central = [1, 20]", "central = [1, 19]"),
        ("central = [21, 40]", "central = [20, 40]"),
        ('from = "20"\nto = "X"', 'from = "18"\nto = "X"'),
        ('at = "IX"\nto = ["X", "21"]', 'at = "IX"\nto = ["X", "20"]'),
        ('from = "XXXVI"\nto = "82"', 'from = "XXXVI"\nto = "81"'),
        ('no_access = ["11", "19", "27"]', 'no_access = ["11", "27"]'),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = folder / "grand-changed.toml"
    path.write_text(text, encoding="utf-8")
    return path


CHANGED = {
    "en": [
        "3 to 4 players or teams",
        "Origin (blue, 1–19), Science and Philosophy (green, 20–40), Art (red, 41–60) and Mythology (yellow, 61–82)",
        "from IX to X or 20, from XVIII to XIX or 41, from XXVII to XXVIII or 61 (you choose); "
        "from XXXVI always to 81.",
        "The blue fields 18, 40 and 60 send a pawn that ends its move there to X, XIX and XXVIII at once.",
        "The corner fields 11 and 27 do not lead",
        "whose arrow enters it: I to 3, X to 18, XIX to 40, XXVIII to 60.",
        "(at most 3 turns in a row)",
    ],
    "fr": [
        "De 3 à 4 joueurs ou équipes",
        "Origine (bleu, 1–19), Science et Philosophie (vert, 20–40), Art (rouge, 41–60) et Mythologie (jaune, 61–82)",
        "de la IX vers la X ou la 20, de la XVIII vers la XIX ou la 41, de la XXVII vers la XXVIII ou la 61 "
        "(vous choisissez) ; de la XXXVI, toujours vers la 81.",
        "Les cases bleues 18, 40 et 60 envoient aussitôt le pion qui s’y arrête sur la X, la XIX et la XXVIII.",
        "Les cases d’angle 11 et 27 ne donnent pas accès",
        "dont la flèche y mène : de la I à la 3, de la X à la 18, de la XIX à la 40, de la XXVIII à la 60.",
        "(3 tours de suite au plus)",
    ],
    "de": [
        "3 bis 4 Spieler oder Teams",
        "Ursprung (blau, 1–19), Wissenschaft und Philosophie (grün, 20–40), Kunst (rot, 41–60) "
        "und Mythologie (gelb, 61–82)",
        "von IX nach X oder 20, von XVIII nach XIX oder 41, von XXVII nach XXVIII oder 61 (du wählst); "
        "von XXXVI immer nach 81.",
        "Die blauen Felder 18, 40 und 60 schicken eine Figur, deren Zug dort endet, sofort nach X, XIX und XXVIII.",
        "Die Eckfelder 11 und 27 führen nicht",
        "dessen Pfeil hineinführt: von I nach 3, von X nach 18, von XIX nach 40, von XXVIII nach 60.",
        "(höchstens 3 Züge hintereinander)",
    ],
}


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_rules_sheet_prints_the_numbers_of_a_changed_layout(lang: str, tmp_path: Path) -> None:
    text = _rules_text(str(_changed_layout(tmp_path)), lang, tmp_path / "out")
    for phrase in CHANGED[lang]:
        assert phrase in text, (phrase, text)
    for old in ("1–20", "21–40", "to 82", "vers la 82", "nach 82", "11, 19", "5 turns", "5 tours", "5 Züge"):
        assert old not in text, old


# What seed 001 (the source's rules, in French) says, as the bundled French sheet prints it.
SEED_FACTS = {
    "case bleue 20, sauter à la case X": "Les cases bleues 20, 40 et 60 envoient aussitôt le pion qui s’y arrête "
    "sur la X, la XIX et la XXVIII.",
    "Les cases d'angle 11, 19 et 27 ne permettent pas": "Les cases d’angle 11, 19 et 27 ne donnent pas accès",
    "(case XXXVI) il déplacera alors automatiquement son pion sur la case identique du labyrinthe central (case 82)": (
        "de la XXXVI, toujours vers la 82."
    ),
    "la case **XVIII** laisse le choix entre le saut à la case **XIX** ou à la case **41**": (
        "de la XVIII vers la XIX ou la 41"
    ),
    "l'ORIGINE (bleu), LA SCIENCE et LA PHILOSOPHIE (vert), L'ART (rouge) et LA MYTHOLOGIE (jaune)": (
        "Origine (bleu, 1–20), Science et Philosophie (vert, 21–40), Art (rouge, 41–60) et Mythologie (jaune, 61–82)"
    ),
    "C'est au passage de la case 3 que le joueur fera son choix": "quitte la case 3, le carrefour",
    "cases **7, 12, 24, 34, 47, 54, 63, 72** et **77**": "Cases ouvertes 7, 12, 24, 34, 47, 54, 63, 72 et 77",
    "cases **11, 31** et **53** : cases *coq-à-l'âne*": "Cases coq-à-l’âne 11, 31 et 53",
    "cases **29** et **30** : cases *noyade*": "Noyade 29 et 30",
    "case **74** : case *prison*": "Prison 74",
    "ne renaîtra qu'au chant du coq sur la case **1**": (
        "Pétrification 79 (un crâne) : votre pion retourne sur la case 1"
    ),
    "au centre du Grand Labyrinthe (case 83)": "la case 83, au centre",
}


def test_the_bundled_sheet_says_what_the_seed_says(tmp_path: Path) -> None:
    if SEED is not None:  # the source itself, where shared/ lies beside the repository
        seed = SEED.read_text(encoding="utf-8")
        for said in SEED_FACTS:
            assert said in seed, said
    french = _rules_text("grand", "fr", tmp_path / "fr")
    for printed in SEED_FACTS.values():
        assert printed in french, (printed, french)
    english = _rules_text("grand", "en", tmp_path / "en")
    for printed in (
        "2 to 4 players",
        "Origin (blue, 1–20), Science and Philosophy (green, 21–40), Art (red, 41–60) and Mythology (yellow, 61–82)",
        "from IX to X or 21, from XVIII to XIX or 41, from XXVII to XXVIII or 61 (you choose); "
        "from XXXVI always to 82.",
        "The blue fields 20, 40 and 60 send a pawn that ends its move there to X, XIX and XXVIII at once.",
        "The corner fields 11, 19 and 27 do not lead",
        "the peripheral centres IX, XVIII, XXVII and XXXVI must be reached by exact count",
        "whose arrow enters it: I to 3, X to 20, XIX to 40, XXVIII to 60.",
        "(at most 5 turns in a row)",
    ):
        assert printed in english, (printed, english)


def test_the_engine_plays_the_cap_the_sheet_prints(tmp_path: Path) -> None:
    from boardgen.engines import load_game
    from boardgen.rules.grand import GrandGame

    _, bundled = load_game("grand")
    _, changed = load_game(str(_changed_layout(tmp_path)))
    assert GrandGame(bundled).max_again == 5
    assert GrandGame(changed).max_again == 3


def test_a_strings_file_without_the_route_words_prints_arrows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A language of the user's whose strings file leaves out route_choice and route_back (they
    are optional) prints a centre's choice and a way back as arrows, numbers still from the
    layout."""
    from boardgen.data import strings
    from boardgen.engines import load_game
    from boardgen.model import grand

    _, layout = load_game("grand")
    words = {k: v for k, v in strings.strings("en").items() if k not in strings.OPTIONAL_KEYS}
    assert strings.optional("route_choice") and strings.optional("route_back")
    monkeypatch.setattr(grand, "strings", lambda lang: words)
    values = grand.rule_values(layout, "en")
    assert values["centre_choices"] == "IX\u00a0→ X or 21, XVIII\u00a0→ XIX or 41, XXVII\u00a0→ XXVIII or 61"
    assert values["back_entries"] == "I\u00a0→ 3, X\u00a0→ 20, XIX\u00a0→ 40, XXVIII\u00a0→ 60"
