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

One rule set: a game is one mutable `Position` (open sides as four ints, tiles and pawns
in lists) that `SlidingRules.play` changes in place; `apply` plays on a copy, the solver and
the drawings read a frozen `Board`. Tests, self-play, the players and the checks all go
through it, and tests/data/classic.perft holds it to hand-counted positions.

Speed: the greedy player scores every shift of a turn; `Lanes` puts the boards after all
of them into one big int, so one flood finds every shift's reach (`SlidingRules.outlook`,
`best_moves`), kept on the position so the shift picked is read from its lane.

Reuse: `SlidingRules` is the shift, the walk and the turn that every game on this board
shares; `SlidingGame` (treasure cards) and `boardgen.rules.master.MasterGame` (Labyrinthe
Master: tokens that ride the tiles, wands for extra turns through `end_turn`) build on it,
each with its `Position` subclass; the variants subclass `SlidingGame`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress
from operator import getitem
from typing import Any, Literal, NamedTuple, Self, TypeVar

from boardgen.draws import for_purpose
from boardgen.model.sliding import Deal, InsertionPoint, SlidingLayout, deal
from boardgen.model.tiles import STEP, E, N, S, Tile, W, rotate
from boardgen.rules.protocol import Event, HeuristicGame, Outcome

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

    def sides(self, n: int, e: int, s: int, w: int, mask: int) -> tuple[int, int, int, int]:
        """The open sides (N, E, S, W) of a board after this push, the spare entering open
        on the sides of `mask`."""
        return (
            self.move(n, mask & 1),
            self.move(e, (mask >> 1) & 1),
            self.move(s, (mask >> 2) & 1),
            self.move(w, (mask >> 3) & 1),
        )

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
        # For play on plain lists (`SlidingRules.play`), by the index of the point in
        # `points`: where a pawn on each square ends up (`Push.carry`), the line as a slice
        # of a list of the squares, whether it runs towards higher squares, its exit square.
        span = size * stride
        self.carries = tuple(tuple(push.carry(sq) for sq in range(span)) for push in self.pushes.values())
        # And where the tile on each square lies (`Push.slide`), the spare's last (SPARE).
        self.slides = tuple(
            (*(push.slide(sq) for sq in range(span)), push.slide(SPARE)) for push in self.pushes.values()
        )
        self.slices = tuple(
            slice(min(push.order), max(push.order) + 1, abs(push.delta)) for push in self.pushes.values()
        )
        self.forwards = tuple(push.delta > 0 for push in self.pushes.values())
        self.exits = tuple(push.exit for push in self.pushes.values())

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
        return Push(
            point,
            line,
            self.full & ~line,
            line & ~(1 << order[-1]),
            delta,
            order[0],
            order[-1],
            tuple(order),
            halo,
            self._neighbours(order[0]),
        )

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
        masks = bytearray(geometry.size * stride)
        for row, line in enumerate(the_deal.grid):
            at = row * stride
            tiles[at : at + len(line)] = [index[tile.id] for tile in line]
            masks[at : at + len(line)] = bytes([tile.mask for tile in line])
        # One side's bitboard: a "1" per square open on that side, read as a binary number.
        digits = masks[::-1]
        n, e, s, w = (int(digits.translate(side), 2) for side in _SIDE_DIGITS)
        return cls(geometry, table, tuple(tiles), index[the_deal.spare.id], the_deal.spare.mask, n, e, s, w)

    @classmethod
    def from_text(
        cls,
        text: str,
        *,
        spare: str = "┼",
        treasures: Mapping[tuple[int, int] | str, str] | None = None,
        sliding_lines: Sequence[int] | None = None,
    ) -> Board:
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
        geometry = Geometry(size, list(sliding_lines if sliding_lines is not None else range(1, size, 2)))
        table = [
            Tile(f"{r}-{c}", "drawn", masks[rows[r][c]], treasures.get((r, c)))
            for r in range(size)
            for c in range(size)
        ]
        table.append(Tile("spare", "drawn", masks[spare], treasures.get("spare")))
        tiles = [-1] * (size * geometry.stride)
        sides = {N: 0, E: 0, S: 0, W: 0}
        for index, tile in enumerate(table[:-1]):
            square = geometry.bit(*divmod(index, size))
            tiles[square] = index
            for side in sides:
                if tile.mask & side:
                    sides[side] |= 1 << square
        return cls(
            geometry, tuple(table), tuple(tiles), len(table) - 1, masks[spare], sides[N], sides[E], sides[S], sides[W]
        )

    def to_text(self) -> str:
        """The board drawn as `from_text` reads it (the spare is not shown)."""
        size = self.geometry.size
        return "\n".join(
            "".join(DRAWING[self.mask_at(self.geometry.bit(r, c))] for c in range(size)) for r in range(size)
        )

    def mask_at(self, square: int) -> int:
        return (
            ((self.n >> square) & 1)
            | (((self.e >> square) & 1) << 1)
            | (((self.s >> square) & 1) << 2)
            | (((self.w >> square) & 1) << 3)
        )

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

    def pushed(self, point: InsertionPoint, rotation: int = 0, sides: tuple[int, int, int, int] | None = None) -> Board:
        """The board after turning the spare and pushing it in at `point`; `sides`, if
        known already, are its open sides (N, E, S, W) after the push."""
        geometry = self.geometry
        index = geometry.point_index[point]
        push = geometry.pushes[point]
        ejected_mask = self.mask_at(push.exit)
        tiles = list(self.tiles)
        spare = _slide_line(tiles, self.spare, geometry.slices[index], geometry.forwards[index])
        if sides is None:
            sides = push.sides(self.n, self.e, self.s, self.w, _TURNED[self.spare_mask][rotation % 4])
        return Board(geometry, self.table, tuple(tiles), spare, ejected_mask, *sides)


def _slide_line(tiles: list[int], spare: int, line: slice, forward: bool) -> int:
    """Push the spare into the line of `tiles` (by bit square) that `line` slices, at its
    low end if `forward`, else at its high end; the tile pushed off, the new spare."""
    moved = tiles[line]
    if forward:
        tiles[line] = [spare, *moved[:-1]]
        return moved[-1]
    tiles[line] = [*moved[1:], spare]
    return moved[0]


# _SIDE_DIGITS[side]: a byte translation from a tile's open sides to "1" if it opens on that
# side (N, E, S, W), else "0" (`Board.from_deal`).
_SIDE_DIGITS = tuple(bytes(b"1"[0] if mask >> side & 1 else b"0"[0] for mask in range(256)) for side in range(4))
# _TURNED[mask][t]: the mask turned t clockwise quarter turns.
_TURNED = tuple(tuple(rotate(mask, t) for t in range(4)) for mask in range(16))


def distinct_rotations(mask: int) -> tuple[tuple[int, int], ...]:
    """(quarter turns, resulting mask) for each different orientation of a tile: always
    0, 1, ... up to 1, 2 or 4 turns."""
    seen: dict[int, int] = {}
    for turns in range(4):
        seen.setdefault(rotate(mask, turns), turns)
    return tuple((turns, turned) for turned, turns in seen.items())


# _ORIENTATIONS[mask]: how many different ways a tile open on `mask` can lie.
_ORIENTATIONS = tuple(len(distinct_rotations(mask)) for mask in range(16))


class Position:
    """One game on the sliding board as it stands, changed in place by its rules'
    `SlidingRules.play`: the board's open sides (``n``, ``e``, ``s``, ``w``, as in `Board`),
    the tile on each bit square and the spare, the pawns, and whose decision it is in which
    phase of which turn. `copy` gives an independent position; `board` a frozen `Board`
    (what the solver and the drawings read).

    Each game on this board adds its own pieces in a subclass (`SlidingState`: the cards;
    `boardgen.rules.master.MasterState`: tokens and wands), extending `copy` and `key`.
    """

    __slots__ = (
        "geometry",
        "table",
        "n",
        "e",
        "s",
        "w",
        "tiles",
        "spare",
        "spare_mask",
        "pawns",
        "seat",
        "phase",
        "banned",
        "turn",
        "reach",
        "seed",
        "over",
        "recorded",
        "_outlook",
        "_sides",
        "_board",
        "_moves",
    )

    def __init__(
        self,
        board: Board,
        pawns: Sequence[int],
        *,
        seat: int = 0,
        phase: str = SHIFT,
        last: InsertionPoint | None = None,
        turn: int = 0,
        reach: int = 0,
        seed: int = 0,
    ):
        geometry = board.geometry
        self.geometry, self.table = geometry, board.table
        self.n, self.e, self.s, self.w = board.n, board.e, board.s, board.w
        self.tiles = list(board.tiles)
        self.spare, self.spare_mask = board.spare, board.spare_mask
        self.pawns = list(pawns)  # bit square per seat
        self.seat, self.phase, self.turn = seat, phase, turn
        # The index (in `Geometry.points`) of the point the previous push forbids, -1 for none.
        self.banned = -1 if last is None else geometry.point_index[last.opposite]
        self.reach = reach  # in the walk phase, the squares the mover can walk to
        self.seed = seed  # the seed the game was set up with
        self.over = False  # the game has ended (`SlidingRules.is_over`)
        self.recorded: tuple[Event, ...] = ()  # what the last move set off (`SlidingRules.events`)
        self._outlook: tuple[Lanes, int, int, int, int, int] | None = None
        # Every shift's open sides on the board as it stands (`SlidingRules.lane_flood`).
        self._sides: tuple[Lanes, int, int, int, int] | None = None
        self._board: Board | None = board
        self._moves: Sequence[Any] | None = None

    def copy(self) -> Self:
        """An independent position equal to this one."""
        other = object.__new__(type(self))
        other.geometry, other.table = self.geometry, self.table
        other.n, other.e, other.s, other.w = self.n, self.e, self.s, self.w
        other.tiles, other.spare, other.spare_mask = self.tiles.copy(), self.spare, self.spare_mask
        other.pawns = self.pawns.copy()
        other.seat, other.phase, other.banned = self.seat, self.phase, self.banned
        other.turn, other.reach, other.seed, other.over = self.turn, self.reach, self.seed, self.over
        other.recorded = self.recorded
        # What was worked out for this very position holds for its copy too.
        other._outlook, other._board, other._moves = self._outlook, self._board, self._moves
        other._sides = self._sides
        return other

    def replaced(self, **changes: Any) -> Self:
        """A copy with some of its fields set to other values (a test's position)."""
        other = self.copy()
        for name, value in changes.items():
            setattr(other, name, list(value) if name in ("pawns", "tiles") else value)
        other.changed()
        other._sides = None
        return other

    def changed(self) -> None:
        """Forget what was worked out for the position as it was (`play` calls it)."""
        self._outlook = self._board = self._moves = None

    @property
    def board(self) -> Board:
        """The board as a frozen `Board`."""
        board = self._board
        if board is None:
            board = self._board = Board(
                self.geometry,
                self.table,
                tuple(self.tiles),
                self.spare,
                self.spare_mask,
                self.n,
                self.e,
                self.s,
                self.w,
            )
        return board

    @property
    def last(self) -> InsertionPoint | None:
        """The previous push; its opposite is forbidden."""
        banned = self.banned
        return None if banned < 0 else self.geometry.points[self.geometry.opposites[banned]]

    @property
    def forbidden(self) -> InsertionPoint | None:
        return None if self.banned < 0 else self.geometry.points[self.banned]

    def pawn_cell(self, seat: int) -> tuple[int, int]:
        return self.geometry.cell(self.pawns[seat])

    def locate(self, tile: int) -> int:
        """The square of a tile (index into the board's table), or SPARE."""
        return SPARE if tile == self.spare else self.tiles.index(tile)

    def key(self) -> tuple[Any, ...]:
        """Everything the position holds, as plain data: equal positions, equal keys."""
        return (
            self.n,
            self.e,
            self.s,
            self.w,
            tuple(self.tiles),
            self.spare,
            self.spare_mask,
            tuple(self.pawns),
            self.seat,
            self.phase,
            self.banned,
            self.turn,
            self.reach,
            self.seed,
            self.over,
        )

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # it changes in place

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(seat={self.seat}, phase={self.phase!r}, "
            f"turn={self.turn}, pawns={[self.pawn_cell(s) for s in range(len(self.pawns))]})"
        )


class SlidingState(Position):
    """A game of the classic rules as it stands: the `Position` and every player's cards."""

    __slots__ = ("cards", "dealt", "winner")

    def __init__(
        self,
        board: Board,
        pawns: Sequence[int],
        cards: Sequence[Sequence[str]],
        dealt: int,
        *,
        winner: int | None = None,
        **position: Any,
    ):
        super().__init__(board, pawns, **position)
        self.cards = tuple(tuple(pile) for pile in cards)  # per seat, cards still to find, top first
        self.dealt = dealt  # cards per seat at the start
        self.winner = winner
        self.over = winner is not None

    def copy(self) -> Self:
        other = super().copy()
        other.cards, other.dealt, other.winner = self.cards, self.dealt, self.winner
        return other

    def key(self) -> tuple[Any, ...]:
        return (*super().key(), self.cards, self.dealt, self.winner)

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
        # right) as (distance, movers) for `flooded`.
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
        self._byte_folds = [(shift, mask) for shift, mask in self.folds if shift >= (64 if self._words else 8)]
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

    def flooded(self, n: int, e: int, s: int, w: int, spare_mask: int, seeds: int) -> tuple[int, int, int, int, int]:
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
            ln = (
                (copies & keep)
                | n_in
                | (copies & m_a) << a
                | (copies & m_b) << b
                | (copies & m_c) >> c
                | (copies & m_d) >> d
            )
            copies = e * ones
            le = (
                (copies & keep)
                | e_in
                | (copies & m_a) << a
                | (copies & m_b) << b
                | (copies & m_c) >> c
                | (copies & m_d) >> d
            )
            copies = s * ones
            ls = (
                (copies & keep)
                | s_in
                | (copies & m_a) << a
                | (copies & m_b) << b
                | (copies & m_c) >> c
                | (copies & m_d) >> d
            )
            copies = w * ones
            lw = (
                (copies & keep)
                | w_in
                | (copies & m_a) << a
                | (copies & m_b) << b
                | (copies & m_c) >> c
                | (copies & m_d) >> d
            )
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
        return [int.from_bytes(data[at : at + size], "little") for at in range(0, self.nbytes, size)]

    def exits(self, board: Board, edges: tuple[int, int, int, int]) -> int:
        """Every lane's squares at the board's edge whose tile opens off the board;
        `edges` are the squares along the N, E, S and W sides."""
        n, e, s, w = self.sides(board)
        ones = self.ones
        return (n & edges[0] * ones) | (e & edges[1] * ones) | (s & edges[2] * ones) | (w & edges[3] * ones)

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
        return list(compress(self.moves, flags.to_bytes(self.nbytes, "little")[:: self.width // 8]))

    def chosen_indices(self, bits: int) -> list[int]:
        """The indices of the lanes where `bits` is not empty, in order."""
        return self.hit(bits, self.indices)

    def best(self, bits: int) -> list[Shift]:
        """The moves of the lanes where `bits` is not empty, in order (`chosen` of the
        lanes' `flags`, folding only down to a lane's first 64-bit word or byte)."""
        return self.hit(bits, self.moves)

    def hit(self, bits: int, items: Sequence[T]) -> list[T]:
        """The `items` (one a lane) of the lanes where `bits` is not empty, in order."""
        for shift, mask in self._byte_folds:
            bits = (bits | bits >> shift) & mask
        if self._words:  # a lane is one or more 64-bit words: test its first word
            return list(
                compress(items, memoryview(bits.to_bytes(self.nbytes, sys.byteorder)).cast("Q")[:: self._words])
            )
        return list(compress(items, bits.to_bytes(self.nbytes, "little")[:: self.spacing]))

    def lane(self, bits: int, k: int) -> int:
        """Lane `k` of `bits` as a plain bitboard."""
        return (bits >> (k << self.bits)) & self.lane_mask


class WalkMoves(Sequence["Walk"]):
    """The walks of a walk phase (`SlidingRules.walks` of the squares in reach), listed only
    when read: self-play mostly asks how many there are."""

    __slots__ = ("rules", "squares", "_walks")

    def __init__(self, rules: SlidingRules[Any], squares: int):
        self.rules, self.squares = rules, squares
        self._walks: tuple[Walk, ...] | None = None

    def __len__(self) -> int:
        return self.squares.bit_count()

    def __bool__(self) -> bool:
        return self.squares != 0

    def __getitem__(self, index: Any) -> Any:
        walks = self._walks
        if walks is None:
            walks = self._walks = self.rules.walks(self.squares)
        return walks[index]

    def __iter__(self) -> Iterator[Walk]:
        return iter(self[:])

    def __eq__(self, other: object) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, Sequence) else other)

    __hash__ = None  # type: ignore[assignment]


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
            moves = tuple(
                Shift(point, t) for point in self.geometry.points if point != forbidden for t in range(key[1])
            )
            lanes = self._lanes[key] = Lanes(self.geometry, moves)
        return lanes


StateT = TypeVar("StateT", bound=Position)
T = TypeVar("T")


class SlidingRules(ShiftMoves, HeuristicGame[StateT, Any]):
    """What every game on the sliding board shares: the layout's geometry and starts, the
    shift (push, pawns riding their line) and the walk, played in place on a `Position`
    (`play`; `apply` plays on a copy), the legal moves of both, and a turn that ends with
    `end_turn`.

    A game on this board (`SlidingGame`, `boardgen.rules.master.MasterGame`) provides its
    position type and: `is_over`, `shifted` (what else a push carries), `arrive` (the
    mover's walk ends on a square) and `end_turn` (who decides next); a game with decisions
    other than shifts and walks also `other_moves` and `play_other`. Its greedy values
    (`best_moves`) read every shift at once from `outlook`.
    """

    branching_every = 0  # sample the turns on offer every this many turns (`events`); 0: never

    def __init__(self, layout: SlidingLayout):
        self.layout = layout
        self.id = layout.id
        self.geometry = Geometry(layout.size, layout.sliding_lines)
        self.homes = tuple(self.geometry.bit(*start.at) for start in layout.starts)
        self._lanes: dict[tuple[InsertionPoint | None, int], Lanes] = {}
        # The same `Lanes` by the index of the forbidden point (-1 for none) and the spare's
        # orientations, as ``index * 8 + orientations`` (`lanes_at`).
        self._lanes_at: dict[int, Lanes] = {}
        stride = self.geometry.stride
        self._walks = {sq: Walk(divmod(sq, stride)) for sq in self.geometry.squares}
        # _walk_bytes[i][b]: the walks to the squares of bits b of byte i of a bitboard.
        self._walk_bytes = tuple(
            tuple(
                tuple(self._walks[8 * i + bit] for bit in range(8) if (byte >> bit) & 1 and 8 * i + bit in self._walks)
                for byte in range(256)
            )
            for i in range(-(-self.geometry.full.bit_length() // 8))
        )

    # -- what a game on this board provides --------------------------------------------------

    def is_over(self, state: StateT) -> bool:
        return state.over

    def shifted(self, state: StateT, point: int) -> None:
        """After the push at `geometry.points[point]`: move whatever else rides the tiles
        (the pawns have ridden already)."""

    def arrive(self, state: StateT, square: int) -> None:
        """The mover's walk ends on `square` (the pawn still stands where it started)."""
        raise NotImplementedError

    def end_turn(self, state: StateT) -> None:
        """After a complete turn: whose decision comes next (a game with extra turns keeps
        the seat here)."""
        raise NotImplementedError

    def other_moves(self, state: StateT) -> Sequence[Any]:
        """The moves of a phase that is neither a shift nor a walk."""
        return ()

    def play_other(self, state: StateT, move: Any) -> None:
        raise IllegalMoveError(f"{move} cannot be played in the {state.phase} phase")

    def initial_state(self, players: int, seed: int) -> StateT:
        raise NotImplementedError

    def best_moves(self, state: StateT) -> Sequence[Any]:
        """The greedy player's best moves, in the order it draws among them."""
        raise NotImplementedError

    def outcome(self, state: StateT) -> Outcome | None:
        raise NotImplementedError

    # -- the protocol ------------------------------------------------------------------------

    def to_move(self, state: StateT) -> int:
        return state.seat

    def turns_played(self, state: StateT) -> int:
        return state.turn

    def legal_moves(self, state: StateT) -> Sequence[Any]:
        moves = state._moves
        if moves is None:  # self-play asks twice for the same position (the loop, the player)
            if state.over:
                moves = ()
            elif state.phase == SHIFT:
                lanes = self._lanes_at.get(state.banned * 8 + _ORIENTATIONS[state.spare_mask])
                moves = (lanes or self.lanes_at(state)).moves
            elif state.phase == WALK:
                moves = WalkMoves(self, state.reach)
            else:
                moves = self.other_moves(state)
            state._moves = moves
        return moves

    def count_moves(self, state: StateT) -> int:
        """How many moves `legal_moves` lists, without listing the walks."""
        if state.phase == WALK and not state.over:
            return state.reach.bit_count()
        return len(self.legal_moves(state))

    def walks(self, squares: int) -> tuple[Walk, ...]:
        """The walks to the squares of a bitboard, in square order."""
        table = self._walk_bytes
        data = squares.to_bytes(len(table), "little")
        return tuple(chain.from_iterable(map(getitem, table, data)))

    def apply(self, state: StateT, move: Any) -> StateT:
        """The position after `move`, on a copy (`state` stays as it is)."""
        after = state.copy()
        self.play(after, move)
        return after

    def play(self, state: StateT, move: Any) -> StateT:
        """Play `move` in place (and return `state`): the one implementation of the rules."""
        if state.over:
            raise IllegalMoveError(f"the game is over; {move} cannot be played")
        state.recorded = ()
        phase = state.phase
        if phase == SHIFT:
            self._shift(state, move)
        elif phase == WALK:
            self._walk(state, move)
        else:
            self.play_other(state, move)
        return state

    def events(self, state: StateT) -> tuple[Event, ...]:
        """What the move that led to `state` set off, for self-play's counters: every
        `branching_every` turns the complete turns the shift phase offered
        (``turn_branching``, `count_turns`) and a ``branching_samples`` count; a game's own
        (wands played...)."""
        return state.recorded

    def count_turns(self, state: StateT) -> int:
        """Complete turns (shift, distinct rotation, walk) on offer in a shift phase."""
        return self.outlook(state)[1].bit_count()

    def _shift(self, state: StateT, move: Any) -> None:
        geometry = self.geometry
        every = self.branching_every
        if every and state.turn % every == 0:
            state.recorded = (("turn_branching", float(self.count_turns(state))), "branching_samples")
        outlook = state._outlook
        k = -1 if outlook is None else outlook[0].index.get(move, -1)
        if k < 0:  # not one of the shifts flooded already (then known to be allowed)
            if not isinstance(move, Shift):
                raise IllegalMoveError(f"{move} is a {_kind(move)} but the turn starts with a shift")
            point = geometry.point_index.get(move.point, -1)
            if point < 0:
                raise IllegalMoveError(f"{move.point.label!r} is not an insertion point")
            if point == state.banned:
                raise IllegalMoveError(
                    f"{move.point.label} would undo the previous push ({state.last.label if state.last else '-'})"
                )
            if outlook is not None:  # the same push as a flooded one with a distinct rotation
                k = outlook[0].index[Shift(move.point, move.rotation % _ORIENTATIONS[state.spare_mask])]
        n, e, s, w = state.n, state.e, state.s, state.w
        if k >= 0:
            # Every shift was flooded already (a player looked at them): take this one's lane.
            lanes, reaches, ln, le, ls, lw = outlook  # type: ignore[misc]
            point = lanes.point_ids[k]
            at, lane = k << lanes.bits, lanes.lane_mask
            state.n, state.e, state.s, state.w = (
                (ln >> at) & lane,
                (le >> at) & lane,
                (ls >> at) & lane,
                (lw >> at) & lane,
            )
            reach = (reaches >> at) & lane
        else:
            state.n, state.e, state.s, state.w = geometry.pushes[move.point].sides(
                n, e, s, w, _TURNED[state.spare_mask][move.rotation % 4]
            )
            reach = -1
        out = geometry.exits[point]
        state.spare_mask = (
            ((n >> out) & 1) | (((e >> out) & 1) << 1) | (((s >> out) & 1) << 2) | (((w >> out) & 1) << 3)
        )
        state.spare = _slide_line(state.tiles, state.spare, geometry.slices[point], geometry.forwards[point])
        carry = geometry.carries[point]
        pawns = state.pawns = [carry[p] for p in state.pawns]
        state.banned = geometry.opposites[point]
        state.phase = WALK
        state._outlook = state._sides = state._board = state._moves = None
        if reach < 0:
            stride = geometry.stride
            reach = flood(1 << pawns[state.seat], state.e & (state.w >> 1), state.s & (state.n >> stride), stride)
        state.reach = reach
        self.shifted(state, point)

    def _walk(self, state: StateT, move: Any) -> None:
        if not isinstance(move, Walk):
            raise IllegalMoveError(f"{move} is a {_kind(move)} but the pawn must walk (or stay) now")
        row, col = move.to
        size = self.geometry.size
        square = row * self.geometry.stride + col if 0 <= row < size and 0 <= col < size else -1
        if square < 0 or not (state.reach >> square) & 1:
            raise IllegalMoveError(f"{move.to} cannot be reached from {self.geometry.cell(state.pawns[state.seat])}")
        self.arrive(state, square)
        state._outlook = state._board = state._moves = None  # `changed`: a walk moves no tile
        self.end_turn(state)

    # -- looking ahead -----------------------------------------------------------------------

    def lanes_at(self, state: StateT) -> Lanes:
        """The shifts allowed in `state` as `Lanes` (its legal moves in a shift phase)."""
        spare_mask = state.spare_mask
        key = state.banned * 8 + _ORIENTATIONS[spare_mask]
        lanes = self._lanes_at.get(key)
        if lanes is None:
            lanes = self._lanes_at[key] = self.lanes(state.forbidden, spare_mask)
        return lanes

    def outlook(self, state: StateT) -> tuple[Lanes, int, int, int, int, int]:
        """Every shift of the mover at once: its `Lanes`, in each lane the squares the
        mover's pawn can walk to after that shift, and the lanes' open sides (N, E, S, W);
        kept on the position until it changes."""
        found = state._outlook
        if found is None:
            lanes, reaches = self.lane_flood(state, state.pawns[state.seat])
            sides = state._sides  # kept by lane_flood (or earlier, for another pawn or a token)
            assert sides is not None
            _, ln, le, ls, lw = sides
            found = state._outlook = (lanes, reaches, ln, le, ls, lw)
        return found

    def lane_flood(self, state: StateT, square: int) -> tuple[Lanes, int]:
        """Every shift allowed in `state` as `Lanes`, and in each lane the squares joined to
        whatever stands on `square` (riding the shift): `outlook` for any square, the
        lanes' open sides kept on the position for the next."""
        sides = state._sides
        if sides is None:
            lanes = self.lanes_at(state)
            reaches, ln, le, ls, lw = lanes.flooded(
                state.n, state.e, state.s, state.w, state.spare_mask, lanes.carries[square]
            )
            state._sides = (lanes, ln, le, ls, lw)
            return lanes, reaches
        lanes, ln, le, ls, lw = sides
        stride = self.geometry.stride
        return lanes, flood(lanes.carries[square], le & (lw >> 1), ls & (ln >> stride), stride)

    def lane_reaches(self, board: Board, forbidden: InsertionPoint | None, pawn: int) -> tuple[Lanes, int]:
        """Every shift allowed on `board` as `Lanes`, and in each lane the squares the pawn
        on `pawn` can walk to after that shift."""
        lanes = self.lanes(forbidden, board.spare_mask)
        reaches, _ = lanes.reaches(board, lanes.carried(pawn))
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
    branching_every = 8

    def __init__(self, layout: SlidingLayout):
        super().__init__(layout)
        if self.variant != "classic":
            self.id = f"{layout.id}:{self.variant}"
        self.tile_of = {t.treasure: i for i, t in enumerate(layout.all_tiles) if t.treasure}
        geometry = self.geometry
        last = geometry.size - 1
        edge = {
            side: sum(1 << geometry.bit(*cell) for cell in cells)
            for side, cells in (
                (N, [(0, c) for c in range(geometry.size)]),
                (S, [(last, c) for c in range(geometry.size)]),
                (W, [(r, 0) for r in range(geometry.size)]),
                (E, [(r, last) for r in range(geometry.size)]),
            )
        }
        self.edges = (edge[N], edge[E], edge[S], edge[W])  # squares on each side of the board

    # -- the protocol --------------------------------------------------------------------

    def initial_state(self, players: int, seed: int) -> SlidingState:
        if players not in self.layout.deal:
            raise ValueError(f"{self.layout.id!r} has no deal for {players!r} players")
        if players > len(self.homes):
            raise ValueError(f"{players!r} players but {len(self.homes)} starts")
        return self.start(Board.from_deal(deal(self.layout, seed), self.geometry), players, seed)

    def start(self, board: Board, players: int, seed: int) -> SlidingState:
        """A new game on a given board: cards shuffled and dealt from `seed`."""
        cards = self.deal_cards([t.id for t in self.layout.treasures], players, seed)
        return SlidingState(board, self.homes[:players], cards, self.layout.deal[players], seed=seed)

    def deal_cards(self, deck: list[T], players: int, seed: int) -> tuple[tuple[T, ...], ...]:
        """Each seat's pile: `deck` (the treasures in layout order) shuffled with `seed`,
        and dealt in blocks."""
        for_purpose(seed, "cards").shuffle(deck)
        size = self.layout.deal[players]
        fewer = self.layout.first_seat_fewer_cards  # the compensation: the first seat's last cards stay out
        return tuple(tuple(deck[i * size : (i + 1) * size - (fewer if i == 0 else 0)]) for i in range(players))

    def outcome(self, state: SlidingState) -> Outcome | None:
        if state.winner is None:
            return None
        # The cards the compensation keeps out of the first seat's pile are not found: they
        # go back in the box unseen (the rules sheet says so).
        fewer = self.layout.first_seat_fewer_cards
        return Outcome(
            state.winner, state.turn, tuple(state.found(s) - (fewer if s == 0 else 0) for s in range(len(state.pawns)))
        )

    # -- rules ----------------------------------------------------------------------------

    def arrive(self, state: SlidingState, square: int) -> None:
        """The mover's walk ends on `square`: turn a card, perhaps win (with every card
        turned: on the start square, or on an exit under the `EXIT` ending)."""
        seat, cards = state.seat, state.cards
        pile = cards[seat]
        if pile:
            tile = state.tiles[square]
            tile_of = self.tile_of
            for card in self.wanted(pile):
                if tile_of[card] == tile:
                    pile = tuple(c for c in pile if c != card)
                    state.cards = cards[:seat] + (pile,) + cards[seat + 1 :]
                    break
        if not pile and (self.finish(state, seat) >> square) & 1:
            state.winner, state.over = seat, True
        state.pawns[seat] = square

    def end_turn(self, state: SlidingState) -> None:
        """Pass the turn on to the next seat, unless the mover has won."""
        if state.winner is None:
            state.seat = (state.seat + 1) % len(state.pawns)
        state.phase, state.turn, state.reach = SHIFT, state.turn + 1, 0

    def finish(self, board: Board | Position, seat: int) -> int:
        """The squares where the seat, with every card turned, wins: its start square, or
        under the `EXIT` ending every square at the board's edge whose tile opens off it."""
        if self.ending is HOME:
            return 1 << self.homes[seat]
        north, east, south, west = self.edges
        return (board.n & north) | (board.e & east) | (board.s & south) | (board.w & west)

    def found_card(self, state: SlidingState, square: int) -> str | None:
        """The card the mover turns by ending a walk on `square`, if any."""
        for card in self.wanted(state.cards[state.seat]):
            if state.locate(self.tile_of[card]) == square:
                return card
        return None

    def wanted(self, cards: tuple[str, ...]) -> tuple[str, ...]:
        """The cards a player may find next: the top of the pile."""
        return cards[:1]

    def targets(self, state: SlidingState, seat: int) -> int:
        """Squares the seat is heading for: wanted treasures on the board, or where it
        finishes (`finish`)."""
        cards = state.cards[seat]
        if not cards:
            return self.finish(state, seat)
        bits = 0
        for card in self.wanted(cards):
            square = state.locate(self.tile_of[card])
            if square != SPARE:
                bits |= 1 << square
        return bits

    def lane_targets(self, state: SlidingState, outlook: tuple[Lanes, int, int, int, int, int] | None = None) -> int:
        """`targets` of the mover in every lane of `outlook` (given, or worked out): where
        each wanted treasure's tile lies after each shift, or where the mover finishes."""
        lanes, _, ln, le, ls, lw = outlook or self.outlook(state)
        seat = state.seat
        cards = state.cards[seat]
        if cards:
            slides, tile_of, bits = lanes.slides, self.tile_of, 0
            tiles, spare = state.tiles, state.spare
            for card in self.wanted(cards):
                tile = tile_of[card]
                bits |= slides[SPARE if tile == spare else tiles.index(tile)]
            return bits
        if self.ending is HOME:
            return lanes.ones << self.homes[seat]
        ones, (north, east, south, west) = lanes.ones, self.edges
        return (ln & north * ones) | (le & east * ones) | (ls & south * ones) | (lw & west * ones)

    def heading(self, state: SlidingState, seat: int) -> tuple[list[int], int]:
        """What the seat is after: (tiles of the cards it may find, squares to finish on)."""
        cards = state.cards[seat]
        if cards:
            return [self.tile_of[c] for c in self.wanted(cards)], 0
        return [], self.finish(state, seat)

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

    def score_moves(self, state: SlidingState, moves: Sequence[Shift | Walk], seat: int) -> list[tuple[int, int]]:
        """`heuristic` of each move's result, without building the positions (a walk onto a
        wanted treasure scores ``(steps left - 1, 0)``)."""
        if state.seat != seat or state.winner is not None:
            return [self.heuristic(self.apply(state, m), seat) for m in moves]
        steps = self.steps_left(state, seat)
        if state.phase == WALK:
            return self._score_walks(state, moves, seat, steps)
        lanes, reaches = self.outlook(state)[:2]
        targets = self.lane_targets(state)
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
            reach, cards = state.reach, state.cards[state.seat]
            if cards:
                targets, tiles, tile_of = 0, state.tiles, self.tile_of
                for card in self.wanted(cards):
                    tile = tile_of[card]
                    if tile != state.spare:
                        targets |= 1 << tiles.index(tile)
            else:
                targets = self.finish(state, state.seat)
            hits = reach & targets
            if not hits:
                if not targets:
                    return self.walks(reach)
                stride, full = self.geometry.stride, self.geometry.full
                while not hits:
                    targets = (targets | targets << 1 | targets >> 1 | targets << stride | targets >> stride) & full
                    hits = reach & targets
            return self.walks(hits)
        outlook = state._outlook or self.outlook(state)
        lanes, reaches = outlook[0], outlook[1]
        targets = self.lane_targets(state, outlook)
        hits = reaches & targets
        if hits:
            return lanes.best(hits)
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
                return lanes.best(hits)
        grown = grow(grown)
        hits = reaches & grown
        aimless = lanes.ones & ~lanes.flags(targets)
        if hits or aimless:
            return lanes.chosen(lanes.flags(hits) | aimless)
        while not hits:
            grown = grow(grown)
            hits = reaches & grown
        return lanes.best(hits)

    def shift_reaches(self, state: SlidingState, moves: Sequence[Shift]) -> Iterator[tuple[int, int]]:
        """For each shift of the mover in `moves`: (squares its pawn can then walk to, its
        targets), from `outlook`."""
        lanes, reaches = self.outlook(state)[:2]
        targets = self.lane_targets(state)
        index, lane = lanes.index, lanes.lane
        for move in moves:
            k = index[move]
            yield lane(reaches, k), lane(targets, k)

    def _score_walks(
        self, state: SlidingState, moves: Sequence[Shift | Walk], seat: int, steps: int
    ) -> list[tuple[int, int]]:
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
    "classic": SlidingGame,
    "young": YoungSlidingGame,
    "young-exit": YoungExitGame,
}


def find_variant(name: str) -> type[SlidingGame]:
    """The game class for a variant name."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}") from None


def opens_onto_board(mask: int, row: int, col: int, size: int) -> bool:
    """Whether a tile open on `mask` at (row, col) of a size x size board has a side open
    towards a neighbouring square (a start must, or its pawn could never leave)."""
    return any(mask & side and 0 <= row + dr < size and 0 <= col + dc < size for side, (dr, dc) in STEP.items())


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
