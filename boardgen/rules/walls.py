"""Rules of the moving-walls game (game D): pawns move like rooks, blocks slide until they touch.

A turn is two decisions in either order (but the game's first turn, which is a pawn, then a
block, as the source plays it): one of the mover's pawns slides in a straight line
(never through a block or a pawn) and one block slides in a straight line, ending so that it
touches another block by a side or a corner; a block never enters the white centre, never
crosses or ends on a pawn, and is never the block the previous player moved. A part that has
no legal move is skipped (`PASS`). A pawn sliding into the centre from outside may stop on the
first centre square holding a pawn, which it pushes to a free centre square of the mover's
choice (impossible when no centre square is free). The first player with `pawns_to_win`
pawns in the centre wins at once.

Positions are bitboards (Python ints): cell (row, col) is bit ``(row + 1) * W + col + 1``
with ``W = size + 2``, so a guard ring of bits that are never on the board lies around it,
and shifting a shape by a direction's offset moves it one square without wrapping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

from boardgen.model.walls import Cell, WallsLayout
from boardgen.rules.players import pick_best
from boardgen.rules.protocol import Game, HeuristicGame, Outcome, Player, Rng

PAWN, BLOCK, PASS = 0, 1, 2

# Distances at or beyond this many pawn moves count as "far"; a pawn walled off counts more.
FAR = 12
SEALED = FAR + 4
# How much the heuristic values the leading opponent's distance against its own.
HINDER = 0.5


class Move(NamedTuple):
    """A decision: a pawn slide (pawn index, target bit, bit the pushed pawn goes to or -1),
    a block slide (block index, signed bit offset) or a pass."""

    kind: int
    piece: int = 0
    target: int = 0
    extra: int = -1


PASS_MOVE = Move(PASS)


class WallsState(NamedTuple):
    """A position and whose decision it is. Pawn ``i`` belongs to seat ``i // per``."""

    seats: int
    turn: int  # complete turns played
    pawns: tuple[int, ...]  # bit of each pawn
    pawn_mask: int
    blocks: tuple[int, ...]  # bitboard of each block
    walls: int  # union of the blocks
    previous: int  # block the previous player moved, or -1
    moved: int  # block moved this turn, or -1
    pawn_done: bool
    block_done: bool
    winner: int  # seat, or -1
    quiet: int  # turns since some seat last came closer to the centre than ever before
    best: tuple[int, ...]  # each seat's closest approach so far (see `Geometry.progress`)
    events: tuple[str, ...] = ()  # what the last decision did, for self-play counters (`WallsGame.events`)


def shift(mask: int, offset: int) -> int:
    return mask << offset if offset >= 0 else mask >> -offset


@dataclass(frozen=True)
class Geometry:
    """Bit numbering and masks of one board size."""

    size: int
    width: int
    board: int
    outside: int
    centre: int
    directions: tuple[int, int, int, int]  # N, E, S, W offsets

    @classmethod
    def of(cls, layout: WallsLayout) -> Geometry:
        return cls.for_board(layout.size, layout.centre_size)

    @classmethod
    def for_board(cls, size: int, centre_size: int) -> Geometry:
        width = size + 2
        board = 0
        for r in range(size):
            for c in range(size):
                board |= 1 << ((r + 1) * width + c + 1)
        everything = (1 << ((size + 2) * width)) - 1
        centre = 0
        low = (size - centre_size) // 2
        for r in range(low, low + centre_size):
            for c in range(low, low + centre_size):
                centre |= 1 << ((r + 1) * width + c + 1)
        return cls(size, width, board, everything ^ board, centre, (-width, 1, width, -1))

    def bit(self, cell: Cell) -> int:
        return (cell[0] + 1) * self.width + cell[1] + 1

    def cell(self, bit: int) -> Cell:
        row, col = divmod(bit, self.width)
        return row - 1, col - 1

    def mask(self, cells: Sequence[Cell]) -> int:
        out = 0
        for cell in cells:
            out |= 1 << self.bit(cell)
        return out

    def cells(self, mask: int) -> list[Cell]:
        out = []
        while mask:
            low = mask & -mask
            out.append(self.cell(low.bit_length() - 1))
            mask ^= low
        return out

    def halo(self, mask: int) -> int:
        """The squares touching a shape by a side or a corner (guard bits included)."""
        w = self.width
        row = mask | mask << 1 | mask >> 1
        return (row | row << w | row >> w) & ~mask

    def slide(self, frontier: int, free: int) -> int:
        """Every square one straight slide through `free` squares away from `frontier`."""
        out = 0
        for offset in (1, self.width):
            # Occluded fills by doubling steps (slides are shorter than 32 squares), one
            # towards higher bits and one towards lower bits.
            g, p = frontier, free
            g |= p & g << offset
            p &= p << offset
            g |= p & g << 2 * offset
            p &= p << 2 * offset
            g |= p & g << 4 * offset
            p &= p << 4 * offset
            g |= p & g << 8 * offset
            p &= p << 8 * offset
            g |= p & g << 16 * offset
            out |= g << offset & free
            g, p = frontier, free
            g |= p & g >> offset
            p &= p >> offset
            g |= p & g >> 2 * offset
            p &= p >> 2 * offset
            g |= p & g >> 4 * offset
            p &= p >> 4 * offset
            g |= p & g >> 8 * offset
            p &= p >> 8 * offset
            g |= p & g >> 16 * offset
            out |= g >> offset & free
        return out

    def levels(self, walls: int, depth: int = FAR, until: int = 0) -> list[int]:
        """Squares by the least number of pawn moves from them into the centre, blocks as
        they stand and pawns ignored: ``levels[k]`` holds the squares k moves away. With
        `until`, it stops once every square of that mask has its level."""
        free = self.board & ~walls
        seen = self.centre
        out = [self.centre]
        while len(out) <= depth and (not until or until & ~seen):
            new = self.slide(out[-1], free) & ~seen
            if not new:
                break
            seen |= new
            out.append(new)
        return out

    def rows_and_columns(self) -> list[int]:
        """For every bit, rows plus columns from its square to the centre (0 inside)."""
        centre = self.cells(self.centre)
        low, high = min(r for r, _ in centre), max(r for r, _ in centre)
        out = []
        for bit in range((self.size + 2) * self.width):
            r, c = self.cell(bit)
            out.append(max(0, low - r, r - high) + max(0, low - c, c - high))
        return out


def distance(levels: Sequence[int], bit: int) -> int:
    """Pawn moves from a square into the centre according to `levels` (SEALED if none)."""
    for k, level in enumerate(levels):
        if level >> bit & 1:
            return k
    return FAR if len(levels) > FAR else SEALED


def distances(levels: Sequence[int], bits: Sequence[int]) -> list[int]:
    """`distance` of several squares."""
    beyond = FAR if len(levels) > FAR else SEALED
    out = []
    for bit in bits:
        for k, level in enumerate(levels):
            if level >> bit & 1:
                out.append(k)
                break
        else:
            out.append(beyond)
    return out


_MOVED = tuple(f"moved:{k}" for k in range(128))


class WallsGame(HeuristicGame[WallsState, Move]):
    """The moving-walls game on one layout, for 2 to 4 seats (see the module docstring)."""

    id = "walls"

    def __init__(self, layout: WallsLayout, *, stall_rounds: int | None = None):
        """`stall_rounds`: how many rounds without any seat coming closer to the centre than
        before make a stall (a ``stalls`` event); None: stalls are not counted."""
        self.layout = layout
        self.stall_rounds = stall_rounds
        self.geometry = Geometry.of(layout)
        self.per = layout.pawns_per_player
        self.to_win = layout.pawns_to_win
        self.push = layout.centre_push
        g = self.geometry
        self.start_blocks = tuple(g.mask(b.cells) for b in layout.blocks)
        self._last: tuple[WallsState, tuple[Move, ...]] | None = None
        self._far = g.rows_and_columns()
        self._halos: dict[int, int] = {}  # block bitboard -> its halo (blocks revisit squares)

    # -- protocol ----------------------------------------------------------------------------

    def initial_state(self, players: int, seed: int = 0) -> WallsState:
        """The printed start: every block on its outline, pawns on their corners (the seed
        plays no part: the game has no chance)."""
        g = self.geometry
        pawns = tuple(
            g.bit(cell) for colour in self.layout.seat_colours(players) for cell in self.layout.starts(colour)
        )
        mask = 0
        for bit in pawns:
            mask |= 1 << bit
        walls = 0
        for block in self.start_blocks:
            walls |= block
        best = tuple(self._progress(pawns, seat) for seat in range(players))
        return WallsState(players, 0, pawns, mask, self.start_blocks, walls, -1, -1, False, False, -1, 0, best)

    def to_move(self, state: WallsState) -> int:
        return state.turn % state.seats

    def turns_played(self, state: WallsState) -> int:
        return state.turn

    def events(self, state: WallsState) -> tuple[str, ...]:
        """Self-play counters of the decision that led to `state`: the block it slid
        (``moved:<block>``) and ``stalls`` when it ended a turn that made `stall_rounds`
        rounds without progress."""
        return state.events

    def outcome(self, state: WallsState) -> Outcome | None:
        if state.winner < 0:
            return None
        return Outcome(state.winner, state.turn)

    def legal_moves(self, state: WallsState) -> list[Move]:
        # Self-play asks twice for the same position (the loop, then the player): keep the last.
        if self._last is not None and self._last[0] is state:
            return list(self._last[1])
        if state.winner >= 0:
            return []
        moves = [] if state.pawn_done else self.pawn_moves(state)
        # The game's very first turn is a pawn, then a block (the source's order); from then
        # on the mover chooses. A first player with no pawn move plays the block alone.
        if not state.block_done and not (state.turn == 0 and moves):
            moves += self.block_moves(state)
        moves = moves or [PASS_MOVE]
        self._last = (state, tuple(moves))
        return moves

    def pawn_moves(self, state: WallsState) -> list[Move]:
        """Straight slides of the mover's pawns, and pushes into the centre."""
        g = self.geometry
        seat = state.turn % state.seats
        stop = state.walls | g.outside
        pawns_at = state.pawn_mask
        centre = g.centre
        free_centre = [b for b in range(centre.bit_length()) if centre >> b & 1 and not pawns_at >> b & 1]
        moves = []
        for index in range(seat * self.per, (seat + 1) * self.per):
            start = state.pawns[index]
            outside = not centre >> start & 1
            for offset in g.directions:
                at = start + offset
                while not stop >> at & 1:
                    if pawns_at >> at & 1:
                        if self.push and outside and centre >> at & 1:
                            moves += [Move(PAWN, index, at, to) for to in free_centre]
                        break
                    moves.append(Move(PAWN, index, at))
                    at += offset
        return moves

    def block_moves(self, state: WallsState) -> list[Move]:
        """Straight slides of any block but the previous player's, through free squares
        outside the centre, to any square where it touches another block."""
        g = self.geometry
        fixed = state.pawn_mask | g.centre | g.outside
        moves = []
        for index, mask in enumerate(state.blocks):
            if index == state.previous:
                continue
            others = state.walls ^ mask
            stop = fixed | others
            halo = self._halos.get(mask)
            if halo is None:
                halo = self._halos[mask] = g.halo(mask)
            for offset in g.directions:
                # Shifts inlined (this is the hot loop of self-play): left for +, right for -.
                if offset > 0:
                    moved, ring = mask << offset, halo << offset
                    step = offset
                    while not moved & stop:
                        if ring & others:
                            moves.append(Move(BLOCK, index, step))
                        moved <<= offset
                        ring <<= offset
                        step += offset
                else:
                    back = -offset
                    moved, ring = mask >> back, halo >> back
                    step = offset
                    while not moved & stop:
                        if ring & others:
                            moves.append(Move(BLOCK, index, step))
                        moved >>= back
                        ring >>= back
                        step += offset
        return moves

    def apply(self, state: WallsState, move: Move) -> WallsState:
        seat = state.turn % state.seats
        if move.kind == PAWN:
            pawns = list(state.pawns)
            mask = state.pawn_mask ^ (1 << pawns[move.piece]) | (1 << move.target)
            if move.extra >= 0:
                pushed = pawns.index(move.target)
                pawns[pushed] = move.extra
                mask |= 1 << move.extra
            pawns[move.piece] = move.target
            after = state._replace(pawns=tuple(pawns), pawn_mask=mask, pawn_done=True, events=())
            if self._in_centre(after.pawns, seat) >= self.to_win:
                return after._replace(winner=seat, turn=state.turn + 1)
        elif move.kind == BLOCK:
            blocks = list(state.blocks)
            old = blocks[move.piece]
            blocks[move.piece] = shift(old, move.target)
            after = state._replace(
                blocks=tuple(blocks),
                walls=state.walls ^ old | blocks[move.piece],
                moved=move.piece,
                block_done=True,
                events=(_MOVED[move.piece],),
            )
        else:
            after = state._replace(pawn_done=True, block_done=True, events=())
        if after.pawn_done and after.block_done:
            return self._end_turn(after, seat)
        return after

    # -- helpers -------------------------------------------------------------------------------

    def _end_turn(self, state: WallsState, seat: int) -> WallsState:
        now = self._progress(state.pawns, seat)
        best, quiet = state.best, state.quiet + 1
        if now < best[seat]:
            best = best[:seat] + (now,) + best[seat + 1 :]
            quiet = 0
        events = state.events
        if self.stall_rounds is not None and quiet == self.stall_rounds * state.seats:
            events += ("stalls",)  # the game has gone `stall_rounds` rounds without progress
        return state._replace(
            turn=state.turn + 1,
            previous=state.moved,
            moved=-1,
            pawn_done=False,
            block_done=False,
            quiet=quiet,
            best=best,
            events=events,
        )

    def _progress(self, pawns: Sequence[int], seat: int) -> int:
        """How far the seat's `pawns_to_win` nearest pawns are from the centre in rows plus
        columns: a plain measure, blind to blocks, used to notice games going nowhere."""
        far = self._far
        return sum(sorted(far[bit] for bit in pawns[seat * self.per : (seat + 1) * self.per])[: self.to_win])

    def _in_centre(self, pawns: Sequence[int], seat: int) -> int:
        centre = self.geometry.centre
        return sum(centre >> bit & 1 for bit in pawns[seat * self.per : (seat + 1) * self.per])

    def seat_distance(self, levels: Sequence[int], pawns: Sequence[int], seat: int) -> int:
        """Pawn moves the seat's `pawns_to_win` nearest pawns need, blocks as they stand."""
        own = sorted(distances(levels, pawns[seat * self.per : (seat + 1) * self.per]))
        return sum(own[: self.to_win])

    def heuristic(self, state: WallsState, seat: int) -> float:
        """Lower is better for `seat`: the pawn moves its nearest pawns need, minus half those
        of the opponent nearest to winning (walling in the leader counts too), plus a little
        for rows and columns to go (so walled-in pawns still edge closer)."""
        levels = self.geometry.levels(state.walls, until=state.pawn_mask)
        return self.value(distances(levels, state.pawns), state.pawns, state.seats, seat)

    def value(self, dist: Sequence[int], pawns: Sequence[int], seats: int, seat: int) -> float:
        """`heuristic` from the distance of every pawn."""
        per, keep = self.per, self.to_win
        rival = min(sum(sorted(dist[s * per : (s + 1) * per])[:keep]) for s in range(seats) if s != seat)
        return self._own_value(dist[seat * per : (seat + 1) * per], pawns[seat * per : (seat + 1) * per], rival)

    def _own_value(self, dist: Sequence[int], pawns: Sequence[int], rival: int) -> float:
        keep = self.to_win
        own = sum(sorted(dist)[:keep])
        if own == 0:
            return -1000.0
        far = self._far
        return own - HINDER * rival + 0.02 * sum(sorted(far[bit] for bit in pawns)[:keep])

    def pawn_move_values(
        self, state: WallsState, moves: Sequence[Move], levels: Sequence[int], seat: int
    ) -> list[float]:
        """`value` for `seat` after each of its pawn slides, blocks unchanged: only its own
        pawns' distances change (a pushed pawn stays in the centre)."""
        per = self.per
        dist = distances(levels, state.pawns)
        rival = min(sum(sorted(dist[s * per : (s + 1) * per])[: self.to_win]) for s in range(state.seats) if s != seat)
        low = seat * per
        own_dist, own_bits = dist[low : low + per], list(state.pawns[low : low + per])
        out = []
        for move in moves:
            k = move.piece - low
            d, bits = list(own_dist), list(own_bits)
            d[k] = distance(levels, move.target)
            bits[k] = move.target
            out.append(self._own_value(d, bits, rival))
        return out


# -- players ---------------------------------------------------------------------------------


def pawn_values(
    game: WallsGame, state: WallsState, moves: Sequence[Move], levels: Sequence[int], seat: int
) -> list[float]:
    """The heuristic for `seat` after each pawn slide, blocks unchanged."""
    return game.pawn_move_values(state, moves, levels, seat)


def block_value(game: WallsGame, state: WallsState, move: Move, seat: int) -> float:
    """The heuristic for `seat` after a block slide."""
    old = state.blocks[move.piece]
    levels = game.geometry.levels(state.walls ^ old | shift(old, move.target), until=state.pawn_mask)
    return game.value(distances(levels, state.pawns), state.pawns, state.seats, seat)


def near_blocks(game: WallsGame, state: WallsState, moves: Sequence[Move], seat: int, rng: Rng) -> list[Move]:
    """Block slides that may change a distance that matters: those leaving or entering the
    lines of sight of the mover's pawns and of the leading opponent's, or the edge of the
    region from which the centre can be reached."""
    g = game.geometry
    levels = g.levels(state.walls)
    region = 0
    for level in levels:
        region |= level
    dist = distances(levels, state.pawns)
    per, keep = game.per, game.to_win
    rivals = [s for s in range(state.seats) if s != seat]
    # Among equally placed rivals the leader is drawn at random, so no seat is singled out.
    leader = min(rivals, key=lambda s: (sum(sorted(dist[s * per : (s + 1) * per])[:keep]), rng.random()))
    free = g.board & ~state.walls
    watch = g.halo(region) | region
    for s in (seat, leader):
        for bit in state.pawns[s * per : (s + 1) * per]:
            if not g.centre >> bit & 1:
                watch |= g.slide(1 << bit, free)
    return [
        m
        for m in moves
        if m.kind == BLOCK and (state.blocks[m.piece] & watch or shift(state.blocks[m.piece], m.target) & watch)
    ]


def pick(moves: Sequence[Move], values: Sequence[float], rng: Rng) -> tuple[Move, float]:
    """The move of the lowest value (`pick_best`) and that value."""
    return pick_best(moves, values, rng), min(values)


class HeuristicPlayer(Player):
    """Pawns: the slide leaving its nearest pawns fewest moves from the centre (entering and
    pushing first), played first when it gains something. Blocks: among up to `candidates`
    slides near pawns that matter (see `near_blocks`), the one after which it is nearest and
    the leading opponent farthest; any legal slide if none is near."""

    name = "heuristic"

    def __init__(self, candidates: int = 8):
        self.candidates = candidates

    def choose(self, game: Game[Any, Any], state: Any, rng: Rng) -> Move:
        return self.decide(cast(WallsGame, game), cast(WallsState, state), rng)

    def decide(self, game: WallsGame, state: WallsState, rng: Rng) -> Move:
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        seat = game.to_move(state)
        pawn = [m for m in moves if m.kind == PAWN]
        blocks = [m for m in moves if m.kind == BLOCK]
        if pawn:
            levels = game.geometry.levels(state.walls)
            move, value = pick(pawn, pawn_values(game, state, pawn, levels, seat), rng)
            if not blocks or value < game.value(distances(levels, state.pawns), state.pawns, state.seats, seat):
                return move
        return self.best_block(game, state, blocks, seat, rng)

    def best_block(self, game: WallsGame, state: WallsState, moves: Sequence[Move], seat: int, rng: Rng) -> Move:
        near = near_blocks(game, state, moves, seat, rng)
        if not near:
            return rng.choice(list(moves))
        if len(near) > self.candidates:
            near = rng.sample(near, self.candidates)
        return pick(near, [block_value(game, state, m, seat) for m in near], rng)[0]


class SearchPlayer(Player):
    """Looks at whole turns within a budget of `nodes` block slides per decision: the best
    `pawns` pawn slides each followed by the best nearby block slide, and nearby block slides
    each followed by the best pawn slide; it plays the first half of the best turn (the
    second half is then chosen afresh)."""

    name = "search"

    def __init__(self, pawns: int = 3, nodes: int = 48):
        self.pawns = pawns
        self.nodes = nodes
        self.helper = HeuristicPlayer()

    def choose(self, game: Game[Any, Any], state: Any, rng: Rng) -> Move:
        return self.decide(cast(WallsGame, game), cast(WallsState, state), rng)

    def decide(self, game: WallsGame, state: WallsState, rng: Rng) -> Move:
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        if state.pawn_done or state.block_done:
            return self.helper.decide(game, state, rng)
        seat = game.to_move(state)
        levels = game.geometry.levels(state.walls)
        pawn = [m for m in moves if m.kind == PAWN]
        near = near_blocks(game, state, moves, seat, rng)
        scored: list[tuple[float, float, Move]] = []
        share = max(1, self.nodes // (2 * self.pawns))
        values = pawn_values(game, state, pawn, levels, seat)
        ranked = sorted(zip(values, [rng.random() for _ in pawn], pawn, strict=True))[: self.pawns]
        for value, _, move in ranked:
            if value <= -1000:
                return move
            after = game.apply(state, move)
            follow = [m for m in near if not after.pawn_mask & shift(state.blocks[m.piece], m.target)]
            sample = follow if len(follow) <= share else rng.sample(follow, share)
            best = min((block_value(game, after, m, seat) for m in sample), default=value)
            scored.append((best, rng.random(), move))
        room = self.nodes - share * len(ranked)
        sample = near if len(near) <= room else rng.sample(near, room)
        for move in sample:
            after = game.apply(state, move)
            follow = game.pawn_moves(after)
            if follow:
                moved_levels = game.geometry.levels(after.walls)
                best = min(pawn_values(game, after, follow, moved_levels, seat))
            else:
                best = block_value(game, state, move, seat)
            scored.append((best, rng.random(), move))
        if not scored:
            return self.helper.decide(game, state, rng)
        return min(scored)[2]


class RandomPlayer(Player):
    """Any legal decision, uniformly."""

    name = "random"

    def choose(self, game: Game[Any, Any], state: Any, rng: Rng) -> Move:
        moves: list[Move] = list(game.legal_moves(state))
        return rng.choice(moves)


PLAYERS: Mapping[str, type[RandomPlayer | HeuristicPlayer | SearchPlayer]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "search": SearchPlayer,
}


def find_player(name: str) -> Player:
    """A new player by name: 'random', 'heuristic' (also 'greedy') or 'search'."""
    name = {"greedy": "heuristic"}.get(name, name)
    if name not in PLAYERS:
        raise ValueError(f"unknown player {name!r} for walls; known: {', '.join(PLAYERS)}")
    player: Player = PLAYERS[name]()
    return player
