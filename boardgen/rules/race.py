"""A dice race on a track graph (`boardgen.model.race`): the engine every race game shares.

`RaceGame` plays the plain race the graph describes: each turn the seat to move rolls the
dice and moves one of its pieces forward by their sum along the graph, choosing at the
branches; a count never passes an "exact" field nor the goal (it comes back by the extra
points); where the count ends, the field acts: jumps and tunnels move the piece on at
once, "lose_turns" holds it (a tunnel out of such a field is taken at the start of its
owner's turn once the turns are lost), a piece reaching the goal leaves the board, and
the first seat with every piece off the board wins. Pieces may share fields.

Beyond the plain race, fields and the game may carry chance and hold-ups, all as data:
a deck of event cards (`boardgen.model.race.CardEffect`; drawn from the top, the discards
shuffled into a new deck when it runs out), "draw_card" fields, "again" fields (move again by
the same count with the field's `chance`, else draw a card where the field also draws),
"stuck" fields (a piece resting there does not move until another piece passes through the
field, ``until = "passed"``, or stops on it; a piece stopping on a stuck piece takes its
place and sends it, free, to the field the newcomer's count started from; when every piece
is stuck, the seat to play frees its own), and, with ``exact_one_die``, an exact-count field
or the goal may be reached by one die alone. A count the dice did not make (a card, a pun)
follows the piece's last route choice (`routes`: the route each field is on when a choice
leads there) and moves on from a "move_on" field the same way; a count the dice made asks.

A game with rules of its own subclasses it (King Minos, `boardgen.rules.minos`: two dice
used separately, pieces changing places, the Knight's Orbit and the Millstone) and
overrides the hooks: `_legal` (the decisions on offer), `_apply` (what a decision does),
and the greedy player's `heuristic`/`score_moves`/`best_moves`.

A state (`RaceState`) holds every piece's field (`OUTSIDE` = 0 before the start, the
goal = borne off), the turn from which each piece may move again, the dice still to use,
a pending offer (for games that make one), the random generator (one int: splitmix64,
so states stay hashable and games reproducible), the winner and the fields the last
decision passed through (`landings`, for self-play counters); with chance and hold-ups also
each piece's hold (`stuck`), its route (`route`, `first_route`), the draw pile (`deck`), how
many extra turns the seat has played this turn (`again`) and what the last decision set off
(`events`, `chose`: for self-play counters). Seat ``turn % seats`` moves. The generator is
boardgen's (`boardgen.draws`); a die is ``face(draw, 6)``, a shuffle's swap ``below_of``.

Every decision is played on one mutable `Position` (the same members as a `RaceState`, in
lists): `apply` copies a state into one, plays the decision on it (`_play_on`) and hands
back its `snapshot`; self-play keeps one `Position` for a whole game and plays every
decision on it in place (`boardgen.rules.grand.GrandGame.position`, `play`), so the rules
are written once and self-play is as fast as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from operator import itemgetter
from typing import Any, NamedTuple

from boardgen.draws import BLOCK, MASK, STEP, STEP_INVERSE, Roller, below_of, face, next_random, random_block
from boardgen.model.race import (
    ADVANCE,
    AGAIN,
    BACK,
    DRAW_CARD,
    EXACT,
    FREE_ALL,
    GOTO,
    LOSE_TURNS,
    MAX_EXTRA_TURNS,
    MOVE_ON,
    OUTSIDE,
    ROLL_AGAIN,
    SANCTUARY,
    STUCK,
    STUCK_UNTIL,
    SWAP_LEADER,
    TUNNEL,
    CardEffect,
    TrackGraph,
)
from boardgen.rules.protocol import HeuristicGame, Outcome

__all__ = ["BLOCK", "MASK", "STEP", "STEP_INVERSE", "next_random", "random_block"]  # the generator, from draws

DIE, PASS = "die", "pass"
FACES = 6
OTHERS_WEIGHT = 0.3  # greedy play: the opponents' mean progress against one's own
MAX_AGAIN = MAX_EXTRA_TURNS  # extra turns a seat may play in a row ("roll again" cards), by default
MAX_DEPTH = 12  # cards and "again" fields set off by one count
# Expected turns a piece resting on a stuck field is counted to lose, by what frees it (a
# rough guess, only used to compare fields: the expected turns left, the greedy choice).
STUCK_COST = {"passed": 4.0, "landed": 6.0, "replaced": 10.0}


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in the given state."""


class Move(NamedTuple):
    """One decision: a count for a piece (with the branch `way` it takes, 0 on a plain
    track), the way on from a "move_on" field (`MOVE_ON`, `way`), a pass, or a game's own
    decision (`kind` names it)."""

    kind: str
    die: int = 0
    piece: int = 0
    way: int = 0

    def __str__(self) -> str:
        if self.kind == DIE:
            return f"{self.die}>p{self.piece}" + (f"/{self.way}" if self.way else "")
        return self.kind if self.kind == PASS else f"{self.kind}:p{self.piece}"


class RaceState(NamedTuple):
    """An immutable game position; `landings` lists the fields reached by the last decision."""

    seats: int
    turn: int  # turns completed by all seats; seat turn % seats is playing
    pos: tuple[int, ...]  # per piece: OUTSIDE, a field index, or the goal (borne off)
    free_at: tuple[int, ...]  # per piece: the first turn it may move again
    dice: tuple[int, ...]  # dice still to use this turn
    offer: tuple[str, int] | None  # (what, piece) awaiting an answer, for games that offer
    rng: int
    winner: int = -1
    landings: tuple[int, ...] = ()
    stuck: tuple[int, ...] = ()  # per piece: 0 free, else 1 + the index of its STUCK_UNTIL; () none
    route: tuple[int, ...] = ()  # per piece: the route of its last choice (0 before any)
    first_route: tuple[int, ...] = ()  # per piece: the route of its first choice (-1 before)
    deck: tuple[int, ...] = ()  # the draw pile, indexes into the game's deck; the top is last
    again: int = 0  # extra turns the seat has played this turn
    events: tuple[str, ...] = ()  # what the last decision set off (cards, rescues...)
    chose: int = -1  # the route of a first choice the last decision made (-1: none)

    @property
    def seat(self) -> int:
        return self.turn % self.seats

    @property
    def memo(self) -> None:
        """What a game worked out about the position: nothing, for a frozen one (a
        `Position` keeps its legal moves there)."""
        return None

    def lost_turns(self, piece: int) -> int:
        """How many of its owner's turns, from this one on, the piece still sits out."""
        return max(0, (self.free_at[piece] - self.turn) // self.seats)


def roll(rng: int) -> tuple[int, int]:
    """The next generator state and a die from 1 to 6."""
    rng, z = next_random(rng)
    return rng, face(z, FACES)


class RaceGame(HeuristicGame[Any, Move]):
    """The rules of a plain race on one track, precomputed (see the module doc). Its states
    are `RaceState`s, or `Position`s where a game plays them in place."""

    id = "race"

    def __init__(
        self,
        track: TrackGraph,
        *,
        players: tuple[int, int],
        pieces_per_player: int = 1,
        dice: int = 2,
        game_id: str | None = None,
        deck: Sequence[CardEffect] = (),
        exact_one_die: bool = False,
        routes: Sequence[int] | None = None,
        max_again: int = MAX_AGAIN,
    ):
        self.track = track
        self.max_again = max_again
        self.id = game_id or self.id
        self.players = players
        self.goal = track.goal
        self.start = track.start
        self.per = pieces_per_player
        self.dice_count = dice
        size = len(track) + 1
        nodes = [None, *track.nodes]
        # Per field index (0 = OUTSIDE): what the field does where a count ends.
        self.safe = [bool(n and n.has(SANCTUARY)) for n in nodes]
        self.trap = [
            n.effect(LOSE_TURNS).turns if n and n.has(LOSE_TURNS) else 0  # type: ignore[union-attr]
            for n in nodes
        ]
        self.delayed = [0] * size
        for n in track.nodes:
            tunnel = n.effect(TUNNEL)
            if tunnel is not None and n.has(LOSE_TURNS):
                self.delayed[n.index] = tunnel.to
        self._delays = any(self.delayed)
        # A turn is one roll and no tunnel waits behind lost turns: `_play_on` ends a turn
        # without `_proceed`.
        self._plain_turns = not self._delays
        # Where a piece coming to rest on a field ends up, through every forced move; and
        # where it must move on from at once, choosing the way (a "move_on" with a choice).
        self.chain: list[tuple[int, ...]] = [(OUTSIDE,)] + [track.rest(i) for i in track.indexes]
        self.ways_on: list[tuple[int, ...]] = [()] + [
            ways if len(ways) > 1 else () for ways in map(track.moves_on, track.indexes)
        ]
        # walks[field][points]: every way a forward count goes (the fields it enters), one
        # per way the branches allow; ends[field][points]: where each ends (before forced moves).
        most = FACES * dice
        self.walks: list[list[tuple[tuple[int, ...], ...]]] = [
            [()] + [track.walks(f, p) for p in range(1, most + 1)] for f in range(size)
        ]
        self.ends: list[list[tuple[int, ...]]] = [[tuple(w[-1] for w in by) for by in walks] for walks in self.walks]
        self._distance = self._distances()
        self._cached: tuple[AnyPosition | None, tuple[Move, ...]] = (None, ())
        # Chance and hold-ups (see the module doc); a plain race has none of them.
        self.deck = tuple(deck)
        self.exact_one_die = exact_one_die and dice == 2
        self.routes = list(routes) if routes is not None else [0] * size
        self.draws = [bool(n and n.has(DRAW_CARD)) for n in nodes]
        self.again_chance = [
            n.effect(AGAIN).chance if n and n.has(AGAIN) else 0.0  # type: ignore[union-attr]
            for n in nodes
        ]
        self.hold = [
            1 + STUCK_UNTIL.index(n.effect(STUCK).until) if n and n.has(STUCK) else 0  # type: ignore[union-attr]
            for n in nodes
        ]
        self.exact = [bool(n and (n.has(EXACT) or n.index == track.goal)) for n in nodes]
        # Per field: the fields a count chooses between there (empty where there is no choice).
        self._branches: list[frozenset[int]] = [frozenset(n.next) if n and n.choice else frozenset() for n in nodes]
        self._routes_of: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        self._roller = Roller()  # the dice, a block of draws at a time
        self._steps: dict[int, tuple[tuple[int, ...], list[int], int | None]] = {}  # `_die_step`'s table

    # -- the protocol --------------------------------------------------------------------------

    def initial_state(self, players: int, seed: int) -> RaceState:
        return self.opening(players, seed)[0]

    def opening(self, players: int, seed: int) -> tuple[RaceState, int, list[int], int]:
        """The first state of a game, with what the generator drew for it: the generator's
        state `start` before the first draw, the draws from there on (`random_block`s, at
        least those the state took: the dice, then one per swap of the deck's shuffle) and
        how many of them the state took (its `rng` is ``start + taken * STEP``). A fast
        playout goes on drawing from them."""
        low, high = self.players
        if not low <= players <= high:
            raise ValueError(f"{self.id!r} is for {low} to {high} players, not {players!r}")
        start = next_random(seed & MASK)[1]
        count = players * self.per
        swaps = max(0, len(self.deck) - 1)
        taken = self.dice_count + swaps
        draws = random_block(start)
        while len(draws) < taken:
            draws += random_block((start + len(draws) * STEP) & MASK)
        dice = tuple(face(z, FACES) for z in draws[: self.dice_count])
        rng = (start + taken * STEP) & MASK
        deck = shuffle_by(draws[self.dice_count : taken], len(self.deck)) if self.deck else []
        state = RaceState(
            players,
            0,
            (OUTSIDE,) * count,
            (0,) * count,
            dice,
            None,
            rng,
            stuck=(0,) * count,
            route=(0,) * count,
            first_route=(-1,) * count,
            deck=tuple(deck),
        )
        return state, start, draws, taken

    def to_move(self, state: AnyPosition) -> int:
        return state.turn % state.seats

    def turns_played(self, state: AnyPosition) -> int:
        return state.turn

    def legal_moves(self, state: RaceState) -> Sequence[Move]:
        cached_state, moves = self._cached
        if cached_state is not state:
            moves = self._legal(state)
            self._cached = (state, moves)
        return moves

    def apply(self, state: RaceState, move: Move) -> RaceState:
        if move not in self.legal_moves(state):
            raise IllegalMoveError(
                f"{move} is not legal here; legal: {', '.join(map(str, self.legal_moves(state))) or 'none'}"
            )
        return self._apply(state, move)

    def outcome(self, state: AnyPosition) -> Outcome | None:
        if state.winner < 0:
            return None
        return Outcome(state.winner, state.turn + 1)

    # -- the plain race (hooks a game overrides) -----------------------------------------------

    def _legal(self, state: RaceState) -> tuple[Move, ...]:
        """One move per field the seat can move a piece from and per way its count can go;
        a pass when there is none."""
        if state.winner >= 0:
            return ()
        if state.offer is not None:
            piece = state.offer[1]
            return tuple(Move(MOVE_ON, 0, piece, way) for way in range(len(self.ways_on[state.pos[piece]])))
        points = sum(state.dice)
        seat, turn, goal = state.turn % state.seats, state.turn, self.goal
        seen: set[int] = set()
        out = []
        stuck = state.stuck
        singles = sorted(set(state.dice)) if self.exact_one_die else ()
        for k in range(seat * self.per, (seat + 1) * self.per):
            p = state.pos[k]
            if p == goal or state.free_at[k] > turn or p in seen or (stuck and stuck[k]):
                continue
            seen.add(p)
            out += [Move(DIE, points, k, way) for way in range(len(self.ends[p][points]))]
            for die in singles:
                # One die alone may make an exact count (the walk ends on the field itself).
                out += [Move(DIE, die, k, way) for way, end in enumerate(self.ends[p][die]) if self.exact[end]]
        return tuple(out) or (Move(PASS),)

    def _apply(self, state: RaceState, move: Move) -> RaceState:
        """The state after `move` (legal): played on a `Position` (`_play_on`), frozen."""
        t = Position(state)
        t.clear()
        self._play_on(t, move)
        return t.snapshot()

    def _proceed(self, t: Position) -> tuple[str, int] | None:
        """Carry the game on after a turn ends until a decision is needed: roll for the next
        seat, moving out the pieces due out of a tunnel behind lost turns (where the tunnel
        leads makes its offer, if any, before the dice are used). Returns the offer."""
        while True:
            t.turn += 1
            t.rng, t.dice = self._roller.roll(t.rng, self.dice_count)
            seat = t.turn % t.seats
            for k in range(seat * self.per, (seat + 1) * self.per):
                exit_to = self.delayed[t.pos[k]]
                if exit_to and t.free_at[k] == t.turn:
                    offer = self._settle(t, k, exit_to, t.pos[k], 0, 0, True)
                    if offer is not None:
                        return offer, k
            if t.dice:
                return None

    def _has_finished(self, pos: Sequence[int], seat: int) -> bool:
        return all(p == self.goal for p in pos[seat * self.per : (seat + 1) * self.per])

    # -- chance and hold-ups (see the module doc) ----------------------------------------------
    # One decision is played on a mutable `Position`; `_play` turns it back into a state.

    def _play(self, state: RaceState, move: Move) -> RaceState:
        t = Position(state)
        t.clear()
        self._play_on(t, move)
        return t.snapshot()

    def _play_on(self, t: Position, move: Move) -> None:
        """Play `move` on the position, in place, up to the next decision (its dice, offer and
        winner set). The one place a decision of a game with chance and hold-ups is played."""
        piece = move.piece
        seat = t.turn % t.seats
        offer = None
        if move.kind == DIE:
            origin = t.pos[piece]
            walk, routes, quiet = self._die_step(origin, move.die, move.way)
            for route in routes:  # `_choose`, from the table
                t.route[piece] = route
                if t.first_route[piece] < 0:
                    t.first_route[piece] = t.chose = route
            if quiet is not None:
                # What `_walk` does for a count that frees no one on its way and comes to rest
                # where nothing happens: the forced moves, then the piece rests.
                t.landings.extend(self.chain[walk[-1]])
                t.pos[piece] = quiet
            else:
                offer = self._walk(t, piece, walk, origin, move.die, 0, True)
        elif move.kind == MOVE_ON:
            origin = t.pos[piece]
            target = self.ways_on[origin][move.way]
            self._choose(t, piece, (target,), origin)
            offer = self._settle(t, piece, target, origin, 0, 0, True)
        if t.pos[piece] == self.goal and self._has_finished(t.pos, seat):
            t.dice, t.offer, t.winner = (), None, seat
            return
        if offer is not None:
            t.dice, t.offer = (), (offer, piece)
            return
        t.offer = None
        if (
            move.kind != PASS
            and t.rolls_again
            and t.again < self.max_again
            and not any(t.stuck[k] or t.free_at[k] > t.turn for k in range(seat * self.per, (seat + 1) * self.per))
        ):
            # A "roll again" card: another whole turn at once, with new dice.
            t.again += 1
            t.rng, t.dice = self._roller.roll(t.rng, self.dice_count)
            return
        t.again = 0
        if self._plain_turns:
            # `_proceed` where no tunnel waits: the next seat rolls.
            t.turn += 1
            t.rng, t.dice = self._roller.roll(t.rng, self.dice_count)
        else:
            t.offer = self._proceed(t)
        if all(t.stuck):
            # Deadlock: every piece is stuck; the seat to play frees its own.
            seat = t.turn % t.seats
            for k in range(seat * self.per, (seat + 1) * self.per):
                t.stuck[k] = 0
            t.events.append("deadlock")

    def _die_step(self, origin: int, points: int, way: int) -> tuple[tuple[int, ...], list[int], int | None]:
        """A count by the dice from `origin`, worked out once: the fields it enters, the routes
        it chooses (`_walk_routes`) and, when nothing happens on the way nor where it ends (no
        stuck field passed, no field that acts, not the goal), where the piece comes to rest
        (else None)."""
        key = (origin * 64 + points) * 8 + way
        known = self._steps.get(key)
        if known is None:
            walk = self.walks[origin][points][way]
            end = self.chain[walk[-1]][-1]
            acts = (
                end == self.goal
                or self.ways_on[end]
                or self.hold[end]
                or self.trap[end]
                or self.again_chance[end]
                or self.draws[end]
                or any(self.hold[f] == 1 for f in walk[:-1])
            )
            known = self._steps[key] = (walk, self._walk_routes(origin, walk), None if acts else end)
        return known

    def _choose(self, t: Position, piece: int, walk: Sequence[int], origin: int) -> None:
        """Record the route choices a count or a move on makes (`routes` of the fields
        chosen where there was a choice; the first one is the piece's `first_route`)."""
        for route in self._walk_routes(origin, walk):
            t.route[piece] = route
            if t.first_route[piece] < 0:
                t.first_route[piece] = t.chose = route

    def _walk(
        self, t: Position, piece: int, walk: Sequence[int], origin: int, points: int, depth: int, asks: bool
    ) -> str | None:
        """Move `piece` along `walk` (freeing the pieces stuck "until passed" on the fields it
        goes through) and let it come to rest on its last field."""
        for passed in walk[:-1]:
            if self.hold[passed] == 1:
                self._free_at(t, piece, passed)
        return self._settle(t, piece, walk[-1], origin, points, depth, asks)

    def _free_at(self, t: Position, mover: int, field: int) -> None:
        for other, at in enumerate(t.pos):
            if at == field and other != mover and t.stuck[other]:
                t.stuck[other] = 0
                t.events.append("rescued")

    def _settle(
        self, t: Position, piece: int, field: int, origin: int, points: int, depth: int, asks: bool
    ) -> str | None:
        """`piece` comes to rest on `field`, coming from `origin` by a count of `points`:
        forced moves, then what the field does. Returns "move_on" when the player must choose
        where the piece moves on (a count the dice made: `asks`); otherwise it follows the
        piece's route."""
        chain = self.chain[field]
        t.landings.extend(chain)
        field = chain[-1]
        pos = t.pos
        pos[piece] = field
        if field == self.goal:
            t.free_at[piece] = 0
            return None
        ways = self.ways_on[field]
        if ways:
            if asks:
                return MOVE_ON
            target = self._on_route(ways, t.route[piece])
            return self._settle(t, piece, target, field, points, depth + 1, False)
        hold = self.hold[field]
        if hold:
            # A piece stuck here is freed and stays ("landed"); on the other stuck fields no
            # two pieces share: any piece there (stuck, or freed where it stood) goes where the
            # newcomer's count started and the newcomer takes its place.
            landed = STUCK_UNTIL[hold - 1] == "landed"
            for other, at in enumerate(pos):
                if at == field and other != piece and (t.stuck[other] or not landed):
                    t.stuck[other] = 0
                    if landed:
                        t.events.append("rescued")
                    else:
                        pos[other], t.free_at[other] = origin, 0
                        t.events.append("replaced")
            t.stuck[piece] = hold
            return None
        lost = self.trap[field]
        if lost:
            t.free_at[piece] = t.turn + t.seats * (lost + 1)
            return None
        if depth >= MAX_DEPTH:
            return None
        chance = self.again_chance[field]
        if chance and points:
            t.rng, z = next_random(t.rng)
            if z / 2.0**64 < chance:
                t.events.append("again")
                walk = self._preferred(field, points, t.route[piece])
                return self._walk(t, piece, walk, field, points, depth + 1, False)
        if self.draws[field]:
            self._draw(t, piece, points, depth)
        return None

    def _on_route(self, options: Sequence[int], route: int) -> int:
        return next((o for o in options if self.routes[o] == route), options[0])

    def _preferred(self, origin: int, points: int, route: int) -> tuple[int, ...]:
        """The way a count the dice did not make goes: every choice on the piece's route."""
        walks = self.walks[origin][points]
        for walk in walks:
            if all(r == route for r in self._walk_routes(origin, walk)):
                return walk
        return walks[0]

    def _walk_routes(self, origin: int, walk: Sequence[int]) -> list[int]:
        """The routes of the fields a walk picks where it has a choice, in order."""
        key = (origin, tuple(walk))
        known = self._routes_of.get(key)
        if known is None:
            known = self._routes_of[key] = self._routes_along(origin, walk)
        return known

    def _routes_along(self, origin: int, walk: Sequence[int]) -> list[int]:
        out, at, branches = [], origin, self._branches
        for nxt in walk:
            if nxt in branches[at]:
                out.append(self.routes[nxt])
            at = nxt
        return out

    def move_routes(self, state: AnyPosition, move: Move) -> tuple[int, ...]:
        """The routes a move chooses (of the fields it picks where there is a choice)."""
        origin = state.pos[move.piece]
        if move.kind == DIE:
            return tuple(self._walk_routes(origin, self.walks[origin][move.die][move.way]))
        if move.kind == MOVE_ON:
            return (self.routes[self.ways_on[origin][move.way]],)
        return ()

    def _draw(self, t: Position, piece: int, points: int, depth: int) -> None:
        """Draw the top card (a new shuffled deck from the discards when none is left) and
        play it."""
        if not self.deck:
            return
        if not t.deck:
            t.rng, t.deck = shuffled(t.rng, len(self.deck))
            t.events.append("reshuffle")
        card = t.deck.pop()
        t.events.append(f"card:{card}")
        effect = self.deck[card]
        kind, here = effect.kind, t.pos[piece]
        # A pun where the card leaves the piece repeats the dice's count (`points`), not the card's.
        if kind == ADVANCE:
            self._walk(t, piece, self._preferred(here, effect.steps, t.route[piece]), here, points, depth + 1, False)
        elif kind == BACK:
            walk, at = [], here
            for _ in range(effect.steps):
                back = self.track.node(at).back if at != OUTSIDE else OUTSIDE
                if back == OUTSIDE:
                    break
                walk.append(at := back)
            if walk:
                self._walk(t, piece, walk, here, points, depth + 1, False)
        elif kind == GOTO:
            self._settle(t, piece, effect.to, here, points, depth + 1, False)
        elif kind == LOSE_TURNS:
            t.free_at[piece] = max(t.free_at[piece], t.turn + t.seats) + t.seats * effect.turns
        elif kind == ROLL_AGAIN:
            t.rolls_again = True
        elif kind == FREE_ALL:
            freed = sum(1 for s in t.stuck if s)
            t.stuck = [0] * len(t.stuck)
            t.events += ["freed"] * freed
        elif kind == SWAP_LEADER:
            # Nearest the goal as players count it at the table: the fewest fields still to
            # walk, the shortest way (a forced move counts as none); not the expected turns.
            value = self._distance
            others = [k for k in range(len(t.pos)) if k // self.per != piece // self.per and t.pos[k] != self.goal]
            if others:
                leader = min(others, key=lambda k: (value[t.pos[k]], k))
                if value[t.pos[leader]] < value[here]:
                    t.pos[piece], t.pos[leader] = t.pos[leader], here
                    t.stuck[piece] = t.stuck[leader] = 0
                    t.events.append("swap")
        else:
            raise ValueError(f"unknown card effect {kind!r}")

    @cached_property
    def expected(self) -> list[float]:
        """Expected turns from each field to the goal for a lone piece taking the way with the
        fewest (value iteration over the rolls of the dice; cards and "again" fields left
        out, resting on a stuck field counted as `STUCK_COST`, on a lose-turns field as its
        turns). Greedy route choices compare these."""
        size = len(self.track) + 1
        cost = [0.0] * size
        for f in self.track.indexes:
            if self.hold[f]:
                cost[f] = STUCK_COST[STUCK_UNTIL[self.hold[f] - 1]]
            elif self.trap[f]:
                cost[f] = float(self.trap[f])
        rolls = dice_rolls(self.dice_count)
        # Where a count ending on each field leaves the piece to be valued: the field it
        # rests on, or each field it may move on to (the best of them counts).
        rests = []
        for end in range(size):
            field = self.chain[end][-1]
            ways = self.ways_on[field]
            rests.append({self.chain[w][-1] for w in ways} if ways else {field})
        # Per field and roll: the chance, and the field whose value the roll leads to or,
        # where the piece may rest on several, a getter of their values, the best of which
        # counts (-1 and None: it leads nowhere, the piece stays). The best of every end's
        # best is the best of them all, so the sums below are those of the plain value
        # iteration, term for term.
        options: list[list[tuple[float, int, Callable[[list[float]], tuple[float, ...]] | None]]] = []
        for f in range(size):
            per_roll: list[tuple[float, int, Callable[[list[float]], tuple[float, ...]] | None]] = []
            for faces, chance in rolls:
                ends = list(self.ends[f][sum(faces)])
                if self.exact_one_die:
                    ends += [e for die in set(faces) for e in self.ends[f][die] if self.exact[e]]
                best = sorted(set().union(*(rests[e] for e in ends)))
                if len(best) == 1:
                    per_roll.append((chance, best[0], None))
                else:
                    per_roll.append((chance, -1, itemgetter(*best) if best else None))
            options.append(per_roll)
        order = [i for i in sorted(range(size), key=lambda i: self._distance[i]) if i != self.goal]
        value = [0.0] * size
        rested = [0.0 + c for c in cost]  # value + cost of each field, kept up to date
        for _ in range(500):
            change = 0.0
            for i in order:
                total = 1.0
                for chance, single, several in options[i]:
                    if single >= 0:
                        total += chance * rested[single]
                    elif several is not None:
                        total += chance * min(several(rested))
                    else:
                        total += chance * value[i]
                change = max(change, abs(total - value[i]))
                value[i] = total
                rested[i] = total + cost[i]
            if change < 1e-3:
                break
        return value

    # -- evaluation for the greedy player ------------------------------------------------------

    def _distances(self) -> list[float]:
        """Fewest points from each field to the goal (forced moves cost nothing; a piece
        held by lost turns is not counted here)."""
        track, goal = self.track, self.goal
        infinity = float(10 * len(track) + 10)
        dist = [infinity] * (len(track) + 1)
        dist[goal] = 0.0
        changed = True
        while changed:
            changed = False
            for i in track.indexes:
                rest = self.chain[i][-1]
                best = dist[rest] if rest != i else infinity
                for m in track.node(i).next:
                    best = min(best, dist[m] + 1)
                if i == goal:
                    best = 0.0
                if best < dist[i]:
                    dist[i], changed = best, True
        dist[OUTSIDE] = dist[self.start] + 1
        return dist

    def heuristic(self, state: RaceState, seat: int) -> float:
        """Lower is better for `seat`: its own pieces' distance to the goal minus the
        opponents' mean distance weighted by OTHERS_WEIGHT."""
        per, dist = self.per, self._distance
        own = sum(dist[p] for p in state.pos[seat * per : (seat + 1) * per])
        others = sum(dist[p] for p in state.pos) - own
        return own - OTHERS_WEIGHT / max(1, state.seats - 1) * others


def shuffled(rng: int, count: int) -> tuple[int, list[int]]:
    """The generator after shuffling ``range(count)`` (`shuffle_by`, one `next_random` per
    swap, drawn a `random_block` at a time), and the shuffled list."""
    swaps = max(0, count - 1)
    draws: list[int] = []
    while len(draws) < swaps:
        draws += random_block((rng + len(draws) * STEP) & MASK)
    return (rng + swaps * STEP) & MASK, shuffle_by(draws[:swaps], count)


def shuffle_by(draws: Sequence[int], count: int) -> list[int]:
    """``range(count)`` shuffled (Fisher-Yates) by ``count - 1`` draws of `next_random`."""
    items = list(range(count))
    for i, z in zip(range(count - 1, 0, -1), draws, strict=True):
        j = below_of(z, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def dice_rolls(dice: int) -> list[tuple[tuple[int, ...], float]]:
    """Every roll of `dice` dice as its sorted faces, with its chance."""
    rolls: dict[tuple[int, ...], float] = {(): 1.0}
    for _ in range(dice):
        grown: dict[tuple[int, ...], float] = {}
        for faces, chance in rolls.items():
            for shown in range(1, FACES + 1):
                key = tuple(sorted(faces + (shown,)))
                grown[key] = grown.get(key, 0.0) + chance / FACES
        rolls = grown
    return sorted(rolls.items())


class Position:
    """A race position that changes in place: the one position the rules play on, whether a
    decision comes through `RaceGame.apply` (a `RaceState` in, a `RaceState` out: its
    `snapshot`) or self-play plays a whole game on it (`position`, `play`: `boardgen.rules.grand.GrandGame`).
    Its members are named as `RaceState`'s, so everything that reads a position (the legal
    moves, the heuristic, the players) reads either; `landings`, `events` and `chose` are what
    the last decision did (`chose`: the route of a piece's first choice made by it, -1 none)."""

    __slots__ = (
        "seats",
        "turn",
        "pos",
        "free_at",
        "dice",
        "offer",
        "rng",
        "winner",
        "landings",
        "stuck",
        "route",
        "first_route",
        "deck",
        "again",
        "events",
        "rolls_again",
        "chose",
        "memo",
    )

    def __init__(self, state: RaceState | Position):
        n = len(state.pos)
        self.seats: int = state.seats
        self.turn: int = state.turn
        self.rng: int = state.rng
        self.again: int = state.again
        self.pos: list[int] = list(state.pos)
        self.free_at: list[int] = list(state.free_at)
        self.dice: tuple[int, ...] = tuple(state.dice)
        self.offer: tuple[str, int] | None = state.offer
        self.winner: int = state.winner
        self.stuck: list[int] = list(state.stuck) or [0] * n
        self.route: list[int] = list(state.route) or [0] * n
        self.first_route: list[int] = list(state.first_route) or [-1] * n
        self.deck: list[int] = list(state.deck)
        self.landings: list[int] = list(state.landings)
        self.events: list[str] = list(state.events)
        self.rolls_again = False
        self.chose: int = state.chose
        self.memo: Any = None  # what a game worked out about the position (its legal moves...)

    @property
    def seat(self) -> int:
        return self.turn % self.seats

    def lost_turns(self, piece: int) -> int:
        """How many of its owner's turns, from this one on, the piece still sits out."""
        return max(0, (self.free_at[piece] - self.turn) // self.seats)

    def clear(self) -> None:
        """Forget what the last decision did, before the next one."""
        self.landings = []
        self.events = []
        self.rolls_again = False
        self.chose = -1
        self.memo = None

    def copy(self) -> Position:
        return Position(self.snapshot())

    def snapshot(self) -> RaceState:
        """The position, frozen."""
        return RaceState(
            self.seats,
            self.turn,
            tuple(self.pos),
            tuple(self.free_at),
            tuple(self.dice),
            self.offer,
            self.rng,
            self.winner,
            tuple(self.landings),
            tuple(self.stuck),
            tuple(self.route),
            tuple(self.first_route),
            tuple(self.deck),
            self.again,
            tuple(self.events),
            self.chose,
        )


AnyPosition = RaceState | Position
