"""The sliding-corridor Labyrinth (game E): bitboard board, turn rules and the game classes.

Bit layout. Square (row, col) of a size x size board is bit ``row * stride + col`` with
``stride = size + 1``: the extra, always-empty column stops east/west shifts from wrapping
into the next row, so a flood fill is a handful of shifts and masks. The open sides of all
tiles on the board are four such ints, one per direction (``n``, ``e``, ``s``, ``w``).

A turn is two decisions, both made by the seat in `to_move`:

1. ``Shift(point, rotation)``: turn the spare ``rotation`` clockwise quarter turns and push
   it in at ``point``. Every tile of that line moves one square; the tile pushed off the far
   end is the next spare. Pawns ride their tiles; a pawn on the ejected tile wraps onto the
   inserted one. The point opposite the previous push is forbidden (it would undo it).
2. ``Walk(to)``: move the pawn to any square joined to it by open corridors, or stay.
   Ending the walk on the square of the treasure the player is looking for turns that card.

Decisions made where the rules are silent: seat ``i`` starts on ``layout.starts[i]`` and
seat 0 plays first; a card counts only where a walk ends (passing over a treasure does not);
with all cards turned, ending a walk on the start square wins at once. In the younger
players' variant (``YoungSlidingGame``) every card is visible, any of them may be found
next, and the last card found wins without a return home.

Reuse: `boardgen.rules.master` (Labyrinthe Master) builds on `Board`, `Geometry`, `Push`,
`ShiftMoves`, `push_pawns` and `shift_floods` with its own game class. Its tokens follow
the pawns' rule rather than the treasures' (a token on the ejected tile goes onto the
inserted one, never into the spare), so it keeps them as bit squares moved by `Push.carry`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from boardgen.model.sliding import Deal, InsertionPoint, SlidingLayout, deal
from boardgen.model.tiles import E, N, S, Tile, W, rotate
from boardgen.rules.protocol import Outcome

SHIFT, WALK = "shift", "walk"
# DRAWING[mask]: the box-drawing character of a tile open on the sides of `mask`.
DRAWING = "·╵╶└╷│┌├╴┘─┴┐┤┬┼"
SPARE = -1  # where a tile is when it is the spare rather than on a square


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in the given state."""


@dataclass(frozen=True)
class Shift:
    """First half of a turn: rotate the spare clockwise, then push it in at `point`."""

    point: InsertionPoint
    rotation: int = 0

    def __str__(self) -> str:
        return f"{self.point.label}+{self.rotation}"


@dataclass(frozen=True)
class Walk:
    """Second half of a turn: walk the pawn to (row, col), possibly where it already is."""

    to: tuple[int, int]

    def __str__(self) -> str:
        return f"->{self.to[0]},{self.to[1]}"


class Push(NamedTuple):
    """Precomputed bits for pushing one insertion point."""

    point: InsertionPoint
    line: int  # the squares of the line
    keep: int  # every other square of the board
    movers: int  # the line without the square whose tile gets ejected
    delta: int  # how far a bit moves (signed)
    entry: int  # square the spare lands on
    exit: int  # square whose tile is ejected
    order: tuple[int, ...]  # the line's squares from entry to exit
    halo: int  # the line and its neighbours: a push changes nothing elsewhere
    door: int  # the neighbours of the entry square: only they can lead onto the spare

    def move(self, bits: int, incoming: int) -> int:
        """Push a bitboard: the line moves one square, `incoming` (0/1) enters at entry."""
        moved = bits & self.movers
        moved = moved << self.delta if self.delta > 0 else moved >> -self.delta
        return (bits & self.keep) | moved | (incoming << self.entry)

    def carry(self, square: int) -> int:
        """Where a pawn on `square` ends up: ridden along the line, wrapped at the far end."""
        if square == self.exit:
            return self.entry
        if (self.line >> square) & 1:
            return square + self.delta
        return square

    def slide(self, square: int) -> int:
        """Where a tile on `square` ends up; the ejected one and the spare swap roles."""
        if square == SPARE:
            return self.entry
        if square == self.exit:
            return SPARE
        if (self.line >> square) & 1:
            return square + self.delta
        return square


class Geometry:
    """Bit masks for one board size and set of sliding lines."""

    def __init__(self, size: int, sliding_lines: Sequence[int]):
        self.size = size
        self.stride = stride = size + 1
        self.squares = tuple(r * stride + c for r in range(size) for c in range(size))
        self.full = sum(1 << sq for sq in self.squares)
        self.pushes: dict[InsertionPoint, Push] = {}
        for side in ("N", "E", "S", "W"):
            for index in sliding_lines:
                point = InsertionPoint(side, index)
                self.pushes[point] = self._push(point)
        self.points = tuple(self.pushes)
        # rings[sq][d]: squares at Manhattan distance d from sq, for "how close" questions.
        self.rings = {sq: self._rings(sq) for sq in self.squares}

    def bit(self, row: int, col: int) -> int:
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise ValueError(f"({row}, {col}) is off the {self.size}x{self.size} board")
        return row * self.stride + col

    def cell(self, square: int) -> tuple[int, int]:
        return divmod(square, self.stride)

    def cells(self, bits: int) -> Iterator[tuple[int, int]]:
        while bits:
            low = bits & -bits
            yield divmod(low.bit_length() - 1, self.stride)
            bits ^= low

    def distance(self, a: int, b: int) -> int:
        """Manhattan distance between two squares."""
        ra, ca = divmod(a, self.stride)
        rb, cb = divmod(b, self.stride)
        return abs(ra - rb) + abs(ca - cb)

    def nearest(self, bits: int, square: int) -> int:
        """Manhattan distance from `square` to the closest square of `bits` (bits non-empty)."""
        for d, ring in enumerate(self.rings[square]):
            if bits & ring:
                return d
        raise ValueError("no square to measure to")

    def _push(self, point: InsertionPoint) -> Push:
        size, stride, i = self.size, self.stride, point.index
        if point.side in ("N", "S"):
            order = [r * stride + i for r in range(size)]
            delta = stride
        else:
            order = [i * stride + c for c in range(size)]
            delta = 1
        if point.side in ("S", "E"):
            order.reverse()
            delta = -delta
        line = sum(1 << sq for sq in order)
        halo = line
        for sq in order:
            halo |= self._neighbours(sq)
        return Push(point, line, self.full & ~line, line & ~(1 << order[-1]), delta,
                    order[0], order[-1], tuple(order), halo, self._neighbours(order[0]))

    def _neighbours(self, square: int) -> int:
        r, c = divmod(square, self.stride)
        bits = 0
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < self.size and 0 <= c + dc < self.size:
                bits |= 1 << ((r + dr) * self.stride + c + dc)
        return bits

    def _rings(self, square: int) -> tuple[int, ...]:
        rings = [0] * (2 * self.size - 1)
        for other in self.squares:
            rings[self.distance(square, other)] |= 1 << other
        return tuple(rings)


def flood(seeds: int, ew: int, ns: int, stride: int) -> int:
    """Every square joined to `seeds` by open corridors.

    ``ew`` holds the squares open to their east neighbour with that neighbour open back,
    ``ns`` the same southwards; each round grows the set one step in all four directions.
    """
    reach = seeds
    while True:
        grown = (reach | ((reach & ew) << 1) | ((reach >> 1) & ew)
                 | ((reach & ns) << stride) | ((reach >> stride) & ns))
        if grown == reach:
            return reach
        reach = grown


@dataclass(frozen=True)
class Board:
    """Position data: which tile is on each square, the open sides, and the spare."""

    geometry: Geometry = field(repr=False, compare=False)
    table: tuple[Tile, ...] = field(repr=False, compare=False)
    tiles: tuple[int, ...]  # index into `table` per bit square, -1 in the padding column
    spare: int
    spare_mask: int
    n: int
    e: int
    s: int
    w: int

    @classmethod
    def from_deal(cls, the_deal: Deal, geometry: Geometry | None = None) -> Board:
        layout = the_deal.layout
        geometry = geometry or Geometry(layout.size, layout.sliding_lines)
        table = layout.all_tiles
        index = {tile.id: i for i, tile in enumerate(table)}
        tiles = [-1] * (geometry.size * geometry.stride)
        sides = {N: 0, E: 0, S: 0, W: 0}
        for row, line in enumerate(the_deal.grid):
            for col, tile in enumerate(line):
                square = geometry.bit(row, col)
                tiles[square] = index[tile.id]
                for side in sides:
                    if tile.mask & side:
                        sides[side] |= 1 << square
        return cls(geometry, table, tuple(tiles), index[the_deal.spare.id],
                   the_deal.spare.mask, sides[N], sides[E], sides[S], sides[W])

    @classmethod
    def from_text(cls, text: str, *, spare: str = "┼",
                  treasures: Mapping[tuple[int, int] | str, str] | None = None,
                  sliding_lines: Sequence[int] | None = None) -> Board:
        """A board drawn with box-drawing characters, one row per line (see `DRAWING`).

        `treasures` maps (row, col) or "spare" to a treasure id; sliding lines default to
        the odd rows and columns. Tiles are named "row-col" and "spare".
        """
        rows = [line.strip() for line in text.strip().splitlines()]
        size = len(rows)
        if any(len(row) != size for row in rows):
            raise ValueError(f"a drawn board must be square, got rows of {[len(r) for r in rows]}")
        masks = {char: mask for mask, char in enumerate(DRAWING)}
        unknown = sorted({c for row in rows for c in row + spare} - set(masks))
        if unknown:
            raise ValueError(f"unknown tile characters {''.join(unknown)!r}; use {DRAWING!r}")
        treasures = dict(treasures or {})
        geometry = Geometry(size, list(sliding_lines if sliding_lines is not None
                                       else range(1, size, 2)))
        table = [Tile(f"{r}-{c}", "drawn", masks[rows[r][c]], treasures.get((r, c)))
                 for r in range(size) for c in range(size)]
        table.append(Tile("spare", "drawn", masks[spare], treasures.get("spare")))
        tiles = [-1] * (size * geometry.stride)
        sides = {N: 0, E: 0, S: 0, W: 0}
        for index, tile in enumerate(table[:-1]):
            square = geometry.bit(*divmod(index, size))
            tiles[square] = index
            for side in sides:
                if tile.mask & side:
                    sides[side] |= 1 << square
        return cls(geometry, tuple(table), tuple(tiles), len(table) - 1, masks[spare],
                   sides[N], sides[E], sides[S], sides[W])

    def to_text(self) -> str:
        """The board drawn as `from_text` reads it (the spare is not shown)."""
        size = self.geometry.size
        return "\n".join("".join(DRAWING[self.mask_at(self.geometry.bit(r, c))]
                                 for c in range(size)) for r in range(size))

    def mask_at(self, square: int) -> int:
        return (((self.n >> square) & 1) | (((self.e >> square) & 1) << 1)
                | (((self.s >> square) & 1) << 2) | (((self.w >> square) & 1) << 3))

    def tile_at(self, row: int, col: int) -> Tile:
        square = self.geometry.bit(row, col)
        return self.table[self.tiles[square]].with_mask(self.mask_at(square))

    @property
    def spare_tile(self) -> Tile:
        return self.table[self.spare].with_mask(self.spare_mask)

    @property
    def grid(self) -> tuple[tuple[Tile, ...], ...]:
        size = self.geometry.size
        return tuple(tuple(self.tile_at(r, c) for c in range(size)) for r in range(size))

    def locate(self, tile: int) -> int:
        """The square of a tile (index into `table`), or SPARE."""
        if tile == self.spare:
            return SPARE
        return self.tiles.index(tile)

    def links(self) -> tuple[int, int]:
        """(ew, ns): squares joined to their east / south neighbour, for `flood`."""
        stride = self.geometry.stride
        return self.e & (self.w >> 1), self.s & (self.n >> stride)

    def reach(self, seeds: int) -> int:
        ew, ns = self.links()
        return flood(seeds, ew, ns, self.geometry.stride)

    def pushed(self, point: InsertionPoint, rotation: int = 0) -> Board:
        """The board after turning the spare and pushing it in at `point`."""
        push = self.geometry.pushes[point]
        mask = rotate(self.spare_mask, rotation)
        out = push.exit
        ejected_mask = self.mask_at(out)
        tiles = list(self.tiles)
        order = push.order
        ejected = tiles[out]
        for k in range(len(order) - 1, 0, -1):
            tiles[order[k]] = tiles[order[k - 1]]
        tiles[order[0]] = self.spare
        return Board(self.geometry, self.table, tuple(tiles), ejected, ejected_mask,
                     push.move(self.n, mask & 1), push.move(self.e, (mask >> 1) & 1),
                     push.move(self.s, (mask >> 2) & 1), push.move(self.w, (mask >> 3) & 1))


# _TURNED[mask][t]: the mask turned t clockwise quarter turns.
_TURNED = tuple(tuple(rotate(mask, t) for t in range(4)) for mask in range(16))


def distinct_rotations(mask: int) -> tuple[tuple[int, int], ...]:
    """(quarter turns, resulting mask) for each different orientation of a tile."""
    seen: dict[int, int] = {}
    for turns in range(4):
        seen.setdefault(rotate(mask, turns), turns)
    return tuple((turns, turned) for turned, turns in seen.items())


@dataclass(frozen=True)
class SlidingState:
    """Game state: the board, the pawns, every player's cards and whose decision it is."""

    board: Board
    pawns: tuple[int, ...]  # bit square per seat
    cards: tuple[tuple[str, ...], ...]  # per seat, cards still to find, top first
    dealt: int  # cards per seat at the start
    seat: int
    phase: str
    last: InsertionPoint | None  # the previous push; its opposite is forbidden
    turn: int  # complete turns played by all seats
    reach: int  # in the walk phase, the squares the mover can walk to
    winner: int | None = None
    seed: int = 0  # the seed the board and the cards were dealt with

    @property
    def forbidden(self) -> InsertionPoint | None:
        return None if self.last is None else self.last.opposite

    def pawn_cell(self, seat: int) -> tuple[int, int]:
        return self.board.geometry.cell(self.pawns[seat])

    def found(self, seat: int) -> int:
        return self.dealt - len(self.cards[seat])


class ShiftMoves:
    """`shifts` for a game class on a sliding board; the class sets ``geometry`` and an
    empty ``_shifts`` dict (the cache) in its ``__init__``."""

    geometry: Geometry
    _shifts: dict[tuple[InsertionPoint | None, int], tuple[Shift, ...]]

    def shifts(self, forbidden: InsertionPoint | None, spare_mask: int) -> tuple[Shift, ...]:
        """Every push allowed, one per insertion point and distinct orientation of the spare,
        grouped by insertion point."""
        key = (forbidden, spare_mask)
        moves = self._shifts.get(key)
        if moves is None:
            turns = distinct_rotations(spare_mask)
            moves = tuple(Shift(point, t) for point in self.geometry.points
                          if point != forbidden for t, _ in turns)
            self._shifts[key] = moves
        return moves


class SlidingGame(ShiftMoves):
    """The classic rules: find your cards in the order of your pile, then go home."""

    variant = "classic"
    needs_home = True

    def __init__(self, layout: SlidingLayout):
        self.layout = layout
        self.id = layout.id if self.variant == "classic" else f"{layout.id}:{self.variant}"
        self.geometry = Geometry(layout.size, layout.sliding_lines)
        self.homes = tuple(self.geometry.bit(*start.at) for start in layout.starts)
        table = layout.all_tiles
        self.tile_of = {t.treasure: i for i, t in enumerate(table) if t.treasure}
        self._shifts: dict[tuple[InsertionPoint | None, int], tuple[Shift, ...]] = {}
        stride = self.geometry.stride
        self._walks = {sq: Walk(divmod(sq, stride)) for sq in self.geometry.squares}
        self._last_state: SlidingState | None = None
        self._last_moves: Sequence[Shift | Walk] = ()

    # -- the protocol --------------------------------------------------------------------

    def initial_state(self, players: int, seed: int) -> SlidingState:
        if players not in self.layout.deal:
            raise ValueError(f"{self.layout.id!r} has no deal for {players!r} players")
        if players > len(self.homes):
            raise ValueError(f"{players!r} players but {len(self.homes)} starts")
        return self.start(Board.from_deal(deal(self.layout, seed), self.geometry), players,
                          seed)

    def start(self, board: Board, players: int, seed: int) -> SlidingState:
        """A new game on a given board: cards shuffled and dealt from `seed`."""
        deck = [t.id for t in self.layout.treasures]
        random.Random(f"{seed}/cards").shuffle(deck)
        size = self.layout.deal[players]
        cards = tuple(tuple(deck[i * size:(i + 1) * size]) for i in range(players))
        return SlidingState(board, self.homes[:players], cards, size, 0, SHIFT, None, 0, 0,
                            seed=seed)

    def to_move(self, state: SlidingState) -> int:
        return state.seat

    def turns_played(self, state: SlidingState) -> int:
        return state.turn

    def legal_moves(self, state: SlidingState) -> Sequence[Shift | Walk]:
        # Self-play asks twice in a row for the same state (simulation, then the player).
        if state is self._last_state:
            return self._last_moves
        if state.winner is not None:
            moves: Sequence[Shift | Walk] = ()
        elif state.phase == SHIFT:
            moves = self.shifts(state.forbidden, state.board.spare_mask)
        else:
            walks = self._walks
            moves = tuple(walks[sq] for sq in _squares(state.reach))
        self._last_state, self._last_moves = state, moves
        return moves

    def count_turns(self, state: SlidingState) -> int:
        """Complete turns (shift, distinct rotation, walk) on offer in a shift phase."""
        moves = self.legal_moves(state)
        return sum(reach.bit_count() for reach, _ in self.shift_reaches(state, moves))

    def apply(self, state: SlidingState, move: Shift | Walk) -> SlidingState:
        if state.winner is not None:
            raise IllegalMoveError(f"the game is over; {move} cannot be played")
        if state.phase == SHIFT:
            return self._apply_shift(state, move)
        return self._apply_walk(state, move)

    def outcome(self, state: SlidingState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(state.winner, state.turn, tuple(state.found(s) for s in
                                                       range(len(state.pawns))))

    # -- rules ----------------------------------------------------------------------------

    def _apply_shift(self, state: SlidingState, move: Shift | Walk) -> SlidingState:
        if not isinstance(move, Shift):
            raise IllegalMoveError(f"{move} is a walk but the turn starts with a shift")
        _, board, pawns, reach = push_pawns(self.geometry, state, move)
        return SlidingState(board, pawns, state.cards, state.dealt, state.seat, WALK,
                            move.point, state.turn, reach, None, state.seed)

    def _apply_walk(self, state: SlidingState, move: Shift | Walk) -> SlidingState:
        if not isinstance(move, Walk):
            raise IllegalMoveError(f"{move} is a shift but the pawn must walk now")
        square = self.geometry.bit(*move.to)
        if not (state.reach >> square) & 1:
            raise IllegalMoveError(
                f"{move.to} cannot be reached from {state.pawn_cell(state.seat)}")
        seat = state.seat
        walked = replace(state, pawns=state.pawns[:seat] + (square,) + state.pawns[seat + 1:])
        return self.end_turn(self.arrive(walked, square))

    def arrive(self, state: SlidingState, square: int) -> SlidingState:
        """The mover's walk ended on `square`: turn a card, perhaps win."""
        seat, cards = state.seat, state.cards
        mine = self.found_card(state, square)
        if mine is not None:
            left = tuple(c for c in cards[seat] if c != mine)
            cards = cards[:seat] + (left,) + cards[seat + 1:]
        winner = None
        if not cards[seat] and (not self.needs_home or square == self.homes[seat]):
            winner = seat
        return replace(state, cards=cards, winner=winner)

    def end_turn(self, state: SlidingState) -> SlidingState:
        """Pass the turn on (a variant with extra turns keeps the seat here)."""
        seat = state.seat if state.winner is not None else (state.seat + 1) % len(state.pawns)
        return replace(state, seat=seat, phase=SHIFT, turn=state.turn + 1, reach=0)

    def found_card(self, state: SlidingState, square: int) -> str | None:
        """The card the mover turns by ending a walk on `square`, if any."""
        for card in self.wanted(state.cards[state.seat]):
            if state.board.locate(self.tile_of[card]) == square:
                return card
        return None

    def wanted(self, cards: tuple[str, ...]) -> tuple[str, ...]:
        """The cards a player may find next: the top of the pile."""
        return cards[:1]

    def targets(self, state: SlidingState, seat: int, board: Board | None = None) -> int:
        """Squares the seat is heading for: wanted treasures on the board, or home."""
        board = board or state.board
        cards = state.cards[seat]
        if not cards:
            return 1 << self.homes[seat] if self.needs_home else 0
        bits = 0
        for card in self.wanted(cards):
            square = board.locate(self.tile_of[card])
            if square != SPARE:
                bits |= 1 << square
        return bits

    def heading(self, state: SlidingState, seat: int) -> tuple[list[int], int]:
        """What the seat is after: (tiles of the cards it may find, fixed squares)."""
        cards = state.cards[seat]
        if cards:
            return [self.tile_of[c] for c in self.wanted(cards)], 0
        return [], (1 << self.homes[seat]) if self.needs_home else 0

    # -- evaluation for players -----------------------------------------------------------

    def steps_left(self, state: SlidingState, seat: int) -> int:
        """Cards still to find, plus the walk home under the classic rules."""
        if state.winner == seat:
            return 0
        return len(state.cards[seat]) + (1 if self.needs_home else 0)

    def heuristic(self, state: SlidingState, seat: int) -> tuple[int, int]:
        """(steps left, distance to the nearest target); in the seat's walk phase, the best
        the walk can reach. A target on the spare counts as a board's width away."""
        steps = self.steps_left(state, seat)
        if steps == 0:
            return (0, 0)
        targets = self.targets(state, seat)
        if state.phase == WALK and state.seat == seat:
            return self._score_reach(state.reach, targets, steps)
        if not targets:
            return (steps, self.geometry.size)
        return (steps, self.geometry.nearest(targets, state.pawns[seat]))

    def _score_reach(self, reach: int, targets: int, steps: int) -> tuple[int, int]:
        if reach & targets:
            return (steps - 1, 0)
        if not targets:
            return (steps, self.geometry.size)
        nearest = self.geometry.nearest
        if targets & (targets - 1) == 0:
            return (steps, nearest(reach, targets.bit_length() - 1))
        return (steps, min(nearest(reach, sq) for sq in _squares(targets)))

    def score_moves(self, state: SlidingState, moves: Sequence[Shift | Walk],
                    seat: int) -> list[tuple[int, int]]:
        """`heuristic` of each move's result, without building the states."""
        if state.seat != seat:
            return [self.heuristic(self.apply(state, m), seat) for m in moves]
        steps = self.steps_left(state, seat)
        if state.phase == WALK:
            return self._score_walks(state, moves, seat, steps)
        score = self._score_reach
        # Many shifts leave the same squares in reach of the same targets: score each once.
        memo: dict[tuple[int, int], tuple[int, int]] = {}
        scores = []
        for pair in self.shift_reaches(state, moves):
            value = memo.get(pair)
            if value is None:
                value = memo[pair] = score(pair[0], pair[1], steps)
            scores.append(value)
        return scores

    def shift_reaches(self, state: SlidingState,
                      moves: Sequence[Shift]) -> Iterator[tuple[int, int]]:
        """For each shift of the mover: (squares its pawn can then walk to, its targets).

        The reaches come from `shift_floods`; the targets are worked out once per run of
        moves at the same insertion point (`legal_moves` lists them so).
        """
        seat = state.seat
        board = state.board
        wanted = [self.tile_of[c] for c in self.wanted(state.cards[seat])]
        before = [board.locate(t) for t in wanted]
        home = 0 if wanted else self.targets(state, seat)
        last = None
        for push, reach in shift_floods(self.geometry, board, state.pawns[seat], moves):
            if push is not last:
                last = push
                targets = home
                for sq in before:
                    sq = push.slide(sq)
                    if sq != SPARE:
                        targets |= 1 << sq
            yield reach, targets

    def _score_walks(self, state: SlidingState, moves: Sequence[Shift | Walk], seat: int,
                     steps: int) -> list[tuple[int, int]]:
        targets = self.targets(state, seat)
        geometry = self.geometry
        width = geometry.size
        scores = []
        for move in moves:
            square = geometry.bit(*move.to)
            if (targets >> square) & 1:
                scores.append((steps - 1, 0))
            elif targets:
                scores.append((steps, geometry.nearest(targets, square)))
            else:
                scores.append((steps, width))
        return scores


def push_pawns(geometry: Geometry, state: Any,
               move: Shift) -> tuple[Push, Board, tuple[int, ...], int]:
    """Play a shift's push on `state` (`SlidingState`, `MasterState`: any state with
    ``board``, ``pawns``, ``seat``, ``last`` and ``forbidden``): the push, the board after
    it, every pawn carried along its line, and the squares the mover can then walk to.

    Raises `IllegalMoveError` for a point that is not an insertion point or that would
    undo the previous push.
    """
    push = geometry.pushes.get(move.point)
    if push is None:
        raise IllegalMoveError(f"{move.point.label!r} is not an insertion point")
    if move.point == state.forbidden:
        raise IllegalMoveError(f"{move.point.label} would undo the previous push "
                               f"({state.last.label})")
    board = state.board.pushed(move.point, move.rotation)
    pawns = tuple(push.carry(sq) for sq in state.pawns)
    return push, board, pawns, board.reach(1 << pawns[state.seat])


def shift_floods(geometry: Geometry, board: Board, pawn: int,
                 moves: Sequence[Shift]) -> Iterator[tuple[Push, int]]:
    """For each shift in `moves`: its push and the squares the pawn on bit square `pawn` can
    then walk to (pawns ride the line they are on).

    Pushes the bitboards directly instead of building boards, once per run of moves at the
    same insertion point (`SlidingGame.shifts` lists them so), then adds the spare's
    orientation, flooding again only when the orientation can matter.
    """
    stride = geometry.stride
    turned = _TURNED[board.spare_mask]
    here = board.reach(1 << pawn)
    point = None
    for move in moves:
        if move.point is not point:
            point = move.point
            push = geometry.pushes[point]
            # `same`: the reach for every orientation of the spare, when it does not
            # depend on it; otherwise None and `closed` is where each flood starts.
            if not here & push.halo:
                # The line and its neighbours miss the pawn's corridors: nothing changes.
                same: int | None = here
            else:
                entry = push.entry
                n0, e0 = push.move(board.n, 0), push.move(board.e, 0)
                s0, w0 = push.move(board.s, 0), push.move(board.w, 0)
                seeds = 1 << push.carry(pawn)
                # Flood once with the inserted tile closed; its orientation only matters
                # if that flood reaches a door of the entry square or starts on it.
                closed = flood(seeds, e0 & (w0 >> 1), s0 & (n0 >> stride), stride)
                same = None if closed & push.door or seeds >> entry == 1 else closed
        if same is not None:
            yield push, same
            continue
        mask = turned[move.rotation]
        n = n0 | (mask & 1) << entry
        e = e0 | ((mask >> 1) & 1) << entry
        s = s0 | ((mask >> 2) & 1) << entry
        w = w0 | ((mask >> 3) & 1) << entry
        yield push, flood(closed, e & (w >> 1), s & (n >> stride), stride)


class YoungSlidingGame(SlidingGame):
    """The younger players' variant: all cards visible, any order, no return home."""

    variant = "young"
    needs_home = False

    def wanted(self, cards: tuple[str, ...]) -> tuple[str, ...]:
        return cards


VARIANTS: dict[str, type[SlidingGame]] = {"classic": SlidingGame, "young": YoungSlidingGame}


def find_variant(name: str) -> type[SlidingGame]:
    """The game class for a variant name."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}") from None


def _squares(bits: int) -> Iterator[int]:
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low
