"""Players on the sliding game: legal choices, greedy reaching, planning one turn ahead."""

from __future__ import annotations

import random

import pytest

from boardgen.checks.harness import simulate
from boardgen.data.loader import load
from boardgen.engines import get_engine
from boardgen.model.sliding import build
from boardgen.rules.planner import PlannerPlayer
from boardgen.rules.players import GreedyPlayer, RandomPlayer, SearchPlayer, pick_best, tie_break
from boardgen.rules.protocol import Rng
from boardgen.rules.sliding import WALK, SlidingGame, Walk


@pytest.fixture(scope="module")
def game():
    return SlidingGame(build(load("game", "classic")))


def target_square(game, state):
    return state.board.locate(game.tile_of[state.cards[state.seat][0]])


@pytest.mark.parametrize(
    "player", [RandomPlayer(), GreedyPlayer(), SearchPlayer(), PlannerPlayer()], ids=lambda p: p.name
)
def test_players_only_choose_legal_moves(game, player):
    rng = random.Random(3)
    state = game.initial_state(3, 3)
    for _ in range(12):
        move = player.choose(game, state, rng)
        assert move in game.legal_moves(state)
        state = game.apply(state, move)


def can_reach(game, after) -> bool:
    square = target_square(game, after)
    return square >= 0 and bool((after.reach >> square) & 1)


@pytest.mark.parametrize("player", [GreedyPlayer(), PlannerPlayer()], ids=lambda p: p.name)
def test_a_reachable_target_is_reached(game, player):
    rng = random.Random(0)
    for seed in range(1, 6):
        state = game.initial_state(2, seed)
        if not any(can_reach(game, game.apply(state, m)) for m in game.legal_moves(state)):
            continue
        after = game.apply(state, player.choose(game, state, rng))
        assert after.phase == WALK and can_reach(game, after)
        walk = player.choose(game, after, rng)
        assert walk == Walk(game.geometry.cell(target_square(game, after)))
        assert game.apply(after, walk).found(0) == 1


def test_greedy_otherwise_gets_as_close_as_it_can(game):
    rng = random.Random(1)
    player = GreedyPlayer()
    for seed in range(1, 30):
        state = game.initial_state(2, seed)
        moves = game.legal_moves(state)
        scores = game.score_moves(state, moves, 0)
        if min(scores)[0] == game.steps_left(state, 0):  # nothing reaches the target
            choice = player.choose(game, state, rng)
            assert scores[moves.index(choice)] == min(scores)
            after = game.apply(state, choice)
            goal = target_square(game, after)
            walk = player.choose(game, after, rng)
            distance = game.geometry.distance(game.geometry.bit(*walk.to), goal)
            assert distance == min(
                game.geometry.distance(game.geometry.bit(*m.to), goal) for m in game.legal_moves(after)
            )
            return
    pytest.fail("every deal had a target in reach")


def test_players_are_found_by_name():
    engine = get_engine("sliding")
    assert {name: make().name for name, make in engine.players().items()} == {
        "random": "random",
        "greedy": "greedy",
        "search": "search2",
        "planner": "planner",
    }
    assert "planner" not in get_engine("master").players()  # the planner knows only the sliding game
    with pytest.raises(ValueError, match="player 'smart' cannot play 'classic'"):
        simulate(engine, build(load("game", "classic")), games=1, players=2, seed=1, player="smart")
    with pytest.raises(ValueError):
        SearchPlayer(depth=0)


def test_a_player_draws_only_where_moves_tie():
    class Counting:
        draws = 0

        def choice(self, items):
            Counting.draws += 1
            return items[-1]

    rng: Rng = Counting()  # type: ignore[assignment]  # deliberately only the call a tie-break may make
    assert pick_best(["a", "b", "c"], [3, 1, 2], rng) == "b" and Counting.draws == 0
    assert pick_best(["a", "b", "c"], [1, 2, 1], rng) == "c" and Counting.draws == 1
    assert tie_break(["x"], rng) == "x" and Counting.draws == 1
