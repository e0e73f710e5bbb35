"""The moving-walls playability report: static checks of the printed start, self-play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boardgen.checks.harness import Report, check
from boardgen.checks.walls import start_distances, static_checks
from boardgen.data.loader import load
from boardgen.engines import get_engine
from boardgen.model.walls import PLAYABILITY_DEFAULTS, build
from boardgen.rules.walls import BLOCK, WallsGame

LAYOUT = build(load("game", "walls"))
ENGINE = get_engine("walls")


def thresholds(layout, **overrides) -> dict[str, Any]:
    return ENGINE.thresholds(layout, **overrides)


def check_walls(layout, seed: int, **options) -> Report:
    return check(ENGINE, layout, seed, **options)


def test_bundled_start_is_a_labyrinth_but_not_sealed() -> None:
    far = start_distances(LAYOUT)
    assert set(far) == set(LAYOUT.colours)
    # The four corners see the same walls, so the same distances.
    assert len({tuple(sorted(d)) for d in far.values()}) == 1
    limits = thresholds(LAYOUT)
    assert all(limits["min_start_distance"] <= d <= limits["max_start_distance"] for ds in far.values() for d in ds)
    assert all(check.ok for check in static_checks(LAYOUT, limits))


def test_a_start_too_near_the_centre_is_named() -> None:
    limits = {**thresholds(LAYOUT), "min_start_distance": 9}
    labyrinth = next(c for c in static_checks(LAYOUT, limits) if c.name == "labyrinth")
    assert not labyrinth.ok and len(labyrinth.problems) == 16
    assert "too near" in labyrinth.problems[0]


def test_layout_thresholds_override_the_defaults() -> None:
    limits = thresholds(LAYOUT, games_per_player_count=3)
    assert limits["games_per_player_count"] == 3
    assert limits["turn_cap"] == LAYOUT.playability.get("turn_cap", PLAYABILITY_DEFAULTS["turn_cap"])


def test_stalls_and_block_slides_are_events_of_the_game() -> None:
    # Two rounds of two seats without progress make a stall: the block move that ends the
    # fourth quiet turn records it with the slide.
    game = WallsGame(LAYOUT, stall_rounds=2)
    state = game.initial_state(2)._replace(quiet=3, pawn_done=True)
    block = next(m for m in game.legal_moves(state) if m.kind == BLOCK)
    after = game.apply(state, block)
    assert after.quiet == 4 and game.events(after) == (f"moved:{block.piece}", "stalls")
    # A slide that does not end the turn is only a slide; without stall_rounds, no stalls.
    again = next(m for m in game.legal_moves(after) if m.kind == BLOCK)
    assert game.events(game.apply(after, again)) == (f"moved:{again.piece}",)
    plain = WallsGame(LAYOUT)
    assert plain.events(plain.apply(state, block)) == (f"moved:{block.piece}",)


def test_report_with_a_few_games() -> None:
    report = check_walls(LAYOUT, 1, games=2, workers=1)
    names = [check.name for check in report.checks]
    assert names[:3] == ["blocks", "labyrinth", "first moves"]
    assert "self-play, 2 players" in names and "self-play, 4 players" in names
    assert set(report.stats["self_play"]) == {"2", "4"}
    for stats in report.stats["self_play"].values():
        assert stats["games"] == 2 and stats["finished"] == 2
        assert set(stats["extra"]) == {"block_slides", "stalls", "stalled_games"}
    # The source: two or four players, never three.
    assert "(2 or 4 players)" in report.summary_line("en") or not report.playable
    assert "(2 ou 4 joueurs)" in report.summary_line("fr") or not report.playable


def test_simulate_refuses_three_players_without_a_traceback() -> None:
    from click.testing import CliRunner

    from boardgen.cli import cli

    result = CliRunner().invoke(cli, ["simulate", "walls", "--players", "3", "--games", "1"])
    assert result.exit_code == 2
    assert "walls is played by 2 or 4 players, not 3" in result.output
    assert "Traceback" not in result.output


def test_printed_rules_follow_the_layout(tmp_path) -> None:
    from boardgen.kits.rules_text import rules_blocks
    from boardgen.model.walls import rule_values

    for lang in ("en", "fr"):
        blocks = rules_blocks("walls", lang, rule_values(LAYOUT, lang))
        assert blocks and not any("{" in text or "}" in text for _, text in blocks)
    # Two players in the other pair of corners, two pawns to win: the sheet says so.
    edited = tmp_path / "edited.toml"
    edited.write_text(
        'extends = "walls"\n[game]\nid = "walls-edited"\n[rules]\ntwo_players = ["yellow", "blue"]\npawns_to_win = 2\n',
        encoding="utf-8",
    )
    layout = build(load("game", str(edited)))
    text = " ".join(t for _, t in rules_blocks("walls", "en", rule_values(layout, "en")))
    assert "one plays yellow (top right), the other blue (bottom left)" in text
    assert "bring two of their four pawns" in text
    text = " ".join(t for _, t in rules_blocks("walls", "fr", rule_values(layout, "fr")))
    assert "l’un joue jaune (en haut à droite), l’autre bleu (en bas à gauche)" in text


@pytest.mark.parametrize("name", ["walls_small", "walls_crowd"])
def test_two_player_layouts_are_judged_not_crashed(name: str) -> None:
    """A layout for two players only (player_counts = [2]) is checked like any other: a verdict
    with reasons, never the four-player set-up's ValueError."""
    from click.testing import CliRunner

    from boardgen.cli import cli

    path = Path(__file__).resolve().parents[1] / "fixtures" / "layouts" / f"{name}.toml"
    result = CliRunner().invoke(cli, ["validate", str(path), "--games", "2"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 4), result.output
    assert "PLAYABLE" in result.output
