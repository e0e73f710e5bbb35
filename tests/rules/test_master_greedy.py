"""Labyrinthe Master's greedy player: `best_moves` (every shift flooded at once, the token
grown until it meets a reach) against scoring each legal move on its own (`score_moves`),
decision by decision and over whole games. (The rules themselves are held to hand counts:
test_sliding_perft.py.)"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen.data.loader import load
from boardgen.model.master import build, setup
from boardgen.rules.master import USE, WAND, MasterGame
from boardgen.rules.players import GreedyPlayer, pick_best
from boardgen.rules.protocol import Player, Rng
from boardgen.rules.simulate import play
from boardgen.rules.sliding import Board

LAYOUT = build(load("game", "master"))
GAME = MasterGame(LAYOUT)


def scored_best(state: Any) -> list[Any]:
    """The moves a greedy player draws from when it scores every legal move."""
    moves = list(GAME.legal_moves(state))
    values = GAME.score_moves(state, moves, state.seat)
    return [m for m, v in zip(moves, values, strict=True) if v == min(values)]


class ScoringGreedy(Player):
    """The greedy player on the scores of every legal move (no `best_moves`)."""

    name = "greedy"

    def choose(self, game: Any, state: Any, rng: Rng) -> Any:
        moves = list(game.legal_moves(state))
        return pick_best(moves, game.score_moves(state, moves, state.seat), rng)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from([2, 3, 4]), st.integers(0, 90), st.booleans())
def test_best_moves_are_the_best_scored_moves(seed, players, warmup, on_token):
    rng = random.Random(seed)
    if on_token:  # the mover's pawn stands on the lowest token: it must step off first
        start = setup(LAYOUT, seed)
        cells = {object_id: cell for cell, object_id in start.tokens.items()}
        pawns = [cells[GAME.ids[0]]] + [s.at for s in LAYOUT.starts[1:players]]
        state = GAME.start(
            Board.from_deal(start.deal), players, tokens=start.tokens, recipes=start.recipes[:players], pawns=pawns
        )
        warmup = 0
    else:
        state = GAME.initial_state(players, seed)
    for _ in range(warmup):  # random moves reach every phase, tokens taken, wands spent
        if GAME.outcome(state) is not None:
            return
        state = GAME.apply(state, rng.choice(list(GAME.legal_moves(state))))
    if GAME.outcome(state) is not None:
        return
    assert list(GAME.best_moves(state)) == scored_best(state)
    if state.phase != WAND:  # and once more from the walk after the best shift, or a walk
        after = GAME.apply(state, GAME.best_moves(state)[0])
        if GAME.outcome(after) is None:
            assert list(GAME.best_moves(after)) == scored_best(after)


class Recorded(Player):
    """A player that keeps the moves it chooses."""

    def __init__(self, player: Any):
        self.player, self.name = player, player.name
        self.moves: list[Any] = []

    def choose(self, game: Any, state: Any, rng: Rng) -> Any:
        move = self.player.choose(game, state, rng)
        self.moves.append(move)
        return move


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 8), (4, 1)])
def test_a_greedy_game_makes_the_moves_of_the_scoring_player(players, seed):
    fast, slow = Recorded(GreedyPlayer()), Recorded(ScoringGreedy())
    assert play(GAME, [fast] * players, seed, turn_cap=400) == play(GAME, [slow] * players, seed, turn_cap=400)
    assert fast.moves == slow.moves and len(fast.moves) > 40 and USE in fast.moves


def standing(board: str) -> Any:
    """Seat 0 on the lowest token at (2, 2), seat 1 at (4, 4); the other tokens on rows 0, 5, 6."""
    free = iter([(r, c) for r in (6, 0, 5) for c in range(7)])
    tokens = {(2, 2): GAME.ids[0], **{next(free): object_id for object_id in GAME.ids[1:]}}
    recipes = (tuple(GAME.ids[:3]), tuple(GAME.ids[3:6]))
    return GAME.start(Board.from_text(board, spare="·"), 2, tokens=tokens, recipes=recipes, pawns=[(2, 2), (4, 4)])


def test_a_pawn_on_its_token_steps_off_to_a_neighbour_or_stays_if_walled_in():
    walled = standing("\n".join(["·" * 7] * 7))
    assert list(GAME.best_moves(walled)) == list(GAME.legal_moves(walled)) == scored_best(walled)
    shifted = GAME.apply(walled, GAME.legal_moves(walled)[0])
    assert [w.to for w in GAME.best_moves(shifted)] == [(2, 2)]  # nowhere else to go
    crossed = standing("\n".join(["┼" * 7] * 7))
    moves = list(GAME.best_moves(crossed))
    assert moves == scored_best(crossed)
    walk = GAME.apply(crossed, moves[0])
    on = walk.pawns[0]
    assert [GAME.geometry.bit(*w.to) for w in GAME.best_moves(walk)] == sorted(
        sq for sq in GAME.geometry.squares if GAME.geometry.distance(sq, on) == 1
    )
