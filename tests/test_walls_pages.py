"""Le Jeu du Labyrinthe as printed and listed: two or four players (the source never seats three)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pdfcheck import page_texts

from boardgen.cli import cli
from boardgen.data.strings import counts


@pytest.mark.parametrize(
    "lang,values,said",
    [
        ("en", [2, 4], "2 or 4"),
        ("fr", [4, 2], "2 ou 4"),
        ("en", [2, 3, 4], "2-4"),
        ("fr", [2, 3, 4], "2 à 4"),
        ("en", [2, 3], "2-3"),
        ("en", [3], "3"),
        ("en", [1, 2, 4], "1, 2 or 4"),
    ],
)
def test_player_counts_are_said_as_a_reader_says_them(lang: str, values: list[int], said: str) -> None:
    assert counts(lang, values) == said


def test_list_says_two_or_four_players_for_walls() -> None:
    result = CliRunner().invoke(cli, ["list"])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.strip().startswith("walls "))
    assert "(2 or 4 players;" in line
    classic = next(line for line in result.output.splitlines() if line.strip().startswith("classic "))
    assert "(2-4 players;" in classic


def test_walls_cover_verdict_says_two_or_four_players(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["render", "walls", "--only", "cover", "-o", str(tmp_path), "--no-preview", "--no-svg"]
    )
    assert result.exit_code == 0, result.output
    cover = " ".join(page_texts(next((tmp_path / "walls").glob("*.pdf")))[0].split())
    assert "Checked for 2 or 4 players" in cover and "2-4" not in cover


@pytest.mark.parametrize(
    "lang,touch,first",
    [
        (
            "en",
            [
                "if you touch a block, you must play that block",
                "if you touch one of your pawns, you must play that pawn",
            ],
            "On the very first turn of the game the first player slides a pawn, then a block",
        ),
        (
            "fr",
            [
                "si vous touchez un bloc du doigt, vous devez jouer ce bloc",
                "si vous touchez un de vos pions, vous devez jouer ce pion",
            ],
            "Au tout premier tour de la partie, le premier joueur déplace un pion, puis un bloc",
        ),
    ],
)
def test_rules_sheet_prints_the_touch_rule_and_the_first_turn_as_the_source(
    kit_factory, lang: str, touch: list[str], first: str
) -> None:
    pdf, _ = kit_factory("walls", lang=lang)
    texts = page_texts(pdf)
    rules = " ".join(" ".join(t for t in texts if t.startswith(("Rules", "Règles"))).split())
    rules = rules.replace("\u00a0", " ").replace("- ", "")  # a line may break after a hyphen
    for sentence in [*touch, first]:
        assert sentence in rules, sentence
    assert "The piece you touch first" not in rules
