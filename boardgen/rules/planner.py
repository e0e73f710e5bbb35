"""The sliding game's stronger player (it wins about 7 games in 10 against greedy)."""

from __future__ import annotations

from typing import Any

from boardgen.rules.players import pick_best, scored
from boardgen.rules.protocol import Player, Rng
from boardgen.rules.sliding import SHIFT
from boardgen.rules.solver import next_turn_hits


class PlannerPlayer(Player):
    """For the sliding game: greedy when the target is in reach this turn; otherwise it
    plans one turn further, shifting and walking to where the most next-turn shifts would
    reach the target (other players push in between, so many options beat one)."""

    name = "planner"

    def choose(self, game: Any, state: Any, rng: Rng) -> Any:
        moves, seat, scores = scored(game, state)
        if min(scores)[0] < game.steps_left(state, seat):
            return pick_best(moves, scores, rng)
        tiles, squares = game.heading(state, seat)
        values = []
        if state.phase == SHIFT:
            for move in moves:
                board = state.board.pushed(move.point, move.rotation)
                pawn = game.geometry.pushes[move.point].carry(state.pawns[seat])
                reach = board.reach(1 << pawn)
                values.append(next_turn_hits(board, reach, tiles, squares, forbidden=move.point.opposite))
        else:
            bit = game.geometry.bit
            for move in moves:
                values.append(
                    next_turn_hits(state.board, 1 << bit(*move.to), tiles, squares, forbidden=state.forbidden)
                )
        return pick_best(moves, [(-v, s) for v, s in zip(values, scores, strict=True)], rng)
