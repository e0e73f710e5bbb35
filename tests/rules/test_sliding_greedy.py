"""The greedy player's values against a straightforward scoring of each move.

`SlidingGame.score_moves` and `best_moves` flood every shift's board at once (`Lanes`);
here each move is played on its own board (`Board.pushed`, `Board.reach`) and scored with
plain Manhattan distances. (The rules themselves are held to hand counts: test_sliding_perft.py.)
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen.data.loader import load
from boardgen.model.sliding import build
from boardgen.model.tiles import STEP
from boardgen.rules.players import pick_best
from boardgen.rules.sliding import (
    EXIT,
    SHIFT,
    SPARE,
    SlidingGame,
    SlidingState,
    YoungExitGame,
    YoungSlidingGame,
)

FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"
LAYOUTS = {
    "classic": build(load("game", "classic")),
    "five": build(load("game", str(FIXTURES / "five.toml"))),
    "nine": build(load("game", str(FIXTURES / "nine.toml"))),
}
VARIANTS = {"classic": SlidingGame, "young": YoungSlidingGame, "young-exit": YoungExitGame}
GAMES = {(name, variant): kind(layout) for name, layout in LAYOUTS.items() for variant, kind in VARIANTS.items()}


def manhattan(game: SlidingGame, a: int, b: int) -> int:
    (ra, ca), (rb, cb) = game.geometry.cell(a), game.geometry.cell(b)
    return abs(ra - rb) + abs(ca - cb)


def squares(bits: int) -> list[int]:
    return [sq for sq in range(bits.bit_length()) if (bits >> sq) & 1]


def exits(game: SlidingGame, board: Any) -> list[int]:
    """Squares whose tile opens off the board."""
    size = game.geometry.size
    found = []
    for row in range(size):
        for col in range(size):
            tile = board.tile_at(row, col)
            if any(
                tile.mask & side and not (0 <= row + dr < size and 0 <= col + dc < size)
                for side, (dr, dc) in STEP.items()
            ):
                found.append(game.geometry.bit(row, col))
    return found


def reference_scores(game: SlidingGame, state: SlidingState) -> list[tuple[int, int]]:
    """The mover's value of each legal move, one board at a time: (cards still to find plus
    the walk to finish, distance from the squares in reach to the nearest target)."""
    seat = state.seat
    cards = state.cards[seat]
    steps = len(cards) + 1
    wanted = [game.tile_of[c] for c in (cards if isinstance(game, YoungSlidingGame) else cards[:1])]

    def value(board: Any, reach: int) -> tuple[int, int]:
        if cards:
            targets = [sq for sq in (board.locate(t) for t in wanted) if sq != SPARE]
        else:
            targets = exits(game, board) if game.ending is EXIT else [game.homes[seat]]
        if any((reach >> t) & 1 for t in targets):
            return (steps - 1, 0)
        if not targets:
            return (steps, game.geometry.size)
        return (steps, min(manhattan(game, r, t) for r in squares(reach) for t in targets))

    moves = game.legal_moves(state)
    if state.phase == SHIFT:
        scores = []
        for move in moves:
            board = state.board.pushed(move.point, move.rotation)
            pawn = game.geometry.pushes[move.point].carry(state.pawns[seat])
            scores.append(value(board, board.reach(1 << pawn)))
        return scores
    return [value(state.board, 1 << game.geometry.bit(*move.to)) for move in moves]


def reference_best(game: SlidingGame, state: SlidingState) -> list[Any]:
    scores = reference_scores(game, state)
    return [m for m, v in zip(game.legal_moves(state), scores, strict=True) if v == min(scores)]


class ReferenceGreedy:
    """The greedy player on the reference scores."""

    name = "greedy"

    def choose(self, game: Any, state: Any, rng: random.Random) -> Any:
        return pick_best(list(game.legal_moves(state)), reference_scores(game, state), rng)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**31 - 1), st.sampled_from([2, 3, 4]), st.integers(0, 60))
def test_fast_scores_and_best_moves_match_the_reference(key, seed, players, warmup):
    game = GAMES[key]
    rng = random.Random(seed)
    state = game.initial_state(players, seed)
    for _ in range(warmup):  # random moves reach shift and walk phases, cards found, pawns off home
        if game.outcome(state) is not None:
            break
        state = game.apply(state, rng.choice(list(game.legal_moves(state))))
    if game.outcome(state) is not None:
        return
    moves = game.legal_moves(state)
    expected = reference_scores(game, state)
    assert game.score_moves(state, moves, state.seat) == expected
    best = list(game.best_moves(state))
    assert best == reference_best(game, state)
    # Applying a move just scored reuses the flooded boards: same state as from scratch.
    fresh = type(game)(LAYOUTS[key[0]])
    assert game.apply(state, best[0]) == fresh.apply(state, best[0])
    if state.phase == SHIFT:  # also for any order or subset of the moves
        some = list(reversed(moves))[::2]
        assert game.score_moves(state, some, state.seat) == [expected[moves.index(m)] for m in some]
        assert game.count_turns(state) == sum(game.apply(state, m).reach.bit_count() for m in moves)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_lane_tables_are_each_push_applied_alone(name):
    """`Lanes.carried` / `slid` (a push of one bit in every lane) and `split` against each
    lane's own `Push.carry` / `Push.slide` and `Lanes.lane`, with and without a forbidden
    point, for two numbers of orientations of the spare."""
    game = SlidingGame(LAYOUTS[name])
    geometry = game.geometry
    for forbidden in (None, geometry.points[-1]):
        for spare_mask in (0b0101, 0b0011):  # a straight, a corner
            lanes = game.lanes(forbidden, spare_mask)
            for square in (*geometry.squares, SPARE):
                slid = [lanes.lane(lanes.slid(square), k) for k in range(lanes.count)]
                assert slid == [0 if p.slide(square) == SPARE else 1 << p.slide(square) for p in lanes.pushes]
                if square != SPARE:
                    carried = lanes.split(lanes.carried(square))
                    assert carried == [1 << p.carry(square) for p in lanes.pushes]
