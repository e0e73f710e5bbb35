"""Labyrinthe Master (game C): the sliding board with object tokens, recipe cards and wands.

The board is the sliding engine's `Board` (bitboards, see `boardgen.rules.sliding`). Pawns
and tokens are bit squares. Tokens are listed in order of value (``layout.by_value``); a
taken one has the square `TAKEN`. Only the lowest-valued token on the board can be taken,
so the taken objects are always the lowest ones: ``taken[i]`` is the seat that took object
``i`` and the lowest token still on the board is object ``len(taken)``.

Each turn is two or three decisions, all made by the seat in `to_move`:

1. ``Shift(point, rotation)``: exactly as in the classic game (no undoing the previous
   push). Pawns and tokens alike ride their tiles; whatever is on the tile pushed off the
   board goes onto the tile pushed in (`Push.carry`), so the spare never holds a token.
2. ``Walk(to)``: move along open corridors, or stay. A walk that ends on the square of the
   lowest token, having started on another square, takes that token; taking the last
   object (``layout.last_object``, the mistletoe) ends the game at once.
3. ``Wand(use)``: after a complete turn, if the player still has a wand and the turn was
   not itself a wand's extra turn: hand one in and play a whole extra turn at once
   (``USE``), or let the next player go on (``PASS``).

Score: the values of the objects taken, plus ``recipe_bonus`` for each one shown on the
player's own recipe card, plus ``unused_wand`` for each wand left. ``Outcome.scores`` has
every seat's score; ``Outcome.winner`` is the single best seat, None on a shared first place.

Decisions where the source rules are silent or unclear (worded for players, in English and
French, in ``layouts/rules/master.interpretations.<lang>.md``, printed with the rules):

1. Tokens ride their tiles as pawns do. A push therefore moves a pawn and a token on the
   same line in step: it can neither bring a pawn onto a token nor carry it off one, and
   being carried never counts as arriving (the source: "ce procédé ne compte pas").
2. A token is taken only where a walk ends, never in passing, and only the lowest-valued
   token still on the board. Taking it is not optional (the source lists it as what the
   player does "s'il le peut").
3. "Coming from another square" is judged by the walk alone: the walk must end on another
   square than the one it started from (after the shift). A pawn that stays, or walks away
   and back in one move (a `Walk` names only where it ends), takes nothing; a pawn standing
   on a token must leave it and come back on a later turn (a wand's extra turn is one).
4. Another pawn on the token's square does not protect it (pawns share squares freely).
5. A wand is played only right after one's own complete turn (shift, walk, pick-up), before
   the next player (the source: "quand on a fini de jouer"); the extra turn is a whole turn
   and cannot be followed by a second wand ("pas plus d'une baguette lors du même tour").
   The game ends when the last object is taken, even in an extra turn.
6. Each seat draws one recipe card: the designed cards (`model.master.setup`) are shuffled
   with ``random.Random(f"recipe-deal-{seed}")`` and seat ``i`` takes the ``i``-th; the rest
   stay in the box.
7. Equal best scores share the victory (no single winner is recorded).
8. "Good advice for a price" is a bargain at the table; the engine plays without it.

Engine conventions: seat ``i`` starts on ``layout.starts[i]`` and seat 0 plays first (the
source draws lots). A wand's extra turn counts as a turn in `turns_played`, so game lengths
and the turn cap count every shift-and-walk.

Players: any protocol player. The greedy player (via `score_moves`) shifts and walks to take
the lowest token when it can, otherwise to end as close to it as possible (a pawn standing
on it counts as `STANDING` squares away, since it must leave first). It plays a wand when
the extra turn can take the lowest token, that token is worth more to it than an unused
wand (its value plus the recipe bonus if it is on its own card), and an opponent could take
it on their next turn from the board as it stands; otherwise it keeps the wand for its
points.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import getitem
from typing import Any

from boardgen.model.master import RECIPE_TRIES, MasterLayout, design_recipes, recipe_problems, setup
from boardgen.model.sliding import InsertionPoint
from boardgen.rules.protocol import Outcome
from boardgen.rules.simulate import GameRecord, Hook
from boardgen.rules.sliding import (
    _ORIENTATIONS,
    _PLAIN_DRAWS,
    SHIFT,
    WALK,
    Board,
    IllegalMoveError,
    Lanes,
    Position,
    Push,
    SlidingRules,
    _grower,
    _shuffle,
    flood,
)
from boardgen.rules.solver import DEFAULT_BUDGET, Flooded, Solution, solve

WAND = "wand"
TAKEN = -1  # the square of a token that has been taken
STANDING = 3  # greedy play: how far a pawn standing on its token is from taking it
PLAYERS = ("random", "greedy", "search")  # the protocol players that can play this game

@dataclass(frozen=True)
class Wand:
    """Between turns: hand in a wand for a whole extra turn at once (`use`), or pass."""

    use: bool

    def __str__(self) -> str:
        return "wand" if self.use else "pass"


USE, PASS = Wand(True), Wand(False)


@dataclass(frozen=True)
class MasterState(Position):
    """Game state: the `Position`, the tokens, who took what, recipes and wands."""

    tokens: tuple[int, ...]  # bit square per object in order of value, TAKEN once taken
    taken: tuple[int, ...]  # the seat that took each of the lowest objects, in order
    recipes: tuple[tuple[int, ...], ...]  # per seat, the objects (by value rank) of its card
    wands: tuple[int, ...]  # wands left per seat
    extra: bool = False  # the turn under way is a wand's extra turn
    over: bool = False  # the last object has been taken
    seed: int = 0  # the seed the board, the tokens and the recipes were set up with

    @property
    def lowest(self) -> int | None:
        """The object (rank by value) that may be taken next, or None once all are taken."""
        low = len(self.taken)
        return low if low < len(self.tokens) else None

    def on_board(self) -> int:
        """How many tokens are still on the board."""
        return sum(1 for square in self.tokens if square != TAKEN)

    def taken_by(self, seat: int) -> tuple[int, ...]:
        """The objects (ranks by value) the seat has taken."""
        return tuple(i for i, owner in enumerate(self.taken) if owner == seat)



def deal_recipes(cards: Sequence[Sequence[str]], players: int,
                 seed: int) -> tuple[tuple[str, ...], ...]:
    """Each seat's recipe card: the cards shuffled with the seed, seat i draws the i-th."""
    if players > len(cards):
        raise ValueError(f"{players!r} players but only {len(cards)} recipe cards")
    order = list(range(len(cards)))
    random.Random(f"recipe-deal-{seed}").shuffle(order)
    return tuple(tuple(cards[i]) for i in order[:players])


class MasterGame(SlidingRules[MasterState]):
    """The rules of Labyrinthe Master: the sliding board's shift and walk (`SlidingRules`)
    with tokens that ride the tiles, a token taken on arrival, and wands for extra turns
    (`end_turn`)."""

    def __init__(self, layout: MasterLayout):
        super().__init__(layout)
        self.layout: MasterLayout = layout
        self.objects = layout.by_value
        self.ids = tuple(o.id for o in self.objects)
        self.values = tuple(o.value for o in self.objects)
        self.rank = {object_id: i for i, object_id in enumerate(self.ids)}
        self.last_rank = self.rank[layout.last_object]
        self._grow = _grower(self.geometry)
        # Per push (by point index): where a token on each square rides to (`Push.carry`),
        # and one more entry last, so that TAKEN (-1) stays TAKEN.
        assert TAKEN == -1
        self._carries = tuple((*table, TAKEN) for table in self.geometry.carries)
        # `_recipes`: whether the recipe rules that no shuffle changes hold (None: not known yet).
        self._rules_hold: bool | None = None

    # -- the protocol --------------------------------------------------------------------

    def initial_state(self, players: int, seed: int) -> MasterState:
        """The printed set-up of `seed` (`model.master.setup`), recipes dealt by seat."""
        self.check_players(players)
        start = setup(self.layout, seed)
        return self.start(Board.from_deal(start.deal, self.geometry), players,
                          tokens=start.tokens, recipes=deal_recipes(start.recipes, players, seed),
                          seed=seed)

    def start(self, board: Board, players: int, *, tokens: Mapping[tuple[int, int], str],
              recipes: Sequence[Sequence[str]], seed: int = 0,
              pawns: Sequence[tuple[int, int]] | None = None, taken: Sequence[int] = (),
              wands: Sequence[int] | None = None) -> MasterState:
        """A game on a given board, seat 0 to shift.

        `tokens` maps (row, col) to the object lying there; the objects taken already are
        the lowest ones, and `taken` names the seat holding each, in order of value. Pawns
        default to the starts, wands to the layout's number per player.
        """
        self.check_players(players)
        if board.geometry.size != self.geometry.size:
            raise ValueError(f"a {board.geometry.size}x{board.geometry.size} board for a "
                             f"{self.geometry.size}x{self.geometry.size} game")
        squares = [TAKEN] * len(self.ids)
        for cell, object_id in tokens.items():
            if object_id not in self.rank:
                raise ValueError(f"unknown object {object_id!r}")
            squares[self.rank[object_id]] = self.geometry.bit(*cell)
        expected = set(range(len(taken), len(self.ids)))
        placed = {i for i, square in enumerate(squares) if square != TAKEN}
        if placed != expected or len(set(tokens)) != len(tokens):
            missing = [self.ids[i] for i in sorted(expected - placed)]
            extra = [self.ids[i] for i in sorted(placed - expected)]
            raise ValueError(f"with {len(taken)} objects taken the board needs the others: "
                             f"missing {missing!r}, taken but placed {extra!r}")
        if any(not 0 <= seat < players for seat in taken):
            raise ValueError(f"taken by {list(taken)!r}: seats run 0..{players - 1}")
        if len(recipes) != players:
            raise ValueError(f"{len(recipes)} recipe cards for {players!r} players")
        cards = tuple(tuple(self.rank[o] for o in card) for card in recipes)
        if pawns is not None and len(pawns) != players:
            raise ValueError(f"{len(pawns)} pawns for {players!r} players")
        where = (self.homes[:players] if pawns is None
                 else tuple(self.geometry.bit(*cell) for cell in pawns))
        left = (tuple(wands) if wands is not None
                else (self.layout.wands_per_player,) * players)
        return MasterState(board, where, 0, SHIFT, None, 0, 0, tuple(squares), tuple(taken),
                           cards, left, seed=seed)

    def is_over(self, state: MasterState) -> bool:
        return state.over

    def other_moves(self, state: MasterState) -> Sequence[Wand]:
        return (USE, PASS)

    def outcome(self, state: MasterState) -> Outcome | None:
        if not state.over:
            return None
        scores = self.scores(state)
        best = max(scores)
        leaders = [seat for seat, score in enumerate(scores) if score == best]
        return Outcome(leaders[0] if len(leaders) == 1 else None, state.turn, scores)

    # -- rules ----------------------------------------------------------------------------

    def shifted(self, state: MasterState, push: Push, board: Board, pawns: tuple[int, ...],
                reach: int) -> MasterState:
        """Tokens ride their tiles as the pawns do (`Push.carry`)."""
        tokens = tuple(map(self._carries[self.geometry.point_index[push.point]].__getitem__,
                           state.tokens))
        return MasterState(board, pawns, state.seat, WALK, push.point, state.turn, reach, tokens,
                           state.taken, state.recipes, state.wands, state.extra, False,
                           state.seed)

    def arrive(self, state: MasterState, square: int) -> MasterState:
        """A walk that ends on the lowest token, from another square, takes it; taking the
        last object ends the game."""
        seat = state.seat
        origin = state.pawns[seat]
        pawns = state.pawns[:seat] + (square,) + state.pawns[seat + 1:]
        tokens, taken, over = state.tokens, state.taken, False
        low = len(taken)
        if square != origin and low < len(tokens) and tokens[low] == square:
            tokens = tokens[:low] + (TAKEN,) + tokens[low + 1:]
            taken = taken + (seat,)
            over = low == self.last_rank
        return MasterState(state.board, pawns, seat, state.phase, state.last, state.turn,
                           state.reach, tokens, taken, state.recipes, state.wands,
                           state.extra, over, state.seed)

    def end_turn(self, state: MasterState) -> MasterState:
        """After a complete turn the mover may play a wand (`WAND` phase) if it has one and
        the turn was not already a wand's; otherwise the next seat shifts."""
        seat = state.seat
        if state.over:
            after, phase, extra = seat, SHIFT, state.extra
        elif state.wands[seat] and not state.extra:
            after, phase, extra = seat, WAND, False
        else:
            after, phase, extra = (seat + 1) % len(state.pawns), SHIFT, False
        return MasterState(state.board, state.pawns, after, phase, state.last, state.turn + 1, 0,
                           state.tokens, state.taken, state.recipes, state.wands, extra,
                           state.over, state.seed)

    def apply_other(self, state: MasterState, move: object) -> MasterState:
        """The wand decision: play a wand for an extra turn now, or pass."""
        if not isinstance(move, Wand):
            raise IllegalMoveError(f"{move} cannot be played: the turn is over, play a wand "
                                   f"or pass")
        seat = state.seat
        wands, extra = state.wands, move.use
        if extra:
            wands = wands[:seat] + (wands[seat] - 1,) + wands[seat + 1:]
        else:
            seat = (seat + 1) % len(state.pawns)
        return MasterState(state.board, state.pawns, seat, SHIFT, state.last, state.turn,
                           state.reach, state.tokens, state.taken, state.recipes, wands, extra,
                           state.over, state.seed)

    def check_players(self, players: int) -> None:
        """Refuse a player count the layout is not for."""
        low, high = self.layout.players
        if not low <= players <= high:
            raise ValueError(f"{self.layout.id!r} is for {low} to {high} players, "
                             f"not {players!r}")
        if players > len(self.homes):
            raise ValueError(f"{players!r} players but {len(self.homes)} starts")

    # -- scores ---------------------------------------------------------------------------

    def gain(self, state: MasterState, seat: int, rank: int) -> int:
        """What taking object `rank` is worth to `seat`: its value, plus the recipe bonus."""
        bonus = self.layout.recipe_bonus if rank in state.recipes[seat] else 0
        return self.values[rank] + bonus

    def scores(self, state: MasterState) -> tuple[int, ...]:
        """Every seat's score as it stands: objects, recipe bonuses and unused wands."""
        totals = [left * self.layout.unused_wand for left in state.wands]
        for rank, seat in enumerate(state.taken):
            totals[seat] += self.gain(state, seat, rank)
        return tuple(totals)

    def score(self, state: MasterState, seat: int) -> int:
        return self.scores(state)[seat]

    def token_cells(self, state: MasterState) -> dict[tuple[int, int], str]:
        """(row, col) -> object id of every token on the board."""
        cell = self.geometry.cell
        return {cell(sq): self.ids[i] for i, sq in enumerate(state.tokens) if sq != TAKEN}

    # -- evaluation for players -----------------------------------------------------------

    def heuristic(self, state: MasterState, seat: int) -> tuple[int, int]:
        """(minus the points the seat holds or takes with its walk in reach, distance from
        the lowest token); lower is better."""
        banked = self.score(state, seat)
        low = state.lowest
        if state.over or low is None:
            return (-banked, 0)
        target = state.tokens[low]
        pawn = state.pawns[seat]
        if state.seat == seat and state.phase == WALK:
            return self._best_walk(state.reach, pawn, target, banked,
                                   self.gain(state, seat, low))
        return (-banked, self._distance(pawn, target))

    def score_moves(self, state: MasterState, moves: Sequence[Any],
                    seat: int) -> list[tuple[int, ...]]:
        """`heuristic` of each move's result without building the states; for a wand
        decision, the values of `wand_values`, which look one turn further."""
        if state.seat != seat or state.over:
            return [self.heuristic(self.apply(state, m), seat) for m in moves]
        if state.phase == WAND:
            use, keep = self.wand_values(state)
            return [use if m.use else keep for m in moves]
        banked = self.score(state, seat)
        low = state.lowest
        if low is None:
            return [(-banked, 0)] * len(moves)
        target = state.tokens[low]
        gain = self.gain(state, seat, low)
        pawn = state.pawns[seat]
        scores: list[tuple[int, ...]] = []
        if state.phase == WALK:
            bit = self.geometry.bit
            for move in moves:
                square = bit(*move.to)
                if square == target and square != pawn:
                    scores.append((-(banked + gain), 0))
                else:
                    scores.append((-banked, self._distance(square, target)))
            return scores
        lanes, reaches = self.lane_reaches(state.board, state.forbidden, pawn)
        lane, pushes, index = lanes.lane, lanes.pushes, lanes.index
        # Many shifts leave the same squares in reach of the token: score each once.
        memo: dict[tuple[int, int], tuple[int, int]] = {}
        for move in moves:
            k = index[move]
            push = pushes[k]
            key = (lane(reaches, k), push.carry(target))
            value = memo.get(key)
            if value is None:
                value = memo[key] = self._best_walk(key[0], push.carry(pawn), key[1], banked,
                                                    gain)
            scores.append(value)
        return scores

    def best_moves(self, state: MasterState) -> Sequence[Any]:
        """The mover's legal moves whose results score best by `score_moves`, in the order
        of `legal_moves`: what a greedy player chooses among, found without scoring every
        move. A shift phase floods every shift's board at once (`lane_reaches`) and grows
        the lowest token (riding each shift) until it meets a lane's reach; a walk phase
        grows it on the one board."""
        if state.over:
            return ()
        if state.phase == WAND:
            use, keep = self.wand_values(state)
            return (USE,) if use < keep else (PASS,) if keep < use else (USE, PASS)
        low = state.lowest
        if low is None or self.gain(state, state.seat, low) <= 0:
            # Every move alike, or taking is no gain: score them all.
            moves = self.legal_moves(state)
            values = self.score_moves(state, moves, state.seat)
            best = min(values)
            return [m for m, v in zip(moves, values, strict=True) if v == best]
        target, pawn = state.tokens[low], state.pawns[state.seat]
        if state.phase == WALK:
            reach, bit = state.reach, 1 << target
            grow = self._grow
            if pawn != target:  # taking it beats everything; else the squares nearest to it
                hits, grown = reach & bit, bit
                while not hits:
                    grown = grow(grown)
                    hits = reach & grown
                return self.walks(hits)
            # Standing on it counts as STANDING squares away: step off as close as possible.
            others, grown = reach & ~bit, bit
            for _ in range(STANDING - 1):
                grown = grow(grown)
                if others & grown:
                    return self.walks(others & grown)
            return self.walks((others & grow(grown)) | bit)
        lanes, reaches = self.lane_reaches(state.board, state.forbidden, pawn)
        targets = lanes.carried(target)
        if pawn != target:
            hits, grown = reaches & targets, targets
            while not hits:
                grown = lanes.grow(grown)
                hits = reaches & grown
            return lanes.chosen(lanes.flags(hits))
        others, grown = reaches & ~targets, targets
        for _ in range(STANDING - 1):
            grown = lanes.grow(grown)
            if others & grown:
                return lanes.chosen(lanes.flags(others & grown))
        return lanes.moves

    def playout(self, players: Sequence[object], seed: int, *, turn_cap: int,
                hook: Hook | None = None) -> GameRecord | None:
        """`boardgen.rules.simulate.play` asks this first: with a greedy player in every
        seat, the game and the record `play` gives, decision by decision (same states, same
        draws from ``random.Random(seed)``), choosing among `best_moves` without the
        protocol's round trips; None for other players (then `play` plays it)."""
        from boardgen.rules.players import GreedyPlayer

        if not all(type(p) is GreedyPlayer for p in players):
            return None
        if (hook is None or hook is count_wands) and type(self) is MasterGame and min(self.values) > 0 \
                and self.layout.recipe_bonus >= 0 and _PLAIN_DRAWS:
            return self.greedy_game(len(players), seed, turn_cap=turn_cap,
                                    count=hook is not None)
        return self.state_playout(len(players), seed, turn_cap, hook)

    def greedy_game(self, seats: int, seed: int, *, turn_cap: int, count: bool = False,
                    trace: list[Any] | None = None) -> GameRecord:
        """One game of greedy players in every seat on plain ints and lists: the moves
        `best_moves` offers and the draws `playout` makes, decision by decision, so the record
        is the one `play` gives (with `count`, the `count_wands` counter too). `trace`, if
        given, receives every move played. The rules of `shifted`, `arrive`, `end_turn`,
        `apply_other` and the greedy values (`best_moves`, `wand_values`) are written out
        again below, in locals; every object is worth something (values above 0)."""
        n, e, s, w, spare_mask, tokens, recipes = self.plain_setup(seats, seed)
        bits = random.Random(seed).getrandbits  # `choice` written out (`_PLAIN_DRAWS`)
        geometry = self.geometry
        stride, full = geometry.stride, geometry.full
        pawns = list(self.homes[:seats])
        wands = [self.layout.wands_per_player] * seats
        taken: list[int] = []
        values, bonus, unused = self.values, self.layout.recipe_bonus, self.layout.unused_wand
        last_rank, carries, opposites = self.last_rank, self._carries, geometry.opposites
        table, orientations = self._fast_lanes, _ORIENTATIONS
        square_bytes, nbytes = self._square_bytes, len(self._square_bytes)
        walks, distance = self._walks, geometry.distance
        forbidden = -1
        seat = turn = decisions = offered = widest = used = 0
        extra = over = False
        # The token's flood of a wand decision, for the shift that follows on the same board.
        kept: tuple[int, int, int, int, int] | None = None

        def lanes_of(forbidden: int, spare_mask: int) -> Lanes:
            lanes = table.get(forbidden * 8 + orientations[spare_mask])
            return lanes if lanes is not None else self._fast_lane(forbidden, spare_mask)

        while not over and turn < turn_cap:
            # -- the shift (`best_moves`: the lowest token grown to the lanes' reaches)
            lanes = lanes_of(forbidden, spare_mask)
            moves = lanes.count
            offered += moves
            if moves > widest:
                widest = moves
            low = len(taken)
            target, pawn = tokens[low], pawns[seat]
            carried = lanes.carries
            targets = carried[target]
            hits = 0
            if kept is None:
                reaches, ln, le, ls, lw = lanes.flooded(n, e, s, w, spare_mask, carried[pawn])
            else:
                # The wand decision just flooded this very board from the token. In the
                # lanes where the pawn is in the token's corridors (or on the token), those
                # are the pawn's corridors: the lanes that take it, and the chosen lane's
                # reach. Else the pawn's own flood, on the lanes' sides pushed already.
                reaches, ln, le, ls, lw = kept
                kept = None
                if pawn != target:
                    hits = reaches & carried[pawn]
                    if not hits:
                        reaches = flood(carried[pawn], le & (lw >> 1), ls & (ln >> stride), stride)
            if pawn != target:
                if not hits:
                    hits, grown = reaches & targets, targets
                    while not hits:
                        grown = lanes.grow(grown)
                        hits = reaches & grown
            else:
                others, grown = reaches & ~targets, targets
                for _ in range(STANDING - 1):
                    grown = lanes.grow(grown)
                    hits = others & grown
                    if hits:
                        break
                else:
                    hits = lanes.full
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
            at, mask = k << lanes.bits, lanes.lane_mask
            push = lanes.pushes[k]
            out = push.exit
            spare_mask, n, e, s, w = (
                ((n >> out) & 1) | (((e >> out) & 1) << 1) | (((s >> out) & 1) << 2)
                | (((w >> out) & 1) << 3),
                (ln >> at) & mask, (le >> at) & mask, (ls >> at) & mask, (lw >> at) & mask)
            point = lanes.point_ids[k]
            carry = carries[point]
            pawns = [carry[p] for p in pawns]
            tokens = [carry[t] for t in tokens]
            reach = (reaches >> at) & mask
            forbidden = opposites[point]
            decisions += 1
            if trace is not None:
                trace.append(lanes.moves[k])
            # -- the walk: onto the token, else as near it as can be (`best_moves`)
            moves = reach.bit_count()
            offered += moves
            if moves > widest:
                widest = moves
            pawn, target = pawns[seat], tokens[low]
            bit = 1 << target
            if pawn != target:
                hits, grown = reach & bit, bit
                while not hits:
                    grown = (grown | grown << 1 | grown >> 1 | grown << stride | grown >> stride) & full
                    hits = reach & grown
            else:
                others, grown, hits = reach & ~bit, bit, 0
                for _ in range(STANDING):
                    grown = (grown | grown << 1 | grown >> 1 | grown << stride | grown >> stride) & full
                    hits = others & grown
                    if hits:
                        break
                if not hits or distance(hits.bit_length() - 1, target) == STANDING:
                    hits |= bit  # staying is as good as STANDING squares away
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
            # -- arrive and end the turn (`arrive`, `end_turn`)
            if square != pawn and target == square:
                tokens[low] = TAKEN
                taken.append(seat)
                over = low == last_rank
            pawns[seat] = square
            decisions += 1
            turn += 1
            if over:
                break
            if not wands[seat] or extra:
                seat, extra = (seat + 1) % seats, False
                continue
            # -- the wand decision (`wand_values`), if the cap leaves room for it
            if turn >= turn_cap:
                break
            offered += 2
            if widest < 2:
                widest = 2
            low = len(taken)
            target = tokens[low]
            banked = wands[seat] * unused + sum(
                values[rank] + (bonus if rank in recipes[seat] else 0)
                for rank, owner in enumerate(taken) if owner == seat)
            near = STANDING if square == target else distance(square, target)
            # `can_take` of every pawn at once: one flood from the token (a pawn can take it
            # in the lanes where the token's corridors reach the pawn).
            around = 0
            if square != target:
                lanes = lanes_of(forbidden, spare_mask)
                carried = lanes.carries
                kept = lanes.flooded(n, e, s, w, spare_mask, carried[target])
                around = kept[0] & ~carried[target]
            if not around & carried[square]:
                use: tuple[int, ...] = (-(banked - unused), near, 1)
                keep: tuple[int, ...] = (-banked, near, 0)
            else:
                gain = values[low] + (bonus if low in recipes[seat] else 0)
                use = (-(banked - unused + gain), 0, 1)
                if gain <= unused or any(around & carried[pawns[other]]
                                         for other in range(seats) if other != seat):
                    keep = (-banked, near, 0)
                else:
                    keep = (-(banked + gain), 0, 0)
            if use < keep or keep < use:  # choice of one
                while bits(1):
                    pass
                wand = USE if use < keep else PASS
            else:
                r = bits(2)
                while r >= 2:
                    r = bits(2)
                wand = (USE, PASS)[r]
            if trace is not None:
                trace.append(wand)
            decisions += 1
            if wand.use:
                wands[seat] -= 1
                used += 1
                extra = True
            else:
                seat, extra = (seat + 1) % seats, False
        counters = {"wands_used": float(used)} if count and used else {}
        if not over:
            return GameRecord(seed, seats, None, turn_cap, False, decisions, offered, widest,
                              counters)
        totals = [left * unused for left in wands]
        for rank, owner in enumerate(taken):
            totals[owner] += values[rank] + (bonus if rank in recipes[owner] else 0)
        best = max(totals)
        leaders = [seat for seat, score in enumerate(totals) if score == best]
        return GameRecord(seed, seats, leaders[0] if len(leaders) == 1 else None, turn, True,
                          decisions, offered, widest, counters, tuple(totals))

    def plain_setup(self, seats: int, seed: int) -> tuple[int, int, int, int, int, list[int],
                                                         tuple[tuple[int, ...], ...]]:
        """`initial_state` as plain data for `greedy_game`: the board's open sides (N, E, S,
        W) and spare, every token's square by rank, each seat's recipe card by rank.

        The same draws as `model.master.setup` and `deal_recipes`, made without a method
        call each (`boardgen.rules.sliding._shuffle`); the recipe deals that show an object
        twice on a card or two cards alike (most of them) are told at once."""
        self.check_players(seats)
        if not _PLAIN_DRAWS:
            state = self.initial_state(seats, seed)
            board = state.board
            return (board.n, board.e, board.s, board.w, board.spare_mask, list(state.tokens),
                    state.recipes)
        layout = self.layout
        n, e, s, w, _, _, spare_mask = self.dealt(seed)
        placed = list(self.ids)
        _shuffle(random.Random(f"tokens-{seed}").getrandbits, placed)
        tokens = [TAKEN] * len(placed)
        bit, rank = self.geometry.bit, self.rank
        for cell, object_id in zip(layout.token_squares, placed, strict=True):
            tokens[rank[object_id]] = bit(*cell)
        cards = self._recipes(seed)
        order = list(range(len(cards)))
        _shuffle(random.Random(f"recipe-deal-{seed}").getrandbits, order)
        if seats > len(cards):
            raise ValueError(f"{seats!r} players but only {len(cards)} recipe cards")
        return n, e, s, w, spare_mask, tokens, tuple(cards[i] for i in order[:seats])

    def _recipes(self, seed: int) -> tuple[tuple[int, ...], ...]:
        """`model.master.design_recipes` by rank: the first shuffle of the object slots whose
        cards keep every design rule."""
        layout = self.layout
        if layout.fixed_recipes is None:
            bits = random.Random(f"recipes-{seed}").getrandbits
            per_card, ids = layout.per_card, self.ids
            slots = [i for i in range(len(ids)) for _ in range(layout.per_object)]
            for _ in range(RECIPE_TRIES):
                _shuffle(bits, slots)
                dealt = [slots[i:i + per_card] for i in range(0, len(slots), per_card)]
                if any(len(set(card)) != per_card for card in dealt):
                    continue  # an object twice on a card: most deals, told before sorting
                cards = tuple(tuple(sorted(card)) for card in dealt)
                if len(set(cards)) != len(cards):
                    continue
                # The other design rules (how many cards, objects a card, cards an object)
                # hold for every shuffle of the slots or for none: judged on the first.
                if self._rules_hold is None:
                    named = tuple(tuple(ids[i] for i in card) for card in cards)
                    self._rules_hold = not recipe_problems(named, ids, {
                        "cards": layout.recipe_cards, "per_card": per_card,
                        "per_object": layout.per_object})
                if self._rules_hold:
                    return cards
                break
        # Fixed cards, or none found: the model's answer (or its error).
        rank = self.rank
        return tuple(tuple(rank[o] for o in card) for card in design_recipes(layout, seed))

    def wand_values(self, state: MasterState) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Greedy values (lower is better) of playing a wand and of passing, in a wand
        decision, as (minus the points expected, distance from the lowest token, wands spent).

        The wand costs its unused-wand points and, if the extra turn can take the lowest
        token, earns that token's gain (its value, plus the recipe bonus if it is on the
        mover's card). Passing keeps the wand; when no opponent could take the token on
        their next turn from the board as it stands, it also counts on taking the token on
        the mover's own next turn, so the wand is kept for a real race.
        """
        seat, low = state.seat, state.lowest
        banked = self.score(state, seat)
        wand = self.layout.unused_wand
        if low is None:
            return (-(banked - wand), 0, 1), (-banked, 0, 0)
        board, forbidden, target = state.board, state.forbidden, state.tokens[low]
        pawn = state.pawns[seat]
        distance = self._distance(pawn, target)
        if not self.can_take(board, forbidden, pawn, target):
            return (-(banked - wand), distance, 1), (-banked, distance, 0)
        gain = self.gain(state, seat, low)
        use = (-(banked - wand + gain), 0, 1)
        if gain <= wand:  # not worth a wand even in a race: skip looking at the others
            return use, (-banked, distance, 0)
        threat = any(self.can_take(board, forbidden, state.pawns[other], target)
                     for other in range(len(state.pawns)) if other != seat)
        return use, ((-banked, distance, 0) if threat else (-(banked + gain), 0, 0))

    def wand_pays(self, state: MasterState) -> bool:
        """Greedy's wand rule (see `wand_values`): the extra turn can take the lowest token,
        the token is worth more than an unused wand, and an opponent could take it on their
        next turn."""
        use, keep = self.wand_values(state)
        return use < keep

    def can_take(self, board: Board, forbidden: InsertionPoint | None, pawn: int,
                 target: int) -> bool:
        """Whether one turn on `board` (shift, then walk) can take the token on `target`
        with the pawn on `pawn`."""
        if pawn == target:
            return False  # shifts move both alike: the pawn would have to leave first
        lanes, reaches = self.lane_reaches(board, forbidden, pawn)
        return bool(reaches & lanes.carried(target))

    def _distance(self, square: int, target: int) -> int:
        return STANDING if square == target else self.geometry.distance(square, target)

    def _best_walk(self, reach: int, pawn: int, target: int, banked: int,
                   gain: int) -> tuple[int, int]:
        bit = 1 << target
        if pawn != target:
            if reach & bit:
                return (-(banked + gain), 0)
            return (-banked, self.geometry.nearest(reach, target))
        others = reach & ~bit  # standing on it: stepping off beats staying
        if not others:
            return (-banked, STANDING)
        return (-banked, min(STANDING, self.geometry.nearest(others, target)))


def _squares(bits: int) -> Iterator[int]:
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


# -- the solver, for tokens ----------------------------------------------------------------


def turns_to_token(board: Board, pawn: int, token: int, *,
                   forbidden: InsertionPoint | None = None, max_turns: int = 8,
                   budget: int = DEFAULT_BUDGET,
                   memo: dict[tuple[int, ...], Flooded] | None = None) -> Solution:
    """Fewest turns from bit square `pawn` until a walk can end on the token on bit square
    `token`, other pawns ignored. The pawn rides the pushes the same way as the token, so it
    never lands on it without walking there: every answer is an arrival. `memo` shares the
    search's floods with other searches (`solve`)."""
    if pawn == token:
        raise ValueError("the pawn already stands on the token")
    return solve(board, pawn, token, forbidden=forbidden, max_turns=max_turns, budget=budget,
                 rides=True, memo=memo)


def count_wands(before: MasterState, move: object, after: MasterState) -> dict[str, float]:
    """Self-play counter: wands played."""
    return {"wands_used": 1.0} if move == USE else {}
