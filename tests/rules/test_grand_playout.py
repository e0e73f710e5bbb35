"""The fast self-play of Le Grand Labyrinthe (`GrandGame.fast_playout`) against the rules played
decision by decision (`play` with players that are not the ones the fast path serves): the
same moves, hence the same record, counters included, for every lineup the check seats, on
the bundled board and on variants whose chance and hold-ups differ (puns that always or never
work, no one-die exact count, decks of one kind of card, more fields where pawns get stuck);
and the whole check's report against one kept from before the fast path existed."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgen.data.loader import load
from boardgen.engines import get_engine
from boardgen.model import race
from boardgen.model.grand import GrandLayout, build, parse_label
from boardgen.rules.draws import below
from boardgen.rules.grand import GREEDY, ROUTES, GrandGame, RoutePlayer, count_events
from boardgen.rules.players import GreedyPlayer
from boardgen.rules.protocol import Player
from boardgen.rules.race import Move, RaceState
from boardgen.rules.report import check
from boardgen.rules.simulate import GameRecord, play

# `boardgen validate grand` at seed 5 with 40 games per player count, as the code before the
# fast path reported it (regenerate with pytest --update-golden only for a change of format).
GOLDEN = Path(__file__).parent.parent / "golden" / "grand-check-seed5-games40.json"
CAP = 400  # the bundled layout's turn cap


class StepByStepGreedy(GreedyPlayer):
    """The greedy player, played through the generic loop (the fast path is only for the
    greedy player itself)."""


class StepByStepRoute(RoutePlayer):
    """A route player, played through the generic loop."""


def seated(wants: tuple[int, ...]) -> list[Player]:
    return [StepByStepGreedy() if want == GREEDY else StepByStepRoute(ROUTES[want]) for want in wants]


def lineups(seats: int) -> list[tuple[int, ...]]:
    """What `GrandEngine.self_play_lineups` seats: greedy, all central, all peripheral, and
    the two mixed seatings."""
    return [(GREEDY,) * seats, (0,) * seats, (1,) * seats,
            tuple(seat % 2 for seat in range(seats)), tuple((seat + 1) % 2 for seat in range(seats))]


def step_by_step(game: GrandGame, wants: tuple[int, ...], seed: int, cap: int) -> tuple[GameRecord, list[Move]]:
    """The record of `play` decision by decision, and the moves it made."""
    moves: list[Move] = []

    def hook(before: RaceState, move: Move, after: RaceState) -> dict[str, float]:
        moves.append(move)
        return dict(count_events(before, move, after))

    return play(game, seated(wants), seed, turn_cap=cap, hook=hook), moves


def fast(game: GrandGame, wants: tuple[int, ...], seed: int, cap: int) -> GameRecord:
    players = [GreedyPlayer() if want == GREEDY else RoutePlayer(ROUTES[want]) for want in wants]
    record = game.playout(players, seed, turn_cap=cap, hook=count_events)
    assert record is not None
    return record


@pytest.fixture(scope="module")
def layout() -> GrandLayout:
    return build(load("game", "grand"))


@pytest.fixture(scope="module")
def bundled(layout: GrandLayout) -> GrandGame:
    return GrandGame(layout)


def deck_of(layout: GrandLayout, *effects: race.CardEffect) -> GrandLayout:
    """The layout with a deck of one card per effect: reshuffled every few draws."""
    kinds = zip(layout.deck[:len(effects)], effects, strict=True)
    cards = tuple(dataclasses.replace(card, effect=effect, count=1) for card, effect in kinds)
    return dataclasses.replace(layout, deck=cards)


def fields(*names: str) -> frozenset[int]:
    numbers = [parse_label(name) for name in names]
    assert None not in numbers
    return frozenset(n for n in numbers if n is not None)


VARIANTS: dict[str, dict[str, Any]] = {
    # Puns always work, no exact count by one die.
    "sure-puns": {"pun_success": 1.0, "exact_one_die": False},
    "no-puns": {"pun_success": 0.0},
    # Many more pawns stuck: drowning and prison fields on busy stretches (deadlocks, rescues).
    "stuck": {"drowning": fields("29", "30", "5", "11", "45", "II"), "prison": fields("74", "14", "52", "XX")},
}
DECKS: dict[str, tuple[race.CardEffect, ...]] = {
    # Extra turns in a row, up to the limit, some of them after moving on from a centre.
    "roll-again": (race.CardEffect(race.ROLL_AGAIN), race.CardEffect(race.ADVANCE, steps=2)),
    "swap-free-sleep": (race.CardEffect(race.SWAP_LEADER), race.CardEffect(race.FREE_ALL),
                        race.CardEffect(race.LOSE_TURNS, turns=2), race.CardEffect(race.GOTO, to=29)),
}


@pytest.fixture(scope="module", params=sorted(VARIANTS) + sorted(DECKS))
def varied(request: pytest.FixtureRequest, layout: GrandLayout) -> GrandGame:
    name = request.param
    changed = deck_of(layout, *DECKS[name]) if name in DECKS else dataclasses.replace(layout, **VARIANTS[name])
    return GrandGame(changed)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_bundled_board_plays_the_same_games(bundled: GrandGame, seats: int) -> None:
    """Every lineup of the check, 30 seeds each: 450 games over the three player counts."""
    for wants in lineups(seats):
        for seed in range(30):
            expected, moves = step_by_step(bundled, wants, seed, CAP)
            assert len(moves) == expected.decisions
            assert fast(bundled, wants, seed, CAP) == expected, (wants, seed)


def test_the_games_are_varied_enough_to_mean_something(bundled: GrandGame) -> None:
    """What the comparison above covers: every kind of event the rules know happens in those
    games but a reshuffle (the variants' short decks see to it), and both routes win."""
    totals: dict[str, float] = {}
    for seats in (2, 3, 4):
        for wants in lineups(seats):
            for seed in range(30):
                for key, value in fast(bundled, wants, seed, CAP).counters.items():
                    name = key.partition(":")[0] if key.startswith(("card", "landed")) else key
                    totals[name] = totals.get(name, 0) + value
    assert {"card", "landed", "again", "rescued", "replaced", "deadlock", "swap", "freed",
            "route:central", "route:peripheral", "won:central", "won:peripheral"} <= set(totals)


@pytest.mark.parametrize("seats", [2, 4])
def test_boards_with_other_rules_play_the_same_games(varied: GrandGame, seats: int) -> None:
    events: set[str] = set()
    for wants in lineups(seats):
        for seed in (3, 17):
            expected, _ = step_by_step(varied, wants, seed, CAP)
            assert fast(varied, wants, seed, CAP) == expected, (wants, seed)
            events |= set(expected.counters)
    if len(varied.deck) <= 2:
        assert "reshuffle" in events


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 4), lineup=st.integers(0, 4),
       cap=st.sampled_from([1, 2, 7, 30, 400]))
def test_any_seed_and_cap(bundled: GrandGame, seed: int, seats: int, lineup: int, cap: int) -> None:
    """The turn cap cuts both at the same decision: the records agree wherever the game stops."""
    wants = lineups(seats)[lineup]
    expected, _ = step_by_step(bundled, wants, seed, cap)
    assert fast(bundled, wants, seed, cap) == expected


def test_without_counters_the_same_game(bundled: GrandGame) -> None:
    for wants in lineups(3):
        expected = play(bundled, seated(wants), 8, turn_cap=CAP)
        record = bundled.fast_playout(wants, 8, CAP, counting=False)
        assert record == expected and record.counters == {}


def test_the_record_tells_games_apart(bundled: GrandGame) -> None:
    """What the comparisons above rest on: another seed gives another record."""
    one = fast(bundled, (GREEDY,) * 4, 5, CAP)
    assert one.decisions > 20
    assert fast(bundled, (GREEDY,) * 4, 6, CAP) != one


def test_tie_breaks_draw_as_random_choice_does() -> None:
    """The greedy player's draws among equal moves (none on the bundled board, whose
    expected turns never tie) take what `random.Random.choice` takes from the generator."""
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 4, 5, 7, 8, 1, 6):
            assert below(ours.getrandbits, n) == theirs.choice(range(n))
        assert ours.random() == theirs.random()


def test_only_the_check_players_with_the_engine_counters_take_the_fast_path(bundled: GrandGame) -> None:
    greedy, central = GreedyPlayer(), RoutePlayer("central")
    assert bundled.playout([StepByStepGreedy(), greedy], 1, turn_cap=CAP, hook=count_events) is None
    assert bundled.playout([greedy, StepByStepRoute("central")], 1, turn_cap=CAP, hook=count_events) is None
    assert bundled.playout([greedy, central], 1, turn_cap=CAP, hook=lambda *a: {}) is None
    record = bundled.playout([greedy, central], 1, turn_cap=CAP, hook=None)
    assert record is not None and record.counters == {}

    class Subclassed(GrandGame):
        """A game with rules of its own plays decision by decision."""

    assert Subclassed(bundled.layout).playout([greedy, central], 1, turn_cap=CAP, hook=None) is None


def test_the_check_reports_what_it_reported_before(update_golden: bool) -> None:
    """The whole check (static checks, every lineup's self-play, the closing checks) gives the
    report, byte for byte, that the decision-by-decision self-play gave."""
    engine = get_engine("grand")
    report = check(engine, engine.build(load("game", "grand")), 5, games=40, workers=1)
    text = report.to_json() + "\n"
    if update_golden:
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
