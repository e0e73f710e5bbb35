"""A dice race on a track graph (`boardgen.model.race`): the engine every race game shares.

`RaceGame` plays the plain race the graph describes: each turn the seat to move rolls the
dice and moves one of its pieces forward by their sum along the graph, choosing at the
branches; a count never passes an "exact" field nor the goal (it comes back by the extra
points); where the count ends, the field acts: jumps and tunnels move the piece on at
once, "lose_turns" holds it (a tunnel out of such a field is taken at the start of its
owner's turn once the turns are lost), a piece reaching the goal leaves the board, and
the first seat with every piece off the board wins. Pieces may share fields.

A game with rules of its own subclasses it (King Minos, `boardgen.rules.minos`: two dice
used separately, pieces changing places, the Knight's Orbit and the Millstone) and
overrides the hooks: `_legal` (the decisions on offer), `_apply` (what a decision does),
`_arrive` (a piece coming to rest), and the greedy player's `heuristic`/`score_moves`.

A state (`RaceState`) holds every piece's field (`OUTSIDE` = 0 before the start, the
goal = borne off), the turn from which each piece may move again, the dice still to use,
a pending offer (for games that make one), the random generator (one int: splitmix64,
so states stay hashable and games reproducible), the winner and the fields the last
decision passed through (`landings`, for self-play counters). Seat ``turn % seats`` moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from boardgen.model.race import LOSE_TURNS, MOVE_ON, OUTSIDE, SANCTUARY, TUNNEL, TrackGraph
from boardgen.rules.protocol import Outcome

DIE, PASS = "die", "pass"
FACES = 6
OTHERS_WEIGHT = 0.3  # greedy play: the opponents' mean progress against one's own
_MASK = (1 << 64) - 1


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

    @property
    def seat(self) -> int:
        return self.turn % self.seats

    def lost_turns(self, piece: int) -> int:
        """How many of its owner's turns, from this one on, the piece still sits out."""
        return max(0, (self.free_at[piece] - self.turn) // self.seats)


def next_random(x: int) -> tuple[int, int]:
    """splitmix64: a fast generator whose whole state is one int, so states stay hashable."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


def roll(rng: int) -> tuple[int, int]:
    """The next generator state and a die from 1 to 6."""
    rng, z = next_random(rng)
    return rng, z % FACES + 1


class RaceGame:
    """The rules of a plain race on one track, precomputed (see the module doc)."""

    id = "race"

    def __init__(self, track: TrackGraph, *, players: tuple[int, int], pieces_per_player: int = 1,
                 dice: int = 2, game_id: str | None = None):
        self.track = track
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
        self.trap = [n.effect(LOSE_TURNS).turns if n and n.has(LOSE_TURNS) else 0  # type: ignore[union-attr]
                     for n in nodes]
        self.delayed = [0] * size
        for n in track.nodes:
            tunnel = n.effect(TUNNEL)
            if tunnel is not None and n.has(LOSE_TURNS):
                self.delayed[n.index] = tunnel.to
        # Where a piece coming to rest on a field ends up, through every forced move; and
        # where it must move on from at once, choosing the way (a "move_on" with a choice).
        self.chain: list[tuple[int, ...]] = [(OUTSIDE,)] + [track.rest(i) for i in track.indexes]
        self.ways_on: list[tuple[int, ...]] = [()] + [
            ways if len(ways) > 1 else () for ways in map(track.moves_on, track.indexes)]
        # ends[field][points]: where a forward count ends (before forced moves), one entry
        # per way the branches allow.
        most = FACES * dice
        self.ends: list[list[tuple[int, ...]]] = [
            [()] + [tuple(w[-1] for w in track.walks(f, p)) for p in range(1, most + 1)]
            for f in range(size)]
        self._distance = self._distances()
        self._cached: tuple[RaceState | None, tuple[Move, ...]] = (None, ())

    # -- the protocol --------------------------------------------------------------------------

    def initial_state(self, players: int, seed: int) -> RaceState:
        low, high = self.players
        if not low <= players <= high:
            raise ValueError(f"{self.id!r} is for {low} to {high} players, not {players!r}")
        rng = next_random(seed & _MASK)[1]
        count = players * self.per
        dice = []
        for _ in range(self.dice_count):
            rng, face = roll(rng)
            dice.append(face)
        return RaceState(players, 0, (OUTSIDE,) * count, (0,) * count, tuple(dice), None, rng)

    def to_move(self, state: RaceState) -> int:
        return state.turn % state.seats

    def turns_played(self, state: RaceState) -> int:
        return state.turn

    def legal_moves(self, state: RaceState) -> Sequence[Move]:
        cached_state, moves = self._cached
        if cached_state is not state:
            moves = self._legal(state)
            self._cached = (state, moves)
        return moves

    def apply(self, state: RaceState, move: Move) -> RaceState:
        if move not in self.legal_moves(state):
            raise IllegalMoveError(f"{move} is not legal here; legal: "
                                   f"{', '.join(map(str, self.legal_moves(state))) or 'none'}")
        return self._apply(state, move)

    def outcome(self, state: RaceState) -> Outcome | None:
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
        for k in range(seat * self.per, (seat + 1) * self.per):
            p = state.pos[k]
            if p == goal or state.free_at[k] > turn or p in seen:
                continue
            seen.add(p)
            out += [Move(DIE, points, k, way) for way in range(len(self.ends[p][points]))]
        return tuple(out) or (Move(PASS),)

    def _apply(self, state: RaceState, move: Move) -> RaceState:
        seats, turn = state.seats, state.turn
        pos, free = list(state.pos), list(state.free_at)
        landings: list[int] = []
        offer = None
        origin = pos[move.piece]
        if move.kind == DIE:
            offer = self._arrive(pos, free, move.piece, self.ends[origin][move.die][move.way], origin, turn,
                                 seats, landings, True)[0]
        elif move.kind == MOVE_ON:
            offer = self._arrive(pos, free, move.piece, self.ways_on[origin][move.way], origin, turn,
                                 seats, landings, True)[0]
        seat = turn % seats
        if pos[move.piece] == self.goal and self._has_finished(pos, seat):
            return RaceState(seats, turn, tuple(pos), tuple(free), (), None, state.rng, seat,
                             tuple(landings))
        if offer is not None:
            return RaceState(seats, turn, tuple(pos), tuple(free), (), (offer, move.piece), state.rng, -1,
                             tuple(landings))
        return self._go_on(seats, turn, pos, free, [], state.rng, landings)

    def _arrive(self, pos: list[int], free: list[int], piece: int, field: int, origin: int,
                turn: int, seats: int, landings: list[int],
                offers: bool) -> tuple[str | None, int]:
        """Put `piece` on `field` (coming from `origin`) and follow forced moves; a field
        that takes turns holds it. Returns the decision it asks for ("move_on" where the
        piece must move on and choose the way, else None) and the piece it displaced (-1
        here: pieces share fields in the plain race)."""
        chain = self.chain[field]
        landings.extend(chain)
        field = chain[-1]
        pos[piece] = field
        if field == self.goal:
            free[piece] = 0
            return None, -1
        if self.ways_on[field]:
            return MOVE_ON, -1
        lost = self.trap[field]
        if lost:
            free[piece] = turn + seats * (lost + 1)
        return None, -1

    def _go_on(self, seats: int, turn: int, pos: list[int], free: list[int], dice: list[int],
               rng: int, landings: list[int]) -> RaceState:
        """The state once the game has gone on to the next decision (see `_proceed`)."""
        turn, dice, rng, offer = self._proceed(seats, turn, pos, free, dice, rng, landings)
        return RaceState(seats, turn, tuple(pos), tuple(free), tuple(dice), offer, rng, -1, tuple(landings))

    def _proceed(self, seats: int, turn: int, pos: list[int], free: list[int], dice: list[int],
                 rng: int, landings: list[int]) -> tuple[int, list[int], int, tuple[str, int] | None]:
        """Carry the game on until a decision is needed: release pieces due out of a tunnel
        behind lost turns, end the turn and roll for the next seat when no die is left.
        Changes the lists; returns the turn, the dice, the generator and any offer made."""
        while True:
            seat = turn % seats
            for k in range(seat * self.per, (seat + 1) * self.per):
                exit_to = self.delayed[pos[k]]
                if exit_to and free[k] == turn:
                    offer = self._arrive(pos, free, k, exit_to, pos[k], turn, seats, landings, True)[0]
                    if offer is not None:
                        return turn, dice, rng, (offer, k)
            if self._turn_goes_on(pos, free, seat, dice, turn):
                return turn, dice, rng, None
            turn += 1
            dice = []
            for _ in range(self.dice_count):
                rng, face = roll(rng)
                dice.append(face)

    def _turn_goes_on(self, pos: Sequence[int], free: Sequence[int], seat: int, dice: Sequence[int],
                      turn: int) -> bool:
        """Whether the seat still has a decision to make with `dice` this turn."""
        return bool(dice)

    def _has_finished(self, pos: Sequence[int], seat: int) -> bool:
        return all(p == self.goal for p in pos[seat * self.per:(seat + 1) * self.per])

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
        own = sum(dist[p] for p in state.pos[seat * per:(seat + 1) * per])
        others = sum(dist[p] for p in state.pos) - own
        return own - OTHERS_WEIGHT / max(1, state.seats - 1) * others

    def score_moves(self, state: RaceState, moves: Sequence[Move], seat: int) -> list[float]:
        return [self.heuristic(self._apply(state, m), seat) for m in moves]
