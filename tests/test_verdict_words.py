"""The verdict in words: for how many players, how long a game lasts, whether seats are fair."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pdfcheck import page_texts

from boardgen.checks.words import sentences
from boardgen.cli import cli
from boardgen.kit import render_kit
from boardgen.options import KitOptions


def report(seat_gap: float = 0.05, finished: int = 20) -> dict[str, Any]:
    """A hand-made report: 2 and 3 players, medians 19 and 22 turns, p90 26 and 28."""

    def count(median: int, p90: int) -> dict[str, Any]:
        return {
            "games": 20,
            "finished": finished,
            "mean_length": median + 0.4,
            "p95_length": p90 + 2,
            "median_length": median,
            "p90_length": p90,
            "seat_gap": seat_gap,
        }

    return {
        "game": "five",
        "seed": 1,
        "playable": True,
        "reasons": [],
        "checks": [],
        "stats": {"thresholds": {"max_seat_gap": 0.15}, "self_play": {"2": count(19, 26), "3": count(22, 28)}},
    }


def test_sentences_say_players_length_time_and_fairness():
    assert sentences(report(), "en", minutes_per_turn=2) == (
        "Checked for 2-3 players: a game lasts about 19-22 turns in all, 9 in 10 within 28; some 40-45 minutes "
        "at 2 min a turn. Every seat wins about as often as the others."
    )
    assert sentences(report(seat_gap=0.3, finished=18), "en") == (
        "Checked for 2-3 players: a game lasts about 19-22 turns in all, 9 in 10 within 28; some 20 minutes "
        "at 1 min a turn. No seat wins clearly more often than the others in 36 games. "
        "4 of 40 games did not finish."
    )
    assert sentences(report(), "fr").startswith("Vérifiée pour 2 à 3 joueurs : une partie dure environ 19 à 22 tours")
    assert sentences(report(), "de").startswith("Geprüft für 2 bis 3 Spieler: Eine Partie dauert etwa 19 bis 22 Züge")


def test_a_report_kept_from_before_the_median_uses_the_mean():
    old = report()
    for stats in old["stats"]["self_play"].values():
        del stats["median_length"], stats["p90_length"]
    assert "about 19-22 turns in all, 9 in 10 within 30" in sentences(old, "en")


def test_a_2_3_player_board_prints_its_verdict_in_words_and_three_pawns(five, tmp_path):
    text = Path(five).read_text(encoding="utf-8")
    text = text.replace("default_seed = 1", "default_seed = 1\nminutes_per_turn = 1.5")
    layout = tmp_path / "five.toml"
    layout.write_text(text, encoding="utf-8")
    result = render_kit(str(layout), tmp_path / "out", KitOptions(previews=False))
    cover = " ".join(page_texts(result.pdf)[0].split())
    figures = json.loads((result.folder / "five-playability.json").read_text(encoding="utf-8"))["stats"]["self_play"]
    medians = sorted(figures[k]["median_length"] for k in ("2", "3"))
    p90 = max(figures[k]["p90_length"] for k in ("2", "3"))
    span = f"{medians[0]}-{medians[1]}" if medians[0] != medians[1] else str(medians[0])
    assert (
        f"Playability: passed (seed 1). Checked for 2-3 players: a game lasts about {span} turns in all, "
        f"9 in 10 within {p90}; some" in cover
    )
    assert "1.5 min a turn." in cover
    assert (
        "Every seat wins about as often as the others." in cover
        or "No seat wins clearly more often than the others in 40 games." in cover
    )
    assert "p =" not in cover and "self-played games" not in cover  # the statistics stay in the report
    # Three pawns for a board checked for 2-3 players, however many starts its corners carry.
    assert "3 × pawns" in cover
    pawns = sorted(p.name for p in (result.folder / "svg").glob("pawn-*.svg"))
    assert len(pawns) == 3, pawns
    assert result.summary.startswith("passed (seed 1). Checked for 2-3 players")


@pytest.mark.parametrize("details", [False, True])
def test_validate_speaks_words_and_keeps_the_figures_for_details(five, details):
    args = ["validate", five] + (["--details"] if details else [])
    out = CliRunner().invoke(cli, args).stdout
    if details:
        assert "seat win rates" in out and "p = " in out
    else:
        assert out.startswith("five (seed 1): PLAYABLE\nChecked for 2-3 players: a game lasts about ")
        assert "p = " not in out and "Wilson" not in out and "branching" not in out
        assert "Figures: boardgen validate --details (or --json)." in out
