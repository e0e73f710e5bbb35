"""The generic race engine on a small branching track (see test_race_model for the track)."""

from __future__ import annotations

import pytest
from test_race_model import TRACK, read

from boardgen.model.race import OUTSIDE
from boardgen.rules.players import GreedyPlayer, RandomPlayer
from boardgen.rules.race import DIE, PASS, IllegalMoveError, Move, RaceGame, RaceState
from boardgen.rules.simulate import play


@pytest.fixture(scope="module")
def game() -> RaceGame:
    _, graph, _ = read(TRACK)
    assert graph is not None
    return RaceGame(graph, players=(2, 4), pieces_per_player=1, dice=1, game_id="tiny")


def at(game: RaceGame, pos: tuple[int, ...], dice: tuple[int, ...] = (3,), turn: int = 0,
       free: tuple[int, ...] | None = None) -> RaceState:
    return RaceState(len(pos), turn, pos, free or (0,) * len(pos), dice, None, 1)


def test_a_count_offers_one_move_per_branch(game):
    i = game.track.index
    s = at(game, (2, OUTSIDE), dice=(3,))
    assert game.legal_moves(s) == (Move(DIE, 3, 0, 0), Move(DIE, 3, 0, 1))
    central = game.apply(s, Move(DIE, 3, 0, 0))
    assert central.pos[0] == 5 and central.landings == (5,)
    # 5 takes one turn: the piece sits out its owner's next turn.
    assert central.free_at[0] == 0 + 2 * 2
    peripheral = game.apply(s, Move(DIE, 3, 0, 1))
    assert peripheral.pos[0] == i("II")
    assert peripheral.seat == 1 and len(peripheral.dice) == 1


def test_tunnel_exact_count_and_winning(game):
    i = game.track.index
    # Ending on I goes through the tunnel to 1.
    s = game.apply(at(game, (3, OUTSIDE), dice=(1,)), Move(DIE, 1, 0, 1))
    assert s.pos[0] == 1 and s.landings == (i("I"), 1)
    # 6 needs an exact count: from 4 a 4 goes in and comes back to 4.
    s = game.apply(at(game, (4, OUTSIDE), dice=(4,)), Move(DIE, 4, 0, 0))
    assert s.pos[0] == 4
    s = game.apply(at(game, (4, OUTSIDE), dice=(2,)), Move(DIE, 2, 0, 0))
    assert s.winner == 0 and game.outcome(s).winner == 0


def test_a_held_piece_passes(game):
    s = at(game, (5, 3), dice=(2,), turn=2, free=(4, 0))
    assert game.legal_moves(s) == (Move(PASS),)
    with pytest.raises(IllegalMoveError):
        game.apply(s, Move(DIE, 2, 0, 0))


@pytest.mark.parametrize("seats", [2, 3])
def test_playouts_end(game, seats):
    for seed in range(10):
        for player in (GreedyPlayer(), RandomPlayer()):
            record = play(game, [player] * seats, seed, turn_cap=500)
            assert record.finished
    assert game.heuristic(at(game, (6, 1)), 0) < game.heuristic(at(game, (1, 6)), 0)


def test_a_field_that_moves_pieces_on_asks_for_the_way():
    # 3 is reached by exact count and moves a piece on at once, along 4 or I.
    text = TRACK.replace('next = ["4", "I"]', 'next = ["4", "I"]\neffects = [{ kind = "exact" }, { kind = "move_on" }]')
    _, graph, problems = read(text)
    assert problems == [] and graph is not None
    i = graph.index
    assert graph.moves_on(3) == (4, i("I")) and 3 not in graph.forced()
    game = RaceGame(graph, players=(2, 4), pieces_per_player=1, dice=1)
    s = game.apply(at(game, (2, OUTSIDE), dice=(1,)), Move(DIE, 1, 0, 0))
    assert s.pos[0] == 3 and s.offer == ("move_on", 0) and s.seat == 0
    assert game.legal_moves(s) == (Move("move_on", 0, 0, 0), Move("move_on", 0, 0, 1))
    s = game.apply(s, Move("move_on", 0, 0, 1))
    assert s.pos[0] == 1 and s.landings == (i("I"), 1) and s.seat == 1  # I's tunnel, then the turn ends
    # With one way on, moving on is a forced move like a jump.
    _, single, problems = read(TRACK.replace("[fields.II]\n", '[fields.II]\neffects = [{ kind = "move_on" }]\n'))
    assert problems == [] and single is not None
    assert single.forced()[i("II")] == i("III") and single.rest(i("II")) == (i("II"), i("III"))
