"""Le Jeu du Labyrinthe as printed and listed: two or four players (the source never seats three)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pdfcheck import page_texts

from boardgen.cli import cli
from boardgen.data.strings import counts


@pytest.mark.parametrize("lang,values,said", [
    ("en", [2, 4], "2 or 4"), ("fr", [4, 2], "2 ou 4"), ("en", [2, 3, 4], "2-4"), ("fr", [2, 3, 4], "2 à 4"),
    ("en", [2, 3], "2-3"), ("en", [3], "3"), ("en", [1, 2, 4], "1, 2 or 4")])
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
    result = CliRunner().invoke(cli, ["render", "walls", "--only", "cover", "-o", str(tmp_path), "--no-preview",
                                      "--no-svg"])
    assert result.exit_code == 0, result.output
    cover = " ".join(page_texts(next((tmp_path / "walls").glob("*.pdf")))[0].split())
    assert "(2 or 4 players)" in cover and "2-4" not in cover
