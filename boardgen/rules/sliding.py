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
players' variant (``YoungSlidingGame``) every card is visible and any of them may be found
next; the players still go home, unless they agree not to (``YoungExitGame``, the `EXIT`
ending): then a player with every card turned wins by ending a walk on a square at the
board's edge whose tile opens off the board, leaving the labyrinth there.

Speed: the greedy player scores every shift of a turn; `Lanes` puts the boards after all
of them into one big int, so one flood finds every shift's reach (`SlidingGame.outlook`,
`best_moves`).

Reuse: `SlidingRules` is the shift, the walk and the turn that every game on this board
shares; `SlidingGame` (treasure cards) and `boardgen.rules.master.MasterGame` (Labyrinthe
Master: tokens that ride the tiles, wands for extra turns through `end_turn`) build on it.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress
from operator import getitem
from typing import Any, Generic, Literal, NamedTuple, TypeVar

from boardgen.model.sliding import Deal, InsertionPoint, SlidingLayout, deal, deal_draws
from boardgen.model.tiles import STEP, E, N, S, Tile, W, rotate
from boardgen.rules.draws import below
from boardgen.rules.protocol import Outcome
from boardgen.rules.simulate import GameRecord, Hook

SHIFT, WALK = "shift", "walk"
# DRAWING[mask]: the box-drawing character of a tile open on the sides of `mask`.
DRAWING = "·╵╶└╷│┌├╴┘─┴┐┤┬┼"
SPARE = -1  # where a tile is when it is the spare rather than on a square
# The array codes of unsigned machine words by width in bits (`Lanes.split`).
_WORD_CODES: dict[int, Literal["B", "H", "I", "Q"]] = {8: "B", 16: "H", 32: "I", 64: "Q"}


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in the given state."""


@dataclass(frozen=True)
class Shift:
    """First half of a turn: rotate the spare clockwise, then push it in at `point`."""

    point: InsertionPoint
    rotation: int = 0

    def __hash__(self) -> int:
        # Self-play looks shifts up in dicts every turn: hash the fields once.
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.point.side, self.point.index, self.rotation))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __reduce__(self) -> tuple[type[Shift], tuple[InsertionPoint, int]]:
        # Never carry the cached hash to another process (string hashes differ there).
        return (Shift, (self.point, self.rotation))

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
        self.opposites = tuple(self.points.index(p.opposite) for p in self.points)
        self.point_index = {point: i for i, point in enumerate(self.points)}
        # rings[sq][d]: squares at Manhattan distance d from sq, for "how close" questions.
        self.rings = {sq: self._rings(sq) for sq in self.squares}
        # For play without states (`SlidingGame.playout`): per push, where a pawn on each
        # square ends up (`Push.carry`), and the line as a slice of a list of the squares.
        # Both by the index of the point in `points`.
        span = size * stride
        self.carries = tuple(tuple(push.carry(sq) for sq in range(span))
                             for push in self.pushes.values())
        # And where the tile on each square lies (`Push.slide`), the spare's last (SPARE).
        self.slides = tuple((*(push.slide(sq) for sq in range(span)), push.slide(SPARE))
                            for push in self.pushes.values())
        self.slices = tuple(slice(min(push.order), max(push.order) + 1, abs(push.delta))
                            for push in self.pushes.values())

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
    ``ns`` the same southwards; each round grows the set one step east, then south, west
    and north, each step from what the steps before it reached (a corridor that turns in
    that order is followed in one round: a fifth fewer rounds than four steps at once).
    """
    reach = seeds
    while True:
        last = reach
        reach |= (reach & ew) << 1
        reach |= (reach & ns) << stride
        reach |= (reach >> 1) & ew
        reach |= (reach >> stride) & ns
        if reach == last:
            return reach


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
        table, index = _tables(layout)
        stride = geometry.stride
        tiles = [-1] * (geometry.size * stride)
        n = e = s = w = 0
        for row, line in enumerate(the_deal.grid):
            for col, tile in enumerate(line):
                square = row * stride + col
                tiles[square] = index[tile.id]
                mask, bit = tile.mask, 1 << square
                if mask & N:
                    n |= bit
                if mask & E:
                    e |= bit
                if mask & S:
                    s |= bit
                if mask & W:
                    w |= bit
        return cls(geometry, table, tuple(tiles), index[the_deal.spare.id],
                   the_deal.spare.mask, n, e, s, w)

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

    def pushed(self, point: InsertionPoint, rotation: int = 0,
               sides: tuple[int, int, int, int] | None = None) -> Board:
        """The board after turning the spare and pushing it in at `point`; `sides`, if
        known already, are its open sides (N, E, S, W) after the push."""
        push = self.geometry.pushes[point]
        out = push.exit
        ejected_mask = self.mask_at(out)
        tiles = list(self.tiles)
        order = push.order
        ejected = tiles[out]
        for k in range(len(order) - 1, 0, -1):
            tiles[order[k]] = tiles[order[k - 1]]
        tiles[order[0]] = self.spare
        if sides is None:
            mask = _TURNED[self.spare_mask][rotation % 4]
            sides = (push.move(self.n, mask & 1), push.move(self.e, (mask >> 1) & 1),
                     push.move(self.s, (mask >> 2) & 1), push.move(self.w, (mask >> 3) & 1))
        return Board(self.geometry, self.table, tuple(tiles), ejected, ejected_mask, *sides)


# _TURNED[mask][t]: the mask turned t clockwise quarter turns.
_TURNED = tuple(tuple(rotate(mask, t) for t in range(4)) for mask in range(16))
# _SIDE_DIGITS[side]: a byte translation from a tile's open sides to "1" if it opens on that
# side (N, E, S, W), else "0" (`SlidingRules.dealt`).
_SIDE_DIGITS = tuple(bytes(b"1"[0] if mask >> side & 1 else b"0"[0] for mask in range(256))
                     for side in range(4))


def _shuffle(getrandbits: Callable[[int], int], items: list[Any]) -> None:
    """`random.Random.shuffle` of `items` with that Random's `getrandbits`: the same draws
    (`_PLAIN_DRAWS`), without a method call per draw."""
    steps = _SHUFFLE_STEPS.get(len(items))
    if steps is None:
        steps = _SHUFFLE_STEPS[len(items)] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in range(len(items) - 1, 0, -1))
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


# _SHUFFLE_STEPS[length]: (position, bound, bits to draw) of each step of `_shuffle`.
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _plain_draws() -> bool:
    """Whether `random.Random` draws an index below n as self-play writes it out: bits of
    n's length until one is under n (`choice`, `shuffle`, `randrange`). Checked once, on
    this Python; if not, self-play calls the Random's methods instead."""
    ours, theirs = random.Random(20261123), random.Random(20261123)
    bits = ours.getrandbits
    for n in (1, 2, 3, 4, 5, 7, 8, 9, 31, 33, 48, 64, 100):
        for _ in range(8):
            k = n.bit_length()
            r = bits(k)
            while r >= n:
                r = bits(k)
            if theirs.choice(range(n)) != r or (n == 4 and theirs.randrange(4) != below(bits, 4)):
                return False
    mine, yours = list(range(40)), list(range(40))
    _shuffle(bits, mine)
    theirs.shuffle(yours)
    return mine == yours and bits(32) == theirs.getrandbits(32)


_PLAIN_DRAWS = _plain_draws()


def distinct_rotations(mask: int) -> tuple[tuple[int, int], ...]:
    """(quarter turns, resulting mask) for each different orientation of a tile: always
    0, 1, ... up to 1, 2 or 4 turns."""
    seen: dict[int, int] = {}
    for turns in range(4):
        seen.setdefault(rotate(mask, turns), turns)
    return tuple((turns, turned) for turned, turns in seen.items())


# _ORIENTATIONS[mask]: how many different ways a tile open on `mask` can lie.
_ORIENTATIONS = tuple(len(distinct_rotations(mask)) for mask in range(16))


@dataclass(frozen=True)
class Position:
    """What every game on the sliding board keeps in its state: the board, the pawns, and
    whose decision it is in which phase of which turn."""

    board: Board
    pawns: tuple[int, ...]  # bit square per seat
    seat: int
    phase: str
    last: InsertionPoint | None  # the previous push; its opposite is forbidden
    turn: int  # complete turns played by all seats
    reach: int  # in the walk phase, the squares the mover can walk to

    @property
    def forbidden(self) -> InsertionPoint | None:
        return None if self.last is None else self.last.opposite

    def pawn_cell(self, seat: int) -> tuple[int, int]:
        return self.board.geometry.cell(self.pawns[seat])


@dataclass(frozen=True)
class SlidingState(Position):
    """Game state: the `Position` and every player's cards."""

    cards: tuple[tuple[str, ...], ...]  # per seat, cards still to find, top first
    dealt: int  # cards per seat at the start
    winner: int | None = None
    seed: int = 0  # the seed the board and the cards were dealt with

    def found(self, seat: int) -> int:
        return self.dealt - len(self.cards[seat])


class Lanes:
    """Every shift on offer in one shift phase at once: lane ``k`` of a big int holds a
    bitboard after ``moves[k]``.

    Lane ``k`` is bits ``k * width`` to ``(k + 1) * width - 1`` (``width``: the board's bits
    and one more row, rounded up to a power of two, at least a byte). Pushing every lane is
    a few big-int operations (`push`), and so is a flood (`reaches` grows every lane's reach
    together). Lanes never leak into each other: a push moves bits only along their line,
    never off the board, and a flood or `grow` step only keeps bits on the board's squares.

    The moves depend only on the forbidden point and on how many distinct orientations the
    spare has, so one `Lanes` serves every shift phase with those two (`ShiftMoves.lanes`);
    the spare's open sides entering in each lane are kept per orientation (`incoming`).
    """

    def __init__(self, geometry: Geometry, moves: tuple[Shift, ...]):
        self.geometry = geometry
        self.moves = moves
        self.pushes = tuple(geometry.pushes[m.point] for m in moves)
        self.point_ids = tuple(geometry.points.index(m.point) for m in moves)
        # A lane also holds the row below the board, which a southward step reads (empty).
        width = 8
        while width < (geometry.size + 1) * geometry.stride:
            width *= 2
        self.width = width
        self.bits = width.bit_length() - 1  # lane k starts at bit k << bits
        self.lane_mask = (1 << width) - 1
        self.nbytes = len(moves) * width // 8  # bytes of an int holding every lane
        ones = keep = 0
        movers: dict[int, int] = {}
        for k, push in enumerate(self.pushes):
            at = k << self.bits
            ones |= 1 << at
            keep |= push.keep << at
            movers[push.delta] = movers.get(push.delta, 0) | push.movers << at
        self.ones = ones  # bit 0 of every lane
        self.keep = keep
        self.movers = tuple(movers.items())
        # The usual case, all four directions among the moves: (two shifts left, then two
        # right) as (distance, movers) for `SlidingGame.greedy_game`.
        left = sorted((d, m) for d, m in self.movers if d > 0)
        right = sorted((-d, m) for d, m in self.movers if d < 0)
        self.four: tuple[int, int, int, int, int, int, int, int] | None = None
        if len(left) == 2 and len(right) == 2:
            (a, m_a), (b, m_b) = left
            (c, m_c), (d, m_d) = right
            self.four = (a, m_a, b, m_b, c, m_c, d, m_d)
        self.full = geometry.full * ones
        self.folds = []  # (shift, mask) that fold a lane's bits down onto its bit 0
        half = width // 2
        while half:
            self.folds.append((half, ((1 << half) - 1) * ones))
            half //= 2
        self.index = {move: k for k, move in enumerate(moves)}
        self.count = len(moves)
        self.indices = tuple(range(len(moves)))
        self.spacing = width // 8  # bytes from one lane's first byte to the next one's
        # `chosen_indices` folds each lane onto its first 64-bit word (or byte, if narrower).
        self._words = width // 64
        self._byte_folds = [(shift, mask) for shift, mask in self.folds
                            if shift >= (64 if self._words else 8)]
        self._incoming: dict[int, tuple[int, int, int, int]] = {}
        # `ride`: per direction, the lanes' exit squares and how far their bits wrap back to
        # the entry squares; `slid` of the spare: every lane's entry square.
        wraps: dict[int, int] = {}
        entries = 0
        for k, push in enumerate(self.pushes):
            wraps[push.delta] = wraps.get(push.delta, 0) | 1 << (push.exit + (k << self.bits))
            entries |= 1 << (push.entry + (k << self.bits))
        back = geometry.size - 1
        self._wraps = tuple((exits, delta * back) for delta, exits in wraps.items())
        # `split`: the array code of one lane, if a lane is one machine word or narrower.
        self._code = _WORD_CODES.get(width)
        # By bit square: where a pawn there stands in each lane (`carried`), and where the
        # tile there lies (`slid`; the spare's entry squares last, at index SPARE).
        span = range(geometry.size * geometry.stride)
        self.carries = tuple(self.ride(1 << square) for square in span)
        self.slides = (*(self.push(1 << square, 0) for square in span), entries)

    def incoming(self, spare_mask: int) -> tuple[int, int, int, int]:
        """Per side (N, E, S, W): the lanes' entry squares where the spare, turned as the
        lane's move turns it, is open on that side."""
        sides = self._incoming.get(spare_mask)
        if sides is None:
            found = [0, 0, 0, 0]
            for k, (move, push) in enumerate(zip(self.moves, self.pushes, strict=True)):
                mask = _TURNED[spare_mask][move.rotation]
                for side in range(4):
                    if (mask >> side) & 1:
                        found[side] |= 1 << (push.entry + (k << self.bits))
            sides = self._incoming[spare_mask] = (found[0], found[1], found[2], found[3])
        return sides

    def push(self, bits: int, incoming: int) -> int:
        """A bitboard pushed by every lane's move, `incoming` entering at each entry."""
        copies = bits * self.ones
        out = (copies & self.keep) | incoming
        for delta, movers in self.movers:
            moved = copies & movers
            out |= moved << delta if delta > 0 else moved >> -delta
        return out

    def flooded(self, n: int, e: int, s: int, w: int, spare_mask: int,
                seeds: int) -> tuple[int, int, int, int, int]:
        """`reaches` from the open sides of a board and its spare, without a `Board`: every
        lane's squares joined to its `seeds`, then the lanes' open sides (N, E, S, W)."""
        sides = self._incoming.get(spare_mask)
        n_in, e_in, s_in, w_in = sides if sides is not None else self.incoming(spare_mask)
        if self.four is None:
            push = self.push
            ln, le, ls, lw = push(n, n_in), push(e, e_in), push(s, s_in), push(w, w_in)
        else:  # `push` of each side, written out
            ones, keep, (a, m_a, b, m_b, c, m_c, d, m_d) = self.ones, self.keep, self.four
            copies = n * ones
            ln = ((copies & keep) | n_in | (copies & m_a) << a | (copies & m_b) << b
                  | (copies & m_c) >> c | (copies & m_d) >> d)
            copies = e * ones
            le = ((copies & keep) | e_in | (copies & m_a) << a | (copies & m_b) << b
                  | (copies & m_c) >> c | (copies & m_d) >> d)
            copies = s * ones
            ls = ((copies & keep) | s_in | (copies & m_a) << a | (copies & m_b) << b
                  | (copies & m_c) >> c | (copies & m_d) >> d)
            copies = w * ones
            lw = ((copies & keep) | w_in | (copies & m_a) << a | (copies & m_b) << b
                  | (copies & m_c) >> c | (copies & m_d) >> d)
        stride = self.geometry.stride
        return flood(seeds, le & (lw >> 1), ls & (ln >> stride), stride), ln, le, ls, lw

    def sides(self, board: Board) -> tuple[int, int, int, int]:
        """The open sides (N, E, S, W) of every lane's board after its move."""
        n_in, e_in, s_in, w_in = self.incoming(board.spare_mask)
        push = self.push
        return push(board.n, n_in), push(board.e, e_in), push(board.s, s_in), push(board.w, w_in)

    def reaches(self, board: Board, seeds: int) -> tuple[int, tuple[int, int, int, int]]:
        """Every lane's squares joined to its `seeds` on `board` after the lane's move, and
        the lanes' open sides (`sides`) they were flooded on."""
        sides = n, e, s, w = self.sides(board)
        stride = self.geometry.stride
        return flood(seeds, e & (w >> 1), s & (n >> stride), stride), sides

    def ride(self, bits: int) -> int:
        """Every lane's `bits` after its push, as pawns ride it: along the line, and from
        the tile pushed off onto the one pushed in (`Push.move` with the exit's bit)."""
        copies = bits * self.ones
        out = copies & self.keep
        for delta, movers in self.movers:
            moved = copies & movers
            out |= moved << delta if delta > 0 else moved >> -delta
        for exits, back in self._wraps:
            wrapped = copies & exits
            if wrapped:
                out |= wrapped >> back if back > 0 else wrapped << -back
        return out

    def carried(self, square: int) -> int:
        """Where a pawn on `square` stands in each lane (`Push.carry`)."""
        return self.carries[square]

    def slid(self, square: int) -> int:
        """Where the tile on `square` (or the spare, `SPARE`) lies in each lane; nothing in
        the lanes where it is pushed off and becomes the spare (`Push.slide`)."""
        return self.slides[square]

    def split(self, bits: int) -> list[int]:
        """Every lane of `bits` as a plain bitboard, in lane order."""
        if self._code is not None:
            return memoryview(bits.to_bytes(self.nbytes, sys.byteorder)).cast(self._code).tolist()
        data, size = bits.to_bytes(self.nbytes, "little"), self.width // 8
        return [int.from_bytes(data[at:at + size], "little") for at in range(0, self.nbytes, size)]

    def exits(self, board: Board, edges: tuple[int, int, int, int]) -> int:
        """Every lane's squares at the board's edge whose tile opens off the board;
        `edges` are the squares along the N, E, S and W sides."""
        n, e, s, w = self.sides(board)
        ones = self.ones
        return ((n & edges[0] * ones) | (e & edges[1] * ones) | (s & edges[2] * ones)
                | (w & edges[3] * ones))

    def grow(self, bits: int) -> int:
        """Every lane's squares one step (Manhattan, walls ignored) from its `bits`, or on them."""
        stride = self.geometry.stride
        return (bits | bits << 1 | bits >> 1 | bits << stride | bits >> stride) & self.full

    def flags(self, bits: int) -> int:
        """Bit 0 of each lane set where that lane of `bits` is not empty."""
        for shift, mask in self.folds:
            bits = (bits | bits >> shift) & mask
        return bits

    def chosen(self, flags: int) -> list[Shift]:
        """The moves of the lanes whose bit 0 is set in `flags`, in order."""
        return list(compress(self.moves, flags.to_bytes(self.nbytes, "little")[::self.width // 8]))

    def chosen_indices(self, bits: int) -> list[int]:
        """The indices of the lanes where `bits` is not empty, in order."""
        for shift, mask in self._byte_folds:
            bits = (bits | bits >> shift) & mask
        if self._words:  # a lane is one or more 64-bit words: test its first word
            return list(compress(self.indices, memoryview(
                bits.to_bytes(self.nbytes, sys.byteorder)).cast("Q")[::self._words]))
        return list(compress(self.indices, bits.to_bytes(self.nbytes, "little")[::self.spacing]))

    def lane(self, bits: int, k: int) -> int:
        """Lane `k` of `bits` as a plain bitboard."""
        return (bits >> (k << self.bits)) & self.lane_mask


class ShiftMoves:
    """`shifts` and `lanes` for a game class on a sliding board; the class sets
    ``geometry`` and an empty ``_lanes`` dict (the cache) in its ``__init__``."""

    geometry: Geometry
    _lanes: dict[tuple[InsertionPoint | None, int], Lanes]

    def shifts(self, forbidden: InsertionPoint | None, spare_mask: int) -> tuple[Shift, ...]:
        """Every push allowed, one per insertion point and distinct orientation of the spare,
        grouped by insertion point."""
        return self.lanes(forbidden, spare_mask).moves

    def lanes(self, forbidden: InsertionPoint | None, spare_mask: int) -> Lanes:
        """The shifts of `shifts` as `Lanes`, made once per forbidden point and number of
        distinct orientations of the spare."""
        key = (forbidden, _ORIENTATIONS[spare_mask])
        lanes = self._lanes.get(key)
        if lanes is None:
            moves = tuple(Shift(point, t) for point in self.geometry.points
                          if point != forbidden for t in range(key[1]))
            lanes = self._lanes[key] = Lanes(self.geometry, moves)
        return lanes


StateT = TypeVar("StateT", bound=Position)
T = TypeVar("T")


class SlidingRules(ShiftMoves, Generic[StateT]):
    """What every game on the sliding board shares: the layout's geometry and starts, the
    shift (push, pawns riding their line) and the walk, the legal moves of both, and a turn
    that ends with `end_turn`.

    A game on this board (`SlidingGame`, `boardgen.rules.master.MasterGame`) provides its
    state type and: `is_over`, `shifted` (the state after a push), `arrive` (the mover's
    walk ends on a square) and `end_turn` (who decides next); a game with decisions other
    than shifts and walks also `other_moves` and `apply_other`.
    """

    def __init__(self, layout: SlidingLayout):
        self.layout = layout
        self.id = layout.id
        self.geometry = Geometry(layout.size, layout.sliding_lines)
        self.homes = tuple(self.geometry.bit(*start.at) for start in layout.starts)
        self._lanes: dict[tuple[InsertionPoint | None, int], Lanes] = {}
        stride = self.geometry.stride
        self._walks = {sq: Walk(divmod(sq, stride)) for sq in self.geometry.squares}
        # _walk_bytes[i][b]: the walks to the squares of bits b of byte i of a bitboard.
        self._walk_bytes = tuple(
            tuple(tuple(self._walks[8 * i + bit] for bit in range(8)
                        if (byte >> bit) & 1 and 8 * i + bit in self._walks) for byte in range(256))
            for i in range(-(-self.geometry.full.bit_length() // 8)))
        # _square_bytes[i][b]: the squares of bits b of byte i of a bitboard.
        self._square_bytes = tuple(
            tuple(tuple(8 * i + bit for bit in range(8)
                        if (byte >> bit) & 1 and 8 * i + bit in self._walks) for byte in range(256))
            for i in range(-(-self.geometry.full.bit_length() // 8)))
        # `_fast_lane`: the lanes by forbidden point (its index, -1 for none) and spare.
        self._fast_lanes: dict[int, Lanes] = {}
        # `dealt`: free squares, fixed tiles, their sides, loose tiles and their masks.
        self._dealer: tuple[tuple[int, ...], list[int], bytes, tuple[int, ...],
                            tuple[tuple[int, ...], ...]] | None = None
        self._last_state: StateT | None = None
        self._last_moves: Sequence[Any] = ()
        # The last `lane_reaches`: (board, forbidden, pawn, lanes, reaches), so the shift
        # a player picks from them is applied without flooding its board again.
        self._last_reaches: tuple[Board, InsertionPoint | None, int, Lanes, int,
                                  tuple[int, int, int, int]] | None = None

    # -- what a game on this board provides --------------------------------------------------

    def is_over(self, state: StateT) -> bool:
        raise NotImplementedError

    def shifted(self, state: StateT, push: Push, board: Board, pawns: tuple[int, ...],
                reach: int) -> StateT:
        """The state after the mover's push: `board`, every pawn carried, the mover's
        `reach`; the walk comes next."""
        raise NotImplementedError

    def arrive(self, state: StateT, square: int) -> StateT:
        """The mover's walk ends on `square` (the pawn still stands where it started)."""
        raise NotImplementedError

    def end_turn(self, state: StateT) -> StateT:
        """After a complete turn: whose decision comes next (a game with extra turns keeps
        the seat here)."""
        raise NotImplementedError

    def other_moves(self, state: StateT) -> Sequence[Any]:
        """The moves of a phase that is neither a shift nor a walk."""
        return ()

    def apply_other(self, state: StateT, move: Any) -> StateT:
        raise IllegalMoveError(f"{move} cannot be played in the {state.phase} phase")

    def initial_state(self, players: int, seed: int) -> StateT:
        raise NotImplementedError

    def best_moves(self, state: StateT) -> Sequence[Any]:
        """The greedy player's best moves, in the order it draws among them."""
        raise NotImplementedError

    def outcome(self, state: StateT) -> Outcome | None:
        raise NotImplementedError

    def state_playout(self, seats: int, seed: int, turn_cap: int, hook: Hook | None) -> GameRecord:
        """Greedy self-play through the states (any hook sees each decision): the game and the
        record `play` gives, decision by decision, without the protocol's round trips."""
        choice = random.Random(seed).choice
        state = self.initial_state(seats, seed)
        lanes, best, apply = self.lanes, self.best_moves, self.apply
        decisions = offered = widest = 0
        counters: dict[str, float] = {}
        while not self.is_over(state) and state.turn < turn_cap:
            # As many moves as `legal_moves` lists: the shifts, a walk per square in reach, or
            # the moves of another phase.
            phase = state.phase
            count = (len(lanes(state.forbidden, state.board.spare_mask).moves) if phase == SHIFT
                     else state.reach.bit_count() if phase == WALK else len(self.other_moves(state)))
            offered += count
            if count > widest:
                widest = count
            move = choice(best(state))
            after = apply(state, move)
            if hook is not None:
                for key, value in hook(state, move, after).items():
                    counters[key] = counters.get(key, 0.0) + value
            state = after
            decisions += 1
        outcome = self.outcome(state)
        if outcome is None:
            return GameRecord(seed, seats, None, turn_cap, False, decisions, offered, widest,
                              counters)
        return GameRecord(seed, seats, outcome.winner, outcome.turns, True, decisions, offered,
                          widest, counters, outcome.scores)

    # -- the protocol ------------------------------------------------------------------------

    def to_move(self, state: StateT) -> int:
        return state.seat

    def turns_played(self, state: StateT) -> int:
        return state.turn

    def legal_moves(self, state: StateT) -> Sequence[Any]:
        # Self-play asks twice in a row for the same state (simulation, then the player).
        if state is self._last_state:
            return self._last_moves
        moves: Sequence[Any]
        if self.is_over(state):
            moves = ()
        elif state.phase == SHIFT:
            moves = self.shifts(state.forbidden, state.board.spare_mask)
        elif state.phase == WALK:
            moves = self.walks(state.reach)
        else:
            moves = self.other_moves(state)
        self._last_state, self._last_moves = state, moves
        return moves

    def walks(self, squares: int) -> tuple[Walk, ...]:
        """The walks to the squares of a bitboard, in square order."""
        table = self._walk_bytes
        data = squares.to_bytes(len(table), "little")
        return tuple(chain.from_iterable(map(getitem, table, data)))

    def apply(self, state: StateT, move: Any) -> StateT:
        if self.is_over(state):
            raise IllegalMoveError(f"the game is over; {move} cannot be played")
        if state.phase == SHIFT:
            return self._apply_shift(state, move)
        if state.phase == WALK:
            return self._apply_walk(state, move)
        return self.apply_other(state, move)

    def _apply_shift(self, state: StateT, move: Any) -> StateT:
        if not isinstance(move, Shift):
            raise IllegalMoveError(f"{move} is a {_kind(move)} but the turn starts with a shift")
        forbidden = state.forbidden
        last = self._last_reaches
        if (last is not None and last[0] is state.board and last[2] == state.pawns[state.seat]
                and last[1] == forbidden):
            lanes = last[3]
            k = lanes.index.get(move)
            if k is not None:
                # The player chose among the shifts just flooded (all of them allowed): take
                # the board and the reach from there.
                _, _, _, _, reaches, sides = last
                push, lane = lanes.pushes[k], lanes.lane
                board = state.board.pushed(move.point, move.rotation, (
                    lane(sides[0], k), lane(sides[1], k), lane(sides[2], k), lane(sides[3], k)))
                carried = self.geometry.carries[lanes.point_ids[k]].__getitem__
                return self.shifted(state, push, board, tuple(map(carried, state.pawns)),
                                    lane(reaches, k))
        found = self.geometry.pushes.get(move.point)
        if found is None:
            raise IllegalMoveError(f"{move.point.label!r} is not an insertion point")
        if move.point == forbidden:
            raise IllegalMoveError(f"{move.point.label} would undo the previous push "
                                   f"({state.last.label if state.last else '-'})")
        carry = found.carry
        pawns = tuple(carry(sq) for sq in state.pawns)
        board = state.board.pushed(move.point, move.rotation)
        return self.shifted(state, found, board, pawns, board.reach(1 << pawns[state.seat]))

    def _apply_walk(self, state: StateT, move: Any) -> StateT:
        if not isinstance(move, Walk):
            raise IllegalMoveError(f"{move} is a {_kind(move)} but the pawn must walk (or stay) now")
        square = self.geometry.bit(*move.to)
        if not (state.reach >> square) & 1:
            raise IllegalMoveError(f"{move.to} cannot be reached from "
                                   f"{self.geometry.cell(state.pawns[state.seat])}")
        return self.end_turn(self.arrive(state, square))

    def dealt(self, seed: int) -> tuple[int, int, int, int, list[int], int, int]:
        """The board `deal` gives for `seed` as plain data, without its tiles or a `Board`:
        (n, e, s, w, tile per bit square, spare tile, spare's open sides), as in `Board`.

        The draws of `deal_draws` are made here without a method call each (`_shuffle`,
        `_PLAIN_DRAWS`), and the open sides are read off one byte per square."""
        layout = self.layout
        if self._dealer is None:
            table, index = _tables(layout)
            stride = self.geometry.stride
            base = [-1] * (layout.size * stride)
            masks = bytearray(layout.size * stride)
            empty = []
            for row in range(layout.size):
                for col in range(layout.size):
                    square = row * stride + col
                    fixed = layout.fixed.get((row, col))
                    if fixed is None:
                        empty.append(square)
                        continue
                    base[square] = index[fixed.id]
                    masks[square] = fixed.mask
            self._dealer = (tuple(empty), base, bytes(masks),
                            tuple(index[t.id] for t in layout.loose),
                            tuple(_TURNED[t.mask] for t in layout.loose))
        free, fixed_tiles, fixed_masks, loose, turned = self._dealer
        if _PLAIN_DRAWS:
            bits = random.Random(seed).getrandbits
            order = list(range(len(loose)))
            _shuffle(bits, order)
            turns = []
            for _ in order:  # randrange(4): three bits until under 4
                t = bits(3)
                while t >= 4:
                    t = bits(3)
                turns.append(t)
        else:
            order, turns = deal_draws(layout, seed)
        tiles = fixed_tiles.copy()
        masks = bytearray(fixed_masks)
        for square, i, t in zip(free, order, turns, strict=False):
            tiles[square] = loose[i]
            masks[square] = turned[i][t]
        # One side's bitboard: a "1" per square open on that side, read as a binary number.
        digits = masks[::-1]
        last = len(free)
        return (int(digits.translate(_SIDE_DIGITS[0]), 2), int(digits.translate(_SIDE_DIGITS[1]), 2),
                int(digits.translate(_SIDE_DIGITS[2]), 2), int(digits.translate(_SIDE_DIGITS[3]), 2),
                tiles, loose[order[last]], turned[order[last]][turns[last]])

    def _fast_lane(self, forbidden: int, spare_mask: int) -> Lanes:
        """`lanes` by the index of the forbidden point (-1 for none), kept in `_fast_lanes`
        under ``forbidden * 8 + orientations of the spare``."""
        lanes = self.lanes(None if forbidden < 0 else self.geometry.points[forbidden], spare_mask)
        self._fast_lanes[forbidden * 8 + _ORIENTATIONS[spare_mask]] = lanes
        return lanes

    # -- looking ahead -----------------------------------------------------------------------

    def lane_reaches(self, board: Board, forbidden: InsertionPoint | None,
                     pawn: int) -> tuple[Lanes, int]:
        """Every shift allowed on `board` as `Lanes`, and in each lane the squares the pawn
        on `pawn` can walk to after that shift."""
        lanes = self.lanes(forbidden, board.spare_mask)
        last = self._last_reaches
        if last is not None and last[0] is board and last[1] == forbidden and last[2] == pawn:
            return lanes, last[4]
        reaches, sides = lanes.reaches(board, lanes.carried(pawn))
        self._last_reaches = (board, forbidden, pawn, lanes, reaches, sides)
        return lanes, reaches


@dataclass(frozen=True)
class Ending:
    """How a player with every card turned wins: by walking home to the start square
    (``home``), or, when the players agree so in the younger players' variant, by leaving
    the labyrinth through any corridor that opens off the board's edge (``exit``)."""

    name: str


HOME, EXIT = Ending("home"), Ending("exit")


class SlidingGame(SlidingRules[SlidingState]):
    """The classic rules: find your cards in the order of your pile, then go home."""

    variant = "classic"
    ending = HOME

    def __init__(self, layout: SlidingLayout):
        super().__init__(layout)
        if self.variant != "classic":
            self.id = f"{layout.id}:{self.variant}"
        self.tile_of = {t.treasure: i for i, t in enumerate(layout.all_tiles) if t.treasure}
        self._deck: tuple[int, ...] | None = None  # the cards by tile, for `greedy_game`
        geometry = self.geometry
        last = geometry.size - 1
        edge = {side: sum(1 << geometry.bit(*cell) for cell in cells) for side, cells in (
            (N, [(0, c) for c in range(geometry.size)]), (S, [(last, c) for c in range(geometry.size)]),
            (W, [(r, 0) for r in range(geometry.size)]), (E, [(r, last) for r in range(geometry.size)]))}
        self.edges = (edge[N], edge[E], edge[S], edge[W])  # squares on each side of the board

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
        cards = self.deal_cards([t.id for t in self.layout.treasures], players, seed)
        return SlidingState(board, self.homes[:players], 0, SHIFT, None, 0, 0, cards,
                            self.layout.deal[players], seed=seed)

    def deal_cards(self, deck: list[T], players: int, seed: int) -> tuple[tuple[T, ...], ...]:
        """Each seat's pile: `deck` (the treasures in layout order, by id or by tile) shuffled
        with `seed`, and dealt in blocks."""
        rng = random.Random(f"{seed}/cards")
        if _PLAIN_DRAWS:
            _shuffle(rng.getrandbits, deck)
        else:
            rng.shuffle(deck)
        size = self.layout.deal[players]
        fewer = self.layout.first_seat_fewer_cards  # the compensation: the first seat's last cards stay out
        return tuple(tuple(deck[i * size:(i + 1) * size - (fewer if i == 0 else 0)]) for i in range(players))

    def is_over(self, state: SlidingState) -> bool:
        return state.winner is not None

    def count_turns(self, state: SlidingState) -> int:
        """Complete turns (shift, distinct rotation, walk) on offer in a shift phase."""
        return self.outlook(state)[1].bit_count()

    def outcome(self, state: SlidingState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(state.winner, state.turn, tuple(state.found(s) for s in
                                                       range(len(state.pawns))))

    # -- rules ----------------------------------------------------------------------------

    def shifted(self, state: SlidingState, push: Push, board: Board, pawns: tuple[int, ...],
                reach: int) -> SlidingState:
        return SlidingState(board, pawns, state.seat, WALK, push.point, state.turn, reach,
                            state.cards, state.dealt, None, state.seed)

    def arrive(self, state: SlidingState, square: int) -> SlidingState:
        """The mover's walk ends on `square`: turn a card, perhaps win (with every card
        turned: on the start square, or on an exit under the `EXIT` ending)."""
        seat, cards = state.seat, state.cards
        mine = self.found_card(state, square)
        if mine is not None:
            left = tuple(c for c in cards[seat] if c != mine)
            cards = cards[:seat] + (left,) + cards[seat + 1:]
        winner = None
        if not cards[seat] and (self.finish(state.board, seat) >> square) & 1:
            winner = seat
        pawns = state.pawns[:seat] + (square,) + state.pawns[seat + 1:]
        return SlidingState(state.board, pawns, seat, state.phase, state.last, state.turn,
                            state.reach, cards, state.dealt, winner, state.seed)

    def end_turn(self, state: SlidingState) -> SlidingState:
        """Pass the turn on to the next seat, unless the mover has won."""
        seat = state.seat if state.winner is not None else (state.seat + 1) % len(state.pawns)
        return SlidingState(state.board, state.pawns, seat, SHIFT, state.last, state.turn + 1, 0,
                            state.cards, state.dealt, state.winner, state.seed)

    def finish(self, board: Board, seat: int) -> int:
        """The squares where the seat, with every card turned, wins: its start square, or
        under the `EXIT` ending every square at the board's edge whose tile opens off it."""
        if self.ending is HOME:
            return 1 << self.homes[seat]
        north, east, south, west = self.edges
        return (board.n & north) | (board.e & east) | (board.s & south) | (board.w & west)

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
        """Squares the seat is heading for: wanted treasures on the board, or where it
        finishes (`finish`)."""
        board = board or state.board
        cards = state.cards[seat]
        if not cards:
            return self.finish(board, seat)
        bits = 0
        for card in self.wanted(cards):
            square = board.locate(self.tile_of[card])
            if square != SPARE:
                bits |= 1 << square
        return bits

    def heading(self, state: SlidingState, seat: int) -> tuple[list[int], int]:
        """What the seat is after: (tiles of the cards it may find, squares to finish on)."""
        cards = state.cards[seat]
        if cards:
            return [self.tile_of[c] for c in self.wanted(cards)], 0
        return [], self.finish(state.board, seat)

    # -- fast self-play --------------------------------------------------------------------

    def playout(self, players: Sequence[object], seed: int, *, turn_cap: int,
                hook: Hook | None = None) -> GameRecord | None:
        """`boardgen.rules.simulate.play` asks this first: with a greedy player in every
        seat, the same game and the same record as `play` gives, decision by decision
        (same moves, same draws from ``random.Random(seed)``), without the protocol's
        round trips; None for other players (then `play` plays it).

        Without a hook, or with the engine's `BranchingSample`, the game is played on plain
        ints and lists (`greedy_game`); any other hook sees every state (`state_playout`).
        """
        from boardgen.rules.players import GreedyPlayer

        if not all(type(p) is GreedyPlayer for p in players):
            return None
        if type(self) in _PLAIN_VARIANTS and _PLAIN_DRAWS and (
                hook is None or (type(hook) is BranchingSample and hook.game is self)):
            return self.greedy_game(len(players), seed, turn_cap=turn_cap,
                                    every=hook.every if hook is not None else 0)
        return self.state_playout(len(players), seed, turn_cap, hook)


    def greedy_game(self, seats: int, seed: int, *, turn_cap: int, every: int = 0,
                    trace: list[Shift | Walk] | None = None) -> GameRecord:
        """One game of greedy players in every seat, played on plain ints and lists: the
        moves `best_moves` offers and the draws `play` makes, decision by decision, so the
        record is the one `play` gives. `every` > 0 adds the `BranchingSample` counters of
        that period; `trace`, if given, receives every move played.

        Only for the game classes of this module (`_PLAIN_VARIANTS`): their rules are
        written out again below, in locals, rather than through `apply` and the states.
        """
        if seats not in self.layout.deal or seats > len(self.homes):
            self.initial_state(seats, seed)  # raises the reason
        bits = random.Random(seed).getrandbits  # `choice` written out (`_PLAIN_DRAWS`)
        geometry = self.geometry
        stride, size, full = geometry.stride, geometry.size, geometry.full
        n, e, s, w, tiles, spare, spare_mask = self.dealt(seed)
        homes = self.homes
        pawns = list(homes[:seats])
        if self._deck is None:
            self._deck = tuple(self.tile_of[t.id] for t in self.layout.treasures)
        piles = [list(pile) for pile in self.deal_cards(list(self._deck), seats, seed)]
        dealt = self.layout.deal[seats]
        every_card = type(self).wanted is not SlidingGame.wanted  # all cards wanted at once
        home = self.ending is HOME
        north, east, south, west = self.edges
        carries, slices, opposites = geometry.carries, geometry.slices, geometry.opposites
        slid = geometry.slides
        wanted = SPARE  # classic: the square of the mover's top card's tile
        table = self._fast_lanes
        orientations = _ORIENTATIONS
        square_bytes, nbytes = self._square_bytes, len(self._square_bytes)
        walks = self._walks
        forbidden = -1  # index into geometry.points, -1 for none
        seat = turn = decisions = offered = widest = 0
        winner: int | None = None
        branching = samples = 0.0
        while winner is None and turn < turn_cap:
            # -- the shift: every lane's board, the mover's reach and targets (`outlook`)
            lanes = table.get(forbidden * 8 + orientations[spare_mask])
            if lanes is None:
                lanes = self._fast_lane(forbidden, spare_mask)
            count = lanes.count
            offered += count
            if count > widest:
                widest = count
            ones = lanes.ones
            reaches, ln, le, ls, lw = lanes.flooded(n, e, s, w, spare_mask,
                                                    lanes.carries[pawns[seat]])
            if every and turn % every == 0:
                branching += reaches.bit_count()
                samples += 1
            pile = piles[seat]
            if pile:
                slides = lanes.slides
                if every_card:
                    targets = 0
                    for tile in pile:
                        targets |= slides[SPARE if tile == spare else tiles.index(tile)]
                else:  # the top card's tile: where it lies now, and in each lane
                    wanted = SPARE if pile[0] == spare else tiles.index(pile[0])
                    targets = slides[wanted]
            elif home:
                targets = ones << homes[seat]
            else:
                targets = ((ln & north * ones) | (le & east * ones) | (ls & south * ones)
                           | (lw & west * ones))
            # `best_moves`: the lanes of the best value
            hits = reaches & targets
            if not hits:
                if not targets:
                    hits = lanes.full
                else:  # `lanes.grow`, written out
                    every_lane, grown = lanes.full, targets
                    for _ in range(size - 1):
                        grown = (grown | grown << 1 | grown >> 1 | grown << stride
                                 | grown >> stride) & every_lane
                        hits = reaches & grown
                        if hits:
                            break
                    else:
                        grow = lanes.grow
                        grown = grow(grown)
                        hits = reaches & grown
                        aimless = lanes.ones & ~lanes.flags(targets)
                        if aimless:
                            hits |= aimless
                        while not hits:
                            grown = grow(grown)
                            hits = reaches & grown
            chosen = lanes.chosen_indices(hits)
            many = len(chosen)
            if many == 1:
                while bits(1):  # choice of one: one bit until it is 0
                    pass
                k = chosen[0]
            else:
                width = many.bit_length()
                r = bits(width)
                while r >= many:
                    r = bits(width)
                k = chosen[r]
            push = lanes.pushes[k]
            # -- play the shift: the chosen lane's board, pawns carried, the reach
            at, mask = k << lanes.bits, lanes.lane_mask
            out = push.exit
            spare_mask, n, e, s, w = (
                ((n >> out) & 1) | (((e >> out) & 1) << 1) | (((s >> out) & 1) << 2)
                | (((w >> out) & 1) << 3),
                (ln >> at) & mask, (le >> at) & mask, (ls >> at) & mask, (lw >> at) & mask)
            point = lanes.point_ids[k]
            line = slices[point]
            moved = tiles[line]
            if push.delta > 0:
                tiles[line] = [spare, *moved[:-1]]
                spare = moved[-1]
            else:
                tiles[line] = [*moved[1:], spare]
                spare = moved[0]
            carry = carries[point]
            pawns = [carry[p] for p in pawns]
            reach = (reaches >> at) & mask
            forbidden = opposites[point]
            decisions += 1
            if trace is not None:
                trace.append(lanes.moves[k])
            # -- the walk (`best_moves` of the walk phase), then `arrive` and `end_turn`
            count = reach.bit_count()
            offered += count
            if count > widest:
                widest = count
            if pile:
                if every_card:
                    targets = 0
                    for tile in pile:
                        if tile != spare:
                            targets |= 1 << tiles.index(tile)
                else:
                    wanted = slid[point][wanted]  # the top card's tile, pushed with its line
                    targets = 0 if wanted == SPARE else 1 << wanted
            elif home:
                targets = 1 << homes[seat]
            else:
                targets = (n & north) | (e & east) | (s & south) | (w & west)
            hits = reach & targets
            if not hits:
                if not targets:
                    hits = reach
                else:
                    while not hits:
                        targets = (targets | targets << 1 | targets >> 1 | targets << stride
                                   | targets >> stride) & full
                        hits = reach & targets
            if hits & (hits - 1):
                squares = [*chain.from_iterable(
                    map(getitem, square_bytes, hits.to_bytes(nbytes, "little")))]
                many = len(squares)
                width = many.bit_length()
                r = bits(width)
                while r >= many:
                    r = bits(width)
                square = squares[r]
            else:
                while bits(1):
                    pass
                square = hits.bit_length() - 1
            if trace is not None:
                trace.append(walks[square])
            if pile:
                if every_card:
                    tile = tiles[square]
                    if tile in pile:
                        pile.remove(tile)
                elif square == wanted:
                    del pile[0]
            if not pile:
                if home:
                    if square == homes[seat]:
                        winner = seat
                elif ((n & north) | (e & east) | (s & south) | (w & west)) >> square & 1:
                    winner = seat
            pawns[seat] = square
            decisions += 1
            turn += 1
            if winner is None:
                seat = (seat + 1) % seats
        counters = {"turn_branching": branching, "branching_samples": samples} if samples else {}
        if winner is None:
            return GameRecord(seed, seats, None, turn_cap, False, decisions, offered, widest,
                              counters)
        return GameRecord(seed, seats, winner, turn, True, decisions, offered, widest, counters,
                          tuple(dealt - len(pile) for pile in piles))

    # -- evaluation for players -----------------------------------------------------------

    def steps_left(self, state: SlidingState, seat: int) -> int:
        """Cards still to find, plus the walk to finish (home, or an exit)."""
        if state.winner == seat:
            return 0
        return len(state.cards[seat]) + 1

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
        """`heuristic` of each move's result, without building the states (a walk onto a
        wanted treasure scores ``(steps left - 1, 0)``)."""
        if state.seat != seat or state.winner is not None:
            return [self.heuristic(self.apply(state, m), seat) for m in moves]
        steps = self.steps_left(state, seat)
        if state.phase == WALK:
            return self._score_walks(state, moves, seat, steps)
        lanes, reaches, targets = self.outlook(state)
        score, lane = self._score_reach, lanes.lane
        # Many shifts leave the same squares in reach of the same targets: score each once.
        memo: dict[tuple[int, int], tuple[int, int]] = {}
        values = []
        for k in range(len(lanes.moves)):
            pair = (lane(reaches, k), lane(targets, k))
            value = memo.get(pair)
            if value is None:
                value = memo[pair] = score(pair[0], pair[1], steps)
            values.append(value)
        index = lanes.index
        return [values[index[m]] for m in moves]  # type: ignore[index]

    def best_moves(self, state: SlidingState) -> Sequence[Shift | Walk]:
        """The mover's legal moves whose results score best by `score_moves`, in the order
        of `legal_moves`: what a greedy player chooses among.

        Only the best value matters, so this never scores every move: a shift phase floods
        every shift's board at once (`outlook`) and grows the targets one step at a time
        until they meet some shift's reach; a walk phase does the same on one board.
        """
        if state.winner is not None:
            return ()
        if state.phase == WALK:
            reach, targets = state.reach, self.targets(state, state.seat)
            hits = reach & targets
            if not hits:
                if not targets:
                    return self.walks(reach)
                grow = _grower(self.geometry)
                while not hits:
                    targets = grow(targets)
                    hits = reach & targets
            return self.walks(hits)
        lanes, reaches, targets = self.outlook(state)
        hits = reaches & targets
        if hits:
            return lanes.chosen(lanes.flags(hits))
        if not targets:
            return lanes.moves
        # Value (steps, d) for the nearest target d squares from the reach, and (steps,
        # board width) where the target tile is the spare: find the smallest.
        size, grow = self.geometry.size, lanes.grow
        grown = targets
        for _ in range(size - 1):
            grown = grow(grown)
            hits = reaches & grown
            if hits:
                return lanes.chosen(lanes.flags(hits))
        grown = grow(grown)
        hits = reaches & grown
        aimless = lanes.ones & ~lanes.flags(targets)
        if hits or aimless:
            return lanes.chosen(lanes.flags(hits) | aimless)
        while not hits:
            grown = grow(grown)
            hits = reaches & grown
        return lanes.chosen(lanes.flags(hits))

    def outlook(self, state: SlidingState) -> tuple[Lanes, int, int]:
        """The mover's shifts as `Lanes`, with every lane's reach of the mover's pawn and
        every lane's targets (`targets`) after that shift."""
        board, seat = state.board, state.seat
        lanes, reaches = self.lane_reaches(board, state.forbidden, state.pawns[seat])
        cards = state.cards[seat]
        if cards:
            targets = 0
            for card in self.wanted(cards):
                targets |= lanes.slid(board.locate(self.tile_of[card]))
        elif self.ending is HOME:
            targets = lanes.ones << self.homes[seat]
        else:
            targets = lanes.exits(board, self.edges)
        return lanes, reaches, targets

    def shift_reaches(self, state: SlidingState,
                      moves: Sequence[Shift]) -> Iterator[tuple[int, int]]:
        """For each shift of the mover in `moves`: (squares its pawn can then walk to, its
        targets), from `outlook`."""
        lanes, reaches, targets = self.outlook(state)
        index, lane = lanes.index, lanes.lane
        for move in moves:
            k = index[move]
            yield lane(reaches, k), lane(targets, k)

    def _score_walks(self, state: SlidingState, moves: Sequence[Shift | Walk], seat: int,
                     steps: int) -> list[tuple[int, int]]:
        targets = self.targets(state, seat)
        geometry = self.geometry
        width = geometry.size
        scores = []
        for move in moves:
            square = geometry.bit(*move.to)  # type: ignore[union-attr]
            if (targets >> square) & 1:
                scores.append((steps - 1, 0))
            elif targets:
                scores.append((steps, geometry.nearest(targets, square)))
            else:
                scores.append((steps, width))
        return scores


class YoungSlidingGame(SlidingGame):
    """The younger players' variant: all cards visible, found in any order, then home."""

    variant = "young"

    def wanted(self, cards: tuple[str, ...]) -> tuple[str, ...]:
        return cards


class YoungExitGame(YoungSlidingGame):
    """The younger players' variant when the players agree not to go home: with every card
    turned, a player leaves the labyrinth by any corridor open off the board's edge."""

    variant = "young-exit"
    ending = EXIT


VARIANTS: dict[str, type[SlidingGame]] = {
    "classic": SlidingGame, "young": YoungSlidingGame, "young-exit": YoungExitGame}


# The game classes `SlidingGame.greedy_game` plays on plain ints (it writes their rules out).
_PLAIN_VARIANTS = frozenset(VARIANTS.values())


class BranchingSample:
    """Self-play hook: every `every` turns, in the shift phase, the complete turns on offer
    (`SlidingGame.count_turns`), as ``turn_branching``, and a ``branching_samples`` count.
    The game's greedy playout knows it and counts the same without building states."""

    def __init__(self, game: SlidingGame, every: int):
        if every < 1:
            raise ValueError(f"a sample every {every!r} turns")
        self.game = game
        self.every = every

    def __call__(self, before: SlidingState, move: object, after: object) -> dict[str, float]:
        if before.phase != SHIFT or before.turn % self.every:
            return {}
        return {"turn_branching": self.game.count_turns(before), "branching_samples": 1}


def find_variant(name: str) -> type[SlidingGame]:
    """The game class for a variant name."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}") from None


def opens_onto_board(mask: int, row: int, col: int, size: int) -> bool:
    """Whether a tile open on `mask` at (row, col) of a size x size board has a side open
    towards a neighbouring square (a start must, or its pawn could never leave)."""
    return any(mask & side and 0 <= row + dr < size and 0 <= col + dc < size
               for side, (dr, dc) in STEP.items())


# The tile table of a layout (`SlidingLayout.all_tiles`) and each tile's index in it, by id:
# every game's board is dealt from the same table.
_TABLES: dict[int, tuple[SlidingLayout, tuple[Tile, ...], dict[str, int]]] = {}


def _tables(layout: SlidingLayout) -> tuple[tuple[Tile, ...], dict[str, int]]:
    cached = _TABLES.get(id(layout))
    if cached is None or cached[0] is not layout:
        if len(_TABLES) >= 64:  # layouts made one after another (a generator's tries)
            _TABLES.clear()
        table = layout.all_tiles
        cached = _TABLES[id(layout)] = (layout, table, {tile.id: i for i, tile in enumerate(table)})
    return cached[1], cached[2]


def _kind(move: object) -> str:
    """What a move is, for messages: "shift", "walk" or its class name in lower case."""
    return type(move).__name__.lower()


def _grower(geometry: Geometry) -> Callable[[int], int]:
    """A function that adds to a bitboard every square one step (Manhattan) from it."""
    stride, full = geometry.stride, geometry.full

    def grow(bits: int) -> int:
        return (bits | bits << 1 | bits >> 1 | bits << stride | bits >> stride) & full

    return grow


def _squares(bits: int) -> Iterator[int]:
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low
