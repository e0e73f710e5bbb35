"""Le Grand Labyrinthe (game B): the branching dice race from night to light, on the shared
race engine (`boardgen.rules.race.RaceGame`).

The layout's track graph (`GrandLayout.track`) carries every field effect as data: exact
count (83 and the peripheral centres), the centres' move on, the blue fields' jumps, the
open fields' cards, the pun fields ("again" with the layout's ``pun_success``, else a card),
the drowning fields (stuck until passed) and the prison (stuck until replaced), the
petrifying field (back to the rooster). The deck is the layout's 32 cards. What is Grand's
own here: the routes (0 central, 1 peripheral: a field is on the peripheral route when it is
in a peripheral labyrinth), the greedy player's estimate (expected turns left), the route
players, the self-play counters (`GrandGame.events`) and the tables that make self-play fast
on the one rule set: a pawn's moves, the greedy player's best and each route player's pick,
by field and roll (`GrandGame._choice`), on a position played in place
(`boardgen.rules.race.Position`), kept with it (`memo`).

Where the source is silent or unclear, the engine decides as follows (the same decisions,
worded for players, are printed on the rules sheet from ``layouts/rules/grand.*.md``):

1. Pawns start in front of field 1. Any number of pawns may share a field, except on the
   drowning fields and the prison, where a pawn that ends its move on another pawn (stuck, or
   freed where it stood) takes its place: the other pawn goes, free, to the field the newcomer
   started that count from, and that field does nothing to it.
2. The route is chosen when a count leaves field 3 (on to 4: central; on to I: peripheral),
   and when a pawn reaches a peripheral centre (IX, XVIII, XXVII) by exact count: it moves
   on at once, free of charge, to the next peripheral labyrinth or to the next central
   sequence (a decision of its own, in the same turn). XXXVI sends the pawn on to 82 at
   once. Blue fields 20, 40, 60 send a pawn that ends its move there to X, XIX, XXVIII. A
   count the dice did not make (a card, a pun) follows the pawn's last route choice.
3. Exact count: a count never passes 83 nor a peripheral centre; it goes in and comes back
   one field per extra point (the way it came), and the field where it stops acts. The count
   is the sum of the dice, as the source says; the layout's ``exact_one_die`` plays the
   optional variant the sheet offers, where one die alone may make the exact count. Counting back from
   the first field of a peripheral labyrinth leads to the field whose arrow enters it.
4. A field acts where a count ends (after a jump: where the jump ends), never when passed.
   A pawn moved by another pawn's card or by a change of places triggers nothing.
5. A drowning pawn (29, 30) is freed when another pawn's count goes through its field, in
   either direction, or ends on it (rule 1). A pawn in the prison (74) is freed only when
   another pawn ends its move there (rule 1). A stuck pawn's player does not roll.
6. Deadlock: if at the start of a turn every pawn is stuck, the player to play frees their
   own pawn and plays normally.
7. Pun fields: the player makes a pun (self-play: succeeds with ``pun_success``) and moves
   again by the count the dice showed (also when a card brought the pawn there); without a
   pun, draws a card.
8. Petrified (79): back to the layout's rebirth field (``[specials] rebirth``, field 1, the
   rooster), where nothing happens on the bundled board.
9. Cards are drawn from the top and discarded; the discards are shuffled into a new deck
   when it runs out. "Roll again" gives another whole turn at once (at most 5 in a row);
   "change places with the pawn nearest the lair" picks the pawn with the fewest fields
   still to walk to it the shortest way (a forced move counting as none), if it is nearer
   than yours; "every stuck pawn is freed" frees them where they
   stand.
10. The first pawn on 83 wins at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property, partial
from typing import cast

from boardgen.model import race
from boardgen.model.grand import GrandLayout
from boardgen.rules.protocol import Player, Rng
from boardgen.rules.race import (
    DIE,
    PASS,
    STUCK_COST,
    AnyPosition,
    IllegalMoveError,
    Move,
    Position,
    RaceGame,
    RaceState,
)

CENTRAL_ROUTE, PERIPHERAL_ROUTE = 0, 1
ROUTES = ("central", "peripheral")
_PASS = (Move(PASS),)
# A position's legal moves, the greedy player's best of them and each route player's pick.
Choice = tuple[tuple[Move, ...], tuple[Move, ...], tuple[Move, ...]]
_PASS_CHOICE: Choice = (_PASS, _PASS, _PASS * len(ROUTES))


class GrandGame(RaceGame):
    """The rules of Le Grand Labyrinthe for one layout: the shared race engine on the
    layout's track, its deck and routes (see the module doc)."""

    id = "grand"

    def __init__(self, layout: GrandLayout):
        track = layout.track()
        routes = [CENTRAL_ROUTE] * (len(track) + 1)
        for field in layout.peripheral:
            routes[layout.index(field)] = PERIPHERAL_ROUTE
        super().__init__(
            track,
            players=layout.players,
            dice=2,
            game_id="grand",
            deck=tuple(card.effect for card in layout.cards),
            exact_one_die=layout.exact_one_die,
            max_again=layout.max_extra_turns,
            routes=routes,
        )
        self.layout = layout
        self.card_ids = layout.card_ids
        # The kernel's tables: a free pawn's moves by field and roll (`legal_moves`), each
        # route player's pick among them, the counters' names (`events`).
        self._rolls: dict[int, Choice] = {}
        self._last: tuple[AnyPosition | None, Choice] = (None, _PASS_CHOICE)
        self._landed_keys = [f"landed:{field}" for field in range(len(track) + 1)]
        self._route_keys = [f"route:{route}" for route in ROUTES]
        self._won_keys = [f"won:{route}" for route in ROUTES]

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
        return self._heuristic(state.pos, state.free_at, state.stuck, state.turn, state.seats, seat)

    def _heuristic(
        self, pos: Sequence[int], free: Sequence[int], stuck: Sequence[int], turn: int, seats: int, seat: int
    ) -> float:
        """`heuristic` on a position's lists (``stuck`` may be empty: no pawn is)."""
        total = 0.0
        for k in range(seat * self.per, (seat + 1) * self.per):
            total += self.expected[pos[k]] + max(0, (free[k] - turn) // seats)
            if stuck and stuck[k]:
                total += STUCK_COST[race.STUCK_UNTIL[stuck[k] - 1]]
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

    # -- self-play: the same rules on one position played in place ------------------------------

    @cached_property
    def after(self) -> list[float]:
        """`_after` of every field index (the score of a count that ends there)."""
        return [self._after(end) for end in range(len(self.track) + 1)]

    def prepare(self) -> None:
        """Work out now the tables self-play needs (the expected turns left, `after`), so
        that the processes self-play forks share them instead of each working them out."""
        self.after  # noqa: B018 - the cached table is what is wanted

    def position(self, players: int, seed: int) -> Position:
        """The first position of a game, to be played in place (`play`)."""
        return Position(self.initial_state(players, seed))

    def play(self, state: Position, move: Move) -> Position:
        """`apply` in place: the position after `move` (see `RaceGame._play_on`)."""
        choice = state.memo
        if move not in (choice or self._choice(state))[0]:
            raise IllegalMoveError(
                f"{move} is not legal here; legal: {', '.join(map(str, self.legal_moves(state))) or 'none'}"
            )
        state.clear()
        self._play_on(state, move)
        return state

    def legal_moves(self, state: AnyPosition) -> Sequence[Move]:
        return (state.memo or self._choice(state))[0]

    def count_moves(self, state: AnyPosition) -> int:
        """`len(legal_moves(state))`, without the call in between (asked at every decision)."""
        return len((state.memo or self._choice(state))[0])

    def best_moves(self, state: AnyPosition) -> Sequence[Move]:
        """The greedy player's candidates: the legal moves that leave the pawn with the fewest
        expected turns left (`score_moves` less the part common to every move)."""
        return (state.memo or self._choice(state))[1]

    def route_move(self, state: AnyPosition, want: int) -> Move:
        """What a route player for route `want` plays (`RoutePlayer`): of the moves whose every
        choice is on its route (all of them if none is), the first of the best."""
        return (state.memo or self._choice(state))[2][want]

    def _choice(self, state: AnyPosition) -> Choice:
        """The legal moves of the position, the greedy player's and each route player's, from
        tables where one pawn per seat makes them depend only on its field and the roll (or on
        the field it moves on from); kept with a mutable position until it changes."""
        if isinstance(state, Position):
            if state.memo is not None:
                return state.memo  # type: ignore[no-any-return]
            seat = state.turn % state.seats
            key = None
            if self.per == 1 and state.winner < 0:
                if state.offer is not None:
                    key = -1 - state.pos[state.offer[1]] - 1000 * state.offer[1]
                elif state.free_at[seat] > state.turn or state.stuck[seat]:
                    state.memo = _PASS_CHOICE
                    return _PASS_CHOICE
                else:
                    a, b = state.dice
                    key = ((seat * 1000 + state.pos[seat]) * 7 + min(a, b)) * 7 + max(a, b)
            choice = self._rolls.get(key) if key is not None else None
            if choice is None:
                choice = self._choose_among(state)
                if key is not None:
                    self._rolls[key] = choice
            state.memo = choice
            return choice
        cached, choice = self._last
        if cached is not state:
            choice = self._choose_among(state)
            self._last = (state, choice)
        return choice

    def _choose_among(self, state: AnyPosition) -> Choice:
        moves = self._legal(cast(RaceState, state))
        if len(moves) <= 1:  # none: the game is over
            return moves, moves, moves * len(ROUTES)
        gains = [self._gain(state, move) for move in moves]
        low = min(gains)
        best = tuple(move for move, gain in zip(moves, gains, strict=True) if gain == low)
        by_route = []
        for want in range(len(ROUTES)):
            keep = [i for i, move in enumerate(moves) if all(r == want for r in self.move_routes(state, move))]
            by_route.append(moves[min(keep or range(len(moves)), key=gains.__getitem__)])
        return moves, best, tuple(by_route)

    def _gain(self, state: AnyPosition, move: Move) -> float:
        """How a move changes the expected turns left of its pawn (`score_moves` less the
        heuristic of the position)."""
        origin = state.pos[move.piece]
        if move.kind == DIE:
            return self.after[self.ends[origin][move.die][move.way]] - self.expected[origin]
        if move.kind == race.MOVE_ON:
            return self.after[self.ways_on[origin][move.way]] - self.expected[origin]
        return 0.0

    def events(self, state: AnyPosition) -> list[str]:
        """Self-play counters of the decision that led to `state`: fields reached
        (``landed:<index>``), what it set off (``card:<deck index>``, ``again``, ``rescued``,
        ``replaced``, ``deadlock``, ``swap``, ``freed``, ``reshuffle``), a pawn's first route
        choice (``route:<route>``) and the winning pawn's route (``won:<route>``)."""
        out = list(map(self._landed_keys.__getitem__, state.landings))
        if state.events:
            out += state.events
        if state.chose >= 0:
            out.append(self._route_keys[state.chose])
        if state.winner >= 0 and state.first_route[state.winner] >= 0:
            out.append(self._won_keys[state.first_route[state.winner]])
        return out


class RoutePlayer(Player):
    """Always the same route where there is a choice (central or peripheral), otherwise the
    move the greedy estimate prefers (the first of equals)."""

    def __init__(self, route: str):
        if route not in ROUTES:
            raise ValueError(f"unknown route {route!r}; use {', '.join(ROUTES)}")
        self.name = route
        self.want = ROUTES.index(route)

    def choose(self, game: GrandGame, state: AnyPosition, rng: Rng) -> Move:
        return game.route_move(state, self.want)


PLAYERS: dict[str, Callable[[], RoutePlayer]] = {route: partial(RoutePlayer, route) for route in ROUTES}
