"""The game protocol every rules engine implements, so simulation and reports are shared."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

State = TypeVar("State")
Move = TypeVar("Move", bound=Hashable)
T = TypeVar("T")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seat (None for no winner) and its length."""

    winner: int | None
    turns: int
    scores: tuple[int, ...] | None = None


# What a decision set off, for self-play figures: a counter name (counts one) or a name
# and an amount. The one play loop sums them per game (`boardgen.rules.simulate.play`).
Event = str | tuple[str, float]


class Game(Protocol[State, Move]):
    """A game's rules. `apply` returns the position after a move and never changes the one
    it is given (a game whose positions are mutable copies it, or offers `play` below).

    Chance (dice, shuffles) is drawn from a generator carried inside the position
    (`boardgen.draws`), so the same position and move always give the same result.

    A turn may be split into several decisions (for example shift, then walk); `to_move`
    then stays on the same seat until the turn is over.

    A game subclasses `Game` (or `HeuristicGame`) and so has the members below that have a
    default, which it overrides where it knows better: `count_moves` (how many legal moves
    there are), `turns_played` (complete turns;
    the default, None, counts every decision as a turn), `events` (what a decision set off,
    for self-play counters; none by default), and `position` with `play` for a game whose
    positions are mutable (the first position as one to change, and `apply` in place on
    it; by default `initial_state` and `apply`). The one play loop
    (`boardgen.rules.simulate.play`) reads only these members.
    """

    id: str

    def initial_state(self, players: int, seed: int) -> State: ...

    def to_move(self, state: State) -> int:
        """The seat (0-based) whose decision the state is waiting for."""
        ...

    def legal_moves(self, state: State) -> Sequence[Move]:
        """Empty exactly when the game is over (`outcome` then says how): self-play stops
        there."""
        ...

    def apply(self, state: State, move: Move) -> State: ...

    def outcome(self, state: State) -> Outcome | None:
        """None while the game goes on."""
        ...

    def count_moves(self, state: State) -> int:
        """How many moves `legal_moves` lists (self-play's branching figures); a game may count
        them without listing them."""
        return len(self.legal_moves(state))

    def turns_played(self, state: State) -> int | None:
        """Complete turns so far (self-play caps and measures games by them); None: every
        decision is a turn."""
        return None

    def events(self, state: State) -> Iterable[Event]:
        """What the decision that led to `state` set off (cards drawn, pawns bumped, wands
        used...), summed per game into the self-play record's counters: the only way a game
        reports them."""
        return ()

    def position(self, players: int, seed: int) -> State:
        """The first position of a game as self-play plays it (`play`): a mutable one where
        the game plays moves in place; by default `initial_state`."""
        return self.initial_state(players, seed)

    def play(self, state: State, move: Move) -> State:
        """The position after `move`, as self-play plays it: a game with mutable positions
        changes `state` in place and returns it (players get the position between decisions
        and must not change it); by default `apply`."""
        return self.apply(state, move)

    def play_offered(self, state: State, move: Move) -> State:
        """`play` of a move the game itself just offered for `state` (one of its `legal_moves`
        or `best_moves`: the greedy player's pick), which a game may play without checking
        it again; a player's own choice goes through `play`. By default `play`."""
        return self.play(state, move)


class HeuristicGame(Game[State, Move], Protocol[State, Move]):
    """A game the generic players (`boardgen.rules.players`: greedy, search) can play: it
    says how far a seat is from winning. `score_moves` and `best_moves` have defaults from
    the heuristic; a game overrides them where it can work them out faster (the same
    values, the same moves in the same order: the players' draws stay the same)."""

    def heuristic(self, state: State, seat: int) -> Any:
        """How far `seat` is from winning in `state`: lower is better, any comparable value."""
        ...

    def score_moves(self, state: State, moves: Sequence[Move], seat: int) -> list[Any]:
        """The heuristic for `seat` of each move's result."""
        return [self.heuristic(self.apply(state, move), seat) for move in moves]

    def best_moves(self, state: State) -> Sequence[Move]:
        """The greedy player's candidates: the legal moves whose result has the lowest
        `score_moves` for the seat to move, in legal order."""
        moves = list(self.legal_moves(state))
        scores = self.score_moves(state, moves, self.to_move(state))
        low = min(scores)
        return [move for move, score in zip(moves, scores, strict=True) if score == low]

    def counted_best(self, state: State) -> tuple[int, Sequence[Move]]:
        """`count_moves` and, unless it is 0, `best_moves` of a position at once (the play
        loop asks both of a position where the seat's player picks the best): a game that works
        both out from the same tables answers in one go."""
        count = self.count_moves(state)
        return count, self.best_moves(state) if count else ()


class Rng(Protocol):
    """What a player may draw from: `boardgen.draws.Draws` (its seed derived from the
    game's), or anything with the same calls."""

    def choice(self, items: Sequence[T]) -> T: ...

    def random(self) -> float: ...

    def sample(self, items: Sequence[T], k: int) -> list[T]: ...


class Player(Protocol):
    """Chooses a move; `rng` is the only source of randomness it may use. A player may need
    more of the game than `Game` (the generic greedy and search players need a
    `HeuristicGame`; a game's own players may need that game), hence the loose type of
    `game`: each engine lists the players that can play its game (`Engine.players`).

    A player subclasses `Player`. One whose choice is always ``tie_break(game.best_moves(state),
    rng)`` (the greedy player: the only best move, else ``rng.choice`` of them, see
    `boardgen.rules.players.tie_break`) says so with `picks_best`: the play loop then makes
    that choice itself, asking the game's `best_moves`, without calling `choose`."""

    name: str
    picks_best: bool = False

    def choose(self, game: Any, state: Any, rng: Rng) -> Any: ...
