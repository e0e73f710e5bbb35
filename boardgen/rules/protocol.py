"""The game protocol every rules engine implements, so simulation and reports are shared."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

State = TypeVar("State")
Move = TypeVar("Move", bound=Hashable)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seat (None for no winner) and its length."""

    winner: int | None
    turns: int
    scores: tuple[int, ...] | None = None


class Game(Protocol[State, Move]):
    """A game's rules. States are immutable; `apply` returns a new state and never mutates.

    Chance (dice, shuffles) is drawn from a seed carried inside the state, so the same
    state and move always give the same result.

    A turn may be split into several decisions (for example shift, then walk); `to_move`
    then stays on the same seat until the turn is over. Optional methods that shared code
    uses when a game defines them:

    - ``turns_played(state) -> int``: complete turns so far (simulation caps and measures
      games by it; without it every decision counts as a turn);
    - ``heuristic(state, seat) -> float | tuple``: how far `seat` is from winning, lower is
      better (used by the greedy player);
    - ``score_moves(state, moves, seat) -> list``: the heuristic of each move's result, for
      games that can compute it faster than `apply` + `heuristic`.
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


class HeuristicGame(Game[State, Move], Protocol[State, Move]):
    """A game the generic players (`boardgen.rules.players`: greedy, search) can play: it
    says how far a seat is from winning. ``score_moves(state, moves, seat)``, when the game
    has it, scores every move at once (see `Game`)."""

    def heuristic(self, state: State, seat: int) -> Any:
        """How far `seat` is from winning in `state`: lower is better, any comparable value."""
        ...


class Player(Protocol):
    """Chooses a move; `rng` is the only source of randomness it may use. A player may need
    more of the game than `Game` (the generic greedy and search players need a
    `HeuristicGame`; a game's own players may need that game), hence the loose type of
    `game`: each engine lists the players that can play its game (`Engine.players`)."""

    name: str

    def choose(self, game: Any, state: Any, rng: random.Random) -> Any: ...
