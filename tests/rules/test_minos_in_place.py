"""King Minos played in place (`MinosGame.play`: one `MinosPosition` a game, its
occupancy, running sums and held pieces kept up to date) against the rules played through
`apply` (a frozen state in, a new one out, every table worked out afresh from the state),
decision by decision, and the record of self-play against a game played through `apply`."""

from __future__ import annotations

import pytest

from boardgen.data.loader import load
from boardgen.model.minos import build
from boardgen.rules.minos import MinosGame
from boardgen.rules.players import GreedyPlayer, RandomPlayer
from boardgen.rules.protocol import HeuristicGame, Player
from boardgen.rules.simulate import GameRecord, play, player_draws

LAYOUT = build(load("game", "minos"))


def through_apply(game: MinosGame, players, seed: int, cap: int) -> GameRecord:
    """The game `play` plays, decision by decision through `apply` and frozen states,
    checking the position played in place at every step."""
    rng = player_draws(seed)
    state = game.initial_state(len(players), seed)
    position = game.position(len(players), seed)
    counters: dict[str, float] = {}
    decisions = offered = widest = 0
    while game.outcome(state) is None and state.turn < cap:
        moves = game.legal_moves(state)
        assert tuple(game.legal_moves(position)) == tuple(moves)
        assert game.count_moves(position) == len(moves)
        # The greedy player's candidates, found without listing every move, are those of
        # the lowest score of every legal move (the protocol's own `best_moves`).
        assert list(game.best_moves(position)) == HeuristicGame.best_moves(game, state)
        offered, widest = offered + len(moves), max(widest, len(moves))
        move = players[game.to_move(state)].choose(game, state, rng)
        state = game.apply(state, move)
        game.play(position, move)
        assert position.snapshot() == state
        for event in game.events(state):
            counters[event] = counters.get(event, 0.0) + 1.0
        decisions += 1
    outcome = game.outcome(state)
    if outcome is None:
        return GameRecord(seed, len(players), None, cap, False, decisions, offered, widest, counters)
    return GameRecord(
        seed, len(players), outcome.winner, outcome.turns, True, decisions, offered, widest, counters, None
    )


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_self_play_in_place_is_the_game_apply_plays(seats):
    game = MinosGame(LAYOUT)
    for seed in range(4):
        players = [GreedyPlayer()] * seats
        expected = through_apply(game, players, seed, 1000)
        assert expected.finished and expected.counters.get("swaps", 0) > 0
        assert play(game, players, seed, turn_cap=1000) == expected
    mixed: list[Player] = [RandomPlayer(), GreedyPlayer()] * 2
    assert play(game, mixed[:seats], 9, turn_cap=1000) == through_apply(game, mixed[:seats], 9, 1000)
    capped = play(game, [GreedyPlayer()] * seats, 3, turn_cap=5)
    assert not capped.finished and capped == through_apply(game, [GreedyPlayer()] * seats, 3, 5)
