"""`counted_best` (the count and the best moves of a position in one call, which the play loop
asks where every seat picks the best) answers as `count_moves` and `best_moves` do, on every
position of real games, for every game: the default and King Minos's own."""

from __future__ import annotations

from typing import Any

import pytest

from boardgen.engines import load_game
from boardgen.rules.players import GreedyPlayer
from boardgen.rules.race import DIE, IllegalMoveError, Move
from boardgen.rules.simulate import play, player_draws


@pytest.mark.parametrize("name", ["classic", "master", "minos", "grand", "walls"])
def test_counted_best_is_count_moves_and_best_moves(name: str) -> None:
    engine, layout = load_game(name)
    game = engine.game(layout)
    checked = 0
    for seed in range(3):
        rng = player_draws(seed)
        state = game.position(4 if name != "walls" else 2, seed)
        for _ in range(150):
            count, best = game.counted_best(state)
            assert count == game.count_moves(state)
            if not count:
                assert best == ()
                break
            assert list(best) == list(game.best_moves(state))
            checked += 1
            state = game.play(state, best[0] if len(best) == 1 else rng.choice(best))
    assert checked > 100


@pytest.mark.parametrize("name", ["classic", "master", "minos", "grand", "walls"])
def test_the_game_s_own_moves_played_unchecked_are_legal_moves(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The play loop plays the moves a game offered (the greedy pick among `best_moves`)
    through `play_offered`, which King Minos plays without checking them again: every such
    move is one of `legal_moves` at that point, and looking makes no difference to the games."""
    engine, layout = load_game(name)
    game = engine.game(layout)
    seats = [GreedyPlayer()] * (4 if name != "walls" else 2)
    unchecked = [play(game, seats, seed, turn_cap=60) for seed in range(4)]
    unlooked = game.play_offered
    looked: list[bool] = []

    def looking(state: Any, move: Any) -> Any:
        looked.append(move in list(game.legal_moves(state)))
        return unlooked(state, move)

    monkeypatch.setattr(game, "play_offered", looking)
    assert [play(game, seats, seed, turn_cap=60) for seed in range(4)] == unchecked
    assert len(looked) == sum(record.decisions for record in unchecked) > 100
    assert all(looked)


def test_a_move_minos_did_not_offer_is_refused() -> None:
    """A player's own choice still goes through the checking `play`, which refuses a move the
    game did not offer."""
    engine, layout = load_game("minos")
    game = engine.game(layout)
    state = game.position(2, 1)
    legal = set(game.legal_moves(state))
    stranger = next(
        Move(DIE, die, piece) for die in range(1, 7) for piece in range(8) if Move(DIE, die, piece) not in legal
    )
    with pytest.raises(IllegalMoveError):
        game.play(state, stranger)
