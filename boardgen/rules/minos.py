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

from bisect import insort
from collections.abc import Sequence
from typing import TYPE_CHECKING

from boardgen.model.race import OUTSIDE
from boardgen.rules.race import (
    DIE,
    FACES,
    OTHERS_WEIGHT,
    PASS,
    IllegalMoveError,
    Move,
    Position,
    RaceGame,
    RaceState,
    roll,
)

if TYPE_CHECKING:
    from boardgen.model.minos import MinosLayout

RIDE, CROSS, STAY = "ride", "cross", "stay"
WAIT_COST = 4.0  # greedy play: fields a piece is worth less per turn it must sit out
MinosState = RaceState  # a King Minos position, frozen, is a race state (its offers are rides, crossings)
_LANDED = [f"landed:{field}" for field in range(256)]
_INFINITY = float("inf")

__all__ = [
    "CROSS",
    "DIE",
    "FACES",
    "OTHERS_WEIGHT",
    "OUTSIDE",
    "PASS",
    "RIDE",
    "STAY",
    "IllegalMoveError",
    "MinosGame",
    "MinosPosition",
    "MinosState",
    "Move",
    "roll",
]


class MinosGame(RaceGame):
    """The rules of King Minos, precomputed for one layout: the race engine on the layout's
    track, with two dice used separately, pieces changing places, the Orbit and the
    Millstone.

    One rule set: every decision is played by `_decide` on a `MinosPosition` (lists changed
    in place, with the piece on each field, each seat's sum of field values, its pieces
    outside and borne off and the pieces sitting out kept up to date), whether it comes
    through `apply` (a frozen `MinosState` in, a new one out), `play` (self-play, one position
    a game). The legal moves are worked out once per position (`_legal_here`) and the
    greedy player's candidates (`best_moves`) are scored from tables made here."""

    id = "minos"

    def __init__(self, layout: MinosLayout):
        super().__init__(
            layout.track,
            players=layout.players,
            pieces_per_player=layout.pieces_per_player,
            dice=layout.dice,
            game_id="minos",
        )
        self.layout = layout
        goal, trap, safe = self.goal, self.trap, self.safe
        self.entry_face = layout.entry_face
        self.orbit = layout.orbit
        self.orbit_index = {f: i for i, f in enumerate(layout.orbit)}
        self.partner: dict[int, int] = {}
        for a, b in layout.millstone:
            self.partner[a], self.partner[b] = b, a
        self.ride_to = {
            f: tuple(self._ride_end(f, r) for r in range(1, FACES + 1)) for f in self.orbit_index if not trap[f]
        }
        values = self._values = self._field_values()
        gain = [0.0] * (goal + 1)  # what an offer made on a field is worth taking, at best
        for field, ends in self.ride_to.items():
            mean = sum(values[e] - WAIT_COST * (trap[e] + 1 if trap[e] else 0) for e in ends) / len(ends)
            gain[field] = max(0.0, mean - values[field])
        for field, other in self.partner.items():
            gain[field] = max(0.0, values[other] - values[field])
        # The offer a count ending on each field makes (none on a trap or Elysium).
        self._offer_at: list[str | None] = [
            None
            if field == goal or trap[field]
            else RIDE
            if field in self.orbit_index
            else CROSS
            if field in self.partner
            else None
            for field in range(goal + 1)
        ]
        # Per field a piece is put on: the fields it lands on, as events, and where it rests.
        self._landing = [(tuple(_LANDED[f] for f in chain), chain[-1]) for chain in self.chain]
        pieces = layout.players[1] * self.per
        self._die_moves = [[Move(DIE, points, k) for k in range(pieces)] for points in range(FACES + 1)]
        self._alone = [[(move,) for move in row] for row in self._die_moves]  # (`best_moves`)
        self._offer_moves = {
            (kind, k): (Move(kind, 0, k), Move(STAY, 0, k)) for kind in (RIDE, CROSS) for k in range(pieces)
        }
        self._seat_pieces = [list(range(s * self.per, (s + 1) * self.per)) for s in range(layout.players[1])]
        # Per number of seats, per seat: how each piece's worth counts for that seat (the
        # last entry, for "no piece", is 0), and the opponents' weight.
        self._weights = {
            n: [[-1.0 if s == seat else OTHERS_WEIGHT / max(1, n - 1) for s in range(n)] for seat in range(n)]
            for n in range(1, layout.players[1] + 1)
        }
        self._piece_weights = {
            n: [[w[k // self.per] for k in range(n * self.per)] + [0.0] for w in by_seat]
            for n, by_seat in self._weights.items()
        }
        self._others_weight = {n: OTHERS_WEIGHT / max(1, n - 1) for n in self._weights}
        # Per die move, by key origin * 8 + points: where the count ends before forced moves
        # (`target`) and whether the piece then rests free on the board (so it can use another
        # die); per points and origin, what the greedy player's score of it needs
        # (`_die_scores`): the field
        # where a piece would be swapped out (else `goal + 1`, where nobody ever is), the
        # origin's value, the origin's value less that field's (0.0 without one), and the
        # mover's part of the score from where it rests (borne off; held by a trap; else
        # with what the offer it makes is worth).
        nobody = goal + 1
        self._target = [0] * (8 * (goal + 1))
        self._keeps = [False] * (8 * (goal + 1))
        self._ends = [[(nobody, 0.0, 0.0, 0.0)] * (goal + 1) for _ in range(FACES + 1)]
        for origin in range(goal + 1):
            for points in range(1, FACES + 1):
                key = origin * 8 + points
                self._target[key] = start = self.target(origin, points)
                field = self.chain[start][-1]
                if field == goal:
                    tail = -1.0 * values[field]
                elif trap[field]:
                    tail = -1.0 * (values[field] - WAIT_COST * (trap[field] + 1))
                else:
                    tail = -1.0 * (values[field] + gain[field])
                swaps = field not in (goal, origin) and not safe[field]
                self._keeps[key] = field != goal and not trap[field]
                self._ends[points][origin] = (
                    (field, values[origin], values[origin] - values[field], tail)
                    if swaps
                    else (nobody, values[origin], 0.0, tail)
                )
        self._offer_terms = {RIDE: self._offer_table(RIDE), CROSS: self._offer_table(CROSS)}
        self._enters_free = self._keeps[OUTSIDE * 8 + self.entry_face]  # a piece brought in rests free

    def target(self, origin: int, points: int) -> int:
        """Where a die count from `origin` ends before any jump: into the entrance from
        outside, otherwise forward, bouncing off the first exact-count field ahead."""
        if origin == OUTSIDE:
            return self.start
        return self.ends[origin][points][0]

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

    # -- the protocol: frozen states through one mutable position ------------------------------

    def position(self, players: int, seed: int) -> MinosPosition:
        """The first position of a game, to be played in place (`play`)."""
        return MinosPosition(self, self.initial_state(players, seed))

    def _position(self, state: MinosState | MinosPosition) -> MinosPosition:
        return state if isinstance(state, MinosPosition) else MinosPosition(self, state)

    def legal_moves(self, state: MinosState | MinosPosition) -> Sequence[Move]:
        if isinstance(state, MinosPosition):
            moves = state.memo
            return moves if moves is not None else self._legal_here(state)
        return super().legal_moves(state)

    def _legal(self, state: MinosState) -> tuple[Move, ...]:
        return self._legal_here(MinosPosition(self, state))

    def _apply(self, state: MinosState, move: Move) -> MinosState:
        p = MinosPosition(self, state)
        p.events = []
        self._decide(p, move.kind, move.piece, move.die, p.events)
        return p.snapshot()

    def play(self, state: MinosPosition, move: Move) -> MinosPosition:
        """`apply` in place; `events` then reads what the decision set off. A die move's
        legality is looked up in the position's die moves (`_options`) without listing them."""
        kind = move.kind
        if kind == DIE and state.offer is None and state.winner < 0 and not move.way:
            segments = state.keys
            if segments is None:
                segments = self._options(state)
            die, legal = move.die, False
            for _, points, movers in segments:
                if points == die:
                    legal = move.piece in movers
                    break
        else:
            moves = state.memo
            legal = move in (moves if moves is not None else self._legal_here(state))
        if not legal:
            moves = self._legal_here(state)
            raise IllegalMoveError(f"{move} is not legal here; legal: {', '.join(map(str, moves)) or 'none'}")
        return self.play_offered(state, move)

    def play_offered(self, state: MinosPosition, move: Move) -> MinosPosition:
        """`play` of a move `legal_moves` or `best_moves` just offered, unchecked: what `play`
        does once the move is found legal."""
        events: list[str] = []
        state.events = events
        self._decide(state, move.kind, move.piece, move.die, events)
        return state

    def count_moves(self, state: MinosState | MinosPosition) -> int:
        """How many moves `legal_moves` lists: on a position played in place, counted from
        its die moves (`_options`) without listing them."""
        if not isinstance(state, MinosPosition) or state.offer is not None or state.winner >= 0:
            return len(self.legal_moves(state))
        segments = state.keys
        if segments is None:
            segments = self._options(state)
        if len(segments) == 1:
            return len(segments[0][2])
        if segments:
            return len(segments[0][2]) + len(segments[1][2])
        return 1 if len(state.dice) == 2 else 0  # (a pass)

    def events(self, state: MinosState | MinosPosition) -> Sequence[str]:
        """Self-play counters of the decision that led to `state`: fields landed on
        (``landed:<field>``), ``rides``, ``crossings`` and ``swaps`` (pieces it moved, less
        one)."""
        return state.events

    # -- the rules: one decision on a position -------------------------------------------------

    def _legal_here(self, p: MinosPosition) -> tuple[Move, ...]:
        """The legal moves of the position, kept with it (`memo`) until it changes: the offer's
        answers, or the die moves of `_options` (else a pass)."""
        if p.winner >= 0:
            p.memo = ()
            return ()
        if p.offer is not None:
            offered: tuple[Move, ...] = self._offer_moves[p.offer]
            p.memo = offered
            return offered
        segments = p.keys
        if segments is None:
            segments = self._options(p)
        by = self._die_moves
        moves = tuple(by[die][k] for _, die, movers in segments for k in movers)
        if not moves and len(p.dice) == 2:
            moves = (Move(PASS),)
        p.memo = moves
        return moves

    def _options(self, p: MinosPosition) -> list[tuple[list[int], int, list[int]]]:
        """The die moves of the position (kept with it, `keys`), as (the fields moved from, the
        die, the pieces moved) per die, in legal order; none: a pass with two dice.

        Rules 6 and 7: one move per field the seat can move a piece from (the first piece
        there: pieces sharing a field are interchangeable), with the higher die then the lower;
        those after which the other die can still be used, if any; else those of either die
        (the higher first), else a pass."""
        pos, turn, goal, per = p.pos, p.turn, self.goal, self.per
        seat = turn % p.seats
        k0 = seat * per
        out = p.out[seat]  # (a piece outside is never held)
        pieces: list[int]
        if p.seat_held[seat] > turn:
            free = p.free_at
            pieces, fields, board = [], [], 0
            for k in range(k0, k0 + per):
                f = pos[k]
                if f != goal and free[k] <= turn:
                    board += f != OUTSIDE
                    if f not in fields:
                        fields.append(f)
                        pieces.append(k)
        else:
            board = per - out - p.off[seat]
            fields = pos[k0 : k0 + per]
            if board < per or len(set(fields)) < per:
                # Pieces outside, borne off or sharing a field: each field once, with its first
                # piece, in order (Elysium left out).
                row, fields, pieces, k = fields, [], [], k0
                for f in row:
                    if f != goal and f not in fields:
                        fields.append(f)
                        pieces.append(k)
                    k += 1
            else:
                pieces = self._seat_pieces[seat]
        dice, entry = p.dice, self.entry_face
        segments: list[tuple[list[int], int, list[int]]]
        if len(dice) == 1 or (board >= 2 and self._enters_free):
            # Every move of either die keeps the other usable (a die move leaves it usable when
            # another free piece of the seat stays on the board, the mover too: a swap only
            # sends it to the mover's origin, free; a piece brought in rests free on the
            # entrance), or one die only: one move per field, the higher die first; a piece
            # outside moves only with the entry face.
            if out:
                at = fields.index(OUTSIDE)
                on_fields, on_pieces = fields.copy(), pieces.copy()
                del on_fields[at], on_pieces[at]
            else:
                on_fields, on_pieces = fields, pieces
            high, low = dice[0], dice[-1]
            if low > high:
                high, low = low, high
            segments = [(fields, high, pieces) if high == entry else (on_fields, high, on_pieces)]
            if low != high:
                segments.append((fields, low, pieces) if low == entry else (on_fields, low, on_pieces))
        else:
            segments = self._either(p, pieces, fields, dice, board)
        p.keys = segments
        return segments

    def _either(
        self, p: MinosPosition, pieces: list[int], fields: list[int], dice: tuple[int, ...], board: int
    ) -> list[tuple[list[int], int, list[int]]]:
        """Two dice where a move may leave the other die unusable: the moves that keep it
        usable (the mover rests free on the board, `_keeps`, or another free piece of the seat
        stays there, or the move played out, `_leaves_playable`), else those of the higher
        die, else the lower's, else none (a pass)."""
        a, b = dice
        spare, entry = board >= 2, self.entry_face
        if not board and a != entry and b != entry:
            return []  # no free piece on the board, none to bring in (the usual pass)
        high, low = (a, b) if a >= b else (b, a)
        keeps, leaves = self._keeps, self._leaves_playable
        kept: list[tuple[list[int], int, list[int]]] = []
        every: list[tuple[list[int], int, list[int]]] = []
        for die, other in ((high, low), (low, high)) if high != low else ((high, low),):
            outside = die == entry
            starts: list[int] = []
            movers: list[int] = []
            all_starts: list[int] = []
            all_movers: list[int] = []
            for k, f in zip(pieces, fields, strict=True):
                if f or outside:
                    all_starts.append(f)
                    all_movers.append(k)
                    if (spare and f) or keeps[f * 8 + die] or leaves(p, k, f * 8 + die, other):
                        starts.append(f)
                        movers.append(k)
            kept.append((starts, die, movers))
            every.append((all_starts, die, all_movers))
        found = []
        for segment in kept:
            if segment[0]:
                found.append(segment)
        if not found:
            for segment in every:  # the higher die's, else the lower's
                if segment[0]:
                    return [segment]
        return found

    def _leaves_playable(self, p: MinosPosition, piece: int, key: int, other: int) -> bool:
        """Whether the seat can still use a die showing `other` after the die move `key` of
        `piece` (or has won by it: no die is left to use)."""
        after = p.copy()
        origin = p.pos[piece]
        self._arrive_on(after, piece, self._target[key], origin, False, [])
        seat = p.turn % p.seats
        return self.can_use(after.pos, after.free_at, seat, other, p.turn) or self._has_finished(after.pos, seat)

    def can_use(self, pos: Sequence[int], free: Sequence[int], seat: int, points: int, turn: int) -> bool:
        """Whether any piece of `seat` can move by a die showing `points`."""
        goal, entry = self.goal, points == self.entry_face
        for k in range(seat * self.per, (seat + 1) * self.per):
            f = pos[k]
            if f != goal and free[k] <= turn and (f or entry):
                return True
        return False

    def _decide(self, p: MinosPosition, kind: str, piece: int, die: int, events: list[str]) -> None:
        """Play the move of `kind` for `piece` (by `die`), legal, on the position up to the
        next decision, adding what it sets off to `events`: the one place a decision of King
        Minos is played."""
        p.memo = p.keys = None
        dice = p.dice
        if kind == DIE:  # (never played with an offer pending)
            dice = p.dice = dice[1:] if dice[0] == die else dice[:1]  # the die left, if any
            origin = p.pos[piece]
            offer, bumped = self._arrive_on(p, piece, self._target[origin * 8 + die], origin, True, events)
            mover = piece
        else:
            mover = bumped = -1
            origin = 0
            offer = None
            p.offer = None
            if kind == PASS:
                dice = p.dice = ()
            elif kind == RIDE or kind == CROSS:
                origin = p.pos[piece]
                if kind == RIDE:
                    p.rng, points = roll(p.rng)
                    end = self.ride_to[origin][points - 1]
                    events.append("rides")
                else:
                    end = self.partner[origin]
                    events.append("crossings")
                bumped = self._arrive_on(p, piece, end, origin, False, events)[1]
                mover = piece
        turn = p.turn
        seat = turn % p.seats
        if mover >= 0 and p.off[seat] == self.per:  # the mover bore off the seat's last piece
            p.winner = seat
        elif offer is not None:
            p.offer = (offer, piece)
        else:
            releases = p.releases
            if not dice and self.dice_count == 2 and turn not in releases and turn + 1 not in releases:
                # `_proceed_on` where the turn is over and no tunnel is due: the next seat rolls.
                p.turn = turn + 1
                p.rng, p.dice = self._roller.roll(p.rng, 2)
                if bumped >= 0:
                    events.append("swaps")
                return
            if len(dice) == 1 and p.seat_held[seat] <= turn and turn not in releases:
                # `_proceed_on`'s first test, made here: does the turn go on with the last die?
                out = p.out[seat]
                if out + p.off[seat] < self.per or (out and dice[0] == self.entry_face):
                    if bumped >= 0:
                        events.append("swaps")
                    return
            before = self._proceed_on(p, events, mover, origin, bumped)
            if before is not None:
                # A tunnel moved pieces too: the swaps are the pieces moved, less one.
                moved = sum(1 for k, f in enumerate(p.pos) if f != before[k])
                events += ["swaps"] * max(0, moved - 1)
                return
        if bumped >= 0:
            events.append("swaps")

    def _arrive_on(
        self, p: MinosPosition, piece: int, field: int, origin: int, offers: bool, events: list[str]
    ) -> tuple[str | None, int]:
        """Put `piece` on `field`, coming from `origin` (where it stands): follow forced moves,
        swap out an occupant (rule 3), apply the field; return the offer it makes (or None)
        and the piece it swapped out (or -1)."""
        landed, field = self._landing[field]
        events += landed
        pos, occ, sums, values = p.pos, p.occ, p.sums, self._values
        change = values[field] - values[origin]
        seat = piece // self.per
        sums[seat] += change
        p.total += change
        occ[origin] = -1
        if not origin:  # brought in from outside
            p.out[seat] -= 1
        if field == self.goal:
            p.off[seat] += 1
            pos[piece] = field
            p.free_at[piece] = 0
            return None, -1
        bumped = -1
        if not self.safe[field]:  # (a count back to its origin finds it empty: left just above)
            bumped = occ[field]
            if bumped >= 0:
                pos[bumped] = origin
                p.free_at[bumped] = 0
                if not origin:
                    p.out[bumped // self.per] += 1
                sums[bumped // self.per] -= change
                p.total -= change
                occ[origin] = bumped
        occ[field] = piece
        pos[piece] = field
        lost = self.trap[field]
        if lost:
            at = p.free_at[piece] = p.turn + p.seats * (lost + 1)
            if at > p.seat_held[seat]:
                p.seat_held[seat] = at
            if self.delayed[field]:
                p.releases.add(at)
            if piece not in p.held:
                insort(p.held, piece)
            return None, bumped
        return (self._offer_at[field] if offers else None), bumped

    def _proceed_on(
        self, p: MinosPosition, events: list[str], mover: int, origin: int, bumped: int
    ) -> list[int] | None:
        """Carry the game on until a decision is needed: release pieces due out of 52's
        tunnel (rule 2), go on while the turn does (both dice, or a last die that some piece
        can use), else roll for the next seat. Returns the fields before the decision (`mover`
        came from `origin`, swapping out `bumped`) if a tunnel moved a piece, else None."""
        pos, free, seats, per, entry = p.pos, p.free_at, p.seats, self.per, self.entry_face
        turn, dice = p.turn, p.dice
        before = None
        while True:
            seat = turn % seats
            k0 = seat * per
            if turn in p.releases:
                for k in range(k0, k0 + per):
                    exit_to = self.delayed[pos[k]]
                    if exit_to and free[k] == turn:
                        if before is None:
                            before = pos[:]
                            if bumped >= 0:
                                before[bumped] = pos[mover]
                            if mover >= 0:
                                before[mover] = origin
                        offer = self._arrive_on(p, k, exit_to, pos[k], True, events)[0]
                        if offer is not None:
                            p.dice, p.offer = dice, (offer, k)
                            return before
            if len(dice) == 2:
                break
            if dice:
                if p.seat_held[seat] > turn:
                    usable = self.can_use(pos, free, seat, dice[0], turn)
                else:
                    out = p.out[seat]
                    usable = out + p.off[seat] < per or (out > 0 and dice[0] == entry)
                if usable:
                    break
            turn += 1
            p.turn = turn
            p.rng, dice = self._roller.roll(p.rng, self.dice_count)
        p.dice = dice
        return before

    def _has_finished(self, pos: Sequence[int], seat: int) -> bool:
        goal = self.goal
        for k in range(seat * self.per, (seat + 1) * self.per):
            if pos[k] != goal:
                return False
        return True

    # -- evaluation for the greedy player ------------------------------------------------------

    def _field_values(self) -> list[float]:
        """A piece's worth on each field when free: borne off is worth most, outside least,
        and a piece waiting for 52's tunnel is worth where the tunnel leads."""
        values = [float(self.delayed[p] or p) for p in range(self.goal + 1)]
        values[OUTSIDE] = -12.0
        values[self.goal] = self.goal + 20.0
        return values

    def heuristic(self, state: MinosState | MinosPosition, seat: int) -> float:
        """Lower is better for `seat`: the opponents' mean progress (weighted 0.3) minus its
        own, in field values; bearing off counts most, waiting outside or on a trap costs
        (WAIT_COST a turn to sit out)."""
        per, values, turn, seats, free = self.per, self._values, state.turn, state.seats, state.free_at
        weight = self._weights[seats][seat]
        own = sum(map(values.__getitem__, state.pos[seat * per : (seat + 1) * per]))
        others = sum(map(values.__getitem__, state.pos)) - own
        total = weight[seat] * own + OTHERS_WEIGHT / max(1, seats - 1) * others
        if max(free) > turn:
            for k, at in enumerate(free):
                if at > turn:
                    total -= weight[k // per] * WAIT_COST * ((at - turn) // seats)
        return total

    def score_moves(self, state: MinosState | MinosPosition, moves: Sequence[Move], seat: int) -> list[float]:
        """`heuristic` after each move for the seat to move (another seat: after `apply`),
        with a die move valued with what the offer it makes is worth (`_die_scores`) and a
        ride or crossing at its mean over where it may end (`_offer_scores`)."""
        p = self._position(state)
        if seat != p.turn % p.seats:
            return [self.heuristic(self.apply(p.snapshot(), m), seat) for m in moves]
        base = self._base(p, seat)
        out = []
        for move in moves:
            if move.kind == DIE:
                out += self._die_scores(p, [([p.pos[move.piece]], move.die, [move.piece])], seat, base)
            elif move.kind == RIDE or move.kind == CROSS:
                out.append(self._offer_score(p, move.kind, move.piece, seat, base))
            else:
                out.append(base)
        return out

    def counted_best(self, state: MinosState | MinosPosition) -> tuple[int, Sequence[Move]]:
        """`count_moves` and `best_moves` at once, from the position's die moves (`_options`)
        worked out once: a single move is its own best, unscored."""
        if isinstance(state, MinosPosition) and state.offer is None and state.winner < 0:
            segments = state.keys
            if segments is None:
                segments = self._options(state)
            if len(segments) == 1:
                _, die, movers = segments[0]
                if len(movers) == 1:
                    return 1, self._alone[die][movers[0]]
                return len(movers), self._best(state, segments)
            if segments:
                return len(segments[0][2]) + len(segments[1][2]), self._best(state, segments)
        count = self.count_moves(state)
        return count, self.best_moves(state) if count else ()

    def best_moves(self, state: MinosState | MinosPosition) -> Sequence[Move]:
        """The greedy player's candidates: the legal moves of the lowest `score_moves`, in
        legal order (the die moves' found by `_best` without listing the others)."""
        p = state if isinstance(state, MinosPosition) else MinosPosition(self, state)
        if p.offer is None and p.winner < 0:
            segments = p.keys
            if segments is None:
                segments = self._options(p)
            if segments:
                if len(segments) == 1:
                    _, die, movers = segments[0]
                    if len(movers) == 1:
                        return self._alone[die][movers[0]]
                return self._best(p, segments)
        moves: Sequence[Move] | None = p.memo
        if moves is None:
            moves = self._legal_here(p)
        if len(moves) < 2:
            return moves
        if p.offer is not None:
            kind, piece = p.offer
            seat = p.turn % p.seats
            base = self._base(p, seat)
            taken = self._offer_score(p, kind, piece, seat, base)
            return moves if taken == base else moves[:1] if taken < base else moves[1:]
        return moves

    def _best(self, p: MinosPosition, segments: Sequence[tuple[list[int], int, list[int]]]) -> Sequence[Move]:
        """The die moves `segments` of the lowest score, in legal order."""
        seats = p.seats
        seat = p.turn % seats
        by = self._die_moves
        if p.held:
            scores = self._die_scores(p, segments, seat, self._base(p, seat))
            low = min(scores)
            moves = [by[die][k] for _, die, movers in segments for k in movers]
            if scores.count(low) == 1:
                return (moves[scores.index(low)],)
            return [move for move, score in zip(moves, scores, strict=True) if score == low]
        # `_base` and `_die_scores` without pieces sitting out, keeping the lowest as it goes
        # (a loop: cheaper than building the scores and searching them, for a few moves).
        own = p.sums[seat]
        base = -1.0 * own + self._others_weight[seats] * (p.total - own)
        occ, weight, ends = p.occ, self._piece_weights[seats][seat], self._ends
        low = _INFINITY
        found: list[Move] = []
        for starts, points, movers in segments:
            at, row = ends[points], by[points]
            i = 0
            for origin in starts:
                swap, origin_value, difference, tail = at[origin]
                score = base + origin_value + weight[occ[swap]] * difference + tail
                if score < low:
                    low, found = score, [row[movers[i]]]
                elif score == low:
                    found.append(row[movers[i]])
                i += 1
        return found

    def _base(self, p: MinosPosition, seat: int) -> float:
        """`heuristic` of the position for `seat`, from the running sums."""
        own = p.sums[seat]
        base = -1.0 * own + self._others_weight[p.seats] * (p.total - own)
        held = p.held
        if held:
            turn, seats, free = p.turn, p.seats, p.free_at
            weight = self._piece_weights[seats][seat]
            stale = False
            for k in held:
                at = free[k]
                if at > turn:
                    base -= weight[k] * WAIT_COST * ((at - turn) // seats)
                else:
                    stale = True
            if stale:
                p.held = [k for k in held if free[k] > turn]
        return base

    def _die_scores(
        self, p: MinosPosition, segments: Sequence[tuple[Sequence[int], int, Sequence[int]]], seat: int, base: float
    ) -> list[float]:
        """`heuristic` after each die move of the seat to move, given as (origins, points,
        pieces) in order, as `_options` gives them, `base` before: the mover's change and that
        of the piece it swaps out (which is freed; none weighs 0.0), from the table `_ends`,
        plus what the offer it makes is worth. Every field value is a whole number, so each
        score is the float the heuristic of the position after the move would give, operation
        for operation: ties, hence the player's draws, are the same."""
        occ, weight = p.occ, self._piece_weights[p.seats][seat]
        out: list[float] = []
        if p.held:  # (`_base` has just left only pieces that sit out in it)
            free, turn, seats = p.free_at, p.turn, p.seats
            for origins, points, _ in segments:
                for swap, origin_value, difference, tail in map(self._ends[points].__getitem__, origins):
                    other = occ[swap]
                    if other >= 0 and free[other] > turn:
                        difference += WAIT_COST * ((free[other] - turn) // seats)
                    out.append(base + origin_value + weight[other] * difference + tail)
            return out
        for origins, points, _ in segments:
            out += [
                base + origin_value + weight[occ[swap]] * difference + tail
                for swap, origin_value, difference, tail in map(self._ends[points].__getitem__, origins)
            ]
        return out

    def _offer_score(self, p: MinosPosition, kind: str, piece: int, seat: int, base: float) -> float:
        """`heuristic` after taking the offer made to `piece`: its mean over where the ride or
        crossing may end (`_offer_table`), with the piece swapped out there if any."""
        origin = p.pos[piece]
        values, occ, free, turn, seats = self._values, p.occ, p.free_at, p.turn, p.seats
        weight = self._piece_weights[seats][seat]
        terms = self._offer_terms[kind][origin]
        total = 0.0
        for at, change, swaps in terms:
            if swaps:
                other = occ[at]
                if other >= 0:
                    held = free[other]
                    worth = values[at] - WAIT_COST * ((held - turn) // seats) if held > turn else values[at]
                    change += weight[other] * (values[origin] - worth)
            total += change
        return base + total / len(terms)

    def _offer_table(self, offer: str) -> dict[int, tuple[tuple[int, float, bool], ...]]:
        """Per field where `offer` is made, per end of the ride or crossing: where the piece
        comes to rest, the change of `heuristic` from the piece itself (it weighs -1.0 for
        the seat to move), and whether a piece resting there would be swapped out."""
        values, goal, trap = self._values, self.goal, self.trap
        ends_of = self.ride_to if offer == RIDE else {f: (o,) for f, o in self.partner.items()}
        table = {}
        for origin, ends in ends_of.items():
            terms = []
            for end in ends:
                at = self.chain[end][-1]
                after = values[at] - WAIT_COST * (trap[at] + 1) if at != goal and trap[at] else values[at]
                terms.append(
                    (at, 0.0 + -1.0 * (after - values[origin]), at not in (origin, goal) and not self.safe[at])
                )
            table[origin] = tuple(terms)
        return table


class MinosPosition(Position):
    """A King Minos position played in place: the race's `Position` (its dice a tuple) with
    what the rules and the greedy player would otherwise search for kept up to date by
    `MinosGame._arrive_on`: the piece resting on each field (`occ`, -1 for none; exact
    where a piece can be swapped out, which holds one piece at most), each seat's sum of
    field values and their total (whole numbers, so exact), each seat's pieces outside
    (`out`) and borne off (`off`), the pieces that may sit out
    (`held`, in order), per seat a turn from which none of its pieces sits out, and the
    turns at which a piece may be due out of a tunnel (`releases`)."""

    __slots__ = ("occ", "sums", "total", "out", "off", "held", "seat_held", "releases", "keys")

    def __init__(self, game: MinosGame, state: RaceState | Position):
        super().__init__(state)
        pos, free, turn, per, goal = self.pos, self.free_at, self.turn, game.per, game.goal
        self.occ = [-1] * (goal + 2)
        for k in range(len(pos) - 1, -1, -1):  # the first piece on a field, as the rules find it
            if pos[k] != OUTSIDE and pos[k] != goal and not game.safe[pos[k]]:
                self.occ[pos[k]] = k
        self.sums = [sum(map(game._values.__getitem__, pos[s * per : (s + 1) * per])) for s in range(self.seats)]
        self.total = sum(self.sums)
        self.out = [pos[s * per : (s + 1) * per].count(OUTSIDE) for s in range(self.seats)]
        self.off = [pos[s * per : (s + 1) * per].count(goal) for s in range(self.seats)]
        self.held = [k for k, at in enumerate(free) if at > turn]
        self.seat_held = [max(free[s * per : (s + 1) * per]) for s in range(self.seats)]
        self.releases = {at for k, at in enumerate(free) if game.delayed[pos[k]]}
        self.keys: list[tuple[list[int], int, list[int]]] | None = None

    def copy(self) -> MinosPosition:
        """A twin to play on: every list and set its own, the rest shared (immutable)."""
        twin = MinosPosition.__new__(MinosPosition)
        twin.seats, twin.turn, twin.rng, twin.again = self.seats, self.turn, self.rng, self.again
        twin.pos, twin.free_at, twin.dice, twin.offer = self.pos.copy(), self.free_at.copy(), self.dice, self.offer
        twin.winner, twin.stuck, twin.route = self.winner, self.stuck.copy(), self.route.copy()
        twin.first_route, twin.deck, twin.landings = self.first_route.copy(), self.deck.copy(), self.landings.copy()
        twin.events, twin.rolls_again = self.events.copy(), self.rolls_again
        twin.chose, twin.memo = self.chose, self.memo
        twin.occ, twin.sums, twin.total, twin.out = self.occ.copy(), self.sums.copy(), self.total, self.out.copy()
        twin.off, twin.held, twin.seat_held = self.off.copy(), self.held.copy(), self.seat_held.copy()
        twin.releases, twin.keys = self.releases.copy(), self.keys
        return twin

    def snapshot(self) -> MinosState:
        """The position, frozen, with what the last decision did (`events`; `landings`: the
        fields it landed on, read from them)."""
        landings = tuple(int(event[7:]) for event in self.events if event.startswith("landed:"))
        return MinosState(
            self.seats,
            self.turn,
            tuple(self.pos),
            tuple(self.free_at),
            tuple(self.dice),
            self.offer,
            self.rng,
            self.winner,
            landings,
            events=tuple(self.events),
        )
