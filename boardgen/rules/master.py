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
   with the seed's own generator (``for_purpose(seed, "recipe-deal")``) and seat ``i`` takes the ``i``-th; the rest
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

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from boardgen.draws import for_purpose
from boardgen.model.master import MasterLayout, setup
from boardgen.model.sliding import InsertionPoint
from boardgen.rules.protocol import Outcome
from boardgen.rules.sliding import (
    SHIFT,
    WALK,
    Board,
    IllegalMoveError,
    Position,
    SlidingRules,
    _grower,
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


class MasterState(Position):
    """A game of Labyrinthe Master as it stands: the `Position`, the tokens, who took what,
    recipes and wands."""

    __slots__ = ("tokens", "taken", "recipes", "wands", "extra")

    def __init__(
        self,
        board: Board,
        pawns: Sequence[int],
        *,
        tokens: Sequence[int],
        taken: Sequence[int],
        recipes: Sequence[Sequence[int]],
        wands: Sequence[int],
        extra: bool = False,
        over: bool = False,
        **position: Any,
    ):
        super().__init__(board, pawns, **position)
        self.tokens = tuple(tokens)  # bit square per object in order of value, TAKEN once taken
        self.taken = tuple(taken)  # the seat that took each of the lowest objects, in order
        self.recipes = tuple(tuple(card) for card in recipes)  # per seat, its card's objects by rank
        self.wands = tuple(wands)  # wands left per seat
        self.extra = extra  # the turn under way is a wand's extra turn
        self.over = over  # the last object has been taken (`Position.over`)

    def copy(self) -> Self:
        other = super().copy()
        other.tokens, other.taken, other.recipes = self.tokens, self.taken, self.recipes
        other.wands, other.extra = self.wands, self.extra
        return other

    def key(self) -> tuple[Any, ...]:
        return (*super().key(), self.tokens, self.taken, self.recipes, self.wands, self.extra)

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


def deal_recipes(cards: Sequence[Sequence[str]], players: int, seed: int) -> tuple[tuple[str, ...], ...]:
    """Each seat's recipe card: the cards shuffled with the seed, seat i draws the i-th."""
    if players > len(cards):
        raise ValueError(f"{players!r} players but only {len(cards)} recipe cards")
    order = list(range(len(cards)))
    for_purpose(seed, "recipe-deal").shuffle(order)
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

    # -- the protocol --------------------------------------------------------------------

    def initial_state(self, players: int, seed: int) -> MasterState:
        """The printed set-up of `seed` (`model.master.setup`), recipes dealt by seat."""
        self.check_players(players)
        start = setup(self.layout, seed)
        return self.start(
            Board.from_deal(start.deal, self.geometry),
            players,
            tokens=start.tokens,
            recipes=deal_recipes(start.recipes, players, seed),
            seed=seed,
        )

    def start(
        self,
        board: Board,
        players: int,
        *,
        tokens: Mapping[tuple[int, int], str],
        recipes: Sequence[Sequence[str]],
        seed: int = 0,
        pawns: Sequence[tuple[int, int]] | None = None,
        taken: Sequence[int] = (),
        wands: Sequence[int] | None = None,
    ) -> MasterState:
        """A game on a given board, seat 0 to shift.

        `tokens` maps (row, col) to the object lying there; the objects taken already are
        the lowest ones, and `taken` names the seat holding each, in order of value. Pawns
        default to the starts, wands to the layout's number per player.
        """
        self.check_players(players)
        if board.geometry.size != self.geometry.size:
            raise ValueError(
                f"a {board.geometry.size}x{board.geometry.size} board for a "
                f"{self.geometry.size}x{self.geometry.size} game"
            )
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
            raise ValueError(
                f"with {len(taken)} objects taken the board needs the others: "
                f"missing {missing!r}, taken but placed {extra!r}"
            )
        if any(not 0 <= seat < players for seat in taken):
            raise ValueError(f"taken by {list(taken)!r}: seats run 0..{players - 1}")
        if len(recipes) != players:
            raise ValueError(f"{len(recipes)} recipe cards for {players!r} players")
        cards = tuple(tuple(self.rank[o] for o in card) for card in recipes)
        if pawns is not None and len(pawns) != players:
            raise ValueError(f"{len(pawns)} pawns for {players!r} players")
        where = self.homes[:players] if pawns is None else tuple(self.geometry.bit(*cell) for cell in pawns)
        left = tuple(wands) if wands is not None else (self.layout.wands_per_player,) * players
        return MasterState(board, where, tokens=squares, taken=taken, recipes=cards, wands=left, seed=seed)

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

    def shifted(self, state: MasterState, point: int) -> None:
        """Tokens ride their tiles as the pawns do (`Push.carry`)."""
        state.tokens = tuple(map(self._carries[point].__getitem__, state.tokens))

    def arrive(self, state: MasterState, square: int) -> None:
        """A walk that ends on the lowest token, from another square, takes it; taking the
        last object ends the game."""
        seat = state.seat
        tokens = state.tokens
        low = len(state.taken)
        if square != state.pawns[seat] and low < len(tokens) and tokens[low] == square:
            state.tokens = tokens[:low] + (TAKEN,) + tokens[low + 1 :]
            state.taken += (seat,)
            state.over = low == self.last_rank
        state.pawns[seat] = square

    def end_turn(self, state: MasterState) -> None:
        """After a complete turn the mover may play a wand (`WAND` phase) if it has one and
        the turn was not already a wand's; otherwise the next seat shifts."""
        seat = state.seat
        if state.over:
            state.phase = SHIFT
        elif state.wands[seat] and not state.extra:
            state.phase, state.extra = WAND, False
        else:
            state.seat, state.phase, state.extra = (seat + 1) % len(state.pawns), SHIFT, False
        state.turn += 1
        state.reach = 0

    def play_other(self, state: MasterState, move: object) -> None:
        """The wand decision: play a wand for an extra turn now, or pass."""
        if not isinstance(move, Wand):
            raise IllegalMoveError(f"{move} cannot be played: the turn is over, play a wand or pass")
        seat = state.seat
        if move.use:
            wands = state.wands
            state.wands = wands[:seat] + (wands[seat] - 1,) + wands[seat + 1 :]
            state.extra = True
            state.recorded = ("wands_used",)
        else:
            state.seat = (seat + 1) % len(state.pawns)
        state.phase = SHIFT
        state.changed()

    def check_players(self, players: int) -> None:
        """Refuse a player count the layout is not for."""
        low, high = self.layout.players
        if not low <= players <= high:
            raise ValueError(f"{self.layout.id!r} is for {low} to {high} players, not {players!r}")
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
        """One seat's score as it stands (`scores`)."""
        recipe, values, bonus = state.recipes[seat], self.values, self.layout.recipe_bonus
        return state.wands[seat] * self.layout.unused_wand + sum(
            values[rank] + (bonus if rank in recipe else 0) for rank, owner in enumerate(state.taken) if owner == seat
        )

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
            return self._best_walk(state.reach, pawn, target, banked, self.gain(state, seat, low))
        return (-banked, self._distance(pawn, target))

    def score_moves(self, state: MasterState, moves: Sequence[Any], seat: int) -> list[tuple[int, ...]]:
        """`heuristic` of each move's result without building the positions; for a wand
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
        lanes, reaches = self.outlook(state)[:2]
        lane, pushes, index = lanes.lane, lanes.pushes, lanes.index
        # Many shifts leave the same squares in reach of the token: score each once.
        memo: dict[tuple[int, int], tuple[int, int]] = {}
        for move in moves:
            k = index[move]
            push = pushes[k]
            key = (lane(reaches, k), push.carry(target))
            value = memo.get(key)
            if value is None:
                value = memo[key] = self._best_walk(key[0], push.carry(pawn), key[1], banked, gain)
            scores.append(value)
        return scores

    def best_moves(self, state: MasterState) -> Sequence[Any]:
        """The mover's legal moves whose results score best by `score_moves`, in the order
        of `legal_moves`: what a greedy player chooses among, found without scoring every
        move. A shift phase floods every shift's board at once (`outlook`) and grows the
        lowest token (riding each shift) until it meets a lane's reach; a walk phase grows
        it on the one board."""
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
        lanes, reaches = self.outlook(state)[:2]
        targets = lanes.carries[target]
        if pawn != target:
            hits, grown = reaches & targets, targets
            while not hits:
                grown = lanes.grow(grown)
                hits = reaches & grown
            return lanes.best(hits)
        others, grown = reaches & ~targets, targets
        for _ in range(STANDING - 1):
            grown = lanes.grow(grown)
            if others & grown:
                return lanes.best(others & grown)
        return lanes.moves

    def wand_values(self, state: MasterState) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Greedy values (lower is better) of playing a wand and of passing, in a wand
        decision, as (minus the points expected, distance from the lowest token, wands spent).

        The wand costs its unused-wand points and, if the extra turn can take the lowest
        token, earns that token's gain (its value, plus the recipe bonus if it is on the
        mover's card). Passing keeps the wand; when no opponent could take the token on
        their next turn from the board as it stands, it also counts on taking the token on
        the mover's own next turn, so the wand is kept for a real race.

        Who can take the token is one flood of every shift from the token (`takers`).
        """
        seat, low = state.seat, state.lowest
        banked = self.score(state, seat)
        wand = self.layout.unused_wand
        if low is None:
            return (-(banked - wand), 0, 1), (-banked, 0, 0)
        pawn, target = state.pawns[seat], state.tokens[low]
        distance = self._distance(pawn, target)
        around, carries = self.takers(state, target)
        if not around & carries[pawn]:
            return (-(banked - wand), distance, 1), (-banked, distance, 0)
        gain = self.gain(state, seat, low)
        use = (-(banked - wand + gain), 0, 1)
        if gain <= wand:  # not worth a wand even in a race: skip looking at the others
            return use, (-banked, distance, 0)
        threat = any(around & carries[state.pawns[other]] for other in range(len(state.pawns)) if other != seat)
        return use, ((-banked, distance, 0) if threat else (-(banked + gain), 0, 0))

    def takers(self, state: MasterState, target: int) -> tuple[int, tuple[int, ...]]:
        """Where a pawn can take the token on `target` in one turn from `state`'s board:
        in every lane of the shifts allowed, the squares joined to the token but the
        token's own (a pawn on it must leave first), with the lanes' `Lanes.carries` to
        test a pawn's square against them. Joined is symmetric, so one flood from the token
        answers for every pawn."""
        lanes, reaches = self.lane_flood(state, target)
        return reaches & ~lanes.carries[target], lanes.carries

    def wand_pays(self, state: MasterState) -> bool:
        """Greedy's wand rule (see `wand_values`): the extra turn can take the lowest token,
        the token is worth more than an unused wand, and an opponent could take it on their
        next turn."""
        use, keep = self.wand_values(state)
        return use < keep

    def can_take(self, board: Board, forbidden: InsertionPoint | None, pawn: int, target: int) -> bool:
        """Whether one turn on `board` (shift, then walk) can take the token on `target`
        with the pawn on `pawn`."""
        if pawn == target:
            return False  # shifts move both alike: the pawn would have to leave first
        lanes, reaches = self.lane_reaches(board, forbidden, pawn)
        return bool(reaches & lanes.carried(target))

    def _distance(self, square: int, target: int) -> int:
        return STANDING if square == target else self.geometry.distance(square, target)

    def _best_walk(self, reach: int, pawn: int, target: int, banked: int, gain: int) -> tuple[int, int]:
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


def turns_to_token(
    board: Board,
    pawn: int,
    token: int,
    *,
    forbidden: InsertionPoint | None = None,
    max_turns: int = 8,
    budget: int = DEFAULT_BUDGET,
    memo: dict[tuple[int, ...], Flooded] | None = None,
) -> Solution:
    """Fewest turns from bit square `pawn` until a walk can end on the token on bit square
    `token`, other pawns ignored. The pawn rides the pushes the same way as the token, so it
    never lands on it without walking there: every answer is an arrival. `memo` shares the
    search's floods with other searches (`solve`)."""
    if pawn == token:
        raise ValueError("the pawn already stands on the token")
    return solve(board, pawn, token, forbidden=forbidden, max_turns=max_turns, budget=budget, rides=True, memo=memo)
