"""`counted_best` (the count and the best moves of a position in one call, which the play loop
asks where every seat picks the best) answers as `count_moves` and `best_moves` do, on every
position of real games, for every game: the default and King Minos's own."""

from __future__ import annotations

import pytest

from boardgen.engines import load_game
from boardgen.rules.simulate import player_draws


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
