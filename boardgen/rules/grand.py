"""Le Grand Labyrinthe (game B): the branching dice race from night to light, on the shared
race engine (`boardgen.rules.race.RaceGame`).

The layout's track graph (`GrandLayout.track`) carries every field effect as data: exact
count (83 and the peripheral centres), the centres' move on, the blue fields' jumps, the
open fields' cards, the pun fields ("again" with the layout's ``pun_success``, else a card),
the drowning fields (stuck until passed) and the prison (stuck until replaced), the
petrifying field (back to the rooster). The deck is the layout's 32 cards. What is Grand's
own here: the routes (0 central, 1 peripheral: a field is on the peripheral route when it is
in a peripheral labyrinth), the greedy player's estimate (expected turns left) and the route
players.

Where the source is silent or unclear, the engine decides as follows (the same decisions,
worded for players, are printed on the rules sheet from ``layouts/rules/grand.*.md``):

1. Pawns start in front of field 1. Any number of pawns may share a field, except on the
   drowning fields and the prison, where a pawn that ends its move on a stuck pawn takes its
   place: the stuck pawn goes, free, to the field the newcomer started that count from, and
   that field does nothing to it.
2. The route is chosen when a count leaves field 3 (on to 4: central; on to I: peripheral),
   and when a pawn reaches a peripheral centre (IX, XVIII, XXVII) by exact count: it moves
   on at once, free of charge, to the next peripheral labyrinth or to the next central
   sequence (a decision of its own, in the same turn). XXXVI sends the pawn on to 82 at
   once. Blue fields 20, 40, 60 send a pawn that ends its move there to X, XIX, XXVIII. A
   count the dice did not make (a card, a pun) follows the pawn's last route choice.
3. Exact count: a count never passes 83 nor a peripheral centre; it goes in and comes back
   one field per extra point (the way it came), and the field where it stops acts. With the
   layout's ``exact_one_die``, one die alone may make the exact count. Counting back from
   the first field of a peripheral labyrinth leads to the field whose arrow enters it.
4. A field acts where a count ends (after a jump: where the jump ends), never when passed.
   A pawn moved by another pawn's card or by a change of places triggers nothing.
5. A drowning pawn (29, 30) is freed when another pawn's count goes through its field, in
   either direction, or ends on it (rule 1). A pawn in the prison (74) is freed only when
   another pawn ends its move there (rule 1). A stuck pawn's player does not roll.
6. Deadlock: if at the start of a turn every pawn is stuck, the player to play frees their
   own pawn and plays normally.
7. Pun fields: the player makes a pun (self-play: succeeds with ``pun_success``) and moves
   again by the same count; without a pun, draws a card.
8. Petrified (79): back to field 1 (the rooster), where nothing happens.
9. Cards are drawn from the top and discarded; the discards are shuffled into a new deck
   when it runs out. "Roll again" gives another whole turn at once (at most 5 in a row);
   "change places with the pawn nearest the lair" picks the pawn with the fewest expected
   turns left, if it is ahead of yours; "every stuck pawn is freed" frees them where they
   stand.
10. The first pawn on 83 wins at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from boardgen.model import race
from boardgen.model.grand import GrandLayout
from boardgen.rules.race import DIE, STUCK_COST, Move, RaceGame, RaceState

CENTRAL_ROUTE, PERIPHERAL_ROUTE = 0, 1
ROUTES = ("central", "peripheral")


class GrandGame(RaceGame):
    """The rules of Le Grand Labyrinthe for one layout: the shared race engine on the
    layout's track, its deck and routes (see the module doc)."""

    id = "grand"

    def __init__(self, layout: GrandLayout):
        track = layout.track()
        routes = [CENTRAL_ROUTE] * (len(track) + 1)
        for field in layout.peripheral:
            routes[layout.index(field)] = PERIPHERAL_ROUTE
        super().__init__(track, players=layout.players, dice=2, game_id="grand",
                         deck=tuple(card.effect for card in layout.cards), exact_one_die=layout.exact_one_die,
                         routes=routes)
        self.layout = layout
        self.card_ids = tuple(card.id for card in layout.cards)

    def _after(self, end: int) -> float:
        """Expected turns left for a pawn whose count ends on `end` (its forced moves, its
        move on the best way and the cost of being stuck included; cards left out)."""
        field = self.chain[end][-1]
        ways = self.ways_on[field]
        if ways:
            return min(self._after(w) for w in ways)
        hold = self.hold[field]
        return self.expected[field] + (STUCK_COST[race.STUCK_UNTIL[hold - 1]] if hold else 0.0)

    def heuristic(self, state: RaceState, seat: int) -> float:
        """Lower is better: the expected turns left for `seat`'s pawn, turns it must sit out
        and being stuck included."""
        total = 0.0
        for k in range(seat * self.per, (seat + 1) * self.per):
            field = state.pos[k]
            total += self.expected[field] + state.lost_turns(k)
            if state.stuck and state.stuck[k]:
                total += STUCK_COST[race.STUCK_UNTIL[state.stuck[k] - 1]]
        return total

    def score_moves(self, state: RaceState, moves: Sequence[Move], seat: int) -> list[float]:
        """Each move by where it leaves the pawn, without drawing the card or the pun it may
        set off (a player cannot see those coming)."""
        base = self.heuristic(state, seat)
        out = []
        for move in moves:
            origin = state.pos[move.piece]
            if move.kind == DIE:
                end = self.ends[origin][move.die][move.way]
            elif move.kind == race.MOVE_ON:
                end = self.ways_on[origin][move.way]
            else:
                out.append(base)
                continue
            out.append(base - self.expected[origin] + self._after(end))
        return out


class RoutePlayer:
    """Always the same route where there is a choice (central or peripheral), otherwise the
    move the greedy estimate prefers (the first of equals)."""

    def __init__(self, route: str):
        if route not in ROUTES:
            raise ValueError(f"unknown route {route!r}; use {', '.join(ROUTES)}")
        self.name = route
        self.want = ROUTES.index(route)

    def choose(self, game: GrandGame, state: RaceState, rng: random.Random) -> Move:
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        keep = [m for m in moves if all(r == self.want for r in game.move_routes(state, m))] or list(moves)
        scores = game.score_moves(state, keep, game.to_move(state))
        return keep[scores.index(min(scores))]


PLAYERS: dict[str, Callable[[], RoutePlayer]] = {route: partial(RoutePlayer, route) for route in ROUTES}


def count_events(before: RaceState, move: Move, after: RaceState) -> Mapping[str, float]:
    """Self-play counters of one decision: fields reached (``landed:<index>``), what it set
    off (``card:<deck index>``, ``again``, ``rescued``, ``replaced``, ``deadlock``, ``swap``,
    ``freed``, ``reshuffle``), a pawn's first route choice (``route:<route>``) and the winning
    pawn's route (``won:<route>``)."""
    counters: dict[str, float] = {}
    for field in after.landings:
        key = f"landed:{field}"
        counters[key] = counters.get(key, 0) + 1
    for event in after.events:
        counters[event] = counters.get(event, 0) + 1
    for was, now in zip(before.first_route, after.first_route, strict=True):
        if was < 0 <= now:
            key = f"route:{ROUTES[now]}"
            counters[key] = counters.get(key, 0) + 1
    if after.winner >= 0 and after.first_route and after.first_route[after.winner] >= 0:
        counters[f"won:{ROUTES[after.first_route[after.winner]]}"] = 1
    return counters


def route_figures(totals: Mapping[str, Any], pawns: int) -> dict[str, dict[str, float]]:
    """Per route, from summed counters: pawns that took it first (count and share of all
    `pawns`) and how often such a pawn won."""
    out = {}
    for route in ROUTES:
        taken = int(totals.get(f"route:{route}", 0))
        won = int(totals.get(f"won:{route}", 0))
        out[route] = {"taken": taken, "share": round(taken / pawns, 4) if pawns else 0.0,
                      "win_rate": round(won / taken, 4) if taken else 0.0}
    return out
