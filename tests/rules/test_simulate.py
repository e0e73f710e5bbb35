"""Generic self-play statistics, exercised on a toy game that knows nothing of labyrinths."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from boardgen.rules.players import GreedyPlayer, RandomPlayer, tie_break
from boardgen.rules.protocol import HeuristicGame, Outcome, Player
from boardgen.rules.simulate import (
    Batch,
    aggregate,
    chi_square_sf,
    game_seeds,
    percentile,
    play,
    play_batches,
    seat_balance_p,
    simulate,
)


@dataclass(frozen=True)
class Pile:
    left: int
    seat: int
    seats: int
    turn: int = 0
    winner: int | None = None
    took: int = 0


class Nim(HeuristicGame[Pile, int]):
    """Take 1 to 3 counters; whoever takes the last one wins."""

    id = "nim"

    def __init__(self, counters: int = 21, endless: bool = False):
        self.counters = counters
        self.endless = endless

    def initial_state(self, players: int, seed: int) -> Pile:
        return Pile(self.counters + seed % 3, 0, players)

    def to_move(self, state: Pile) -> int:
        return state.seat

    def legal_moves(self, state: Pile) -> list[int]:
        if self.endless:
            return [0]
        return [n for n in (1, 2, 3) if n <= state.left]

    def apply(self, state: Pile, move: int) -> Pile:
        left = state.left - move
        winner = state.seat if left == 0 and not self.endless else None
        return Pile(left, (state.seat + 1) % state.seats, state.seats, state.turn + 1, winner, move)

    def outcome(self, state: Pile) -> Outcome | None:
        return None if state.winner is None else Outcome(state.winner, state.turn)

    def heuristic(self, state: Pile, seat: int) -> int:
        # Leaving a multiple of 4 to a single opponent wins; 0 left means I just won.
        return 0 if state.winner == seat else (1 if state.left % 4 == 0 else 2)


def test_percentile_is_nearest_rank():
    assert percentile([5, 1, 3, 2, 4], 0.95) == 5
    assert percentile(list(range(1, 101)), 0.95) == 95
    assert percentile([7], 0.5) == 7
    with pytest.raises(ValueError):
        percentile([], 0.5)


def test_chi_square_matches_tables():
    for df, x, p in [
        (1, 3.841, 0.05),
        (2, 5.991, 0.05),
        (3, 7.815, 0.05),
        (3, 11.345, 0.01),
        (4, 13.277, 0.01),
        (5, 11.070, 0.05),
    ]:
        assert chi_square_sf(x, df) == pytest.approx(p, abs=5e-4)
    assert seat_balance_p([50, 50]) == 1.0
    assert seat_balance_p([100, 0]) < 1e-6
    assert seat_balance_p([0, 0, 0]) == 1.0


def test_simulate_counts_wins_lengths_and_branching():
    stats = simulate(Nim(), [RandomPlayer(), RandomPlayer()], games=40, seed=3, turn_cap=100)
    assert stats.games == 40 and stats.finished == 40 and stats.completion_rate == 1.0
    assert sum(stats.seat_wins) == 40 and stats.draws == 0
    assert stats.seat_gap == pytest.approx(abs(stats.seat_win_rates[0] - stats.seat_win_rates[1]))
    assert stats.mean_length is not None and stats.p95_length is not None and stats.max_length is not None
    assert 7 <= stats.mean_length <= 23 and stats.p95_length <= stats.max_length <= 23
    assert 1 < stats.branching_mean <= 3 and stats.branching_max == 3
    assert stats.to_dict()["players"] == ["random", "random"]
    assert "40/40" in stats.to_text()


def test_simulate_is_reproducible_from_its_seed():
    one = simulate(Nim(), [RandomPlayer()] * 3, games=20, seed=9, turn_cap=100)
    two = simulate(Nim(), [RandomPlayer()] * 3, games=20, seed=9, turn_cap=100)
    assert one.to_dict() == two.to_dict()
    assert game_seeds(9, 5) == game_seeds(9, 5) != game_seeds(10, 5)


def test_turn_cap_stops_endless_games():
    stats = simulate(Nim(endless=True), [RandomPlayer()] * 2, games=3, seed=1, turn_cap=17)
    assert stats.finished == 0 and stats.completion_rate == 0.0
    assert stats.mean_length is None and stats.p95_length is None
    assert stats.decisions_mean == 17


def test_greedy_player_uses_the_heuristic():
    # From 21 + seed % 3 counters the greedy first player leaves multiples of 4 when it can.
    record = play(Nim(), [GreedyPlayer(), RandomPlayer()], 1, turn_cap=100)
    assert record.finished and record.winner == 0


class CountingNim(Nim):
    """Nim that records each take of 3 as an event (`Game.events`)."""

    def events(self, state: Pile) -> tuple[str, ...]:
        return ("threes",) if state.took == 3 else ()


def test_event_counters_are_summed_and_averaged():
    stats = simulate(CountingNim(), [RandomPlayer()] * 2, games=10, seed=2, turn_cap=100)
    assert stats.extra_totals["threes"] == pytest.approx(10 * stats.extra["threes"])
    assert stats.extra["threes"] > 0


def test_progress_is_reported_after_every_game():
    calls = []
    simulate(
        Nim(),
        [RandomPlayer()] * 2,
        games=4,
        seed=1,
        turn_cap=100,
        progress=lambda done, total, label: calls.append((done, total, label)),
        label="nim",
    )
    assert calls == [(1, 4, "nim"), (2, 4, "nim"), (3, 4, "nim"), (4, 4, "nim")]


def test_no_legal_move_before_the_end_is_an_error():
    class Stuck(Nim):
        def legal_moves(self, state):
            return []

    with pytest.raises(RuntimeError, match="no legal move"):
        play(Stuck(), [RandomPlayer()] * 2, 1, turn_cap=10)


def test_aggregate_of_no_decided_games():
    stats = aggregate("x", ("a", "b"), [], 10)
    assert stats.completion_rate == 0.0 and stats.seat_gap == 0.0
    assert simulate(
        Nim(), [RandomPlayer()], games=1, seed=random.Random(0).randrange(9), turn_cap=50
    ).seat_win_rates == (1.0,)
    with pytest.raises(ValueError):
        simulate(Nim(), [RandomPlayer()], games=0, seed=1, turn_cap=5)


def test_several_workers_give_the_same_statistics():
    calls = []
    args: dict[str, Any] = dict(games=40, seed=5, turn_cap=100)
    one = simulate(CountingNim(), [RandomPlayer()] * 3, **args)
    assert one.extra["threes"] > 0
    two = simulate(
        CountingNim(),
        [RandomPlayer()] * 3,
        workers=2,
        progress=lambda done, total, label: calls.append((done, total)),
        **args,
    )
    assert one.to_dict() == two.to_dict()
    assert calls[-1] == (40, 40)
    # One call per task, in guided chunks (a quarter of the games left per worker, at least
    # 4): of 40 games, 5 and 5, seven of 4, and the last 2, finished in any order.
    steps = [done - before for (done, _), before in zip(calls, [0] + [d for d, _ in calls[:-1]], strict=True)]
    assert sorted(steps, reverse=True) == [5, 5, 4, 4, 4, 4, 4, 4, 4, 2]


def test_batches_of_different_seat_counts_come_back_in_seed_order_whatever_the_workers():
    """The pool hands out the games with most seats first; each batch's records still come
    back in its own seed order, the same as played one by one here."""
    batches = [Batch(tuple([RandomPlayer()] * seats), tuple(game_seeds(seats, 35)), str(seats)) for seats in (2, 4, 3)]
    one = play_batches(CountingNim(), batches, turn_cap=100, workers=1)
    two = play_batches(CountingNim(), batches, turn_cap=100, workers=2)
    assert one == two
    assert [[record.seed for record in records] for records in two] == [list(b.seeds) for b in batches]
    assert [{record.seats for record in records} for records in two] == [{2}, {4}, {3}]


class Heap:
    """A position of `Doubles`, changed in place."""

    def __init__(self, left: int, seats: int):
        self.left, self.seats, self.turn, self.taken, self.winner = left, seats, 0, 0, -1
        self.events: list[str] = []


class Doubles(HeuristicGame[Heap, int]):
    """Nim in turns of two takes (1 or 2 counters each) played in place (`position`,
    `play`); a take of 2 is an event. It counts the moves it is asked for."""

    id = "doubles"

    def __init__(self) -> None:
        self.best_asked = 0

    def initial_state(self, players: int, seed: int) -> Heap:
        return Heap(30 + seed % 5, players)

    def to_move(self, state: Heap) -> int:
        return state.turn % state.seats

    def turns_played(self, state: Heap) -> int:
        return state.turn

    def legal_moves(self, state: Heap) -> list[int]:
        return [n for n in (1, 2) if n <= state.left]

    def best_moves(self, state: Heap) -> list[int]:
        self.best_asked += 1
        return [min(self.legal_moves(state))]

    def heuristic(self, state: Heap, seat: int) -> int:
        return state.left

    def apply(self, state: Heap, move: int) -> Heap:
        raise AssertionError("played in place")

    def play(self, state: Heap, move: int) -> Heap:
        state.left -= move
        state.events = ["two"] if move == 2 else []
        if state.left == 0:
            state.winner = state.turn % state.seats
        elif state.taken:
            state.turn, state.taken = state.turn + 1, 0
        else:
            state.taken = 1
        return state

    def events(self, state: Heap) -> list[str]:
        return state.events

    def outcome(self, state: Heap) -> Outcome | None:
        return None if state.winner < 0 else Outcome(state.winner, state.turn + 1)


class Unasked(GreedyPlayer):
    """A greedy player the loop must never ask: it picks the best (`picks_best`)."""

    def choose(self, game, state, rng):
        raise AssertionError("the loop makes a best-picking player's choice itself")


class Asking(Player):
    """The greedy player's choice, made by the player itself (`picks_best` unset)."""

    name = "asking"

    def choose(self, game, state, rng):
        return tie_break(game.best_moves(state), rng)


@pytest.mark.parametrize("cap", [1000, 7])
def test_the_loop_makes_the_best_picking_players_choice_from_best_moves(cap):
    """Turns of two decisions counted by `turns_played`, positions changed in place, events
    summed; a player that picks the best has the same choice made for it by the loop from
    the game's `best_moves` (asked once a decision) as it would make itself."""
    twos = 0.0
    for seed in range(12):
        game = Doubles()
        record = play(game, [RandomPlayer(), Unasked(), RandomPlayer()], seed, turn_cap=cap)
        assert record == play(Doubles(), [RandomPlayer(), Asking(), RandomPlayer()], seed, turn_cap=cap)
        assert record.finished == (cap == 1000) and record.turns == min(cap, record.turns)
        assert record.decisions >= 2 * (record.turns - 1) and record.branching_max == 2
        assert 0 < game.best_asked < record.decisions  # one seat of three asked it
        twos += record.counters.get("two", 0.0)
    assert twos > 0  # the random seats' takes of 2, summed from the game's events
