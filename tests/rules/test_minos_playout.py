"""The fast greedy self-play of King Minos (`MinosGame.greedy_playout`) against the rules played
decision by decision (`play` with a greedy player that is not the one the fast path serves):
the same moves, hence the same record, counters included, on the bundled board and on boards
whose rules differ (fewer pieces, another entry face, more traps, no sanctuaries)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgen.data.loader import Document, load
from boardgen.model.minos import build
from boardgen.model.minos_generate import generate
from boardgen.rules.minos import MinosGame, MinosState, Move, count_events
from boardgen.rules.players import GreedyPlayer
from boardgen.rules.simulate import GameRecord, play


class StepByStepGreedy(GreedyPlayer):
    """The greedy player, played through the generic loop (the fast path is only for the
    greedy player itself)."""


def variant(**changes: Any) -> MinosGame:
    data = copy.deepcopy(generate(0))
    for key, value in changes.items():
        section, _, name = key.partition("__")
        if name:
            data[section][name] = value
        else:
            data[section] = value
    return MinosGame(build(Document("t", "t.toml", data)))


@pytest.fixture(scope="module")
def bundled() -> MinosGame:
    return MinosGame(build(load("game", "minos")))


VARIANTS: dict[str, dict[str, Any]] = {
    # Three pieces each, entering on a 6.
    "three-pieces": {"race__pieces_per_player": 3, "race__entry_face": 6},
    # More traps, one of them on the Orbit; pieces share no field but the entrance.
    "traps": {"lose_turns": [{"field": 13, "turns": 2}, {"field": 52, "turns": 2}, {"field": 20, "turns": 1},
                             {"field": 55, "turns": 3}],
              "specials__sanctuaries": [1]},
    # The tunnel out of 52 leads onto a trap: a piece released from one wait starts another
    # (seed 0 plays it), which the fast path must hold again as the rules do.
    "tunnel-into-trap": {"lose_turns": [{"field": 13, "turns": 2}, {"field": 52, "turns": 2},
                                        {"field": 7, "turns": 1}]},
}


@pytest.fixture(scope="module", params=sorted(VARIANTS))
def varied(request: pytest.FixtureRequest) -> MinosGame:
    return variant(**VARIANTS[request.param])


def step_by_step(game: MinosGame, seats: int, seed: int, cap: int) -> tuple[GameRecord, list[Move]]:
    """The record of `play` decision by decision, and the moves it made."""
    moves: list[Move] = []

    def hook(before: MinosState, move: Move, after: MinosState) -> dict[str, float]:
        moves.append(move)
        return dict(count_events(before, move, after))

    return play(game, [StepByStepGreedy() for _ in range(seats)], seed, turn_cap=cap, hook=hook), moves


def fast(game: MinosGame, seats: int, seed: int, cap: int) -> GameRecord:
    record = game.playout([GreedyPlayer()] * seats, seed, turn_cap=cap, hook=count_events)
    assert record is not None
    return record


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_bundled_board_plays_the_same_games(bundled: MinosGame, seats: int) -> None:
    for seed in (1, 2, 99, 4242):
        expected, moves = step_by_step(bundled, seats, seed, 1000)
        assert expected.finished and len(moves) == expected.decisions
        assert fast(bundled, seats, seed, 1000) == expected
        # The same game without counters is the one `play` plays without a hook.
        assert play(bundled, [GreedyPlayer()] * seats, seed, turn_cap=1000) == play(
            bundled, [StepByStepGreedy()] * seats, seed, turn_cap=1000)


@pytest.mark.parametrize("seats", [2, 4])
def test_boards_with_other_rules_play_the_same_games(varied: MinosGame, seats: int) -> None:
    for seed in (0, 3, 17, 2024):
        expected, moves = step_by_step(varied, seats, seed, 1000)
        assert fast(varied, seats, seed, 1000) == expected


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 4), cap=st.sampled_from([3, 40, 1000]))
def test_any_seed_and_cap(bundled: MinosGame, seed: int, seats: int, cap: int) -> None:
    expected, _ = step_by_step(bundled, seats, seed, cap)
    assert fast(bundled, seats, seed, cap) == expected


def test_the_record_tells_games_apart(bundled: MinosGame, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the comparisons above rest on: another game (another seed, or the same dice with
    other choices among equal moves) gives another record."""
    one = fast(bundled, 4, 5, 1000)
    assert fast(bundled, 4, 6, 1000) != one

    class Other(random.Random):
        """The players draw their ties from another generator; the dice stay the same."""

        def __init__(self, seed: int) -> None:
            super().__init__(seed + 1)

    monkeypatch.setattr(random, "Random", Other)
    shifted = fast(bundled, 4, 5, 1000)
    assert shifted != one and shifted.decisions > 100


def test_only_greedy_players_with_the_engine_counters_take_the_fast_path(bundled: MinosGame) -> None:
    assert bundled.playout([StepByStepGreedy()] * 2, 1, turn_cap=1000, hook=count_events) is None
    assert bundled.playout([GreedyPlayer()] * 2, 1, turn_cap=1000, hook=lambda *a: {}) is None
    record = bundled.playout([GreedyPlayer()] * 2, 1, turn_cap=1000, hook=None)
    assert record is not None and record.counters == {}
    # The fast path is written for two dice.
    one_die = MinosGame(bundled.layout)
    one_die.dice_count = 1
    assert one_die.playout([GreedyPlayer()] * 2, 1, turn_cap=1000, hook=None) is None
