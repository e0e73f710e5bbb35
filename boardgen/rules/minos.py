"""The Labyrinth of King Minos (game A): a dice race to Elysium on the game protocol.

A state holds every piece's field (0 = outside the entrance, the goal = borne off), the
global turn number from which each piece is free again (lost turns), the dice still to use
this turn, a pending offer (an Orbit ride or a Millstone crossing) and the random generator.
Seat ``turn % seats`` is to move. Each decision is one of:

- ``Move(DIE, d, k)``: move piece ``k`` by one die showing ``d``;
- ``Move(PASS)``: no die can be used, the turn is over;
- ``Move(RIDE, 0, k)`` / ``Move(CROSS, 0, k)`` / ``Move(STAY, 0, k)``: take or refuse the
  Orbit ride or the Millstone crossing just offered to piece ``k``.

Dice are rolled when a turn starts; the free Orbit die when a ride is taken.

Where the source rules are silent or unclear, this module decides as follows (the same
decisions, worded for players, are in layouts/rules/minos.interpretations.<lang>.md, with the
layout's field numbers filled in, and on the printed rules sheet):

1. Lost turns hold the piece, not the player: a piece on 13 or 52 sits out its owner's next
   two turns while the owner plays the other pieces ("unless all your pieces are trapped").
   It is held at once, so it cannot use the second die of the turn it was caught.
2. On 52 the two turns are lost first; at the start of its owner's next turn the piece goes
   through the tunnel to 7 and may ride the Orbit from there, before the dice are used.
3. A piece arriving on an occupied field (not a sanctuary) sends the occupant to the field
   the arriving piece started that move from (the start of the die count, of the ride, of
   the crossing or of the tunnel): the two change places, whoever owns them. The piece sent
   away triggers nothing where it arrives, and is freed of lost turns and of 52's tunnel.
4. Fields act where a count ends, never when passed. A piece ending on 6, 18, 21, 42 or 59
   goes on at once; only the field where it comes to rest can send a piece away.
5. Going forward a piece never passes 31, 58 or 61: the count goes in and comes back one
   field per extra point, and the field it stops on acts as usual (bouncing off Elysium onto
   59 drops the piece to 47, onto 55 offers a ride). Going back over 58 needs no exact
   count; 58's exception follows from rule 3: a piece on 57 (or lower) that a bounce from
   Elysium lands on changes places with the bouncing piece and so goes forward past 58 to
   its field (60, say) without entering 58; behind 58 again later, it must count exactly.
6. Both dice must be used if possible: the first die must be one after which the second can
   still be used, when such a move exists; if only one die can be used, it must be the
   higher one when either could (as in backgammon). A move that bears off the last piece
   and wins is always allowed. This looks only at the die counts, not at rides or crossings
   taken in between, whose outcome is the player's own risk. A double gives two moves of
   that number, no more, and no extra turn.
7. If no die can be used the turn passes. Each die showing 1 may bring one piece from
   outside onto field 1; a double 1 may bring two.
8. The Orbit ride is offered when a piece ends a die count on 7, 46, 49, 55 or 34 (also by
   a bounce) and after 52's tunnel; never after a ride or to a piece sent there. It runs
   towards 34, or towards 7 when it starts on 34, and turns back at the ends. The Millstone
   crossing is offered when a count ends on 44, 45, 50 or 51, either way across. Both are
   taken or refused before the next die.
9. Reaching 61 by exact count bears the piece off at once; the first player with every
   piece borne off wins at once. Seat 0 plays first.
"""

from __future__ import annotations

import operator
import random
from bisect import insort
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from boardgen.model.race import OUTSIDE
from boardgen.rules.race import (
    BLOCK,
    DIE,
    FACES,
    OTHERS_WEIGHT,
    PASS,
    STEP,
    IllegalMoveError,
    Move,
    RaceGame,
    RaceState,
    next_random,
    random_block,
    roll,
)
from boardgen.rules.simulate import GameRecord, Hook

if TYPE_CHECKING:
    from boardgen.model.minos import MinosLayout

RIDE, CROSS, STAY = "ride", "cross", "stay"
WAIT_COST = 4.0  # greedy play: fields a piece is worth less per turn it must sit out
_MASK = (1 << 64) - 1
MinosState = RaceState  # a King Minos position is a race position (its offers are rides, crossings)
_next_random = next_random

# What `MinosGame._playout_tables` builds (see there).
_Tables = tuple[list[float], list[int], list[tuple[int, ...]],
                list[list[tuple[int, float, float, float]]], list[int], list[list[bool]],
                list[str | None], list[tuple[tuple[int, float, bool], ...]]]

__all__ = ["CROSS", "DIE", "FACES", "OTHERS_WEIGHT", "OUTSIDE", "PASS", "RIDE", "STAY",
           "IllegalMoveError", "MinosGame", "MinosState", "Move", "count_events", "roll"]

class MinosGame(RaceGame):
    """The rules of King Minos, precomputed for one layout: the race engine on the layout's
    track, with two dice used separately, pieces changing places, the Orbit and the
    Millstone."""

    id = "minos"

    def __init__(self, layout: MinosLayout):
        super().__init__(layout.track, players=layout.players, pieces_per_player=layout.pieces_per_player,
                         dice=layout.dice, game_id="minos")
        self.layout = layout
        goal = self.goal
        self.entry_face = layout.entry_face
        self.orbit = layout.orbit
        self.orbit_index = {f: i for i, f in enumerate(layout.orbit)}
        self.partner: dict[int, int] = {}
        for a, b in layout.millstone:
            self.partner[a], self.partner[b] = b, a
        self.ride_to = {f: tuple(self._ride_end(f, r) for r in range(1, FACES + 1))
                        for f in self.orbit_index if not self.trap[f]}
        self._values = self._field_values()
        self._offer_gain = [0.0] * (goal + 1)
        for field, ends in self.ride_to.items():
            gain = sum(self._values[e] - WAIT_COST * (self.trap[e] + 1 if self.trap[e] else 0)
                       for e in ends) / len(ends) - self._values[field]
            self._offer_gain[field] = max(0.0, gain)
        for field, other in self.partner.items():
            self._offer_gain[field] = max(0.0, self._values[other] - self._values[field])
        # Where a die count from each field ends up, through every forced move; and the die
        # moves themselves, built once (self-play makes millions of them).
        self._rest = [[self.chain[self.target(origin, points)][-1] if points else origin
                       for points in range(FACES + 1)] for origin in range(goal + 1)]
        pieces = layout.players[1] * self.per
        self._die_moves = [[Move(DIE, points, k) for k in range(pieces)] for points in range(FACES + 1)]
        # Per number of seats, per seat: how each seat's progress counts for that seat.
        self._weights = {n: [[-1.0 if s == seat else OTHERS_WEIGHT / max(1, n - 1)
                              for s in range(n)] for seat in range(n)]
                         for n in range(1, layout.players[1] + 1)}
        self._tables: _Tables | None = None

    # -- rules ---------------------------------------------------------------------------------
    # The rules work on lists (`pos`, `free`, `dice`) changed in place, so that the protocol
    # (one immutable state per decision) and the fast self-play loop (`greedy_playout`)
    # share every line of them.

    def _apply(self, state: MinosState, move: Move) -> MinosState:
        pos, free, dice = list(state.pos), list(state.free_at), list(state.dice)
        landings: list[int] = []
        turn, dice, rng, offer, winner = self._step(pos, free, dice, state.rng, state.turn, state.seats,
                                                    move, landings)
        return MinosState(state.seats, turn, tuple(pos), tuple(free), tuple(dice), offer, rng, winner,
                          tuple(landings))

    def _step(self, pos: list[int], free: list[int], dice: list[int], rng: int, turn: int, seats: int,
              move: Move, landings: list[int]) -> tuple[int, list[int], int, tuple[str, int] | None, int]:
        """Play `move` on the lists; return the turn, dice, generator, offer and winner after it."""
        offer: str | None = None
        kind, piece = move.kind, move.piece
        if kind == DIE:
            dice.remove(move.die)
            offer = self._count(pos, free, piece, move.die, turn, seats, landings)[0]
        elif kind == PASS:
            dice = []
        elif kind == RIDE:
            rng, points = roll(rng)
            origin = pos[piece]
            self._arrive(pos, free, piece, self.ride_to[origin][points - 1], origin, turn, seats,
                         landings, False)
        elif kind == CROSS:
            origin = pos[piece]
            self._arrive(pos, free, piece, self.partner[origin], origin, turn, seats, landings,
                         False)
        seat = turn % seats
        if pos[piece] == self.goal and self._has_finished(pos, seat):
            return turn, dice, rng, None, seat
        if offer is not None:
            return turn, dice, rng, (offer, piece), -1
        turn, dice, rng, pending = self._proceed(seats, turn, pos, free, dice, rng, landings)
        return turn, dice, rng, pending, -1

    def target(self, origin: int, points: int) -> int:
        """Where a die count from `origin` ends before any jump: into the entrance from
        outside, otherwise forward, bouncing off the first exact-count field ahead."""
        if origin == OUTSIDE:
            return self.start
        return self.ends[origin][points][0]

    def can_use(self, pos: Sequence[int], free: Sequence[int], seat: int, points: int,
                turn: int) -> bool:
        """Whether any piece of `seat` can move by a die showing `points`."""
        goal, entry = self.goal, points == self.entry_face
        for k in range(seat * self.per, (seat + 1) * self.per):
            p = pos[k]
            if p != goal and free[k] <= turn and (p or entry):
                return True
        return False

    def _legal(self, state: MinosState) -> tuple[Move, ...]:
        if state.winner >= 0:
            return ()
        return self._legal_at(state.pos, state.free_at, state.turn, state.seats, state.dice, state.offer)

    def _legal_at(self, pos: Sequence[int], free: Sequence[int], turn: int, seats: int,
                  dice: Sequence[int], offer: tuple[str, int] | None) -> tuple[Move, ...]:
        if offer is not None:
            kind, piece = offer
            return (Move(kind, 0, piece), Move(STAY, 0, piece))
        if len(dice) == 1:
            return self._movers(pos, free, turn, seats, dice[0])
        high, low = max(dice), min(dice)
        if high == low:
            options = self._movers(pos, free, turn, seats, high)
            both = tuple(m for m in options if self._leaves_playable(pos, free, turn, seats, m, low))
            return both or options or (Move(PASS),)
        first, second = self._movers(pos, free, turn, seats, high), self._movers(pos, free, turn, seats, low)
        both = tuple(m for m in first if self._leaves_playable(pos, free, turn, seats, m, low))
        both += tuple(m for m in second if self._leaves_playable(pos, free, turn, seats, m, high))
        return both or first or second or (Move(PASS),)

    def _movers(self, pos: Sequence[int], free: Sequence[int], turn: int, seats: int,
                points: int) -> tuple[Move, ...]:
        """One move per field the seat can move a piece from (pieces sharing a field are
        interchangeable)."""
        seat, goal = turn % seats, self.goal
        entry = points == self.entry_face
        moves = self._die_moves[points]
        seen: list[int] = []
        out = []
        for k in range(seat * self.per, (seat + 1) * self.per):
            p = pos[k]
            if p == goal or free[k] > turn or p in seen or not (p or entry):
                continue
            seen.append(p)
            out.append(moves[k])
        return tuple(out)

    def _leaves_playable(self, pos: Sequence[int], free: Sequence[int], turn: int, seats: int,
                         move: Move, other: int) -> bool:
        """Whether the other die can still be used after `move`."""
        seat, goal = turn % seats, self.goal
        # Shortcut: another free piece on the board stays free and on the board whatever the
        # move does (a swap only sends it to the mover's origin and frees it), unless the
        # mover comes from outside and could swap it out.
        if pos[move.piece]:
            for k in range(seat * self.per, (seat + 1) * self.per):
                if k != move.piece and pos[k] and pos[k] != goal and free[k] <= turn:
                    return True
        after_pos, after_free = list(pos), list(free)
        self._count(after_pos, after_free, move.piece, move.die, turn, seats, [])
        # A winning move ends the game: no die is left to use.
        return (self.can_use(after_pos, after_free, seat, other, turn)
                or self._has_finished(after_pos, seat))

    def preview(self, state: MinosState, move: Move) -> tuple[list[int], list[int]]:
        """Fields and free turns of every piece after a die move, with its jumps, traps and
        swaps but without the ride or crossing it may offer."""
        pos, free = list(state.pos), list(state.free_at)
        self._count(pos, free, move.piece, move.die, state.turn, state.seats, [])
        return pos, free

    def _count(self, pos: list[int], free: list[int], piece: int, points: int, turn: int,
               seats: int, landings: list[int]) -> tuple[str | None, int]:
        origin = pos[piece]
        return self._arrive(pos, free, piece, self.target(origin, points), origin, turn, seats,
                            landings, True)

    def _arrive(self, pos: list[int], free: list[int], piece: int, field: int, origin: int,
                turn: int, seats: int, landings: list[int],
                offers: bool) -> tuple[str | None, int]:
        """Put `piece` on `field` (coming from `origin`), follow forced moves, swap out an
        occupant, apply the field; return the offer it makes (or None) and the piece it
        swapped out (or -1)."""
        chain = self.chain[field]
        landings.extend(chain)
        field = chain[-1]
        if field == self.goal:
            pos[piece], free[piece] = field, 0
            return None, -1
        bumped = -1
        if field != origin and not self.safe[field] and field in pos:
            for other, at in enumerate(pos):
                if at == field and other != piece:
                    pos[other], free[other] = origin, 0
                    bumped = other
                    break
        pos[piece] = field
        lost = self.trap[field]
        if lost:
            free[piece] = turn + seats * (lost + 1)
            return None, bumped
        if offers:
            if field in self.orbit_index:
                return RIDE, bumped
            if field in self.partner:
                return CROSS, bumped
        return None, bumped

    def _ride_end(self, start: int, points: int) -> int:
        """The Orbit field a ride of `points` from `start` ends on."""
        last = len(self.orbit) - 1
        i = self.orbit_index[start]
        step = -1 if i == last else 1
        for _ in range(points):
            if not 0 <= i + step <= last:
                step = -step
            i += step
        return self.orbit[i]

    def _turn_goes_on(self, pos: Sequence[int], free: Sequence[int], seat: int, dice: Sequence[int],
                      turn: int) -> bool:
        """Both dice still to use, or a last die that some piece can use."""
        return len(dice) == 2 or bool(dice and self.can_use(pos, free, seat, dice[0], turn))

    # -- evaluation for the greedy player ------------------------------------------------------

    def piece_value(self, field: int, free_at: int, turn: int, seats: int) -> float:
        """How far along a piece is, in fields, counting what waiting costs."""
        if free_at > turn:
            return self._values[field] - WAIT_COST * ((free_at - turn) // seats)
        return self._values[field]

    def _field_values(self) -> list[float]:
        """A piece's worth on each field when free: borne off is worth most, outside least,
        and a piece waiting for 52's tunnel is worth where the tunnel leads."""
        values = [float(self.delayed[p] or p) for p in range(self.goal + 1)]
        values[OUTSIDE] = -12.0
        values[self.goal] = self.goal + 20.0
        return values

    def heuristic(self, state: MinosState, seat: int) -> float:
        """Lower is better for `seat`: the opponents' mean progress (weighted 0.3) minus its
        own; bearing off counts most, waiting outside or on a trap costs."""
        return self._heuristic(state.pos, state.free_at, state.turn, state.seats, seat)

    def _heuristic(self, pos: Sequence[int], free: Sequence[int], turn: int, seats: int,
                   seat: int) -> float:
        per, values = self.per, self._values
        weight = self._weights[seats][seat]
        own = sum(map(values.__getitem__, pos[seat * per:(seat + 1) * per]))
        others = sum(map(values.__getitem__, pos)) - own
        total = weight[seat] * own + OTHERS_WEIGHT / max(1, seats - 1) * others
        if max(free) > turn:
            for k, at in enumerate(free):
                if at > turn:
                    total -= weight[k // per] * WAIT_COST * ((at - turn) // seats)
        return total

    def score_moves(self, state: MinosState, moves: Sequence[Move], seat: int) -> list[float]:
        """`heuristic` after each move, with rides valued at their mean over the free die and
        a die move valued with the best answer to the offer it makes."""
        return self._scores_at(state.pos, state.free_at, state.turn, state.seats, moves, seat)

    def _scores_at(self, pos: Sequence[int], free: Sequence[int], turn: int, seats: int,
                   moves: Sequence[Move], seat: int) -> list[float]:
        """`score_moves` on lists. A die move is scored from the two pieces it can move (the
        same result as `_arrive`, without copying the position), plus the worth of the offer
        it makes: what taking it gains on average, if anything (the pieces a ride or a
        crossing might swap with are left out here, but not when the offer is decided)."""
        base = self._heuristic(pos, free, turn, seats, seat)
        weight = self._weights[seats][seat]
        per, values, rest, goal = self.per, self._values, self._rest, self.goal
        safe, trap, gain = self.safe, self.trap, self._offer_gain
        out = []
        for move in moves:
            kind = move.kind
            if kind == DIE:
                piece = move.piece
                origin = pos[piece]
                field = rest[origin][move.die]
                own = weight[piece // per]
                score = base - own * values[origin]
                if field == goal:
                    out.append(score + own * values[field])
                    continue
                if field != origin and not safe[field] and field in pos:
                    other = pos.index(field)
                    at = free[other]
                    worth = values[field] - WAIT_COST * ((at - turn) // seats) if at > turn else values[field]
                    score += weight[other // per] * (values[origin] - worth)
                lost = trap[field]
                if lost:
                    out.append(score + own * (values[field] - WAIT_COST * (lost + 1)))
                else:
                    out.append(score + own * (values[field] + gain[field]))
            elif kind == RIDE or kind == CROSS:
                out.append(base + self._offer_change(pos, free, turn, seats, kind, move.piece, weight))
            else:
                out.append(base)
        return out

    def _offer_change(self, pos: Sequence[int], free: Sequence[int], turn: int, seats: int, offer: str,
                      piece: int, weight: Sequence[float]) -> float:
        """The mean change of `heuristic` if the offer made to `piece` is taken."""
        origin = pos[piece]
        ends = self.ride_to[origin] if offer == RIDE else (self.partner[origin],)
        value, per = self.piece_value, self.per
        total = 0.0
        for end in ends:
            after_pos, after_free = list(pos), list(free)
            _, bumped = self._arrive(after_pos, after_free, piece, end, origin, turn, seats, [], False)
            # How the heuristic changes: only `piece` and the one it swapped out moved.
            change = 0.0
            for k in (piece, bumped) if bumped >= 0 else (piece,):
                change += weight[k // per] * (value(after_pos[k], after_free[k], turn, seats)
                                              - value(pos[k], free[k], turn, seats))
            total += change
        return total / len(ends)

    # -- fast self-play ------------------------------------------------------------------------

    def playout(self, players: Sequence[object], seed: int, *, turn_cap: int,
                hook: Hook | None) -> GameRecord | None:
        """`boardgen.rules.simulate.play` asks this first: the record of the game when every
        seat is a greedy player and the counters asked for are `count_events` (or none), by
        `greedy_playout` (written for two dice, as the schema allows); None otherwise (then
        `play` plays it decision by decision)."""
        from boardgen.rules.players import GreedyPlayer

        if (hook not in (None, count_events) or not all(type(p) is GreedyPlayer for p in players)
                or self.dice_count != 2):
            return None
        return self.greedy_playout(len(players), seed, turn_cap, counting=hook is not None)

    def greedy_playout(self, seats: int, seed: int, turn_cap: int, *, counting: bool = True) -> GameRecord:
        """The game `play(self, [GreedyPlayer()] * seats, seed, turn_cap=turn_cap,
        hook=count_events)` plays, decision for decision and with the same record. Without
        `counting`, the record has no counters (as `play` without a hook).

        It plays on plain lists with the tables of `_playout_tables`, keeps up to date what the
        rules would otherwise search for (each seat's sum of field values, the piece on each
        field, the pieces sitting out), builds no state and no Move, rolls the dice in blocks
        (`_dice`) and draws the player's choice straight from its generator, as
        `random.Random.choice` does. The common cases are played here; the rare ones call the
        rules above (`_leaves_playable` for a die that may leave the other unusable, `_arrive`
        for rides, crossings and the tunnel). Every field value is a whole number, so the
        running sums are exact and every score is the float `_scores_at` gives, operation for
        operation: ties, hence the draws, are the same. tests/rules/test_minos_playout.py
        holds it to `play`, decision by decision."""
        per, goal, entry, delayed, trap = self.per, self.goal, self.entry_face, self.delayed, self.trap
        values, rest, land, die_ends, swap_at, keeps, offer_at, offer_terms = self._playout_tables()
        ride_to, partner = self.ride_to, self.partner
        n = seats * per
        weights = self._weights[seats]
        # Per seat to move, per piece: how that piece's worth counts for the seat; the extra last
        # entry (index -1, "no piece") is 0, so that a move swapping no piece out adds 0.0.
        piece_weights = [[weights[seat][k // per] for k in range(n)] + [0.0] for seat in range(seats)]
        others_weight = OTHERS_WEIGHT / max(1, seats - 1)
        die_moves = self._die_moves
        leaves_playable, arrive = self._leaves_playable, self._arrive
        getrandbits = random.Random(seed).getrandbits
        # The dice, as `initial_state` and `roll` roll them, one block at a time: die `rolled`
        # is the next to use (two per turn, one per ride).
        rng = next_random(seed & _MASK)[1]
        stream = _dice(rng)
        rng = (rng + BLOCK * STEP) & _MASK
        die_a, die_b = stream[0], stream[1]
        rolled, dice = 2, 2
        pos, free = [OUTSIDE] * n, [0] * n
        # The piece resting on each field, -1 for none: exact on every field where a piece can
        # be swapped out (it holds one piece at most); meaningless on the others (the entrance,
        # sanctuaries, Elysium), which are never looked up. The extra last slot (goal + 1) is
        # never written: the tables name it where a move can swap no piece out.
        occ = [-1] * (goal + 2)
        # Per piece (and -1): what sitting out costs it now, WAIT_COST per turn still to lose;
        # 0 for a free piece (set at each decision for the pieces in `held_pieces`).
        pen = [0.0] * (n + 1)
        # Each seat's sum of field values, and the total: exact (whole numbers).
        sums = [sum(values[p] for p in pos[s * per:(s + 1) * per]) for s in range(seats)]
        total = sum(sums)
        # The pieces that may sit out (free_at > turn), in order; per seat, a turn from which
        # none of its pieces sits out (an upper bound of their free_at).
        held_pieces: list[int] = []
        seat_held = [0] * seats
        # The turns at which a piece held on a field with a tunnel may be due out (`_proceed`).
        release_turns: set[int] = set()
        turn, winner = 0, -1
        offer, offered_piece = None, -1
        landed = [0] * (goal + 1)  # per field, the times a piece landed there (but by a die move)
        made: list[int] = []  # the die moves made (origin * 8 + points)
        counts: list[int] = []  # per decision, the moves on offer
        made = [0] * (8 * (goal + 1))  # per die move (origin * 8 + points), the times it was made
        rides = crossings = swaps = 0
        empty: list[int] = []
        while turn < turn_cap:
            seat = turn % seats
            k0 = seat * per  # the seat's first piece
            # What this decision moved, to count the pieces it moved if a tunnel moves more.
            mover = bumped = -1
            before: list[int] | None = None
            if offer is not None:
                # -- an Orbit ride or a Millstone crossing offered to `offered_piece`
                count = 2
                spare = False
                piece = offered_piece
                origin = pos[piece]
                own = sums[seat]
                base = -1.0 * own + others_weight * (total - own)
                pw = piece_weights[seat]
                for k in held_pieces:
                    at = free[k]
                    if at > turn:
                        base -= pw[k] * WAIT_COST * ((at - turn) // seats)
                terms = offer_terms[origin]
                change_sum = 0.0
                for field, term, swappable in terms:
                    change = term
                    if swappable:
                        other = occ[field]
                        if other >= 0:
                            at = free[other]
                            worth = values[field] - WAIT_COST * ((at - turn) // seats) if at > turn else values[field]
                            change += pw[other] * (values[origin] - worth)
                    change_sum += change
                taken = base + change_sum / len(terms)
                if taken == base:  # a tie: the player draws one of the two
                    r = getrandbits(2)
                    while r >= 2:
                        r = getrandbits(2)
                    take = r == 0
                else:
                    while getrandbits(1):
                        pass
                    take = taken < base
                kind, offer = offer, None
                if take:
                    if kind == RIDE:
                        if rolled == len(stream):
                            stream += _dice(rng)
                            rng = (rng + BLOCK * STEP) & _MASK
                        end = ride_to[origin][stream[rolled] - 1]
                        rolled += 1
                        rides += 1
                    else:
                        end = partner[origin]
                        crossings += 1
                    landings: list[int] = []
                    _, bumped = arrive(pos, free, piece, end, origin, turn, seats, landings, False)
                    for field in landings:
                        landed[field] += 1
                    field = pos[piece]
                    occ[origin] = bumped
                    occ[field] = piece
                    mover, mover_from, bumped_from = piece, origin, field
                    change_value = values[field] - values[origin]
                    sums[seat] += change_value
                    total += change_value
                    if bumped >= 0:
                        sums[bumped // per] -= change_value
                        total -= change_value
                        pen[bumped] = 0.0
                        swaps += 1
                    at = free[piece]
                    if at > turn:
                        if at > seat_held[seat]:
                            seat_held[seat] = at
                        if delayed[field]:
                            release_turns.add(at)
                        if piece not in held_pieces:
                            insort(held_pieces, piece)
                    if field == goal and pos[k0:k0 + per].count(goal) == per:
                        winner = seat
            else:
                # -- dice: the fields the seat can move a piece from, in the order of their first
                # piece (the order of the legal moves); a piece sitting out counts as borne off.
                if seat_held[seat] > turn:
                    row = [goal if free[k] > turn else pos[k] for k in range(k0, k0 + per)]
                else:
                    row = pos[k0:k0 + per]
                if OUTSIDE in row or goal in row or len(set(row)) < per:
                    fields: list[int] = []
                    for p in row:
                        if p != goal and p not in fields:
                            fields.append(p)
                    if OUTSIDE in fields:  # only a die showing the entry face brings a piece in
                        board = fields[:]
                        board.remove(OUTSIDE)
                    else:
                        board = fields
                    # free pieces on the board (for the rule of both dice)
                    free_board = per - row.count(OUTSIDE) - row.count(goal) if dice == 2 else 0
                else:  # (most often) every piece free on a field of its own
                    fields = board = row
                    free_board = per
                # The moves on offer: `first` with die `high`, then `second` with die `low`.
                second = empty
                if dice == 1:
                    high = low = die_a
                    first = fields if high == entry else board
                else:
                    high, low = (die_a, die_b) if die_a >= die_b else (die_b, die_a)
                    first = fields if high == entry else board
                    # A die move must leave the other die usable where some move does. A piece
                    # that ends free on the board can use it (`keeps`); so can another free piece
                    # on the board when the move starts on the board (a swap only sends it back
                    # and frees it). Only the other moves are played out (`_leaves_playable`).
                    # With two free pieces on the board, one is left for the other die whatever
                    # this die does (`spare`).
                    spare = free_board >= 2
                    if spare and (board is fields or keeps[OUTSIDE][entry]):
                        if high != low:
                            second = fields if low == entry else board
                    else:
                        keep_first = [f for f in first if keeps[f][high] or leaves_playable(
                            pos, free, turn, seats, die_moves[high][k0 + row.index(f)], low)]
                        if high == low:
                            first = keep_first or first
                        else:
                            second = fields if low == entry else board
                            keep_second = [f for f in second if keeps[f][low] or leaves_playable(
                                pos, free, turn, seats, die_moves[low][k0 + row.index(f)], high)]
                            if keep_first or keep_second:
                                first, second = keep_first, keep_second
                            elif first:
                                second = empty
                split = len(first)
                count = split + len(second)
                if not count:
                    # -- no die can be used: pass
                    count = 1
                    while getrandbits(1):
                        pass
                    dice = 0
                else:
                    if count == 1:
                        while getrandbits(1):
                            pass
                        choice = 0
                    else:
                        # -- the greedy player's scores, as `_scores_at` makes them: per move, the
                        # table's (field a piece may be swapped out of, value of the origin, value
                        # of the origin less that field's, end score); the piece swapped out (-1:
                        # none, weighing 0) adds its weight times the difference and what it
                        # loses by being freed.
                        own = sums[seat]
                        base = -1.0 * own + others_weight * (total - own)
                        pw = piece_weights[seat]
                        if held_pieces:
                            stale = False
                            for k in held_pieces:
                                at = free[k]
                                if at > turn:
                                    lost = (at - turn) // seats
                                    base -= pw[k] * WAIT_COST * lost
                                    pen[k] = WAIT_COST * lost
                                else:
                                    pen[k] = 0.0
                                    stale = True
                            if stale:
                                held_pieces = [k for k in held_pieces if free[k] > turn]
                        ends = die_ends[high]
                        if held_pieces:
                            scores = [base + vo + pw[(o := occ[sw])] * (dv + pen[o]) + e
                                      for sw, vo, dv, e in map(ends.__getitem__, first)]
                            if second:
                                ends = die_ends[low]
                                scores += [base + vo + pw[(o := occ[sw])] * (dv + pen[o]) + e
                                           for sw, vo, dv, e in map(ends.__getitem__, second)]
                        else:  # the same without `pen`, 0 for every piece
                            scores = [base + vo + pw[occ[sw]] * dv + e
                                      for sw, vo, dv, e in map(ends.__getitem__, first)]
                            if second:
                                ends = die_ends[low]
                                scores += [base + vo + pw[occ[sw]] * dv + e
                                           for sw, vo, dv, e in map(ends.__getitem__, second)]
                        best = min(scores)
                        ties = scores.count(best)
                        if ties == 1:
                            while getrandbits(1):
                                pass
                            choice = scores.index(best)
                        else:
                            bits = ties.bit_length()
                            r = getrandbits(bits)
                            while r >= ties:
                                r = getrandbits(bits)
                            choice = scores.index(best)  # the r-th of the best moves
                            while r:
                                choice = scores.index(best, choice + 1)
                                r -= 1
                    # -- play the die: its count, forced moves, a swap, the field's effect
                    origin, points = (first[choice], high) if choice < split else (second[choice - split], low)
                    piece = k0 + row.index(origin)
                    if dice == 2:
                        dice = 1
                        if points == die_a:
                            die_a = die_b
                    else:
                        dice = 0
                    move = origin * 8 + points
                    made.append(move)
                    field = rest[move]
                    mover, mover_from, bumped_from = piece, origin, field
                    change_value = values[field] - values[origin]
                    sums[seat] += change_value
                    total += change_value
                    if field == goal:
                        pos[piece], free[piece] = goal, 0
                        occ[origin] = -1
                        if pos[k0:k0 + per].count(goal) == per:
                            winner = seat
                    else:
                        if swap_at[move]:
                            bumped = occ[field]
                            if bumped >= 0:
                                pos[bumped], free[bumped], pen[bumped] = origin, 0, 0.0
                                swaps += 1
                                sums[bumped // per] -= change_value
                                total -= change_value
                        occ[origin] = bumped
                        occ[field] = piece
                        pos[piece] = field
                        lost = trap[field]
                        if lost:
                            free[piece] = at = turn + seats * (lost + 1)
                            if at > seat_held[seat]:
                                seat_held[seat] = at
                            if delayed[field]:
                                release_turns.add(at)
                            if piece not in held_pieces:
                                insort(held_pieces, piece)
                        else:
                            offer = offer_at[field]
                            offered_piece = piece
            # -- on to the next decision: the tunnel, the end of the turn, the next roll
            if winner < 0 and offer is None:
                while True:
                    if turn in release_turns:
                        first_k = (turn % seats) * per
                        for k in range(first_k, first_k + per):
                            exit_to = delayed[pos[k]]
                            if exit_to and free[k] == turn:
                                if before is None:  # the position before this decision
                                    before = pos[:]
                                    if bumped >= 0:
                                        before[bumped] = bumped_from
                                    if mover >= 0:
                                        before[mover] = mover_from
                                origin = pos[k]
                                landings = []
                                offer, moved = arrive(pos, free, k, exit_to, origin, turn, seats, landings, True)
                                for field in landings:
                                    landed[field] += 1
                                field = pos[k]
                                occ[origin] = moved
                                occ[field] = k
                                change_value = values[field] - values[origin]
                                sums[k // per] += change_value
                                total += change_value
                                if moved >= 0:
                                    sums[moved // per] -= change_value
                                    total -= change_value
                                    pen[moved] = 0.0
                                at = free[k]
                                if at > turn:
                                    if at > seat_held[k // per]:
                                        seat_held[k // per] = at
                                    if delayed[field]:
                                        release_turns.add(at)
                                    if k not in held_pieces:
                                        insort(held_pieces, k)
                                if offer is not None:
                                    offered_piece = k
                                    break
                        if offer is not None:
                            break
                    if dice == 2:
                        break
                    if dice == 1:  # the last die, if some piece can use it
                        if spare:
                            break
                        if seat_held[seat] > turn:
                            usable = False
                            for k in range(k0, k0 + per):
                                p = pos[k]
                                if p != goal and free[k] <= turn and (p or die_a == entry):
                                    usable = True
                                    break
                        else:
                            row = pos[k0:k0 + per]
                            usable = (row.count(OUTSIDE) + row.count(goal) < per
                                      or (die_a == entry and OUTSIDE in row))
                        if usable:
                            break
                    turn += 1
                    if rolled + 2 > len(stream):
                        stream += _dice(rng)
                        rng = (rng + BLOCK * STEP) & _MASK
                    die_a, die_b = stream[rolled], stream[rolled + 1]
                    rolled += 2
                    dice = 2
            counts.append(count)
            if before is not None:  # count the swaps as count_events does: pieces moved, less one
                moved_pieces = sum(map(operator.ne, before, pos))
                swaps += max(0, moved_pieces - 1) - (bumped >= 0)
            if winner >= 0:
                break
        counters: dict[str, float] = {}
        if counting:
            for move, k in Counter(made).items():
                for field in land[move]:
                    landed[field] += k
            counters = {f"landed:{field}": float(k) for field, k in enumerate(landed) if k}
            counters.update({key: float(k) for key, k in (("rides", rides), ("crossings", crossings),
                                                           ("swaps", swaps)) if k})
        decisions, offered, widest = len(counts), sum(counts), max(counts, default=0)
        if winner < 0:
            return GameRecord(seed, seats, None, turn_cap, False, decisions, offered, widest, counters)
        return GameRecord(seed, seats, winner, turn + 1, True, decisions, offered, widest, counters, None)

    def _playout_tables(self) -> _Tables:
        """What `greedy_playout` looks up, per field and die (built once):

        - the field values (`_field_values`);
        - per die move (origin * 8 + points): where it ends (`_rest`), the fields it lands on
          (for the counters), and the field it ends on if a piece there would be swapped
          out, else 0;
        - per die and field: the field where a piece may be swapped out (else `goal + 1`, a
          field nobody is on), the field's value, the field's value less that field's (0 when
          none), and the part of the move's score that depends only on where it ends
          (`_scores_at`);
        - whether the piece ends free on the board (it can then use another die);
        - the offer a count ending on each field makes (RIDE, CROSS or None);
        - per field where an offer is made: per end of the ride or crossing, the field, the
          moving piece's part of `_offer_change` and whether a piece there would be swapped.
        """
        if self._tables is not None:
            return self._tables
        goal, values, rest, trap, safe = self.goal, self._values, self._rest, self.trap, self.safe
        fields = range(goal + 1)
        land: list[list[tuple[int, ...]]] = [
            [()] + [self.chain[self.target(origin, points)] for points in range(1, FACES + 1)] for origin in fields]
        tail: list[list[float]] = []
        swap_at: list[list[int]] = []
        for origin in fields:
            tail.append([0.0])
            swap_at.append([0])
            for points in range(1, FACES + 1):
                field = rest[origin][points]
                if field == goal:
                    tail[-1].append(-1.0 * values[field])
                elif trap[field]:
                    tail[-1].append(-1.0 * (values[field] - WAIT_COST * (trap[field] + 1)))
                else:
                    tail[-1].append(-1.0 * (values[field] + self._offer_gain[field]))
                swap_at[-1].append(field if field not in (origin, goal) and not safe[field] else 0)
        offer_at: list[str | None] = [None] * (goal + 1)
        offer_terms: list[tuple[tuple[int, float, bool], ...]] = [()] * (goal + 1)
        for field in fields:
            if field == goal or trap[field]:
                continue
            if field in self.orbit_index:
                offer_at[field], ends = RIDE, self.ride_to[field]
            elif field in self.partner:
                offer_at[field], ends = CROSS, (self.partner[field],)
            else:
                continue
            terms = []
            for end in ends:
                at = self.chain[end][-1]
                if at == goal:
                    after = values[at]
                elif trap[at]:
                    after = values[at] - WAIT_COST * (trap[at] + 1)
                else:
                    after = values[at]
                terms.append((at, -1.0 * (after - values[field]), at not in (field, goal) and not safe[at]))
            offer_terms[field] = tuple(terms)
        keeps = [[points > 0 and rest[origin][points] != goal and not trap[rest[origin][points]]
                  for points in range(FACES + 1)] for origin in fields]
        nobody = goal + 1
        die_ends = [[(swap_at[origin][points] or nobody, values[origin],
                      values[origin] - values[swap_at[origin][points]] if swap_at[origin][points] else 0.0,
                      tail[origin][points]) for origin in fields]
                    for points in range(FACES + 1)]
        # The die moves' own tables go by move = origin * 8 + points: one lookup, not two.
        moves = [(origin, points) for origin in fields for points in range(8)]
        self._tables = (values, [rest[o][p] if p <= FACES else 0 for o, p in moves],
                        [land[o][p] if p <= FACES else () for o, p in moves], die_ends,
                        [swap_at[o][p] if p <= FACES else 0 for o, p in moves], keeps, offer_at, offer_terms)
        return self._tables


def _dice(rng: int) -> list[int]:
    """The next `BLOCK` dice `roll` rolls from generator state `rng`, in one go (`random_block`)."""
    return [z % FACES + 1 for z in random_block(rng)]


_LANDED = [f"landed:{field}" for field in range(256)]


def count_events(before: MinosState, move: Move, after: MinosState) -> Mapping[str, float]:
    """Self-play counters for one decision: fields landed on, rides, crossings, swaps."""
    counters: dict[str, float] = {}
    for field in after.landings:
        key = _LANDED[field]
        counters[key] = counters.get(key, 0) + 1
    if move.kind == RIDE:
        counters["rides"] = 1
    elif move.kind == CROSS:
        counters["crossings"] = 1
    moved = sum(map(operator.ne, before.pos, after.pos))
    if moved > 1:
        counters["swaps"] = moved - 1
    return counters
