"""Le Grand Labyrinthe (game B): the branching dice race from night to light.

One pawn per player, two dice, moves by their sum. The table (`Table`) is the whole game
position; `play_turn` plays one player's turn on it, and is used both by the fast self-play
loop (`play_game`) and by the protocol game `GrandGame`, whose immutable states are
snapshots of a table (so both play exactly the same rules).

Where the source is silent or unclear, this module decides as follows (the same decisions,
worded for players, are printed on the rules sheet from `layouts/rules/grand.*.md`):

1. Pawns start in front of field 1. Any number of pawns may share a field, except on the
   drowning fields and the prison, where a pawn that ends its move on a stuck pawn takes its
   place: the stuck pawn goes to the field the newcomer started that move from, free, and
   that field does nothing to it.
2. The route is chosen when a count leaves field 3 (on to 4: central; on to I: peripheral),
   and when a pawn reaches a peripheral centre (IX, XVIII, XXVII) by exact count: it moves on
   at once, free of charge, to the next peripheral labyrinth or to the next central sequence.
   XXXVI sends the pawn on to 82 at once. Blue fields 20, 40, 60 send a pawn that ends its
   move there to X, XIX, XXVIII. In self-play, a count the dice did not make (a card, a pun)
   follows the pawn's last route choice.
3. Exact count: a count never passes 83 nor a peripheral centre; it goes in and comes back
   one field per extra point (along the way it came), and the field where it stops acts.
   Counting back from the first field of a peripheral labyrinth leads to the field whose
   arrow enters it (I -> 3, X -> 20, XIX -> 40, XXVIII -> 60).
4. A field acts where a count ends (after a jump: where the jump ends), never when passed.
   A pawn moved by another pawn's card or by a change of places triggers nothing.
5. A drowning pawn (29, 30) is freed when another pawn's count goes through its field, in
   either direction, or ends on it (then they change places, rule 1). A pawn in the prison
   (74) is freed only when another pawn ends its move there (rule 1). A stuck pawn's player
   does not roll.
6. Deadlock: if at the start of a turn every pawn is stuck, the player to play frees their
   own pawn and plays normally.
7. Pun fields: the player makes a pun (self-play: succeeds with the layout's
   ``pun_success``) and moves again by the same roll; without a pun, draws a card.
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from boardgen.model.grand import PERIPHERAL, START, GrandLayout
from boardgen.rules.protocol import Outcome

FREE, DROWNING, PRISON = 0, 1, 2
CENTRAL_ROUTE, PERIPHERAL_ROUTE = 0, 1
ROUTES = ("central", "peripheral")
MAX_AGAIN = 5  # roll-again cards in one turn
MAX_DEPTH = 12  # card and pun chains in one move
# Expected turns a greedy player counts for being stuck (rough; only used to choose routes).
STUCK_COST = {DROWNING: 4.0, PRISON: 10.0}


class Way(NamedTuple):
    """One way a count can go: the fields it enters (the last is where it stops, after a
    centre's move on), and the route choices made on the way (0 central, 1 peripheral)."""

    path: tuple[int, ...]
    choices: tuple[int, ...]


def route_of(field: int) -> int:
    return PERIPHERAL_ROUTE if field > PERIPHERAL else CENTRAL_ROUTE


class Rules:
    """The layout's route graph, precomputed: every way a count of 1..12 can go."""

    def __init__(self, layout: GrandLayout):
        self.layout = layout
        self.goal = layout.goal
        fields = [START, *sorted(layout.cells)]
        self.ways: dict[int, list[list[Way]]] = {
            f: [[]] + [self._walks(f, n) for n in range(1, 13)] for f in fields}
        self.deck = layout.cards
        self.one_die = layout.exact_one_die
        # Rolls of two dice as (a, b) with a <= b, and their chances.
        self.rolls = [((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)]
        self._roll_ways: dict[tuple[int, int, int], list[Way]] = {}
        self.fork = min((b for b in layout.branches if b < PERIPHERAL), default=-1)
        self.expected = expected_turns(layout, self)

    def _walks(self, origin: int, points: int) -> list[Way]:
        """Every way a forward count of `points` from `origin` can go (see the module doc)."""
        layout = self.layout
        out: list[Way] = []

        def forward(path: list[int], choices: list[int], left: int) -> None:
            at = path[-1] if path else origin
            if left == 0:
                out.append(self._settle(path, choices))
                return
            nxt = layout.forward(at)
            if path and at in layout.exact or not nxt:
                out.append(self._bounce(origin, path, choices, left))
                return
            for option in nxt:
                forward(path + [option], choices + ([route_of(option)] if len(nxt) > 1 else []), left - 1)

        forward([], [], points)
        # A count ending on a peripheral centre moves on: one way per option.
        final: list[Way] = []
        for way in out:
            end = way.path[-1]
            options = layout.branches.get(end, ()) if end in layout.exact else ()
            if options:
                final += [Way(way.path + (o,), way.choices + (route_of(o),)) for o in options]
            else:
                final.append(way)
        return final

    def roll_ways(self, origin: int, a: int, b: int) -> list[Way]:
        """The ways a roll of a and b can go from `origin`: by the sum; and, where the layout
        allows it, by one die alone when that die reaches an exact-count field exactly."""
        key = (origin, a, b) if a <= b else (origin, b, a)
        hit = self._roll_ways.get(key)
        if hit is None:
            hit = list(self.ways[origin][a + b])
            if self.one_die:
                for die in sorted({a, b}):
                    hit += [w for w in self.ways[origin][die] if self.is_exact_hit(w)]
            self._roll_ways[key] = hit
        return hit

    def is_exact_hit(self, way: Way) -> bool:
        """Whether the count ends by exact count on 83 or a peripheral centre."""
        path, layout = way.path, self.layout
        return path[-1] in layout.exact or (
            len(path) > 1 and path[-2] in layout.exact and path[-1] in layout.branches.get(path[-2], ()))

    def _settle(self, path: list[int], choices: list[int]) -> Way:
        return Way(tuple(path), tuple(choices))

    def _bounce(self, origin: int, path: list[int], choices: list[int], left: int) -> Way:
        trail = [origin] + path
        pos = len(trail) - 1
        walked = list(path)
        at = trail[pos]
        for _ in range(left):
            if pos > 0:
                pos -= 1
                at = trail[pos]
            else:
                at = self.layout.backward(at)
            walked.append(at)
            if at == START:
                break
        return Way(tuple(walked), tuple(choices))

    def back_path(self, origin: int, steps: int) -> tuple[int, ...]:
        out, at = [], origin
        for _ in range(steps):
            if at == START:
                break
            at = self.layout.backward(at)
            out.append(at)
        return tuple(out)

    def preferred(self, origin: int, points: int, route: int) -> Way:
        """The way a count the dice did not make goes: the pawn's last route choice."""
        ways = self.ways[origin][points]
        for way in ways:
            if all(c == route for c in way.choices):
                return way
        return ways[0]


_CACHE: dict[int, tuple[GrandLayout, Rules]] = {}


def rules_for(layout: GrandLayout) -> Rules:
    """The precomputed rules of a layout (cached: layouts are immutable)."""
    hit = _CACHE.get(id(layout))
    if hit is None or hit[0] is not layout:
        if len(_CACHE) > 8:
            _CACHE.clear()
        hit = _CACHE[id(layout)] = (layout, Rules(layout))
    return hit[1]


def expected_turns(layout: GrandLayout, rules: Rules) -> dict[int, float]:
    """Expected turns from each field to 83 for a lone pawn choosing the shortest way
    (value iteration; cards and puns left out, being stuck counted as `STUCK_COST`, the
    petrifying field as a return to 1). The greedy route chooser minimises this."""
    fields = [START, *sorted(layout.cells)]
    dense = {f: i for i, f in enumerate(fields)}
    cost = [0.0] * len(fields)
    settle = list(range(len(fields)))
    for f in fields:
        end = layout.jumps.get(f, f)
        if end in layout.petrified:
            end = layout.rebirth
        settle[dense[f]] = dense[end]
        cost[dense[f]] = STUCK_COST[DROWNING] if end in layout.drowning else \
            STUCK_COST[PRISON] if end in layout.prison else 0.0
    # Per field and roll: the chance of the roll and the settled ends of its ways.
    rolls = [[(chance, [settle[dense[w.path[-1]]] for w in rules.roll_ways(f, a, b)],
               [cost[dense[w.path[-1]]] for w in rules.roll_ways(f, a, b)])
              for (a, b), chance in rules.rolls] for f in fields]
    value = [0.0] * len(fields)
    goal = dense[layout.goal]
    order = sorted(range(len(fields)), key=lambda i: -fields[i] if fields[i] < PERIPHERAL else -fields[i] + 150)
    for _ in range(500):
        change = 0.0
        for i in order:
            if i == goal:
                continue
            total = 1.0
            for chance, ends, costs in rolls[i]:
                total += chance * min(value[e] + c for e, c in zip(ends, costs, strict=True))
            change = max(change, abs(total - value[i]))
            value[i] = total
        if change < 1e-3:
            break
    return {f: value[dense[f]] for f in fields}


@dataclass
class Table:
    """A game in progress, mutable; `snapshot` freezes it for the protocol."""

    pos: list[int]
    stuck: list[int]
    skip: list[int]
    route: list[int]  # last route choice per pawn (0 central, 1 peripheral)
    first_route: list[int]  # the choice at field 3 the first time (-1: not yet)
    deck: list[int]  # draw pile, card indexes into Rules.deck; the top is the end
    rng: random.Random
    turn: int = 0  # turns played
    winner: int = -1
    counters: dict[str, int] = field(default_factory=dict)

    @property
    def seats(self) -> int:
        return len(self.pos)

    @property
    def seat(self) -> int:
        return self.turn % len(self.pos)

    def count(self, key: str, n: int = 1) -> None:
        self.counters[key] = self.counters.get(key, 0) + n


def new_table(rules: Rules, players: int, seed: int) -> Table:
    rng = random.Random(seed)
    deck = list(range(len(rules.deck)))
    rng.shuffle(deck)
    return Table([START] * players, [FREE] * players, [0] * players, [CENTRAL_ROUTE] * players,
                 [-1] * players, deck, rng)


class Chooser:
    """How a player picks among the ways a count can go (subclassed by the policies)."""

    name = "chooser"

    def pick(self, rules: Rules, table: Table, seat: int, ways: Sequence[Way]) -> int:
        return 0


class RouteChooser(Chooser):
    """Always the same route where there is a choice."""

    def __init__(self, route: int):
        self.want = route
        self.name = ROUTES[route]

    def pick(self, rules: Rules, table: Table, seat: int, ways: Sequence[Way]) -> int:
        keep = [i for i, way in enumerate(ways) if all(c == self.want for c in way.choices)] or list(range(len(ways)))
        return min(keep, key=lambda i: _cost(rules, ways[i]))


class GreedyChooser(Chooser):
    """The way whose end has the fewest expected turns left (a shorter expected route)."""

    name = "greedy"

    def pick(self, rules: Rules, table: Table, seat: int, ways: Sequence[Way]) -> int:
        return min(range(len(ways)), key=lambda i: _cost(rules, ways[i]))


def _cost(rules: Rules, way: Way) -> float:
    """Expected turns left after a way (its jump and petrifying field included)."""
    layout = rules.layout
    end = way.path[-1]
    end = layout.jumps.get(end, end)
    return rules.expected[layout.rebirth] if end in layout.petrified else rules.expected[end]


CHOOSERS = {"central": lambda: RouteChooser(CENTRAL_ROUTE), "peripheral": lambda: RouteChooser(PERIPHERAL_ROUTE),
            "greedy": GreedyChooser}


def start_turn(rules: Rules, table: Table) -> bool:
    """Before the dice: the deadlock rule, lost turns and stuck pawns. True if the seat rolls."""
    seat = table.seat
    if all(s != FREE for s in table.stuck):
        table.stuck[seat] = FREE
        table.count("deadlocks")
    if table.skip[seat]:
        table.skip[seat] -= 1
        return False
    return table.stuck[seat] == FREE


def play_turn(rules: Rules, table: Table, chooser: Chooser) -> None:
    """One whole turn of the seat to play, then the turn passes (or the game is won)."""
    seat = table.seat
    if start_turn(rules, table):
        for _ in range(MAX_AGAIN + 1):
            a, b = table.rng.randint(1, 6), table.rng.randint(1, 6)
            ways = rules.roll_ways(table.pos[seat], a, b)
            pick = chooser.pick(rules, table, seat, ways) if len(ways) > 1 else 0
            again = move(rules, table, seat, ways[pick], a + b)
            if table.winner >= 0 or not again or table.stuck[seat] != FREE:
                break
    if table.winner < 0:
        table.turn += 1


def move(rules: Rules, table: Table, seat: int, way: Way, roll: int, depth: int = 0) -> bool:
    """Move a pawn along a way and let the field where it stops act. True if the player
    rolls again (a card said so)."""
    layout = rules.layout
    origin = table.pos[seat]
    if way.choices:
        table.route[seat] = way.choices[-1]
        if table.first_route[seat] < 0 and (origin == rules.fork or rules.fork in way.path[:-1]):
            table.first_route[seat] = way.choices[0]
            table.count(f"route:{ROUTES[way.choices[0]]}")
    for passed in way.path[:-1]:
        if passed in layout.drowning:
            _free_drowning(table, seat, passed)
    end = way.path[-1]
    if len(way.path) > 1 and way.path[-2] in layout.exact:
        table.count(f"landed:{way.path[-2]}")
    if end in layout.drowning:
        _free_drowning(table, seat, end)
    return arrive(rules, table, seat, end, origin, roll, depth)


def _free_drowning(table: Table, mover: int, field: int) -> None:
    for other, at in enumerate(table.pos):
        if other != mover and at == field and table.stuck[other] == DROWNING:
            table.stuck[other] = FREE
            table.count("rescued")


def arrive(rules: Rules, table: Table, seat: int, field: int, origin: int, roll: int, depth: int) -> bool:
    """The pawn comes to rest on `field` (from `origin`): jumps, then what the field does."""
    layout = rules.layout
    table.count(f"landed:{field}")
    if field in layout.jumps:
        field = layout.jumps[field]
        table.count(f"landed:{field}")
    table.pos[seat] = field
    if field == rules.goal:
        table.winner = seat
        return False
    if field in layout.drowning or field in layout.prison:
        for other, at in enumerate(table.pos):
            if other != seat and at == field and table.stuck[other] != FREE:
                table.pos[other], table.stuck[other] = origin, FREE
                table.count("replaced")
        table.stuck[seat] = DROWNING if field in layout.drowning else PRISON
        return False
    if field in layout.petrified:
        table.pos[seat] = layout.rebirth
        return False
    if depth >= MAX_DEPTH:
        return False
    if field in layout.puns:
        if table.rng.random() < layout.pun_success:
            table.count("puns")
            return move(rules, table, seat, rules.preferred(field, roll, table.route[seat]), roll, depth + 1)
        return draw(rules, table, seat, roll, depth)
    if field in layout.card_fields:
        return draw(rules, table, seat, roll, depth)
    return False


def draw(rules: Rules, table: Table, seat: int, roll: int, depth: int) -> bool:
    """Draw the top card and play it; a new shuffled deck when it runs out."""
    if not table.deck:
        table.deck = list(range(len(rules.deck)))
        table.rng.shuffle(table.deck)
        table.count("reshuffles")
    card = rules.deck[table.deck.pop()]
    table.count(f"card:{card.id}")
    effect = card.effect
    here = table.pos[seat]
    kind = effect.kind
    if kind == "advance":
        return move(rules, table, seat, rules.preferred(here, effect.steps, table.route[seat]), roll, depth + 1)
    if kind == "back":
        path = rules.back_path(here, effect.steps)
        if not path:
            return False
        return move(rules, table, seat, Way(path, ()), roll, depth + 1)
    if kind == "goto":
        return arrive(rules, table, seat, effect.field, here, roll, depth + 1)
    if kind == "lose_turns":
        table.skip[seat] += effect.turns
        return False
    if kind == "roll_again":
        return True
    if kind == "free_all":
        freed = sum(1 for s in table.stuck if s != FREE)
        table.stuck = [FREE] * table.seats
        table.count("freed_by_card", freed)
        return False
    if kind == "swap_leader":
        value = rules.expected
        others = [o for o in range(table.seats) if o != seat]
        leader = min(others, key=lambda o: (value[table.pos[o]], o))
        if value[table.pos[leader]] < value[here]:
            table.pos[seat], table.pos[leader] = table.pos[leader], here
            table.stuck[seat] = table.stuck[leader] = FREE
            table.count("swaps")
        return False
    raise ValueError(f"unknown card effect {kind!r}")


@dataclass(frozen=True)
class GameResult:
    winner: int  # -1: not finished within the cap
    rounds: int
    first_route: tuple[int, ...]
    counters: dict[str, int]


def play_game(rules: Rules, choosers: Sequence[Chooser], seed: int, *, round_cap: int) -> GameResult:
    """One whole game, fast (no snapshots)."""
    table = new_table(rules, len(choosers), seed)
    cap = round_cap * len(choosers)
    while table.winner < 0 and table.turn < cap:
        play_turn(rules, table, choosers[table.seat])
    rounds = table.turn // table.seats + 1
    return GameResult(table.winner, rounds, tuple(table.first_route), table.counters)


# -- the protocol game -------------------------------------------------------------------------

class GrandState(NamedTuple):
    """An immutable snapshot of a table between turns, with the dice of the turn to come."""

    pos: tuple[int, ...]
    stuck: tuple[int, ...]
    skip: tuple[int, ...]
    route: tuple[int, ...]
    first_route: tuple[int, ...]
    deck: tuple[int, ...]
    rng: tuple[object, ...]
    turn: int
    winner: int


class GrandGame:
    """The rules on the game protocol: one decision per turn, the way the count goes.
    A move is the index of a way in `ways(state)` (0 when there is no choice); chance (the
    dice, the cards, the puns) comes from the random state carried in the state."""

    id = "grand"

    def __init__(self, layout: GrandLayout):
        self.layout = layout
        self.rules = rules_for(layout)

    def initial_state(self, players: int, seed: int) -> GrandState:
        low, high = self.layout.players
        if not low <= players <= high:
            raise ValueError(f"'grand' is for {low} to {high} players, not {players!r}")
        return self._snapshot(new_table(self.rules, players, seed))

    def _snapshot(self, t: Table) -> GrandState:
        return GrandState(tuple(t.pos), tuple(t.stuck), tuple(t.skip), tuple(t.route), tuple(t.first_route),
                          tuple(t.deck), t.rng.getstate(), t.turn, t.winner)

    def _table(self, s: GrandState) -> Table:
        rng = random.Random()
        rng.setstate(s.rng)
        return Table(list(s.pos), list(s.stuck), list(s.skip), list(s.route), list(s.first_route),
                     list(s.deck), rng, s.turn, s.winner)

    def to_move(self, state: GrandState) -> int:
        return state.turn % len(state.pos)

    def turns_played(self, state: GrandState) -> int:
        """Turns played so far, every seat's counted (one decision per turn)."""
        return state.turn

    def ways(self, state: GrandState) -> list[Way]:
        """The ways the coming roll can go (peeked from the state's random state)."""
        table = self._table(state)
        seat = table.seat
        if not start_turn(self.rules, table):
            return []
        a, b = table.rng.randint(1, 6), table.rng.randint(1, 6)
        return self.rules.roll_ways(table.pos[seat], a, b)

    def legal_moves(self, state: GrandState) -> Sequence[int]:
        if state.winner >= 0:
            return ()
        return tuple(range(max(1, len(self.ways(state)))))

    def apply(self, state: GrandState, move: int) -> GrandState:
        table = self._table(state)
        play_turn(self.rules, table, _Fixed(move))
        return self._snapshot(table)

    def outcome(self, state: GrandState) -> Outcome | None:
        if state.winner < 0:
            return None
        return Outcome(state.winner, state.turn + 1)

    def heuristic(self, state: GrandState, seat: int) -> float:
        """Lower is better: the expected turns left for `seat`'s pawn."""
        return self.rules.expected[state.pos[seat]]


class _Fixed(Chooser):
    """The first roll of the turn takes the way the move names; a roll-again card's rolls
    take the first way."""

    def __init__(self, first: int):
        self.first = first

    def pick(self, rules: Rules, table: Table, seat: int, ways: Sequence[Way]) -> int:
        pick, self.first = self.first, 0
        return pick if pick < len(ways) else 0


class RoutePlayer:
    """A protocol player choosing ways like one of the route choosers (greedy, central,
    peripheral), so shared self-play can seat the same policies as the grand check."""

    def __init__(self, policy: str):
        if policy not in CHOOSERS:
            raise ValueError(f"unknown route policy {policy!r}; use {', '.join(CHOOSERS)}")
        self.name = policy
        self.chooser = CHOOSERS[policy]()

    def choose(self, game: Any, state: Any, rng: random.Random) -> int:
        """The index of the way to take (a move of `GrandGame`)."""
        ways = game.ways(state)
        if len(ways) <= 1:
            return 0
        table = game._table(state)
        return self.chooser.pick(game.rules, table, table.seat, ways)


PLAYERS: dict[str, Callable[[], RoutePlayer]] = {name: partial(RoutePlayer, name) for name in CHOOSERS}
