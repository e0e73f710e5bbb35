"""Players for self-play: random, greedy and lookahead, for any game of the rules protocol.

The greedy and search players play a `HeuristicGame`: one that defines ``heuristic(state,
seat)`` (lower is better, any comparable value), and may override ``score_moves(state,
moves, seat)`` and ``best_moves(state)`` to work them out faster than ``apply`` +
``heuristic``. Players of one game only live with that game (the sliding game's planner:
`boardgen.rules.planner`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from boardgen.rules.protocol import Game, HeuristicGame, Player, Rng


class RandomPlayer(Player):
    """Plays any legal move, uniformly."""

    name = "random"

    def choose(self, game: Game[Any, Any], state: Any, rng: Rng) -> Any:
        return rng.choice(list(game.legal_moves(state)))


class GreedyPlayer(Player):
    """Plays a move whose result scores best on the game's heuristic; ties broken at random.

    For the sliding game this means: the shift and rotation after which the target can be
    reached, otherwise the one after which the pawn can get closest (Manhattan distance);
    then the walk onto the target or as close to it as possible.
    """

    name = "greedy"
    # The choice is `tie_break` of the game's best moves: the play loop makes it (`Player`).
    picks_best = True

    def choose(self, game: HeuristicGame[Any, Any], state: Any, rng: Rng) -> Any:
        return tie_break(game.best_moves(state), rng)


class SearchPlayer(Player):
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
            min(game.score_moves(state, moves, seat))
            if depth == 1
            else min(self._value(game, game.apply(state, m), seat, depth - 1) for m in moves)
        )


def scored(game: HeuristicGame[Any, Any], state: Any) -> tuple[list[Any], int, list[Any]]:
    """The legal moves, the seat to move, and the heuristic value of each move for it."""
    moves = list(game.legal_moves(state))
    seat = game.to_move(state)
    return moves, seat, list(game.score_moves(state, moves, seat))


def pick_best(moves: Sequence[Any], values: Sequence[Any], rng: Rng) -> Any:
    """One of the moves with the lowest value, drawn at random."""
    best = min(values)
    return tie_break([m for m, v in zip(moves, values, strict=True) if v == best], rng)


def tie_break(best: Sequence[Any], rng: Rng) -> Any:
    """One of the best moves: the only one without a draw, else ``rng.choice`` of them (so
    a player draws only where moves tie, from any generator, as `boardgen.draws.Draws.choice`
    does)."""
    return best[0] if len(best) == 1 else rng.choice(best)


# The players that can play any game that has a heuristic, by name. An engine names the
# players of its game (`boardgen.engine.Engine.players`): these, and any of its own.
GENERIC_PLAYERS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "search": SearchPlayer,
}
