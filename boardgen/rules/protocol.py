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
    then stays on the same seat until the turn is over. Optional members, each declared by
    a protocol below (shared code looks for them with ``getattr`` and nothing else):

    - `TurnCounting` ``turns_played(state) -> int``: complete turns so far (simulation caps
      and measures games by it; without it every decision counts as a turn);
    - `Recording` ``events(state) -> Iterable[Event]``: what the decision that led to
      `state` set off (cards drawn, pawns bumped, wands used...), summed per game into the
      record's counters; the only way a game reports self-play counters;
    - `InPlace` ``position(players, seed)`` and ``play(state, move) -> None``: the first
      position as a mutable one, and `apply` in place on it (the self-play loop uses them
      when present; players get the position between decisions and must not change it);
      `TurnPlaying` ``play_turns(state, players, rng, turn_cap)``: a whole game of an
      `InPlace` game in one call;
    - `HeuristicGame` ``heuristic(state, seat)``: how far `seat` is from winning (the greedy
      player); `Scoring` ``score_moves(state, moves, seat) -> list``: the heuristic of each
      move's result at once; `BestMoves` ``best_moves(state) -> Sequence``: the legal moves
      of the lowest score, in legal order, without scoring every move.
    """

    id: str

    def initial_state(self, players: int, seed: int) -> State: ...

    def to_move(self, state: State) -> int:
        """The seat (0-based) whose decision the state is waiting for."""
        ...

    def legal_moves(self, state: State) -> Sequence[Move]:
        """Never empty while `outcome(state)` is None."""
        ...

    def apply(self, state: State, move: Move) -> State: ...

    def outcome(self, state: State) -> Outcome | None:
        """None while the game goes on."""
        ...


class TurnCounting(Protocol):
    """A game whose turn is several decisions: complete turns so far."""

    def turns_played(self, state: Any) -> int: ...


class Recording(Protocol):
    """A game that reports what each decision set off (self-play counters)."""

    def events(self, state: Any) -> Iterable[Event]: ...


class InPlace(Protocol):
    """A game whose positions are mutable: self-play starts from `position` (the position
    `initial_state` describes, as one to change) and plays each move in place."""

    def position(self, players: int, seed: int) -> Any: ...

    def play(self, state: Any, move: Any) -> None: ...


class TurnPlaying(Protocol):
    """An `InPlace` game that plays a whole game in one call: every decision, each chosen by
    its seat's player (``players[seat].choose(game, state, rng)``) and played as `play`
    plays it, until the game ends or `turn_cap` turns (`TurnCounting`) are played. Returns
    how many decisions it made, the moves offered in all, the most offered at one decision
    and the events they set off: what playing them one at a time would give, with the play
    loop's cost paid once a game."""

    def play_turns(
        self, state: Any, players: Sequence[Player], rng: Rng, turn_cap: int
    ) -> tuple[int, int, int, Sequence[Event]]: ...


class Scoring(Protocol):
    """A game that scores every move of a position at once (see `HeuristicGame`)."""

    def score_moves(self, state: Any, moves: Sequence[Any], seat: int) -> list[Any]: ...


class BestMoves(Protocol):
    """A game that lists the greedy player's candidates itself: the legal moves whose result
    has the lowest heuristic for the seat to move, in legal order."""

    def best_moves(self, state: Any) -> Sequence[Any]: ...


class HeuristicGame(Game[State, Move], Protocol[State, Move]):
    """A game the generic players (`boardgen.rules.players`: greedy, search) can play: it
    says how far a seat is from winning. ``score_moves(state, moves, seat)``, when the game
    has it, scores every move at once (see `Game`)."""

    def heuristic(self, state: State, seat: int) -> Any:
        """How far `seat` is from winning in `state`: lower is better, any comparable value."""
        ...


class PicksBest(Protocol):
    """A player whose choice is ``tie_break(game.best_moves(state), rng)`` wherever the game
    lists its best moves (`BestMoves`): the only one, else ``rng.choice`` of them (see
    `boardgen.rules.players.tie_break`). A game that plays whole turns (`TurnPlaying`) may
    make that choice itself, without asking the player."""

    picks_best: bool


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
    `game`: each engine lists the players that can play its game (`Engine.players`)."""

    name: str

    def choose(self, game: Any, state: Any, rng: Rng) -> Any: ...
