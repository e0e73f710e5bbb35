"""Players for self-play: random, greedy and lookahead for any game, a planner for sliding.

The greedy and search players need the game to define ``heuristic(state, seat)`` (lower is
better, any comparable value); a game may also define ``score_moves(state, moves, seat)``
to score all its moves at once faster than ``apply`` + ``heuristic``. `PlannerPlayer` is
the sliding game's stronger player (it wins about 7 games in 10 against greedy).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from boardgen.rules.protocol import Game
from boardgen.rules.sliding import SHIFT
from boardgen.rules.solver import next_turn_hits


class RandomPlayer:
    """Plays any legal move, uniformly."""

    name = "random"

    def choose(self, game: Game, state: Any, rng: random.Random) -> Any:
        return rng.choice(list(game.legal_moves(state)))


class GreedyPlayer:
    """Plays a move whose result scores best on the game's heuristic; ties broken at random.

    For the sliding game this means: the shift and rotation after which the target can be
    reached, otherwise the one after which the pawn can get closest (Manhattan distance);
    then the walk onto the target or as close to it as possible.
    """

    name = "greedy"

    def choose(self, game: Game, state: Any, rng: random.Random) -> Any:
        moves = list(game.legal_moves(state))
        seat = game.to_move(state)
        scores = score(game, state, moves, seat)
        best = min(scores)
        return rng.choice([m for m, s in zip(moves, scores, strict=True) if s == best])


class SearchPlayer:
    """Greedy over a whole turn: looks `depth` decisions ahead within the mover's own turn.

    Where a turn is several decisions, depth 2 evaluates every complete turn. Only the
    `width` best first decisions by heuristic are searched deeper, which keeps it
    affordable; ties are broken at random. (In the sliding game the heuristic of a shift
    already looks at the walk, so this plays like greedy there; see `PlannerPlayer`.)
    """

    def __init__(self, depth: int = 2, width: int = 12):
        if depth < 1 or width < 1:
            raise ValueError(f"depth and width must be at least 1, got {depth!r}, {width!r}")
        self.depth = depth
        self.width = width
        self.name = f"search{depth}"

    def choose(self, game: Game, state: Any, rng: random.Random) -> Any:
        seat = game.to_move(state)
        moves = list(game.legal_moves(state))
        scores = score(game, state, moves, seat)
        if self.depth > 1:
            ranked = sorted(range(len(moves)), key=scores.__getitem__)[:self.width]
            moves = [moves[i] for i in ranked]
            scores = [self._value(game, game.apply(state, m), seat, self.depth - 1)
                      for m in moves]
        best = min(scores)
        return rng.choice([m for m, s in zip(moves, scores, strict=True) if s == best])

    def _value(self, game: Game, state: Any, seat: int, depth: int) -> Any:
        if depth == 0 or game.outcome(state) is not None or game.to_move(state) != seat:
            return game.heuristic(state, seat)
        moves = list(game.legal_moves(state))
        return min(score(game, state, moves, seat)) if depth == 1 else min(
            self._value(game, game.apply(state, m), seat, depth - 1) for m in moves)


class PlannerPlayer:
    """For the sliding game: greedy when the target is in reach this turn; otherwise it
    plans one turn further, shifting and walking to where the most next-turn shifts would
    reach the target (other players push in between, so many options beat one)."""

    name = "planner"

    def choose(self, game: Any, state: Any, rng: random.Random) -> Any:
        moves = list(game.legal_moves(state))
        seat = game.to_move(state)
        scores = score(game, state, moves, seat)
        best = min(scores)
        steps = game.steps_left(state, seat)
        if best[0] < steps:
            candidates = [m for m, s in zip(moves, scores, strict=True) if s == best]
            return rng.choice(candidates)
        tiles, squares = game.heading(state, seat)
        values = []
        if state.phase == SHIFT:
            for move in moves:
                board = state.board.pushed(move.point, move.rotation)
                pawn = game.geometry.pushes[move.point].carry(state.pawns[seat])
                reach = board.reach(1 << pawn)
                values.append(next_turn_hits(board, reach, tiles, squares,
                                             forbidden=move.point.opposite))
        else:
            bit = game.geometry.bit
            for move in moves:
                values.append(next_turn_hits(state.board, 1 << bit(*move.to), tiles, squares,
                                             forbidden=state.forbidden))
        keyed = [(-v, s) for v, s in zip(values, scores, strict=True)]
        top = min(keyed)
        return rng.choice([m for m, k in zip(moves, keyed, strict=True) if k == top])


def score(game: Game, state: Any, moves: Sequence[Any], seat: int) -> list[Any]:
    """The heuristic value for `seat` of each move's result."""
    fast = getattr(game, "score_moves", None)
    if fast is not None:
        return fast(state, moves, seat)
    return [game.heuristic(game.apply(state, m), seat) for m in moves]


PLAYERS = {"random": RandomPlayer, "greedy": GreedyPlayer, "search": SearchPlayer,
           "planner": PlannerPlayer}


def find_player(name: str) -> Any:
    """A new player from its name: 'random', 'greedy', 'search' or 'planner'."""
    try:
        return PLAYERS[name]()
    except KeyError:
        raise ValueError(f"unknown player {name!r}; known: {', '.join(PLAYERS)}") from None
