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
from functools import cached_property, partial
from operator import itemgetter

from boardgen.model import race
from boardgen.model.grand import GrandLayout
from boardgen.rules.draws import below
from boardgen.rules.protocol import Rng
from boardgen.rules.race import (
    BLOCK,
    DIE,
    FACES,
    MASK,
    MAX_AGAIN,
    STEP,
    STEP_INVERSE,
    STUCK_COST,
    Move,
    RaceGame,
    RaceState,
    Table,
    random_block,
)
from boardgen.rules.simulate import GameRecord, Hook

CENTRAL_ROUTE, PERIPHERAL_ROUTE = 0, 1
ROUTES = ("central", "peripheral")
GREEDY = -1  # a seat of the fast playout played by the greedy player (else: the route it wants)
# A move as the fast playout plays it (`GrandGame._step`): what it is (`QUIET`: it ends on a
# field that does nothing, after forced moves; `OFFER`: on a centre the pawn moves on from;
# `RULES`: the rules play it; `PASS_KIND`), the fields it enters, its points (0: moving on),
# the field where it ends, the fields it lands on there (forced moves), the last and first
# route it chooses (-1: none), and whether it passes a field where a stuck pawn is freed.
Step = tuple[int, tuple[int, ...], int, int, tuple[int, ...], int, int, bool]
QUIET, OFFER, RULES, PASS_KIND = 0, 1, 2, 3
PASS_STEP: Step = (PASS_KIND, (), 0, 0, (), -1, -1, False)
# A decision by the dice, worked out once per field and roll (`GrandGame._choice`): how many
# moves are on offer, the greedy player's best moves and each route player's.
Choice = tuple[int, tuple[Step, ...], tuple[Step, ...]]
PASS_CHOICE: Choice = (1, (PASS_STEP,), (PASS_STEP,) * len(ROUTES))


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
        self.card_ids = layout.card_ids
        # The fast playout's tables: its decisions by field and roll, the counters' names.
        self._choices: list[Choice | None] = [None] * ((len(track) + 1) * FACES * FACES)
        self._count_cache: dict[int, tuple[tuple[Step, float, tuple[bool, ...]], ...]] = {}
        self._move_on_choices: dict[tuple[int, float], Choice] = {}
        self._landed_keys = [f"landed:{field}" for field in range(len(track) + 1)]
        self._route_keys = [f"route:{route}" for route in ROUTES]

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

    def _heuristic(self, pos: Sequence[int], free: Sequence[int], stuck: Sequence[int], turn: int, seats: int,
                   seat: int) -> float:
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

    # -- fast self-play ------------------------------------------------------------------------

    @cached_property
    def after(self) -> list[float]:
        """`_after` of every field index (the score of a count that ends there)."""
        return [self._after(end) for end in range(len(self.track) + 1)]

    def prepare(self) -> None:
        """Work out now the tables self-play needs (the expected turns left, `after`), so
        that the processes self-play forks share them instead of each working them out."""
        self.after  # noqa: B018 - the cached table is what is wanted

    def playout(self, players: Sequence[object], seed: int, *, turn_cap: int,
                hook: Hook | None) -> GameRecord | None:
        """`boardgen.rules.simulate.play` asks this first: the record of the game when every
        seat is a greedy player (`boardgen.rules.players.GreedyPlayer`) or a route player
        (`RoutePlayer`) and the counters asked for are `count_events` (or none), by
        `fast_playout`; None otherwise (then `play` plays it decision by decision)."""
        from boardgen.rules.players import GreedyPlayer

        if (hook not in (None, count_events) or type(self) is not GrandGame or self.per != 1
                or self.dice_count != 2 or any(self.delayed) or not self.chance):
            return None
        wants = []
        for player in players:
            if type(player) is GreedyPlayer:
                wants.append(GREEDY)
            elif type(player) is RoutePlayer:
                wants.append(player.want)
            else:
                return None
        return self.fast_playout(wants, seed, turn_cap, counting=hook is not None)

    def fast_playout(self, wants: Sequence[int], seed: int, turn_cap: int, *, counting: bool = True) -> GameRecord:
        """The game `play` plays with seat ``i`` a route player for route ``wants[i]`` or,
        for `GREEDY`, a greedy player, and ``hook=count_events`` (without `counting`: no
        hook, no counters): decision for decision, with the same record and the same draws.

        One `Table` carries the game from the first decision to the last (no state is built,
        no Move). A decision is looked up (`_choice` by field and roll, `_move_on_choice` for
        the way on from a peripheral centre: what was on offer, the greedy player's best
        moves and each route player's, worked out once). A move that ends on a field that
        does nothing, or on a centre the pawn moves on from, after forced moves (`Step`), is
        played here; every other one by the rules themselves (`_walk`, `_settle`: cards,
        puns, stuck pawns, the goal). The greedy player's tie-break draws from its generator
        as `random.Random.choice` does. tests/rules/test_grand_playout.py holds it to `play`,
        decision by decision."""
        seats = len(wants)
        # The dice come from the generator's draws, worked out a block at a time (`opening`
        # starts them): the generator's state is ``start + drawn * STEP``; the rules' own
        # draws (puns, shuffles) take `t.rng`, set from it before and read back after.
        state, start, stream, drawn = self.opening(seats, seed)
        t = Table(state)
        pos, free, route, first = t.pos, t.free, t.route, t.first
        die_a, die_b = state.dice
        # The greedy player's generator (route players draw nothing: none is seeded for them).
        getrandbits = random.Random(seed).getrandbits if GREEDY in wants else _no_draws
        goal, choices, move_on_choices = self.goal, self._choices, self._move_on_choices
        walk_on, settle = self._walk, self._settle
        landed_keys, route_keys = self._landed_keys, self._route_keys
        turn = decisions = offered = widest = 0
        winner = moving_on = -1
        counters: dict[str, float] = {}
        get = counters.get
        while turn < turn_cap:
            seat = turn % seats
            want = wants[seat]
            if moving_on >= 0:
                # -- the way on from a field the pawn must move on from (`MOVE_ON`)
                here = self._heuristic(pos, free, t.stuck, turn, seats, seat)
                choice = move_on_choices.get((pos[seat], here))
                if choice is None:
                    choice = move_on_choices[pos[seat], here] = self._move_on_choice(pos[seat], here)
                moving_on = -1
            elif free[seat] > turn or t.stuck[seat]:
                # -- a pawn that sits out or is stuck: the one move is a pass
                choice = PASS_CHOICE
            else:
                # -- the dice
                key = pos[seat] * 36 + die_a * 6 + die_b - 7
                choice = choices[key]
                if choice is None:
                    choice = choices[key] = self._choice(pos[seat], die_a, die_b)
            count, best, by_route = choice
            if want != GREEDY:
                step = by_route[want]
            elif len(best) == 1:
                step = best[0]
                while getrandbits(1):  # `random.Random.choice` of one move
                    pass
            else:
                step = best[below(getrandbits, len(best))]
            decisions += 1
            offered += count
            if count > widest:
                widest = count
            kind, walk, points, final, landings, last, earliest, passes = step
            was = first[seat]
            if kind <= OFFER and not (passes and any(t.stuck)):
                # A move that ends on a field that does nothing, or on a centre to move on
                # from: the pawn moves (and the next seat rolls, or the pawn moves on).
                pos[seat] = final
                if last >= 0:  # `_choose`
                    route[seat] = last
                    if was < 0:
                        first[seat] = earliest
                if counting:
                    for field in landings:
                        name = landed_keys[field]
                        counters[name] = get(name, 0.0) + 1
                    if was < 0 <= earliest:
                        name = route_keys[earliest]
                        counters[name] = get(name, 0.0) + 1
                if kind == OFFER:
                    moving_on = seat
                    continue
                turn += 1
                t.turn = turn
                t.again = 0
                if drawn > BLOCK - 2:
                    start, drawn = (start + drawn * STEP) & MASK, 0
                    stream = random_block(start)
                die_a, die_b = stream[drawn] % FACES + 1, stream[drawn + 1] % FACES + 1
                drawn += 2
                continue
            # -- the rules play it (`RaceGame._play`)
            t.landings, t.events, t.rolls_again = [], [], False
            t.rng = (start + drawn * STEP) & MASK
            moved, offer = kind != PASS_KIND, None
            if moved:
                if last >= 0:  # `_choose`
                    route[seat] = last
                    if was < 0:
                        first[seat] = earliest
                origin = pos[seat]
                if points:
                    offer = walk_on(t, seat, walk, origin, points, 0, True)
                else:
                    offer = settle(t, seat, walk[-1], origin, 0, 0, True)
            drawn = ((t.rng - start) * STEP_INVERSE) & MASK
            if pos[seat] == goal:
                winner = seat
            elif offer is not None:
                moving_on = seat
            else:
                if moved and t.rolls_again and t.again < MAX_AGAIN and not (t.stuck[seat] or free[seat] > turn):
                    # A "roll again" card: another whole turn at once, with new dice.
                    t.again += 1
                else:
                    t.again = 0
                    turn += 1
                    t.turn = turn
                    if all(t.stuck):
                        # Deadlock: every pawn is stuck; the seat to play frees its own.
                        t.stuck[turn % seats] = 0
                        t.events.append("deadlock")
                if drawn > BLOCK - 2:
                    start, drawn = (start + drawn * STEP) & MASK, 0
                    stream = random_block(start)
                die_a, die_b = stream[drawn] % FACES + 1, stream[drawn + 1] % FACES + 1
                drawn += 2
            if counting:
                for field in t.landings:
                    name = landed_keys[field]
                    counters[name] = get(name, 0.0) + 1
                for name in t.events:
                    counters[name] = get(name, 0.0) + 1
                if moved and was < 0 <= first[seat]:
                    name = route_keys[first[seat]]
                    counters[name] = get(name, 0.0) + 1
                if winner >= 0 and first[winner] >= 0:
                    name = "won:" + ROUTES[first[winner]]
                    counters[name] = get(name, 0.0) + 1
            if winner >= 0:
                return GameRecord(seed, seats, winner, turn + 1, True, decisions, offered, widest, counters)
        return GameRecord(seed, seats, None, turn_cap, False, decisions, offered, widest, counters)

    def _choice(self, field: int, die_a: int, die_b: int) -> Choice:
        """A pawn free to move from `field` with these dice: how many moves are on offer
        (`_legal`), the greedy player's best ones (`score_moves`: the lowest score, in legal
        order) and each route player's (`RoutePlayer.choose`)."""
        moves = list(self._counts(field, die_a + die_b))
        if self.exact_one_die:
            for die in sorted({die_a, die_b}):
                moves += [move for move in self._counts(field, die) if self.exact[move[0][1][-1]]]
        if not moves:
            return PASS_CHOICE
        low = min(score for _, score, _ in moves)
        best = tuple(step for step, score, _ in moves if score == low)
        if len(moves) == 1:
            return 1, best, (moves[0][0],) * len(ROUTES)
        # A route player keeps the moves whose every choice is its route (all of them if
        # none is), then takes the first of the lowest score.
        by_route = tuple(min([move for move in moves if move[2][want]] or moves, key=itemgetter(1))[0]
                         for want in range(len(ROUTES)))
        return len(moves), best, by_route

    def _counts(self, field: int, points: int) -> tuple[tuple[Step, float, tuple[bool, ...]], ...]:
        """Every way a count of `points` from `field` goes: its `Step`, its score for a pawn
        free to move (`score_moves`: the same float operations, so the same ties) and, per
        route, whether its every choice is that route."""
        key = field * (2 * FACES + 1) + points
        known = self._count_cache.get(key)
        if known is None:
            base = 0.0
            base += self.expected[field] + 0
            out = []
            for walk in self.walks[field][points]:
                chosen = self._walk_routes(field, walk)
                out.append((self._step(field, walk, points), base - self.expected[field] + self.after[walk[-1]],
                            tuple(all(r == want for r in chosen) for want in range(len(ROUTES)))))
            known = self._count_cache[key] = tuple(out)
        return known

    def _move_on_choice(self, field: int, here: float) -> Choice:
        """The ways on from `field` for a pawn whose `heuristic` is `here`, as `_choice` gives
        the moves of a roll (a route player keeps the ways onto its route)."""
        targets = self.ways_on[field]
        scores = [here - self.expected[field] + self.after[target] for target in targets]
        steps = [self._step(field, (target,), 0) for target in targets]
        low = min(scores)
        best = tuple(step for step, score in zip(steps, scores, strict=True) if score == low)
        if len(targets) == 1:
            return 1, best, (steps[0],) * len(ROUTES)
        by_route = tuple(steps[min([way for way, target in enumerate(targets) if self.routes[target] == want]
                                   or range(len(targets)), key=scores.__getitem__)] for want in range(len(ROUTES)))
        return len(targets), best, by_route

    def _step(self, origin: int, walk: tuple[int, ...], points: int) -> Step:
        """A move from `origin` along `walk` (a count of `points`, or 0: moving on to the one
        field of `walk`), as the fast playout plays it (`_walk`, `_settle`)."""
        landings = self.chain[walk[-1]]
        final = landings[-1]
        if final == self.goal or (not self.ways_on[final] and (
                self.hold[final] or self.trap[final] or (self.again_chance[final] and points) or self.draws[final])):
            kind = RULES
        else:
            kind = OFFER if self.ways_on[final] else QUIET
        chosen = self._walk_routes(origin, walk)
        return (kind, walk, points, final, landings, chosen[-1] if chosen else -1, chosen[0] if chosen else -1,
                any(self.hold[f] == 1 for f in walk[:-1]))

class RoutePlayer:
    """Always the same route where there is a choice (central or peripheral), otherwise the
    move the greedy estimate prefers (the first of equals)."""

    def __init__(self, route: str):
        if route not in ROUTES:
            raise ValueError(f"unknown route {route!r}; use {', '.join(ROUTES)}")
        self.name = route
        self.want = ROUTES.index(route)

    def choose(self, game: GrandGame, state: RaceState, rng: Rng) -> Move:
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


def _no_draws(bits: int) -> int:
    """The generator of a game without a greedy player: never drawn from."""
    raise AssertionError("only the greedy player draws")
