"""Players for self-play: random, greedy and lookahead, for any game of the rules protocol.

The greedy and search players need the game to define ``heuristic(state, seat)`` (lower is
better, any comparable value); a game may also define ``score_moves(state, moves, seat)``
to score all its moves at once faster than ``apply`` + ``heuristic``. Players of one game
only live with that game (the sliding game's planner: `boardgen.rules.planner`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from boardgen.rules.protocol import Game, HeuristicGame, Player, Rng


class RandomPlayer:
    """Plays any legal move, uniformly."""

    name = "random"

    def choose(self, game: Game[Any, Any], state: Any, rng: Rng) -> Any:
        return rng.choice(list(game.legal_moves(state)))


class GreedyPlayer:
    """Plays a move whose result scores best on the game's heuristic; ties broken at random.

    For the sliding game this means: the shift and rotation after which the target can be
    reached, otherwise the one after which the pawn can get closest (Manhattan distance);
    then the walk onto the target or as close to it as possible.
    """

    name = "greedy"
    # Where the game lists its best moves, the choice is `tie_break` of them (`PicksBest`).
    picks_best = True

    def choose(self, game: HeuristicGame[Any, Any], state: Any, rng: Rng) -> Any:
        # A game may list its best moves without scoring them all (``best_moves(state)``:
        # the legal moves of the lowest `score`, in legal order); the draw is the same.
        best = getattr(game, "best_moves", None)
        if best is not None:
            return tie_break(best(state), rng)
        moves, _, scores = scored(game, state)
        return pick_best(moves, scores, rng)


class SearchPlayer:
    """Greedy over a whole turn: looks `depth` decisions ahead within the mover's own turn.

    Where a turn is several decisions, depth 2 evaluates every complete turn. Only the
    `width` best first decisions by heuristic are searched deeper, which keeps it
    affordable; ties are broken at random. (In the sliding game the heuristic of a shift
    already looks at the walk, so this plays like greedy there; see `boardgen.rules.planner.PlannerPlayer`.)
    """

    def __init__(self, depth: int = 2, width: int = 12):
        if depth < 1 or width < 1:
            raise ValueError(f"depth and width must be at least 1, got {depth!r}, {width!r}")
        self.depth = depth
        self.width = width
        self.name = f"search{depth}"

    def choose(self, game: HeuristicGame[Any, Any], state: Any, rng: Rng) -> Any:
        moves, seat, scores = scored(game, state)
        if self.depth > 1:
            ranked = sorted(range(len(moves)), key=scores.__getitem__)[: self.width]
            moves = [moves[i] for i in ranked]
            scores = [self._value(game, game.apply(state, m), seat, self.depth - 1) for m in moves]
        return pick_best(moves, scores, rng)

    def _value(self, game: HeuristicGame[Any, Any], state: Any, seat: int, depth: int) -> Any:
        if depth == 0 or game.outcome(state) is not None or game.to_move(state) != seat:
            return game.heuristic(state, seat)
        moves = list(game.legal_moves(state))
        return (
            min(score(game, state, moves, seat))
            if depth == 1
            else min(self._value(game, game.apply(state, m), seat, depth - 1) for m in moves)
        )


def scored(game: HeuristicGame[Any, Any], state: Any) -> tuple[list[Any], int, list[Any]]:
    """The legal moves, the seat to move, and the heuristic value of each move for it."""
    moves = list(game.legal_moves(state))
    seat = game.to_move(state)
    return moves, seat, score(game, state, moves, seat)


def pick_best(moves: Sequence[Any], values: Sequence[Any], rng: Rng) -> Any:
    """One of the moves with the lowest value, drawn at random."""
    best = min(values)
    return tie_break([m for m, v in zip(moves, values, strict=True) if v == best], rng)


def tie_break(best: Sequence[Any], rng: Rng) -> Any:
    """One of the best moves: the only one without a draw, else ``rng.choice`` of them (so
    a player draws only where moves tie, from any generator, as `boardgen.draws.Draws.choice`
    does)."""
    return best[0] if len(best) == 1 else rng.choice(best)


def score(game: HeuristicGame[Any, Any], state: Any, moves: Sequence[Any], seat: int) -> list[Any]:
    """The heuristic value for `seat` of each move's result."""
    fast = getattr(game, "score_moves", None)
    if fast is not None:
        return list(fast(state, moves, seat))
    return [game.heuristic(game.apply(state, m), seat) for m in moves]


# The players that can play any game that has a heuristic, by name. An engine names the
# players of its game (`boardgen.engine.Engine.players`): these, and any of its own.
GENERIC_PLAYERS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "search": SearchPlayer,
}
